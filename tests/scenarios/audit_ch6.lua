-- tests/scenarios/audit_ch6.lua: an audit of chapter 6 (groups,
-- communicators, caching, naming, intercommunicators) against the seed and
-- reference/ch6-groups-communicators.md, covering what the ch6_*.lua files
-- leave out: group corner cases, handles that must stay distinct,
-- intercommunicator compare/merge/split/create with reordered groups and
-- leaders other than rank 0, what each constructor does not propagate, and
-- the failures that must leave nothing behind (a failed idup, a bad leader).
-- Oracles are lists of COMM_WORLD ranks computed serially here.
local t = require("lumpi.test")
t.np = {1, 2, 3, 4, 5, 7}

local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()
local world = w:group()
local half = n // 2

local function range(a, b, s)
  local out = {}
  for i = a, b, s or 1 do out[#out + 1] = i end
  return out
end

local function concat(a, b)
  local out = {}
  for _, x in ipairs(a) do out[#out + 1] = x end
  for _, x in ipairs(b) do out[#out + 1] = x end
  return out
end

-- Left = world ranks 0..half-1, right = half..n-1 (needs n >= 2). `keys`
-- orders each side's local communicator; the leaders are local ranks
-- `leader` of each side, named by their world ranks in COMM_WORLD.
local function halves(tag, keys, leader)
  local color = me < half and 0 or 1
  local loc = w:split(color, keys and keys(me) or me)
  local sides = {[0] = range(0, half - 1), [1] = range(half, n - 1)}
  local function order(list)
    local out = {table.unpack(list)}
    if keys then table.sort(out, function(a, b) return keys(a) < keys(b) end) end
    return out
  end
  local mine, other = order(sides[color]), order(sides[1 - color])
  local ll = leader and leader(#mine) or 0
  local rl = leader and leader(#other) or 0
  local inter = loc:intercomm_create(ll, w, other[rl + 1], tag or 41)
  return inter, color, loc, mine, other
end

-- ---- groups ------------------------------------------------------------------------

t.case("every comm:group() call is its own handle; freeing one leaves the other", function()
  local g1, g2 = w:group(), w:group()
  t.ok(not rawequal(g1, g2))
  g1:free()
  t.eq(g2:members(), range(0, n - 1))
  t.raises(function() g1:size() end, "MPI_ERR_GROUP")
  local a = world:incl({0})
  local u = a + mpi.GROUP_EMPTY  -- a new group equal to a, not a itself
  u:free()
  t.eq(a:members(), {0})
end)

t.case("set operations with empty and identical operands (seed §6.3.2 corners)", function()
  local a = world:incl(range(n - 1, 0, -1))
  local e = mpi.GROUP_EMPTY
  t.eq((a + a):compare(a), mpi.IDENT)
  t.eq((a * a):compare(a), mpi.IDENT)
  t.ok(rawequal(a - a, e))
  t.eq((a + e):compare(a), mpi.IDENT)
  t.eq((e + a):compare(a), mpi.IDENT)
  t.ok(rawequal(a * e, e))
  t.ok(rawequal(e * a, e))
  t.eq((a - e):compare(a), mpi.IDENT)
  t.ok(rawequal(e - a, e))
  t.ok(rawequal(e + e, e))
  -- the intersection keeps group1's order, so it is not commutative either
  local b = world:incl(range(0, n - 1))
  t.eq((a * b):members(), range(n - 1, 0, -1))
  t.eq((b * a):members(), range(0, n - 1))
  local c = world:incl(range(0, n - 1, 2))
  t.eq(((a * b) * c):compare(a * (b * c)), mpi.IDENT)
end)

t.case("range_incl/range_excl: only computed ranks count; first == last takes either sign", function()
  t.eq(world:range_incl({{0, 100, 200}}):members(), {0})
  t.eq(world:range_excl({{0, 100, 200}}):members(), range(1, n - 1))
  t.eq(world:range_incl({{n - 1, n - 1, -1}}):members(), {n - 1})
  t.eq(world:range_incl({{n - 1, 0, -1}}):members(), range(n - 1, 0, -1))
  t.ok(rawequal(world:range_excl({{0, n - 1, 1}}), mpi.GROUP_EMPTY))
  if n >= 4 then
    t.raises(function() world:range_incl({{3, -1, -2}}) end, "MPI_ERR_RANK")  -- computes -1
    t.raises(function() world:range_excl({{0, 2, 2}, {2, 3, 1}}) end, "MPI_ERR_RANK")  -- 2 twice
  end
  t.raises(function() world:range_incl({{1, 0, 1}}) end, "MPI_ERR_ARG")  -- against its stride
end)

t.case("translate_ranks: identity on the same group, PROC_NULL from an empty group", function()
  local rev = world:incl(range(n - 1, 0, -1))
  t.eq(rev:translate_ranks(range(0, n - 1), rev), range(0, n - 1))
  t.eq(rev:translate_ranks(range(0, n - 1), world), range(n - 1, 0, -1))
  t.eq(mpi.GROUP_EMPTY:translate_ranks({mpi.PROC_NULL}, world), {mpi.PROC_NULL})
  t.raises(function() mpi.GROUP_EMPTY:translate_ranks({0}, world) end, "MPI_ERR_RANK")
  local dead = world:incl({0})
  dead:free()
  t.raises(function() world:translate_ranks({0}, dead) end, "MPI_ERR_GROUP")
  t.raises(function() w:create(dead) end, "MPI_ERR_GROUP")
end)

-- ---- intracommunicator constructors --------------------------------------------------

t.case("create: everybody passing GROUP_EMPTY gets nil; a reversed full group is similar", function()
  t.eq(w:create(mpi.GROUP_EMPTY), nil)
  local c = w:create(world:incl(range(n - 1, 0, -1)))
  t.eq(c:compare(w), n > 1 and mpi.SIMILAR or mpi.CONGRUENT)
  t.eq(c:rank(), n - 1 - me)
  c:free()
  t.eq(w:split(mpi.UNDEFINED, me), nil)
  t.eq(mpi.COMM_SELF:create(mpi.GROUP_EMPTY), nil)
end)

t.case("create_group follows the group's order, and TAG_UB is a valid tag", function()
  local c = w:create_group(world:incl(range(n - 1, 0, -1)), (w:get_attr(mpi.TAG_UB)))
  t.eq(c:group():members(), range(n - 1, 0, -1))
  t.eq(c:rank(), n - 1 - me)
  c:free()
end)

t.case("names: no constructor names its result; names are per process", function()
  local made = {w:split(0, me), w:create(world), w:create_group(world, 1), w:dup_with_info({})}
  local i, req = w:idup()
  req:wait()
  made[#made + 1] = i
  for k, c in ipairs(made) do
    t.eq(c:get_name(), "", "constructor " .. k)
    c:free()
  end
  local d = w:dup()
  d:set_name("mine " .. me)
  t.eq(d:get_name(), "mine " .. me)
  d:set_name(string.rep("n", mpi.MAX_OBJECT_NAME - 1))
  t.eq(#d:get_name(), mpi.MAX_OBJECT_NAME - 1, "a name of MAX_OBJECT_NAME - 1 is kept whole")
  d:free()
  t.raises(function() d:get_name() end, "MPI_ERR_COMM")
end)

-- ---- attributes ---------------------------------------------------------------------

t.case("attributes: a nil value is an attribute; a copy may keep nil", function()
  local kv = mpi.comm_create_keyval{copy = function() return true, nil end}
  local d = w:dup()
  d:set_attr(kv, nil)
  t.eq({d:get_attr(kv)}, {nil, true})
  local e = d:dup()
  t.eq({e:get_attr(kv)}, {nil, true})
  d:delete_attr(kv)
  t.eq({d:get_attr(kv)}, {nil, false})
  e:free(); d:free()
  mpi.comm_free_keyval(kv)
end)

t.case("a delete callback run by free sees the communicator still usable", function()
  local seen
  local kv = mpi.comm_create_keyval{delete = function(c) seen = {c:get_name(), c:size(), c:rank()} end}
  local d = w:dup()
  d:set_name("going")
  d:set_attr(kv, 1)
  d:free()
  t.eq(seen, {"going", n, me})
  mpi.comm_free_keyval(kv)
end)

t.case("a failed idup sends nothing: the next idup on the same parent works", function()
  local kv = mpi.comm_create_keyval{copy = function() error("no copy") end}
  local parent = w:dup()
  parent:set_attr(kv, 1)
  -- Rank 0 proposes the context; make it call last so the others have
  -- already given up when its proposal would arrive.
  if me == 0 then
    local t0 = mpi.wtime()
    while mpi.wtime() - t0 < 0.3 do end
  end
  local e = t.raises(function() parent:idup() end, "MPI_ERR_OTHER")
  t.eq(e.func, "MPI_Comm_idup")
  parent:delete_attr(kv)
  local d, req = parent:idup()
  req:wait()
  t.eq(d:allreduce(me, mpi.SUM), n * (n - 1) // 2)
  d:free(); parent:free()
  mpi.comm_free_keyval(kv)
end)

t.case("idup_with_info (seed §6.4.2): hints and attributes as of the call", function()
  local kv = mpi.comm_create_keyval{copy = mpi.COMM_DUP_FN}
  w:set_attr(kv, "before")
  local info = {mpi_assert_no_any_source = "true", lumpi_unknown = "x"}
  local d, req = w:idup_with_info(info)
  info.mpi_assert_no_any_source = "false"
  w:set_attr(kv, "after")
  req:wait()
  t.eq(d:get_info().mpi_assert_no_any_source, "true")
  t.eq(d:get_info().lumpi_unknown, nil)
  t.eq(d:get_attr(kv), "before")
  t.eq(d:compare(w), mpi.CONGRUENT)
  t.eq(d:get_name(), "")
  t.eq(d:allreduce(1, mpi.SUM), n)
  d:free()
  t.raises(function() w:idup_with_info(5) end, "MPI_ERR_INFO")
  if n >= 2 then
    local inter, color, loc = halves(40)
    local i, r = inter:idup_with_info({mpi_assert_no_any_tag = "true"})
    r:wait()
    t.eq(i:test_inter(), true)
    t.eq(i:compare(inter), mpi.CONGRUENT)
    t.eq(i:get_info().mpi_assert_no_any_tag, "true")
    i:free(); inter:free(); loc:free()
    t.ok(color == 0 or color == 1)
  end
  w:delete_attr(kv)
  mpi.comm_free_keyval(kv)
end)

t.case("only dup, dup_with_info and idup copy attributes, on intercommunicators too", function()
  if n < 2 then t.skip("needs 2 ranks") end
  local kv = mpi.comm_create_keyval{copy = mpi.COMM_DUP_FN}
  local inter, color, loc = halves(42)
  inter:set_attr(kv, "on inter")
  loc:set_attr(kv, "on loc")
  local copies = {inter:dup(), inter:dup_with_info({mpi_assert_no_any_tag = "true"})}
  local i, req = inter:idup()
  req:wait()
  copies[#copies + 1] = i
  for _, c in ipairs(copies) do
    t.eq(c:get_attr(kv), "on inter")
    c:free()
  end
  local fresh = {
    inter:intercomm_merge(color == 1),
    inter:split(0, me),
    inter:create(inter:group()),
    loc:create_group(loc:group(), 3),
    loc:intercomm_create(0, w, color == 0 and half or 0, 43),
  }
  for k, c in ipairs(fresh) do
    t.eq(select(2, c:get_attr(kv)), false, "constructor " .. k)
    t.eq(c:get_name(), "", "constructor " .. k)
    c:free()
  end
  inter:free(); loc:free()
  mpi.comm_free_keyval(kv)
end)

-- ---- intercommunicators ----------------------------------------------------------------

t.case("intercomm_create with leaders other than rank 0 and reversed local orders", function()
  if n < 2 then t.skip("needs 2 ranks") end
  local rev = function(r) return -r end
  local last = function(size) return size - 1 end
  local inter, _, loc, mine, other = halves(44, rev, last)
  t.eq(inter:group():members(), mine)
  t.eq(inter:remote_group():members(), other)
  t.eq(inter:rank(), loc:rank())
  -- remote ranks address the other side in its local order
  for r = 0, inter:remote_size() - 1 do inter:send({me, r}, r, 2) end
  for s = 0, inter:remote_size() - 1 do
    local v, st = inter:recv(s, 2)
    t.eq(v, {other[s + 1], inter:rank()})
    t.eq(st.source, s)
  end
  inter:free(); loc:free()
end)

t.case("compare on intercommunicators: congruent, similar by either group, unequal", function()
  if n < 2 then t.skip("needs 2 ranks") end
  local a, color, la = halves(45)
  local b, _, lb = halves(46)  -- same groups, same tag reused: a second, distinct intercomm
  t.eq(a:compare(b), mpi.CONGRUENT)
  t.ok(a ~= b)
  -- reverse only the right side's order
  local keys = function(r) return r < half and r or -r end
  local c, _, lc = halves(47, keys)
  local right_reordered = n - half > 1
  t.eq(a:compare(c), right_reordered and mpi.SIMILAR or mpi.CONGRUENT)
  local m = a:intercomm_merge(color == 1)
  t.eq(a:compare(m), mpi.UNEQUAL)
  t.eq(m:compare(w), mpi.CONGRUENT)
  if n >= 3 then
    -- a different remote group: the left side pairs with only one right process
    local g = color == 0 and a:group() or a:group():incl({0})
    local sub = a:create(g)
    if sub then t.eq(a:compare(sub), mpi.UNEQUAL) sub:free() end
  end
  local dead = a:dup()
  dead:free()
  t.raises(function() a:compare(dead) end, "MPI_ERR_COMM")
  for _, x in ipairs({a, b, c, m, la, lb, lc}) do x:free() end
end)

t.case("merge follows each side's local order and high; the new comm keeps the side's error handler", function()
  if n < 2 then t.skip("needs 2 ranks") end
  local rev = function(r) return -r end
  local inter, color, loc, mine, other = halves(48, rev)
  if color == 1 then inter:set_errhandler(mpi.ERRORS_RETURN) end
  local m = inter:intercomm_merge(color == 1)
  local left = color == 0 and mine or other
  local right = color == 0 and other or mine
  t.eq(m:group():members(), concat(left, right))
  t.eq(m:rank(), color == 0 and inter:rank() or #left + inter:rank())
  t.eq(m:test_inter(), false)
  t.eq(m:get_errhandler(), color == 1 and mpi.ERRORS_RETURN or mpi.ERRORS_RAISE)
  local swapped = inter:intercomm_merge(color == 0)
  t.eq(swapped:group():members(), concat(right, left))
  -- high as C passes it: an integer, 0 for false
  local as_int = inter:intercomm_merge(color == 1 and 1 or 0)
  t.eq(as_int:group():members(), concat(left, right))
  m:free(); swapped:free(); as_int:free(); inter:free(); loc:free()
end)

t.case("split on an intercommunicator orders both sides by key", function()
  if n < 2 then t.skip("needs 2 ranks") end
  local inter, color, loc, mine, other = halves(49)
  -- one colour, keys reversing every side
  local s = inter:split(7, -me)
  t.eq(s:group():members(), range(mine[#mine], mine[1], -1))
  t.eq(s:remote_group():members(), range(other[#other], other[1], -1))
  t.eq(s:compare(inter), (#mine > 1 or #other > 1) and mpi.SIMILAR or mpi.CONGRUENT)
  s:free()
  -- everybody UNDEFINED: nil on both sides, still a collective
  t.eq(inter:split(mpi.UNDEFINED, 0), nil)
  inter:free(); loc:free()
end)

t.case("create on an intercommunicator: reordered subgroup on one side, one process left out on the other", function()
  if n < 3 then t.skip("needs 3 ranks") end
  local inter, color, loc, mine, other = halves(50)
  local g
  if color == 0 then
    g = inter:group():incl(range(inter:size() - 1, 0, -1))
  else
    g = inter:group():excl({inter:size() - 1})
  end
  local c = inter:create(g)
  local right_kept = color == 1 and mine or other
  right_kept = {table.unpack(right_kept, 1, #right_kept - 1)}
  local left_rev = range(half - 1, 0, -1)
  if color == 1 and inter:rank() == inter:size() - 1 then
    t.eq(c, nil)
  elseif color == 0 then
    t.eq(c:group():members(), left_rev)
    t.eq(c:remote_group():members(), right_kept)
    t.eq(c:rank(), half - 1 - me)
  else
    t.eq(c:group():members(), right_kept)
    t.eq(c:remote_group():members(), left_rev)
  end
  if c then c:free() end
  inter:free(); loc:free()
end)

t.case("two pairs of leaders may use one tag on one peer at the same time", function()
  if n < 4 then t.skip("needs 4 ranks") end
  -- quarters 0..3 by rank % 4; 0 pairs with 1, 2 with 3, all with tag 9
  local q = me % 4
  local loc = w:split(q, me)
  local partner = q % 2 == 0 and q + 1 or q - 1
  local inter = loc:intercomm_create(0, w, partner, 9)
  local expect = {}
  for r = partner, n - 1, 4 do expect[#expect + 1] = r end
  t.eq(inter:remote_group():members(), expect)
  inter:free(); loc:free()
end)

t.case("intercomm_create: a remote_leader inside local_comm raises on every rank, naming the leader", function()
  if n < 2 then t.skip("needs 2 ranks") end
  -- The remote leader named is a member of its own local_comm, so the groups
  -- overlap. Only the leader can tell; its verdict travels in its broadcast
  -- to the group, so every rank raises it (tests/scenarios/coll_agree.lua).
  local e = t.raises(function() w:intercomm_create(0, w, n - 1, 51) end, "MPI_ERR_RANK")
  t.ok(e.message:find("remote_leader", 1, true) and e.message:find("(on rank 0)", 1, true), e.message)
  -- nothing was left behind: a correct creation on the same communicators works
  local inter, _, loc = halves(51)
  t.eq(inter:remote_size(), me < half and n - half or half)
  inter:free(); loc:free()
end)

t.case("intercomm_create: groups that overlap raise MPI_ERR_COMM on both sides", function()
  if n < 3 then t.skip("needs 3 ranks") end
  -- A = {0, 1}, B = {1, 2}: world rank 1 is in both; it takes part as A's.
  local A, B
  if me <= 1 then A = w:create_group(world:incl({0, 1}), 1) end
  if me == 1 or me == 2 then B = w:create_group(world:incl({1, 2}), 2) end
  if me <= 1 then
    t.raises(function() A:intercomm_create(0, w, 2, 52) end, "MPI_ERR_COMM")
  elseif me == 2 then
    t.raises(function() B:intercomm_create(1, w, 0, 52) end, "MPI_ERR_COMM")
  end
  if A then A:free() end
  if B then B:free() end
end)

t.case("COMM_SELF on both sides makes a 1-to-1 intercommunicator", function()
  if n < 2 then t.skip("needs 2 ranks") end
  if me > 1 then return end
  local i = mpi.COMM_SELF:intercomm_create(0, w, 1 - me, 53)
  t.eq({i:size(), i:rank(), i:remote_size()}, {1, 0, 1})
  t.eq(i:remote_group():members(), {1 - me})
  i:send(me, 0, 1)
  t.eq(i:recv(0, 1), 1 - me)
  local m = i:intercomm_merge(me == 1)
  t.eq(m:group():members(), {0, 1})
  m:free(); i:free()
end)

t.case("the deprecated MPI-1 callbacks NULL_COPY_FN, DUP_FN and NULL_DELETE_FN work as their COMM_ names", function()
  local kept = mpi.comm_create_keyval{copy = mpi.DUP_FN, delete = mpi.NULL_DELETE_FN}
  local dropped = mpi.comm_create_keyval{copy = mpi.NULL_COPY_FN}
  local d = w:dup()
  d:set_attr(kept, {1})
  d:set_attr(dropped, 2)
  local e = d:dup()
  t.ok(rawequal(e:get_attr(kept), d:get_attr(kept)))
  t.eq(select(2, e:get_attr(dropped)), false)
  e:free(); d:free()
  mpi.comm_free_keyval(kept); mpi.comm_free_keyval(dropped)
end)
