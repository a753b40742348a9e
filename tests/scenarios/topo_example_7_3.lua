-- tests/scenarios/topo_example_7_3.lua: seed Example 7.3, the graph of
-- Example 7.2 built as a distributed graph three ways (each process its
-- out-edges; the whole graph on process 0; adjacent lists), each weighted
-- and with MPI_UNWEIGHTED; all six must describe the same graph.
local t = require("lumpi.test")
t.np = {4}

local w = mpi.COMM_WORLD
local me = w:rank()
local adj = {{1, 3}, {0}, {3}, {0, 2}}  -- symmetric: in-lists equal out-lists
local ones = function(k) local o = {} for i = 1, k do o[i] = 1 end return o end

local function sorted(v) local c = {table.unpack(v)} table.sort(c) return c end

local function check(c, weighted)
  t.eq(c:topo_test(), mpi.DIST_GRAPH)
  t.eq(c:size(), 4)
  t.eq(c:rank(), me)
  local deg = #adj[me + 1]
  t.eq({c:dist_graph_neighbors_count()}, {deg, deg, weighted})
  local s, sw, d, dw = c:dist_graph_neighbors()
  t.eq(sorted(s), adj[me + 1])
  t.eq(sorted(d), adj[me + 1])
  if weighted then
    t.eq(sw, ones(deg))
    t.eq(dw, ones(deg))
  else
    t.eq(sw, nil)
    t.eq(dw, nil)
  end
  t.eq({c:dist_graph_neighbors()}, {s, sw, d, dw}, "the same sequence twice")
  return s, d
end

local function opts(weighted, key, value)
  if not weighted then return nil end
  return {[key] = value}
end

for _, weighted in ipairs({true, false}) do
  local tag = weighted and "" or " with mpi.UNWEIGHTED"
  t.case("(a) each process gives its own out-edges" .. tag, function()
    local out = adj[me + 1]
    local c = w:dist_graph_create({me}, {#out}, out, opts(weighted, "weights", ones(#out)))
    check(c, weighted)
  end)

  t.case("(b) process 0 gives the whole graph, the others nothing" .. tag, function()
    local c
    if me == 0 then
      c = w:dist_graph_create({0, 1, 2, 3}, {2, 1, 1, 2}, {1, 3, 0, 3, 0, 2},
        opts(weighted, "weights", ones(6)))
    else
      c = w:dist_graph_create({}, {}, {}, opts(weighted, "weights", mpi.WEIGHTS_EMPTY))
    end
    check(c, weighted)
  end)

  t.case("(c) adjacent in- and out-lists" .. tag, function()
    local l = adj[me + 1]
    local o = weighted and {sourceweights = ones(#l), destweights = ones(#l)} or
              {sourceweights = mpi.UNWEIGHTED, destweights = mpi.UNWEIGHTED}
    local c = w:dist_graph_create_adjacent(l, l, o)
    local s, d = check(c, weighted)
    t.eq(s, l, "adjacent keeps the creation order")
    t.eq(d, l)
  end)
end

t.case("the three constructions exchange the same data with neighbours", function()
  local out = adj[me + 1]
  local a = w:dist_graph_create({me}, {#out}, out)
  local c = w:dist_graph_create_adjacent(out, out)
  t.eq(sorted(a:neighbor_allgather(me)), out)
  t.eq(sorted(c:neighbor_allgather(me)), out)
end)
