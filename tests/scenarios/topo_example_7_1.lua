-- tests/scenarios/topo_example_7_1.lua: seed Example 7.1 (MPI_DIMS_CREATE)
-- and the rules of §7.5.2: fixed entries kept, the others non-increasing,
-- the same dims as MPICH 4.0.2, and the erroneous inputs. Local: any size.
local t = require("lumpi.test")
t.np = {1, 3}

t.case("Example 7.1: the four calls of the table", function()
  t.eq(mpi.dims_create(6, {0, 0}), {3, 2})
  t.eq(mpi.dims_create(7, {0, 0}), {7, 1})
  t.eq(mpi.dims_create(6, {0, 3, 0}), {2, 3, 1})
  local e = t.raises(function() mpi.dims_create(7, {0, 3, 0}) end, "MPI_ERR_DIMS")
  t.eq(e.func, "MPI_Dims_create")
  t.ok(e.message:find("multiple of 3"), e.message)
end)

t.case("an integer ndims means all entries free; the input table is not modified", function()
  t.eq(mpi.dims_create(6, 2), {3, 2})
  local dims = {0, 0}
  local out = mpi.dims_create(12, dims)
  t.eq(dims, {0, 0})
  t.eq(out, {4, 3})
end)

-- A few rows of reference/dims_create-mpich-4.0.2.txt, including those where
-- "as balanced as possible" metrics disagree (MPICH's answer is the contract).
t.case("the same dims as MPICH 4.0.2", function()
  local rows = {
    {20, {0, 0, 0, 0}, {5, 2, 2, 1}}, {28, {0, 0, 0, 0}, {7, 2, 2, 1}},
    {360, {0, 0, 0}, {10, 6, 6}}, {168, {0, 0, 0, 0}, {7, 4, 3, 2}},
    {12, {0, 0}, {4, 3}}, {16, {0, 0, 0}, {4, 2, 2}}, {64, {0, 0, 0}, {4, 4, 4}},
    {24, {0, 0, 0}, {4, 3, 2}}, {1, {0, 0, 0}, {1, 1, 1}}, {97, {0, 0}, {97, 1}},
    {24, {0, 2, 0}, {4, 2, 3}}, {30, {5, 0, 0}, {5, 3, 2}}, {8, {2, 2, 2}, {2, 2, 2}},
  }
  for _, row in ipairs(rows) do
    t.eq(mpi.dims_create(row[1], row[2]), row[3], "nnodes " .. row[1])
  end
end)

t.case("the entries set by the call are non-increasing and multiply to nnodes", function()
  for nnodes = 1, 60 do
    for nd = 1, 4 do
      local d = mpi.dims_create(nnodes, nd)
      local p = 1
      for i = 1, nd do
        p = p * d[i]
        if i > 1 then t.ok(d[i] <= d[i - 1], "non-increasing for " .. nnodes) end
      end
      t.eq(p, nnodes)
    end
  end
end)

t.case("erroneous inputs raise before computing anything", function()
  t.raises(function() mpi.dims_create(6, {0, -2}) end, "MPI_ERR_DIMS")   -- negative entry
  t.raises(function() mpi.dims_create(8, {3, 0}) end, "MPI_ERR_DIMS")    -- not a multiple
  t.raises(function() mpi.dims_create(8, {2, 2}) end, "MPI_ERR_DIMS")    -- all fixed, product 4
  t.raises(function() mpi.dims_create(4, {8, 0}) end, "MPI_ERR_DIMS")    -- fixed product too big
  t.raises(function() mpi.dims_create(0, 2) end, "MPI_ERR_DIMS")         -- no processes
  t.raises(function() mpi.dims_create(-4, 2) end, "MPI_ERR_ARG")         -- negative nnodes
  t.raises(function() mpi.dims_create(4, -1) end, "MPI_ERR_DIMS")        -- negative ndims
  t.raises(function() mpi.dims_create(4, {0.5}) end, "MPI_ERR_ARG")
  t.raises(function() mpi.dims_create({}, 2) end, "MPI_ERR_ARG")
  t.raises(function() mpi.dims_create(4, "x") end, "MPI_ERR_ARG")
end)
