-- tests/scenarios/topo_dist_graph.lua: distributed graphs (seed §7.5.4,
-- §7.5.5): both constructors, edges given by any process, duplicates,
-- weights, MPI_UNWEIGHTED, mpi.WEIGHTS_EMPTY, info and reorder, isolated
-- processes, a stable query order, and every erroneous case. The oracle
-- is the full edge list, built serially on every rank.
local t = require("lumpi.test")
t.np = {1, 2, 3, 4, 7}

local w = mpi.COMM_WORLD
local n, me = w:size(), w:rank()

-- "peer:weight" strings, sorted: a multiset that t.eq can compare.
local function multiset(peers, weights)
  local out = {}
  for k, p in ipairs(peers) do out[k] = p .. ":" .. (weights and weights[k] or "-") end
  table.sort(out)
  return out
end

-- From a list of edges {s, d, weight}: my in- and out-multisets.
local function expected(edges, weighted)
  local ins, inw, outs, outw = {}, {}, {}, {}
  for _, e in ipairs(edges) do
    if e[1] == me then outs[#outs + 1], outw[#outw + 1] = e[2], e[3] end
    if e[2] == me then ins[#ins + 1], inw[#inw + 1] = e[1], e[3] end
  end
  return multiset(ins, weighted and inw), multiset(outs, weighted and outw), #ins, #outs
end

local function check_graph(c, edges, weighted)
  t.eq(c:topo_test(), mpi.DIST_GRAPH)
  t.eq(c:size(), n, "a dist graph has the size of its parent")
  t.eq(c:rank(), me)
  local want_in, want_out, indeg, outdeg = expected(edges, weighted)
  local i, o, wt = c:dist_graph_neighbors_count()
  t.eq({i, o, wt}, {indeg, outdeg, weighted})
  local s, sw, d, dw = c:dist_graph_neighbors()
  t.eq(multiset(s, sw), want_in)
  t.eq(multiset(d, dw), want_out)
  if not weighted then
    t.eq(sw, nil, "no source weights when unweighted")
    t.eq(dw, nil, "no destination weights when unweighted")
  end
  -- the same sequence on every call (§7.5.5)
  t.eq({c:dist_graph_neighbors()}, {s, sw, d, dw})
end

t.case("the sentinels are distinct values that print their names", function()
  t.ok(mpi.UNWEIGHTED ~= nil and mpi.WEIGHTS_EMPTY ~= nil)
  t.ok(mpi.UNWEIGHTED ~= mpi.WEIGHTS_EMPTY)
  t.eq(tostring(mpi.UNWEIGHTED), "mpi.UNWEIGHTED")
  t.eq(tostring(mpi.WEIGHTS_EMPTY), "mpi.WEIGHTS_EMPTY")
end)

t.case("adjacent: a weighted ring, each edge listed at both ends", function()
  local left, right = (me - 1) % n, (me + 1) % n
  local c = w:dist_graph_create_adjacent({left}, {right},
    {sourceweights = {left + 100}, destweights = {me + 100}})
  local edges = {}
  for p = 0, n - 1 do edges[#edges + 1] = {p, (p + 1) % n, p + 100} end
  check_graph(c, edges, true)
  local s, sw, d, dw = c:dist_graph_neighbors()
  t.eq({s, sw, d, dw}, {{left}, {left + 100}, {right}, {me + 100}}, "creation order kept")
end)

t.case("adjacent: unweighted, with explicit mpi.UNWEIGHTED and with omitted weights", function()
  local left, right = (me - 1) % n, (me + 1) % n
  local edges = {}
  for p = 0, n - 1 do edges[#edges + 1] = {p, (p + 1) % n} end
  check_graph(w:dist_graph_create_adjacent({left}, {right}), edges, false)
  check_graph(w:dist_graph_create_adjacent({left}, {right},
    {sourceweights = mpi.UNWEIGHTED, destweights = mpi.UNWEIGHTED, reorder = true}), edges, false)
end)

t.case("isolated processes: every process with no edges", function()
  check_graph(w:dist_graph_create_adjacent({}, {}), {}, false)
  check_graph(w:dist_graph_create({}, {}, {}), {}, false)
  check_graph(w:dist_graph_create_adjacent({}, {},
    {sourceweights = mpi.WEIGHTS_EMPTY, destweights = {}}), {}, true)
end)

t.case("dist_graph_create: each process gives edges between other processes", function()
  -- process p specifies p+1 -> p+2 (weight p) and p+1 -> p (weight 2p+1)
  local a, b, c0 = (me + 1) % n, (me + 2) % n, me
  local c = w:dist_graph_create({a}, {2}, {b, c0}, {weights = {me, 2 * me + 1}})
  local edges = {}
  for p = 0, n - 1 do
    edges[#edges + 1] = {(p + 1) % n, (p + 2) % n, p}
    edges[#edges + 1] = {(p + 1) % n, p, 2 * p + 1}
  end
  check_graph(c, edges, true)
end)

t.case("dist_graph_create: the whole graph given by the last process", function()
  local edges, sources, degrees, dests, weights = {}, {}, {}, {}, {}
  for p = 0, n - 1 do
    sources[#sources + 1] = p
    degrees[#degrees + 1] = 2
    for _, q in ipairs({(p + 1) % n, (p * 3) % n}) do
      dests[#dests + 1] = q
      weights[#weights + 1] = p * 10 + q
      edges[#edges + 1] = {p, q, p * 10 + q}
    end
  end
  local c
  if me == n - 1 then
    c = w:dist_graph_create(sources, degrees, dests, {weights = weights})
  else
    c = w:dist_graph_create({}, {}, {}, {weights = mpi.WEIGHTS_EMPTY})
  end
  check_graph(c, edges, true)
end)

t.case("dist_graph_create: the same edge from every process is counted every time", function()
  local c = w:dist_graph_create({0}, {1}, {n - 1})
  local edges = {}
  for _ = 1, n do edges[#edges + 1] = {0, n - 1} end
  check_graph(c, edges, false)
  if me == 0 then t.eq(select(2, c:dist_graph_neighbors_count()), n) end
end)

t.case("dist_graph_create: repeated sources and self-loops in one call", function()
  local c = w:dist_graph_create({me, me, me}, {1, 0, 2}, {me, (me + 1) % n, me},
    {weights = {1, 2, 3}, info = {mpi_hint = "x"}, reorder = false})
  local edges = {}
  for p = 0, n - 1 do
    edges[#edges + 1] = {p, p, 1}
    edges[#edges + 1] = {p, (p + 1) % n, 2}
    edges[#edges + 1] = {p, p, 3}
  end
  check_graph(c, edges, true)
end)

t.case("a degree-0 process may omit weights of a weighted graph (documented consensus)", function()
  local c
  if me == 0 then
    c = w:dist_graph_create({0}, {1}, {n - 1}, {weights = {7}})
  else
    c = w:dist_graph_create({}, {}, {})  -- no edges: neutral
  end
  check_graph(c, {{0, n - 1, 7}}, true)
end)

t.case("mpi.UNWEIGHTED on a process with edges of a weighted graph fails everywhere", function()
  if n < 2 then t.skip("needs 2 processes") end
  local e = t.raises(function()
    if me == 0 then
      w:dist_graph_create({0}, {1}, {1}, {weights = {1}})
    else
      w:dist_graph_create({me}, {1}, {0})
    end
  end, "MPI_ERR_ARG")
  t.ok(e.message:find("UNWEIGHTED"), e.message)
end)

t.case("adjacent: inconsistent edge lists fail on every process", function()
  if n < 2 then t.skip("needs 2 processes") end
  -- 0 claims an out-edge to 1 that 1 does not list as an in-edge
  local e = t.raises(function()
    w:dist_graph_create_adjacent({}, me == 0 and {1} or {})
  end, "MPI_ERR_ARG")
  t.ok(e.message:find("0 %-> 1"), e.message)
  -- listed at both ends, but with different weights
  t.raises(function()
    if me == 0 then
      w:dist_graph_create_adjacent({}, {1}, {sourceweights = {}, destweights = {5}})
    elseif me == 1 then
      w:dist_graph_create_adjacent({0}, {}, {sourceweights = {6}, destweights = {}})
    else
      w:dist_graph_create_adjacent({}, {}, {sourceweights = {}, destweights = {}})
    end
  end, "MPI_ERR_ARG")
end)

t.case("reorder and info must be the same on every process", function()
  if n < 2 then t.skip("needs 2 processes") end
  t.raises(function() w:dist_graph_create_adjacent({}, {}, {reorder = me == 0}) end, "MPI_ERR_ARG")
  t.raises(function()
    w:dist_graph_create({}, {}, {}, {info = {mpi_key = tostring(me)}})
  end, "MPI_ERR_INFO")
end)

t.case("locally detectable errors are raised before any communication", function()
  -- each process alone: if these communicated, the others would block
  local adj = function(...) return w:dist_graph_create_adjacent(...) end
  local gen = function(...) return w:dist_graph_create(...) end
  t.raises(function() adj({n}, {}) end, "MPI_ERR_RANK")
  t.raises(function() adj({}, {-1}) end, "MPI_ERR_RANK")
  t.raises(function() adj({}, {mpi.PROC_NULL}) end, "MPI_ERR_RANK")
  t.raises(function() adj({0}, {}, {sourceweights = {1, 2}, destweights = {}}) end, "MPI_ERR_ARG")
  t.raises(function() adj({0}, {}, {sourceweights = {-1}, destweights = {}}) end, "MPI_ERR_ARG")
  t.raises(function() adj({0}, {}, {sourceweights = {1}}) end, "MPI_ERR_ARG")  -- one side weighted
  t.raises(function() adj({0}, {}, {sourceweights = mpi.WEIGHTS_EMPTY, destweights = {}}) end, "MPI_ERR_ARG")
  t.raises(function() adj({}, {}, {weights = {}}) end, "MPI_ERR_ARG")  -- misspelt option
  t.raises(function() adj({}, {}, {info = {a = 1}}) end, "MPI_ERR_INFO")
  t.raises(function() adj({}, {}, {reorder = "no"}) end, "MPI_ERR_ARG")
  t.raises(function() adj({}, {}, 5) end, "MPI_ERR_ARG")
  t.raises(function() gen({0}, {1}, {}) end, "MPI_ERR_ARG")       -- sum(degrees) ~= #destinations
  t.raises(function() gen({0}, {}, {}) end, "MPI_ERR_ARG")        -- #degrees ~= #sources
  t.raises(function() gen({0}, {-1}, {}) end, "MPI_ERR_ARG")      -- negative degree
  t.raises(function() gen({n}, {0}, {}) end, "MPI_ERR_RANK")
  t.raises(function() gen({0}, {1}, {n}) end, "MPI_ERR_RANK")
  t.raises(function() gen({0}, {1}, {0}, {weights = {}}) end, "MPI_ERR_ARG")
  t.raises(function() gen({0}, {1}, {0}, {weights = mpi.WEIGHTS_EMPTY}) end, "MPI_ERR_ARG")
  t.raises(function() gen({0}, {1}, {0}, {weights = {-3}}) end, "MPI_ERR_ARG")
  t.raises(function() gen({0}, {1}, {0}, {sourceweights = {1}}) end, "MPI_ERR_ARG")
  -- the world is fine afterwards
  t.eq(#w:allgather(me), n)
end)

t.case("dup keeps the distributed graph; split drops it; it is not a graph", function()
  local c = w:dist_graph_create_adjacent({(me - 1) % n}, {(me + 1) % n})
  local d = c:dup()
  t.eq(d:topo_test(), mpi.DIST_GRAPH)
  t.eq({d:dist_graph_neighbors()}, {c:dist_graph_neighbors()})
  t.eq(c:split(0, me):topo_test(), mpi.UNDEFINED)
  t.raises(function() c:graph_neighbors(0) end, "MPI_ERR_TOPOLOGY")
  t.raises(function() c:graphdims_get() end, "MPI_ERR_TOPOLOGY")
  t.raises(function() c:cart_shift(0, 1) end, "MPI_ERR_TOPOLOGY")
  t.raises(function() w:dist_graph_neighbors() end, "MPI_ERR_TOPOLOGY")
  t.raises(function() w:dist_graph_neighbors_count() end, "MPI_ERR_TOPOLOGY")
end)
