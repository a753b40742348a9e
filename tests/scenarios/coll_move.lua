-- tests/scenarios/coll_move.lua: the data-movement collectives (API.md §7)
-- on intracommunicators: barrier, bcast, gather, scatter, allgather,
-- alltoall, for every root, on COMM_WORLD, split halves and COMM_SELF,
-- each against a serial oracle; argument errors raised before sending;
-- collectives not disturbing user point-to-point traffic.
local t = require("lumpi.test")
t.np = {1, 2, 3, 4, 5, 7, 8, 16}

local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()

-- A value that differs per rank and exercises the codec.
local function val(r) return {r, r + 0.5, "r" .. r, {deep = r * 3}} end

local function comms()
  local list = {w, mpi.COMM_SELF}
  local half = w:split(me % 2, n - me)  -- reversed order inside each half
  list[#list + 1] = half
  return list
end

t.case("barrier completes on every rank, repeatedly", function()
  for _ = 1, 5 do w:barrier() end
  t.same_everywhere("done")
end)

t.case("bcast delivers root's value for every root", function()
  for _, c in ipairs(comms()) do
    for root = 0, c:size() - 1 do
      local got = c:bcast(c:rank() == root and val(root) or "ignored", root)
      t.eq(got, val(root))
    end
  end
end)

t.case("gather collects values in rank order at every root", function()
  for _, c in ipairs(comms()) do
    for root = 0, c:size() - 1 do
      local got = c:gather(val(c:rank()), root)
      if c:rank() == root then
        local want = {}
        for r = 0, c:size() - 1 do want[r + 1] = val(r) end
        t.eq(got, want)
      else
        t.eq(got, nil)
      end
    end
  end
end)

t.case("scatter hands element i+1 to rank i at every root", function()
  for _, c in ipairs(comms()) do
    for root = 0, c:size() - 1 do
      local values
      if c:rank() == root then
        values = {}
        for r = 0, c:size() - 1 do values[r + 1] = {to = r, from = root} end
      end
      t.eq(c:scatter(values, root), {to = c:rank(), from = root})
    end
  end
end)

t.case("scatter carries nil and mixed elements", function()
  local values
  if me == 0 then
    values = {}
    for r = 0, n - 1 do values[r + 1] = (r % 2 == 0) and r or ("s" .. r) end
  end
  local got = w:scatter(values, 0)
  t.eq(got, (me % 2 == 0) and me or ("s" .. me))
end)

t.case("allgather gives everyone every value in rank order", function()
  for _, c in ipairs(comms()) do
    local want = {}
    for r = 0, c:size() - 1 do want[r + 1] = val(r) end
    t.eq(c:allgather(val(c:rank())), want)
  end
end)

t.case("allgather keeps values of very different sizes apart", function()
  local mine = string.rep("x", (me * 7919) % 5000)
  local got = w:allgather(mine)
  for r = 0, n - 1 do t.eq(#got[r + 1], (r * 7919) % 5000) end
end)

t.case("alltoall delivers values[j+1] of rank i to rank j as element i+1", function()
  for _, c in ipairs(comms()) do
    local s, r = c:size(), c:rank()
    local values = {}
    for j = 0, s - 1 do values[j + 1] = {from = r, to = j, pad = string.rep("p", (r + j) % 4)} end
    local got = c:alltoall(values)
    local want = {}
    for i = 0, s - 1 do want[i + 1] = {from = i, to = r, pad = string.rep("p", (i + r) % 4)} end
    t.eq(got, want)
  end
end)

t.case("collectives do not match user point-to-point messages", function()
  local right, left = (me + 1) % n, (me - 1) % n
  w:send("user-" .. me, right, 0)           -- left pending during the collectives
  local r = w:irecv(mpi.ANY_SOURCE, mpi.ANY_TAG)  -- posted before them
  local all = w:allgather(me)
  local s = w:bcast(me == 0 and "b" or nil, 0)
  w:barrier()
  local got, st = r:wait()
  t.eq(got, "user-" .. left)
  t.eq(st.source, left)
  t.eq(#all, n)
  t.eq(s, "b")
end)

t.case("bad roots raise MPI_ERR_ROOT before sending", function()
  t.raises(function() w:bcast(1, n) end, "MPI_ERR_ROOT")
  t.raises(function() w:gather(1, -1) end, "MPI_ERR_ROOT")
  t.raises(function() w:scatter({}, mpi.ROOT) end, "MPI_ERR_ROOT")
  t.raises(function() w:reduce(1, mpi.SUM, n + 3) end, "MPI_ERR_ROOT")
  w:barrier()  -- nobody was left inside a half-started collective
end)

t.case("wrong lengths raise MPI_ERR_COUNT at the caller", function()
  local short = {}
  for i = 1, n + 1 do short[i] = i end
  t.raises(function() w:alltoall(short) end, "MPI_ERR_COUNT")
  t.raises(function() w:scatter(short, me) end, "MPI_ERR_COUNT")
  t.raises(function() w:scatter("x", me) end, "MPI_ERR_ARG")
  t.raises(function() w:allgather(function() end) end, "MPI_ERR_TYPE")
  w:barrier()
end)

t.case("a freed communicator raises MPI_ERR_COMM", function()
  local d = w:dup()
  if d.free then
    d:free()
    t.raises(function() d:barrier() end, "MPI_ERR_COMM")
    t.raises(function() d:allgather(1) end, "MPI_ERR_COMM")
  else
    t.skip("comm:free is not available yet")
  end
end)
