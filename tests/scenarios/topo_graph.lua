-- tests/scenarios/topo_graph.lua: graph topologies (seed §7.5.3, §7.5.5,
-- §7.5.8) with the MPI-2.1 ballot clarifications (item 11): nnodes 0,
-- fewer nodes than processes, multigraphs, self-loops, asymmetric
-- adjacency, creation-order queries, graph_map and every erroneous case.
local t = require("lumpi.test")
t.np = {1, 2, 3, 4, 7}

local w = mpi.COMM_WORLD
local n, me = w:size(), w:rank()

-- CSR arrays (index, edges) from adjacency lists adj[1..nnodes] (node i-1).
local function csr(adj)
  local index, edges, total = {}, {}, 0
  for i, list in ipairs(adj) do
    for _, e in ipairs(list) do
      total = total + 1
      edges[total] = e
    end
    index[i] = total
  end
  return index, edges
end

-- A ring with, on every node, a self-loop and a doubled edge to the next node.
local function ring_multigraph(size)
  local adj = {}
  for i = 0, size - 1 do
    adj[i + 1] = {(i + 1) % size, i, (i + 1) % size, (i - 1) % size}
  end
  return adj
end

t.case("graph_create keeps multigraph edges and self-loops in creation order", function()
  local adj = ring_multigraph(n)
  local index, edges = csr(adj)
  local g = w:graph_create(index, edges)
  t.ok(g)
  t.eq(g:topo_test(), mpi.GRAPH)
  t.eq(g:size(), n)
  t.eq(g:rank(), me)
  local nnodes, nedges = g:graphdims_get()
  t.eq(nnodes, n)
  t.eq(nedges, 4 * n)
  local gi, ge = g:graph_get()
  t.eq(gi, index)
  t.eq(ge, edges)
  for r = 0, n - 1 do
    t.eq(g:graph_neighbors_count(r), 4)
    t.eq(g:graph_neighbors(r), adj[r + 1], "neighbours of " .. r .. " as given")
  end
end)

t.case("nnodes = 0 gives nil on every process (ballot 11.a)", function()
  t.eq(w:graph_create({}, {}), nil)
  t.eq(w:graph_create(), nil)
  t.eq(w:graph_map({}, {}), mpi.UNDEFINED)
end)

t.case("fewer nodes than processes: the lowest ranks form the graph, the rest get nil", function()
  for nnodes = 1, n do
    local adj = {}
    for i = 0, nnodes - 1 do adj[i + 1] = {(i + 1) % nnodes} end
    local index, edges = csr(adj)
    local g = w:graph_create(index, edges, true)
    t.eq(w:graph_map(index, edges), me < nnodes and me or mpi.UNDEFINED)
    if me < nnodes then
      t.ok(g)
      t.eq(g:size(), nnodes)
      t.eq(g:rank(), me)
      t.eq({g:graphdims_get()}, {nnodes, nnodes})
    else
      t.eq(g, nil)
    end
  end
end)

t.case("an asymmetric graph is allowed: 0 -> 1 and 1 with no neighbours", function()
  if n < 2 then t.skip("needs 2 processes") end
  local g = w:graph_create({1, 1}, {1})
  if me >= 2 then t.eq(g, nil) return end
  t.eq(g:graph_neighbors_count(0), 1)
  t.eq(g:graph_neighbors_count(1), 0)
  t.eq(g:graph_neighbors(1), {})
  t.eq(g:graph_neighbors(0), {1})
end)

t.case("graph queries reject ranks outside the graph", function()
  local g = w:graph_create(csr(ring_multigraph(n)))
  t.raises(function() g:graph_neighbors_count(n) end, "MPI_ERR_RANK")
  t.raises(function() g:graph_neighbors(-1) end, "MPI_ERR_RANK")
  t.raises(function() g:graph_neighbors(mpi.PROC_NULL) end, "MPI_ERR_RANK")
end)

t.case("graph_create rejects more nodes than processes", function()
  local adj = {}
  for i = 1, n + 1 do adj[i] = {} end
  local index, edges = csr(adj)
  local e = t.raises(function() w:graph_create(index, edges) end, "MPI_ERR_ARG")
  t.eq(e.func, "MPI_Graph_create")
  t.raises(function() w:graph_map(index, edges) end, "MPI_ERR_ARG")
end)

t.case("graph_create rejects malformed index and edges", function()
  -- decreasing index
  t.raises(function() w:graph_create({1, 0}, {0}) end, "MPI_ERR_ARG")
  -- negative index
  t.raises(function() w:graph_create({-1}, {}) end, "MPI_ERR_ARG")
  -- edges shorter / longer than index says
  t.raises(function() w:graph_create({2}, {0}) end, "MPI_ERR_ARG")
  t.raises(function() w:graph_create({1}, {0, 0}) end, "MPI_ERR_ARG")
  -- an edge to a node that does not exist
  local e = t.raises(function() w:graph_create({1}, {1}) end, "MPI_ERR_ARG")
  t.ok(e.message:find("edges%[1%] = 1"), e.message)
  t.raises(function() w:graph_create({1}, {-1}) end, "MPI_ERR_ARG")
  t.raises(function() w:graph_create({1}, {"a"}) end, "MPI_ERR_ARG")
  t.raises(function() w:graph_create({1}, {0}, 1) end, "MPI_ERR_ARG")
end)

t.case("graph_create with arguments that differ between processes fails everywhere", function()
  if n < 2 then t.skip("needs 2 processes") end
  local e = t.raises(function() w:graph_create({1, 2}, {1, me == 0 and 0 or 1}) end, "MPI_ERR_ARG")
  t.ok(e.message:find("identical"), e.message)
end)

t.case("dup keeps the graph; split drops it; wrong-kind calls raise MPI_ERR_TOPOLOGY", function()
  local index, edges = csr(ring_multigraph(n))
  local g = w:graph_create(index, edges)
  local d = g:dup()
  t.eq(d:topo_test(), mpi.GRAPH)
  t.eq({d:graph_get()}, {index, edges})
  t.eq(g:split(0, me):topo_test(), mpi.UNDEFINED)
  for _, call in ipairs({
    function() w:graphdims_get() end, function() w:graph_get() end,
    function() w:graph_neighbors_count(0) end, function() w:graph_neighbors(0) end,
    function() g:cart_get() end, function() g:dist_graph_neighbors() end,
    function() g:dist_graph_neighbors_count() end,
  }) do
    t.raises(call, "MPI_ERR_TOPOLOGY")
  end
  local c = w:cart_create({n})
  t.raises(function() c:graph_neighbors(0) end, "MPI_ERR_TOPOLOGY")
  t.raises(function() c:graphdims_get() end, "MPI_ERR_TOPOLOGY")
end)

t.case("a graph communicator carries ordinary traffic between non-neighbours", function()
  if n < 3 then t.skip("needs 3 processes") end
  local g = w:graph_create({1, 2, 3}, {1, 0, 1})  -- node 2 is isolated from 0 by edges
  if me >= 3 then return end
  if me == 0 then g:send("hello", 2, 1) end
  if me == 2 then t.eq(g:recv(0, 1), "hello") end
end)
