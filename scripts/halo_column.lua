-- scripts/halo_column.lua: the column halo of a 2-D Cartesian grid with a
-- vector datatype (docs/datatypes.md's worked example; scripts/halo_column.c
-- is the same in C). Each process holds a 3 x 4 block of doubles whose
-- columns 1 and 4 are halos; it sends its inner edge columns to its left and
-- right neighbours and receives theirs into its halos, one column type for
-- both, then rank 0 prints every process's halos.
-- Run: lumpi -n 4 scripts/halo_column.lua
local R, C = 3, 4
local w = mpi.COMM_WORLD
local grid = w:cart_create(mpi.dims_create(w:size(), 2), {true, true})
local me = grid:rank()
local left, right = grid:cart_shift(1, 1)  -- along dimension 1 (0-based): the columns

local a = mpi.buffer(mpi.DOUBLE, R * C)  -- row-major: element (i, j) at (i-1)*C + j
for i = 1, R do
  for j = 1, C do a[(i - 1) * C + j] = (j == 1 or j == C) and -1 or 100 * me + 10 * i + j end
end
local col = mpi.type_vector(R, 1, C, mpi.DOUBLE)
-- column j: the vector moved j - 1 doubles along the row (C's &a[0][j-1])
local function column(j)
  local t = mpi.type_create_hindexed_block(1, {(j - 1) * 8}, col)
  t:commit()
  return t
end
local first_halo, first_inner, last_inner, last_halo = column(1), column(2), column(C - 1), column(C)

-- my last inner column to the right, my left halo from the left; then the mirror image
grid:sendrecv(a, 1, last_inner, right, 0, a, 1, first_halo, left, 0)
grid:sendrecv(a, 1, first_inner, left, 1, a, 1, last_halo, right, 1)

local halos = {}
for i = 1, R do halos[#halos + 1] = math.tointeger(a[(i - 1) * C + 1]) end
for i = 1, R do halos[#halos + 1] = math.tointeger(a[(i - 1) * C + C]) end
local all = grid:gather({left = left, right = right, halos = halos}, 0)
if me == 0 then
  for k, h in ipairs(all) do
    print(string.format("rank %d: left halo from %d: %s | right halo from %d: %s", k - 1, h.left,
      table.concat(h.halos, " ", 1, R), h.right, table.concat(h.halos, " ", R + 1, 2 * R)))
  end
end
