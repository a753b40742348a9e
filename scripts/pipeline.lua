-- scripts/pipeline.lua: an intercommunicator pipeline of three stages.
-- COMM_WORLD splits by rank % 3 into producers (0), squarers (1) and a
-- summing stage (2); intercomm_create bridges 0<->1 and 1<->2. On an
-- intercommunicator, send/recv ranks are ranks in the *remote* group, so
-- producer i sends to squarer i % (number of squarers). The summing stage
-- reduces over its own group and checks the serial answer.
-- Run: lumpi -n 7 scripts/pipeline.lua   (then: :draw to_next)
local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()
if n < 3 then
  if me == 0 then print("run with at least 3 ranks: lumpi -n 7 scripts/pipeline.lua") end
  return
end
local stage = me % 3
stage_comm = w:split(stage, me)
stage_comm:set_name("stage " .. stage)
local r, size = stage_comm:rank(), stage_comm:size()
local function count(s) return (n - s + 2) // 3 end  -- ranks in stage s

-- leaders: world ranks 0, 1, 2; tag 1 names bridge 0-1, tag 2 bridge 1-2
if stage == 0 then
  to_next = stage_comm:intercomm_create(0, w, 1, 1)
elseif stage == 1 then
  from_prev = stage_comm:intercomm_create(0, w, 0, 1)
  to_next = stage_comm:intercomm_create(0, w, 2, 2)
else
  from_prev = stage_comm:intercomm_create(0, w, 1, 2)
end

-- how many items reach local rank r from a remote group of `senders` ranks
local function incoming(senders) local k = 0 for i = 0, senders - 1 do if i % size == r then k = k + 1 end end return k end

if stage == 0 then
  local item = me + 1
  to_next:send(item, r % to_next:remote_size(), 0)
  print(string.format("producer %d (world %d) made %d", r, me, item))
elseif stage == 1 then
  for _ = 1, incoming(count(0)) do
    local item, st = from_prev:recv(mpi.ANY_SOURCE, 0)
    to_next:send(item * item, (r + st.source) % to_next:remote_size(), 0)
    print(string.format("squarer %d (world %d) got %d from producer %d, sent %d", r, me, item, st.source, item * item))
  end
  -- "done" to every summer: messages between one pair never overtake, so it
  -- arrives after every item this squarer sent to that summer
  for dest = 0, to_next:remote_size() - 1 do to_next:send("done", dest, 1) end
else
  local sum = 0
  local squarers_done = 0
  while squarers_done < count(1) do
    local v, st = from_prev:recv(mpi.ANY_SOURCE, mpi.ANY_TAG)
    if st.tag == 1 then squarers_done = squarers_done + 1 else sum = sum + v end
  end
  local total = stage_comm:allreduce(sum, mpi.SUM)
  local want = 0
  for i = 0, n - 1, 3 do want = want + (i + 1) * (i + 1) end
  assert(total == want, "the pipeline lost an item")
  if r == 0 then print(string.format("sum of squares: %d (serial answer %d): ok", total, want)) end
end
