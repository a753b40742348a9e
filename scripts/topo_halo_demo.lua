-- scripts/topo_halo_demo.lua: a classroom demo of a Cartesian topology
-- (seed Example 7.9): build a periodic 2-D grid from dims_create, show each
-- process's coordinates and neighbours, then swap halo values with
-- neighbor_alltoall. Run: lumpi -n 6 scripts/topo_halo_demo.lua
local w = mpi.COMM_WORLD
local dims = mpi.dims_create(w:size(), 2)
local grid = w:cart_create(dims, {true, true})
local _, _, coords = grid:cart_get()
local up, down = grid:cart_shift(0, 1)
local left, right = grid:cart_shift(1, 1)

-- rank 0 prints the grid: each cell is "world rank (i,j)"
local cells = grid:gather(string.format("%2d (%d,%d)", w:rank(), coords[1], coords[2]), 0)
if grid:rank() == 0 then
  print(string.format("a %dx%d periodic grid:", dims[1], dims[2]))
  for i = 0, dims[1] - 1 do
    local row = {}
    for j = 0, dims[2] - 1 do row[#row + 1] = cells[i * dims[2] + j + 1] end
    print("  " .. table.concat(row, " | "))
  end
end
grid:barrier()

-- neighbour order of MPI-3: (-1, +1) in dimension 0, then in dimension 1
local got = grid:neighbor_alltoall({"from " .. w:rank() .. " going up", "from " .. w:rank() .. " going down",
                                    "from " .. w:rank() .. " going left", "from " .. w:rank() .. " going right"})
print(string.format("rank %d: up=%d down=%d left=%d right=%d; from above: %s; from the left: %s",
  w:rank(), up, down, left, right, got[1], got[3]))
