-- tests/bench/soak.lua: resident memory of Lua ranks over a long run (run:
-- lumpi -n N tests/bench/soak.lua [cycles [messages [batches]]]).
-- Phase 1: `cycles` communicator create/free cycles (each: dup COMM_WORLD,
-- split the dup, free both). Phase 2: `messages` small messages (all ranks'
-- sends), streamed around a ring in windows of 64 integers. RSS is read at
-- idle and after each of `batches` batches of each phase, after a full
-- garbage collection.
-- Prints on rank 0:  MEM <phase> <rank> <rss_kib> <lua_heap_kib> <malloc_in_use_kib>
-- <malloc_arena_kib> <lua_peak_kib>  and  TIME <phase> <seconds>; malloc's
-- figures (mallinfo2) tell live C/C++ memory from the heap's high-water mark,
-- the Lua peak is the largest collectgarbage("count") seen (every 32 cycles
-- or windows) since the last report.
local w = mpi.COMM_WORLD
local n, me = w:size(), w:rank()
local cycles = tonumber(arg and arg[1]) or 100000
local messages = tonumber(arg and arg[2]) or 1000000
local batches = tonumber(arg and arg[3]) or 10
local window = 64

local function rss_kib()
  local f = assert(io.open("/proc/self/status"))
  local kib
  for line in f:lines() do
    kib = kib or tonumber(line:match("^VmRSS:%s+(%d+)"))
  end
  f:close()
  return kib
end

local host = require("lumpi.host")
local peak = 0
local function sample(i)
  if i % 32 == 0 then peak = math.max(peak, collectgarbage("count")) end
end

local function report(phase)
  collectgarbage("collect")
  local live = host.live()
  local all = w:gather({rss_kib(), collectgarbage("count"), live.heap_in_use // 1024, live.heap_arena // 1024, peak}, 0)
  if all then
    for r, m in ipairs(all) do
      print(string.format("MEM %s %d %d %d %d %d %d", phase, r - 1, m[1], math.floor(m[2]), m[3], m[4], math.floor(m[5])))
    end
  end
  peak = 0
end

local function timed(phase, f)
  local t0 = mpi.wtime()
  f()
  if me == 0 then print(string.format("TIME %s %.2f", phase, mpi.wtime() - t0)) end
end

report("idle")
timed("comm", function()
  for b = 1, batches do
    for i = 1, cycles // batches do
      local d = w:dup()
      local s = d:split(me % 2, me)
      s:free()
      d:free()
      sample(i)
    end
    report("comm" .. b)
  end
end)
timed("msg", function()
  local next, prev = (me + 1) % n, (me - 1) % n
  local rounds = messages // batches // n // window
  local sent = 0
  for b = 1, batches do
    for i = 1, rounds do
      sample(i)
      for _ = 1, window do
        sent = sent + 1
        w:send(sent, next, 3)
      end
      for _ = 1, window do w:recv(prev, 3) end
    end
    report("msg" .. b)
  end
  local total = w:allreduce(sent, mpi.SUM)
  if me == 0 then print("MSGS " .. total) end
end)
