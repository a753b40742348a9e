-- tests/scenarios/datatype_maps.lua: datatype constructors and queries in
-- Lua (MPI-3.1 chapter 4, API.md §14): type maps, bounds, envelope and
-- contents, commit/free, and every error raised before anything happens.
-- Local calls only; run at several sizes to show every rank agrees.
local t = require("lumpi.test")
t.np = {1, 3}

local function bounds(ty)
  local lb, extent = ty:get_extent()
  local tlb, textent = ty:get_true_extent()
  return {ty:size(), lb, extent, tlb, textent}
end

t.case("predefined types: C sizes, default names (MPI-3.1 §3.2.2, §6.8 MPI_TYPE_GET_NAME)", function()
  t.eq(bounds(mpi.INT), {4, 0, 4, 0, 4})
  t.eq(bounds(mpi.DOUBLE), {8, 0, 8, 0, 8})
  t.eq(bounds(mpi.CHAR), {1, 0, 1, 0, 1})
  t.eq(mpi.INT:get_name(), "MPI_INT")
  t.eq(mpi.TWO_INT:get_name(), "MPI_2INT")
  t.eq(mpi.UNSIGNED_LONG_LONG:get_name(), "MPI_UNSIGNED_LONG_LONG")
  t.eq(mpi.UINT16_T:size(), 2)
  t.eq(mpi.C_BOOL:size(), 1)
  t.eq({mpi.INT:get_envelope()}, {0, 0, 0, mpi.COMBINER_NAMED})
  t.eq(mpi.COMBINER_NAMED, "named")
  t.same_everywhere(bounds(mpi.LONG_DOUBLE))
end)

t.case("pair types for MINLOC/MAXLOC are C structs {value; int index} (MPI-3.1 §5.9.4)", function()
  t.eq(bounds(mpi.TWO_INT), {8, 0, 8, 0, 8})
  t.eq(bounds(mpi.FLOAT_INT), {8, 0, 8, 0, 8})
  t.eq(bounds(mpi.DOUBLE_INT), {12, 0, 16, 0, 12})
  t.eq(bounds(mpi.SHORT_INT), {6, 0, 8, 0, 8})
  t.eq(bounds(mpi.LONG_DOUBLE_INT), {20, 0, 32, 0, 20})
end)

t.case("vector with a negative stride reaches below the buffer address (MPI-3.1 §4.1.2)", function()
  -- blocks of 2 ints at 0, -16, -32 bytes
  t.eq(bounds(mpi.type_vector(3, 2, -4, mpi.INT)), {24, -32, 40, -32, 40})
  t.eq(bounds(mpi.type_vector(3, 2, 4, mpi.INT)), {24, 0, 40, 0, 40})
  t.eq(bounds(mpi.type_create_hvector(2, 1, -12, mpi.INT)), {8, -12, 16, -12, 16})
end)

t.case("struct extent is rounded up to the alignment epsilon (MPI-3.1 §4.1.6)", function()
  local s = mpi.type_create_struct({1, 1}, {0, 8}, {mpi.DOUBLE, mpi.CHAR})
  t.eq(bounds(s), {9, 0, 16, 0, 9})
  local odd = mpi.type_create_struct({1, 1}, {1, 3}, {mpi.CHAR, mpi.DOUBLE})
  t.eq(bounds(odd), {9, 1, 16, 1, 10})
  -- contiguous of a padded struct: copies one extent apart
  local sc = mpi.type_create_struct({1, 1}, {0, 2}, {mpi.SHORT, mpi.CHAR})
  t.eq(bounds(mpi.type_contiguous(2, sc)), {6, 0, 8, 0, 7})
end)

t.case("blocklength zero adds no entries and no bounds (MPI-2.1 Ballot 4 item 20)", function()
  t.eq(bounds(mpi.type_create_struct({0, 1}, {-100, 0}, {mpi.DOUBLE, mpi.INT})), {4, 0, 4, 0, 4})
  t.eq(bounds(mpi.type_indexed({0, 1}, {-100, 2}, mpi.INT)), {4, 8, 4, 8, 4})
  t.eq(bounds(mpi.type_contiguous(0, mpi.INT)), {0, 0, 0, 0, 0})
end)

t.case("resized markers decide lb and extent of every type built on them (MPI-3.1 §4.1.7)", function()
  local r = mpi.INT:create_resized(-4, 16)
  t.eq(bounds(r), {4, -4, 16, 0, 4})
  t.eq(bounds(mpi.type_create_struct({1, 1}, {0, 20}, {r, mpi.DOUBLE})), {12, -4, 16, 0, 28})
  t.eq(bounds(mpi.type_contiguous(3, mpi.INT:create_resized(0, -8))), {12, -16, 8, -16, 20})
end)

t.case("subarray in C and Fortran order (MPI-3.1 §4.1.3)", function()
  local c = mpi.type_create_subarray({4, 5}, {2, 3}, {1, 2}, mpi.ORDER_C, mpi.INT)
  t.eq(bounds(c), {24, 0, 80, 28, 32})
  local f = mpi.type_create_subarray({4, 5}, {2, 3}, {1, 2}, mpi.ORDER_FORTRAN, mpi.INT)
  t.eq(bounds(f), {24, 0, 80, 36, 40})
  t.eq({c:get_envelope()}, {8, 0, 1, mpi.COMBINER_SUBARRAY})
  local ints, addrs, types = f:get_contents()
  t.eq(ints, {2, 4, 5, 2, 3, 1, 2, mpi.ORDER_FORTRAN})
  t.eq(#addrs, 0)
  t.ok(rawequal(types[1], mpi.INT), "a predefined type comes back as itself")
end)

t.case("indexed, hindexed and block variants (MPI-3.1 §4.1.2)", function()
  t.eq(bounds(mpi.type_indexed({2, 1}, {3, 0}, mpi.INT)), {12, 0, 20, 0, 20})
  t.eq(bounds(mpi.type_create_hindexed({1, 1}, {8, -4}, mpi.INT)), {8, -4, 16, -4, 16})
  t.eq(bounds(mpi.type_create_indexed_block(2, {0, 5}, mpi.DOUBLE)), {32, 0, 56, 0, 56})
  t.eq(bounds(mpi.type_create_hindexed_block(1, {0, 6}, mpi.SHORT)), {4, 0, 8, 0, 8})
end)

t.case("get_contents rebuilds an equal type for every combiner (MPI-3.1 §4.1.13)", function()
  local r = mpi.INT:create_resized(-4, 16)
  local made = {
    mpi.DOUBLE:dup(),
    mpi.type_contiguous(3, mpi.INT),
    mpi.type_vector(3, 2, -4, mpi.INT),
    mpi.type_create_hvector(2, 1, 5, mpi.DOUBLE),
    mpi.type_indexed({2, 1}, {3, 0}, mpi.INT),
    mpi.type_create_hindexed({1, 1}, {8, -4}, mpi.INT),
    mpi.type_create_indexed_block(2, {0, 5}, mpi.DOUBLE),
    mpi.type_create_hindexed_block(1, {0, 6}, mpi.SHORT),
    mpi.type_create_struct({1, 2}, {0, 20}, {r, mpi.DOUBLE}),
    mpi.type_create_subarray({4, 5}, {2, 3}, {1, 2}, mpi.ORDER_C, r),
    r,
  }
  local function rebuild(ty)
    local ni, na, nd, comb = ty:get_envelope()
    local I, A, T = ty:get_contents()
    t.eq({#I, #A, #T}, {ni, na, nd})
    if comb == mpi.COMBINER_DUP then return T[1]:dup()
    elseif comb == mpi.COMBINER_CONTIGUOUS then return mpi.type_contiguous(I[1], T[1])
    elseif comb == mpi.COMBINER_VECTOR then return mpi.type_vector(I[1], I[2], I[3], T[1])
    elseif comb == mpi.COMBINER_HVECTOR then return mpi.type_create_hvector(I[1], I[2], A[1], T[1])
    elseif comb == mpi.COMBINER_INDEXED then
      return mpi.type_indexed(table.move(I, 2, I[1] + 1, 1, {}), table.move(I, I[1] + 2, 2 * I[1] + 1, 1, {}), T[1])
    elseif comb == mpi.COMBINER_HINDEXED then
      return mpi.type_create_hindexed(table.move(I, 2, I[1] + 1, 1, {}), A, T[1])
    elseif comb == mpi.COMBINER_INDEXED_BLOCK then
      return mpi.type_create_indexed_block(I[2], table.move(I, 3, I[1] + 2, 1, {}), T[1])
    elseif comb == mpi.COMBINER_HINDEXED_BLOCK then
      return mpi.type_create_hindexed_block(I[2], A, T[1])
    elseif comb == mpi.COMBINER_STRUCT then
      return mpi.type_create_struct(table.move(I, 2, I[1] + 1, 1, {}), A, T)
    elseif comb == mpi.COMBINER_SUBARRAY then
      local n = I[1]
      return mpi.type_create_subarray(table.move(I, 2, n + 1, 1, {}), table.move(I, n + 2, 2 * n + 1, 1, {}),
                                      table.move(I, 2 * n + 2, 3 * n + 1, 1, {}), I[3 * n + 2], T[1])
    elseif comb == mpi.COMBINER_RESIZED then return T[1]:create_resized(A[1], A[2])
    end
    error("unexpected combiner " .. tostring(comb))
  end
  for i, ty in ipairs(made) do
    local back = rebuild(ty)
    t.eq(bounds(back), bounds(ty), "type " .. i)
    t.eq(select(4, back:get_envelope()), select(4, ty:get_envelope()), "type " .. i)
  end
end)

t.case("contents of a freed inner type are new, usable handles (MPI-3.1 §4.1.13)", function()
  local inner = mpi.type_contiguous(2, mpi.INT)
  local outer = mpi.type_vector(2, 1, 3, inner)
  inner:free()
  local _, _, types = outer:get_contents()
  t.ok(types[1] ~= inner)
  t.eq(types[1]:size(), 8)
  types[1]:free()
  t.eq(outer:size(), 16, "freeing the returned handle leaves the outer type whole")
end)

t.case("typemap lists one element's runs in type-map order, committed or not (lumpi extension)", function()
  local v = mpi.type_vector(3, 2, -4, mpi.INT)
  t.eq(v:typemap(), {{0, "MPI_INT", 2, 4}, {-16, "MPI_INT", 2, 4}, {-32, "MPI_INT", 2, 4}})
  local s = mpi.type_create_struct({1, 1}, {0, 8}, {mpi.DOUBLE, mpi.CHAR})
  s:commit()
  t.eq(s:typemap(), {{0, "MPI_DOUBLE", 1, 8}, {8, "MPI_CHAR", 1, 1}})
  t.eq(mpi.TWO_INT:typemap(), {{0, "MPI_INT", 2, 4}})
  t.eq(mpi.type_contiguous(0, mpi.INT):typemap(), {})
end)

t.case("commit, free and freed handles (MPI-3.1 §4.1.9, §4.1.10; API.md §14)", function()
  local v = mpi.type_vector(2, 1, 2, mpi.INT)
  v:commit()
  v:commit()
  local alias = v
  v:free()
  t.raises(function() alias:size() end, "MPI_ERR_TYPE")
  t.raises(function() v:free() end, "MPI_ERR_TYPE")
  t.raises(function() mpi.type_contiguous(2, v) end, "MPI_ERR_TYPE")
  t.raises(function() mpi.INT:free() end, "MPI_ERR_TYPE")
  t.raises(function() mpi.TWO_INT:free() end, "MPI_ERR_TYPE")
  t.eq(tostring(v), "datatype (freed)")
  -- the handle lets go of the type at free (MPI_DATATYPE_NULL); a type
  -- built from v before keeps working, a new one from v raises
  t.raises(function() mpi.type_create_struct({1}, {0}, {v}) end, "MPI_ERR_TYPE")
  t.raises(function() v:get_name() end, "MPI_ERR_TYPE")
  t.raises(function() v:dup() end, "MPI_ERR_TYPE")
  local d = mpi.type_contiguous(2, mpi.INT)
  t.eq(d:dup():get_name(), "", "dup does not copy the name")
end)

t.case("constructor errors raise the right class naming the argument", function()
  local e = t.raises(function() mpi.type_contiguous(-1, mpi.INT) end, "MPI_ERR_COUNT")
  t.ok(e.message:find("count = -1", 1, true), e.message)
  t.raises(function() mpi.type_vector(-1, 1, 1, mpi.INT) end, "MPI_ERR_COUNT")
  e = t.raises(function() mpi.type_vector(2, -1, 1, mpi.INT) end, "MPI_ERR_ARG")
  t.ok(e.message:find("blocklength", 1, true), e.message)
  e = t.raises(function() mpi.type_indexed({1, -2}, {0, 1}, mpi.INT) end, "MPI_ERR_ARG")
  t.ok(e.message:find("blocklengths[2] = -2", 1, true), e.message)
  t.raises(function() mpi.type_indexed({1, 1}, {0}, mpi.INT) end, "MPI_ERR_ARG")
  t.raises(function() mpi.type_indexed({1}, {0.5}, mpi.INT) end, "MPI_ERR_ARG")
  e = t.raises(function() mpi.type_create_struct({1, 1}, {0, 4}, {mpi.INT, "x"}) end, "MPI_ERR_TYPE")
  t.ok(e.message:find("types[2]", 1, true), e.message)
  t.raises(function() mpi.type_create_struct({1, 1}, {0, 4}, {mpi.INT}) end, "MPI_ERR_ARG")
  t.raises(function() mpi.type_contiguous(2, nil) end, "MPI_ERR_TYPE")
  t.raises(function() mpi.type_create_subarray({4}, {5}, {0}, mpi.ORDER_C, mpi.INT) end, "MPI_ERR_ARG")
  t.raises(function() mpi.type_create_subarray({4}, {2}, {3}, mpi.ORDER_C, mpi.INT) end, "MPI_ERR_ARG")
  t.raises(function() mpi.type_create_subarray({4}, {2}, {0}, "z", mpi.INT) end, "MPI_ERR_ARG")
  t.raises(function() mpi.INT:get_contents() end, "MPI_ERR_TYPE")
  e = t.raises(function() mpi.type_contiguous(2 ^ 40, mpi.INT) end, "MPI_ERR_COUNT")
end)

t.case("errors follow COMM_WORLD's handler: ERRORS_RETURN gives nil, err", function()
  local w = mpi.COMM_WORLD
  w:set_errhandler(mpi.ERRORS_RETURN)
  local ok, r, err = pcall(mpi.type_contiguous, -3, mpi.INT)
  w:set_errhandler(mpi.ERRORS_RAISE)
  t.ok(ok)
  t.eq(r, nil)
  t.eq(err.class, "MPI_ERR_COUNT")
end)
