-- tests/scenarios/topo_neighbor.lua: the MPI-3 neighbourhood collectives
-- neighbor_allgather and neighbor_alltoall on Cartesian, graph and
-- distributed-graph communicators, in MPI-3 neighbour order, including the
-- degenerate periodic dimensions of extent 1 and 2 (MPI-4.0 errata: the
-- block sent towards -1 arrives in the +1 slot of the receiver), PROC_NULL
-- neighbours (nil), multigraphs with self-loops, and the errors.
local t = require("lumpi.test")
t.np = {1, 2, 3, 4, 6, 7}

local w = mpi.COMM_WORLD
local n, me = w:size(), w:rank()

local function coords_of(dims, r)
  local c = {}
  for i = #dims, 1, -1 do c[i], r = r % dims[i], r // dims[i] end
  return c
end

local function rank_of(dims, periods, c)
  local r = 0
  for i = 1, #dims do
    local x = c[i]
    if periods[i] then x = x % dims[i] elseif x < 0 or x >= dims[i] then return nil end
    r = r * dims[i] + x
  end
  return r
end

-- Expected neighbour_alltoall result on a grid where every process sends
-- "<rank> d<dim><-|+>" towards each neighbour: slot 2d+1 (the -1 neighbour)
-- holds what that neighbour sent upwards, slot 2d+2 what the +1 one sent down.
local function cart_oracle(dims, periods)
  local co = coords_of(dims, me)
  local gather, a2a = {}, {}
  for d = 1, #dims do
    for k, step in ipairs({-1, 1}) do
      local nc = {table.unpack(co)}
      nc[d] = co[d] + step
      local r = rank_of(dims, periods, nc)
      local slot = 2 * (d - 1) + k
      if r then
        gather[slot] = r
        a2a[slot] = r .. " d" .. (d - 1) .. (step == -1 and "+" or "-")
      end
    end
  end
  return gather, a2a
end

local function cart_blocks(ndims)
  local blocks = {}
  for d = 0, ndims - 1 do
    blocks[2 * d + 1] = me .. " d" .. d .. "-"
    blocks[2 * d + 2] = me .. " d" .. d .. "+"
  end
  return blocks
end

local function check_cart(dims, periods)
  local c = w:cart_create(dims, periods)
  if not c then return end
  local gather, a2a = cart_oracle(dims, periods)
  t.eq(c:neighbor_allgather(me), gather, "allgather on " .. table.concat(dims, "x"))
  t.eq(c:neighbor_alltoall(cart_blocks(#dims)), a2a, "alltoall on " .. table.concat(dims, "x"))
  -- twice in a row: consecutive calls do not mix
  t.eq(c:neighbor_alltoall(cart_blocks(#dims)), a2a)
  t.eq(c:neighbor_allgather({me, "x"}), (function()
    local o = {}
    for k, r in pairs(gather) do o[k] = {r, "x"} end
    return o
  end)())
end

t.case("a periodic ring: left then right, also with 1 or 2 processes", function()
  check_cart({n}, {true})
end)

t.case("a line: PROC_NULL neighbours give nil at the ends", function()
  check_cart({n}, {false})
  local c = w:cart_create({n}, {false})
  local got = c:neighbor_allgather(me)
  if me == 0 then t.eq(got[1], nil) end
  if me == n - 1 then t.eq(got[2], nil) end
end)

t.case("2-D and 3-D grids, periodic and not, with extents of 1 and 2", function()
  check_cart(mpi.dims_create(n, 2), {true, true})
  check_cart(mpi.dims_create(n, 2), {false, true})
  check_cart(mpi.dims_create(n, 3), {true, false, true})
  check_cart({1, n, 1}, {true, true, false})
  if n % 2 == 0 then check_cart({2, n // 2}, {true, false}) end
end)

t.case("a zero-dimensional grid has no neighbours", function()
  local c = mpi.COMM_SELF:cart_create({})
  t.eq(c:neighbor_allgather(me), {})
  t.eq(c:neighbor_alltoall({}), {})
end)

-- ---- graphs ---------------------------------------------------------------------------

-- node i: i+1 twice, a self-loop twice, i-1 twice (symmetric multiplicities)
local function ring_adj(size)
  local adj = {}
  for i = 0, size - 1 do
    adj[i + 1] = {(i + 1) % size, i, (i + 1) % size, i, (i - 1) % size, (i - 1) % size}
  end
  return adj
end

local function csr(adj)
  local index, edges = {}, {}
  for i, list in ipairs(adj) do
    for _, e in ipairs(list) do edges[#edges + 1] = e end
    index[i] = #edges
  end
  return index, edges
end

-- Position (1-based) of the m-th occurrence of x in list.
local function nth(list, x, m)
  for k, v in ipairs(list) do
    if v == x then
      m = m - 1
      if m == 0 then return k end
    end
  end
end

-- Expected alltoall when node j sends "j:k" to its k-th neighbour: the k-th
-- edge to a process matches the k-th edge from it.
local function graph_a2a_oracle(mine, lists_of)
  local seen, out = {}, {}
  for k, j in ipairs(mine) do
    seen[j] = (seen[j] or 0) + 1
    out[k] = j .. ":" .. nth(lists_of(j), me, seen[j])
  end
  return out
end

local function blocks_for(list)
  local b = {}
  for k in ipairs(list) do b[k] = me .. ":" .. k end
  return b
end

t.case("graph: neighbours in graph_neighbors order, duplicates and self-loops", function()
  local adj = ring_adj(n)
  local g = w:graph_create(csr(adj))
  local mine = g:graph_neighbors(me)
  t.eq(g:neighbor_allgather(me * 10), (function()
    local o = {}
    for k, j in ipairs(mine) do o[k] = j * 10 end
    return o
  end)())
  local want = graph_a2a_oracle(mine, function(j) return adj[j + 1] end)
  t.eq(g:neighbor_alltoall(blocks_for(mine)), want)
end)

t.case("graph: an isolated node exchanges nothing", function()
  if n < 3 then t.skip("needs 3 processes") end
  local g = w:graph_create({1, 2, 2}, {1, 0})
  if me >= 3 then return end
  local got = g:neighbor_allgather(me)
  t.eq(got, me == 0 and {1} or me == 1 and {0} or {})
end)

t.case("graph: an asymmetric graph is refused by every process", function()
  if n < 2 then t.skip("needs 2 processes") end
  local adj = {}
  for i = 1, n do adj[i] = {} end
  adj[1] = {1}  -- 0 -> 1 only
  local g = w:graph_create(csr(adj))
  local e = t.raises(function() g:neighbor_allgather(me) end, "MPI_ERR_TOPOLOGY")
  t.ok(e.message:find("symmetric"), e.message)
  t.raises(function() g:neighbor_alltoall({}) end, "MPI_ERR_TOPOLOGY")
end)

-- ---- distributed graphs -------------------------------------------------------------------

t.case("dist graph: a directed ring receives from the left only", function()
  local c = w:dist_graph_create_adjacent({(me - 1) % n}, {(me + 1) % n})
  t.eq(c:neighbor_allgather(me), {(me - 1) % n})
  t.eq(c:neighbor_alltoall({"from " .. me}), {"from " .. (me - 1) % n})
end)

t.case("dist graph: duplicate edges from several processes pair in order", function()
  -- every process gives me -> me+1 (weight me) and rank 0 gives all of them
  -- again, plus a self-loop on each process
  local sources, degrees, dests = {me}, {2}, {(me + 1) % n, me}
  if me == 0 then
    for p = 0, n - 1 do
      sources[#sources + 1], degrees[#degrees + 1], dests[#dests + 1] = p, 1, (p + 1) % n
    end
  end
  local c = w:dist_graph_create(sources, degrees, dests)
  local srcs, _, outs = c:dist_graph_neighbors()
  local all_outs = w:allgather(outs)
  t.eq(c:neighbor_allgather(me), (function()
    local o = {}
    for k, s in ipairs(srcs) do o[k] = s end
    return o
  end)())
  local want = graph_a2a_oracle(srcs, function(j) return all_outs[j + 1] end)
  t.eq(c:neighbor_alltoall(blocks_for(outs)), want)
end)

t.case("dist graph: in- and out-degrees differ", function()
  -- everyone sends to rank 0
  local c = w:dist_graph_create({me}, {1}, {0})
  local got = c:neighbor_alltoall({me * me})
  if me == 0 then
    local srcs = c:dist_graph_neighbors()
    local want = {}
    for k, s in ipairs(srcs) do want[k] = s * s end
    t.eq(got, want)
    t.eq(#got, n)
  else
    t.eq(got, {})
  end
end)

-- ---- errors -------------------------------------------------------------------------------

t.case("neighbourhood collectives need a topology", function()
  t.raises(function() w:neighbor_allgather(1) end, "MPI_ERR_TOPOLOGY")
  t.raises(function() w:neighbor_alltoall({}) end, "MPI_ERR_TOPOLOGY")
  t.raises(function() w:dup():neighbor_allgather(1) end, "MPI_ERR_TOPOLOGY")
end)

t.case("neighbor_alltoall rejects values that are not one per out-neighbour", function()
  local c = w:cart_create({n}, {true})
  local e = t.raises(function() c:neighbor_alltoall({1, 2, 3}) end, "MPI_ERR_ARG")
  t.ok(e.message:find("2 out%-neighbours"), e.message)
  t.raises(function() c:neighbor_alltoall(5) end, "MPI_ERR_ARG")
  t.raises(function() c:neighbor_alltoall({print, 1}) end, "MPI_ERR_TYPE")
  t.raises(function() c:neighbor_allgather(print) end, "MPI_ERR_TYPE")
  -- nothing was sent: the next exchange still matches
  t.eq(c:neighbor_allgather(me), {(me - 1) % n, (me + 1) % n})
end)

t.case("topology calls on an intercommunicator raise", function()
  if n < 2 then t.skip("needs 2 processes") end
  if not w.intercomm_create then t.skip("intercomm_create is not available yet") end
  local half = w:split(me % 2, me)
  local inter = half:intercomm_create(0, w, me % 2 == 0 and 1 or 0, 7)
  t.raises(function() inter:neighbor_allgather(1) end, "MPI_ERR_TOPOLOGY")
  t.raises(function() inter:cart_get() end, "MPI_ERR_TOPOLOGY")
  t.raises(function() inter:graph_neighbors(0) end, "MPI_ERR_TOPOLOGY")
  t.raises(function() inter:dist_graph_neighbors() end, "MPI_ERR_TOPOLOGY")
  t.raises(function() inter:cart_create({1}) end, "MPI_ERR_COMM")
  t.raises(function() inter:graph_create({0}, {}) end, "MPI_ERR_COMM")
  t.raises(function() inter:dist_graph_create_adjacent({}, {}) end, "MPI_ERR_COMM")
  t.raises(function() inter:dist_graph_create({}, {}, {}) end, "MPI_ERR_COMM")
  t.raises(function() inter:cart_map({1}) end, "MPI_ERR_COMM")
  t.raises(function() inter:graph_map({0}, {}) end, "MPI_ERR_COMM")
  t.eq(inter:topo_test(), mpi.UNDEFINED)
end)
