-- tests/exec/check_coll.lua: collectives whose arguments differ between ranks
-- without hanging, which --check compares (docs/checking.md). The last rank
-- gives another root, another op, another buffer type; every rank must raise
-- the same MPI error class (MPI_ERR_ROOT, MPI_ERR_OP, MPI_ERR_TYPE), and the
-- collectives after each mistake must be unharmed. arg "ok": every rank
-- agrees, and nothing is reported.
local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()
local odd = arg[1] ~= "ok" and me == n - 1

local function try(what, f)
  local ok, err = pcall(f)
  print(what .. ": " .. (ok and "ok" or tostring(err.class)))
end

try("bcast", function() return w:bcast(me, odd and 1 or 0) end)
assert(w:allreduce(1, mpi.SUM) == n)
try("allreduce", function() return w:allreduce(me, odd and mpi.MAX or mpi.SUM) end)
assert(w:bcast(me + 100, n - 1) == n + 99)
local send = odd and mpi.buffer(mpi.FLOAT, 1, {me}) or mpi.buffer(mpi.INT, 1, {me})
local recv = odd and mpi.buffer(mpi.FLOAT, 1) or mpi.buffer(mpi.INT, 1)
try("typed allreduce", function() return w:allreduce(send, recv, 1, odd and mpi.FLOAT or mpi.INT, mpi.SUM) end)
local r = w:iallreduce(me, odd and mpi.MIN or mpi.SUM)
try("iallreduce", function() return r:wait() end)
assert(w:allreduce(2, mpi.SUM) == 2 * n)
print("done")
