-- tests/scenarios/win_rma.lua: windows and one-sided communication (seed
-- chapter 11 as MPI-3.1 §11 has it; MPI-2.1 Ballot 3 item 6 for PROC_NULL):
-- creation, fence epochs with put/get/accumulate, passive-target lock,
-- unlock and flush (exclusive and shared), PROC_NULL targets, and every
-- error class the calls raise before anything is sent.
local t = require("lumpi.test")
t.np = {1, 3, 4, 7}

local W = mpi.COMM_WORLD

t.case("fence epoch: each rank puts its rank into the next rank's window (§11.5.1 MPI_WIN_FENCE)", function()
  local r, n = W:rank(), W:size()
  local mem = mpi.buffer(mpi.INT, n)
  local win = W:win_create(mem, 4)
  win:fence()
  local src = mpi.buffer(mpi.INT, 1, {100 + r})
  win:put(src, 1, mpi.INT, (r + 1) % n, r, 1, mpi.INT)
  win:fence()
  t.eq(mem[(r - 1) % n + 1], 100 + (r - 1) % n, "the left neighbour's put landed at its rank's slot")
  -- get the whole window of rank 0 back
  local got = mpi.buffer(mpi.INT, n)
  win:get(got, n, mpi.INT, 0, 0, n, mpi.INT)
  win:fence()
  t.eq(got[n], 100 + n - 1, "rank 0's window holds rank n-1's put in its last slot")
  win:free()
end)

t.case("accumulate SUM from every rank to rank 0, and REPLACE (§11.3.4 MPI_ACCUMULATE)", function()
  local r, n = W:rank(), W:size()
  local win, mem = W:win_allocate(2 * 8, 8, nil, mpi.DOUBLE)
  t.eq(#mem, 2)
  win:fence()
  win:accumulate(mpi.buffer(mpi.DOUBLE, 1, {r + 0.5}), 1, mpi.DOUBLE, 0, 0, 1, mpi.DOUBLE, mpi.SUM)
  win:accumulate(mpi.buffer(mpi.DOUBLE, 1, {r}), 1, mpi.DOUBLE, 0, 1, 1, mpi.DOUBLE, mpi.MAX)
  win:fence()
  if r == 0 then
    t.eq(mem[1], n * (n - 1) / 2 + n * 0.5)
    t.eq(mem[2], n - 1)
  end
  win:fence()
  if r == n - 1 then win:accumulate(mpi.buffer(mpi.DOUBLE, 1, {-1}), 1, mpi.DOUBLE, 0, 0, 1, mpi.DOUBLE, mpi.REPLACE) end
  win:fence(mpi.MODE_NOSUCCEED)
  if r == 0 then t.eq(mem[1], -1) end
  win:free()
end)

t.case("derived datatypes at both ends: a strided put into a contiguous target", function()
  local r, n = W:rank(), W:size()
  local mem = mpi.buffer(mpi.INT, 6)
  local win = W:win_create(mem, 4)
  local every_other = mpi.type_vector(3, 1, 2, mpi.INT)
  every_other:commit()
  win:fence()
  win:put(mpi.buffer(mpi.INT, 6, {1, 2, 3, 4, 5, 6}), 1, every_other, (r + 1) % n, 0, 3, mpi.INT)
  win:fence()
  t.eq({mem[1], mem[2], mem[3], mem[4]}, {1, 3, 5, 0})
  win:free()
  every_other:free()
end)

t.case("passive target: exclusive lock, accumulate and get; the others at a barrier (§11.5.3)", function()
  local r, n = W:rank(), W:size()
  local mem = mpi.buffer(mpi.LONG, 1)
  local win = W:win_create(mem)
  for _ = 1, 3 do
    win:lock(mpi.LOCK_EXCLUSIVE, 0)
    local cur = mpi.buffer(mpi.LONG, 1)
    win:get(cur, 1, mpi.LONG, 0, 0, 1, mpi.LONG)
    win:flush(0)
    -- read-modify-write under the exclusive lock: no update is lost
    win:put(mpi.buffer(mpi.LONG, 1, {cur[1] + 1}), 1, mpi.LONG, 0, 0, 1, mpi.LONG)
    win:unlock(0)
  end
  W:barrier()
  if r == 0 then t.eq(mem[1], 3 * n, "every increment counted") end
  win:free()
end)

t.case("passive target: shared locks held together, reading one value", function()
  local r, n = W:rank(), W:size()
  local mem = mpi.buffer(mpi.INT, 1, {r == n - 1 and 77 or 0})
  local win = W:win_create(mem)
  win:lock(mpi.LOCK_SHARED, n - 1)
  W:barrier()  -- every rank holds its shared lock now: they coexist
  local got = mpi.buffer(mpi.INT, 1)
  win:get(got, 1, mpi.INT, n - 1, 0, 1, mpi.INT)
  win:unlock(n - 1)
  t.eq(got[1], 77)
  W:barrier()
  win:free()
end)

t.case("PROC_NULL as target is a no-op in every call, inside an epoch (MPI-2.1 Ballot 3 item 6)", function()
  local mem = mpi.buffer(mpi.INT, 1, {5})
  local win = W:win_create(mem)
  local b = mpi.buffer(mpi.INT, 1, {9})
  -- "it is still necessary to finish the RMA epoch": outside one, MPI_ERR_RMA_SYNC
  t.raises(function() win:put(b, 1, mpi.INT, mpi.PROC_NULL, 0, 1, mpi.INT) end, "MPI_ERR_RMA_SYNC")
  t.raises(function() win:get(b, 1, mpi.INT, mpi.PROC_NULL, 0, 1, mpi.INT) end, "MPI_ERR_RMA_SYNC")
  win:fence()
  win:put(b, 1, mpi.INT, mpi.PROC_NULL, 0, 1, mpi.INT)  -- nothing moves
  win:get(b, 1, mpi.INT, mpi.PROC_NULL, 1000, 1, mpi.INT)
  win:accumulate(b, 1, mpi.INT, mpi.PROC_NULL, 0, 1, mpi.INT, mpi.SUM)
  win:fence()
  win:lock(mpi.LOCK_EXCLUSIVE, mpi.PROC_NULL)  -- the synchronization calls take it too
  win:flush(mpi.PROC_NULL)
  win:unlock(mpi.PROC_NULL)
  t.eq({mem[1], b[1]}, {5, 9})
  win:free()
end)

t.case("the predefined window attributes (§6.7.3, §11.2.6)", function()
  local mem = mpi.buffer(mpi.DOUBLE, 3)
  local win = W:win_create(mem, 8)
  t.ok(rawequal(win:get_attr(mpi.WIN_BASE), mem), "WIN_BASE is the exposed buffer")
  t.eq({win:get_attr(mpi.WIN_SIZE)}, {24, true})
  t.eq({win:get_attr(mpi.WIN_DISP_UNIT)}, {8, true})
  t.eq({win:get_attr(mpi.WIN_CREATE_FLAVOR)}, {mpi.WIN_FLAVOR_CREATE, true})
  t.eq({win:get_attr(mpi.WIN_MODEL)}, {mpi.WIN_UNIFIED, true})
  t.raises(function() win:set_attr(mpi.WIN_SIZE, 1) end, "MPI_ERR_KEYVAL")
  t.raises(function() W:get_attr(mpi.WIN_BASE) end, "MPI_ERR_KEYVAL")
  t.raises(function() win:get_attr(mpi.TAG_UB) end, "MPI_ERR_KEYVAL")
  win:free()
  local w2, m2 = W:win_allocate(16, 4)
  t.eq({w2:get_attr(mpi.WIN_CREATE_FLAVOR)}, {mpi.WIN_FLAVOR_ALLOCATE, true})
  t.eq(#m2, 16, "a byte buffer by default")
  local g = w2:get_group()
  t.eq(g:size(), W:size())
  w2:free()
end)

t.case("keyvals: delete callbacks run at free, copy callbacks never (§6.7.3 MPI_WIN_FREE)", function()
  local log = {}
  local kv = mpi.win_create_keyval{
    copy = mpi.WIN_DUP_FN,
    delete = function(w, key, value, extra)
      log[#log + 1] = {w:get_name(), value, extra}
    end,
    extra_state = "x",
  }
  local nullkv = mpi.win_create_keyval{copy = mpi.WIN_NULL_COPY_FN, delete = mpi.WIN_NULL_DELETE_FN}
  local win = W:win_create(mpi.buffer(mpi.INT, 1))
  win:set_name("counter")
  t.eq(win:get_name(), "counter")
  win:set_attr(kv, 1)
  win:set_attr(kv, 2)
  t.eq(log, {{"counter", 1, "x"}}, "replacing runs the old value's delete callback")
  win:set_attr(nullkv, "n")
  t.eq({win:get_attr(kv)}, {2, true})
  t.raises(function() W:set_attr(kv, 1) end, "MPI_ERR_KEYVAL")
  t.raises(function() mpi.comm_free_keyval(kv) end, "MPI_ERR_KEYVAL")
  win:free()
  t.eq(log, {{"counter", 1, "x"}, {"counter", 2, "x"}})
  mpi.win_free_keyval(kv)
  mpi.win_free_keyval(nullkv)
  t.raises(function() win:fence() end, "MPI_ERR_WIN")
end)

t.case("a delete callback that raises makes free fail, the window stays usable", function()
  local kv = mpi.win_create_keyval{delete = function() error("no") end}
  local win = W:win_create(mpi.buffer(mpi.INT, 1))
  win:set_attr(kv, 1)
  t.raises(function() win:free() end, "MPI_ERR_OTHER")
  win:fence()
  mpi.win_free_keyval(kv)
end)

t.case("error handlers on windows: errors_return gives nil, err", function()
  local win = W:win_create(mpi.buffer(mpi.INT, 1))
  t.eq(win:get_errhandler(), mpi.ERRORS_RAISE)
  win:set_errhandler(mpi.ERRORS_RETURN)
  local ok, err = win:unlock(0)
  t.eq(ok, nil)
  t.eq(err.class, "MPI_ERR_RMA_SYNC")
  win:set_errhandler(mpi.ERRORS_RAISE)
  t.raises(function() win:set_errhandler("nope") end, "MPI_ERR_ARG")
  win:free()
end)

t.case("every error class, raised before anything is sent (§11.7, §8.4)", function()
  local r, n = W:rank(), W:size()
  local mem = mpi.buffer(mpi.INT, 4)
  local win = W:win_create(mem, 4)
  local b = mpi.buffer(mpi.INT, 4)
  -- no epoch yet
  t.raises(function() win:put(b, 1, mpi.INT, 0, 0, 1, mpi.INT) end, "MPI_ERR_RMA_SYNC")
  t.raises(function() win:unlock(0) end, "MPI_ERR_RMA_SYNC")
  t.raises(function() win:flush(0) end, "MPI_ERR_RMA_SYNC")
  t.raises(function() win:lock(1, 0) end, "MPI_ERR_LOCKTYPE")
  t.raises(function() win:lock(mpi.LOCK_SHARED, 0, 1) end, "MPI_ERR_ASSERT")
  t.raises(function() win:fence(3) end, "MPI_ERR_ASSERT")
  t.raises(function() win:lock(mpi.LOCK_SHARED, n) end, "MPI_ERR_RANK")
  win:fence()
  t.raises(function() win:put(b, 1, mpi.INT, n, 0, 1, mpi.INT) end, "MPI_ERR_RANK")
  t.raises(function() win:put(b, 1, mpi.INT, -5, 0, 1, mpi.INT) end, "MPI_ERR_RANK")
  t.raises(function() win:put(b, 1, mpi.INT, 0, 4, 1, mpi.INT) end, "MPI_ERR_RMA_RANGE")
  t.raises(function() win:get(b, 2, mpi.INT, 0, 3, 2, mpi.INT) end, "MPI_ERR_RMA_RANGE")
  t.raises(function() win:put(b, 1, mpi.INT, 0, -1, 1, mpi.INT) end, "MPI_ERR_DISP")
  t.raises(function() win:put(b, -1, mpi.INT, 0, 0, -1, mpi.INT) end, "MPI_ERR_COUNT")
  t.raises(function() win:put(b, 2, mpi.INT, 0, 0, 1, mpi.INT) end, "MPI_ERR_TYPE")
  t.raises(function() win:put(b, 5, mpi.INT, 0, 0, 5, mpi.INT) end, "MPI_ERR_BUFFER")
  local v = mpi.type_contiguous(2, mpi.INT)
  t.raises(function() win:put(b, 2, mpi.INT, 0, 0, 1, v) end, "MPI_ERR_TYPE")  -- not committed
  v:free()
  t.raises(function() win:accumulate(b, 1, mpi.INT, 0, 0, 1, mpi.INT, mpi.MAXLOC) end, "MPI_ERR_OP")
  t.raises(function() win:accumulate(b, 1, mpi.INT, 0, 0, 4, mpi.BYTE, mpi.SUM) end, "MPI_ERR_TYPE")
  local myop = mpi.op_create(function(a, b) return a end, true)
  t.raises(function() win:accumulate(b, 1, mpi.INT, 0, 0, 1, mpi.INT, myop) end, "MPI_ERR_OP")
  local fb = mpi.buffer(mpi.FLOAT, 1)
  local fw = W:win_create(fb)
  fw:fence()
  t.raises(function() fw:accumulate(fb, 1, mpi.FLOAT, 0, 0, 1, mpi.FLOAT, mpi.BAND) end, "MPI_ERR_OP")
  fw:fence()
  fw:free()
  win:put(b, 1, mpi.INT, r, 0, 1, mpi.INT)
  t.raises(function() win:free() end, "MPI_ERR_RMA_SYNC")  -- operations not completed
  t.raises(function() win:lock(mpi.LOCK_SHARED, 0) end, "MPI_ERR_RMA_SYNC")  -- fence epoch open
  win:fence(mpi.MODE_NOSUCCEED)
  win:lock(mpi.LOCK_SHARED, r)
  t.raises(function() win:lock(mpi.LOCK_SHARED, r) end, "MPI_ERR_RMA_SYNC")
  t.raises(function() win:fence() end, "MPI_ERR_RMA_SYNC")
  t.raises(function() win:free() end, "MPI_ERR_RMA_SYNC")
  win:unlock(r)
  t.raises(function() W:win_create(mem, 0) end, "MPI_ERR_DISP")
  t.raises(function() W:win_allocate(-1, 1) end, "MPI_ERR_SIZE")
  t.raises(function() W:win_allocate(6, 1, nil, mpi.INT) end, "MPI_ERR_SIZE")
  t.raises(function() W:win_create({}, 1) end, "MPI_ERR_BUFFER")
  t.raises(function() W:win_create(mem, 1, 5) end, "MPI_ERR_INFO")
  win:free()
  t.raises(function() win:put(b, 1, mpi.INT, 0, 0, 1, mpi.INT) end, "MPI_ERR_WIN")
  t.raises(function() win:free() end, "MPI_ERR_WIN")
end)

t.case("a type used before commit is MPI_ERR_TYPE in get and accumulate too, nothing sent (§11.3, §4.1.9)", function()
  local r, n = W:rank(), W:size()
  local mem = mpi.buffer(mpi.INT, 4)
  local win = W:win_create(mem, 4)
  local b = mpi.buffer(mpi.INT, 4, {1, 1, 1, 1})
  local loose = mpi.type_contiguous(2, mpi.INT)
  win:fence()
  t.raises(function() win:get(b, 1, loose, (r + 1) % n, 0, 2, mpi.INT) end, "MPI_ERR_TYPE")
  t.raises(function() win:get(b, 2, mpi.INT, (r + 1) % n, 0, 1, loose) end, "MPI_ERR_TYPE")
  t.raises(function() win:accumulate(b, 1, loose, (r + 1) % n, 0, 2, mpi.INT, mpi.SUM) end, "MPI_ERR_TYPE")
  t.raises(function() win:accumulate(b, 2, mpi.INT, (r + 1) % n, 0, 1, loose, mpi.SUM) end, "MPI_ERR_TYPE")
  t.raises(function() win:put(b, 1, loose, (r + 1) % n, 0, 2, mpi.INT) end, "MPI_ERR_TYPE")
  win:fence()
  t.eq({mem[1], mem[2], mem[3], mem[4]}, {0, 0, 0, 0}, "no refused operation reached a window")
  loose:free()
  win:free()
end)

t.case("unknown keyvals are MPI_ERR_KEYVAL on windows and types, before anything changes (§6.7.2, §6.7.3, §6.7.4)", function()
  local win = W:win_create(mpi.buffer(mpi.INT, 1))
  local ck, tk = mpi.comm_create_keyval{}, mpi.type_create_keyval{}
  local wk = mpi.win_create_keyval{}
  for _, k in ipairs({mpi.KEYVAL_INVALID, 987654, ck, tk}) do
    t.raises(function() win:set_attr(k, 1) end, "MPI_ERR_KEYVAL")
    t.raises(function() win:get_attr(k) end, "MPI_ERR_KEYVAL")
    t.raises(function() win:delete_attr(k) end, "MPI_ERR_KEYVAL")
    t.raises(function() mpi.win_free_keyval(k) end, "MPI_ERR_KEYVAL")
  end
  for _, k in ipairs({mpi.KEYVAL_INVALID, 987654, ck, wk}) do
    t.raises(function() mpi.INT:set_attr(k, 1) end, "MPI_ERR_KEYVAL")
    t.raises(function() mpi.INT:get_attr(k) end, "MPI_ERR_KEYVAL")
    t.raises(function() mpi.type_free_keyval(k) end, "MPI_ERR_KEYVAL")
  end
  mpi.win_free_keyval(wk)
  t.raises(function() win:set_attr(wk, 1) end, "MPI_ERR_KEYVAL")  -- freed, never attached
  t.eq({win:get_attr(mpi.WIN_DISP_UNIT)}, {4, true}, "the window is unchanged (disp_unit: the buffer's element size)")
  mpi.comm_free_keyval(ck)
  mpi.type_free_keyval(tk)
  win:free()
end)
