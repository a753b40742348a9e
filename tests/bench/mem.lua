-- tests/bench/mem.lua: resident size of every rank at idle and after
-- communicators were created and freed (run: lumpi -n N tests/bench/mem.lua
-- [cycles [batches]]). Each cycle: dup COMM_WORLD, split the dup, free both;
-- RSS is reported at idle and after each batch of `cycles` cycles.
-- Prints on rank 0:  MEM <phase> <rank> <rss_kib>   (phase: idle, after, after2, ...)
local w = mpi.COMM_WORLD
local cycles = tonumber(arg and arg[1]) or 1000
local batches = tonumber(arg and arg[2]) or 2

local function rss_kib()
  local f = assert(io.open("/proc/self/status"))
  local kib
  for line in f:lines() do
    kib = kib or tonumber(line:match("^VmRSS:%s+(%d+)"))
  end
  f:close()
  return kib
end

local function report(phase)
  collectgarbage("collect")
  local all = w:gather(rss_kib(), 0)
  if all then
    for r, kib in ipairs(all) do print(string.format("MEM %s %d %d", phase, r - 1, kib)) end
  end
end

local function cycle(n)
  for _ = 1, n do
    local d = w:dup()
    local s = d:split(w:rank() % 2, w:rank())
    s:free()
    d:free()
  end
end

report("idle")
for b = 1, batches do
  cycle(cycles)
  report(b == 1 and "after" or "after" .. b)
end
