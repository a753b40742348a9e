-- tests/scenarios/topo_example_7_8.lua: seed Example 7.8, MPI_CART_SUB on a
-- 2x3x4 grid: (true,false,true) gives 3 communicators of 8 processes with
-- 2x4 grids, (false,false,true) gives 6 of 4 with 1-D grids; plus the other
-- selections. World size 24.
local t = require("lumpi.test")
t.np = {24}

local w = mpi.COMM_WORLD
local me = w:rank()
local c0, c1, c2 = me // 12, (me // 4) % 3, me % 4

local function sub_of(remain, periods)
  local c = w:cart_create({2, 3, 4}, periods or {false, true, false}, false)
  return c:cart_sub(remain)
end

t.case("Example 7.8: (true,false,true) gives three 2x4 grids of 8", function()
  local s = sub_of({true, false, true})
  t.eq(s:size(), 8)
  t.eq(s:cartdim_get(), 2)
  local dims, periods, coords = s:cart_get()
  t.eq(dims, {2, 4})
  t.eq(periods, {false, false})
  t.eq(coords, {c0, c2})
  t.eq(s:rank(), c0 * 4 + c2)
  -- members in new-rank order: 12*c0 + 4*c1 + c2 with my c1
  local want = {}
  for a = 0, 1 do for b = 0, 3 do want[#want + 1] = 12 * a + 4 * c1 + b end end
  t.eq(s:allgather(me), want)
end)

t.case("Example 7.8: (false,false,true) gives six lines of 4", function()
  local s = sub_of({false, false, true})
  t.eq(s:size(), 4)
  t.eq(s:rank(), c2)
  t.eq({s:cart_get()}, {{4}, {false}, {c2}})
  local base = me - c2
  t.eq(s:allgather(me), {base, base + 1, base + 2, base + 3})
end)

t.case("(false,true,false) gives eight columns of 3, periods kept", function()
  local s = sub_of({false, true, false})
  t.eq({s:cart_get()}, {{3}, {true}, {c1}})
  t.eq(s:allgather(me), {12 * c0 + c2, 12 * c0 + 4 + c2, 12 * c0 + 8 + c2})
end)

t.case("(true,true,true) reproduces the grid; all false gives 24 zero-dim comms", function()
  local s = sub_of({true, true, true}, {true, false, true})
  t.eq(s:rank(), me)
  t.eq({s:cart_get()}, {{2, 3, 4}, {true, false, true}, {c0, c1, c2}})
  t.eq(s:compare(w), mpi.CONGRUENT)
  local z = sub_of({false, false, false})
  t.eq({z:size(), z:rank(), z:topo_test(), z:cartdim_get()}, {1, 0, mpi.CART, 0})
end)
