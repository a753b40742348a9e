-- tests/scenarios/ch6_comms.lua: communicator accessors, compare, dup,
-- dup_with_info, idup, free, names and info hints (seed §6.4, §6.8,
-- API.md §5).
local t = require("lumpi.test")
t.np = {1, 2, 3, 4, 7}

local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()

t.case("accessors of COMM_WORLD and COMM_SELF", function()
  t.eq(w:size(), n)
  t.eq(w:rank(), me)
  t.eq(w:test_inter(), false)
  t.eq(w:topo_test(), mpi.UNDEFINED)
  t.eq(mpi.COMM_SELF:size(), 1)
  t.eq(mpi.COMM_SELF:rank(), 0)
  t.eq(mpi.COMM_SELF:group():members(), {me})
  t.raises(function() w:remote_size() end, "MPI_ERR_COMM")
  t.raises(function() w:remote_group() end, "MPI_ERR_COMM")
end)

t.case("compare: ident for the same object, congruent for a dup, similar, unequal", function()
  t.eq(w:compare(w), mpi.IDENT)
  t.eq(w:compare(mpi.COMM_WORLD), mpi.IDENT)
  local d = w:dup()
  t.eq(w:compare(d), mpi.CONGRUENT)
  t.eq(d:compare(d), mpi.IDENT)
  local same = w:split(0, me)
  t.eq(w:compare(same), mpi.CONGRUENT)
  local rev = w:split(0, -me)
  t.eq(w:compare(rev), n > 1 and mpi.SIMILAR or mpi.CONGRUENT)
  t.eq(w:compare(mpi.COMM_SELF), n == 1 and mpi.CONGRUENT or mpi.UNEQUAL)
  d:free(); same:free(); rev:free()
end)

t.case("dup keeps group, rank and error handler, not the name; traffic stays apart", function()
  w:set_errhandler(mpi.ERRORS_RETURN)
  local d = w:dup()
  w:set_errhandler(mpi.ERRORS_RAISE)
  t.eq(d:get_errhandler(), mpi.ERRORS_RETURN)
  t.eq(d:group():members(), w:group():members())
  t.eq(d:rank(), me)
  t.eq(d:get_name(), "")
  local right, left = (me + 1) % n, (me - 1) % n
  w:send("world", right, 5)
  d:send("dup", right, 5)
  t.eq(d:recv(left, 5), "dup")
  t.eq(w:recv(left, 5), "world")
  d:free()
end)

t.case("a dup of a dup is congruent to both and distinct from each", function()
  local a = w:dup()
  local b = a:dup()
  t.eq(a:compare(b), mpi.CONGRUENT)
  t.eq(w:compare(b), mpi.CONGRUENT)
  t.ok(a ~= b)
  a:free(); b:free()
end)

t.case("idup returns a pending communicator that works once its request completes", function()
  local d, req = w:idup()
  req:wait()
  t.eq(d:compare(w), mpi.CONGRUENT)
  t.eq(d:size(), n)
  local right, left = (me + 1) % n, (me - 1) % n
  d:send(me, right, 1)
  t.eq(d:recv(left, 1), left)
  d:free()
end)

t.case("idup does not block: a rank can receive before completing it", function()
  if n < 2 then t.skip("needs 2 ranks") end
  local d, req
  if me == 1 then
    d, req = w:idup()
    w:send("after idup", 0, 9)
  elseif me == 0 then
    t.eq(w:recv(1, 9), "after idup")
    d, req = w:idup()
  else
    d, req = w:idup()
  end
  req:wait()
  t.eq(d:compare(w), mpi.CONGRUENT)
  d:free()
end)

t.case("using an idup communicator before its request completes raises MPI_ERR_COMM", function()
  if n < 2 then t.skip("needs 2 ranks") end
  -- Rank 0 proposes the context; the others cannot complete before it sends,
  -- and rank 0 sends only after the others said they tried.
  local d, req
  if me == 0 then
    for r = 1, n - 1 do w:recv(r, 8) end
    d, req = w:idup()
  else
    d, req = w:idup()
    local ok, err = pcall(function() return d:size() end)
    t.eq(ok, false)
    t.eq(err.class, "MPI_ERR_COMM")
    w:send("tried", 0, 8)
  end
  req:wait()
  t.eq(d:size(), n)
  d:free()
end)

t.case("free makes every reference a freed handle; WORLD and SELF cannot be freed", function()
  local d = w:dup()
  local alias = d
  d:free()
  t.raises(function() alias:size() end, "MPI_ERR_COMM")
  t.raises(function() d:free() end, "MPI_ERR_COMM")
  t.raises(function() d:send(1, 0) end, "MPI_ERR_COMM")
  t.eq(tostring(d), "Intracomm (freed)")
  t.raises(function() w:free() end, "MPI_ERR_COMM")
  t.raises(function() mpi.COMM_SELF:free() end, "MPI_ERR_COMM")
  t.eq(w:size(), n)
end)

t.case("names: defaults, set, trailing spaces, truncation, not copied, local", function()
  t.eq(w:get_name(), "MPI_COMM_WORLD")
  t.eq(mpi.COMM_SELF:get_name(), "MPI_COMM_SELF")
  local d = w:dup()
  t.eq(d:get_name(), "")
  d:set_name("  lib " .. me .. "   ")
  t.eq(d:get_name(), "  lib " .. me)
  t.eq(tostring(d), "Intracomm '  lib " .. me .. "' size=" .. n .. " rank=" .. me .. " intra")
  local long = string.rep("x", mpi.MAX_OBJECT_NAME + 10)
  d:set_name(long)
  t.eq(#d:get_name(), mpi.MAX_OBJECT_NAME - 1)
  t.ok(mpi.MAX_OBJECT_NAME >= 64)
  d:set_name("")
  t.eq(d:get_name(), "")
  d:set_name("named")
  local e = d:dup()
  t.eq(e:get_name(), "")
  e:free(); d:free()
  w:set_name("world renamed")
  t.eq(w:get_name(), "world renamed")
  w:set_name("MPI_COMM_WORLD")
end)

t.case("info: defaults listed, subsets leave others alone, unknown keys ignored, not propagated", function()
  local d = w:dup()
  local info = d:get_info()
  t.eq(info.mpi_assert_no_any_tag, "false")
  t.eq(info.mpi_assert_no_any_source, "false")
  t.eq(info.mpi_assert_exact_length, "false")
  t.eq(info.mpi_assert_allow_overtaking, "false")
  d:set_info({mpi_assert_no_any_tag = "true", lumpi_unknown_key = "x"})
  d:set_info({mpi_assert_exact_length = "true"})
  info = d:get_info()
  t.eq(info.mpi_assert_no_any_tag, "true")
  t.eq(info.mpi_assert_exact_length, "true")
  t.eq(info.lumpi_unknown_key, nil)
  t.eq(d:dup():get_info().mpi_assert_no_any_tag, "false")
  local h = d:dup_with_info({mpi_assert_no_any_source = "true", other = "y"})
  t.eq(h:get_info().mpi_assert_no_any_source, "true")
  t.eq(h:get_info().mpi_assert_no_any_tag, "false")
  t.eq(h:get_info().other, nil)
  t.eq(h:compare(w), mpi.CONGRUENT)
  t.raises(function() d:set_info({mpi_assert_no_any_tag = true}) end, "MPI_ERR_INFO")
  h:free(); d:free()
end)

t.case("errors name the function and argument", function()
  local e = t.raises(function() w:split(-5, 0) end, "MPI_ERR_ARG")
  t.eq(e.func, "MPI_Comm_split")
  t.ok(e.message:find("-5", 1, true))
  t.raises(function() w:compare(42) end, "MPI_ERR_COMM")
end)
