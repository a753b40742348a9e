-- tests/scenarios/win_passive_progress.lua: passive-target progress does not
-- depend on the target calling MPI (issue 28 item 2, core/engine/passive.cpp):
-- rank 0 computes in pure Lua for 2 s, calling nothing of mpi, while every
-- other rank locks its window, gets, accumulates and unlocks, and must be
-- done well before the loop ends (under 1 s). tests/exec/capi_passive.c is
-- the same from C.
local t = require("lumpi.test")
t.np = {2, 3, 5}

local W = mpi.COMM_WORLD

-- No mpi call for at least `seconds` of wall time (os.time counts whole
-- seconds: one more, so that at least `seconds` pass; os.clock would count
-- this process's CPU time, which a loaded machine hands out slower).
local function compute(seconds)
  local until_, x = os.time() + seconds + 1, 0
  while os.time() < until_ do
    for i = 1, 1000 do x = x + i * 1e-9 end
  end
  return x
end

local function epoch_during_compute(win, lock_type)
  local r, n = W:rank(), W:size()
  W:barrier()
  if r == 0 then
    t.ok(compute(2.0) > 0)
    return nil
  end
  local t0 = mpi.wtime()
  local before, fetched = mpi.buffer(mpi.LONG, 1, {-1}), mpi.buffer(mpi.LONG, 1, {-1})
  win:lock(lock_type, 0)
  win:get(before, 1, mpi.LONG, 0, r, 1, mpi.LONG)
  win:accumulate(mpi.buffer(mpi.LONG, 1, {1}), 1, mpi.LONG, 0, 0, 1, mpi.LONG, mpi.SUM)
  win:accumulate(mpi.buffer(mpi.LONG, 1, {r}), 1, mpi.LONG, 0, r, 1, mpi.LONG, mpi.SUM)
  win:fetch_and_op(nil, fetched, mpi.LONG, 0, r, mpi.NO_OP)
  win:unlock(0)
  local took = mpi.wtime() - t0
  t.ok(took < 1.0, ("the epoch on a computing target took %.3f s (its loop lasts 2 s)"):format(took))
  t.eq(fetched[1], before[1] + r, "get, then fetch_and_op after the accumulate")
end

t.case("a target computing in Lua serves lock, get, accumulate and unlock", function()
  local r, n = W:rank(), W:size()
  local win, mem = W:win_allocate(8 * n, 8, nil, mpi.LONG)
  epoch_during_compute(win, mpi.LOCK_EXCLUSIVE)
  W:barrier()
  if r == 0 then
    t.eq(mem[1], n - 1, "every origin's accumulate landed")
    for q = 1, n - 1 do t.eq(mem[q + 1], q, "origin " .. q .. "'s accumulate") end
  end
  epoch_during_compute(win, mpi.LOCK_SHARED)
  W:barrier()
  if r == 0 then t.eq(mem[1], 2 * (n - 1), "the shared epochs' accumulates") end
  win:free()
end)

t.case("a dynamic window's attached buffer is served while its rank computes", function()
  local r, n = W:rank(), W:size()
  local win = W:win_create_dynamic()
  local counter = mpi.buffer(mpi.INT, 1)
  local where = W:bcast(win:attach(counter), 0)
  W:barrier()
  if r == 0 then
    compute(2.0)
  else
    local t0, old = mpi.wtime(), mpi.buffer(mpi.INT, 1)
    win:lock_all(mpi.MODE_NOCHECK)
    win:fetch_and_op(mpi.buffer(mpi.INT, 1, {1}), old, mpi.INT, 0, where, mpi.SUM)
    win:flush(0)
    win:unlock_all()
    t.ok(mpi.wtime() - t0 < 1.0, ("fetch_and_op + flush took %.3f s"):format(mpi.wtime() - t0))
  end
  W:barrier()
  if r == 0 then t.eq(counter[1], n - 1) end
  win:detach(counter)
  win:free()
end)
