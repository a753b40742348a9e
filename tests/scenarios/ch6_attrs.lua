-- tests/scenarios/ch6_attrs.lua: attribute caching (seed §6.7, API.md §8):
-- keyvals, copy and delete callbacks, the predefined callbacks and
-- attributes, deferred keyval free, callback failures failing the call, and
-- the Efficient_Collective_Op example of §6.7.6.
local t = require("lumpi.test")
t.np = {1, 2, 3, 4}

local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()

t.case("set, get, overwrite and delete run the delete callback with the right arguments", function()
  local log = {}
  local kv
  kv = mpi.comm_create_keyval{
    delete = function(comm, key, value, extra)
      t.ok(rawequal(key, kv))
      t.eq(extra, "xs")
      log[#log + 1] = {comm:get_name(), value}
    end,
    extra_state = "xs",
  }
  t.ok(kv ~= mpi.KEYVAL_INVALID)
  local d = w:dup()
  d:set_name("d")
  t.eq({d:get_attr(kv)}, {nil, false})
  d:set_attr(kv, {n = 1})
  local v, found = d:get_attr(kv)
  t.eq(v, {n = 1})
  t.eq(found, true)
  d:set_attr(kv, "second")
  t.eq(log, {{"d", {n = 1}}})
  d:delete_attr(kv)
  t.eq(log, {{"d", {n = 1}}, {"d", "second"}})
  t.eq({d:get_attr(kv)}, {nil, false})
  d:delete_attr(kv)  -- nothing attached: a no-op
  t.eq(#log, 2)
  d:set_attr(kv, false)
  t.eq({d:get_attr(kv)}, {false, true})
  d:free()
  t.eq(log[3], {"d", false})
  mpi.comm_free_keyval(kv)
end)

t.case("dup runs copy callbacks; predefined copy functions; other constructors copy nothing", function()
  local calls = 0
  local copied = mpi.comm_create_keyval{
    copy = function(old, key, extra, value)
      calls = calls + 1
      t.eq(extra, 42)
      t.eq(old:compare(w), mpi.IDENT)
      return true, value * 10
    end,
    extra_state = 42,
  }
  local dupfn = mpi.comm_create_keyval{copy = mpi.COMM_DUP_FN, delete = mpi.COMM_NULL_DELETE_FN}
  local nullfn = mpi.comm_create_keyval{copy = mpi.COMM_NULL_COPY_FN}
  local default = mpi.comm_create_keyval{}
  local dropping = mpi.comm_create_keyval{copy = function() return false end}
  w:set_attr(copied, me)
  w:set_attr(dupfn, {"shared"})
  w:set_attr(nullfn, 1)
  w:set_attr(default, 2)
  w:set_attr(dropping, 3)
  local d = w:dup()
  t.eq(calls, 1)
  t.eq(d:get_attr(copied), me * 10)
  local a, b = w:get_attr(dupfn), d:get_attr(dupfn)
  t.ok(rawequal(a, b), "COMM_DUP_FN copies the value itself")
  t.eq(select(2, d:get_attr(nullfn)), false)
  t.eq(select(2, d:get_attr(default)), false)
  t.eq(select(2, d:get_attr(dropping)), false)
  local i, req = w:idup()
  t.eq(calls, 2, "idup copies at call time")
  w:set_attr(copied, -1)  -- changed after idup: not seen by the new communicator
  req:wait()
  t.eq(i:get_attr(copied), me * 10)
  local s = w:split(0, me)
  t.eq(select(2, s:get_attr(copied)), false)
  local c = w:create(w:group())
  t.eq(select(2, c:get_attr(dupfn)), false)
  t.eq(calls, 2)
  for _, kv in ipairs({copied, dupfn, nullfn, default, dropping}) do
    w:delete_attr(kv)
    mpi.comm_free_keyval(kv)
  end
  d:free(); i:free(); s:free(); c:free()
end)

t.case("a raising callback fails dup, free, set_attr and delete_attr with its error", function()
  local fail_copy, fail_delete = false, false
  local kv = mpi.comm_create_keyval{
    copy = function(_, _, _, v)
      if fail_copy then error("copy refused") end
      return true, v
    end,
    delete = function()
      if fail_delete then mpi.COMM_WORLD:send(1, mpi.size() + 5) end  -- raises MPI_ERR_RANK
    end,
  }
  local d = w:dup()
  d:set_attr(kv, "v")
  fail_copy = true
  local e = t.raises(function() d:dup() end, "MPI_ERR_OTHER")
  t.ok(e.message:find("copy refused", 1, true))
  t.eq(e.func, "MPI_Comm_dup")
  fail_copy = false
  fail_delete = true
  t.raises(function() d:set_attr(kv, "w") end, "MPI_ERR_RANK")
  t.eq(d:get_attr(kv), "v", "a failed overwrite keeps the old value")
  t.raises(function() d:delete_attr(kv) end, "MPI_ERR_RANK")
  local err = t.raises(function() d:free() end, "MPI_ERR_RANK")
  t.eq(err.func, "MPI_Comm_free")
  t.eq(d:size(), n, "a failed free leaves the communicator usable")
  fail_delete = false
  d:free()
  t.raises(function() d:size() end, "MPI_ERR_COMM")
  mpi.comm_free_keyval(kv)
end)

t.case("a keyval freed while attached stays alive until its last attribute goes", function()
  local deleted = {}
  local kv = mpi.comm_create_keyval{copy = mpi.COMM_DUP_FN, delete = function(c, k, v) deleted[#deleted + 1] = v end}
  local a, b = w:dup(), w:dup()
  a:set_attr(kv, "a")
  b:set_attr(kv, "b")
  mpi.comm_free_keyval(kv)
  t.raises(function() a:get_attr(kv) end, "MPI_ERR_KEYVAL")
  t.raises(function() a:set_attr(kv, 1) end, "MPI_ERR_KEYVAL")
  mpi.comm_free_keyval(kv)  -- again while attached: nothing more happens (§6.7.2)
  local c = a:dup()  -- the copy callback of a freed keyval still runs
  a:free()
  t.eq(deleted, {"a"})
  b:free()
  c:free()
  t.eq(deleted, {"a", "b", "a"})
  -- the last attribute is gone: now the keyval no longer exists
  t.raises(function() mpi.comm_free_keyval(kv) end, "MPI_ERR_KEYVAL")
end)

t.case("a delete callback may free its own keyval, already freed or not (MPICH keyval_double_free)", function()
  local kv
  local calls = 0
  kv = mpi.comm_create_keyval{delete = function(c, k, v)
    calls = calls + 1
    mpi.comm_free_keyval(k)
  end}
  local a, b = w:dup(), w:dup()
  a:set_attr(kv, 1)
  b:set_attr(kv, 2)
  a:free()                  -- the first free, in the callback
  mpi.comm_free_keyval(kv)  -- still attached to b: allowed, changes nothing
  mpi.comm_free_keyval(kv)
  b:free()                  -- the callback frees it once more; then it is gone
  t.eq(calls, 2)
  t.raises(function() mpi.comm_free_keyval(kv) end, "MPI_ERR_KEYVAL")
end)

t.case("a communicator dropped without free takes its attributes along, silently", function()
  local deleted = 0
  local kv = mpi.comm_create_keyval{delete = function() deleted = deleted + 1 end}
  local values = setmetatable({}, {__mode = "v"})
  do
    local c = w:dup()
    local v = {}
    values[1] = v
    c:set_attr(kv, v)
  end
  w:set_attr(kv, "kept")  -- COMM_WORLD's handles come and go; the runtime holds it
  for _ = 1, 3 do collectgarbage("collect") end
  t.eq(values[1], nil)  -- the value of the unreachable communicator was released
  t.eq(deleted, 0)      -- without a delete callback: that communicator was never freed
  t.eq(mpi.COMM_WORLD:get_attr(kv), "kept")
  w:delete_attr(kv)
  t.eq(deleted, 1)
  mpi.comm_free_keyval(kv)
end)

t.case("invalid keyvals raise MPI_ERR_KEYVAL; predefined attributes are read-only", function()
  t.raises(function() w:get_attr(mpi.KEYVAL_INVALID) end, "MPI_ERR_KEYVAL")
  t.raises(function() w:set_attr(mpi.KEYVAL_INVALID, 1) end, "MPI_ERR_KEYVAL")
  t.raises(function() w:get_attr(7) end, "MPI_ERR_KEYVAL")
  t.raises(function() mpi.comm_free_keyval(mpi.KEYVAL_INVALID) end, "MPI_ERR_KEYVAL")
  t.raises(function() w:set_attr(mpi.TAG_UB, 5) end, "MPI_ERR_KEYVAL")
  t.raises(function() mpi.comm_free_keyval(mpi.TAG_UB) end, "MPI_ERR_KEYVAL")
  t.raises(function() mpi.comm_create_keyval{copy = 3} end, "MPI_ERR_ARG")
  local tag_ub, found = w:get_attr(mpi.TAG_UB)
  t.eq(found, true)
  t.ok(math.type(tag_ub) == "integer" and tag_ub >= 32767)
  w:send("top tag", me, tag_ub)
  t.eq(w:recv(me, tag_ub), "top tag")
  t.eq(w:get_attr(mpi.HOST), mpi.PROC_NULL)
  local io = w:get_attr(mpi.IO)
  t.ok(io == mpi.ANY_SOURCE or (io >= 0 and io < n))
  t.eq(select(2, w:get_attr(mpi.WTIME_IS_GLOBAL)), true)
end)

t.case("attributes are per process and per communicator, on intercommunicators too", function()
  local kv = mpi.comm_create_keyval{copy = mpi.COMM_DUP_FN}
  w:set_attr(kv, "rank " .. me)
  t.eq(w:get_attr(kv), "rank " .. me)
  t.eq(select(2, mpi.COMM_SELF:get_attr(kv)), false)
  if n >= 2 then
    local loc = w:split(me % 2, me)
    local inter = loc:intercomm_create(0, w, me % 2 == 0 and 1 or 0, 3)
    inter:set_attr(kv, "inter")
    local d = inter:dup()
    t.eq(d:get_attr(kv), "inter")
    d:free(); inter:free(); loc:free()
  end
  w:delete_attr(kv)
  mpi.comm_free_keyval(kv)
end)

-- §6.7.6, with the copier keeping the attribute (its intent; see the checklist).
t.case("Efficient_Collective_Op: a reference-counted attribute shared by dups", function()
  local gop_key = mpi.KEYVAL_INVALID
  local copies, deletes = 0, 0
  local function gop_stuff_destructor(comm, keyval, stuff, extra)
    t.ok(rawequal(keyval, gop_key), "the keyval passed is gop_key")
    deletes = deletes + 1
    stuff.ref_count = stuff.ref_count - 1
    if stuff.ref_count == 0 then stuff.freed = true end
  end
  local function gop_stuff_copier(oldcomm, keyval, extra, stuff)
    copies = copies + 1
    stuff.ref_count = stuff.ref_count + 1
    return true, stuff
  end
  local allocated = 0
  local function efficient_collective_op(comm)
    if gop_key == mpi.KEYVAL_INVALID then
      gop_key = mpi.comm_create_keyval{copy = gop_stuff_copier, delete = gop_stuff_destructor}
    end
    local stuff, found = comm:get_attr(gop_key)
    if not found then
      allocated = allocated + 1
      stuff = {ref_count = 1, group = comm:group()}
      comm:set_attr(gop_key, stuff)
    end
    return stuff
  end
  local s1 = efficient_collective_op(w)
  t.ok(gop_key ~= mpi.KEYVAL_INVALID)
  t.eq({s1.ref_count, copies, deletes, allocated}, {1, 0, 0, 1})
  t.ok(rawequal(efficient_collective_op(w), s1))
  t.eq(allocated, 1)
  local d = w:dup()
  t.eq({copies, s1.ref_count}, {1, 2})
  t.ok(rawequal(d:get_attr(gop_key), s1))
  local s = w:split(0, me)
  t.eq(select(2, s:get_attr(gop_key)), false)
  local s2 = efficient_collective_op(s)
  t.ok(not rawequal(s2, s1))
  t.eq(allocated, 2)
  d:free()
  t.eq({deletes, s1.ref_count}, {1, 1})
  w:delete_attr(gop_key)
  t.eq({deletes, s1.ref_count, s1.freed}, {2, 0, true})
  mpi.comm_free_keyval(gop_key)
  t.raises(function() w:get_attr(gop_key) end, "MPI_ERR_KEYVAL")
  s:free()
  t.eq({deletes, s2.ref_count, s2.freed}, {3, 0, true})
end)
