-- tests/scenarios/coll_inter.lua: collectives on an intercommunicator
-- (API.md §7; MPI-2.2 §5.2.2, reference §1.4, §1.5, §1.9) between the even
-- world ranks (group A) and the odd ones (group B): rooted forms with
-- ROOT/PROC_NULL, all-to-all forms that return the remote group's data,
-- reductions that combine the other group's data in its rank order.
local t = require("lumpi.test")
t.np = {2, 3, 4, 5, 7, 8, 16}

local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()
local color = me % 2
local here = w:split(color, me)
local inter = here:intercomm_create(0, w, 1 - color, 77)
local lr, ln, rn = inter:rank(), inter:size(), inter:remote_size()
local nA, nB = (n + 1) // 2, n // 2

local function val(group, r) return {g = group, r = r, s = string.rep("v", r % 3)} end
local concat = mpi.op_create(function(a, b) return a .. b end, false)
local function word(group, r) return group .. r .. "|" end

local function remote_words()
  local s = ""
  for r = 0, rn - 1 do s = s .. word(1 - color, r) end
  return s
end

t.case("the intercommunicator has the expected shape", function()
  t.eq(inter:test_inter(), true)
  t.eq(ln, color == 0 and nA or nB)
  t.eq(rn, color == 0 and nB or nA)
end)

t.case("barrier completes on both groups", function()
  for _ = 1, 3 do inter:barrier() end
end)

-- Root arguments for a call rooted at rank `root` of group `g`.
local function root_arg(g, root)
  if color ~= g then return root end
  return lr == root and mpi.ROOT or mpi.PROC_NULL
end

t.case("bcast goes from the root to every rank of the other group", function()
  for g = 0, 1 do
    local gsize = g == 0 and nA or nB
    for root = 0, gsize - 1 do
      local arg = root_arg(g, root)
      local got = inter:bcast(arg == mpi.ROOT and val(g, root) or nil, arg)
      if color == g then t.eq(got, nil) else t.eq(got, val(g, root)) end
    end
  end
end)

t.case("gather brings the other group's values to the root", function()
  for g = 0, 1 do
    local gsize = g == 0 and nA or nB
    for root = 0, gsize - 1 do
      local arg = root_arg(g, root)
      local got = inter:gather(val(color, lr), arg)
      if arg == mpi.ROOT then
        local want = {}
        for r = 0, rn - 1 do want[r + 1] = val(1 - color, r) end
        t.eq(got, want)
      else
        t.eq(got, nil)
      end
    end
  end
end)

t.case("scatter hands the root's values to the other group", function()
  for g = 0, 1 do
    local arg = root_arg(g, 0)
    local values
    if arg == mpi.ROOT then
      values = {}
      for r = 0, rn - 1 do values[r + 1] = {to = r} end
    end
    local got = inter:scatter(values, arg)
    if color == g then t.eq(got, nil) else t.eq(got, {to = lr}) end
  end
end)

t.case("scatter checks the root's values against the remote size", function()
  if color == 0 and lr == 0 then
    local too_many = {}
    for r = 1, rn + 1 do too_many[r] = r end
    t.raises(function() inter:scatter(too_many, mpi.ROOT) end, "MPI_ERR_COUNT")
  end
  t.raises(function() inter:bcast(1, rn) end, "MPI_ERR_ROOT")
  inter:barrier()
end)

t.case("allgather returns the remote group's values", function()
  local want = {}
  for r = 0, rn - 1 do want[r + 1] = val(1 - color, r) end
  t.eq(inter:allgather(val(color, lr)), want)
end)

t.case("alltoall exchanges one value with every remote rank", function()
  local values = {}
  for j = 0, rn - 1 do values[j + 1] = word(color, lr) .. "to" .. j end
  local want = {}
  for i = 0, rn - 1 do want[i + 1] = word(1 - color, i) .. "to" .. lr end
  t.eq(inter:alltoall(values), want)
  t.raises(function() inter:alltoall({}) end, "MPI_ERR_COUNT")
end)

t.case("reduce brings the other group's reduction, in its rank order, to the root", function()
  for g = 0, 1 do
    local arg = root_arg(g, (g == 0 and nA or nB) - 1)
    local got = inter:reduce(word(color, lr), concat, arg)
    if arg == mpi.ROOT then t.eq(got, remote_words()) else t.eq(got, nil) end
    local s = inter:reduce(lr + 1, mpi.SUM, arg)
    if arg == mpi.ROOT then t.eq(s, rn * (rn + 1) // 2) end
  end
end)

t.case("allreduce gives each group the other group's reduction", function()
  t.eq(inter:allreduce(word(color, lr), concat), remote_words())
  t.eq(inter:allreduce({lr, 1}, mpi.SUM), {rn * (rn - 1) // 2, rn})
  t.eq(inter:allreduce({lr % 2, lr}, mpi.MAXLOC), rn == 1 and {0, 0} or {1, 1})
end)

t.case("reduce_scatter_block scatters the other group's reduction", function()
  -- count = nA·nB: group A has blocks of nB elements, group B blocks of nA.
  local per, count = rn, nA * nB
  local blocks = {}
  for i = 0, ln - 1 do
    local b = {}
    for k = 0, per - 1 do b[k + 1] = lr * 100 + i * per + k end
    blocks[i + 1] = b
  end
  local got = inter:reduce_scatter_block(blocks, mpi.SUM)
  -- oracle: remote rank r's flat vector is r*100 + k for k < count
  local mylen = count // ln
  local want = {}
  for t_ = 0, mylen - 1 do
    local s = 0
    for r = 0, rn - 1 do s = s + r * 100 + lr * mylen + t_ end
    want[t_ + 1] = s
  end
  t.eq(got, want)
end)

t.case("reduce_scatter_block with one element per block when the groups match", function()
  if nA ~= nB then t.skip("groups differ in size") end
  local blocks = {}
  for i = 1, ln do blocks[i] = word(color, lr) .. i end
  local want = ""
  for r = 0, rn - 1 do want = want .. word(1 - color, r) .. (lr + 1) end
  t.eq(inter:reduce_scatter_block(blocks, concat), want)
end)

t.case("reduce_scatter with different counts on each side", function()
  local total = 6
  local counts = {}
  for i = 1, ln do counts[i] = 0 end
  if color == 0 then counts[ln] = total else counts[1] = 1; counts[ln] = counts[ln] + total - 1 end
  local values = {}
  for k = 1, total do values[k] = lr * 10 + k end
  local got = inter:reduce_scatter(values, counts, mpi.SUM)
  local first = 1
  for i = 1, lr do first = first + counts[i] end
  local want = {}
  for k = 0, counts[lr + 1] - 1 do
    local s = 0
    for r = 0, rn - 1 do s = s + r * 10 + first + k end
    want[k + 1] = s
  end
  t.eq(got, want)
end)

t.case("scan and exscan are not defined on intercommunicators", function()
  t.raises(function() inter:scan(1, mpi.SUM) end, "MPI_ERR_COMM")
  t.raises(function() inter:exscan(1, mpi.SUM) end, "MPI_ERR_COMM")
end)
