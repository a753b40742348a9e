-- tests/scenarios/soak_live.lua: communicators made and freed in a loop
-- leave nothing behind on a Lua rank (issue 17, Soak; MPI_Comm_free, seed
-- §6.4.3). Counts, not timings: a freed handle gives its owner (the one
-- finalizable userdata behind a communicator value, lua/binding.cpp) back
-- for reuse, so a create/free loop of every constructor makes only a
-- handful of owners; and the Lua heap between full collections stays near
-- where it started, where finalizable garbage from every cycle made it climb
-- under the generational collector (tests/bench/README.md, "Soak").
local t = require("lumpi.test")
local host = require("lumpi.host")
t.np = {1, 2, 3}

local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()
local world_group = w:group()

-- One cycle: every kind of constructor, each result freed.
local function cycle()
  local d = w:dup()
  local s = d:split(me % 2, me)
  local c = w:create(world_group)
  local g = w:create_group(world_group, 5)
  local cart = w:cart_create({n}, {true})
  local i, req = w:idup()
  req:wait()
  for _, x in ipairs({s, c, g, cart, i, d}) do x:free() end
  if n >= 2 then
    local half = me < n // 2 and 0 or 1
    local loc = w:split(half, me)
    local inter = loc:intercomm_create(0, w, half == 0 and n // 2 or 0, 7)
    local merged = inter:intercomm_merge(half == 1)
    merged:free()
    inter:free()
    loc:free()
  end
end

t.case("create/free cycles of every constructor reuse their communicator owners", function()
  for _ = 1, 5 do cycle() end
  local before = host.live().comm_owners_made
  for _ = 1, 300 do cycle() end
  local made = host.live().comm_owners_made - before
  -- Without reuse: 6 to 9 owners a cycle, 1800 or more.
  t.ok(made <= 16, "300 cycles made " .. made .. " communicator owners (at most 16 expected)")
end)

t.case("a freed handle is a plain freed communicator, and an unfreed one is still collected", function()
  local d = w:dup()
  d:set_errhandler("errors_return")
  d:free()
  t.eq(tostring(d), "Intracomm (freed)")
  local v, err = d:barrier()  -- the freed handle keeps the handler it had
  t.eq(v, nil)
  t.eq(err.class, "MPI_ERR_COMM")
  local e = w:dup()
  e:free()
  t.eq(d == e, true)  -- two freed handles are equal, as two MPI_COMM_NULLs
  collectgarbage("collect")
  collectgarbage("collect")
  local live = host.live().comm_owners
  for _ = 1, 20 do w:dup() end  -- dropped without free: their owners are collected
  collectgarbage("collect")
  collectgarbage("collect")
  -- (they may have come from the pool of emptied owners, so fewer is fine)
  t.ok(host.live().comm_owners <= live, host.live().comm_owners .. " owners alive, " .. live .. " before")
end)

t.case("the Lua heap stays near its start over cycles with full collections between", function()
  collectgarbage("collect")
  collectgarbage("collect")
  local base = collectgarbage("count")
  local peak = base
  for _ = 1, 10 do
    for _ = 1, 700 do
      local d = w:dup()
      local s = d:split(0, me)
      s:free()
      d:free()
      peak = math.max(peak, collectgarbage("count"))
    end
    collectgarbage("collect")  -- what a program measuring its memory does
  end
  -- Two finalizable handles a cycle made the peak climb by hundreds of KiB
  -- over these 7000 cycles, 198 KiB here against 77 since (1 MiB and more
  -- over 100,000 in tests/bench/soak.lua).
  t.ok(peak - base < 128, string.format("Lua heap peak %.0f KiB above its start of %.0f KiB", peak - base, base))
end)
