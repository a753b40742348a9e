-- tests/exec/check_life.lua: a pending typed irecv's buffer written before
-- the receive completes (arg "race": an element set before wait), which
-- --check reports as local concurrency (MPI-3.1 §3.7.2); arg "ok" writes it
-- only after wait, and "free_ok" frees a completed one. Any world size.
local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()
local left, right = (me + n - 1) % n, (me + 1) % n
local buf = mpi.buffer(mpi.INT, 4)
local r = w:irecv(buf, 4, mpi.INT, left, 0)
if arg[1] == "race" then buf[2] = -1 end
w:send(mpi.buffer(mpi.INT, 4, {me, me, me, me}), 4, mpi.INT, right, 0)
r:wait()
buf[2] = -1
assert(buf[1] == left, "wrong message")
-- a receive freed once get_status found it complete: no finding either way
local r2 = w:irecv(buf, 4, mpi.INT, left, 1)
w:send(mpi.buffer(mpi.INT, 4, {me, me, me, me}), 4, mpi.INT, right, 1)
while not r2:get_status() do end
r2:free()
w:barrier()
if me == 0 then print("done") end
