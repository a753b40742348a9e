-- tests/scenarios/audit_coll.lua: gaps found by auditing the reductions
-- against reference/reductions-and-mpi21-clarifications.md (§1.1-1.9):
-- one rank's bad operand must not leave the others blocked, every block of
-- reduce_scatter_block holds the same count, reduce_scatter's counts agree
-- on every rank, no communication inside a user op, the full op/value-kind
-- table in every reduction, zero counts,
-- exscan's rank 1 getting rank 0's value untouched, roots on intra- and
-- intercommunicators, intercommunicator reductions in both directions, and
-- collective traffic never matching a pending wildcard receive.
local t = require("lumpi.test")
t.np = {1, 2, 3, 4, 5, 7}

local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()

local function concat(a, b) return a .. b end

-- ---- a bad operand on one rank -------------------------------------------------------

t.case("allreduce: one rank's bad operand fails every rank, nobody hangs", function()
  local bad = n - 1
  local err = t.raises(function() w:allreduce(me == bad and "x" or 1, mpi.SUM) end, "MPI_ERR_OP")
  if me == bad then t.ok(tostring(err):find('string operand "x"'), tostring(err)) end
  t.eq(w:allreduce(1, mpi.SUM), n)
end)

t.case("reduce: one rank's bad operand fails the root and that rank", function()
  local bad, root = n - 1, 0
  local ok, err = pcall(w.reduce, w, me == bad and 2.5 or 1, mpi.BAND, root)
  if me == bad or me == root then
    t.eq(ok, false)
    t.eq(err.class, "MPI_ERR_OP")
  end
  t.eq(w:allreduce(1, mpi.SUM), n)
end)

t.case("scan and exscan: a bad operand fails its rank and every later one", function()
  -- earlier ranks may fail too (they may have combined it into a partial
  -- they needed), but no rank may be left waiting
  local bad = n // 2
  local ok, err = pcall(w.scan, w, me == bad and true or 1, mpi.SUM)
  if me >= bad then
    t.eq(ok, false)
    t.eq(err.class, "MPI_ERR_OP")
  end
  ok, err = pcall(w.exscan, w, me == bad and {1, 2, 3} or {1, me}, mpi.MAXLOC)
  if me >= bad then
    t.eq(ok, false)
    t.eq(err.class, "MPI_ERR_OP")
  end
  t.eq(w:allreduce(1, mpi.SUM), n)
end)

t.case("an unsendable contribution to a user op fails every rank of allreduce", function()
  local first = mpi.op_create(function(a, b) return a end, false)
  t.raises(function() w:allreduce(me == 0 and print or me, first) end, "MPI_ERR_TYPE")
  t.eq(w:allreduce(me, first), 0)
  mpi.op_free(first)
end)

t.case("reduce_scatter(_block): one rank's bad values fail every rank", function()
  local bad = n - 1
  local blocks, counts, flat = {}, {}, {}
  for i = 1, n do blocks[i] = i; counts[i] = 1; flat[i] = i end
  if me == bad then blocks[n + 1] = 0; flat[1] = "x" end
  t.raises(function() w:reduce_scatter_block(blocks, mpi.SUM) end, "MPI_ERR_COUNT")
  t.raises(function() w:reduce_scatter(flat, counts, mpi.SUM) end, "MPI_ERR_OP")
  t.eq(w:reduce_scatter(counts, counts, mpi.SUM), {n})
end)

-- ---- reduce_scatter_block: one recvcount ------------------------------------------------

t.case("reduce_scatter_block: blocks of different sizes raise on every rank", function()
  local blocks = {}
  for i = 1, n do blocks[i] = {i, i} end
  if n > 1 then
    blocks[n] = {n}
    t.raises(function() w:reduce_scatter_block(blocks, mpi.SUM) end, "MPI_ERR_COUNT")
    blocks[n] = n
    t.raises(function() w:reduce_scatter_block(blocks, mpi.SUM) end, "MPI_ERR_TYPE")
  end
  local pairs_ = {}
  for i = 1, n do pairs_[i] = {me, me} end
  t.eq(w:reduce_scatter_block(pairs_, mpi.MAXLOC), {n - 1, n - 1})
end)

t.case("reduce_scatter: counts that differ between ranks raise MPI_ERR_COUNT on every rank", function()
  if n == 1 then t.skip("needs two ranks") end
  -- same length and sum everywhere; rank 1 moves an element from block 1 to block 0
  local counts, values = {}, {}
  for i = 1, n do counts[i] = 1; values[i] = i end
  if me == 1 then counts[1], counts[2] = 2, 0 end
  t.raises(function() w:reduce_scatter(values, counts, mpi.SUM) end, "MPI_ERR_COUNT")
  counts[1], counts[2] = 1, 1
  t.eq(w:reduce_scatter(values, counts, mpi.SUM), {(me + 1) * n})
end)

-- ---- no communication inside a user op --------------------------------------------------

t.case("a user op that calls a collective fails the reduction instead of hanging", function()
  local op = mpi.op_create(function(a, b) w:barrier() return a + b end, true)
  if n == 1 then
    t.eq(w:allreduce(4, op), 4)  -- one rank: the function never runs
  else
    local err = t.raises(function() w:allreduce(1, op) end, "MPI_ERR_OTHER")
    t.ok(tostring(err):find("MPI_Barrier"), tostring(err))
  end
  t.raises(function() mpi.reduce_local(1, 2, op) end, "MPI_ERR_OTHER")
  t.eq(w:allreduce(1, mpi.SUM), n)
  mpi.op_free(op)
end)

-- ---- which values each predefined op takes (reference §1.3) ------------------------------

local rejected = {
  SUM = {"s", true, {1, "s"}, {a = 1}},
  PROD = {"s", false},
  MAX = {true, "s", {1, true}},
  MIN = {false, "s"},
  LAND = {1.5, "s", {true, 0.5}},
  LOR = {0.0, "s"},
  LXOR = {2.5, "s"},
  BAND = {1.5, true, "s"},
  BOR = {4.0, false},
  BXOR = {0.5, "s"},
  MAXLOC = {1, "s", {1, 2, 3}, {1, 1.5}, {"a", 1}, {{1, 2}, 3}},
  MINLOC = {1.0, {1}, {true, 1}},
}

t.case("every invalid op/value pair raises MPI_ERR_OP in every reduction", function()
  for name, values in pairs(rejected) do
    for _, v in ipairs(values) do
      local blocks = {}
      for i = 1, n do blocks[i] = v end
      local counts = {}
      for i = 1, n do counts[i] = 0 end
      counts[1] = 1
      local calls = {
        function() return w:allreduce(v, mpi[name]) end,
        function() return w:reduce(v, mpi[name], n - 1) end,
        function() return w:scan(v, mpi[name]) end,
        function() return w:exscan(v, mpi[name]) end,
        function() return w:reduce_scatter_block(blocks, mpi[name]) end,
        function() return w:reduce_scatter({v}, counts, mpi[name]) end,
        function() return mpi.reduce_local(v, v, mpi[name]) end,
      }
      for k, call in ipairs(calls) do
        local ok, err = pcall(call)
        t.eq(ok, false, name .. " call " .. k)
        t.eq(err.class, "MPI_ERR_OP", name .. " call " .. k .. ": " .. tostring(err))
      end
    end
  end
end)

t.case("logical ops take booleans and integers; bitwise ops integers", function()
  t.eq(w:allreduce(me ~= 1, mpi.LAND), n < 2)
  t.eq(w:allreduce(me == n - 1, mpi.LOR), true)
  t.eq(w:allreduce(true, mpi.LXOR), n % 2 == 1)
  t.eq(w:allreduce(me + 1, mpi.LAND), 1)
  t.eq(w:allreduce(me, mpi.LOR), n > 1 and 1 or 0)
  t.eq(w:allreduce(-1, mpi.BAND), -1)
  t.eq(w:allreduce(1 << me, mpi.BOR), (1 << n) - 1)
  if n > 1 then  -- MPI_C_BOOL on one rank, MPI_INT on another
    t.raises(function() w:allreduce(me == 0 and true or 1, mpi.LAND) end, "MPI_ERR_TYPE")
  end
end)

t.case("MAXLOC/MINLOC: ties take the smallest index, also negative ones", function()
  t.eq(mpi.reduce_local({3, 7}, {3, -2}, mpi.MAXLOC), {3, -2})
  t.eq(mpi.reduce_local({3, -9}, {3, -2}, mpi.MINLOC), {3, -9})
  t.eq(mpi.reduce_local({2.5, 1}, {2.5, 1}, mpi.MINLOC), {2.5, 1})
  t.eq(w:allreduce({1, 100 - me}, mpi.MINLOC), {1, 100 - (n - 1)})
  t.eq(w:allreduce({7, n - me}, mpi.MAXLOC), {7, 1})
  -- odd ranks share the maximum 1; the smallest index is -(largest odd rank)
  local largest_odd = (n - 1) % 2 == 1 and n - 1 or n - 2
  local want = n == 1 and {0, 0} or {1, -largest_odd}
  t.eq(w:reduce({me % 2, -me}, mpi.MAXLOC, 0), me == 0 and want or nil)
end)

-- ---- zero counts -------------------------------------------------------------------------

t.case("zero-length operands reduce to empty sequences", function()
  for _, name in ipairs({"SUM", "MAX", "LAND", "BXOR", "MAXLOC"}) do
    local op = mpi[name]
    t.eq(w:allreduce({}, op), {}, name)
    t.eq(w:reduce({}, op, 0), me == 0 and {} or nil, name)
    t.eq(w:scan({}, op), {}, name)
    local ex = w:exscan({}, op)
    if me == 0 then t.eq(ex, nil, name) else t.eq(ex, {}, name) end
    t.eq(mpi.reduce_local({}, {}, op), {}, name)
    local blocks, counts = {}, {}
    for i = 1, n do blocks[i] = {}; counts[i] = 0 end
    t.eq(w:reduce_scatter_block(blocks, op), {}, name)
    t.eq(w:reduce_scatter({}, counts, op), {}, name)
  end
end)

-- ---- exscan --------------------------------------------------------------------------------

t.case("exscan: rank 1 gets rank 0's value unchanged, later ranks the ordered fold", function()
  local wrap = mpi.op_create(function(a, b) return "(" .. a .. b .. ")" end, false)
  local got = w:exscan("<" .. me .. ">", wrap)
  if me == 0 then
    t.eq(got, nil)
  elseif me == 1 then
    t.eq(got, "<0>")
  else
    local want = ""
    for r = 0, me - 1 do want = want .. "<" .. r .. ">" end
    t.eq(got:gsub("[()]", ""), want)
  end
  local want = ""
  for r = 0, me do want = want .. "<" .. r .. ">" end
  t.eq((w:scan("<" .. me .. ">", wrap):gsub("[()]", "")), want)
  mpi.op_free(wrap)
end)

-- ---- roots -----------------------------------------------------------------------------------

t.case("reduce: ROOT, PROC_NULL and out-of-range roots are MPI_ERR_ROOT on an intracommunicator", function()
  for _, root in ipairs({n, -1, mpi.ROOT, mpi.PROC_NULL, math.maxinteger}) do
    t.raises(function() w:reduce(1, mpi.SUM, root) end, "MPI_ERR_ROOT")
  end
  t.eq(w:reduce(1, mpi.SUM, n - 1), me == n - 1 and n or nil)
end)

-- ---- intercommunicators ------------------------------------------------------------------------

local function make_inter()
  local color = me % 2
  local here = w:split(color, me)
  return here:intercomm_create(0, w, 1 - color, 91), color
end

t.case("intercomm reduce: the root's group passes no values; bad roots are MPI_ERR_ROOT", function()
  if n < 2 then t.skip("needs two ranks") end
  local inter, color = make_inter()
  local lr, rn = inter:rank(), inter:remote_size()
  for g = 0, 1 do
    local arg
    if color == g then arg = lr == 0 and mpi.ROOT or mpi.PROC_NULL else arg = 0 end
    -- in the root's group the value is not significant: nil, or even junk
    local v = color == g and (lr % 2 == 0 and nil or "junk") or {lr, 1}
    local got = inter:reduce(v, mpi.SUM, arg)
    if arg == mpi.ROOT then t.eq(got, {rn * (rn - 1) // 2, rn}) else t.eq(got, nil) end
  end
  t.raises(function() inter:reduce(1, mpi.SUM, rn) end, "MPI_ERR_ROOT")
  t.raises(function() inter:reduce(1, mpi.SUM, -7) end, "MPI_ERR_ROOT")
  inter:free()
end)

t.case("intercomm reductions go across, in the remote group's rank order", function()
  if n < 2 then t.skip("needs two ranks") end
  local inter, color = make_inter()
  local lr, ln, rn = inter:rank(), inter:size(), inter:remote_size()
  local cat = mpi.op_create(concat, false)
  local function word(g, r) return g .. ":" .. r .. ";" end
  local remote = ""
  for r = 0, rn - 1 do remote = remote .. word(1 - color, r) end
  t.eq(inter:allreduce(word(color, lr), cat), remote)
  t.eq(inter:allreduce({3, 50 - lr}, mpi.MAXLOC), {3, 50 - (rn - 1)})
  -- reduce_scatter: the count is ln*rn on both sides; this group's blocks
  -- hold rn elements each and come from the remote group's vectors
  local counts, values = {}, {}
  for i = 1, ln do counts[i] = rn end
  for k = 1, ln * rn do values[k] = color .. lr .. "." .. k .. " " end
  local got = inter:reduce_scatter(values, counts, cat)
  local want = {}
  for j = 1, rn do
    local k = lr * rn + j
    local s = ""
    for r = 0, rn - 1 do s = s .. (1 - color) .. r .. "." .. k .. " " end
    want[j] = s
  end
  t.eq(got, want)
  inter:free()
  mpi.op_free(cat)
end)

t.case("intercomm reduce_scatter: different counts on the two sides raise MPI_ERR_COUNT", function()
  if n < 3 then t.skip("needs groups of different sizes") end
  local inter = make_inter()
  local ln = inter:size()
  if ln == inter:remote_size() then inter:free(); t.skip("groups of equal size") end
  local counts, values = {}, {}
  for i = 1, ln do counts[i] = 1; values[i] = i end  -- ln elements here, rn there
  t.raises(function() inter:reduce_scatter(values, counts, mpi.SUM) end, "MPI_ERR_COUNT")
  t.raises(function() inter:reduce_scatter_block(values, mpi.SUM) end, "MPI_ERR_COUNT")
  t.eq(inter:allreduce(1, mpi.SUM), inter:remote_size())
  inter:free()
end)

-- ---- collective traffic is separate from point-to-point (Ballot 4 item 8) -----------------

t.case("a pending wildcard receive never matches collective traffic", function()
  if n < 2 then t.skip("needs two ranks") end
  local req
  if me == 0 then req = w:irecv(mpi.ANY_SOURCE, mpi.ANY_TAG) end
  t.eq(w:allreduce(me, mpi.SUM), n * (n - 1) // 2)
  t.eq(w:reduce_scatter_block((function() local b = {} for i = 1, n do b[i] = i end return b end)(),
                              mpi.SUM), (me + 1) * n)
  w:barrier()
  if me == 1 then w:send("p2p", 0, 5) end
  if me == 0 then
    local v, st = req:wait()
    t.eq(v, "p2p")
    t.eq(st.source, 1)
    t.eq(st.tag, 5)
  end
end)
