-- tests/scenarios/ch6_contexts.lua: contexts (seed §6.2.2, §6.5): separate
-- matching for point-to-point, collective and constructor traffic; messages
-- for a context not created yet are kept; Example #4 (a wildcard receive
-- pending during 50 reductions); the library examples of §6.5.5 and §6.5.6.
local t = require("lumpi.test")
t.np = {1, 2, 3, 4, 7, 9}

local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()
local world = w:group()

local function spin(seconds)  -- busy wait: keeps the rank from calling anything
  local t0 = mpi.wtime()
  while mpi.wtime() - t0 < seconds do end
end

t.case("a message for a communicator the receiver has not created yet is kept", function()
  if n < 2 then t.skip("needs 2 ranks") end
  -- Rank 0 is the root of dup's agreement, so it finishes first and sends
  -- on the new context while rank 1 is still spinning outside the dup.
  if me == 1 then spin(0.3) end
  local d = w:dup()
  if me == 0 then d:send("early", 1, 4) end
  if me == 1 then
    local v, st = d:recv(mpi.ANY_SOURCE, mpi.ANY_TAG)
    t.eq(v, "early")
    t.eq(st.source, 0)
  end
  d:free()
end)

t.case("an early message on an idup communicator waits for its completion", function()
  if n < 2 then t.skip("needs 2 ranks") end
  local d, req = w:idup()
  if me == 0 then
    req:wait()
    d:send("on idup", 1, 0)
  elseif me == 1 then
    spin(0.2)
    req:wait()
    t.eq(d:recv(0, 0), "on idup")
  else
    req:wait()
  end
  d:free()
end)

t.case("a wildcard receive never matches collective or constructor traffic", function()
  local right, left = (me + 1) % n, (me - 1) % n
  local req = w:irecv(mpi.ANY_SOURCE, mpi.ANY_TAG)
  w:barrier()
  local s = w:allreduce(me, mpi.SUM)
  local d = w:dup()
  local c = w:split(me % 2, me)
  local b = w:bcast(me == 0 and "root" or nil, 0)
  t.eq(req:test(), false)
  w:barrier()  -- nobody sends before everyone has tested
  w:send({"user", me}, right, 77)
  local v, st = req:wait()
  t.eq(v, {"user", left})
  t.eq(st.tag, 77)
  t.eq(s, n * (n - 1) // 2)
  t.eq(b, "root")
  d:free(); c:free()
end)

-- Example #4: members of a 4-process subgroup post a wildcard receive and a
-- send, run 50 reductions, then complete the pair.
local function example4_members()
  if n >= 9 then return {2, 4, 6, 8} end
  local k = math.min(n, 4)
  local list = {}
  for r = 1, k - 1 do list[#list + 1] = r end
  list[#list + 1] = 0
  return list
end

local function example4(delay_send_on)
  local subgroup = world:incl(example4_members())
  local k = subgroup:size()
  local the_comm = w:create(subgroup)
  local mine = subgroup:rank()
  if mine == mpi.UNDEFINED then
    t.eq(the_comm, nil)
    return
  end
  local rreq = the_comm:irecv(mpi.ANY_SOURCE, 12345)
  local sreq
  if mine ~= delay_send_on then sreq = the_comm:isend({"payload", mine}, (mine + 1) % k, 12345) end
  for i = 1, 50 do
    local sum = the_comm:reduce(i * (mine + 1), mpi.SUM, 0)
    if mine == 0 then t.eq(sum, i * k * (k + 1) // 2) end
  end
  if mine == delay_send_on then sreq = the_comm:isend({"payload", mine}, (mine + 1) % k, 12345) end
  local got, st = rreq:wait()
  sreq:wait()
  t.eq(got, {"payload", (mine + k - 1) % k})
  t.eq(st.source, (mine + k - 1) % k)
  t.eq(st.tag, 12345)
  the_comm:free()
end

t.case("Example #4: a pending wildcard receive is not disturbed by 50 reductions", function()
  example4(nil)
end)

t.case("Example #4, stress: one send is held back until after the reductions", function()
  example4(0)
end)

t.case("Library Example #1: two library instances on dups keep their traffic apart", function()
  local a, b = w:dup(), w:dup()
  t.eq(a:compare(w), mpi.CONGRUENT)
  t.eq(a:compare(b), mpi.CONGRUENT)
  t.eq(a:compare(a), mpi.IDENT)
  local right, left = (me + 1) % n, (me - 1) % n
  -- user_start_op on each: same peers and tag
  local ra, rb = a:irecv(left, 7), b:irecv(left, 7)
  local sa, sb = a:isend("lib a from " .. me, right, 7), b:isend("lib b from " .. me, right, 7)
  for i = 1, 3 do
    local s = w:reduce(i, mpi.SUM, 0)
    if me == 0 then t.eq(s, i * n) end
  end
  -- user_end_op, b first
  t.eq(rb:wait(), "lib b from " .. left)
  t.eq(ra:wait(), "lib a from " .. left)
  sa:wait(); sb:wait()
  a:free(); b:free()
  t.raises(function() a:size() end, "MPI_ERR_COMM")
end)

-- Library Example #2: lib_call(comm, k) at rank 0 receives one message from
-- every other rank with wildcards; each carries its call index k.
local function lib_call(comm, k, with_barrier, delay)
  local got = {}
  if comm:rank() == 0 then
    for _ = 1, comm:size() - 1 do
      local v = comm:recv(mpi.ANY_SOURCE, mpi.ANY_TAG)
      got[#got + 1] = v
    end
  else
    if delay then spin(delay) end
    comm:send(k, 0, 0)
  end
  if with_barrier then comm:barrier() end
  return got
end

t.case("Library Example #2A: one sender per call, every message belongs to its call", function()
  if n < 3 then t.skip("needs 3 ranks") end
  local comm_a = w:create(world:incl({0, 1}))
  local comm_b = w:create(world:incl({0, 2}))
  if comm_a then t.eq(lib_call(comm_a, 1, false), comm_a:rank() == 0 and {1} or {}) end
  if comm_b then
    for k = 1, 2 do
      local got = lib_call(comm_b, k, false)
      if comm_b:rank() == 0 then t.eq(got, {k}) end
    end
  end
  if comm_a then comm_a:free() end
  if comm_b then comm_b:free() end
end)

t.case("Library Example #2C: with a barrier, no back-masking between calls", function()
  if n < 4 then t.skip("needs 4 ranks") end
  local comm_b = w:create(world:incl({0, 2, 3}))
  if comm_b then
    t.eq(comm_b:group():members(), {0, 2, 3})
    for k = 1, 2 do
      -- w2 is slow in call 1, which without the barrier could let w3's call-2
      -- message be taken in call 1
      local got = lib_call(comm_b, k, true, (me == 2 and k == 1) and 0.2 or nil)
      if comm_b:rank() == 0 then t.eq(got, {k, k}) end
    end
    comm_b:free()
  else
    t.ok(me == 1 or me >= 4)
  end
end)

t.case("Current Practice #1b: evens send to the next odd rank", function()
  if me % 2 == 0 and me + 1 < n then w:send({me, "hi"}, me + 1, 0) end
  if me % 2 == 1 then
    local v, st = w:recv(me - 1, 0)
    t.eq(v, {me - 1, "hi"})
    t.eq(st.source, me - 1)
    t.eq(st.tag, 0)
  end
end)

t.case("Current Practice #1a: every process knows its rank and the size", function()
  local all = w:allgather({me, n})
  for r = 0, n - 1 do t.eq(all[r + 1], {r, n}) end
  print(string.format("Process %d size %d", me, n))
end)

t.case("Current Practice #2: a broadcast from rank 0 reaches everyone byte for byte", function()
  local data = me == 0 and string.rep("\1\0\255", 100) or nil
  t.eq(w:bcast(data, 0), string.rep("\1\0\255", 100))
end)
