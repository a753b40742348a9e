-- tests/scenarios/coll_agree.lua: a collective call whose arguments must
-- agree (leaders, high, groups, recvcounts) fails on every rank with the
-- same MPI error naming the rank that disagreed, or succeeds on every rank:
-- no rank hangs (the harness bounds each case) and none keeps an object the
-- others lack (issue 27, item 1). An idup result is unusable on every rank
-- until its request completes.
local t = require("lumpi.test")
t.np = {3, 4, 5, 7}

local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()

-- Every rank raised `class`, with the same text; the world still works.
local function failed_everywhere(fn, class)
  local e = t.raises(fn, class)
  t.same_everywhere(tostring(e))
  t.eq(w:allreduce(1, mpi.SUM), n)
  return e
end

-- Evens and odds joined by an intercommunicator (leaders: world ranks 0, 1).
local function halves()
  local half = w:split(me % 2, me)
  return half:intercomm_create(0, w, me % 2 == 0 and 1 or 0, 27), half
end

t.case("intercomm_create: the local leader's bad remote_leader fails every rank", function()
  local e = failed_everywhere(function() return w:intercomm_create(0, w, 0, 5) end, "MPI_ERR_RANK")
  t.eq(e.func, "MPI_Intercomm_create")
  t.ok(e.message:find("remote_leader 0", 1, true) and e.message:find("on rank 0", 1, true), e.message)
end)

t.case("intercomm_create: a remote_leader inside local_comm fails every rank", function()
  local leader = n - 1
  local e = failed_everywhere(function() return w:intercomm_create(leader, w, 1, 6) end, "MPI_ERR_RANK")
  t.ok(e.message:find("on rank " .. leader, 1, true), e.message)
end)

t.case("intercomm_merge: one rank's different high fails every rank of both groups", function()
  local ic = halves()
  local bad = 2  -- rank 1 of the evens
  local e = failed_everywhere(function() return ic:intercomm_merge(me == bad) end, "MPI_ERR_ARG")
  t.ok(e.message:find("COMM_WORLD rank 2", 1, true), e.message)
  local m = ic:intercomm_merge(me % 2 == 1)  -- agreeing flags still merge, evens first
  t.eq(m:size(), n)
  t.same_everywhere(m:group():translate_ranks({0}, w:group())[1])
end)

t.case("create: overlapping groups fail every rank; disjoint ones make one each", function()
  local k = n // 2 + 1
  local low, all = {}, {}
  for r = 0, n - 1 do
    all[#all + 1] = r
    if r < k then low[#low + 1] = r end
  end
  local g = w:group()
  local overlapping = me < k and g:incl(low) or g
  local e = failed_everywhere(function() return w:create(overlapping) end, "MPI_ERR_GROUP")
  t.ok(e.message:find("rank " .. k, 1, true), e.message)
  local c = w:create(me < k and g:incl(low) or g:excl(low))
  t.eq(c:size(), me < k and k or n - k)
end)

t.case("create on an intercommunicator: one member's different group fails every rank", function()
  local ic, half = halves()
  local g = half:group()
  local mine = (me == 2) and g:incl({0}) or g  -- rank 1 of the evens disagrees
  local e = failed_everywhere(function() return ic:create(mine) end, "MPI_ERR_GROUP")
  t.ok(e.message:find("COMM_WORLD rank 2", 1, true), e.message)
end)

t.case("reduce_scatter: one rank's different counts fail every rank", function()
  local counts, values = {}, {}
  for r = 1, n do counts[r] = 1 end
  if me == n - 1 then counts[1] = 2 end
  for i = 1, n + (me == n - 1 and 1 or 0) do values[i] = i end
  local e = failed_everywhere(function() return w:reduce_scatter(values, counts, mpi.SUM) end, "MPI_ERR_COUNT")
  t.ok(e.message:find("rank " .. (n - 1), 1, true), e.message)
end)

t.case("idup: the new communicator is unusable on every rank until its request completes", function()
  local d, req = w:idup()
  local e = t.raises(function() d:barrier() end, "MPI_ERR_COMM")
  t.ok(e.message:find("MPI_Comm_idup", 1, true), e.message)
  req:wait()
  d:barrier()
  t.eq(d:allreduce(1, mpi.SUM), n)
end)
