-- tests/scenarios/topo_example_7_4.lua: seed Example 7.4, a P x Q torus
-- with diagonal edges given by MPI_DIST_GRAPH_CREATE (weight 2 along the
-- axes, 1 on the diagonals; the printed code's weight indices are off by
-- one, reference A3, so the intended weights are used). Runs at P*Q = 9
-- (3x3), 8 (4x2, whose y-neighbours coincide: multi-edges) and 4 (2x2).
local t = require("lumpi.test")
t.np = {4, 8, 9}

local w = mpi.COMM_WORLD
local me, np = w:rank(), w:size()
local P = ({[4] = 2, [8] = 4, [9] = 3})[np]
local Q = np // P

local function destinations(rank)
  local x, y = rank % P, rank // P
  return {
    P * y + (x + 1) % P, P * y + (P + x - 1) % P,
    P * ((y + 1) % Q) + x, P * ((Q + y - 1) % Q) + x,
    P * ((y + 1) % Q) + (x + 1) % P, P * ((Q + y - 1) % Q) + (x + 1) % P,
    P * ((y + 1) % Q) + (P + x - 1) % P, P * ((Q + y - 1) % Q) + (P + x - 1) % P,
  }
end
local weights = {2, 2, 2, 2, 1, 1, 1, 1}

local function multiset(peers, ws)
  local o = {}
  for k, p in ipairs(peers) do o[k] = p .. ":" .. ws[k] end
  table.sort(o)
  return o
end

local function pairs_text(list)  -- {"5:2", ...} from {{5,2}, ...}
  local o = {}
  for k, e in ipairs(list) do o[k] = e[1] .. ":" .. e[2] end
  table.sort(o)
  return o
end

t.case("Example 7.4: every process has in- and out-degree 8, weighted", function()
  local c = w:dist_graph_create({me}, {8}, destinations(me), {weights = weights, reorder = true})
  t.eq(c:topo_test(), mpi.DIST_GRAPH)
  t.eq(c:rank(), me, "reorder is honoured as the identity")
  t.eq({c:dist_graph_neighbors_count()}, {8, 8, true})
  local s, sw, d, dw = c:dist_graph_neighbors()
  t.eq(multiset(d, dw), multiset(destinations(me), weights))
  -- serial oracle for the in-edges: every rank's out-edges that end here
  local ins, inw = {}, {}
  for r = 0, np - 1 do
    for k, q in ipairs(destinations(r)) do
      if q == me then ins[#ins + 1], inw[#inw + 1] = r, weights[k] end
    end
  end
  t.eq(multiset(s, sw), multiset(ins, inw))
end)

t.case("Example 7.4: the values listed in the checklist", function()
  local c = w:dist_graph_create({me}, {8}, destinations(me), {weights = weights})
  local s, sw, d, dw = c:dist_graph_neighbors()
  local want = ({
    [9] = {[4] = {out = {{5,2},{3,2},{7,2},{1,2},{8,1},{2,1},{6,1},{0,1}},
                  ins = {{1,2},{3,2},{5,2},{7,2},{0,1},{2,1},{6,1},{8,1}}},
           [0] = {out = {{1,2},{2,2},{3,2},{6,2},{4,1},{7,1},{5,1},{8,1}},
                  ins = {{1,2},{2,2},{3,2},{6,2},{4,1},{5,1},{7,1},{8,1}}}},
    [8] = {[0] = {out = {{1,2},{3,2},{4,2},{4,2},{5,1},{5,1},{7,1},{7,1}},
                  ins = {{1,2},{3,2},{4,2},{4,2},{5,1},{5,1},{7,1},{7,1}}},
           [5] = {out = {{6,2},{4,2},{1,2},{1,2},{2,1},{2,1},{0,1},{0,1}},
                  ins = {{0,1},{0,1},{1,2},{1,2},{2,1},{2,1},{4,2},{6,2}}}},
    [4] = {[0] = {out = {{1,2},{1,2},{2,2},{2,2},{3,1},{3,1},{3,1},{3,1}}}},
  })[np][me]
  if not want then return end
  t.eq(multiset(d, dw), pairs_text(want.out))
  if want.ins then t.eq(multiset(s, sw), pairs_text(want.ins)) end
end)

t.case("Example 7.4: a neighbourhood exchange over the torus", function()
  local c = w:dist_graph_create({me}, {8}, destinations(me), {weights = weights})
  local s = c:dist_graph_neighbors()
  local got = c:neighbor_allgather(me)
  t.eq(got, s, "each in-neighbour's value, in dist_graph_neighbors order")
end)
