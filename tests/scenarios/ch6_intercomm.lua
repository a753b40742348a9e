-- tests/scenarios/ch6_intercomm.lua: intercommunicators (seed §6.6):
-- intercomm_create, accessors, point-to-point to remote ranks, merge, dup,
-- create (Example 6.1) and split (Example 6.2) on an intercommunicator,
-- collectives across the two groups, and the pipeline and ring examples of
-- §6.6.3. Oracles are lists of world ranks computed here.
local t = require("lumpi.test")
t.np = {2, 3, 4, 7}

local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()
local half = n // 2

local function list(a, b)
  local out = {}
  for i = a, b do out[#out + 1] = i end
  return out
end

-- Left = world ranks 0..half-1, right = half..n-1.
local function halves(tag)
  local color = me < half and 0 or 1
  local loc = w:split(color, me)
  local inter = loc:intercomm_create(0, w, color == 0 and half or 0, tag or 99)
  return inter, color, loc
end

t.case("intercomm_create: accessors see the local and the remote group", function()
  local inter, color, loc = halves()
  local mine = color == 0 and list(0, half - 1) or list(half, n - 1)
  local other = color == 0 and list(half, n - 1) or list(0, half - 1)
  t.eq(inter:test_inter(), true)
  t.eq(inter:size(), #mine)
  t.eq(inter:rank(), loc:rank())
  t.eq(inter:remote_size(), #other)
  t.eq(inter:group():members(), mine)
  t.eq(inter:remote_group():members(), other)
  t.eq(inter:compare(inter), mpi.IDENT)
  t.eq(inter:compare(w), mpi.UNEQUAL)
  t.eq(inter:compare(loc), mpi.UNEQUAL)
  t.eq(tostring(inter), "Intercomm '' size=" .. #mine .. " rank=" .. loc:rank() ..
                        " inter remote_size=" .. #other)
  local d = inter:dup()
  t.eq(d:test_inter(), true)
  t.eq(d:compare(inter), mpi.CONGRUENT)
  t.eq(d:remote_group():members(), other)
  d:free(); inter:free(); loc:free()
  t.raises(function() inter:remote_size() end, "MPI_ERR_COMM")
end)

t.case("idup and dup_with_info on an intercommunicator", function()
  local inter, color = halves()
  local d, req = inter:idup()
  req:wait()
  t.eq(d:test_inter(), true)
  t.eq(d:compare(inter), mpi.CONGRUENT)
  local h = inter:dup_with_info({mpi_assert_no_any_tag = "true"})
  t.eq(h:get_info().mpi_assert_no_any_tag, "true")
  -- the new contexts work in both directions
  if color == 0 then
    d:send("via idup", 0, 1)
    t.eq(h:recv(0, 2), "via info dup")
  elseif d:rank() == 0 then
    for s = 0, d:remote_size() - 1 do t.eq(d:recv(s, 1), "via idup") end
    for r = 0, h:remote_size() - 1 do h:send("via info dup", r, 2) end
  end
  d:free(); h:free(); inter:free()
end)

t.case("point-to-point addresses remote ranks; sources are remote ranks", function()
  local inter, color = halves()
  local R = inter:remote_size()
  local i = inter:rank()
  -- left rank i sends to right rank i % R; right ranks count what they get
  if color == 0 then
    inter:send({from = i}, i % R, 3)
  else
    local expect = {}
    for s = 0, inter:remote_size() - 1 do if s % inter:size() == i then expect[#expect + 1] = s end end
    local got = {}
    for _ = 1, #expect do
      local v, st = inter:recv(mpi.ANY_SOURCE, 3)
      t.eq(v.from, st.source)
      got[#got + 1] = st.source
    end
    table.sort(got)
    t.eq(got, expect)
  end
  -- and back: right rank j replies to left rank j % |left|
  if color == 1 then
    inter:send(i, i % R, 4)
  else
    local count = 0
    for s = 0, R - 1 do if s % inter:size() == i then count = count + 1 end end
    for _ = 1, count do
      local v, st = inter:recv(mpi.ANY_SOURCE, 4)
      t.eq(v, st.source)
    end
  end
  t.raises(function() inter:send(1, R) end, "MPI_ERR_RANK")
  inter:free()
end)

t.case("intercomm_merge orders the low group first; equal flags agree on one order", function()
  local inter, color = halves()
  local m = inter:intercomm_merge(color == 1)
  t.eq(m:test_inter(), false)
  t.eq(m:group():members(), list(0, n - 1))
  t.eq(m:compare(w), mpi.CONGRUENT)
  m:free()
  local swapped = inter:intercomm_merge(color == 0)
  local expect = list(half, n - 1)
  for _, r in ipairs(list(0, half - 1)) do expect[#expect + 1] = r end
  t.eq(swapped:group():members(), expect)
  t.eq(swapped:rank(), color == 1 and me - half or me + (n - half))
  swapped:free()
  local same = inter:intercomm_merge(true)
  t.same_everywhere(same:group():members())
  t.eq(same:size(), n)
  same:free()
  inter:free()
end)

t.case("Example 6.1: create on an intercommunicator", function()
  local inter, color = halves()
  local group
  if color == 0 then
    group = inter:group():incl({0})
  else
    group = inter:group()
  end
  local nic = inter:create(group)
  if color == 0 and me ~= 0 then
    t.eq(nic, nil)
  elseif color == 0 then
    t.eq(nic:test_inter(), true)
    t.eq(nic:size(), 1)
    t.eq(nic:rank(), 0)
    t.eq(nic:remote_group():members(), list(half, n - 1))
    for r = 0, nic:remote_size() - 1 do nic:send("to " .. r, r, 0) end
  else
    t.eq(nic:size(), n - half)
    t.eq(nic:rank(), me - half)
    t.eq(nic:remote_group():members(), {0})
    local v, st = nic:recv(0, 0)
    t.eq(v, "to " .. (me - half))
    t.eq(st.source, 0)
  end
  if nic then nic:free() end
  group:free()
  -- Variant: the left side passes GROUP_EMPTY, so everybody gets nil.
  local none = inter:create(color == 0 and mpi.GROUP_EMPTY or inter:group())
  t.eq(none, nil)
  inter:free()
end)

t.case("Example 6.2: split on an intercommunicator pairs clients with servers", function()
  if n < 3 then t.skip("needs 3 ranks") end
  local nS = math.max(1, n // 3)
  local nC = n - nS
  local is_server = me >= nC
  local loc = w:split(is_server and 1 or 0, me)
  local comm = loc:intercomm_create(0, w, is_server and 0 or nC, 7)
  local rank = comm:rank()
  local sub
  if not is_server then
    local num_servers = comm:remote_size()
    t.eq(num_servers, nS)
    sub = comm:split(rank % num_servers, rank)
    local mates = {}
    for c = 0, nC - 1 do if c % nS == rank % nS then mates[#mates + 1] = c end end
    t.eq(sub:test_inter(), true)
    t.eq(sub:group():members(), mates)
    t.eq(sub:remote_group():members(), {nC + rank % nS})
  else
    sub = comm:split(rank, 0)
    local clients = {}
    for c = 0, nC - 1 do if c % nS == rank then clients[#clients + 1] = c end end
    t.eq(sub:size(), 1)
    t.eq(sub:remote_group():members(), clients)
  end
  sub:free()
  -- A colour on one side only gives nil; UNDEFINED gives nil.
  local lone = comm:split(is_server and 5 or mpi.UNDEFINED, 0)
  t.eq(lone, nil)
  comm:free(); loc:free()
end)

t.case("collectives across the two groups: barrier, bcast with ROOT and PROC_NULL, allreduce", function()
  local inter, color = halves()
  inter:barrier()
  -- left rank 0 is the root; its group mates pass PROC_NULL
  local root_arg
  if color == 0 then root_arg = inter:rank() == 0 and mpi.ROOT or mpi.PROC_NULL else root_arg = 0 end
  local v = inter:bcast(color == 0 and inter:rank() == 0 and "from the left" or nil, root_arg)
  if color == 1 then t.eq(v, "from the left") end
  -- allreduce on an intercommunicator: each group gets the other group's result
  local s = inter:allreduce(me, mpi.SUM)
  local left_sum, right_sum = 0, 0
  for r = 0, n - 1 do if r < half then left_sum = left_sum + r else right_sum = right_sum + r end end
  t.eq(s, color == 0 and right_sum or left_sum)
  inter:free()
end)

-- §6.6.3: three groups by rank % 3, leaders are world ranks 0, 1, 2.
local function three_groups()
  local key = me % 3
  local myComm = w:split(key, me)
  local members = {}
  for g = 0, 2 do
    members[g] = {}
    for r = g, n - 1, 3 do members[g][#members[g] + 1] = r end
  end
  return key, myComm, members
end

t.case("Inter-communication Example 1: a three-group pipeline", function()
  if n < 3 then t.skip("needs 3 ranks") end
  local key, myComm, members = three_groups()
  local first, second
  if key == 0 then
    first = myComm:intercomm_create(0, w, 1, 1)
  elseif key == 1 then
    first = myComm:intercomm_create(0, w, 0, 1)
    second = myComm:intercomm_create(0, w, 2, 12)
  else
    first = myComm:intercomm_create(0, w, 1, 12)
  end
  t.eq(first:test_inter(), true)
  if key == 0 then t.eq(first:remote_group():members(), members[1]) end
  if key == 1 then
    t.eq(first:remote_group():members(), members[0])
    t.eq(second:remote_group():members(), members[2])
    t.eq(first:compare(second), mpi.UNEQUAL)
  end
  if key == 2 then t.eq(first:remote_group():members(), members[1]) end
  -- work: G0 sends to G1 (i % |G1|), G1 forwards everything to G2 (j % |G2|)
  local i = myComm:rank()
  local seen = 0
  if key == 0 then
    first:send({origin = me, hops = 1}, i % first:remote_size(), 0)
  elseif key == 1 then
    local count = 0
    for s = 0, first:remote_size() - 1 do if s % myComm:size() == i then count = count + 1 end end
    for _ = 1, count do
      local v = first:recv(mpi.ANY_SOURCE, 0)
      v.hops = v.hops + 1
      second:send(v, i % second:remote_size(), 0)
    end
    second:send("done", i % second:remote_size(), 1)
  else
    -- every G1 rank j that maps to me sends its forwards then "done"
    local senders = 0
    for j = 0, first:remote_size() - 1 do if j % myComm:size() == i then senders = senders + 1 end end
    while senders > 0 do
      local v, st = first:recv(mpi.ANY_SOURCE, mpi.ANY_TAG)
      t.ok(st.source >= 0 and st.source < first:remote_size())
      if st.tag == 1 then senders = senders - 1 else
        t.eq(v.hops, 2)
        t.eq(v.origin % 3, 0)
        seen = seen + 1
      end
    end
  end
  -- every message of group 0 reached group 2, after two hops
  t.eq(w:allreduce(seen, mpi.SUM), #members[0])
  if key == 1 then second:free() end
  first:free()
  t.raises(function() first:size() end, "MPI_ERR_COMM")
  myComm:free()
end)

t.case("Inter-communication Example 2: a three-group ring", function()
  if n < 3 then t.skip("needs 3 ranks") end
  local key, myComm, members = three_groups()
  local first, second
  if key == 0 then
    first = myComm:intercomm_create(0, w, 1, 1)
    second = myComm:intercomm_create(0, w, 2, 2)
  elseif key == 1 then
    first = myComm:intercomm_create(0, w, 0, 1)
    second = myComm:intercomm_create(0, w, 2, 12)
  else
    first = myComm:intercomm_create(0, w, 0, 2)
    second = myComm:intercomm_create(0, w, 1, 12)
  end
  local others = {[0] = {1, 2}, [1] = {0, 2}, [2] = {0, 1}}
  t.eq(first:remote_group():members(), members[others[key][1]])
  t.eq(second:remote_group():members(), members[others[key][2]])
  -- ring traffic 0 -> 1 -> 2 -> 0 between the leaders
  local to_next = ({[0] = first, [1] = second, [2] = first})[key]
  local from_prev = ({[0] = second, [1] = first, [2] = second})[key]
  if myComm:rank() == 0 then
    if key == 0 then
      to_next:send({0}, 0, 5)
      t.eq(from_prev:recv(0, 5), {0, 1, 2})
    else
      local v = from_prev:recv(0, 5)
      v[#v + 1] = key
      to_next:send(v, 0, 5)
    end
  end
  first:free(); second:free(); myComm:free()
  t.raises(function() second:rank() end, "MPI_ERR_COMM")
end)

t.case("erroneous intercommunicator arguments raise before any communication", function()
  local inter, color, loc = halves()
  t.raises(function() inter:intercomm_create(0, w, 0, 1) end, "MPI_ERR_COMM")
  t.raises(function() loc:intercomm_create(loc:size(), w, 0, 1) end, "MPI_ERR_RANK")
  t.raises(function() loc:intercomm_create(0, w, 0, mpi.ANY_TAG) end, "MPI_ERR_TAG")
  if loc:rank() == 0 then
    t.raises(function() loc:intercomm_create(0, w, n, 1) end, "MPI_ERR_RANK")
    t.raises(function() loc:intercomm_create(0, w, mpi.PROC_NULL, 1) end, "MPI_ERR_RANK")
    t.raises(function() loc:intercomm_create(0, nil, 0, 1) end, "MPI_ERR_COMM")
  end
  t.raises(function() loc:intercomm_merge(true) end, "MPI_ERR_COMM")
  t.raises(function() inter:split_type("shared", 0) end, "MPI_ERR_COMM")
  t.raises(function() inter:create_group(inter:group(), 0) end, "MPI_ERR_COMM")
  inter:free(); loc:free()
  t.ok(color == 0 or color == 1)
end)

t.case("a user wildcard receive on the peer communicator does not take the leaders' exchange", function()
  local req = w:irecv(mpi.ANY_SOURCE, mpi.ANY_TAG)
  local inter = halves(5)
  t.eq(req:test(), false)
  w:barrier()
  w:send("user", (me + 1) % n, 5)
  t.eq(req:wait(), "user")
  inter:free()
end)
