-- tests/scenarios/topo_example_7_7.lua: seed Example 7.7, the skew of a
-- matrix stored one element per process on a periodic 2-D grid: column j
-- moves down by j with cart_shift(0, coords[2]) and a sendrecv. The Fortran
-- coords(2) is the Lua coords[2], dimension 1 (reference A17). Runs at 9
-- (3x3) and 16 (4x4).
local t = require("lumpi.test")
t.np = {9, 16}

local w = mpi.COMM_WORLD
local me, np = w:rank(), w:size()
local side = np == 9 and 3 or 4

t.case("Example 7.7: source and destination of every process", function()
  local c = w:cart_create({side, side}, {true, true}, false)
  local coords = c:cart_coords(c:rank())
  local src, dst = c:cart_shift(0, coords[2])
  -- serial oracle: move along dimension 0 by the column index, wrapping
  local i, j = me // side, me % side
  t.eq(src, ((i - j) % side) * side + j)
  t.eq(dst, ((i + j) % side) * side + j)
  if np == 9 then
    local want = {{0, 0}, {7, 4}, {5, 8}, {3, 3}, {1, 7}, {8, 2}, {6, 6}, {4, 1}, {2, 5}}
    t.eq({src, dst}, want[me + 1], "the checklist's table")
  end
end)

t.case("Example 7.7: the skewed matrix", function()
  local c = w:cart_create({side, side}, {true, true}, false)
  local coords = c:cart_coords(c:rank())
  local src, dst = c:cart_shift(0, coords[2])
  local a = c:sendrecv(me, dst, 0, src, 0)
  local all = c:allgather(a)
  local want = np == 9 and {0, 7, 5, 3, 1, 8, 6, 4, 2} or
               {0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3}
  t.eq(all, want)
end)
