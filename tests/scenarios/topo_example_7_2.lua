-- tests/scenarios/topo_example_7_2.lua: seed Example 7.2, a four-node graph
-- built with MPI_GRAPH_CREATE and read back with every graph query.
local t = require("lumpi.test")
t.np = {4}

local w = mpi.COMM_WORLD

t.case("Example 7.2: index {2,3,4,6}, edges {1,3,0,3,0,2}", function()
  local g = w:graph_create({2, 3, 4, 6}, {1, 3, 0, 3, 0, 2}, false)
  t.eq(g:topo_test(), mpi.GRAPH)
  t.eq(g:rank(), w:rank())
  t.eq({g:graphdims_get()}, {4, 6})
  t.eq({g:graph_get()}, {{2, 3, 4, 6}, {1, 3, 0, 3, 0, 2}})
  local adj = {{1, 3}, {0}, {3}, {0, 2}}
  for r = 0, 3 do
    t.eq(g:graph_neighbors_count(r), #adj[r + 1])
    t.eq(g:graph_neighbors(r), adj[r + 1])
  end
  -- the graph is symmetric, so its neighbours can exchange directly
  t.eq(g:neighbor_allgather(w:rank()), adj[w:rank() + 1])
end)
