-- tests/scenarios/datatype_darray.lua: distributed arrays (MPI-3.1 §4.1.4),
-- type classes (§17.1.9) and Fortran's predefined types (§3.2.2) from Lua.
-- Every rank describes its part of one global array with
-- mpi.type_create_darray; rank 0 receives each rank's part with that
-- rank's type into one array, which must come out whole: the parts
-- partition the array, in place, whatever the world size.
local t = require("lumpi.test")
t.np = {1, 3, 4, 6}

local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()

local function committed(ty)
  ty:commit()
  return ty
end

-- Rank 0 gathers every rank's darray part of a global array of gsizes
-- ints holding 1, 2, 3, ...; returns the assembled array (rank 0) or nil.
local function assemble(gsizes, distribs, dargs, psizes, order, tag)
  local total = 1
  for _, g in ipairs(gsizes) do total = total * g end
  local global = mpi.buffer(mpi.INT, total)
  for i = 1, total do global[i] = i end
  local mine = committed(mpi.type_create_darray(n, me, gsizes, distribs, dargs, psizes, order, mpi.INT))
  t.eq(select(2, mine:get_extent()), total * 4)
  local req = w:isend(global, 1, mine, 0, tag)
  local out
  if me == 0 then
    out = mpi.buffer(mpi.INT, total)
    for r = 0, n - 1 do
      local theirs = committed(mpi.type_create_darray(n, r, gsizes, distribs, dargs, psizes, order, mpi.INT))
      w:recv(out, 1, theirs, r, tag)
    end
  end
  req:wait()
  if not out then return nil end
  local got = {}
  for i = 1, total do got[i] = out[i] end
  return got, total
end

-- fn raises class with a message matching pattern.
local function raises(fn, class, pattern)
  local err = t.raises(fn, class)
  t.ok(tostring(err.message or err):find(pattern), tostring(err.message or err) .. " lacks " .. pattern)
end

local function whole(total)
  local v = {}
  for i = 1, total do v[i] = i end
  return v
end

t.case("block x cyclic over a Cartesian grid, C and Fortran order", function()
  local dims = mpi.dims_create(n, 2)
  for k, order in ipairs({mpi.ORDER_C, mpi.ORDER_FORTRAN}) do
    local got, total = assemble({7, 5}, {mpi.DISTRIBUTE_BLOCK, mpi.DISTRIBUTE_CYCLIC},
                                {mpi.DISTRIBUTE_DFLT_DARG, 2}, dims, order, 30 + k)
    if me == 0 then t.eq(got, whole(total)) end
  end
end)

t.case("cyclic(2) x none x block in three dimensions", function()
  local got, total = assemble({5, 2, 3}, {mpi.DISTRIBUTE_CYCLIC, mpi.DISTRIBUTE_NONE, mpi.DISTRIBUTE_BLOCK},
                              {2, mpi.DISTRIBUTE_DFLT_DARG, mpi.DISTRIBUTE_DFLT_DARG}, {n, 1, 1}, mpi.ORDER_C, 33)
  if me == 0 then t.eq(got, whole(total)) end
end)

t.case("envelope and contents name the call", function()
  local d = mpi.type_create_darray(n, me, {4, 6}, {mpi.DISTRIBUTE_BLOCK, mpi.DISTRIBUTE_NONE},
                                   {mpi.DISTRIBUTE_DFLT_DARG, mpi.DISTRIBUTE_DFLT_DARG}, {n, 1},
                                   mpi.ORDER_FORTRAN, mpi.DOUBLE)
  t.eq({d:get_envelope()}, {4 * 2 + 4, 0, 1, mpi.COMBINER_DARRAY})
  local ints, _, types = d:get_contents()
  t.eq(ints, {n, me, 2, 4, 6, mpi.DISTRIBUTE_BLOCK, mpi.DISTRIBUTE_NONE, -1, -1, n, 1, mpi.ORDER_FORTRAN})
  t.ok(rawequal(types[1], mpi.DOUBLE))
end)

t.case("darray errors name the argument, before anything is built", function()
  local B, D = mpi.DISTRIBUTE_BLOCK, mpi.DISTRIBUTE_DFLT_DARG
  raises(function() mpi.type_create_darray(n, n, {8}, {B}, {D}, {n}, mpi.ORDER_C, mpi.INT) end, "MPI_ERR_ARG",
         "rank " .. n)
  raises(function() mpi.type_create_darray(n, 0, {8}, {B}, {D}, {n + 1}, mpi.ORDER_C, mpi.INT) end, "MPI_ERR_ARG",
         "product of psizes")
  raises(function() mpi.type_create_darray(1, 0, {8}, {"diagonal"}, {D}, {1}, mpi.ORDER_C, mpi.INT) end,
         "MPI_ERR_ARG", "distribs%[1%]")
  raises(function() mpi.type_create_darray(1, 0, {8}, {B}, {D}, {1}, "z", mpi.INT) end, "MPI_ERR_ARG", "order")
end)

t.case("type_match_size gives the predefined type of each class and size (§17.1.9)", function()
  for _, c in ipairs({{mpi.TYPECLASS_INTEGER, {1, 2, 4, 8}}, {mpi.TYPECLASS_REAL, {4, 8, 16}},
                      {mpi.TYPECLASS_COMPLEX, {8, 16, 32}}}) do
    for _, size in ipairs(c[2]) do t.eq(mpi.type_match_size(c[1], size):size(), size) end
  end
  t.ok(rawequal(mpi.type_match_size(mpi.TYPECLASS_REAL, 8), mpi.REAL8))
  raises(function() mpi.type_match_size(mpi.TYPECLASS_REAL, 2) end, "MPI_ERR_ARG", "size 2")
  raises(function() mpi.type_match_size("string", 4) end, "MPI_ERR_ARG", "typeclass")
end)

t.case("Fortran's types reduce by their class: INTEGER sums, LOGICAL ands, CHARACTER takes no op", function()
  local s = w:allreduce(mpi.buffer(mpi.INTEGER, 1, {me + 1}), mpi.buffer(mpi.INTEGER, 1), 1, mpi.INTEGER, mpi.SUM)
  t.eq(s[1], n * (n + 1) // 2)
  local l = w:allreduce(mpi.buffer(mpi.LOGICAL, 1, {me == 0 and 1 or 7}), mpi.buffer(mpi.LOGICAL, 1), 1,
                        mpi.LOGICAL, mpi.LAND)
  t.eq(l[1], 1)
  local d = w:allreduce(mpi.buffer(mpi.DOUBLE_COMPLEX, 1, {{1, me}}), mpi.buffer(mpi.DOUBLE_COMPLEX, 1), 1,
                        mpi.DOUBLE_COMPLEX, mpi.SUM)
  t.eq(d[1], {n * 1.0, n * (n - 1) / 2})
  t.eq(mpi.REAL:get_name(), "MPI_REAL")
  t.eq(mpi.INTEGER:size(), 4)
  t.raises(function()
    w:allreduce(mpi.buffer(mpi.CHARACTER, 1), mpi.buffer(mpi.CHARACTER, 1), 1, mpi.CHARACTER, mpi.MAX)
  end, "MPI_ERR_OP")
end)
