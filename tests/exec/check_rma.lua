-- tests/exec/check_rma.lua: two origins put to one location of rank 1 in one fence
-- epoch, a conflict --check reports (arg "ok": to different locations, silent).
local w = mpi.COMM_WORLD
local mem = mpi.buffer(mpi.INT, 8)
local win = w:win_create(mem)
local me = w:rank()
local where = (arg[1] == "ok") and me or 0
win:fence()
if me ~= 1 then win:put(mpi.buffer(mpi.INT, 1, {me}), 1, mpi.INT, 1, where, 1, mpi.INT) end
win:fence()
win:free()
