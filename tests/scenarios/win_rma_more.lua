-- tests/scenarios/win_rma_more.lua: the rest of chapter 11 from Lua (MPI-3.1
-- §11.3.4-5, §11.5): get_accumulate, fetch_and_op and compare_and_swap with
-- mpi.NO_OP and mpi.REPLACE, lock_all and the flushes, post/start/complete/
-- wait/test with groups, the request-based operations, sync, window info,
-- datatypes beyond the C++ API's at either end, and the errors of misuse
-- raised before anything is sent.
local t = require("lumpi.test")
t.np = {1, 2, 3, 4, 7}

local W = mpi.COMM_WORLD

t.case("fetch_and_op under lock_all hands out distinct tickets; NO_OP reads (§11.3.4.2)", function()
  local r, n = W:rank(), W:size()
  local mem = mpi.buffer(mpi.LONG, 1)
  local win = W:win_create(mem)
  local ticket = mpi.buffer(mpi.LONG, 1, {-1})
  win:lock_all()
  win:fetch_and_op(mpi.buffer(mpi.LONG, 1, {1}), ticket, mpi.LONG, 0, 0, mpi.SUM)
  win:flush_all()
  win:unlock_all()
  local all = W:allgather(ticket[1])
  table.sort(all)
  for i = 1, n do t.eq(all[i], i - 1, "ticket " .. (i - 1)) end
  W:barrier()
  local seen = mpi.buffer(mpi.LONG, 1)
  win:lock(mpi.LOCK_SHARED, 0)
  win:fetch_and_op(nil, seen, mpi.LONG, 0, 0, mpi.NO_OP)
  win:unlock(0)
  t.eq(seen[1], n, "NO_OP fetched the count")
  win:free()
end)

t.case("compare_and_swap elects one rank; get_accumulate REPLACE swaps (§11.3.4)", function()
  local r, n = W:rank(), W:size()
  local mem = mpi.buffer(mpi.INT, 2)
  local win = W:win_create(mem, 4)
  local old = mpi.buffer(mpi.INT, 1, {-1})
  win:lock_all(mpi.MODE_NOCHECK)
  win:compare_and_swap(mpi.buffer(mpi.INT, 1, {r + 1}), mpi.buffer(mpi.INT, 1, {0}), old, mpi.INT, 0, 0)
  win:flush_local(0)
  win:unlock_all()
  t.eq(W:allreduce(old[1] == 0 and 1 or 0, mpi.SUM), 1, "exactly one winner")
  W:barrier()
  win:fence()
  local prev = mpi.buffer(mpi.INT, 1, {-1})
  if r == 0 then
    win:get_accumulate(mpi.buffer(mpi.INT, 1, {42}), 1, mpi.INT, prev, 1, mpi.INT, n - 1, 1, 1, mpi.INT, mpi.REPLACE)
  end
  win:fence()
  if r == 0 then t.eq(prev[1], 0, "the old value came back") end
  if r == n - 1 then t.eq(mem[2], 42, "and the new one landed") end
  t.raises(function()
    win:compare_and_swap(mpi.buffer(mpi.DOUBLE, 1), mpi.buffer(mpi.DOUBLE, 1), mpi.buffer(mpi.DOUBLE, 1),
                         mpi.DOUBLE, 0, 0)
  end, "MPI_ERR_TYPE")
  win:fence(mpi.MODE_NOSUCCEED)
  win:free()
end)

t.case("post/start/complete/wait and test with groups; misuse is MPI_ERR_RMA_SYNC (§11.5.2)", function()
  local r, n = W:rank(), W:size()
  local right, left = (r + 1) % n, (r - 1) % n
  local world = W:group()
  local mem = mpi.buffer(mpi.SHORT, 2)
  local win = W:win_create(mem, 2)
  t.raises(function() win:complete() end, "MPI_ERR_RMA_SYNC")
  t.raises(function() win:wait() end, "MPI_ERR_RMA_SYNC")
  t.raises(function() win:test() end, "MPI_ERR_RMA_SYNC")
  win:post(world:incl({left}))
  t.raises(function() win:post(world:incl({left})) end, "MPI_ERR_RMA_SYNC")
  win:start(world:incl({right}))
  win:put(mpi.buffer(mpi.SHORT, 2, {r, -r}), 2, mpi.SHORT, right, 0, 2, mpi.SHORT)
  win:complete()
  win:wait()
  t.eq({mem[1], mem[2]}, {left, -left})
  win:post(world:incl({left}))
  win:start(world:incl({right}))
  win:accumulate(mpi.buffer(mpi.SHORT, 1, {10}), 1, mpi.SHORT, right, 0, 1, mpi.SHORT, mpi.SUM)
  win:complete()
  while not win:test() do end
  t.eq(mem[1], left + 10)
  win:free()
end)

t.case("rput, rget, raccumulate, rget_accumulate: requests in a lock epoch only (§11.3.5)", function()
  local r, n = W:rank(), W:size()
  local right = (r + 1) % n
  local win, mem = W:win_allocate(3 * 8, 8, {accumulate_ordering = "none"}, mpi.DOUBLE)
  t.eq(win:get_info().accumulate_ordering, "none")
  t.eq(win:get_info().no_locks, "false", "a hint not given reports its default")
  local x = mpi.buffer(mpi.DOUBLE, 1, {r + 0.25})
  t.raises(function() win:rput(x, 1, mpi.DOUBLE, right, 0, 1, mpi.DOUBLE) end, "MPI_ERR_RMA_SYNC")
  W:barrier()
  win:lock(mpi.LOCK_EXCLUSIVE, right)
  local q1 = win:rput(x, 1, mpi.DOUBLE, right, 0, 1, mpi.DOUBLE)
  local q2 = win:raccumulate(x, 1, mpi.DOUBLE, right, 1, 1, mpi.DOUBLE, mpi.SUM)
  local y, old = mpi.buffer(mpi.DOUBLE, 1), mpi.buffer(mpi.DOUBLE, 1, {-1})
  local q3 = win:rget(y, 1, mpi.DOUBLE, right, 0, 1, mpi.DOUBLE)
  local q4 = win:rget_accumulate(x, 1, mpi.DOUBLE, old, 1, mpi.DOUBLE, right, 2, 1, mpi.DOUBLE, mpi.MAX)
  q1:wait() q2:wait() q3:wait() q4:wait()
  t.eq({y[1], old[1]}, {r + 0.25, 0})
  win:unlock(right)
  W:barrier()
  win:sync()
  local l = (r - 1) % n + 0.25
  t.eq({mem[1], mem[2], mem[3]}, {l, l, l})
  win:free()
end)

t.case("datatypes: unsigned short and a vector target; signatures must match (§11.3)", function()
  local r, n = W:rank(), W:size()
  local mem = mpi.buffer(mpi.UNSIGNED_SHORT, 6)
  local win = W:win_create(mem, 2)
  local every_other = mpi.type_vector(3, 1, 2, mpi.UNSIGNED_SHORT)
  every_other:commit()
  win:fence()
  win:put(mpi.buffer(mpi.UNSIGNED_SHORT, 3, {7, 8, 9}), 3, mpi.UNSIGNED_SHORT, (r + 1) % n, 0, 1, every_other)
  win:fence()
  t.eq({mem[1], mem[2], mem[3], mem[5]}, {7, 0, 8, 9})
  t.raises(function() win:put(mpi.buffer(mpi.SHORT, 3), 3, mpi.SHORT, 0, 0, 3, mpi.UNSIGNED_SHORT) end,
           "MPI_ERR_TYPE")
  win:fence(mpi.MODE_NOSUCCEED)
  every_other:free()
  win:free()
end)
