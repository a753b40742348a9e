-- tests/scenarios/coll_ops.lua: op objects and mpi.reduce_local (API.md §3,
-- §7; reference §1.1, §1.2): the predefined ops, op_create with its commute
-- flag, op:commutative(), op_free and freed handles, and the operand order
-- of reduce_local (inbuf ∘ inoutbuf). All local: no communication.
local t = require("lumpi.test")
t.np = {1, 2}

local names = {"SUM", "PROD", "MAX", "MIN", "LAND", "LOR", "LXOR", "BAND", "BOR", "BXOR", "MAXLOC", "MINLOC"}

local function matmul(x, y)
  return {x[1] * y[1] + x[2] * y[3], x[1] * y[2] + x[2] * y[4],
          x[3] * y[1] + x[4] * y[3], x[3] * y[2] + x[4] * y[4]}
end

t.case("every predefined op exists and is commutative", function()
  for _, name in ipairs(names) do
    t.ok(mpi[name], name)
    t.eq(mpi[name]:commutative(), true, name)
    t.eq(tostring(mpi[name]), "op MPI_" .. name)
  end
end)

t.case("op_create keeps the commute flag", function()
  local a = mpi.op_create(function(x, y) return x end, false)
  local b = mpi.op_create(function(x, y) return x end, true)
  local c = mpi.op_create(function(x, y) return x end)
  t.eq(a:commutative(), false)
  t.eq(b:commutative(), true)
  t.eq(c:commutative(), false)
  mpi.op_free(a); b:free(); mpi.op_free(c)
end)

t.case("reduce_local returns inbuf op inoutbuf", function()
  t.eq(mpi.reduce_local({1, 2, 3}, {10, 20, 30}, mpi.SUM), {11, 22, 33})
  t.eq(mpi.reduce_local(3, 4, mpi.PROD), 12)
  t.eq(mpi.reduce_local({5, 2}, {5, 1}, mpi.MAXLOC), {5, 1})
  t.eq(mpi.reduce_local({{5, 2}, {1, 0}}, {{5, 1}, {0, 9}}, mpi.MINLOC), {{5, 1}, {0, 9}})
  local left = mpi.op_create(function(a, b) return a end, false)
  local right = mpi.op_create(function(a, b) return b end, false)
  t.eq(mpi.reduce_local("in", "inout", left), "in")
  t.eq(mpi.reduce_local("in", "inout", right), "inout")
  local mm = mpi.op_create(matmul, false)
  local A, B = {1, 2, 3, 4}, {0, 1, 1, 0}
  t.eq(mpi.reduce_local(A, B, mm), matmul(A, B))
  t.ok(not require("lumpi.test") or matmul(A, B)[1] ~= matmul(B, A)[1])
end)

t.case("reduce_local does not modify its arguments", function()
  local a, b = {1, 2}, {3, 4}
  mpi.reduce_local(a, b, mpi.SUM)
  t.eq(a, {1, 2})
  t.eq(b, {3, 4})
end)

t.case("reduce_local rejects operands the op does not take", function()
  t.raises(function() mpi.reduce_local(1.5, 2.5, mpi.BAND) end, "MPI_ERR_OP")
  t.raises(function() mpi.reduce_local("a", "b", mpi.SUM) end, "MPI_ERR_OP")
  t.raises(function() mpi.reduce_local({1, 2}, {1}, mpi.SUM) end, "MPI_ERR_COUNT")
  t.raises(function() mpi.reduce_local(true, 1, mpi.LAND) end, "MPI_ERR_TYPE")
  t.raises(function() mpi.reduce_local(1, 2, nil) end, "MPI_ERR_OP")
end)

t.case("a user op's error becomes MPI_ERR_OP in reduce_local", function()
  local bad = mpi.op_create(function() error("nope") end, true)
  local err = t.raises(function() mpi.reduce_local(1, 2, bad) end, "MPI_ERR_OP")
  t.ok(tostring(err):find("nope"), tostring(err))
end)

t.case("freed ops raise MPI_ERR_OP; predefined ops cannot be freed", function()
  local op = mpi.op_create(function(a, b) return a + b end, true)
  mpi.op_free(op)
  t.eq(tostring(op), "op (freed)")
  t.raises(function() op:commutative() end, "MPI_ERR_OP")
  t.raises(function() mpi.reduce_local(1, 2, op) end, "MPI_ERR_OP")
  t.raises(function() mpi.COMM_WORLD:allreduce(1, op) end, "MPI_ERR_OP")
  t.raises(function() mpi.op_free(op) end, "MPI_ERR_OP")
  t.raises(function() mpi.op_free(mpi.SUM) end, "MPI_ERR_OP")
  t.raises(function() mpi.op_create("not a function", true) end, "MPI_ERR_ARG")
  t.eq(mpi.COMM_WORLD:allreduce(1, mpi.SUM), mpi.size())  -- SUM still works
end)
