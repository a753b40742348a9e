-- tests/scenarios/api_contract.lua: API.md §1-§5 and §7 promises checked
-- name by name: constants and their value classes, the error object and its
-- tostring, freed handles, ERRORS_RETURN, tostring of groups and
-- communicators, defaults and return shapes of collectives.
local t = require("lumpi.test")
t.np = {1, 2, 3, 4, 7}

local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()

t.case("§1/§3 constants have the promised values and types", function()
  t.eq(mpi.COMM_NULL, nil)
  local specials = {mpi.UNDEFINED, mpi.PROC_NULL, mpi.ANY_SOURCE, mpi.ANY_TAG, mpi.ROOT}
  local seen = {}
  for i, v in ipairs(specials) do
    t.eq(math.type(v), "integer", "special " .. i)
    t.ok(v < 0, "special " .. i .. " is negative")
    t.ok(not seen[v], "special " .. i .. " is distinct")
    seen[v] = true
  end
  t.ok(mpi.KEYVAL_INVALID ~= nil and not seen[mpi.KEYVAL_INVALID])
  t.eq({mpi.IDENT, mpi.CONGRUENT, mpi.SIMILAR, mpi.UNEQUAL},
       {"ident", "congruent", "similar", "unequal"})
  t.eq({mpi.CART, mpi.GRAPH, mpi.DIST_GRAPH}, {"cart", "graph", "dist_graph"})
  t.eq({mpi.COMM_TYPE_SHARED, mpi.COMM_TYPE_HW_GUIDED}, {"shared", "hw_guided"})
  t.ok(mpi.MAX_OBJECT_NAME >= 64)
  for _, k in ipairs{"COMM_WORLD", "COMM_SELF", "GROUP_EMPTY", "UNWEIGHTED", "WEIGHTS_EMPTY",
                     "TAG_UB", "HOST", "IO", "WTIME_IS_GLOBAL", "ERRORS_RAISE", "ERRORS_RETURN",
                     "ERRORS_ARE_FATAL", "SUM", "PROD", "MAX", "MIN", "LAND", "LOR", "LXOR",
                     "BAND", "BOR", "BXOR", "MAXLOC", "MINLOC", "hw"} do
    t.ok(mpi[k] ~= nil, "mpi." .. k)
  end
  for _, f in ipairs{"rank", "size", "wtime", "wtick", "get_processor_name", "dims_create",
                     "comm_create_keyval", "comm_free_keyval", "op_create", "op_free",
                     "reduce_local", "waitall", "waitany", "testall", "error_class",
                     "error_string"} do
    t.eq(type(mpi[f]), "function", "mpi." .. f)
  end
  t.eq(mpi.rank(), me)
  t.eq(mpi.size(), n)
end)

t.case("§2 error object fields and tostring", function()
  local err = t.raises(function() w:send(1, n + 3) end, "MPI_ERR_RANK")
  t.eq(err.func, "MPI_Send")
  t.eq(math.type(err.code), "integer")
  t.eq(tostring(err), "MPI_ERR_RANK in MPI_Send: destination rank " .. (n + 3) ..
       " is out of range for a communicator of size " .. n)
  t.eq(err.message, "destination rank " .. (n + 3) ..
       " is out of range for a communicator of size " .. n)
  t.eq(mpi.error_class(err.code), "MPI_ERR_RANK")
  t.eq(type(mpi.error_string(err.code)), "string")
  t.eq(mpi.error_string("MPI_ERR_RANK"), mpi.error_string(err.code))
end)

t.case("§2 ERRORS_RETURN returns nil, err on that communicator only", function()
  local d = w:dup()
  d:set_errhandler(mpi.ERRORS_RETURN)
  t.eq(d:get_errhandler(), mpi.ERRORS_RETURN)
  t.eq(w:get_errhandler(), mpi.ERRORS_RAISE)
  local checks = {
    {"send", {1, n}, "MPI_ERR_RANK"}, {"recv", {n}, "MPI_ERR_RANK"},
    {"bcast", {1, n}, "MPI_ERR_ROOT"}, {"reduce", {1, mpi.SUM, -7}, "MPI_ERR_ROOT"},
    {"split", {-3}, "MPI_ERR_ARG"}, {"cart_shift", {0, 1}, "MPI_ERR_TOPOLOGY"},
    {"get_attr", {mpi.KEYVAL_INVALID}, "MPI_ERR_KEYVAL"},
    {"remote_size", {}, "MPI_ERR_COMM"}, {"alltoall", {{}}, "MPI_ERR_COUNT"},
  }
  for _, c in ipairs(checks) do
    local res = table.pack(d[c[1]](d, table.unpack(c[2])))
    t.eq(res.n, 2, c[1] .. " returns two values")
    t.eq(res[1], nil, c[1])
    t.eq(res[2].class, c[3], c[1])
  end
  d:free()
end)

t.case("§1 freed handles raise their class", function()
  local d = w:dup()
  local alias = d
  d:free()
  t.raises(function() return alias:size() end, "MPI_ERR_COMM")
  t.raises(function() alias:free() end, "MPI_ERR_COMM")
  local g = w:group()
  g:free()
  t.raises(function() return g:size() end, "MPI_ERR_GROUP")
  t.raises(function() return g + g end, "MPI_ERR_GROUP")
  local kv = mpi.comm_create_keyval{}
  mpi.comm_free_keyval(kv)
  t.raises(function() w:set_attr(kv, 1) end, "MPI_ERR_KEYVAL")
  t.raises(function() w:get_attr(mpi.KEYVAL_INVALID) end, "MPI_ERR_KEYVAL")
  local op = mpi.op_create(function(a, b) return a + b end, true)
  mpi.op_free(op)
  t.raises(function() w:allreduce(1, op) end, "MPI_ERR_OP")
  t.raises(function() mpi.op_free(mpi.SUM) end, "MPI_ERR_OP")
  t.raises(function() w:free() end, "MPI_ERR_COMM")
end)

t.case("§4 tostring(group) shows COMM_WORLD ranks; operators", function()
  local g = w:group()
  local ranks = {}
  for i = 0, n - 1 do ranks[#ranks + 1] = tostring(i) end
  t.eq(tostring(g), "group(" .. n .. ")[" .. table.concat(ranks, ",") .. "]")
  t.eq(tostring(mpi.GROUP_EMPTY), "group(0)[]")
  local evens = g:range_incl{{0, n - 1, 2}}
  local odds = g - evens
  t.eq((evens + odds):size(), n)
  t.eq((evens * odds):size(), 0)
  t.ok(evens + odds ~= g or n <= 2, "union keeps evens first, so it is not ident for n > 2")
  t.ok(g == w:group())
  t.eq(g:compare(evens + odds), n <= 2 and mpi.IDENT or mpi.SIMILAR)
end)

t.case("§5 tostring(comm) and names", function()
  t.eq(tostring(w), "Intracomm 'MPI_COMM_WORLD' size=" .. n .. " rank=" .. me .. " intra")
  t.eq(mpi.COMM_SELF:get_name(), "MPI_COMM_SELF")
  local d = w:dup()
  t.eq(d:get_name(), "")
  d:set_name("mine")
  t.eq(tostring(d), "Intracomm 'mine' size=" .. n .. " rank=" .. me .. " intra")
  t.eq(w:dup():get_name(), "", "names are never copied")
  local c = w:cart_create({1, n})
  t.eq(tostring(c), "Cartcomm '' size=" .. n .. " rank=" .. me .. " intra topo=cart 1x" .. n)
  t.eq(w:topo_test(), mpi.UNDEFINED)
end)

t.case("§5 constructor defaults and shapes", function()
  t.eq(w:split(nil), nil)
  t.eq(w:split(mpi.UNDEFINED), nil)
  local s = w:split(0)  -- key defaults to 0: ties keep the old order
  t.eq(s:rank(), me)
  local nc, req = w:idup()
  req:wait()
  t.eq(nc:compare(w), mpi.CONGRUENT)
  local c = w:cart_create({n})
  local dims, periods, coords = c:cart_get()
  t.eq(dims, {n})
  t.eq(periods, {false})
  t.eq(coords, {me})
  t.eq(mpi.dims_create(12, 2), {4, 3})
  t.eq(mpi.dims_create(12, {0, 3, 0}), {2, 3, 2})
end)

t.case("§7 collective return shapes", function()
  local root = n - 1
  local g = w:gather(me, root)
  if me == root then
    local want = {}
    for i = 0, n - 1 do want[i + 1] = i end
    t.eq(g, want)
  else
    t.eq(g, nil)
  end
  t.eq(w:reduce(me, mpi.SUM, 0), me == 0 and n * (n - 1) // 2 or nil)
  t.eq(w:exscan(me, mpi.SUM), me > 0 and me * (me - 1) // 2 or nil)
  t.eq(w:scan(me, mpi.SUM), me * (me + 1) // 2)
  -- reduce_scatter: counts[i+1] = i + 1, values[k] = k everywhere
  local counts, values = {}, {}
  for i = 1, n do counts[i] = i end
  for k = 1, n * (n + 1) // 2 do values[k] = k end
  local first = me * (me + 1) // 2
  local want = {}
  for j = 1, me + 1 do want[j] = (first + j) * n end
  t.eq(w:reduce_scatter(values, counts, mpi.SUM), want)
  -- MAXLOC ties take the smaller index
  t.eq(w:allreduce({7, n - me}, mpi.MAXLOC), {7, 1})
  t.eq(w:allreduce({7, n - me}, mpi.MINLOC), {7, 1})
  t.eq(w:allreduce(2.5, mpi.SUM), 2.5 * n)
  t.eq(math.type(w:allreduce(2, mpi.SUM)), "integer")
end)

t.case("§8 get_attr returns value, found", function()
  local kv = mpi.comm_create_keyval{}
  local v, found = w:get_attr(kv)
  t.eq(v, nil)
  t.eq(found, false)
  w:set_attr(kv, {me})
  v, found = w:get_attr(kv)
  t.eq(v, {me})
  t.eq(found, true)
  w:delete_attr(kv)
  mpi.comm_free_keyval(kv)
  local ub, ok = w:get_attr(mpi.TAG_UB)
  t.ok(ok and ub >= 32767)
end)
