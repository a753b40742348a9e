-- tests/bench/pingpong.lua: point-to-point ping-pong through the Lua API
-- between ranks 0 and 1 (run: lumpi -n 2 tests/bench/pingpong.lua).
-- Prints, on rank 0, one line per value in the anchors' format:
--   PP <bytes> <iters> <half_rtt_us> <MBps>     (an integer counts as 8 bytes)
local w = mpi.COMM_WORLD
local me = w:rank()
local peer = 1 - me
local cases = {
  {8, 20000, 42},
  {1024, 20000, string.rep("x", 1024)},
  {65536, 5000, string.rep("x", 65536)},
  {1 << 20, 500, string.rep("x", 1 << 20)},
  {4 << 20, 200, string.rep("x", 4 << 20)},
}
local only = tonumber(arg and arg[1])
for _, c in ipairs(cases) do
  local bytes, iters, value = c[1], c[2], c[3]
  if only then iters = math.max(20, iters // only) end
  local warm = iters // 10
  local t0
  for i = -warm, iters - 1 do
    if i == 0 then t0 = mpi.wtime() end
    if me == 0 then
      w:send(value, peer, 0)
      value = w:recv(peer, 0)
    else
      value = w:recv(peer, 0)
      w:send(value, peer, 0)
    end
  end
  local half = (mpi.wtime() - t0) / iters / 2
  if me == 0 then
    print(string.format("PP %d %d %.3f %.1f", bytes, iters, half * 1e6, bytes / half / 1e6))
  end
end
