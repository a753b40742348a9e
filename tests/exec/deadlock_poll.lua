-- tests/exec/deadlock_poll.lua: polling loops in the Lua door (docs/checking.md
-- "Deadlocks"), the twins of deadlock_poll.c. arg[1] picks the case:
--   test      rank 1 tests a receive from rank 0 that never sends
--   iprobe    rank 0 probes for a message from rank 1 with a tag it never uses
--   testany   rank 0 tests receives from the last rank, which never sends
--   *_ok      the same loops, their message sent after 2.5 s of computing
--             (past the watch's two seconds)
-- Every rank prints "done" when its part is over.
local w, me, n = mpi.COMM_WORLD, mpi.rank(), mpi.size()
local case = arg[1] or ""
local ok = case:sub(-3) == "_ok"
local what = ok and case:sub(1, -4) or case

local function compute(seconds)
  local t = os.clock()
  while os.clock() - t < seconds do end
end

if what == "test" then
  if me == 1 then
    local r = w:irecv(0, 7)
    while not r:test() do end
  elseif me == 0 and ok then
    compute(2.5)
    w:send(1, 1, 7)
  end
elseif what == "iprobe" then
  if me == 0 then
    while not w:iprobe(1, 3) do end
    w:recv(1, 3)
  elseif me == 1 and ok then
    compute(2.5)
    w:send(1, 0, 3)
  end
elseif what == "testany" then
  local last = n - 1
  if me == 0 then
    local rs = {w:irecv(last, 1), w:irecv(last, 2)}
    while not mpi.testany(rs) do end
    if ok then rs[2]:cancel() rs[2]:wait() end
  elseif me == last and ok then
    compute(2.5)
    w:send(1, 0, 1)
  end
end
print("done")
