-- scripts/stencil.lua: a 2-D periodic five-point stencil with halo exchange.
-- The ranks form a periodic Cartesian grid (dims_create + cart_create); each
-- holds one value, swaps it with its four neighbours (cart_shift + sendrecv:
-- the send and the receive are paired, so no deadlock), and replaces it with
-- the average of itself and the four halo values. The average of a periodic
-- stencil conserves the total, which rank 0 checks every step.
-- Run: lumpi -n 6 scripts/stencil.lua   (then: :draw grid)
local w = mpi.COMM_WORLD
local dims = mpi.dims_create(w:size(), 2)
grid = w:cart_create(dims, {true, true})  -- global, so :draw grid works after :load
grid:set_name("stencil")
local me = grid:rank()
local _, _, coords = grid:cart_get()

local function halo(u)
  local got = {}
  for dim = 0, 1 do
    local source, dest = grid:cart_shift(dim, 1)
    -- send up the dimension, receive from below; then the other way
    got[#got + 1] = grid:sendrecv(u, dest, 10 + dim, source, 10 + dim)
    got[#got + 1] = grid:sendrecv(u, source, 20 + dim, dest, 20 + dim)
  end
  return got
end

u = (me == 0) and 100.0 or 0.0            -- a hot spot at rank 0
local total = grid:allreduce(u, mpi.SUM)
for step = 1, 5 do
  local h = halo(u)
  u = (u + h[1] + h[2] + h[3] + h[4]) / 5
  local now = grid:allreduce(u, mpi.SUM)
  assert(math.abs(now - total) < 1e-9, "the stencil lost heat")
  local hottest = grid:allreduce(u, mpi.MAX)
  if me == 0 then
    print(string.format("step %d: total %.1f (conserved), hottest cell %.2f", step, now, hottest))
  end
end
print(string.format("rank %d at (%d,%d): u = %.3f", me, coords[1], coords[2], u))
