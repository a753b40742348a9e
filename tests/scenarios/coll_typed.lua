-- tests/scenarios/coll_typed.lua: collectives on typed buffers with MPI's
-- argument lists (issue 12: "collectives and reductions accept (buffer,
-- count, datatype) with MPI's buffer semantics"; MPI-3.1 §5.4 MPI_BCAST,
-- §5.5 MPI_GATHER, §5.6 MPI_SCATTER, §5.7 MPI_ALLGATHER, §5.8 MPI_ALLTOALL,
-- §5.9 MPI_REDUCE/MPI_ALLREDUCE with §5.9.2's op/type groups, §5.11
-- MPI_SCAN/MPI_EXSCAN; §4.1 derived datatypes travel as their type
-- signature), and the errors every call raises before it sends anything.
local t = require("lumpi.test")
t.np = {1, 2, 3, 5}

local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()

local function seq(b)
  local out = {}
  for i = 1, #b do out[i] = b[i] end
  return out
end

t.case("§5.4 bcast: a buffer, and a vector column into a contiguous buffer", function()
  local b = mpi.buffer(mpi.DOUBLE, 3, me == 0 and {1.5, 2.5, 3.5} or nil)
  t.ok(rawequal(w:bcast(b, 3, mpi.DOUBLE, 0), b), "returns the buffer")
  t.eq(seq(b), {1.5, 2.5, 3.5})
  -- root sends every other int of 6; the others receive 3 contiguous ints
  local col = mpi.type_vector(3, 1, 2, mpi.INT)
  col:commit()
  if me == 0 then
    w:bcast(mpi.buffer(mpi.INT, 6, {1, 2, 3, 4, 5, 6}), 1, col, 0)
  else
    local r = mpi.buffer(mpi.INT, 3)
    w:bcast(r, 3, mpi.INT, 0)
    t.eq(seq(r), {1, 3, 5})
  end
  col:free()
end)

t.case("§5.5 gather, §5.6 scatter, §5.7 allgather, §5.8 alltoall", function()
  local root = n - 1
  local mine = mpi.buffer(mpi.INT, 2, {me, 10 * me})
  local all = mpi.buffer(mpi.INT, 2 * n)
  local got = w:gather(mine, 2, mpi.INT, all, 2, mpi.INT, root)
  if me == root then
    t.ok(rawequal(got, all))
    for r = 0, n - 1 do t.eq({all[2 * r + 1], all[2 * r + 2]}, {r, 10 * r}) end
  else
    t.eq(got, nil)
  end
  local part = mpi.buffer(mpi.LONG, 1)
  local src = me == root and mpi.buffer(mpi.LONG, n) or nil
  if src then for i = 1, n do src[i] = 100 + i - 1 end end
  w:scatter(src, 1, mpi.LONG, part, 1, mpi.LONG, root)
  t.eq(part[1], 100 + me)
  local every = mpi.buffer(mpi.FLOAT, n)
  w:allgather(mpi.buffer(mpi.FLOAT, 1, {me + 0.5}), 1, mpi.FLOAT, every, 1, mpi.FLOAT)
  for r = 0, n - 1 do t.eq(every[r + 1], r + 0.5) end
  local out, back = mpi.buffer(mpi.INT, n), mpi.buffer(mpi.INT, n)
  for j = 1, n do out[j] = 100 * me + (j - 1) end
  w:alltoall(out, 1, mpi.INT, back, 1, mpi.INT)
  for r = 0, n - 1 do t.eq(back[r + 1], 100 * r + me) end
end)

t.case("§5.9 reduce and allreduce with predefined ops, §5.11 scan and exscan", function()
  local s = mpi.buffer(mpi.DOUBLE, 2, {me, 1})
  local r = mpi.buffer(mpi.DOUBLE, 2)
  t.ok(rawequal(w:allreduce(s, r, 2, mpi.DOUBLE, mpi.SUM), r))
  t.eq(seq(r), {n * (n - 1) / 2, n})
  local big = mpi.buffer(mpi.INT, 3, {me, -me, 7})
  local res = mpi.buffer(mpi.INT, 3)
  w:allreduce(big, res, 3, mpi.INT, mpi.MAX)
  t.eq(seq(res), {n - 1, 0, 7})
  local bits = mpi.buffer(mpi.UINT16_T, 1, {1 << me})
  local ored = mpi.buffer(mpi.UINT16_T, 1)
  w:allreduce(bits, ored, 1, mpi.UINT16_T, mpi.BOR)  -- a type outside the core's fast path
  t.eq(ored[1], (1 << n) - 1)
  local at0 = mpi.buffer(mpi.LONG_LONG, 1)
  local got = w:reduce(mpi.buffer(mpi.LONG_LONG, 1, {me + 1}), at0, 1, mpi.LONG_LONG, mpi.PROD, 0)
  if me == 0 then
    local f = 1
    for i = 2, n do f = f * i end
    t.eq(at0[1], f)
  else
    t.eq(got, nil)
  end
  local pre = mpi.buffer(mpi.INT, 1)
  w:scan(mpi.buffer(mpi.INT, 1, {me + 1}), pre, 1, mpi.INT, mpi.SUM)
  t.eq(pre[1], (me + 1) * (me + 2) / 2)
  local ex = mpi.buffer(mpi.INT, 1, {-1})
  w:exscan(mpi.buffer(mpi.INT, 1, {me + 1}), ex, 1, mpi.INT, mpi.SUM)
  t.eq(ex[1], me == 0 and -1 or me * (me + 1) / 2, "rank 0's recvbuf is left alone")
end)

t.case("§5.9: a reduction over a derived type of one basic type reduces its elements", function()
  local pairs_t = mpi.type_vector(2, 1, 2, mpi.DOUBLE)  -- elements 1 and 3 of 4
  pairs_t:commit()
  local s = mpi.buffer(mpi.DOUBLE, 4, {me, 99, 2 * me, 99})
  local r = mpi.buffer(mpi.DOUBLE, 4)
  w:allreduce(s, r, 1, pairs_t, mpi.SUM)
  t.eq(seq(r), {n * (n - 1) / 2, 0, n * (n - 1), 0}, "the holes are untouched")
  pairs_t:free()
end)

t.case("§5.9.4 MAXLOC/MINLOC on pair buffers (ties to the lower rank), §5.9.2 complex SUM", function()
  -- every rank holds the value 7 twice over: the lowest rank holding it wins
  local v = (me % 2 == 0) and 7.0 or 1.0 * me
  local s = mpi.buffer(mpi.DOUBLE_INT, 1, {{v, me}})
  local hi, lo = mpi.buffer(mpi.DOUBLE_INT, 1), mpi.buffer(mpi.DOUBLE_INT, 1)
  w:allreduce(s, hi, 1, mpi.DOUBLE_INT, mpi.MAXLOC)
  w:allreduce(s, lo, 1, mpi.DOUBLE_INT, mpi.MINLOC)
  local best, who, least, at = 7.0, 0, 7.0, 0
  for k = 0, n - 1 do
    local x = (k % 2 == 0) and 7.0 or 1.0 * k
    if x > best then best, who = x, k end
    if x < least then least, at = x, k end
  end
  t.eq(hi[1], {best, who})
  t.eq(lo[1], {least, at})
  -- MPI_2INT's two ints and Fortran's MPI_2REAL read as {value, index} pairs
  local two = mpi.buffer(mpi.TWO_INT, 1, {{me % 2, me}})
  local twomax = mpi.buffer(mpi.TWO_INT, 1)
  w:allreduce(two, twomax, 1, mpi.TWO_INT, mpi.MAXLOC)
  t.eq(twomax[1], {n > 1 and 1 or 0, n > 1 and 1 or 0})
  local real = mpi.buffer(mpi.TWO_REAL, 1, {{-me, me + 0.5}})
  local realmin = mpi.buffer(mpi.TWO_REAL, 1)
  w:allreduce(real, realmin, 1, mpi.TWO_REAL, mpi.MINLOC)
  t.eq(realmin[1], {1.0 - n, n - 0.5})
  local z = mpi.buffer(mpi.C_DOUBLE_COMPLEX, 1, {{me + 1, 1}})
  local sum = mpi.buffer(mpi.C_DOUBLE_COMPLEX, 1)
  w:allreduce(z, sum, 1, mpi.C_DOUBLE_COMPLEX, mpi.SUM)
  t.eq(sum[1], {n * (n + 1) / 2, n})
  t.raises(function() w:allreduce(z, sum, 1, mpi.C_DOUBLE_COMPLEX, mpi.MAX) end, "MPI_ERR_OP")
end)

t.case("the value forms are unchanged beside the typed ones (API.md §7)", function()
  t.eq(w:allreduce(me, mpi.SUM), n * (n - 1) / 2)
  t.eq(w:bcast({x = me}, 0).x, 0)
end)

t.case("errors raise on the calling rank before anything is sent (§5.9.2, §4.1.9)", function()
  local s, r = mpi.buffer(mpi.INT, 2), mpi.buffer(mpi.INT, 2)
  local loose = mpi.type_contiguous(2, mpi.INT)
  local e = t.raises(function() w:allreduce(s, r, 1, loose, mpi.SUM) end, "MPI_ERR_TYPE")
  t.ok(e.message:find("commit", 1, true), e.message)
  t.raises(function() w:bcast(s, 1, loose, 0) end, "MPI_ERR_TYPE")
  t.raises(function() w:reduce(s, r, 1, loose, mpi.SUM, 0) end, "MPI_ERR_TYPE")
  t.raises(function() w:gather(s, 1, loose, r, 1, mpi.INT, 0) end, "MPI_ERR_TYPE")
  t.raises(function() w:allgather(s, 1, loose, r, 2, mpi.INT) end, "MPI_ERR_TYPE")
  t.raises(function() w:alltoall(s, 1, loose, r, 1, mpi.INT) end, "MPI_ERR_TYPE")
  t.raises(function() w:scan(s, r, 1, loose, mpi.SUM) end, "MPI_ERR_TYPE")
  t.raises(function() w:exscan(s, r, 1, loose, mpi.SUM) end, "MPI_ERR_TYPE")
  loose:free()
  t.raises(function() w:allreduce(s, r, 3, mpi.INT, mpi.SUM) end, "MPI_ERR_BUFFER")
  t.raises(function() w:allreduce(s, r, -1, mpi.INT, mpi.SUM) end, "MPI_ERR_COUNT")
  t.raises(function() w:allreduce(s, s, 2, mpi.INT, mpi.SUM) end, "MPI_ERR_BUFFER")
  t.raises(function() w:allreduce(s, r, 2, mpi.INT, mpi.MAXLOC) end, "MPI_ERR_OP")
  local f = mpi.buffer(mpi.FLOAT, 1)
  t.raises(function() w:allreduce(f, mpi.buffer(mpi.FLOAT, 1), 1, mpi.FLOAT, mpi.BAND) end, "MPI_ERR_OP")
  local myop = mpi.op_create(function(a, b) return a end, true)
  t.raises(function() w:allreduce(s, r, 2, mpi.INT, myop) end, "MPI_ERR_OP")
  t.raises(function() w:allreduce(mpi.buffer(mpi.TWO_INT, 1), mpi.buffer(mpi.TWO_INT, 1), 1, mpi.TWO_INT, mpi.SUM) end,
    "MPI_ERR_OP")
  local mixed = mpi.type_create_struct({1, 1}, {0, 8}, {mpi.DOUBLE, mpi.INT})
  mixed:commit()
  local e2 = t.raises(function() w:allreduce(mpi.buffer(mpi.BYTE, 16), mpi.buffer(mpi.BYTE, 16), 1, mixed, mpi.SUM) end,
    "MPI_ERR_TYPE")
  t.ok(e2.message:find("mixes", 1, true), e2.message)
  mixed:free()
  t.raises(function() w:bcast(s, 2, mpi.INT, n) end, "MPI_ERR_ROOT")
  if n > 2 then t.raises(function() w:allgather(s, 1, mpi.INT, r, 1, mpi.INT) end, "MPI_ERR_BUFFER") end
  -- every rank is the root of its own (erroneous) call, so each raises before sending
  t.raises(function() w:gather(s, 2, mpi.INT, mpi.buffer(mpi.INT, n), 1, mpi.INT, me) end, "MPI_ERR_TRUNCATE")
  -- nothing was sent: the next collective sees everyone's data
  w:allreduce(mpi.buffer(mpi.INT, 2, {1, me}), r, 2, mpi.INT, mpi.SUM)
  t.eq(seq(r), {n, n * (n - 1) / 2})
end)
