-- tests/scenarios/topo_example_7_6.lua: seed Example 7.6, the shuffle-exchange
-- graph on 8 nodes (labels a1a2a3 in binary): neighbours are exchange,
-- shuffle and unshuffle, nodes 0 and 7 with a double self-loop; then the
-- data movement of the example with sendrecv (MPI_SENDRECV_REPLACE).
local t = require("lumpi.test")
t.np = {8}

local w = mpi.COMM_WORLD
local me = w:rank()

local index = {3, 6, 9, 12, 15, 18, 21, 24}
local edges = {1, 0, 0, 0, 2, 4, 3, 4, 1, 2, 6, 5, 5, 1, 2, 4, 3, 6, 7, 5, 3, 6, 7, 7}

-- serial oracle from the bit operations of the example
local function exchange(r) return r ~ 1 end
local function shuffle(r) return ((r << 1) & 7) | (r >> 2) end    -- a2 a3 a1
local function unshuffle(r) return (r >> 1) | ((r & 1) << 2) end  -- a3 a1 a2

t.case("Example 7.6: the neighbour table is exchange, shuffle, unshuffle", function()
  local g = w:graph_create(index, edges, false)
  t.eq({g:graphdims_get()}, {8, 24})
  for r = 0, 7 do
    t.eq(g:graph_neighbors_count(r), 3)
    t.eq(g:graph_neighbors(r), {exchange(r), shuffle(r), unshuffle(r)}, "node " .. r)
  end
  t.eq(g:graph_neighbors(0), {1, 0, 0}, "node 0 has a double self-loop")
  t.eq(g:graph_neighbors(7), {6, 7, 7}, "node 7 too")
end)

t.case("Example 7.6: exchange, then shuffle, then unshuffle the data", function()
  local g = w:graph_create(index, edges, false)
  local nb = g:graph_neighbors(me)
  local a = me
  -- exchange: send to and receive from neighbors(1)
  a = g:sendrecv(a, nb[1], 0, nb[1], 0)
  t.eq(a, exchange(me))
  t.same_everywhere(true)
  t.eq(g:allgather(a), {1, 0, 3, 2, 5, 4, 7, 6})
  -- shuffle: send to neighbors(2), receive from neighbors(3)
  a = g:sendrecv(a, nb[2], 0, nb[3], 0)
  t.eq(a, exchange(unshuffle(me)))
  t.eq(g:allgather(a), {1, 5, 0, 4, 3, 7, 2, 6})
  -- unshuffle: send to neighbors(3), receive from neighbors(2)
  a = g:sendrecv(a, nb[3], 0, nb[2], 0)
  t.eq(g:allgather(a), {1, 0, 3, 2, 5, 4, 7, 6})
end)
