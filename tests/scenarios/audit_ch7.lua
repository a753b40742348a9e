-- tests/scenarios/audit_ch7.lua: an independent audit of process topologies
-- against reference/ch7-topologies.md, filling what the topo_*.lua files
-- leave out: no attribute of the parent reaches a topology communicator
-- (§7.4), which constructors keep or drop a topology, topologies built on
-- topology communicators, more dimensions than processes, cart_sub keeping
-- every dimension, neighbourhood collectives on sub-grids and on empty
-- distributed graphs, weightedness when every process agrees, and the map
-- functions for empty topologies.
local t = require("lumpi.test")
t.np = {1, 2, 3, 4, 5, 7}

local w = mpi.COMM_WORLD
local n, me = w:size(), w:rank()

-- row-major coordinates of rank r (last dimension fastest)
local function coords_of(dims, r)
  local c = {}
  for i = #dims, 1, -1 do c[i], r = r % dims[i], r // dims[i] end
  return c
end

-- {3, 2} for 6, {2, 2} for 4, {} for 1.
local function prime_factors_descending(x)
  local factors = {}
  local p = 2
  while x > 1 do
    if x % p == 0 then factors[#factors + 1], x = p, x // p else p = p + 1 end
  end
  table.sort(factors, function(a, b) return a > b end)
  return factors
end

local function range(first, last)
  local out = {}
  for r = first, last do out[#out + 1] = r end
  return out
end

-- ---- §7.4: attributes do not propagate, dup copies ---------------------------------------

t.case("§7.4: no attribute of the parent reaches a topology communicator", function()
  local kv = mpi.comm_create_keyval{copy = mpi.COMM_DUP_FN}
  w:set_attr(kv, "from world")
  local function check_none(made)
    for _, m in ipairs(made) do
      local what, c = m[1], m[2]
      if c then  -- nil where the constructor gave COMM_NULL
        local v, found = c:get_attr(kv)
        t.eq(found, false, what .. " must not inherit the attribute")
        t.eq(v, nil, what)
      end
    end
  end
  local cart = w:cart_create({n}, {true})
  check_none({  -- in a fixed order: the constructors are collective
    {"cart", cart},
    {"graph", w:graph_create({0}, {})},
    {"adjacent", w:dist_graph_create_adjacent({}, {})},
    {"general", w:dist_graph_create({}, {}, {})},
    {"sub", cart:cart_sub({true})},
  })
  cart:set_attr(kv, "from cart")
  check_none({
    {"sub of a grid with the attribute", cart:cart_sub({false})},
    {"cart on a grid with the attribute", cart:cart_create({1})},
    {"dist graph on a grid with the attribute", cart:dist_graph_create_adjacent({}, {})},
  })
  -- MPI_COMM_DUP copies both the attribute (COMM_DUP_FN) and the topology
  local d = cart:dup()
  t.eq({d:get_attr(kv)}, {"from cart", true})
  t.eq(d:topo_test(), mpi.CART)
  cart:delete_attr(kv)
  d:delete_attr(kv)
  w:delete_attr(kv)
  mpi.comm_free_keyval(kv)
end)

-- ---- which constructors keep a topology ---------------------------------------------------

-- One communicator of each kind, as {kind, comm} pairs in a fixed order
-- (pairs() order differs between processes, and these are collective).
local function topology_comms()
  return {
    {mpi.CART, w:cart_create(mpi.dims_create(n, 2), {true, false})},
    {mpi.GRAPH, w:graph_create(range(1, n), range(0, n - 1))},  -- node i: neighbour i
    {mpi.DIST_GRAPH, w:dist_graph_create_adjacent({(me - 1) % n}, {(me + 1) % n})},
  }
end

t.case("dup, dup_with_info and idup keep the topology and its data", function()
  for _, kc in ipairs(topology_comms()) do
    local kind, c = kc[1], kc[2]
    local d1 = c:dup()
    local d2 = c:dup_with_info({})
    local d3, req = c:idup()
    req:wait()
    for _, d in ipairs({d1, d2, d3}) do
      t.eq(d:topo_test(), kind)
      if kind == mpi.CART then
        t.eq({d:cart_get()}, {c:cart_get()})
      elseif kind == mpi.GRAPH then
        t.eq({d:graph_get()}, {c:graph_get()})
      else
        t.eq({d:dist_graph_neighbors()}, {c:dist_graph_neighbors()})
      end
    end
  end
end)

t.case("create, create_group, split, split_type and intercomm_merge drop the topology", function()
  for _, kc in ipairs(topology_comms()) do
    local kind, c = kc[1], kc[2]
    local label = "from a " .. kind .. " parent"
    t.eq(c:create(c:group()):topo_test(), mpi.UNDEFINED, "create " .. label)
    t.eq(c:create_group(c:group(), 11):topo_test(), mpi.UNDEFINED, "create_group " .. label)
    t.eq(c:split(0, me):topo_test(), mpi.UNDEFINED, "split " .. label)
    t.eq(c:split_type(mpi.COMM_TYPE_SHARED, 0):topo_test(), mpi.UNDEFINED, "split_type " .. label)
    if n >= 2 then
      local half = c:split(me % 2, me)
      local inter = half:intercomm_create(0, c, me % 2 == 0 and 1 or 0, 12)
      t.eq(inter:topo_test(), mpi.UNDEFINED, "intercommunicator " .. label)
      t.eq(inter:intercomm_merge(me % 2 == 1):topo_test(), mpi.UNDEFINED, "merge " .. label)
    end
  end
end)

t.case("a topology communicator can be the parent of another topology", function()
  local comms = topology_comms()
  local cart, graph, dist = comms[1][2], comms[2][2], comms[3][2]
  local g = cart:graph_create({1}, {0})
  if me == 0 then t.eq(g:topo_test(), mpi.GRAPH) else t.eq(g, nil) end
  local c = dist:cart_create({n}, {true})
  t.eq(c:topo_test(), mpi.CART)
  t.eq({c:cart_shift(0, 1)}, {(me - 1) % n, (me + 1) % n})
  local d = graph:dist_graph_create({me}, {1}, {(me + 1) % n})
  t.eq(d:topo_test(), mpi.DIST_GRAPH)
  t.eq(d:size(), n)
  -- the parents keep theirs
  t.eq(cart:topo_test(), mpi.CART)
  t.eq(dist:topo_test(), mpi.DIST_GRAPH)
  t.eq(graph:graph_neighbors(me), {me})
end)

-- ---- more dimensions than processes --------------------------------------------------------

t.case("dims_create and cart_create with more dimensions than processes", function()
  local nd = n + 2
  local dims = mpi.dims_create(n, nd)
  -- with a dimension for every prime factor, the most balanced grid has one
  -- prime per dimension (largest first) and extent 1 in the rest
  local want = prime_factors_descending(n)
  for i = #want + 1, nd do want[i] = 1 end
  t.eq(dims, want, "one prime factor per dimension, non-increasing")
  local periods = {}
  for i = 1, nd do periods[i] = i % 2 == 0 end  -- dimension 1 periodic, 2 not, ...
  local c = w:cart_create(dims, periods)
  t.eq(c:size(), n)
  t.eq(c:cartdim_get(), nd)
  local gd, gp, gc = c:cart_get()
  t.eq(gd, dims)
  t.eq(gp, periods)
  t.eq(gc, coords_of(dims, me))
  local remain, kept, kept_periods = {}, {}, {}
  for d = 0, nd - 1 do
    remain[d + 1] = dims[d + 1] > 1
    if remain[d + 1] then
      kept[#kept + 1], kept_periods[#kept_periods + 1] = dims[d + 1], periods[d + 1]
    else  -- extent 1: self when periodic, PROC_NULL when not
      local self_or_null = periods[d + 1] and me or mpi.PROC_NULL
      t.eq({c:cart_shift(d, 1)}, {self_or_null, self_or_null}, "direction " .. d)
      t.eq({c:cart_shift(d, -3)}, {self_or_null, self_or_null}, "direction " .. d)
    end
  end
  -- dropping the extents of 1 loses no process
  local sub = c:cart_sub(remain)
  t.eq(sub:size(), n)
  t.eq(sub:rank(), me)
  t.eq({sub:cart_get()}, {kept, kept_periods, coords_of(kept, me)})
  -- a grid of ones: only rank 0, whatever the number of dimensions
  local ones = w:cart_create(mpi.dims_create(1, nd))
  if me == 0 then
    t.eq(ones:size(), 1)
    t.eq(ones:cartdim_get(), nd)
    t.eq(ones:cart_coords(0), coords_of(mpi.dims_create(1, nd), 0))
  else
    t.eq(ones, nil)
  end
end)

-- ---- cart_sub ------------------------------------------------------------------------------

t.case("cart_sub keeping every dimension reproduces the grid", function()
  for _, periods in ipairs({{true, false}, {false, true, true}}) do
    local dims = mpi.dims_create(n, #periods)
    local c = w:cart_create(dims, periods)
    local remain = {}
    for i = 1, #dims do remain[i] = true end
    local s = c:cart_sub(remain)
    t.eq(s:size(), n)
    t.eq(s:rank(), me)
    t.eq(s:group():compare(c:group()), mpi.IDENT)
    t.eq({s:cart_get()}, {c:cart_get()})
  end
end)

t.case("shifts and neighbourhood collectives on a sub-grid use its own ranks", function()
  local dims = mpi.dims_create(n, 2)
  local c = w:cart_create(dims, {false, true})
  local row = c:cart_sub({false, true})  -- dimension 1, periodic
  local col = c:cart_sub({true, false})  -- dimension 0, not periodic
  local co = coords_of(dims, me)
  t.eq(row:rank(), co[2])
  t.eq(col:rank(), co[1])
  local left, right = (co[2] - 1) % dims[2], (co[2] + 1) % dims[2]
  t.eq({row:cart_shift(0, 1)}, {left, right})
  t.eq(row:neighbor_allgather(co[2]), {left, right})
  t.eq(row:neighbor_alltoall({"L" .. co[2], "R" .. co[2]}), {"R" .. left, "L" .. right})
  local up = co[1] > 0 and co[1] - 1 or mpi.PROC_NULL
  local down = co[1] < dims[1] - 1 and co[1] + 1 or mpi.PROC_NULL
  t.eq({col:cart_shift(0, 1)}, {up, down})
  local got = col:neighbor_allgather(me)  -- world ranks of the column neighbours
  t.eq(got[1], up ~= mpi.PROC_NULL and me - dims[2] or nil)
  t.eq(got[2], down ~= mpi.PROC_NULL and me + dims[2] or nil)
end)

t.case("a duplicated zero-dimensional grid is still zero-dimensional", function()
  local z = w:cart_create(mpi.dims_create(n, 1), {true}):cart_sub({false})
  local d = z:dup()
  t.eq(d:topo_test(), mpi.CART)
  t.eq(d:cartdim_get(), 0)
  t.eq(d:size(), 1)
  t.eq(d:cart_rank({}), 0)
  t.raises(function() d:cart_shift(0, 1) end, "MPI_ERR_ARG")
end)

-- ---- distributed graphs ----------------------------------------------------------------------

t.case("weightedness when every process agrees, with no edges anywhere", function()
  local empty = {sourceweights = mpi.WEIGHTS_EMPTY, destweights = mpi.WEIGHTS_EMPTY}
  local cases = {
    {w:dist_graph_create_adjacent({}, {}, empty), true},
    {w:dist_graph_create_adjacent({}, {}, {sourceweights = {}, destweights = {}}), true},
    {w:dist_graph_create({}, {}, {}, {weights = mpi.WEIGHTS_EMPTY}), true},
    {w:dist_graph_create_adjacent({}, {}), false},
    {w:dist_graph_create_adjacent({}, {}, {sourceweights = mpi.UNWEIGHTED,
                                           destweights = mpi.UNWEIGHTED}), false},
    {w:dist_graph_create({}, {}, {}, {weights = mpi.UNWEIGHTED}), false},
  }
  for i, case in ipairs(cases) do
    local c, weighted = case[1], case[2]
    t.eq({c:dist_graph_neighbors_count()}, {0, 0, weighted}, "case " .. i)
    local s, sw, d, dw = c:dist_graph_neighbors()
    t.eq(s, {})
    t.eq(d, {})
    t.eq(sw, weighted and {} or nil, "case " .. i)
    t.eq(dw, weighted and {} or nil, "case " .. i)
    -- nobody has neighbours: the collectives exchange nothing
    t.eq(c:neighbor_allgather(me), {})
    t.eq(c:neighbor_alltoall({}), {})
  end
end)

t.case("weights given by a third process reach both ends of each edge", function()
  if n < 3 then t.skip("needs 3 processes") end
  -- the last process describes 0 -> 1 (weight 5) and 1 -> 0 (weight 6)
  local c
  if me == n - 1 then
    c = w:dist_graph_create({0, 1}, {1, 1}, {1, 0}, {weights = {5, 6}})
  else
    c = w:dist_graph_create({}, {}, {})
  end
  local s, sw, d, dw = c:dist_graph_neighbors()
  if me == 0 then
    t.eq({s, sw, d, dw}, {{1}, {6}, {1}, {5}})
  elseif me == 1 then
    t.eq({s, sw, d, dw}, {{0}, {5}, {0}, {6}})
  else
    t.eq({s, sw, d, dw}, {{}, {}, {}, {}})
  end
  t.eq(select(3, c:dist_graph_neighbors_count()), true)
end)

-- ---- map functions ---------------------------------------------------------------------------

t.case("graph_map: the first nnodes processes keep their rank, nnodes = 0 maps nobody", function()
  t.eq(w:graph_map({}, {}), mpi.UNDEFINED)
  for nnodes = 1, n do
    local index, edges = {}, {}
    for i = 1, nnodes do index[i] = 0 end
    t.eq(w:graph_map(index, edges), me < nnodes and me or mpi.UNDEFINED)
  end
end)
