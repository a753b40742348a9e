-- scripts/counter.lua: the lesson of docs/windows.md. A counter in rank
-- 0's window that every rank adds 1 to, three ways: MPI_Fetch_and_op (one
-- atomic operation), then a get and a put under a shared lock (a race: the
-- ranks all read before any of them writes, and increments are lost),
-- then the same under an exclusive lock. Rank 0 prints the count each
-- time. `lumpi -n 3 scripts/counter.lua`; scripts/counter.c is its C twin.
local W = mpi.COMM_WORLD
local n = W:size()
local win, counter = W:win_allocate(8, 8, nil, mpi.LONG)
win:set_name("counter")
local one, v = mpi.buffer(mpi.LONG, 1, {1}), mpi.buffer(mpi.LONG, 1)

-- rank 0 shows the counter once every rank is done, and sets it back to 0
local function show(how)
  W:barrier()
  if W:rank() == 0 then
    print(how .. ": " .. counter[1] .. " of " .. n)
    counter[1] = 0
  end
  W:barrier()
end

win:lock(mpi.LOCK_SHARED, 0)
win:fetch_and_op(one, v, mpi.LONG, 0, 0, mpi.SUM)
win:unlock(0)
show("fetch_and_op")

-- read, add, write: the barrier lets every rank read before any writes
win:lock(mpi.LOCK_SHARED, 0)
win:get(v, 1, mpi.LONG, 0, 0, 1, mpi.LONG)
win:flush(0)
W:barrier()
v[1] = v[1] + 1
win:put(v, 1, mpi.LONG, 0, 0, 1, mpi.LONG)
win:unlock(0)
show("get + put, shared lock")

-- an exclusive lock makes the three steps one (no barrier inside it: the
-- other ranks wait for the lock)
win:lock(mpi.LOCK_EXCLUSIVE, 0)
win:get(v, 1, mpi.LONG, 0, 0, 1, mpi.LONG)
win:flush(0)
v[1] = v[1] + 1
win:put(v, 1, mpi.LONG, 0, 0, 1, mpi.LONG)
win:unlock(0)
show("get + put, exclusive lock")
win:free()
