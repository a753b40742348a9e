-- tests/scenarios/datatype_p2p.lua: typed buffers and derived datatypes in
-- point-to-point (MPI-3.1 §3.2-3.3, §4.1.11; MPI-2.1 Ballot 4 item 5;
-- API.md §14): (buffer, count, datatype) triples, type signatures matching
-- across different layouts, get_count / get_elements, probe then size the
-- receive, and the local errors raised before anything is sent.
local t = require("lumpi.test")
t.np = {2, 3, 5}

local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()
local right, left = (me + 1) % n, (me - 1) % n

local function committed(ty)
  ty:commit()
  return ty
end

local function values(b)
  local out = {}
  for i = 1, #b do out[i] = b[i] end
  return out
end

t.case("buffers are C arrays of their type, 1-based in Lua (API.md §14)", function()
  local b = mpi.buffer(mpi.INT, 4, {1, 2, 3})
  t.eq(#b, 4)
  t.eq(values(b), {1, 2, 3, 0})
  b[4] = -7
  t.eq(b[4], -7)
  t.eq(b[5], nil)
  t.raises(function() b[5] = 1 end, "MPI_ERR_ARG")
  t.raises(function() b[1] = 1.5 end, "MPI_ERR_ARG")
  t.raises(function() mpi.buffer(mpi.CHAR, 1)[1] = 300 end, "MPI_ERR_ARG")
  local p = mpi.buffer(mpi.DOUBLE_INT, 2, {{2.5, 1}})
  t.eq(p[1], {2.5, 1})
  t.eq(mpi.buffer(mpi.C_BOOL, 1, {true})[1], true)
  t.raises(function() mpi.buffer(mpi.type_contiguous(2, mpi.INT), 1) end, "MPI_ERR_TYPE")
  t.raises(function() mpi.buffer(mpi.INT, -1) end, "MPI_ERR_COUNT")
end)

t.case("element assignment raises even under ERRORS_RETURN (it has no result to return)", function()
  local b = mpi.buffer(mpi.INT, 1)
  w:set_errhandler(mpi.ERRORS_RETURN)
  local ok = pcall(function() b[2] = 1 end)
  local r, err = mpi.buffer(mpi.INT, -1)
  w:set_errhandler(mpi.ERRORS_RAISE)
  t.eq(ok, false)
  t.eq(r, nil)
  t.eq(err.class, "MPI_ERR_COUNT", "calls still follow the handler")
end)

t.case("typed sendrecv shifts a ring with MPI's argument list (MPI-3.1 §3.10)", function()
  local out = mpi.buffer(mpi.SHORT_INT, 1, {{me, -me}})
  local into = mpi.buffer(mpi.SHORT_INT, 1)
  local got, st = w:sendrecv(out, 1, mpi.SHORT_INT, right, 21, into, 1, mpi.SHORT_INT, left, 21)
  t.ok(rawequal(got, into))
  t.eq(into[1], {left, -left})
  t.eq(st.source, left)
  t.eq(st:get_elements(mpi.SHORT_INT), 2)
  t.raises(function() w:sendrecv(out, 1, mpi.SHORT_INT, right, 21, {}, 1, mpi.SHORT_INT, left, 21) end,
           "MPI_ERR_BUFFER")
end)

t.case("a matrix column (vector) arrives as a contiguous row (MPI-3.1 §4.1.2, §3.3.1 type signatures)", function()
  -- a 4x5 row-major matrix of doubles; send column `me % 5` to the right
  local m = mpi.buffer(mpi.DOUBLE, 20)
  for i = 1, 20 do m[i] = me * 100 + i end
  local column = committed(mpi.type_vector(4, 1, 5, mpi.DOUBLE))
  local c = (me % 5) + 1
  local shifted = committed(mpi.type_create_hindexed_block(1, {(c - 1) * 8}, column))
  local req = w:isend(m, 1, shifted, right, 11)
  local row = mpi.buffer(mpi.DOUBLE, 4)
  local got, st = w:recv(row, 4, mpi.DOUBLE, left, 11)
  req:wait()
  local lc = (left % 5) + 1
  t.ok(rawequal(got, row))
  t.eq(values(row), {left * 100 + lc, left * 100 + lc + 5, left * 100 + lc + 10, left * 100 + lc + 15})
  t.eq(st.source, left)
  t.eq(st:get_count(mpi.DOUBLE), 4)
  t.eq(st:get_count(column), 1)
end)

t.case("negative strides travel in reverse order (MPI-3.1 §4.1.2)", function()
  -- doubles at bytes 32, 16, 0: elements 5, 3, 1
  local rev = committed(mpi.type_create_hindexed_block(1, {32}, mpi.type_vector(3, 1, -2, mpi.DOUBLE)))
  local src = mpi.buffer(mpi.DOUBLE, 5, {1, 2, 3, 4, 5})
  local req = w:isend(src, 1, rev, right, 12)
  local dst = mpi.buffer(mpi.DOUBLE, 3)
  w:recv(dst, 3, mpi.DOUBLE, left, 12)
  req:wait()
  t.eq(values(dst), {5.0, 3.0, 1.0})
end)

t.case("transpose with hvector of a column (MPI-3.1 §4.1.14, Example 4.15)", function()
  -- a 3x4 matrix sent row by row, received with a type that stores row i as column i
  local rows, cols = 3, 4
  local a = mpi.buffer(mpi.DOUBLE, rows * cols)
  for i = 1, rows * cols do a[i] = i end
  local col = mpi.type_vector(cols, 1, rows, mpi.DOUBLE)
  local xpose = committed(mpi.type_create_hvector(rows, 1, 8, col))
  local self = mpi.COMM_SELF
  local req = self:isend(a, rows * cols, mpi.DOUBLE, 0, 13)
  local b = mpi.buffer(mpi.DOUBLE, rows * cols)
  self:recv(b, 1, xpose, 0, 13)
  req:wait()
  -- b is the 4x3 transpose: b[j][i] = a[i][j]
  for i = 0, rows - 1 do
    for j = 0, cols - 1 do
      t.eq(b[j * rows + i + 1], a[i * cols + j + 1], ("b[%d][%d]"):format(j, i))
    end
  end
end)

t.case("a struct type over a pair buffer, with padding skipped (MPI-3.1 §4.1.2 create_struct, §5.9.4)", function()
  local pairs = mpi.buffer(mpi.DOUBLE_INT, 3, {{1.5, me}, {2.5, me + 10}, {3.5, me + 20}})
  local st = committed(mpi.type_create_struct({1, 1}, {0, 8}, {mpi.DOUBLE, mpi.INT}))
  t.eq({st:get_extent()}, {0, 16})
  local req = w:isend(pairs, 3, st, right, 14)
  local got = mpi.buffer(mpi.DOUBLE_INT, 3)
  local _, status = w:recv(got, 3, mpi.DOUBLE_INT, left, 14)
  req:wait()
  t.eq(values(got), {{1.5, left}, {2.5, left + 10}, {3.5, left + 20}})
  t.eq(status:get_count(st), 3)
  t.eq(status:get_elements(st), 6)
end)

t.case("probe, then size the receive with get_count (MPI-2.1 Ballot 4 item 5)", function()
  local out = mpi.buffer(mpi.INT, me + 1)
  for i = 1, me + 1 do out[i] = me * 10 + i end
  local req = w:isend(out, me + 1, mpi.INT, right, 15)
  local st = w:probe(left, 15)
  local count = st:get_count(mpi.INT)
  t.eq(count, left + 1)
  local into = mpi.buffer(mpi.INT, count)
  w:recv(into, count, mpi.INT, left, 15)
  req:wait()
  t.eq(into[count], left * 10 + count)
  local flag, ist = w:iprobe(left, 15)
  t.eq(flag, false)
  t.eq(ist, nil)
end)

t.case("get_elements counts basic elements of a partial last element (MPI-3.1 §4.1.11)", function()
  local three = mpi.buffer(mpi.DOUBLE, 3, {1, 2, 3})
  local req = w:isend(three, 3, mpi.DOUBLE, right, 16)
  local pair = committed(mpi.type_contiguous(2, mpi.DOUBLE))
  local into = mpi.buffer(mpi.DOUBLE, 4)
  local _, st = w:recv(into, 2, pair, left, 16)
  req:wait()
  t.eq(st:get_count(pair), mpi.UNDEFINED)
  t.eq(st:get_elements(pair), 3)
  t.eq(st:get_count(mpi.DOUBLE), 3)
  t.eq(values(into), {1.0, 2.0, 3.0, 0.0})
end)

t.case("irecv into a buffer completes through wait and waitall (MPI-3.1 §3.7)", function()
  local out = mpi.buffer(mpi.INT64_T, 2, {me, -me})
  local r1 = w:irecv(mpi.buffer(mpi.INT64_T, 2), 2, mpi.INT64_T, left, 17)
  local r2 = w:irecv(left, 18)
  local s1 = w:isend(out, 2, mpi.INT64_T, right, 17)
  local s2 = w:isend({tag = "value"}, right, 18)
  local vals, sts = mpi.waitall({r1, r2, s1, s2})
  t.eq(values(vals[1]), {left, -left})
  t.eq(vals[2], {tag = "value"})
  t.eq(sts[1]:get_count(mpi.INT64_T), 2)
end)

t.case("freeing a type used by a pending receive lets it complete (MPI-3.1 §4.1.9)", function()
  local every_other = mpi.type_vector(3, 1, 2, mpi.INT)
  every_other:commit()
  local into = mpi.buffer(mpi.INT, 5)
  local req = w:irecv(into, 1, every_other, left, 22)
  every_other:free()
  w:send(mpi.buffer(mpi.INT, 3, {me, me + 1, me + 2}), 3, mpi.INT, right, 22)
  req:wait()
  t.eq(values(into), {left, 0, left + 1, 0, left + 2})
end)

t.case("PROC_NULL: the buffer is untouched, the count is 0 (MPI-3.1 §3.11)", function()
  local b = mpi.buffer(mpi.INT, 2, {5, 6})
  w:send(b, 2, mpi.INT, mpi.PROC_NULL)
  local got, st = w:recv(b, 2, mpi.INT, mpi.PROC_NULL)
  t.ok(rawequal(got, b))
  t.eq(values(b), {5, 6})
  t.eq(st.source, mpi.PROC_NULL)
  t.eq(st:get_count(mpi.INT), 0)
end)

t.case("local errors raise before anything is sent (API.md §2)", function()
  local b = mpi.buffer(mpi.INT, 4)
  local loose = mpi.type_vector(2, 1, 2, mpi.INT)
  local e = t.raises(function() w:send(b, 1, loose, right) end, "MPI_ERR_TYPE")
  t.ok(e.message:find("commit", 1, true), e.message)
  loose:commit()
  t.raises(function() w:send(b, 3, loose, right) end, "MPI_ERR_BUFFER")
  t.raises(function() w:send(b, -1, mpi.INT, right) end, "MPI_ERR_COUNT")
  t.raises(function() w:send(b, 1, "int", right) end, "MPI_ERR_TYPE")
  t.raises(function() w:send(b, 1, mpi.INT, n) end, "MPI_ERR_RANK")
  t.raises(function() w:recv(b, 5, mpi.INT, left) end, "MPI_ERR_BUFFER")
  loose:free()
  t.raises(function() w:isend(b, 1, loose, right) end, "MPI_ERR_TYPE")
  t.raises(function() mpi.COMM_WORLD:probe(mpi.PROC_NULL):get_count(loose) end, "MPI_ERR_TYPE")
  -- nothing was sent: the next message from the left is this one
  local req = w:isend(mpi.buffer(mpi.INT, 1, {me}), 1, mpi.INT, right, 19)
  local got = w:recv(mpi.buffer(mpi.INT, 1), 1, mpi.INT, left, mpi.ANY_TAG)
  req:wait()
  t.eq(got[1], left)
end)

t.case("a longer message than the receive buffer is MPI_ERR_TRUNCATE (MPI-3.1 §3.2.4)", function()
  local req = w:isend(mpi.buffer(mpi.INT, 4, {1, 2, 3, 4}), 4, mpi.INT, right, 20)
  t.raises(function() w:recv(mpi.buffer(mpi.INT, 2), 2, mpi.INT, left, 20) end, "MPI_ERR_TRUNCATE")
  req:wait()
end)

t.case("a type used before commit is MPI_ERR_TYPE in every receive and sendrecv (MPI-3.1 §4.1.9)", function()
  local b = mpi.buffer(mpi.INT, 4)
  local loose = mpi.type_contiguous(2, mpi.INT)
  t.raises(function() w:recv(b, 1, loose, left, 23) end, "MPI_ERR_TYPE")
  t.raises(function() w:irecv(b, 1, loose, left, 23) end, "MPI_ERR_TYPE")
  t.raises(function() w:ssend(b, 1, loose, right, 23) end, "MPI_ERR_TYPE")
  t.raises(function() w:issend(b, 1, loose, right, 23) end, "MPI_ERR_TYPE")
  t.raises(function() w:sendrecv(b, 1, loose, right, 23, b, 1, mpi.INT, left, 23) end, "MPI_ERR_TYPE")
  t.raises(function() w:sendrecv(b, 1, mpi.INT, right, 23, b, 1, loose, left, 23) end, "MPI_ERR_TYPE")
  loose:commit()
  -- nothing was sent and no receive was posted: a committed exchange goes through
  local got = w:sendrecv(mpi.buffer(mpi.INT, 2, {me, me}), 1, loose, right, 23, b, 1, loose, left, 23)
  t.eq({got[1], got[2]}, {left, left})
  loose:free()
end)
