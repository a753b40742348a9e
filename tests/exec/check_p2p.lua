-- tests/exec/check_p2p.lua: point-to-point type signatures from the Lua
-- door's buffers under --check (docs/checking.md): rank 0 sends 2 x INT to
-- rank 1 (send, isend, a persistent send) and swaps one INT with sendrecv;
-- rank 1 receives with recv, irecv, recv_init and sendrecv, as FLOAT, or as INT with arg
-- "ok". Lua values travel beside them and are never compared.
local w = mpi.COMM_WORLD
local me = w:rank()
local t = arg[1] == "ok" and mpi.INT or mpi.FLOAT
if me == 0 then
  local out = mpi.buffer(mpi.INT, 2, {7, 8})
  w:send(out, 2, mpi.INT, 1, 5)
  w:isend(out, 2, mpi.INT, 1, 6):wait()
  local p = w:send_init(out, 2, mpi.INT, 1, 8)
  p:start()
  p:wait()
  w:send({1, 2}, 1, 4)
  w:sendrecv(out, 1, mpi.INT, 1, 7, mpi.buffer(mpi.INT, 1), 1, mpi.INT, 1, 7)
elseif me == 1 then
  local into = mpi.buffer(t, 2)
  w:recv(into, 2, t, 0, 5)
  w:irecv(into, 2, t, 0, 6):wait()
  local p = w:recv_init(into, 2, t, 0, 8)
  p:start()
  p:wait()
  assert(w:recv(0, 4)[2] == 2)
  w:sendrecv(mpi.buffer(mpi.INT, 1, {1}), 1, mpi.INT, 0, 7, into, 1, t, 0, 7)
end
print("done")
