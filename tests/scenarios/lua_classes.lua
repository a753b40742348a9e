-- tests/scenarios/lua_classes.lua: communicator values mirror the class
-- hierarchy of the seeds' chapter 16 (Comm -> Intracomm -> Cartcomm,
-- Graphcomm, Distgraphcomm; Comm -> Intercomm; Annex A.4 for the methods):
-- each class's methods, the __index chain, constructors returning the right
-- class, the errors of a method called on the wrong class (the MPI class it
-- always raised, naming the class that has it), unknown names with the
-- nearest names, tostring, :draw's description and Tab completion.
local t = require("lumpi.test")
t.np = {1, 2, 3, 5}

local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()
local half = n // 2
local complete = require("lumpi.complete")

local function cls(c) return getmetatable(c).__name end

-- Does the chain of c's metatable hold `m`? (rawget, never the fallback)
local function has(c, m)
  local tbl = getmetatable(c).__index
  while type(tbl) == "table" do
    if rawget(tbl, m) ~= nil then return true end
    local mt = getmetatable(tbl)
    tbl = mt and mt.__index
  end
  return false
end

local function halves()
  local color = me < half and 0 or 1
  local loc = w:split(color, me)
  return loc:intercomm_create(0, w, color == 0 and half or 0, 77), color, loc
end

-- One communicator of every class (the Intercomm only with 2 processes or
-- more), by class name.
local function one_of_each()
  local index, edges = {}, {}
  for i = 0, n - 1 do
    edges[#edges + 1] = (i - 1) % n
    edges[#edges + 1] = (i + 1) % n
    index[#index + 1] = #edges
  end
  local all = {
    Intracomm = w:dup(),
    Cartcomm = w:cart_create({n}, {true}),
    Graphcomm = w:graph_create(index, edges),
    Distgraphcomm = w:dist_graph_create_adjacent({(me - 1) % n}, {(me + 1) % n}),
  }
  if n >= 2 then all.Intercomm = halves() end
  return all
end

-- The classes in one order on every rank (pairs' order may differ), for
-- loops that call collectives.
local order = {"Intracomm", "Intercomm", "Cartcomm", "Graphcomm", "Distgraphcomm"}
local function each(all)
  local i = 0
  return function()
    repeat i = i + 1 until i > #order or all[order[i]]
    if i <= #order then return order[i], all[order[i]] end
  end
end

local comm_methods = {
  "size", "rank", "group", "compare", "test_inter", "topo_test", "get_name", "set_name",
  "get_info", "set_info", "set_errhandler", "get_errhandler", "abort", "set_attr", "get_attr",
  "delete_attr", "dup", "dup_with_info", "idup", "idup_with_info", "create", "split", "free",
  "send", "ssend", "isend", "issend", "recv", "irecv", "sendrecv", "probe", "iprobe", "barrier",
  "bcast", "gather", "scatter", "allgather", "alltoall", "reduce", "allreduce",
  "reduce_scatter", "reduce_scatter_block",
}
-- method -> the classes that have it, for everything not on Comm
local placed = {}
local function place(classes, names)
  for _, m in ipairs(names) do placed[m] = classes end
end
place({Intracomm = true, Cartcomm = true, Graphcomm = true, Distgraphcomm = true},
      {"scan", "exscan", "create_group", "split_type", "intercomm_create", "cart_create",
       "graph_create", "dist_graph_create_adjacent", "dist_graph_create", "cart_map", "graph_map"})
place({Intercomm = true}, {"remote_size", "remote_group", "intercomm_merge"})
place({Cartcomm = true},
      {"cart_sub", "cartdim_get", "cart_get", "cart_rank", "cart_coords", "cart_shift"})
place({Graphcomm = true}, {"graphdims_get", "graph_get", "graph_neighbors_count", "graph_neighbors"})
place({Distgraphcomm = true}, {"dist_graph_neighbors_count", "dist_graph_neighbors"})
place({Cartcomm = true, Graphcomm = true, Distgraphcomm = true},
      {"neighbor_allgather", "neighbor_alltoall", "ineighbor_allgather", "ineighbor_alltoall"})

-- ---- classes and methods ---------------------------------------------------------------

t.case("COMM_WORLD and COMM_SELF are Intracomms", function()
  t.eq(cls(w), "Intracomm")
  t.eq(cls(mpi.COMM_SELF), "Intracomm")
end)

t.case("each class has Comm's methods, its own and its parents', and nothing else", function()
  for name, c in each(one_of_each()) do
    t.eq(cls(c), name)
    for _, m in ipairs(comm_methods) do t.ok(has(c, m), name .. " has " .. m) end
    for m, owners in pairs(placed) do t.eq(has(c, m), owners[name] == true, name .. ":" .. m) end
  end
end)

t.case("the method tables are chained Cartcomm/Graphcomm/Distgraphcomm -> Intracomm -> Comm", function()
  local all = one_of_each()
  local function parent(tbl) return getmetatable(tbl).__index end
  local intra = getmetatable(all.Intracomm).__index
  local comm = parent(intra)
  t.eq(type(comm), "table")
  for _, k in ipairs{"Cartcomm", "Graphcomm", "Distgraphcomm"} do
    t.ok(rawequal(parent(getmetatable(all[k]).__index), intra), k .. " -> Intracomm")
  end
  if all.Intercomm then t.ok(rawequal(parent(getmetatable(all.Intercomm).__index), comm)) end
  t.eq(type(parent(comm)), "function", "the fallback sits at the root")
  t.eq(type(rawget(comm, "size")), "function")
  t.eq(rawget(getmetatable(all.Cartcomm).__index, "size"), rawget(comm, "size"),
       "inherited methods are copied down, one table access away")
end)

-- ---- constructors ------------------------------------------------------------------------

t.case("dup, dup_with_info and idup keep the class; idup's pending comm has it at once", function()
  for name, c in each(one_of_each()) do
    t.eq(cls(c:dup()), name, name .. ":dup")
    t.eq(cls(c:dup_with_info({})), name, name .. ":dup_with_info")
    local d, req = c:idup()
    t.eq(cls(d), name, name .. ":idup before wait")
    req:wait()
    t.eq(cls(d), name, name .. ":idup after wait")
    t.eq(d:compare(c), mpi.CONGRUENT)
  end
end)

t.case("constructors return the class of what they make", function()
  t.eq(cls(w:split(me % 2, me)), "Intracomm")
  t.eq(cls(w:create(w:group())), "Intracomm")
  t.eq(cls(w:create_group(w:group(), 5)), "Intracomm")
  t.eq(cls(w:split_type(mpi.COMM_TYPE_SHARED, me)), "Intracomm")
  local dims = mpi.dims_create(n, 2)
  local grid = w:cart_create(dims, {true, false})
  t.eq(cls(grid), "Cartcomm")
  t.eq(cls(grid:cart_sub({true, false})), "Cartcomm", "cart_sub")
  t.eq(cls(grid:cart_sub({false, false})), "Cartcomm", "a 0-dimensional cart_sub")
  t.eq(cls(grid:split(0, me)), "Intracomm", "split drops the topology")
  local zero = w:cart_create({})  -- one process: rank 0's
  if me == 0 then t.eq(cls(zero), "Cartcomm", "0-dimensional") else t.eq(zero, nil, "COMM_NULL") end
  t.eq(cls(w:dist_graph_create({me}, {1}, {(me + 1) % n})), "Distgraphcomm")
  if n >= 2 then
    local inter, color = halves()
    t.eq(cls(inter), "Intercomm")
    t.eq(cls(inter:intercomm_merge(color == 1)), "Intracomm", "merge")
    t.eq(cls(inter:split(0, me)), "Intercomm", "split of an intercommunicator")
    t.eq(cls(inter:create(inter:group())), "Intercomm", "create on an intercommunicator")
  end
end)

-- ---- misuse ------------------------------------------------------------------------------

local function misuse(fn, class, func, message)
  local e = t.raises(fn, class)
  t.eq(e.func, func)
  t.ok(e.message:find(message, 1, true), e.message)
end

t.case("a method of another class raises the MPI class it always did and names its class", function()
  local all = one_of_each()
  misuse(function() w:cart_shift(0, 1) end, "MPI_ERR_TOPOLOGY", "MPI_Cart_shift",
         "cart_shift is a Cartcomm method; this is an Intracomm")
  misuse(function() all.Cartcomm:graph_neighbors(0) end, "MPI_ERR_TOPOLOGY",
         "MPI_Graph_neighbors", "graph_neighbors is a Graphcomm method; this is a Cartcomm")
  misuse(function() all.Graphcomm:cart_coords(0) end, "MPI_ERR_TOPOLOGY", "MPI_Cart_coords",
         "cart_coords is a Cartcomm method; this is a Graphcomm")
  misuse(function() all.Distgraphcomm:graph_get() end, "MPI_ERR_TOPOLOGY", "MPI_Graph_get",
         "graph_get is a Graphcomm method; this is a Distgraphcomm")
  misuse(function() all.Graphcomm:dist_graph_neighbors() end, "MPI_ERR_TOPOLOGY",
         "MPI_Dist_graph_neighbors", "dist_graph_neighbors is a Distgraphcomm method; this is a Graphcomm")
  misuse(function() w:neighbor_allgather(1) end, "MPI_ERR_TOPOLOGY", "MPI_Neighbor_allgather",
         "neighbor_allgather is a Cartcomm, Graphcomm or Distgraphcomm method; this is an Intracomm")
  misuse(function() w:remote_size() end, "MPI_ERR_COMM", "MPI_Comm_remote_size",
         "remote_size is an Intercomm method; this is an Intracomm")
  misuse(function() all.Cartcomm:intercomm_merge(true) end, "MPI_ERR_COMM", "MPI_Intercomm_merge",
         "intercomm_merge is an Intercomm method; this is a Cartcomm")
  local inter = all.Intercomm
  if inter then
    misuse(function() inter:cart_shift(0, 1) end, "MPI_ERR_TOPOLOGY", "MPI_Cart_shift",
           "cart_shift is a Cartcomm method; this is an Intercomm")
    misuse(function() inter:neighbor_alltoall({}) end, "MPI_ERR_TOPOLOGY", "MPI_Neighbor_alltoall",
           "this is an Intercomm")
    misuse(function() inter:scan(1, mpi.SUM) end, "MPI_ERR_COMM", "MPI_Scan",
           "scan is an Intracomm method; this is an Intercomm")
    misuse(function() inter:cart_create({1}) end, "MPI_ERR_COMM", "MPI_Cart_create",
           "cart_create is an Intracomm method; this is an Intercomm")
    misuse(function() inter:split_type("shared", 0) end, "MPI_ERR_COMM", "MPI_Comm_split_type",
           "split_type is an Intracomm method; this is an Intercomm")
  end
end)

t.case("misuse honours ERRORS_RETURN; a freed or non-communicator self raises MPI_ERR_COMM first", function()
  local d = w:dup()
  d:set_errhandler(mpi.ERRORS_RETURN)
  local res = table.pack(d:cart_shift(0, 1))
  t.eq(res.n, 2)
  t.eq(res[1], nil)
  t.eq(res[2].class, "MPI_ERR_TOPOLOGY")
  local v, err = d:remote_group()
  t.eq(v, nil)
  t.eq(err.class, "MPI_ERR_COMM")
  local c = w:cart_create({n})
  c:free()
  t.raises(function() c:graph_get() end, "MPI_ERR_COMM")
  t.raises(function() c:remote_size() end, "MPI_ERR_COMM")
  local e = t.raises(function() w.cart_shift(42, 0, 1) end, "MPI_ERR_COMM")
  t.ok(e.message:find("expected a communicator"), e.message)
end)

t.case("a class's own method called as a plain function on another class still checks", function()
  local cart = w:cart_create({n})
  local shift = getmetatable(cart).__index.cart_shift
  t.raises(function() shift(w, 0, 1) end, "MPI_ERR_TOPOLOGY")
  local merge = n >= 2 and getmetatable(halves()).__index.intercomm_merge
  if merge then t.raises(function() merge(w, true) end, "MPI_ERR_COMM") end
end)

t.case("a name no class has names the class and the nearest names", function()
  local cart = w:cart_create({n})
  local ok, msg = pcall(function() return cart:coords(0) end)
  t.eq(ok, false)
  t.eq(type(msg), "string", "a plain Lua error, as calling a missing method was")
  t.ok(msg:find("lua_classes.lua:%d+: no method 'coords' on Cartcomm; did you mean cart_coords%?$"), msg)
  ok, msg = pcall(function() return w:bcats(1) end)
  t.ok(msg:find("no method 'bcats' on Intracomm; did you mean bcast", 1, true), msg)
  ok, msg = pcall(function() return w:frobnicate() end)
  t.ok(msg:find("no method 'frobnicate' on Intracomm$"), msg)
  local d = w:dup()
  d:set_errhandler(mpi.ERRORS_RETURN)
  t.eq(pcall(function() return d:shfit() end), false, "raises even under ERRORS_RETURN")
  t.eq(w.__close, nil)
  t.eq(w[1], nil)
  -- the same name, the same answer on every rank and every call
  local _, again = pcall(function() return cart:coords(0) end)
  t.same_everywhere((again:gsub("^.-: ", "")))
end)

-- ---- tostring, :draw, completion ------------------------------------------------------------

t.case("tostring names the class and keeps the rest", function()
  for name, c in each(one_of_each()) do
    t.ok(tostring(c):find("^" .. name .. " '' size=%d+ rank=" .. c:rank() .. " "), tostring(c))
  end
  t.eq(tostring(w), "Intracomm 'MPI_COMM_WORLD' size=" .. n .. " rank=" .. me .. " intra")
  local c = w:cart_create({n})
  t.eq(tostring(c), "Cartcomm '' size=" .. n .. " rank=" .. me .. " intra topo=cart " .. n)
  c:free()
  t.eq(tostring(c), "Cartcomm (freed)")
end)

t.case(":draw's description carries the class", function()
  local draw = require("lumpi.draw")
  for name, c in each(one_of_each()) do
    t.ok(("\n" .. draw.describe(c) .. "\n"):find("\nclass " .. name .. "\n", 1, true), name)
  end
end)

t.case("completion offers only what the value has, and no internals", function()
  local all = one_of_each()
  lc_cart, lc_graph, lc_inter = all.Cartcomm, all.Graphcomm, all.Intercomm
  t.eq(complete.candidates("mpi.COMM_WORLD", ":", "cart"), "cart_create\ncart_map")
  t.eq(complete.candidates("mpi.COMM_WORLD", ":", "neighbor"), "")
  t.eq(complete.candidates("mpi.COMM_WORLD", ":", "remote"), "")
  t.eq(complete.candidates("lc_cart", ":", "cart_s"), "cart_shift\ncart_sub")
  t.eq(complete.candidates("lc_graph", ":", "neighbor"), "neighbor_allgather\nneighbor_alltoall")
  t.eq(complete.candidates("lc_graph", ":", "cart_"), "cart_create\ncart_map")
  local offered = {}
  for m in complete.candidates("lc_cart", ":", ""):gmatch("[^\n]+") do
    t.ok(has(lc_cart, m), "offered " .. m .. " is a Cartcomm method")
    offered[m] = true
  end
  for _, m in ipairs(comm_methods) do t.ok(offered[m], "Comm's " .. m .. " offered") end
  for m, owners in pairs(placed) do t.eq(offered[m] == true, owners.Cartcomm == true, m) end
  if lc_inter then
    t.eq(complete.candidates("lc_inter", ":", "cart"), "")
    t.eq(complete.candidates("lc_inter", ":", "remote"), "remote_group\nremote_size")
    t.eq(complete.candidates("lc_inter", ":", "sca"), "scatter")
  end
  lc_cart, lc_graph, lc_inter = nil, nil, nil
end)
