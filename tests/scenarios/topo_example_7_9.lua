-- tests/scenarios/topo_example_7_9.lua: seed Example 7.9 (Figure 7.1), the
-- Poisson solver's set-up: dims from MPI_DIMS_CREATE (the printed code passes
-- comm where nnodes belongs, reference A4), a periodic grid with reorder,
-- the four neighbours from MPI_CART_RANK, then the neighbour exchange and
-- one Jacobi sweep with halo exchange compared against a serial sweep.
-- Runs at 12 (a 4x3 grid) and 4 (2x2: both neighbours in a dimension are
-- the same process, so the exchange must go by direction).
local t = require("lumpi.test")
t.np = {4, 12}

local w = mpi.COMM_WORLD
local me, np = w:rank(), w:size()

local function setup()
  local dims = mpi.dims_create(np, 2)
  local comm = w:cart_create(dims, {true, true}, true)
  local _, _, own = comm:cart_get()
  local i, j = own[1], own[2]
  local neigh = {
    comm:cart_rank({i - 1, j}), comm:cart_rank({i + 1, j}),
    comm:cart_rank({i, j - 1}), comm:cart_rank({i, j + 1}),
  }
  return comm, dims, i, j, neigh
end

t.case("Example 7.9: dims, own position and the four neighbours", function()
  local comm, dims, i, j, neigh = setup()
  t.eq(dims, np == 12 and {4, 3} or {2, 2})
  t.eq(comm:rank(), me, "reorder is honoured as the identity")
  t.eq({i, j}, {me // dims[2], me % dims[2]})
  local want = np == 12 and {
    {9, 3, 2, 1}, {10, 4, 0, 2}, {11, 5, 1, 0}, {0, 6, 5, 4}, {1, 7, 3, 5}, {2, 8, 4, 3},
    {3, 9, 8, 7}, {4, 10, 6, 8}, {5, 11, 7, 6}, {6, 0, 11, 10}, {7, 1, 9, 11}, {8, 2, 10, 9},
  } or {{2, 2, 1, 1}, {3, 3, 0, 0}, {0, 0, 3, 3}, {1, 1, 2, 2}}
  t.eq(neigh, want[me + 1])
  -- the same neighbours from cart_shift
  t.eq({comm:cart_shift(0, 1)}, {neigh[1], neigh[2]})
  t.eq({comm:cart_shift(1, 1)}, {neigh[3], neigh[4]})
end)

t.case("Example 7.9: exchanging ranks with the four neighbours", function()
  local comm, _, _, _, neigh = setup()
  -- point to point: send "up" (to i-1) and receive from below (i+1), etc.
  local got = {}
  got[2] = comm:sendrecv(me, neigh[1], 1, neigh[2], 1)
  got[1] = comm:sendrecv(me, neigh[2], 2, neigh[1], 2)
  got[4] = comm:sendrecv(me, neigh[3], 3, neigh[4], 3)
  got[3] = comm:sendrecv(me, neigh[4], 4, neigh[3], 4)
  t.eq(got, neigh)
  -- the same with the neighbourhood collective (MPI-3 order = neigh order)
  t.eq(comm:neighbor_allgather(me), neigh)
end)

-- Global periodic grid of (dims[1]*B) x (dims[2]*B) points, u(x, y) = 100x + y;
-- each process owns a B x B block.
local B = 2
local function u0(x, y) return 100 * x + y end

t.case("Example 7.9: one Jacobi sweep with halo exchange equals the serial sweep", function()
  local comm, dims, i, j = setup()
  local X, Y = dims[1] * B, dims[2] * B
  local block = {}
  for a = 1, B do
    block[a] = {}
    for b = 1, B do block[a][b] = u0(i * B + a - 1, j * B + b - 1) end
  end
  local function row(a) return {table.unpack(block[a])} end
  local function col(b) local c = {} for a = 1, B do c[a] = block[a][b] end return c end
  -- to i-1 my top row, to i+1 my bottom row, to j-1 my left column, to j+1 my right
  local halo = comm:neighbor_alltoall({row(1), row(B), col(1), col(B)})
  local top, bottom, left, right = halo[1], halo[2], halo[3], halo[4]
  local function at(a, b)
    if a == 0 then return top[b] end
    if a == B + 1 then return bottom[b] end
    if b == 0 then return left[a] end
    if b == B + 1 then return right[a] end
    return block[a][b]
  end
  for a = 1, B do
    for b = 1, B do
      local x, y = i * B + a - 1, j * B + b - 1
      local want = (u0((x - 1) % X, y) + u0((x + 1) % X, y) + u0(x, (y - 1) % Y) + u0(x, (y + 1) % Y)) / 4
      local got = (at(a - 1, b) + at(a + 1, b) + at(a, b - 1) + at(a, b + 1)) / 4
      t.eq(got, want, "point (" .. x .. "," .. y .. ")")
    end
  end
end)
