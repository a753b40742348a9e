-- tests/scenarios/topo_cart.lua: Cartesian topologies (seed §7.5.1, §7.5.5 to
-- §7.5.8) and the MPI-2.1 ballot clarifications (item 10): creation, queries,
-- shifts, sub-grids, maps, zero dimensions and every erroneous case.
-- Expected values come from a serial row-major oracle written here.
local t = require("lumpi.test")
t.np = {1, 2, 3, 4, 6, 7}

local w = mpi.COMM_WORLD
local n, me = w:size(), w:rank()

-- ---- oracle --------------------------------------------------------------------

local function product(dims)
  local p = 1
  for _, d in ipairs(dims) do p = p * d end
  return p
end

-- row-major coordinates of rank r (last dimension fastest)
local function coords_of(dims, r)
  local c = {}
  for i = #dims, 1, -1 do
    c[i] = r % dims[i]
    r = r // dims[i]
  end
  return c
end

local function rank_of(dims, c)
  local r = 0
  for i = 1, #dims do r = r * dims[i] + c[i] end
  return r
end

-- ---- creation and queries ---------------------------------------------------------------

t.case("a grid that fills the world numbers its processes row-major", function()
  for _, nd in ipairs({1, 2, 3}) do
    local dims = mpi.dims_create(n, nd)
    local periods = {}
    for i = 1, nd do periods[i] = (i % 2 == 1) end
    local c = w:cart_create(dims, periods)
    t.ok(c, "every process is in a grid that fills the world")
    t.eq(c:size(), n)
    t.eq(c:rank(), me, "reorder = false keeps the ranks")
    t.eq(c:topo_test(), mpi.CART)
    t.eq(c:cartdim_get(), nd)
    local gd, gp, gc = c:cart_get()
    t.eq(gd, dims)
    t.eq(gp, periods)
    t.eq(gc, coords_of(dims, me))
    for r = 0, n - 1 do
      t.eq(c:cart_coords(r), coords_of(dims, r), "cart_coords(" .. r .. ")")
      t.eq(c:cart_rank(coords_of(dims, r)), r, "cart_rank inverts cart_coords")
    end
    c:free()
  end
end)

t.case("§7.2: a 2x2 grid is (0,0) (0,1) (1,0) (1,1)", function()
  if n < 4 then t.skip("needs 4 processes") end
  local c = w:cart_create({2, 2}, {false, false})
  if me >= 4 then t.eq(c, nil) return end
  local want = {{0, 0}, {0, 1}, {1, 0}, {1, 1}}
  for r = 0, 3 do t.eq(c:cart_coords(r), want[r + 1]) end
  local _, _, coords = c:cart_get()
  t.eq(coords, want[me + 1])
end)

t.case("periods default to all false and reorder to false", function()
  local c = w:cart_create({n})
  local dims, periods, coords = c:cart_get()
  t.eq(dims, {n})
  t.eq(periods, {false})
  t.eq(coords, {me})
end)

t.case("reorder = true keeps the ranks (identity mapping, documented)", function()
  local c = w:cart_create({n}, {true}, true)
  t.eq(c:rank(), me)
  t.eq(c:size(), n)
end)

t.case("processes beyond the grid get nil, the lowest ranks form it", function()
  for size = 1, n do
    local c = w:cart_create({size}, {false})
    if me < size then
      t.ok(c, "rank " .. me .. " is in a grid of " .. size)
      t.eq(c:size(), size)
      t.eq(c:rank(), me)
      t.eq(c:group():translate_ranks({me}, w:group()), {me})
    else
      t.eq(c, nil, "rank " .. me .. " is beyond a grid of " .. size)
    end
  end
end)

t.case("a grid is an ordinary communicator for point-to-point and collectives", function()
  local c = w:cart_create({n}, {true})
  local _, dest = c:cart_shift(0, 1)
  local src = c:cart_shift(0, 1)
  local got = c:sendrecv(me * 10, dest, 5, src, 5)
  t.eq(got, src * 10)
  t.eq(c:allgather(me), (function() local a = {} for r = 0, n - 1 do a[r + 1] = r end return a end)())
  c:barrier()
end)

-- ---- zero dimensions (ballot 10.a to 10.d) ---------------------------------------------

local function check_zero_dim(c)
  t.eq(c:size(), 1)
  t.eq(c:rank(), 0)
  t.eq(c:topo_test(), mpi.CART)
  t.eq(c:cartdim_get(), 0)
  local d, p, co = c:cart_get()
  t.eq(d, {})
  t.eq(p, {})
  t.eq(co, {})
  t.eq(c:cart_rank({}), 0, "coords is not significant")
  t.eq(c:cart_rank(nil), 0)
  t.eq(c:cart_rank({5, 7}), 0)
  t.eq(c:cart_coords(0), {})
  t.raises(function() c:cart_coords(1) end, "MPI_ERR_RANK")
  t.raises(function() c:cart_shift(0, 1) end, "MPI_ERR_ARG")
  t.raises(function() c:cart_shift(-1, 0) end, "MPI_ERR_ARG")
  c:barrier()
  t.eq(c:bcast("x", 0), "x")
end

t.case("ndims = 0 makes a zero-dimensional grid for rank 0 alone", function()
  local c = w:cart_create({}, {}, false)
  if me == 0 then check_zero_dim(c) else t.eq(c, nil) end
  local c2 = w:cart_create()  -- dims and periods may be omitted
  if me == 0 then check_zero_dim(c2) else t.eq(c2, nil) end
end)

t.case("cart_create with ndims = 0 on COMM_SELF succeeds everywhere", function()
  local c = mpi.COMM_SELF:cart_create({}, {})
  t.ok(c)
  check_zero_dim(c)
end)

t.case("cart_sub with all remain_dims false leaves each process alone in 0 dims", function()
  local c = w:cart_create(mpi.dims_create(n, 2), {true, false})
  local s = c:cart_sub({false, false})
  t.ok(s, "every process gets a communicator")
  check_zero_dim(s)
  -- cart_sub of a zero-dimensional grid is zero-dimensional; remain_dims unread
  check_zero_dim(s:cart_sub(nil))
  check_zero_dim(s:cart_sub({}))
  check_zero_dim(s:cart_sub({true, true, true}))
end)

t.case("dims_create(1, 0) gives an empty sequence usable by cart_create", function()
  t.eq(mpi.dims_create(1, 0), {})
  t.eq(mpi.dims_create(1, {}), {})
  t.raises(function() mpi.dims_create(2, 0) end, "MPI_ERR_DIMS")
end)

-- ---- rank / coords ----------------------------------------------------------------------

t.case("cart_rank wraps periodic coordinates of any magnitude", function()
  local dims = mpi.dims_create(n, 2)
  local c = w:cart_create(dims, {true, true})
  for _, delta in ipairs({-7 * dims[1], -dims[1], -1, 0, 1, dims[1], dims[1] + 1, 5 * dims[1] + 2}) do
    for r = 0, n - 1 do
      local co = coords_of(dims, r)
      local moved = {co[1] + delta, co[2] - 3 * delta}
      local want = rank_of(dims, {moved[1] % dims[1], moved[2] % dims[2]})
      t.eq(c:cart_rank(moved), want)
    end
  end
end)

t.case("cart_rank rejects a non-periodic coordinate out of range", function()
  local dims = mpi.dims_create(n, 2)
  local c = w:cart_create(dims, {false, true})
  local e = t.raises(function() c:cart_rank({dims[1], 0}) end, "MPI_ERR_ARG")
  t.eq(e.func, "MPI_Cart_rank")
  t.ok(e.message:find("coords%[1%] = " .. dims[1]), e.message)
  t.raises(function() c:cart_rank({-1, 0}) end, "MPI_ERR_ARG")
  t.eq(c:cart_rank({0, -1}), dims[2] - 1, "the periodic dimension still wraps")
  t.raises(function() c:cart_rank({0}) end, "MPI_ERR_ARG")
  t.raises(function() c:cart_rank({0, 0, 0}) end, "MPI_ERR_ARG")
  t.raises(function() c:cart_rank({0, 0.5}) end, "MPI_ERR_ARG")
end)

t.case("cart_coords rejects a rank outside the communicator", function()
  local c = w:cart_create({n})
  t.raises(function() c:cart_coords(n) end, "MPI_ERR_RANK")
  t.raises(function() c:cart_coords(-1) end, "MPI_ERR_RANK")
  t.raises(function() c:cart_coords(mpi.PROC_NULL) end, "MPI_ERR_RANK")
  t.raises(function() c:cart_coords("x") end, "MPI_ERR_ARG")
end)

-- ---- shift ------------------------------------------------------------------------------

t.case("cart_shift on rings and lines: +1, -1, 0, and past the ends", function()
  for _, periodic in ipairs({true, false}) do
    local c = w:cart_create({n}, {periodic})
    for _, disp in ipairs({1, -1, 0, 2, -3, n, n + 1, -2 * n}) do
      local src, dst = c:cart_shift(0, disp)
      local function at(x)
        if periodic then return x % n end
        if x < 0 or x >= n then return mpi.PROC_NULL end
        return x
      end
      t.eq(src, at(me - disp), "source of disp " .. disp)
      t.eq(dst, at(me + disp), "dest of disp " .. disp)
    end
  end
end)

t.case("cart_shift moves along one dimension only", function()
  local dims = mpi.dims_create(n, 3)
  local c = w:cart_create(dims, {true, false, true})
  local co = coords_of(dims, me)
  for d = 0, 2 do
    local src, dst = c:cart_shift(d, 1)
    local up, down = {table.unpack(co)}, {table.unpack(co)}
    up[d + 1], down[d + 1] = co[d + 1] + 1, co[d + 1] - 1
    local function r(x)
      if d == 1 and (x[2] < 0 or x[2] >= dims[2]) then return mpi.PROC_NULL end
      return rank_of(dims, {x[1] % dims[1], x[2], x[3] % dims[3]})
    end
    t.eq(src, r(down))
    t.eq(dst, r(up))
  end
end)

t.case("cart_shift rejects a negative direction or one past the last (ballot 10.c)", function()
  local c = w:cart_create(mpi.dims_create(n, 2), {false, false})
  local e = t.raises(function() c:cart_shift(2, 1) end, "MPI_ERR_ARG")
  t.ok(e.message:find("direction = 2"), e.message)
  t.raises(function() c:cart_shift(-1, 1) end, "MPI_ERR_ARG")
  t.raises(function() c:cart_shift(0) end, "MPI_ERR_ARG")
end)

-- ---- cart_sub ---------------------------------------------------------------------------

t.case("cart_sub keeps each kind of dimension with its period, ranks row-major", function()
  local dims = mpi.dims_create(n, 2)
  local periods = {true, false}
  local c = w:cart_create(dims, periods)
  local co = coords_of(dims, me)
  for _, remain in ipairs({{true, false}, {false, true}, {true, true}}) do
    local s = c:cart_sub(remain)
    local kept_dims, kept_periods, kept_coords = {}, {}, {}
    for i = 1, 2 do
      if remain[i] then
        kept_dims[#kept_dims + 1] = dims[i]
        kept_periods[#kept_periods + 1] = periods[i]
        kept_coords[#kept_coords + 1] = co[i]
      end
    end
    t.eq(s:topo_test(), mpi.CART)
    t.eq(s:size(), product(kept_dims))
    t.eq(s:rank(), rank_of(kept_dims, kept_coords))
    local sd, sp, sc = s:cart_get()
    t.eq(sd, kept_dims)
    t.eq(sp, kept_periods)
    t.eq(sc, kept_coords)
    -- members: the world ranks that agree with me on every dropped coordinate
    local members = s:allgather(me)
    for k, wr in ipairs(members) do
      local oc = coords_of(dims, wr)
      for i = 1, 2 do
        if not remain[i] then t.eq(oc[i], co[i], "dropped coordinate agrees") end
      end
      t.eq(k - 1, s:cart_rank((function()
        local kc = {}
        for i = 1, 2 do if remain[i] then kc[#kc + 1] = oc[i] end end
        return kc
      end)()))
    end
  end
end)

t.case("cart_sub rejects remain_dims of the wrong length or type", function()
  local c = w:cart_create(mpi.dims_create(n, 2), {false, false})
  t.raises(function() c:cart_sub({true}) end, "MPI_ERR_ARG")
  t.raises(function() c:cart_sub({true, false, true}) end, "MPI_ERR_ARG")
  t.raises(function() c:cart_sub({1, 0}) end, "MPI_ERR_ARG")
  t.raises(function() c:cart_sub() end, "MPI_ERR_ARG")
end)

-- ---- cart_map ---------------------------------------------------------------------------

t.case("cart_map returns the caller's rank inside the grid and UNDEFINED beyond", function()
  for size = 1, n do
    local got = w:cart_map({size}, {false})
    t.eq(got, me < size and me or mpi.UNDEFINED)
  end
  t.eq(w:cart_map({}), me == 0 and 0 or mpi.UNDEFINED, "zero dims: one process")
  t.raises(function() w:cart_map({n + 1}) end, "MPI_ERR_DIMS")
  t.raises(function() w:cart_map({0}) end, "MPI_ERR_DIMS")
end)

-- ---- erroneous creation -------------------------------------------------------------------

t.case("cart_create rejects a grid larger than the group", function()
  local e = t.raises(function() w:cart_create({n + 1}, {false}) end, "MPI_ERR_ARG")
  t.eq(e.func, "MPI_Cart_create")
  t.ok(e.message:find("dims = (" .. (n + 1) .. ")", 1, true), e.message)
  t.raises(function() w:cart_create({n, 2}, {false, false}) end, "MPI_ERR_ARG")
end)

t.case("cart_create rejects zero and negative extents", function()
  t.raises(function() w:cart_create({0}, {false}) end, "MPI_ERR_DIMS")
  local e = t.raises(function() w:cart_create({1, -2}, {false, false}) end, "MPI_ERR_DIMS")
  t.ok(e.message:find("dims%[2%] = %-2"), e.message)
end)

t.case("cart_create rejects malformed periods, dims and reorder", function()
  t.raises(function() w:cart_create({1}, {false, true}) end, "MPI_ERR_ARG")
  t.raises(function() w:cart_create({1, 1}, {false}) end, "MPI_ERR_ARG")
  t.raises(function() w:cart_create({1}, {1}) end, "MPI_ERR_ARG")
  t.raises(function() w:cart_create({1.5}, {false}) end, "MPI_ERR_ARG")
  t.raises(function() w:cart_create({1}, {false}, "yes") end, "MPI_ERR_ARG")
end)

t.case("cart_create with arguments that differ between processes fails everywhere", function()
  if n < 2 then t.skip("needs 2 processes") end
  local e = t.raises(function() w:cart_create({1}, {me == 0}) end, "MPI_ERR_ARG")
  t.ok(e.message:find("identical"), e.message)
  -- the world is still usable afterwards
  t.eq(#w:allgather(me), n)
end)

t.case("an error handler of ERRORS_RETURN returns nil, err from topology calls", function()
  local c = w:cart_create({n})
  c:set_errhandler(mpi.ERRORS_RETURN)
  local v, err = c:cart_shift(3, 1)
  t.eq(v, nil)
  t.eq(err.class, "MPI_ERR_ARG")
  local v2, err2 = c:graph_neighbors(0)
  t.eq(v2, nil)
  t.eq(err2.class, "MPI_ERR_TOPOLOGY")
end)

-- ---- dup, split and the describe string --------------------------------------------------

t.case("dup keeps the Cartesian topology; split drops it", function()
  local dims = mpi.dims_create(n, 2)
  local c = w:cart_create(dims, {true, false})
  local d = c:dup()
  t.eq(d:topo_test(), mpi.CART)
  local dd, dp, dc = d:cart_get()
  t.eq(dd, dims)
  t.eq(dp, {true, false})
  t.eq(dc, coords_of(dims, me))
  local s = c:split(0, me)
  t.eq(s:topo_test(), mpi.UNDEFINED)
  t.raises(function() s:cart_get() end, "MPI_ERR_TOPOLOGY")
  t.ok(tostring(c):find("topo=cart " .. dims[1] .. "x" .. dims[2], 1, true), tostring(c))
end)

t.case("Cartesian calls on a communicator without that topology raise MPI_ERR_TOPOLOGY", function()
  for _, call in ipairs({
    function() w:cartdim_get() end, function() w:cart_get() end,
    function() w:cart_rank({0}) end, function() w:cart_coords(0) end,
    function() w:cart_shift(0, 1) end, function() w:cart_sub({true}) end,
  }) do
    t.raises(call, "MPI_ERR_TOPOLOGY")
  end
  local g = w:graph_create({0}, {})
  if me == 0 then
    t.raises(function() g:cart_get() end, "MPI_ERR_TOPOLOGY")
    t.raises(function() g:cart_shift(0, 1) end, "MPI_ERR_TOPOLOGY")
  end
end)

t.case("topo_test on world and self is UNDEFINED", function()
  t.eq(w:topo_test(), mpi.UNDEFINED)
  t.eq(mpi.COMM_SELF:topo_test(), mpi.UNDEFINED)
end)

t.case("topology calls on a freed communicator raise MPI_ERR_COMM", function()
  local c = w:cart_create({n}, {true})
  c:free()
  t.raises(function() c:cart_get() end, "MPI_ERR_COMM")
  t.raises(function() c:cart_shift(0, 1) end, "MPI_ERR_COMM")
  t.raises(function() c:neighbor_allgather(1) end, "MPI_ERR_COMM")
  t.raises(function() c:cart_create({1}) end, "MPI_ERR_COMM")
end)
