-- scripts/ch6_pipeline_demo.lua: a classroom demo of intercommunicators
-- (seed §6.6.3, Inter-communication Example 1): split COMM_WORLD into three
-- groups by rank % 3, join neighbouring groups with intercomm_create, and
-- push work items through the pipeline G0 -> G1 -> G2, each hop reporting
-- the sender's rank in *its own* group. Run: lumpi -n 7 scripts/ch6_pipeline_demo.lua
local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()
if n < 3 then
  if me == 0 then print("run with at least 3 ranks, e.g. lumpi -n 7 " .. (arg and arg[0] or "")) end
  return
end

local key = me % 3
local myComm = w:split(key, me)
myComm:set_name("group " .. key)

-- Leaders are world ranks 0, 1, 2; the tags (1, 12) name the two bridges.
local first, second
if key == 0 then
  first = myComm:intercomm_create(0, w, 1, 1)
elseif key == 1 then
  first = myComm:intercomm_create(0, w, 0, 1)
  second = myComm:intercomm_create(0, w, 2, 12)
else
  first = myComm:intercomm_create(0, w, 1, 12)
end

local function show(c) return c and table.concat(c:remote_group():members(), ",") or "-" end
print(string.format("world %d: %s rank %d; first bridge to [%s], second to [%s]",
  me, myComm:get_name(), myComm:rank(), show(first), show(second)))
w:barrier()

local i = myComm:rank()
if key == 0 then
  first:send("item made by world " .. me, i % first:remote_size(), 0)
elseif key == 1 then
  local count = 0
  for s = 0, first:remote_size() - 1 do if s % myComm:size() == i then count = count + 1 end end
  for _ = 1, count do
    local item, st = first:recv(mpi.ANY_SOURCE, 0)
    second:send(item .. ", passed on by G1 rank " .. i .. " (got it from G0 rank " .. st.source .. ")",
                i % second:remote_size(), 0)
  end
  second:send(nil, i % second:remote_size(), 1)  -- this G1 rank is done
else
  local senders = 0
  for j = 0, first:remote_size() - 1 do if j % myComm:size() == i then senders = senders + 1 end end
  while senders > 0 do
    local item, st = first:recv(mpi.ANY_SOURCE, mpi.ANY_TAG)
    if st.tag == 1 then senders = senders - 1
    else print(string.format("world %d (G2 rank %d) finished: %s", me, i, item)) end
  end
end

if second then second:free() end
first:free()
myComm:free()
