-- tests/scenarios/ch6_create_split.lua: create, create_group, split and
-- split_type on intracommunicators (seed §6.4.2), with the "commslave"
-- example of §6.5.3. Oracles are computed serially from world ranks.
local t = require("lumpi.test")
t.np = {1, 2, 3, 4, 7}

local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()
local world = w:group()

-- Serial oracle for split: members of `color`, ordered by (key, old rank).
local function split_oracle(colors, keys, color)
  local m = {}
  for r = 0, n - 1 do if colors[r] == color then m[#m + 1] = r end end
  table.sort(m, function(a, b)
    if keys[a] ~= keys[b] then return keys[a] < keys[b] end
    return a < b
  end)
  return m
end

t.case("split orders by key with ties broken by old rank; UNDEFINED gives nil", function()
  local colors, keys = {}, {}
  for r = 0, n - 1 do
    colors[r] = (r % 3 == 2) and mpi.UNDEFINED or (r % 3) * 1000 + 7
    keys[r] = (r * 5) % 3  -- many ties
  end
  local c = w:split(colors[me], keys[me])
  if colors[me] == mpi.UNDEFINED then
    t.eq(c, nil)
  else
    local expect = split_oracle(colors, keys, colors[me])
    t.eq(c:group():members(), expect)
    for i, r in ipairs(expect) do if r == me then t.eq(c:rank(), i - 1) end end
    t.eq(c:test_inter(), false)
    c:free()
  end
end)

t.case("split with nil colour, huge and negative keys, and split of a split", function()
  t.eq(w:split(nil, 0), nil)
  local c = w:split(0, -math.floor(2 ^ 31) + me)
  t.eq(c:compare(w), mpi.CONGRUENT)
  local halves = c:split(me % 2, n - me)
  local colors, keys = {}, {}
  for r = 0, n - 1 do colors[r], keys[r] = r % 2, n - r end
  t.eq(halves:group():members(), split_oracle(colors, keys, me % 2))
  halves:free(); c:free()
  local self = mpi.COMM_SELF:split(0, 0)
  t.eq(self:size(), 1)
  t.eq(mpi.COMM_SELF:split(mpi.UNDEFINED, 0), nil)
end)

t.case("split rejects a negative colour other than UNDEFINED before communicating", function()
  t.raises(function() w:split(-1, 0) end, "MPI_ERR_ARG")
end)

t.case("create: disjoint groups each get their communicator; non-members get nil", function()
  -- Two disjoint groups: evens and odds reversed; rank n-1 passes GROUP_EMPTY.
  local g
  if me == n - 1 and n > 1 then
    g = mpi.GROUP_EMPTY
  elseif me % 2 == 0 then
    local ev = {}
    for r = 0, n - 1, 2 do if not (r == n - 1 and n > 1) then ev[#ev + 1] = r end end
    g = world:incl(ev)
  else
    local od = {}
    for r = n - 1, 1, -1 do if r % 2 == 1 and r ~= n - 1 then od[#od + 1] = r end end
    g = world:incl(od)
  end
  local c = w:create(g)
  if g:rank() == mpi.UNDEFINED then
    t.eq(c, nil)
  else
    t.eq(c:group():members(), g:members())
    t.eq(c:rank(), g:rank())
    -- the new context works and is private
    local right = (c:rank() + 1) % c:size()
    c:send(me, right, 0)
    local got = c:recv(mpi.ANY_SOURCE, 0)
    t.eq(got, g:members()[(c:rank() - 1) % c:size() + 1])
    c:free()
  end
end)

t.case("create rejects a group that is not a subgroup", function()
  -- all ranks fail locally and alike, so nobody is left waiting
  local bad = mpi.COMM_SELF:group()
  if n > 1 then
    local other = world:incl({(me + 1) % n})
    t.raises(function() mpi.COMM_SELF:create(other) end, "MPI_ERR_GROUP")
  end
  t.eq(mpi.COMM_SELF:create(bad):size(), 1)
end)

t.case("commslave (§6.5.3): create without rank 0, reduce on it and on WORLD", function()
  if n < 3 then t.skip("needs 3 ranks") end
  local grprem = world:excl({0})
  local commslave = w:create(grprem)
  if me == 0 then
    t.eq(commslave, nil)
    t.eq(grprem:rank(), mpi.UNDEFINED)
  else
    t.eq(commslave:size(), n - 1)
    t.eq(commslave:rank(), me - 1)
    t.eq(commslave:compare(w), mpi.UNEQUAL)
    local sum = commslave:reduce(me + 1, mpi.SUM, 1)
    if me == 2 then
      local expect = 0
      for r = 1, n - 1 do expect = expect + r + 1 end
      t.eq(sum, expect)
    else
      t.eq(sum, nil)
    end
    commslave:free()
  end
  local total = w:reduce(100 * (me + 1), mpi.SUM, 0)
  if me == 0 then t.eq(total, 100 * n * (n + 1) // 2) end
  grprem:free()
  world:free()
  world = w:group()
end)

t.case("create_group: only members call it; the tag keeps concurrent creations apart", function()
  if n < 2 then t.skip("needs 2 ranks") end
  local lows, highs = {}, {}
  for r = 0, n - 1 do
    if r < n // 2 then lows[#lows + 1] = r else highs[#highs + 1] = r end
  end
  -- Two subsets create at once, each with its own tag; nobody else calls.
  local mine = me < n // 2 and lows or highs
  local g = world:incl(mine)
  local c = w:create_group(g, me < n // 2 and 11 or 12)
  t.eq(c:group():members(), mine)
  local s = c:allreduce(me, mpi.SUM)
  local expect = 0
  for _, r in ipairs(mine) do expect = expect + r end
  t.eq(s, expect)
  c:free()
  -- A non-member's call is local and gives nil.
  t.eq(w:create_group(mpi.GROUP_EMPTY, 3), nil)
  t.eq(w:create_group(world:incl({(me + 1) % n}), 3) == nil, true)
end)

t.case("create_group rejects wildcard and out-of-range tags and intercommunicators", function()
  local g = world:incl({me})
  t.raises(function() w:create_group(g, mpi.ANY_TAG) end, "MPI_ERR_TAG")
  t.raises(function() w:create_group(g, -7) end, "MPI_ERR_TAG")
  t.raises(function() w:create_group(42, 0) end, "MPI_ERR_GROUP")
  local c = w:create_group(g, 0)
  t.eq(c:size(), 1)
  c:free()
end)

t.case("create_group does not take user messages with the same tag", function()
  if n < 2 then t.skip("needs 2 ranks") end
  local right, left = (me + 1) % n, (me - 1) % n
  w:send("user", right, 5)
  local c = w:create_group(world, 5)
  t.eq(w:recv(mpi.ANY_SOURCE, mpi.ANY_TAG), "user")
  t.eq(c:compare(w), mpi.CONGRUENT)
  c:free()
  t.ok(left >= 0)
end)

t.case("split_type shared gives the whole host here; UNDEFINED gives nil", function()
  local s = w:split_type(mpi.COMM_TYPE_SHARED, me)
  t.eq(s:compare(w), mpi.CONGRUENT)
  local r = w:split_type("shared", n - me)
  t.eq(r:compare(w), n > 1 and mpi.SIMILAR or mpi.CONGRUENT)
  local u = w:split_type(me % 2 == 0 and "shared" or mpi.UNDEFINED, 0)
  if me % 2 == 0 then
    local ev = {}
    for x = 0, n - 1, 2 do ev[#ev + 1] = x end
    t.eq(u:group():members(), ev)
    u:free()
  else
    t.eq(u, nil)
  end
  s:free(); r:free()
end)

t.case("split_type hw_guided groups the ranks on each instance; hw_domain gives strict subsets or nil", function()
  for _, level in ipairs({"Package", "NUMANode", "L3Cache", "L2Cache", "Core", "PU"}) do
    local c = w:split_type("hw_guided", 0, {mpi_hw_resource_type = level})
    local mine = mpi.hw.locality(level)
    local all = w:allgather(mine)
    t.eq(c ~= nil, mine ~= mpi.UNDEFINED, level)
    if c then
      local expect = {}
      for r, l in ipairs(all) do
        if l == mine then expect[#expect + 1] = r - 1 end
      end
      t.eq(c:allgather(me), expect, level)
      c:free()
    end
  end
  -- The recursive descent of §6.4.2 ends with nil, each level a strict subset.
  local cur, depth = w, 0
  while true do
    local nxt = cur:split_type("hw_domain", 0)
    if not nxt then break end
    t.eq(nxt:compare(cur), mpi.UNEQUAL)
    depth = depth + 1
    t.ok(depth < 10, "the descent ends")
    cur = nxt
  end
  t.ok(true)
end)

-- The oracle of MPI-4.0 §7.4.2 MPI_COMM_TYPE_HW_UNGUIDED on one host: the
-- coarsest level, as mpi.hw.locality sees it, whose instances split the
-- ranks into strict subsets; checks what split_type gives against it.
local function check_unguided(what)
  local expect_level, mine
  for _, level in ipairs({"Package", "NUMANode", "L3Cache", "L2Cache", "Core", "PU"}) do
    local all = w:allgather(mpi.hw.locality(level))
    local splits = false
    for _, l in ipairs(all) do
      if l == mpi.UNDEFINED or l ~= all[1] then splits = true end
    end
    if splits then
      expect_level, mine = level, all[me + 1]
      break
    end
  end
  local c = w:split_type(mpi.COMM_TYPE_HW_UNGUIDED, 0)
  if not expect_level or mine == mpi.UNDEFINED then
    t.eq(c, nil, what .. ": no level splits, or this rank spans several instances")
    return nil
  end
  t.ok(c ~= nil, what)
  t.ok(c:size() < n, what .. ": a strict subset")
  t.eq(c:get_info().mpi_hw_resource_type, expect_level, what)
  local same = {}
  for r, l in ipairs(w:allgather(mpi.hw.locality(expect_level))) do
    if l == mine then same[#same + 1] = r - 1 end
  end
  t.eq(c:allgather(me), same, what .. ": the ranks on my " .. expect_level)
  c:free()
  return expect_level
end

t.case("split_type hw_unguided splits at the coarsest level giving strict subsets, and names it", function()
  t.eq(mpi.COMM_TYPE_HW_UNGUIDED, "hw_unguided")
  check_unguided("as started")
  -- bound one rank per PU (round robin): with 2 ranks or more on a machine
  -- of 2 PUs or more, some level must split
  local pus = mpi.hw.count("pu")
  mpi.hw.bind("pu", me % pus)
  local level = check_unguided("bound to PUs")
  if n > 1 and pus > 1 then t.ok(level ~= nil, "bound ranks on different PUs split at some level") end
end)

t.case("split_type rejects unknown types and types that differ between ranks", function()
  t.raises(function() w:split_type("bogus", 0) end, "MPI_ERR_ARG")
  t.raises(function() w:split_type(12345, 0) end, "MPI_ERR_ARG")
  if n > 1 then
    local ok, err = pcall(function()
      return w:split_type(me == 0 and "shared" or "hw_guided", 0, {mpi_hw_resource_type = "Core"})
    end)
    t.eq(ok, false)
    t.eq(err.class, "MPI_ERR_ARG")
  end
end)
