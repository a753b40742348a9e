-- tests/scenarios/coll_reduce.lua: reductions on intracommunicators
-- (API.md §7, reference §1): reduce, allreduce, scan, exscan,
-- reduce_scatter_block and reduce_scatter with every predefined op and with
-- non-commutative user ops (2x2 matrix product, string concatenation),
-- each against a serial left-to-right fold; errors met while combining
-- reach every rank instead of leaving them blocked.
local t = require("lumpi.test")
t.np = {1, 2, 3, 4, 5, 7, 8, 16}

local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()

-- ---- serial oracles ----------------------------------------------------------

local function fold(f, xs, first, last)
  local acc = xs[first]
  for i = first + 1, last do acc = f(acc, xs[i]) end
  return acc
end

local function contributions(make, size)
  local xs = {}
  for r = 0, size - 1 do xs[r + 1] = make(r) end
  return xs
end

local ops = {
  SUM = function(a, b) return a + b end,
  PROD = function(a, b) return a * b end,
  MAX = function(a, b) return (b > a) and b or a end,
  MIN = function(a, b) return (b < a) and b or a end,
  LAND = function(a, b) return a and b end,
  LOR = function(a, b) return a or b end,
  LXOR = function(a, b) return a ~= b end,
  BAND = function(a, b) return a & b end,
  BOR = function(a, b) return a | b end,
  BXOR = function(a, b) return a ~ b end,
  MAXLOC = function(a, b)
    if b[1] > a[1] or (b[1] == a[1] and b[2] < a[2]) then return {b[1], b[2]} end
    return {a[1], a[2]}
  end,
  MINLOC = function(a, b)
    if b[1] < a[1] or (b[1] == a[1] and b[2] < a[2]) then return {b[1], b[2]} end
    return {a[1], a[2]}
  end,
}

local function elementwise(f)
  return function(a, b)
    local out = {}
    for i = 1, #a do out[i] = f(a[i], b[i]) end
    return out
  end
end

-- Per-op contributions of rank r: scalars and sequences.
local data = {
  SUM = function(r) return r * 3 - 7 end,
  PROD = function(r) return (r % 3) - 1 + (r == 5 and 3 or 0) end,
  MAX = function(r) return (r * 37) % 11 - 5 end,
  MIN = function(r) return (r * 37) % 11 + 0.5 end,
  LAND = function(r) return r ~= 3 end,
  LOR = function(r) return r == 4 end,
  LXOR = function(r) return r % 3 == 0 end,
  BAND = function(r) return 0xff ~ (1 << (r % 8)) end,
  BOR = function(r) return 1 << (r % 13) end,
  BXOR = function(r) return r * 0x1234 end,
  MAXLOC = function(r) return {(r * 5) % 4, r} end,   -- ties: several ranks share the max
  MINLOC = function(r) return {(r * 5) % 4 + 0.25, r} end,
}

local names = {"SUM", "PROD", "MAX", "MIN", "LAND", "LOR", "LXOR", "BAND", "BOR", "BXOR", "MAXLOC", "MINLOC"}

local function seq_of(make) return function(r) return {make(r), make(r + 1), make(r + 2)} end end

-- ---- predefined ops ------------------------------------------------------------

t.case("allreduce: every predefined op on scalars equals the serial fold", function()
  for _, name in ipairs(names) do
    local xs = contributions(data[name], n)
    local got = w:allreduce(data[name](me), mpi[name])
    t.eq(got, fold(ops[name], xs, 1, n), name)
  end
end)

t.case("allreduce: every predefined op on sequences works element-wise", function()
  for _, name in ipairs(names) do
    local make = seq_of(data[name])
    local got = w:allreduce(make(me), mpi[name])
    t.eq(got, fold(elementwise(ops[name]), contributions(make, n), 1, n), name)
  end
end)

t.case("reduce: every op at every root; nil off the root", function()
  for root = 0, n - 1 do
    for _, name in ipairs(names) do
      local got = w:reduce(data[name](me), mpi[name], root)
      if me == root then
        t.eq(got, fold(ops[name], contributions(data[name], n), 1, n), name .. " root " .. root)
      else
        t.eq(got, nil)
      end
    end
  end
end)

t.case("integers stay integers, a float makes the result a float", function()
  local s = w:allreduce(me, mpi.SUM)
  t.eq(math.type(s), "integer")
  t.eq(s, n * (n - 1) // 2)
  local f = w:allreduce(me == n - 1 and 1.0 or me, mpi.SUM)
  t.eq(math.type(f), "float")
  t.eq(w:allreduce(math.maxinteger, mpi.MAX), math.maxinteger)
  local m = w:allreduce({me, 2.5}, mpi.MAX)
  t.eq(math.type(m[1]), "integer")
end)

t.case("MAXLOC/MINLOC ties take the smallest index", function()
  t.eq(w:allreduce({7, n - 1 - me}, mpi.MAXLOC), {7, 0})
  t.eq(w:allreduce({7, n - 1 - me}, mpi.MINLOC), {7, 0})
  t.eq(w:allreduce({{1, me}, {me, me}}, mpi.MINLOC), {{1, 0}, {0, 0}})
end)

t.case("allreduce results agree bit for bit on floats", function()
  local got = w:allreduce(0.1 * (me + 1) + 1e-9 * me, mpi.SUM)
  t.same_everywhere(string.format("%a", got))
end)

t.case("scan and exscan equal the serial prefixes", function()
  for _, name in ipairs(names) do
    local xs = contributions(data[name], n)
    t.eq(w:scan(data[name](me), mpi[name]), fold(ops[name], xs, 1, me + 1), "scan " .. name)
    local ex = w:exscan(data[name](me), mpi[name])
    if me == 0 then t.eq(ex, nil) else t.eq(ex, fold(ops[name], xs, 1, me), "exscan " .. name) end
  end
end)

-- ---- non-commutative user ops ------------------------------------------------------

local function matmul(x, y)
  return {x[1] * y[1] + x[2] * y[3], x[1] * y[2] + x[2] * y[4],
          x[3] * y[1] + x[4] * y[3], x[3] * y[2] + x[4] * y[4]}
end
local function mat(r) return {r % 3, 1, 1, (r * 7) % 2} end
local concat = function(a, b) return a .. b end
local function word(r) return "<" .. r .. ">" end

local user = {
  {name = "matrix product", f = matmul, make = mat},
  {name = "string concatenation", f = concat, make = word},
}

t.case("non-commutative ops keep rank order in reduce (every root) and allreduce", function()
  for _, u in ipairs(user) do
    local op = mpi.op_create(u.f, false)
    local want = fold(u.f, contributions(u.make, n), 1, n)
    for root = 0, n - 1 do
      local got = w:reduce(u.make(me), op, root)
      if me == root then t.eq(got, want, u.name .. " root " .. root) end
    end
    t.eq(w:allreduce(u.make(me), op), want, u.name)
    mpi.op_free(op)
  end
end)

t.case("non-commutative ops keep rank order in scan and exscan", function()
  for _, u in ipairs(user) do
    local op = mpi.op_create(u.f, false)
    local xs = contributions(u.make, n)
    t.eq(w:scan(u.make(me), op), fold(u.f, xs, 1, me + 1), u.name)
    local ex = w:exscan(u.make(me), op)
    if me > 0 then t.eq(ex, fold(u.f, xs, 1, me), u.name) else t.eq(ex, nil) end
  end
end)

t.case("non-commutative ops keep rank order in reduce_scatter(_block)", function()
  local op = mpi.op_create(concat, false)
  local blocks = {}
  for i = 1, n do blocks[i] = me .. ":" .. i .. ";" end
  local want = ""
  for r = 0, n - 1 do want = want .. r .. ":" .. (me + 1) .. ";" end
  t.eq(w:reduce_scatter_block(blocks, op), want)
  local mop = mpi.op_create(matmul, false)
  local mats = {}
  for i = 1, n do mats[i] = mat(me + i) end
  local wantm = mat(me + 1)
  for r = 1, n - 1 do wantm = matmul(wantm, mat(r + me + 1)) end
  t.eq(w:reduce_scatter_block(mats, mop), wantm)
  -- reduce_scatter applies the op element by element
  local counts, values = {}, {}
  for r = 0, n - 1 do counts[r + 1] = r % 3 end
  for i = 1, (n // 3) * 3 + ({0, 0, 1})[n % 3 + 1] do values[i] = me .. "." .. i .. " " end
  local mine = w:reduce_scatter(values, counts, op)
  local first = 1
  for r = 0, me - 1 do first = first + counts[r + 1] end
  local wantv = {}
  for k = 0, counts[me + 1] - 1 do
    local s = ""
    for r = 0, n - 1 do s = s .. r .. "." .. (first + k) .. " " end
    wantv[k + 1] = s
  end
  t.eq(mine, wantv)
end)

-- ---- reduce_scatter ---------------------------------------------------------------------

local function value_of(r, i) return r * 1000 + i end

t.case("reduce_scatter_block gives each rank its reduced block", function()
  for _, name in ipairs({"SUM", "MAX", "BXOR"}) do
    local blocks = {}
    for i = 1, n do blocks[i] = value_of(me, i) end
    local want = fold(ops[name], contributions(function(r) return value_of(r, me + 1) end, n), 1, n)
    t.eq(w:reduce_scatter_block(blocks, mpi[name]), want, name)
  end
  local seqs = {}
  for i = 1, n do seqs[i] = {value_of(me, i), -me, 0.5} end
  t.eq(w:reduce_scatter_block(seqs, mpi.SUM),
       {fold(ops.SUM, contributions(function(r) return value_of(r, me + 1) end, n), 1, n),
        -(n * (n - 1) // 2), 0.5 * n})
end)

t.case("reduce_scatter with uneven counts and zeros equals reduce then scatter", function()
  for _, pattern in ipairs({"zeros", "uneven", "one"}) do
    local counts, total = {}, 0
    for r = 0, n - 1 do
      local k = pattern == "zeros" and ((r % 2 == 0) and 0 or r)
             or pattern == "uneven" and (r * 3) % 4
             or ((r == n - 1) and 5 or 0)
      counts[r + 1] = k
      total = total + k
    end
    local values = {}
    for i = 1, total do values[i] = value_of(me, i) end
    local got = w:reduce_scatter(values, counts, mpi.SUM)
    -- the oracle built from other collectives
    local full = w:reduce(values, mpi.SUM, 0)
    local pieces
    if me == 0 then
      pieces, total = {}, 1
      for r = 0, n - 1 do
        local p = {}
        for k = 1, counts[r + 1] do p[k] = full[total]; total = total + 1 end
        pieces[r + 1] = p
      end
    end
    t.eq(got, w:scatter(pieces, 0), pattern)
    t.eq(#got, counts[me + 1])
  end
end)

t.case("reduce_scatter with all counts zero returns an empty sequence", function()
  local counts = {}
  for r = 1, n do counts[r] = 0 end
  t.eq(w:reduce_scatter({}, counts, mpi.SUM), {})
end)

t.case("reduce_scatter on MAXLOC pairs and LAND booleans", function()
  local counts, values = {}, {}
  for r = 1, n do counts[r] = 1 end
  for i = 1, n do values[i] = {(me + i) % 3, me} end
  local got = w:reduce_scatter(values, counts, mpi.MAXLOC)
  local want = fold(ops.MAXLOC, contributions(function(r) return {(r + me + 1) % 3, r} end, n), 1, n)
  t.eq(got, {want})
  local bools = {}
  for i = 1, n do bools[i] = (me ~= i - 1) end
  t.eq(w:reduce_scatter(bools, counts, mpi.LAND), {n == 1 and false or false})
end)

-- ---- errors ----------------------------------------------------------------------------------

t.case("operands the op does not take raise before communicating", function()
  t.raises(function() w:allreduce(1.5, mpi.BAND) end, "MPI_ERR_OP")
  t.raises(function() w:allreduce("x", mpi.SUM) end, "MPI_ERR_OP")
  t.raises(function() w:reduce({1, "x"}, mpi.MAX, 0) end, "MPI_ERR_OP")
  t.raises(function() w:scan(3, mpi.MAXLOC) end, "MPI_ERR_OP")
  t.raises(function() w:allreduce(1, "NOPE") end, "MPI_ERR_OP")
  t.raises(function() w:allreduce(1, 42) end, "MPI_ERR_OP")
  t.raises(function() w:reduce_scatter({1}, {1, -1}, mpi.SUM) end,
           n == 2 and "MPI_ERR_COUNT" or "MPI_ERR_COUNT")
  t.raises(function() w:reduce_scatter_block({}, mpi.SUM) end, "MPI_ERR_COUNT")
  w:barrier()
end)

t.case("operands of different lengths on different ranks raise MPI_ERR_COUNT everywhere", function()
  if n == 1 then t.skip("needs two ranks") end
  local v = {1, 2}
  if me == n - 1 then v[3] = 3 end
  t.raises(function() w:allreduce(v, mpi.SUM) end, "MPI_ERR_COUNT")
  t.eq(w:allreduce(1, mpi.SUM), n)  -- the communicator still works
end)

t.case("a user op that raises fails the call on every rank", function()
  if n == 1 then t.skip("needs two ranks") end
  local op = mpi.op_create(function(a, b) if b == 1 then error("boom") end return a + b end, true)
  local err = t.raises(function() w:allreduce(me == 1 and 1 or 0, op) end, "MPI_ERR_OP")
  t.ok(tostring(err):find("boom"), tostring(err))
  t.eq(w:allreduce(2, op), 2 * n)
end)

t.case("ERRORS_RETURN turns a reduction error into nil, err", function()
  local d = w:dup()
  d:set_errhandler(mpi.ERRORS_RETURN)
  local r, err = d:allreduce(true, mpi.SUM)
  t.eq(r, nil)
  t.eq(err.class, "MPI_ERR_OP")
end)
