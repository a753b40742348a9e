-- tests/scenarios/topo_example_7_5.lua: seed Example 7.5, a multigraph whose
-- neighbour queries return every edge in creation order (MPI-2.2 change 19,
-- ballot 11.b): 0:{1,1,3} 1:{0,0} 2:{3} 3:{0,2,2}.
local t = require("lumpi.test")
t.np = {4}

local w = mpi.COMM_WORLD

t.case("Example 7.5: duplicated neighbours are counted and kept in order", function()
  local g = w:graph_create({3, 5, 6, 9}, {1, 1, 3, 0, 0, 3, 0, 2, 2})
  t.eq({g:graphdims_get()}, {4, 9})
  local adj = {{1, 1, 3}, {0, 0}, {3}, {0, 2, 2}}
  for r = 0, 3 do
    t.eq(g:graph_neighbors_count(r), #adj[r + 1], "count of " .. r)
    t.eq(g:graph_neighbors(r), adj[r + 1], "neighbours of " .. r)
  end
  -- the multiplicities are not symmetric (2 lists 3 once, 3 lists 2 twice),
  -- so the neighbourhood collectives refuse this graph
  t.raises(function() g:neighbor_allgather(0) end, "MPI_ERR_TOPOLOGY")
end)
