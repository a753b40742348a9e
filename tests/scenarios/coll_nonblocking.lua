-- tests/scenarios/coll_nonblocking.lua: nonblocking collectives (API.md §7;
-- MPI-3.1 §5.12): each returns a request whose wait gives what the blocking
-- form returns; many may be pending at once and complete in any order;
-- they match in the order they were started and never match blocking
-- collectives (§5.12, "blocking and nonblocking collective operations do
-- not match") nor point-to-point traffic; a rank blocked elsewhere still
-- plays its part (progress, §5.12 Example 5.31).
local t = require("lumpi.test")
t.np = {1, 2, 3, 4, 5, 7, 8}

local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()
local concat = mpi.op_create(function(a, b) return a .. b end, false)

local function seq(f)
  local s = {}
  for i = 0, n - 1 do s[#s + 1] = f(i) end
  return s
end

t.case("ibarrier completes, alone and several pending", function()
  local r = w:ibarrier()
  t.eq(r:wait(), nil)
  local rs = {w:ibarrier(), w:ibarrier(), w:ibarrier()}
  mpi.waitall(rs)
end)

t.case("ibcast from every root gives the root's value", function()
  for root = 0, n - 1 do
    local r = w:ibcast(me == root and {from = root, s = "x"} or nil, root)
    t.eq(r:wait(), {from = root, s = "x"})
  end
end)

t.case("igather and iscatter from every root", function()
  for root = 0, n - 1 do
    local g = w:igather(me * 10, root)
    local s = w:iscatter(me == root and seq(function(i) return "p" .. i end) or nil, root)
    t.eq(s:wait(), "p" .. me)
    if me == root then t.eq(g:wait(), seq(function(i) return i * 10 end)) else t.eq(g:wait(), nil) end
  end
end)

t.case("iallgather and ialltoall", function()
  local a = w:iallgather({r = me})
  local b = w:ialltoall(seq(function(j) return me .. ">" .. j end))
  t.eq(b:wait(), seq(function(i) return i .. ">" .. me end))
  t.eq(a:wait(), seq(function(i) return {r = i} end))
end)

t.case("reductions keep rank order for a non-commutative op", function()
  local all = table.concat(seq(function(i) return tostring(i) end))
  local prefix = table.concat(seq(function(i) return tostring(i) end), "", 1, me + 1)
  local ar = w:iallreduce(tostring(me), concat)
  local sc = w:iscan(tostring(me), concat)
  local ex = w:iexscan(tostring(me), concat)
  local rd = w:ireduce(tostring(me), concat, n - 1)
  local sum = w:iallreduce(me + 1, mpi.SUM)
  t.eq(sum:wait(), n * (n + 1) // 2)
  t.eq(rd:wait(), me == n - 1 and all or nil)
  if me == 0 then t.eq(ex:wait(), nil) else t.eq(ex:wait(), prefix:sub(1, me)) end
  t.eq(sc:wait(), prefix)
  t.eq(ar:wait(), all)
end)

t.case("many pending collectives complete in reverse order and match in start order", function()
  local rs = {}
  for k = 1, 20 do rs[k] = w:iallreduce(k * (me + 1), mpi.SUM) end
  for k = 20, 1, -1 do t.eq(rs[k]:wait(), k * n * (n + 1) // 2) end
end)

t.case("a pending ibcast does not match a blocking bcast started after it", function()
  local r = w:ibcast(me == 0 and "nonblocking" or nil, 0)
  t.eq(w:bcast(me == 0 and "blocking" or nil, 0), "blocking")
  t.eq(r:wait(), "nonblocking")
end)

t.case("a pending collective does not take point-to-point messages", function()
  if n < 2 then return end
  local r = w:iallgather(me)
  if me == 0 then w:send("p2p", 1, 0) end
  if me == 1 then t.eq(w:recv(mpi.ANY_SOURCE, mpi.ANY_TAG), "p2p") end
  t.eq(r:wait(), seq(function(i) return i end))
end)

t.case("a rank blocked in a receive still plays its part in a pending collective", function()
  if n < 2 then return end
  -- rank 0 waits for rank n-1's message, which rank n-1 sends only after
  -- its ibarrier completed, which needs rank 0's part of the barrier.
  local r = w:ibarrier()
  if me == 0 then
    t.eq(w:recv(n - 1, 5), "after")
    r:wait()
  elseif me == n - 1 then
    r:wait()
    w:send("after", 0, 5)
  else
    r:wait()
  end
end)

t.case("test polls a pending collective to completion", function()
  local r = w:iallreduce(1, mpi.SUM)
  local done, v = false, nil
  for _ = 1, 1000000 do
    done, v = r:test()
    if done then break end
  end
  t.eq(done, true)
  t.eq(v, n)
end)

t.case("bad arguments fail at the call, before anything is sent", function()
  t.raises(function() w:ibcast(1, n) end, "MPI_ERR_ROOT")
  t.raises(function() w:ireduce(1, mpi.SUM, -7) end, "MPI_ERR_ROOT")
  t.raises(function() w:iallreduce(1, "NOPE") end, "MPI_ERR_OP")
  t.eq(w:allreduce(1, mpi.SUM), n)
end)

t.case("a values table of the wrong length travels as the error and fails the wait", function()
  if n == 1 then return end
  local r = w:ialltoall({1})  -- every rank: one element, n expected
  t.raises(function() r:wait() end, "MPI_ERR_COUNT")
  t.eq(w:allreduce(1, mpi.SUM), n)
end)

t.case("an unsendable contribution fails its own request and the ranks that use it", function()
  local bad = n - 1
  local r = w:iallgather(me == bad and print or me)
  local ok, e = pcall(r.wait, r)
  t.eq(ok, false)
  t.eq(e.class, "MPI_ERR_TYPE")
  t.eq(w:allreduce(1, mpi.SUM), n)
end)

t.case("a duplicate's nonblocking collectives are its own", function()
  local d = w:dup()
  local a = d:iallreduce(1, mpi.SUM)
  local b = w:iallreduce(2, mpi.SUM)
  t.eq(b:wait(), 2 * n)
  t.eq(a:wait(), n)
  d:free()
end)

t.case("on an intercommunicator", function()
  if n < 2 then return end
  local color = me % 2
  local here = w:split(color, me)
  local inter = here:intercomm_create(0, w, 1 - color, 91)
  local lr, rn = inter:rank(), inter:remote_size()
  inter:ibarrier():wait()
  -- rooted at rank 0 of group 0
  local function root_arg(g) if color ~= g then return 0 end return lr == 0 and mpi.ROOT or mpi.PROC_NULL end
  local arg = root_arg(0)
  local b = inter:ibcast(arg == mpi.ROOT and "hello" or nil, arg)
  local g = inter:igather(color .. ":" .. lr, arg)
  local rsum = inter:ireduce(lr + 1, mpi.SUM, arg)
  t.eq(b:wait(), color == 1 and "hello" or nil)
  if arg == mpi.ROOT then
    local want = {}
    for i = 0, rn - 1 do want[#want + 1] = "1:" .. i end
    t.eq(g:wait(), want)
    t.eq(rsum:wait(), rn * (rn + 1) // 2)
  else
    t.eq(g:wait(), nil)
    t.eq(rsum:wait(), nil)
  end
  local s = inter:iscatter(arg == mpi.ROOT and (function()
    local v = {}
    for i = 0, rn - 1 do v[#v + 1] = i * 3 end
    return v
  end)() or nil, arg)
  t.eq(s:wait(), color == 1 and lr * 3 or nil)
  local ag = inter:iallgather(lr)
  local want = {}
  for i = 0, rn - 1 do want[#want + 1] = i end
  t.eq(ag:wait(), want)
  local aa = inter:ialltoall((function()
    local v = {}
    for j = 0, rn - 1 do v[#v + 1] = lr .. ">" .. j end
    return v
  end)())
  local got = aa:wait()
  for i = 0, rn - 1 do t.eq(got[i + 1], i .. ">" .. lr) end
  local ar = inter:iallreduce(tostring(lr), concat)
  local remote = ""
  for i = 0, rn - 1 do remote = remote .. i end
  t.eq(ar:wait(), remote)
  t.raises(function() inter:iscan(1, mpi.SUM) end, "MPI_ERR_COMM")
  inter:free()
  here:free()
end)
