-- tests/bench/typed.lua: typed buffers through the Lua API (issue 12): the
-- ping-pong of mpi.buffer(mpi.DOUBLE, n) with send/recv (MPI's buffer
-- semantics: the data is copied out of and into the buffers), allreduce of
-- 1000 and 131072 doubles (1 MiB) typed and as Lua values, and win:put /
-- win:get + win:flush under an exclusive lock, rank 1 waiting in a barrier.
-- Run: lumpi -n 2 tests/bench/typed.lua [divisor [target_s [parts]]], parts a
-- comma-separated subset of pp,coll,rma (default all). Prints on rank 0
--   PP <bytes> <iters> <half_rtt_us> <MBps>          (typed ping-pong)
--   COLL <name> <nranks> <iters> <us_per_call>       (allreduce<count>, allreduce<count>_values)
--   RMA <put|get> <bytes> <iters> <us_per_op> <MBps>
local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()
local divisor = tonumber(arg and arg[1]) or 1
local target = tonumber(arg and arg[2]) or 0.3
local parts = (arg and arg[3]) or "pp,coll,rma"
local function wanted(p) return parts:find(p, 1, true) ~= nil end
local sizes = {{8, 20000}, {1024, 20000}, {65536, 5000}, {1 << 20, 500}, {4 << 20, 200}}

-- ping-pong between ranks 0 and 1
local peer = 1 - me
for _, s in ipairs(wanted("pp") and sizes or {}) do
  local bytes, iters = s[1], math.max(20, s[2] // divisor)
  local count = bytes // 8
  local buf = mpi.buffer(mpi.DOUBLE, count)
  local warm = iters // 10
  local t0
  if me < 2 then
    for i = -warm, iters - 1 do
      if i == 0 then t0 = mpi.wtime() end
      if me == 0 then
        w:send(buf, count, mpi.DOUBLE, peer, 0)
        w:recv(buf, count, mpi.DOUBLE, peer, 0)
      else
        w:recv(buf, count, mpi.DOUBLE, peer, 0)
        w:send(buf, count, mpi.DOUBLE, peer, 0)
      end
    end
    local half = (mpi.wtime() - t0) / iters / 2
    if me == 0 then print(string.format("PP %d %d %.3f %.1f", bytes, iters, half * 1e6, bytes / half / 1e6)) end
  end
end

-- allreduce, timed as tests/bench/coll.lua (and the anchors' mpi_coll.c)
local function timed(f, k)
  w:barrier()
  local t0 = mpi.wtime()
  for _ = 1, k do f() end
  return w:allreduce((mpi.wtime() - t0) / k, mpi.MAX)
end

local function bench(name, f)
  timed(f, 2)
  local pilot = timed(f, 5)
  local k = math.floor(target / math.max(pilot, 1e-9))
  k = w:bcast(math.max(5, math.min(200000, k)), 0)
  local t = timed(f, k)
  if me == 0 then print(string.format("COLL %s %d %d %.3f", name, n, k, t * 1e6)) end
end

for _, count in ipairs(wanted("coll") and {1000, 131072} or {}) do
  local s, r = mpi.buffer(mpi.DOUBLE, count), mpi.buffer(mpi.DOUBLE, count)
  for i = 1, count do s[i] = 1.0 end
  bench("allreduce" .. count, function() w:allreduce(s, r, count, mpi.DOUBLE, mpi.SUM) end)
  assert(r[count] == n, "typed allreduce result")
  local values = {}
  for i = 1, count do values[i] = 1.0 end
  bench("allreduce" .. count .. "_values", function() w:allreduce(values, mpi.SUM) end)
end

-- put/get + flush, rank 0 on rank 1's window
local most = 4 << 20
local win, mem = w:win_allocate(most, 1, nil, mpi.BYTE)
local buf = mpi.buffer(mpi.BYTE, most)
if me == 0 and n > 1 and wanted("rma") then
  win:lock(mpi.LOCK_EXCLUSIVE, 1)
  for op = 1, 2 do
    for _, s in ipairs(sizes) do
      local bytes, iters = s[1], math.max(20, s[2] // divisor)
      local warm = iters // 10
      local t0
      for i = -warm, iters - 1 do
        if i == 0 then t0 = mpi.wtime() end
        if op == 1 then win:put(buf, bytes, mpi.BYTE, 1, 0, bytes, mpi.BYTE)
        else win:get(buf, bytes, mpi.BYTE, 1, 0, bytes, mpi.BYTE) end
        win:flush(1)
      end
      local us = (mpi.wtime() - t0) / iters * 1e6
      print(string.format("RMA %s %d %d %.2f %.1f", op == 1 and "put" or "get", bytes, iters, us, bytes / us))
    end
  end
  win:unlock(1)
end
w:barrier()
win:free()
