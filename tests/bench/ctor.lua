-- tests/bench/ctor.lua: mean time of communicator constructors (create,
-- intercomm_merge, create on an intercommunicator, intercomm_create, dup),
-- each created and freed 300 times after 20 warm-up rounds; rank 0 prints
-- one line per constructor. Usage: lumpi -n N tests/bench/ctor.lua
local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()
local half = w:split(me % 2, me)
local ic = half:intercomm_create(0, w, me % 2 == 0 and 1 or 0, 3)
local g = w:group()
local function time(name, k, f)
  for i = 1, 20 do f() end
  w:barrier()
  local t0 = mpi.wtime()
  for i = 1, k do f() end
  w:barrier()
  local dt = (mpi.wtime() - t0) / k
  if me == 0 then print(string.format("%-14s n=%d %8.1f us", name, n, dt * 1e6)) end
end
time("create", 300, function() w:create(g):free() end)
time("merge", 300, function() ic:intercomm_merge(me % 2 == 1):free() end)
time("create_inter", 300, function() local c = ic:create(half:group()); if c then c:free() end end)
time("intercomm_create", 300, function() half:intercomm_create(0, w, me % 2 == 0 and 1 or 0, 3):free() end)
time("dup", 300, function() w:dup():free() end)
