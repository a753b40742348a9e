-- tests/scenarios/ch6_groups.lua: group accessors, constructors, operators
-- and erroneous inputs (seed §6.3, API.md §4), all local. Oracles are plain
-- Lua lists of COMM_WORLD ranks built here serially.
local t = require("lumpi.test")
t.np = {1, 2, 3, 4, 7}

local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()
local world = w:group()

-- Serial oracles over lists.
local function range(a, b, s)
  local out = {}
  for i = a, b, s or 1 do out[#out + 1] = i end
  return out
end
local function contains(list, x)
  for _, y in ipairs(list) do if y == x then return true end end
  return false
end

t.case("the world group has every rank in order and the caller at its own rank", function()
  t.eq(world:size(), n)
  t.eq(world:rank(), me)
  t.eq(world:members(), range(0, n - 1))
  t.eq(tostring(world), "group(" .. n .. ")[" .. table.concat(range(0, n - 1), ",") .. "]")
end)

t.case("GROUP_EMPTY has size 0 and the caller's rank in it is UNDEFINED", function()
  t.eq(mpi.GROUP_EMPTY:size(), 0)
  t.eq(mpi.GROUP_EMPTY:rank(), mpi.UNDEFINED)
  t.ok(mpi.UNDEFINED < 0 and mpi.UNDEFINED ~= mpi.PROC_NULL)
end)

t.case("incl orders by the given ranks; rank is UNDEFINED for non-members", function()
  local rev = world:incl(range(n - 1, 0, -1))
  t.eq(rev:members(), range(n - 1, 0, -1))
  t.eq(rev:rank(), n - 1 - me)
  local zero = world:incl({0})
  t.eq(zero:members(), {0})
  t.eq(zero:rank(), me == 0 and 0 or mpi.UNDEFINED)
end)

t.case("excl keeps group order whatever the order of ranks; n = 0 gives an identical group", function()
  local drop = {}
  for r = n - 1, 0, -2 do drop[#drop + 1] = r end
  local expect = {}
  for r = 0, n - 1 do if not contains(drop, r) then expect[#expect + 1] = r end end
  t.eq(world:excl(drop):members(), expect)
  t.eq(world:excl({}):compare(world), mpi.IDENT)
end)

t.case("empty results are GROUP_EMPTY itself", function()
  t.ok(rawequal(world:incl({}), mpi.GROUP_EMPTY))
  t.ok(rawequal(world - world, mpi.GROUP_EMPTY))
  t.ok(world:excl(range(0, n - 1)) == mpi.GROUP_EMPTY)
  t.ok(rawequal(world:range_incl({}), mpi.GROUP_EMPTY))
end)

t.case("union, intersection and difference follow the seed's ordering rules", function()
  -- a = odd ranks descending, b = ranks >= n/2 ascending
  local a_list, b_list = {}, {}
  for r = n - 1, 0, -1 do if r % 2 == 1 then a_list[#a_list + 1] = r end end
  for r = n // 2, n - 1 do b_list[#b_list + 1] = r end
  local a, b = world:incl(a_list), world:incl(b_list)
  local u, i, d = {}, {}, {}
  for _, x in ipairs(a_list) do u[#u + 1] = x end
  for _, x in ipairs(b_list) do if not contains(a_list, x) then u[#u + 1] = x end end
  for _, x in ipairs(a_list) do if contains(b_list, x) then i[#i + 1] = x end end
  for _, x in ipairs(a_list) do if not contains(b_list, x) then d[#d + 1] = x end end
  t.eq((a + b):members(), u)
  t.eq(a:union(b):members(), u)
  t.eq((a * b):members(), i)
  t.eq(a:intersection(b):members(), i)
  t.eq((a - b):members(), d)
  t.eq(a:difference(b):members(), d)
end)

t.case("union is associative but not commutative", function()
  local a, b, c = world:incl({n - 1}), world:incl({0}), world:excl({0})
  t.eq(((a + b) + c):compare(a + (b + c)), mpi.IDENT)
  if n > 1 then t.eq((a + b):compare(b + a), mpi.SIMILAR) end
end)

t.case("compare gives ident, similar and unequal, and == is ident", function()
  t.eq(world:compare(world:incl(range(0, n - 1))), mpi.IDENT)
  t.ok(world == world:incl(range(0, n - 1)))
  t.eq(world:compare(world:incl(range(n - 1, 0, -1))), n > 1 and mpi.SIMILAR or mpi.IDENT)
  t.eq(world:compare(mpi.GROUP_EMPTY), mpi.UNEQUAL)
  t.eq(mpi.GROUP_EMPTY:compare(world:incl({})), mpi.IDENT)
  if n > 1 then t.ok(not (world == world:excl({0}))) end
end)

t.case("translate_ranks maps through COMM_WORLD, with UNDEFINED and PROC_NULL", function()
  local evens = world:range_incl({{0, n - 1, 2}})
  local ranks = range(0, n - 1)
  ranks[#ranks + 1] = mpi.PROC_NULL
  local expect = {}
  for r = 0, n - 1 do expect[#expect + 1] = r % 2 == 0 and r // 2 or mpi.UNDEFINED end
  expect[#expect + 1] = mpi.PROC_NULL
  t.eq(world:translate_ranks(ranks, evens), expect)
  t.eq(world:translate_ranks({}, evens), {})
  t.eq(world:translate_ranks({0, mpi.PROC_NULL}, mpi.GROUP_EMPTY), {mpi.UNDEFINED, mpi.PROC_NULL})
end)

t.case("range_incl and range_excl expand triplets in order, negative strides too", function()
  if n < 7 then t.skip("needs 7 ranks") end
  t.eq(world:range_incl({{0, 6, 3}}):members(), {0, 3, 6})
  t.eq(world:range_incl({{6, 0, -3}}):members(), {6, 3, 0})
  t.eq(world:range_incl({{6, 2, -2}}):members(), {6, 4, 2})
  t.eq(world:range_incl({{0, 4, 4}, {1, 5, 4}}):members(), {0, 4, 1, 5})
  t.eq(world:range_excl({{0, 6, 2}}):members(), {1, 3, 5})
  t.eq(world:range_excl({}):compare(world), mpi.IDENT)
end)

t.case("erroneous group arguments raise the right class before anything else", function()
  t.raises(function() world:incl({n}) end, "MPI_ERR_RANK")
  t.raises(function() world:incl({-1}) end, "MPI_ERR_RANK")
  t.raises(function() world:incl({0, 0}) end, "MPI_ERR_RANK")
  t.raises(function() world:excl({n}) end, "MPI_ERR_RANK")
  t.raises(function() world:excl({0, 0}) end, "MPI_ERR_RANK")
  t.raises(function() world:range_incl({{0, n - 1, 0}}) end, "MPI_ERR_ARG")
  t.raises(function() world:range_incl({{0, n, 1}}) end, "MPI_ERR_RANK")
  t.raises(function() world:range_incl({{0, 0, 1}, {0, 0, 1}}) end, "MPI_ERR_RANK")
  t.raises(function() world:range_excl({{0, n - 1, 0}}) end, "MPI_ERR_ARG")
  t.raises(function() world:translate_ranks({n}, world) end, "MPI_ERR_RANK")
  t.raises(function() world:translate_ranks({mpi.ANY_SOURCE}, world) end, "MPI_ERR_RANK")
  t.raises(function() world:union(42) end, "MPI_ERR_GROUP")
  local e = t.raises(function() world:incl({n + 5}) end, "MPI_ERR_RANK")
  t.ok(tostring(e):find(tostring(n + 5), 1, true), "the message names the bad rank")
end)

t.case("a freed group raises MPI_ERR_GROUP everywhere; freeing GROUP_EMPTY is harmless", function()
  local g = world:incl({0})
  local alias = g
  g:free()
  t.raises(function() alias:size() end, "MPI_ERR_GROUP")
  t.raises(function() g:free() end, "MPI_ERR_GROUP")
  t.raises(function() return world + g end, "MPI_ERR_GROUP")
  t.eq(tostring(g), "group (freed)")
  mpi.GROUP_EMPTY:free()
  t.eq(mpi.GROUP_EMPTY:size(), 0)
  local e = world:incl({})
  e:free()
  t.eq(mpi.GROUP_EMPTY:size(), 0)
end)

t.case("the group of a communicator outlives the communicator", function()
  local d = w:dup()
  local g = d:group()
  d:free()
  t.eq(g:members(), range(0, n - 1))
end)
