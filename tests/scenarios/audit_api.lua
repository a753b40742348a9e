-- tests/scenarios/audit_api.lua: an audit of API.md §1-§7 and §10 name by
-- name: every method and function the contract lists exists under its
-- mapped name, and the return shapes, defaults and error classes not
-- already pinned by api_contract.lua, api_requests.lua and p2p.lua.
local t = require("lumpi.test")
t.np = {1, 2, 3, 5, 7}

local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()
local right, left = (me + 1) % n, (me - 1) % n

local function count(...) return select("#", ...) end

t.case("§1 every listed MPI function exists under its mapped name", function()
  local comm_methods = {
    -- §5 accessors and constructors
    "size", "rank", "group", "compare", "test_inter", "remote_size", "remote_group",
    "topo_test", "get_name", "set_name", "get_info", "set_info", "set_errhandler",
    "get_errhandler", "abort", "dup", "dup_with_info", "idup", "create", "create_group",
    "split", "split_type", "intercomm_create", "intercomm_merge", "free",
    -- §6
    "send", "ssend", "recv", "sendrecv", "isend", "irecv", "probe", "iprobe",
    -- §7
    "barrier", "bcast", "gather", "scatter", "allgather", "alltoall", "reduce", "allreduce",
    "scan", "exscan", "reduce_scatter_block", "reduce_scatter", "neighbor_allgather",
    "neighbor_alltoall",
    -- §8, §9 (topology and keyval names kept whole)
    "set_attr", "get_attr", "delete_attr", "cart_create", "graph_create",
    "dist_graph_create_adjacent", "dist_graph_create", "cart_sub", "cart_map", "graph_map",
    "cartdim_get", "cart_get", "cart_rank", "cart_coords", "cart_shift", "graphdims_get",
    "graph_get", "graph_neighbors_count", "graph_neighbors", "dist_graph_neighbors_count",
    "dist_graph_neighbors",
  }
  for _, m in ipairs(comm_methods) do t.eq(type(w[m]), "function", "comm:" .. m) end
  local g = w:group()
  for _, m in ipairs{"size", "rank", "translate_ranks", "compare", "union", "intersection",
                     "difference", "incl", "excl", "range_incl", "range_excl", "free"} do
    t.eq(type(g[m]), "function", "group:" .. m)
  end
  local r = w:irecv(mpi.PROC_NULL)
  for _, m in ipairs{"wait", "test", "cancel"} do t.eq(type(r[m]), "function", "request:" .. m) end
  for _, f in ipairs{"info", "bind", "locality"} do t.eq(type(mpi.hw[f]), "function", "mpi.hw." .. f) end
  t.eq(type(mpi.SUM.commutative), "function", "op:commutative")
end)

t.case("§1 calls with no outputs return nothing", function()
  t.eq(count(w:send(1, mpi.PROC_NULL)), 0)
  t.eq(count(w:ssend(1, mpi.PROC_NULL)), 0)
  t.eq(count(w:barrier()), 0)
  local d = w:dup()
  t.eq(count(d:set_name("x")), 0)
  t.eq(count(d:set_info({a = "b"})), 0)
  t.eq(count(d:set_errhandler(mpi.ERRORS_RETURN)), 0)
  t.eq(count(d:free()), 0)
  local op = mpi.op_create(function(a, b) return a end, true)
  t.eq(op:commutative(), true)
  t.eq(count(mpi.op_free(op)), 0)
end)

t.case("§2 error_class and error_string take codes, class names and error objects", function()
  local ok, err = pcall(w.send, w, 1, n)
  t.eq(ok, false)
  t.eq(mpi.error_class(err.code), "MPI_ERR_RANK")
  t.eq(mpi.error_class(0), "MPI_SUCCESS")
  t.eq(type(mpi.error_string(0)), "string")
  for _, c in ipairs{"MPI_SUCCESS", "MPI_ERR_RANK", "MPI_ERR_TAG", "MPI_ERR_COMM", "MPI_ERR_ARG",
                     "MPI_ERR_TYPE", "MPI_ERR_ROOT", "MPI_ERR_GROUP", "MPI_ERR_OP",
                     "MPI_ERR_TOPOLOGY", "MPI_ERR_DIMS", "MPI_ERR_KEYVAL", "MPI_ERR_INFO",
                     "MPI_ERR_COUNT", "MPI_ERR_REQUEST", "MPI_ERR_OTHER", "MPI_ERR_INTERN",
                     "MPI_ERR_UNKNOWN", "MPI_ERR_PROC_FAILED", "LUMPI_ERR_INTERRUPTED"} do
    local s = mpi.error_string(c)
    t.eq(type(s), "string", c)
    t.ok(s:find(c, 1, true) == 1, c .. " names itself")
  end
  -- an unknown class name is a bad argument, as an unknown code is
  t.raises(function() return mpi.error_string("MPI_ERR_NO_SUCH_THING") end, "MPI_ERR_ARG")
  t.raises(function() return mpi.error_string(1 << 20) end, "MPI_ERR_ARG")
  t.raises(function() return mpi.error_class(1 << 20) end, "MPI_ERR_ARG")
end)

t.case("§2 ERRORS_RETURN covers every point-to-point call and freed handles", function()
  local d = w:dup()
  d:set_errhandler(mpi.ERRORS_RETURN)
  local checks = {
    {"ssend", {1, n}, "MPI_ERR_RANK"}, {"isend", {1, n}, "MPI_ERR_RANK"},
    {"irecv", {n}, "MPI_ERR_RANK"}, {"probe", {n}, "MPI_ERR_RANK"},
    {"iprobe", {me, -5}, "MPI_ERR_TAG"}, {"sendrecv", {1, me, 0, n, 0}, "MPI_ERR_RANK"},
    {"send", {print, me}, "MPI_ERR_TYPE"}, {"send", {1, me, -1}, "MPI_ERR_TAG"},
    {"set_errhandler", {"bogus"}, "MPI_ERR_ARG"},
  }
  for _, c in ipairs(checks) do
    local res = table.pack(d[c[1]](d, table.unpack(c[2])))
    t.eq(res.n, 2, c[1] .. " returns two values")
    t.eq(res[1], nil, c[1])
    t.eq(res[2].class, c[3], c[1])
  end
  d:free()
  local v, err = d:send(1, me)
  t.eq(v, nil)
  t.eq(err.class, "MPI_ERR_COMM", "a freed communicator keeps its handler")
end)

t.case("§3 wtime, wtick, get_processor_name", function()
  local a = mpi.wtime()
  local b = mpi.wtime()
  t.eq(math.type(a), "float")
  t.ok(b >= a, "wtime does not go back")
  t.eq(math.type(mpi.wtick()), "float")
  t.ok(mpi.wtick() > 0 and mpi.wtick() < 1)
  t.eq(type(mpi.get_processor_name()), "string")
  t.eq(mpi.get_processor_name(), mpi.hw.info().host)
end)

t.case("§3 dims_create returns a new sequence, leaving its argument alone", function()
  local dims = {0, 0}
  local got = mpi.dims_create(n, dims)
  t.eq(dims, {0, 0})
  t.ok(got ~= dims)
  t.eq(got[1] * got[2], n)
  t.eq(mpi.dims_create(n, 1), {n})
end)

t.case("§3 reduce_local applies inbuf ∘ inoutbuf in that order", function()
  local op = mpi.op_create(function(a, b) return {a, b} end, false)
  t.eq(mpi.reduce_local("in", "io", op), {"in", "io"})
  t.eq(mpi.reduce_local({1, 2}, {3, 4}, mpi.SUM), {4, 6})
  mpi.op_free(op)
end)

t.case("§3 waitall and testall on an empty list", function()
  local values, statuses = mpi.waitall({})
  t.eq(values, {})
  t.eq(statuses, {})
  local done, v2, s2 = mpi.testall({})
  t.eq(done, true)
  t.eq(v2, {})
  t.eq(s2, {})
end)

t.case("§5 info: get_info is a table of strings, set_info and dup_with_info take one", function()
  for k, v in pairs(w:get_info()) do
    t.eq(type(k), "string")
    t.eq(type(v), "string")
  end
  local d = w:dup_with_info({mpi_assert_no_any_tag = "true"})
  t.eq(d:get_info().mpi_assert_no_any_tag, "true")
  t.raises(function() d:set_info({x = 1}) end, "MPI_ERR_INFO")
  d:free()
end)

t.case("§5 split_type shared and mpi_shared_memory keep one host together", function()
  local s = w:split_type(mpi.COMM_TYPE_SHARED)
  t.eq(s:size(), n)  -- one machine
  t.eq(s:rank(), me, "key defaults to 0")
  t.eq(w:split_type(mpi.COMM_TYPE_SHARED, n - me):rank(), n - 1 - me)
  t.eq(w:split_type(mpi.UNDEFINED), nil)
  local h = w:split_type(mpi.COMM_TYPE_HW_GUIDED, 0, {mpi_hw_resource_type = "mpi_shared_memory"})
  t.eq(h:size(), n)
  -- guided without a resource type gives nil (MPI-4.0 §7.4.2)
  t.eq(w:split_type(mpi.COMM_TYPE_HW_GUIDED, 0), nil)
end)

t.case("§6 values: floats, integers, extremes and keys of every sendable type", function()
  local vals = {0.0, -0.0, 1 / 0, -1 / 0, math.maxinteger, math.mininteger, 3, 3.0, "a\0b", "",
                true, false, {a = 1, [2.5] = 2, [true] = 3, [-1] = "x", [1] = {2, {3}}}}
  for i, v in ipairs(vals) do
    w:send(v, right, i)
    local got = w:recv(left, i)
    t.eq(got, v, "value " .. i)
    if type(v) == "number" then
      t.eq(math.type(got), math.type(v), "value " .. i)
      t.eq(1 / got, 1 / v, "sign of value " .. i)
    end
  end
  w:send(0 / 0, right, 90)
  local nan = w:recv(left, 90)
  t.ok(nan ~= nan, "NaN arrives as NaN")
  w:send(nil, right, 91)
  local v, st = w:recv(left, 91)
  t.eq(v, nil)
  t.eq(st.source, left)
  local err = t.raises(function() w:send({[print] = 1}, right) end, "MPI_ERR_TYPE")
  t.ok(err.message:find("value[", 1, true), "names the path")
  t.raises(function() w:send(coroutine.create(print), right) end, "MPI_ERR_TYPE")
end)

t.case("§6 status tables hold integers source, tag, error", function()
  local v, st = w:sendrecv(me, right, 5, left, 5)
  t.eq(v, left)
  for _, k in ipairs{"source", "tag", "error"} do t.eq(math.type(st[k]), "integer", k) end
  t.eq(st.error, 0)
  local done, v2, st2 = w:isend(1, right, 6):test()
  t.eq(done, true)
  t.eq(v2, nil, "a send request has no value")
  t.eq(type(st2), "table")
  t.eq(w:recv(left, 6), 1)
end)

t.case("§6 PROC_NULL completes at once for every call", function()
  local function null_status(st, what)
    t.eq(st.source, mpi.PROC_NULL, what)
    t.eq(st.tag, mpi.ANY_TAG, what)
  end
  local done, v, st = w:irecv(mpi.PROC_NULL, 3):test()
  t.eq(done, true)
  t.eq(v, nil)
  null_status(st, "irecv")
  t.eq((w:isend(1, mpi.PROC_NULL, 3):test()), true)
  null_status(w:probe(mpi.PROC_NULL), "probe")
  local flag, st2 = w:iprobe(mpi.PROC_NULL)
  t.eq(flag, true)
  null_status(st2, "iprobe")
  local v3, st3 = w:sendrecv(1, mpi.PROC_NULL, 0, mpi.PROC_NULL, 0)
  t.eq(v3, nil)
  null_status(st3, "sendrecv")
end)

t.case("§6 sendrecv defaults: sendtag 0, source ANY_SOURCE, recvtag ANY_TAG", function()
  local v, st = w:sendrecv({me}, right)
  t.eq(v, {left})
  t.eq(st.source, left)
  t.eq(st.tag, 0)
end)

t.case("§6 intercommunicator ranks are remote ranks, checked against the remote size", function()
  if n < 2 then t.skip("needs two groups") end
  local color = me % 2
  local lc = w:split(color, me)
  local ic = lc:intercomm_create(0, w, 1 - color, 41)
  ic:send(ic:rank(), ic:rank() % ic:remote_size(), 7)
  local expect = 0
  for r = 0, ic:remote_size() - 1 do
    if r % ic:size() == ic:rank() then expect = expect + 1 end
  end
  local seen = {}
  for _ = 1, expect do
    local v, st = ic:recv(mpi.ANY_SOURCE, 7)
    t.eq(v, st.source, "status.source is the sender's rank in its own group")
    seen[#seen + 1] = st.source
  end
  t.eq(#seen, expect)
  t.raises(function() ic:send(1, ic:remote_size()) end, "MPI_ERR_RANK")
  t.eq((ic:recv(mpi.PROC_NULL)), nil)
  ic:free()
  lc:free()
end)

t.case("§6 request methods check their receiver", function()
  local r = w:irecv(mpi.PROC_NULL)
  t.eq((r:wait()), nil)
  t.raises(function() return r.wait(42) end, "MPI_ERR_REQUEST")
  t.raises(function() return r.test(w) end, "MPI_ERR_REQUEST")
  t.raises(function() return mpi.waitall({r, 5}) end, "MPI_ERR_REQUEST")
  t.eq(r:cancel(), false, "a complete request cannot be cancelled")
end)

t.case("§10 hw.info fields, locality and bind", function()
  local i = mpi.hw.info()
  t.eq(type(i.host), "string")
  for _, k in ipairs{"pid", "cores", "pus", "numa", "packages"} do
    t.eq(math.type(i[k]), "integer", k)
    t.ok(i[k] >= 1, k)
  end
  t.eq(type(i.cpuset), "string")
  t.eq(math.type(mpi.hw.locality("machine")), "integer")
  t.eq(mpi.hw.locality("machine"), 0)
  t.raises(function() mpi.hw.locality("bogus") end, "MPI_ERR_ARG")
  t.raises(function() mpi.hw.bind("pu", i.pus) end, "MPI_ERR_ARG")
  local pu = me % i.pus
  t.eq(count(mpi.hw.bind("pu", pu)), 0)
  t.eq(mpi.hw.locality("pu"), pu)
  t.eq(mpi.hw.info().bound, {level = "pu", index = pu})
  mpi.hw.bind("machine", 0)
end)
