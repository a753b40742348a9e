-- tests/scenarios/ch8_errhandlers.lua: user-defined error handlers and
-- error classes, codes and strings (MPI-3.1 §8.3-8.5), their inheritance by
-- new communicators (§6.4.2 MPI_COMM_DUP "the error handler is copied",
-- §6.6.2 the intercommunicator's handler comes from the local group's
-- communicator), COMM_SELF attributes at finalize (§8.7.1) and the
-- environment queries (§8.1).
local t = require("lumpi.test")
t.np = {1, 2, 3, 5}

-- raises(class, f, args...): f(args...) must raise an error of that class.
local function raises(class, f, ...)
  local a = table.pack(...)
  return t.raises(function() return f(table.unpack(a, 1, a.n)) end, class)
end

local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()

-- A handler that records what it was called with and returns (§8.3: "the
-- handler ... returns, and the MPI call returns the error code").
local function recorder(log)
  return mpi.comm_create_errhandler(function(comm, code)
    log[#log + 1] = {comm = comm, code = code}
  end)
end

t.case("§8.3.1: a user handler is called with the communicator and the code, and returns control", function()
  local log = {}
  local eh = recorder(log)
  local d = w:dup()
  d:set_errhandler(eh)
  t.ok(d:get_errhandler() == eh)
  local r, err = d:send(1, n, 0)  -- rank n is out of range: MPI_ERR_RANK, before anything is sent
  t.eq(r, nil)
  t.eq(err.class, "MPI_ERR_RANK")
  t.eq(#log, 1)
  t.ok(log[1].comm == d)
  t.eq(log[1].code, err.code)
  t.eq(mpi.error_class(log[1].code), "MPI_ERR_RANK")
  -- the communicator still works after the handler returned
  t.eq(d:allreduce(1, mpi.SUM), n)
  d:free()
  eh:free()
end)

t.case("§8.3.4: comm:call_errhandler(code) calls the handler with that code", function()
  local log = {}
  local eh = recorder(log)
  local d = w:dup()
  d:set_errhandler(eh)
  local cls = mpi.add_error_class()
  local r, err = d:call_errhandler(cls)
  t.eq(r, nil)
  t.eq(err.code, cls)
  t.eq(#log, 1)
  t.eq(log[1].code, cls)
  t.ok(log[1].comm == d)
  -- a predefined class, too
  d:call_errhandler(16)  -- MPI_ERR_OTHER
  t.eq(log[2].code, 16)
  -- under the default handler the error is raised with that code
  local ok, e = pcall(w.call_errhandler, w, cls)
  t.eq(ok, false)
  t.eq(e.code, cls)
  d:free()
end)

t.case("§8.3: a handler that raises makes the failing call raise its error", function()
  local eh = mpi.comm_create_errhandler(function(comm, code) error("handler saw " .. code, 0) end)
  local d = w:dup()
  d:set_errhandler(eh)
  local ok, e = pcall(d.send, d, 1, -7, 0)
  t.eq(ok, false)
  t.ok(tostring(e):find("handler saw 6", 1, true), tostring(e))
  d:free()
end)

t.case("§6.4.2, §6.6.2: dup, split, create, cart_create and intercommunicators inherit the handler", function()
  local log = {}
  local eh = recorder(log)
  local base = w:dup()
  base:set_errhandler(eh)
  local kids = {
    base:dup(),
    base:split(me % 2, me),
    base:create(base:group()),
    base:cart_create({n}, {false}),
  }
  if n > 1 then
    local half = base:split(me % 2, me)
    local inter = half:intercomm_create(0, base, me % 2 == 0 and 1 or 0, 77)
    kids[#kids + 1] = inter
    kids[#kids + 1] = inter:intercomm_merge(me % 2 == 1)
    half:free()
  end
  for i, c in ipairs(kids) do
    t.ok(c:get_errhandler() == eh, "child " .. i)
    local before = #log
    c:send(1, c:test_inter() and c:remote_size() or c:size(), 0)  -- out of range on each
    t.eq(#log, before + 1, "child " .. i)
    t.ok(log[#log].comm == c, "child " .. i)
  end
  -- a handler set later on the parent is not seen by existing children
  base:set_errhandler(mpi.ERRORS_RETURN)
  t.ok(kids[1]:get_errhandler() == eh)
  for _, c in ipairs(kids) do c:free() end
  base:free()
  eh:free()
  -- freeing the handle keeps it on the communicators that use it (§8.3.4)
  t.ok(tostring(eh):find("freed", 1, true))
end)

t.case("§8.3: bad handler arguments raise MPI_ERR_ARG before anything is set", function()
  raises("MPI_ERR_ARG", mpi.comm_create_errhandler, 42)
  raises("MPI_ERR_ARG", w.set_errhandler, w, "errors_sometimes")
  local eh = mpi.comm_create_errhandler(function() end)
  eh:free()
  local d = w:dup()
  raises("MPI_ERR_ARG", d.set_errhandler, d, eh)
  t.eq(d:get_errhandler(), mpi.ERRORS_RAISE)
  raises("MPI_ERR_ARG", eh.free, eh)
  raises("MPI_ERR_ARG", d.call_errhandler, d, 0)
  raises("MPI_ERR_ARG", d.call_errhandler, d, 99999)
  d:free()
end)

t.case("§8.5: add_error_class/code/string round trip through error_class and error_string", function()
  local cls = mpi.add_error_class()
  t.ok(cls > mpi.ERR_LASTCODE)
  local code = mpi.add_error_code(cls)
  t.ok(code > cls)
  local other = mpi.add_error_code("MPI_ERR_OTHER")
  t.eq(mpi.error_string(code), "")  -- no string yet
  mpi.add_error_string(cls, "my class")
  mpi.add_error_string(code, "my code")
  t.eq(mpi.error_string(cls), "my class")
  t.eq(mpi.error_string(code), "my code")
  local name, number = mpi.error_class(code)
  t.eq(number, cls)
  t.eq(name, "LUMPI_ERR_USER_" .. cls)
  t.eq(select(2, mpi.error_class(other)), 16)
  t.eq(mpi.error_class(name), name)
  mpi.add_error_string(code, "my code, again")  -- a later string replaces the earlier
  t.eq(mpi.error_string(code), "my code, again")
  -- MPI_LASTUSEDCODE (§8.5): on COMM_WORLD only
  t.eq(w:get_attr(mpi.LASTUSEDCODE), other)
  t.eq({mpi.COMM_SELF:get_attr(mpi.LASTUSEDCODE)}, {nil, false})
  -- erroneous uses
  raises("MPI_ERR_ARG", mpi.add_error_string, 3, "predefined")
  raises("MPI_ERR_ARG", mpi.add_error_string, other + 1000, "unknown")
  raises("MPI_ERR_ARG", mpi.add_error_string, code, string.rep("x", mpi.MAX_ERROR_STRING))
  raises("MPI_ERR_ARG", mpi.add_error_code, 0)
  raises("MPI_ERR_ARG", mpi.add_error_code, code)  -- a code, not a class
  raises("MPI_ERR_ARG", mpi.error_class, other + 1000)
end)

t.case("§8.5: an error raised with an added code keeps it through the handler", function()
  local cls = mpi.add_error_class()
  local code = mpi.add_error_code(cls)
  local d = w:dup()
  d:set_errhandler(mpi.ERRORS_RETURN)
  local r, err = d:call_errhandler(code)
  t.eq(r, nil)
  t.eq(err.code, code)
  t.eq(err.class, "LUMPI_ERR_USER_" .. cls)
  t.eq(select(2, mpi.error_class(err)), cls)
  d:free()
end)

t.case("§8.1: version, processor name and the limits", function()
  t.eq({mpi.get_version()}, {3, 1})
  local name = mpi.get_processor_name()
  t.ok(#name > 0 and #name < mpi.MAX_PROCESSOR_NAME)
  t.eq(mpi.MAX_ERROR_STRING, 512)
  t.eq(mpi.MAX_INFO_KEY, 255)
  t.eq(mpi.MAX_INFO_VAL, 1024)
  t.eq(mpi.MAX_OBJECT_NAME, 128)
  t.eq(mpi.GROUP_NULL, nil)
  t.eq(mpi.finalized(), false)
end)
