-- tests/scenarios/topo_ineighbor.lua: the nonblocking neighbourhood
-- collectives c:ineighbor_allgather and c:ineighbor_alltoall (MPI-3.1
-- §7.7): each returns a request whose wait gives what the blocking form
-- (§7.6) gives, on Cartesian grids (periodic and not, extents 1 and 2
-- where the -1 block lands in the +1 slot), graphs with repeated edges and
-- distributed graphs with unequal in- and out-degrees; several pending at
-- once, mixed with blocking ones (they never match each other); errors at
-- the call, before anything is sent.
local t = require("lumpi.test")
t.np = {1, 2, 3, 4, 5, 7}

local w = mpi.COMM_WORLD
local n, me = w:size(), w:rank()

-- One value per out-slot k, different per slot and per sender.
local function values(outdeg)
  local v = {}
  for k = 1, outdeg do v[k] = {from = me, slot = k} end
  return v
end

local function outdegree(c)
  local kind = c:topo_test()
  if kind == mpi.CART then return 2 * c:cartdim_get() end
  if kind == mpi.GRAPH then return c:graph_neighbors_count(me) end
  local _, out = c:dist_graph_neighbors_count()
  return out
end

-- The nonblocking forms, started together, agree with the blocking ones.
local function agree(c, what)
  local vals = values(outdegree(c))
  local g, a = c:neighbor_allgather({me, "g"}), c:neighbor_alltoall(vals)
  local rg, ra = c:ineighbor_allgather({me, "g"}), c:ineighbor_alltoall(vals)
  t.eq(ra:wait(), a, "ineighbor_alltoall on " .. what)
  t.eq(rg:wait(), g, "ineighbor_allgather on " .. what)
  return g, a
end

t.case("Cartesian grids, periodic and not, agree with the blocking forms", function()
  agree(w:cart_create({n}, {true}), "a ring")
  local g = agree(w:cart_create({n}, {false}), "a line")
  if me == 0 then t.eq(g[1], nil) end  -- PROC_NULL: nil
  agree(w:cart_create(mpi.dims_create(n, 2), {true, false}), "a 2-d grid")
  agree(w:cart_create({1, n, 1}, {true, false, true}), "extents of 1")
  if n % 2 == 0 then agree(w:cart_create({2, n // 2}, {true, true}), "an extent of 2") end
end)

t.case("a ring of one or two: the -1 block lands in the +1 slot", function()
  if n > 2 then t.skip("needs 1 or 2 processes") end
  local c = w:cart_create({n}, {true})
  local other = (me + 1) % n
  local r = c:ineighbor_alltoall({"down from " .. me, "up from " .. me})
  t.eq(r:wait(), {"up from " .. other, "down from " .. other})
end)

t.case("a graph with repeated edges and self-loops agrees", function()
  local index, edges = {}, {}
  for i = 0, n - 1 do
    for _, e in ipairs({(i + 1) % n, i, (i + 1) % n, (i - 1) % n, (i - 1) % n}) do edges[#edges + 1] = e end
    index[#index + 1] = #edges
  end
  local g = agree(w:graph_create(index, edges), "a graph")
  t.eq(#g, 5)
end)

t.case("a dist graph with unequal in- and out-degrees agrees", function()
  -- rank i receives from every lower rank and sends to every higher one
  local srcs, dsts = {}, {}
  for j = 0, n - 1 do
    if j < me then srcs[#srcs + 1] = j end
    if j > me then dsts[#dsts + 1] = j end
  end
  local c = w:dist_graph_create_adjacent(srcs, dsts)
  local g, a = agree(c, "a dist graph")
  t.eq(#g, me)
  for k, s in ipairs(srcs) do
    t.eq(g[k], {s, "g"})
    t.eq(a[k], {from = s, slot = me - s})
  end
end)

t.case("several pending, mixed with blocking ones, complete in any order", function()
  local c = w:cart_create({n}, {true})
  local left, right = (me - 1) % n, (me + 1) % n
  local rs = {}
  for i = 1, 4 do rs[i] = c:ineighbor_allgather(me * 10 + i) end
  t.eq(c:neighbor_allgather(me), {left, right})  -- a blocking one between
  local b = c:ineighbor_alltoall({"l" .. me, "r" .. me})
  t.eq(b:wait(), {"r" .. left, "l" .. right})
  local got = mpi.waitall({rs[4], rs[2], rs[3], rs[1]})
  t.eq(got, {{left * 10 + 4, right * 10 + 4}, {left * 10 + 2, right * 10 + 2},
             {left * 10 + 3, right * 10 + 3}, {left * 10 + 1, right * 10 + 1}})
end)

t.case("errors at the call: no topology, bad values; nothing was sent", function()
  t.raises(function() w:ineighbor_allgather(1) end, "MPI_ERR_TOPOLOGY")
  local e = t.raises(function() w:ineighbor_alltoall({}) end, "MPI_ERR_TOPOLOGY")
  t.eq(e.func, "MPI_Ineighbor_alltoall")
  local c = w:cart_create({n}, {true})
  e = t.raises(function() c:ineighbor_alltoall({1, 2, 3}) end, "MPI_ERR_ARG")
  t.ok(e.message:find("2 out%-neighbours"), e.message)
  t.raises(function() c:ineighbor_alltoall(5) end, "MPI_ERR_ARG")
  t.raises(function() c:ineighbor_allgather(print) end, "MPI_ERR_TYPE")
  if n >= 2 then
    local half = w:split(me % 2, me)
    local inter = half:intercomm_create(0, w, me % 2 == 0 and 1 or 0, 9)
    t.raises(function() inter:ineighbor_allgather(1) end, "MPI_ERR_TOPOLOGY")
  end
  t.eq(c:ineighbor_allgather(me):wait(), {(me - 1) % n, (me + 1) % n})
end)
