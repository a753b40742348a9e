-- tests/scenarios/win_flavors.lua: the window flavours beyond create and
-- allocate, from Lua (MPI-3.1 §11.2.3-4): shared-memory windows whose parts
-- every rank reads and writes with plain indexing, dynamic windows with
-- attached buffers reached at their addresses, the flavour attributes, and
-- the errors of misuse (MPI_ERR_RMA_FLAVOR, MPI_ERR_RMA_ATTACH ...).
local t = require("lumpi.test")
t.np = {1, 2, 3, 5}

local W = mpi.COMM_WORLD

t.case("allocate_shared: every rank's part by plain indexing, contiguous in rank order (§11.2.3)", function()
  local r, n = W:rank(), W:size()
  local win, mine = W:win_allocate_shared(8 * r, 8, nil, mpi.DOUBLE)  -- rank 0's part is empty
  t.eq(#mine, r)
  for i = 1, r do mine[i] = r * 100 + i end
  win:sync()
  W:barrier()
  win:sync()
  for q = 0, n - 1 do
    local part, size, unit = win:shared_query(q)
    t.eq({#part, size, unit}, {q, 8 * q, 8}, "rank " .. q .. "'s part")
    for i = 1, q do t.eq(part[i], q * 100 + i, "rank " .. q .. "'s element " .. i) end
  end
  for q = 2, n - 1 do  -- each part starts where the one before ends
    t.eq(mpi.get_address((win:shared_query(q))), mpi.get_address((win:shared_query(q - 1)), q), "part " .. q)
  end
  local first, size = win:shared_query(mpi.PROC_NULL)
  t.eq(size, n > 1 and 8 or 0, "PROC_NULL: the first part that is not empty")
  if n > 1 then t.eq(first[1], 101.0) end
  W:barrier()
  if n > 1 and r == n - 1 then  -- a store into another rank's part, seen there
    local part = win:shared_query(1)
    part[1] = -1.5
  end
  win:sync()
  W:barrier()
  win:sync()
  if n > 1 and r == 1 then t.eq(mine[1], -1.5, "rank 1 sees the store") end
  t.eq(#win:shared_query(n - 1, mpi.BYTE), 8 * (n - 1), "viewed as bytes")
  win:free()
end)

t.case("allocate_shared: RMA on the shared window, attributes, the memory outliving free", function()
  local r, n = W:rank(), W:size()
  local win, mine = W:win_allocate_shared(16, 4, {alloc_shared_noncontig = "true"}, mpi.INT)
  t.eq(win:get_attr(mpi.WIN_CREATE_FLAVOR), mpi.WIN_FLAVOR_SHARED)
  t.eq(win:get_attr(mpi.WIN_SIZE), 16)
  t.eq(win:get_attr(mpi.WIN_DISP_UNIT), 4)
  t.ok(rawequal(win:get_attr(mpi.WIN_BASE), mine), "WIN_BASE is the buffer returned")
  t.eq(win:get_info().alloc_shared_noncontig, "true")
  win:fence()
  win:put(mpi.buffer(mpi.INT, 2, {r, -r}), 2, mpi.INT, (r + 1) % n, 2, 2, mpi.INT)
  win:fence()
  local left = (r - 1) % n
  t.eq({mine[1], mine[2], mine[3], mine[4]}, {0, 0, left, -left})
  local right = win:shared_query((r + 1) % n)
  win:free()
  collectgarbage()
  t.eq(right[3], r, "a view stays readable after free")
end)

t.case("allocate_shared and shared_query: errors before anything is sent", function()
  local n = W:size()
  t.raises(function() W:win_allocate_shared(-8, 8) end, "MPI_ERR_SIZE")
  t.raises(function() W:win_allocate_shared(12, 8, nil, mpi.DOUBLE) end, "MPI_ERR_SIZE")
  t.raises(function() W:win_allocate_shared(8, 0) end, "MPI_ERR_DISP")
  local vec = mpi.type_contiguous(2, mpi.INT)
  vec:commit()
  t.raises(function() W:win_allocate_shared(8, 8, nil, vec) end, "MPI_ERR_TYPE")
  t.raises(function() W:win_allocate_shared(8, 8, "hints") end, "MPI_ERR_INFO")
  local plain = W:win_allocate(8, 8)
  t.raises(function() plain:shared_query(0) end, "MPI_ERR_RMA_FLAVOR")
  plain:free()
  local win = W:win_allocate_shared(8, 8)
  t.raises(function() win:shared_query(n) end, "MPI_ERR_RANK")
  t.raises(function() win:shared_query(0, vec) end, "MPI_ERR_TYPE")
  t.raises(function() win:attach(mpi.buffer(mpi.INT, 1)) end, "MPI_ERR_RMA_FLAVOR")
  win:free()
  t.raises(function() win:shared_query(0) end, "MPI_ERR_WIN")
  vec:free()
end)

t.case("create_dynamic: attached buffers reached at their addresses (§11.2.4)", function()
  local r, n = W:rank(), W:size()
  local win = W:win_create_dynamic({no_locks = "false"})
  t.eq(win:get_attr(mpi.WIN_CREATE_FLAVOR), mpi.WIN_FLAVOR_DYNAMIC)
  t.eq({(win:get_attr(mpi.WIN_SIZE)), (win:get_attr(mpi.WIN_DISP_UNIT))}, {0, 1})
  t.eq(win:get_attr(mpi.WIN_BASE), nil, "no one buffer")
  t.eq(win:memory(), nil)
  local counts = mpi.buffer(mpi.LONG, n)
  local addr = win:attach(counts)
  t.eq(addr, mpi.get_address(counts))
  local other = win:attach(mpi.buffer(mpi.DOUBLE, 3))  -- kept by the window alone
  collectgarbage()
  local addrs, others = W:allgather(addr), W:allgather(other)
  win:lock_all()
  for q = 0, n - 1 do  -- element r + 1 of everyone's counts, through its address
    win:accumulate(mpi.buffer(mpi.LONG, 1, {r + 1}), 1, mpi.LONG, q, addrs[q + 1] + 8 * r, 1, mpi.LONG, mpi.SUM)
    win:put(mpi.buffer(mpi.DOUBLE, 1, {0.5}), 1, mpi.DOUBLE, q, others[q + 1] + 16, 1, mpi.DOUBLE)
  end
  win:unlock_all()
  W:barrier()
  for i = 1, n do t.eq(counts[i], i, "counts[" .. i .. "]") end
  local back = mpi.buffer(mpi.DOUBLE, 1)
  local left = (r - 1) % n
  win:lock(mpi.LOCK_SHARED, left)
  win:get(back, 1, mpi.DOUBLE, left, others[left + 1] + 16, 1, mpi.DOUBLE)
  win:unlock(left)
  t.eq(back[1], 0.5, "the buffer only the window held took the put")
  W:barrier()
  win:detach(counts)
  W:barrier()  -- every rank detached: counts is outside every window now
  win:lock(mpi.LOCK_SHARED, left)
  win:get(back, 1, mpi.DOUBLE, left, addrs[left + 1], 1, mpi.DOUBLE)
  t.raises(function() win:unlock(left) end, "MPI_ERR_RMA_RANGE")
  W:barrier()
  win:free()
end)

t.case("attach, detach, get_address: errors", function()
  local win = W:win_create_dynamic()
  local b = mpi.buffer(mpi.INT, 4)
  t.raises(function() win:attach("memory") end, "MPI_ERR_BUFFER")
  t.raises(function() win:detach(b) end, "MPI_ERR_RMA_ATTACH")
  win:attach(b)
  t.raises(function() win:attach(b) end, "MPI_ERR_RMA_ATTACH")
  t.raises(function() win:detach(mpi.buffer(mpi.INT, 4)) end, "MPI_ERR_RMA_ATTACH")
  win:detach(b)
  t.raises(function() win:detach(b) end, "MPI_ERR_RMA_ATTACH")
  t.raises(function() W:win_create_dynamic(3) end, "MPI_ERR_INFO")
  t.eq(mpi.get_address(b, 5) - mpi.get_address(b), 16, "just past the end")
  t.raises(function() mpi.get_address(b, 6) end, "MPI_ERR_ARG")
  t.raises(function() mpi.get_address(b, 0) end, "MPI_ERR_ARG")
  t.raises(function() mpi.get_address({}) end, "MPI_ERR_BUFFER")
  local plain = W:win_create(b)
  t.raises(function() plain:attach(mpi.buffer(mpi.INT, 1)) end, "MPI_ERR_RMA_FLAVOR")
  t.raises(function() plain:detach(b) end, "MPI_ERR_RMA_FLAVOR")
  plain:free()
  win:free()
  t.raises(function() win:attach(b) end, "MPI_ERR_WIN")
end)
