-- tests/scenarios/coll_root_errors.lua: an argument only one rank can check
-- (the root's values, a rank's own contribution) fails every rank that would
-- have used it, instead of leaving them blocked, and the world stays usable.
local t = require("lumpi.test")
t.np = {1, 2, 3, 5}

local w = mpi.COMM_WORLD
local me, n = w:rank(), w:size()

local function still_consistent()
  t.eq(w:allreduce(1, mpi.SUM), n)
  t.eq(w:bcast(me == 0 and "fresh" or nil, 0), "fresh")
end

t.case("a wrong-length scatter table at the root fails every rank with MPI_ERR_COUNT", function()
  local e = t.raises(function() w:scatter(me == 0 and {1, 2, 3, 4, 5, 6} or nil, 0) end, "MPI_ERR_COUNT")
  t.eq(e.func, "MPI_Scatter")
  if n > 1 then still_consistent() end
end)

t.case("an unsendable bcast value at the root fails every rank with MPI_ERR_TYPE", function()
  local root = n - 1
  local e = t.raises(function() w:bcast(me == root and {f = print} or nil, root) end, "MPI_ERR_TYPE")
  if me == root then t.ok(e.message:find("value.f", 1, true), e.message) end
  still_consistent()
end)

t.case("an unsendable gather contribution fails its rank and the root only", function()
  local bad = n > 1 and 1 or 0
  local ok, e = pcall(w.gather, w, me == bad and print or me, 0)
  if me == bad or me == 0 then
    t.eq(ok, false)
    t.eq(e.class, "MPI_ERR_TYPE")
  else
    t.eq(ok, true)
  end
  still_consistent()
end)

t.case("an unsendable allgather contribution fails every rank", function()
  t.raises(function() w:allgather(me == 0 and coroutine.create(print) or me) end, "MPI_ERR_TYPE")
  still_consistent()
end)

t.case("an unsendable alltoall element fails the ranks that receive it", function()
  local values = {}
  for r = 1, n do values[r] = me end
  if me == 0 then values[n] = print end  -- only the last rank receives it
  local ok, e = pcall(w.alltoall, w, values)
  if me == 0 or me == n - 1 then
    t.eq(ok, false)
    t.eq(e.class, "MPI_ERR_TYPE")
  else
    t.eq(ok, true)
  end
  still_consistent()
end)
