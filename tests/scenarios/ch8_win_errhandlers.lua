-- tests/scenarios/ch8_win_errhandlers.lua: user-defined error handlers on
-- windows (MPI-3.1 §8.3.2 MPI_WIN_CREATE_ERRHANDLER, MPI_WIN_SET_ERRHANDLER,
-- MPI_WIN_GET_ERRHANDLER; §8.3.6 MPI_WIN_CALL_ERRHANDLER; §8.3 "an error
-- handler created for one kind of object may only be attached to that kind").
local t = require("lumpi.test")
t.np = {1, 2, 3, 4}

local W = mpi.COMM_WORLD
local me, n = W:rank(), W:size()

-- raises(class, f, args...): f(args...) must raise an error of that class.
local function raises(class, f, ...)
  local a = table.pack(...)
  return t.raises(function() return f(table.unpack(a, 1, a.n)) end, class)
end

local function recorder(log)
  return mpi.win_create_errhandler(function(win, code)
    log[#log + 1] = {win = win, code = code}
  end)
end

t.case("§8.3.2: a window's handler runs with the window and the code; the call returns nil, err", function()
  local log = {}
  local eh = recorder(log)
  local mem = mpi.buffer(mpi.INT, 2)
  local win = W:win_create(mem, 4)
  win:set_errhandler(eh)
  t.ok(win:get_errhandler() == eh)
  local r, err = win:unlock(0)  -- no lock held: MPI_ERR_RMA_SYNC
  t.eq(r, nil)
  t.eq(err.class, "MPI_ERR_RMA_SYNC")
  t.eq(#log, 1)
  t.ok(rawequal(log[1].win, win), "the handler gets the window the call was on")
  t.eq(log[1].code, err.code)
  -- a put outside the target's window: the handler, and nothing arrives
  win:fence()
  local src = mpi.buffer(mpi.INT, 1, {7})
  r, err = win:put(src, 1, mpi.INT, (me + 1) % n, 2, 1, mpi.INT)
  t.eq(err.class, "MPI_ERR_RMA_RANGE")
  t.eq(#log, 2)
  win:fence()
  t.eq({mem[1], mem[2]}, {0, 0}, "the refused put sent nothing")
  win:fence()  -- (the next put belongs to an epoch after every rank's check)
  -- the window still works after the handler returned
  win:put(src, 1, mpi.INT, (me + 1) % n, 1, 1, mpi.INT)
  win:fence()
  t.eq(mem[2], 7)
  win:free()
  eh:free()
end)

t.case("§8.3.6: win:call_errhandler(code) delivers the code as a failing call would", function()
  local log = {}
  local eh = recorder(log)
  local win = W:win_create(mpi.buffer(mpi.INT, 1))
  local cls = mpi.add_error_class()
  local code = mpi.add_error_code(cls)
  win:set_errhandler(eh)
  local r, err = win:call_errhandler(code)
  t.eq(r, nil)
  t.eq(err.code, code)
  t.eq(log[1].code, code)
  t.ok(rawequal(log[1].win, win))
  win:call_errhandler(16)  -- MPI_ERR_OTHER
  t.eq(log[2].code, 16)
  -- ERRORS_RETURN: nil, err without a handler; ERRORS_RAISE: raised with that code
  win:set_errhandler(mpi.ERRORS_RETURN)
  r, err = win:call_errhandler(cls)
  t.eq(r, nil)
  t.eq(err.code, cls)
  win:set_errhandler(mpi.ERRORS_RAISE)
  local ok, e = pcall(win.call_errhandler, win, code)
  t.eq(ok, false)
  t.eq(e.code, code)
  t.eq(#log, 2)
  raises("MPI_ERR_ARG", win.call_errhandler, win, 0)
  raises("MPI_ERR_ARG", win.call_errhandler, win, 99999)
  win:free()
  raises("MPI_ERR_WIN", win.call_errhandler, win, 16)
  eh:free()
end)

t.case("§8.3: a handler serves the kind of object it was made for (MPI_ERR_ARG otherwise)", function()
  local weh = mpi.win_create_errhandler(function() end)
  local ceh = mpi.comm_create_errhandler(function() end)
  local win = W:win_create(mpi.buffer(mpi.INT, 1))
  local d = W:dup()
  local e = raises("MPI_ERR_ARG", win.set_errhandler, win, ceh)
  t.ok(e.message:find("communicator", 1, true), e.message)
  raises("MPI_ERR_ARG", d.set_errhandler, d, weh)
  t.eq(win:get_errhandler(), mpi.ERRORS_RAISE, "nothing was set")
  t.eq(d:get_errhandler(), mpi.ERRORS_RAISE)
  raises("MPI_ERR_ARG", mpi.win_create_errhandler, "not a function")
  raises("MPI_ERR_ARG", win.set_errhandler, win, 42)
  weh:free()
  raises("MPI_ERR_ARG", win.set_errhandler, win, weh)
  t.ok(tostring(weh):find("window", 1, true), tostring(weh))
  d:free()
  win:free()
  ceh:free()
end)

t.case("§8.3: a window keeps its handler after free of the handle; errors stay on their object", function()
  local wlog, clog = {}, {}
  local weh = recorder(wlog)
  local ceh = mpi.comm_create_errhandler(function(c, code) clog[#clog + 1] = code end)
  local d = W:dup()
  d:set_errhandler(ceh)
  local win = d:win_create(mpi.buffer(mpi.INT, 1))
  t.eq(win:get_errhandler(), mpi.ERRORS_RAISE, "a window does not inherit its communicator's handler")
  win:set_errhandler(weh)
  weh:free()
  win:flush(0)  -- no epoch: MPI_ERR_RMA_SYNC to the window's handler
  d:send(1, n, 0)  -- out of range: to the communicator's handler
  t.eq(#wlog, 1)
  t.eq(mpi.error_class(wlog[1].code), "MPI_ERR_RMA_SYNC")
  t.eq(#clog, 1)
  t.eq(mpi.error_class(clog[1]), "MPI_ERR_RANK")
  win:free()
  d:free()
  ceh:free()
end)

t.case("§8.3: a handler that raises makes the failing window call raise its error", function()
  local eh = mpi.win_create_errhandler(function(win, code) error("window handler saw " .. code, 0) end)
  local win = W:win_create(mpi.buffer(mpi.INT, 1))
  win:set_errhandler(eh)
  local ok, e = pcall(win.lock, win, 1, 0)  -- lock type 1: MPI_ERR_LOCKTYPE
  t.eq(ok, false)
  t.ok(tostring(e):find("window handler saw", 1, true), tostring(e))
  win:set_errhandler(mpi.ERRORS_RAISE)
  win:free()
  eh:free()
end)
