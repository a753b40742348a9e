-- scripts/ring.lua: the first MPI program of a class: a token travels once
-- around the ring 0 -> 1 -> ... -> n-1 -> 0, every rank adding its rank.
-- Shows blocking send/recv, the status of a receive, and why rank 0 sends
-- before it receives (otherwise everyone waits: try it and press Ctrl-C).
-- Run: lumpi -n 4 scripts/ring.lua
local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()
local right, left = (me + 1) % n, (me - 1) % n

if me == 0 then
  w:send(0, right, 1)                     -- start the token
  token = w:recv(left, 1)                 -- ... and wait for it to come home
  local expected = n * (n - 1) // 2        -- 0 + 1 + ... + n-1
  print(string.format("token came home with %d (expected %d): %s",
    token, expected, token == expected and "ok" or "WRONG"))
  assert(token == expected, "the ring lost a contribution")
else
  local value, status = w:recv(left, 1)
  token = value + me
  print(string.format("rank %d got %d from rank %d, passes %d to rank %d",
    me, value, status.source, token, right))
  w:send(token, right, 1)
end
