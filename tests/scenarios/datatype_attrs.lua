-- tests/scenarios/datatype_attrs.lua: attribute caching and names on
-- datatypes (seed §6.7.4 "Datatypes", §6.8 naming; API.md §14): copy
-- callbacks on dup, delete callbacks on free and delete_attr, the predefined
-- callbacks, keyvals of the wrong kind, failing callbacks.
local t = require("lumpi.test")
t.np = {1, 2, 5}

t.case("set, get, overwrite, delete_attr run the delete callback (seed §6.7.4 MPI_TYPE_DELETE_ATTR)", function()
  local log = {}
  local kv
  kv = mpi.type_create_keyval{
    delete = function(ty, key, value, extra)
      t.ok(rawequal(key, kv))
      t.eq(extra, "xs")
      log[#log + 1] = {ty:get_name(), value}
    end,
    extra_state = "xs",
  }
  local ty = mpi.type_contiguous(4, mpi.INT)
  ty:set_name("four ints")
  t.eq({ty:get_attr(kv)}, {nil, false})
  ty:set_attr(kv, {n = 1})
  t.eq({ty:get_attr(kv)}, {{n = 1}, true})
  ty:set_attr(kv, "second")
  t.eq(log, {{"four ints", {n = 1}}})
  ty:delete_attr(kv)
  t.eq(log, {{"four ints", {n = 1}}, {"four ints", "second"}})
  t.eq({ty:get_attr(kv)}, {nil, false})
  ty:set_attr(kv, 3)
  ty:free()
  t.eq(log[3], {"four ints", 3}, "free runs the delete callback (seed §6.7.4 MPI_TYPE_FREE)")
  mpi.type_free_keyval(kv)
end)

t.case("dup runs copy callbacks; TYPE_DUP_FN copies, TYPE_NULL_COPY_FN and the default do not", function()
  local calls = 0
  local copied = mpi.type_create_keyval{
    copy = function(old, key, extra, value)
      calls = calls + 1
      t.eq(extra, 42)
      t.eq(old:get_name(), "src")
      return true, value * 10
    end,
    extra_state = 42,
  }
  local dupfn = mpi.type_create_keyval{copy = mpi.TYPE_DUP_FN, delete = mpi.TYPE_NULL_DELETE_FN}
  local nullfn = mpi.type_create_keyval{copy = mpi.TYPE_NULL_COPY_FN}
  local default = mpi.type_create_keyval{}
  local src = mpi.type_vector(2, 1, 2, mpi.DOUBLE)
  src:set_name("src")
  local shared = {"shared"}
  src:set_attr(copied, 7)
  src:set_attr(dupfn, shared)
  src:set_attr(nullfn, 1)
  src:set_attr(default, 2)
  local d = src:dup()
  t.eq(calls, 1)
  t.eq({d:get_attr(copied)}, {70, true})
  t.ok(rawequal(d:get_attr(dupfn), shared))
  t.eq({d:get_attr(nullfn)}, {nil, false})
  t.eq({d:get_attr(default)}, {nil, false})
  t.eq(d:get_name(), "")
end)

t.case("attributes on predefined types; names of predefined types can change (seed §6.8)", function()
  local kv = mpi.type_create_keyval{}
  mpi.DOUBLE:set_attr(kv, "on double")
  t.eq({mpi.DOUBLE:get_attr(kv)}, {"on double", true})
  mpi.DOUBLE:delete_attr(kv)
  local old = mpi.FLOAT:get_name()
  mpi.FLOAT:set_name("my float   ")
  t.eq(mpi.FLOAT:get_name(), "my float", "trailing spaces are not significant")
  mpi.FLOAT:set_name(old)
  t.eq(mpi.FLOAT:get_name(), "MPI_FLOAT")
  mpi.type_free_keyval(kv)
end)

t.case("a keyval serves the kind of object it was made for (MPI_ERR_KEYVAL otherwise)", function()
  local tk = mpi.type_create_keyval{}
  local ck = mpi.comm_create_keyval{}
  t.raises(function() mpi.INT:set_attr(ck, 1) end, "MPI_ERR_KEYVAL")
  t.raises(function() mpi.COMM_WORLD:set_attr(tk, 1) end, "MPI_ERR_KEYVAL")
  t.raises(function() mpi.INT:get_attr(mpi.TAG_UB) end, "MPI_ERR_KEYVAL")
  t.raises(function() mpi.comm_free_keyval(tk) end, "MPI_ERR_KEYVAL")
  t.raises(function() mpi.type_free_keyval(ck) end, "MPI_ERR_KEYVAL")
  mpi.type_free_keyval(tk)
  t.raises(function() mpi.INT:get_attr(tk) end, "MPI_ERR_KEYVAL")
  t.raises(function() mpi.type_free_keyval(tk) end, "MPI_ERR_KEYVAL")
  mpi.comm_free_keyval(ck)
end)

t.case("a keyval freed while attached lives until its attribute goes (seed §6.7.2)", function()
  local deleted = 0
  local kv = mpi.type_create_keyval{delete = function() deleted = deleted + 1 end}
  local ty = mpi.type_contiguous(1, mpi.INT)
  ty:set_attr(kv, "x")
  mpi.type_free_keyval(kv)
  t.eq(deleted, 0)
  ty:free()
  t.eq(deleted, 1)
end)

t.case("a callback that raises fails the call with its class (seed §6.7.4)", function()
  local kv = mpi.type_create_keyval{
    copy = function() error({class = "MPI_ERR_OTHER"}) end,
    delete = function(_, _, value)
      if value == "stuck" then mpi.type_contiguous(-1, mpi.INT) end
    end,
  }
  local ty = mpi.type_contiguous(2, mpi.INT)
  ty:set_attr(kv, 1)
  t.raises(function() ty:dup() end, "MPI_ERR_OTHER")
  ty:set_attr(kv, "stuck")
  t.raises(function() ty:free() end, "MPI_ERR_COUNT")
  t.eq(ty:size(), 8, "a failed free leaves the type alive")
  t.raises(function() ty:delete_attr(kv) end, "MPI_ERR_COUNT")
  t.eq({ty:get_attr(kv)}, {"stuck", true}, "and the attribute attached")
end)
