-- tests/bench/coll.lua: per-call latency of small collectives and
-- communicator constructors through the Lua API, timed as the anchor
-- mpi_coll.c times Open MPI (run: lumpi -n N tests/bench/coll.lua [target_s]).
-- Prints on rank 0:  COLL <name> <nranks> <iters> <us_per_call>
local w = mpi.COMM_WORLD
local target = tonumber(arg and arg[1]) or 0.3
local seq = {}
for i = 1, 1000 do seq[i] = 1.0 end

local function timed(f, n)
  w:barrier()
  local t0 = mpi.wtime()
  for _ = 1, n do f() end
  return w:allreduce((mpi.wtime() - t0) / n, mpi.MAX)
end

local function bench(name, f)
  timed(f, 5)
  local pilot = timed(f, 20)
  local n = math.floor(target / math.max(pilot, 1e-9))
  n = w:bcast(math.max(20, math.min(200000, n)), 0)
  local t = timed(f, n)
  if w:rank() == 0 then
    print(string.format("COLL %s %d %d %.3f", name, w:size(), n, t * 1e6))
  end
end

bench("barrier", function() w:barrier() end)
bench("allreduce", function() w:allreduce(1.0, mpi.SUM) end)
bench("allreduce1000", function() w:allreduce(seq, mpi.SUM) end)
bench("split", function() w:split(w:rank() % 2, w:rank()):free() end)
bench("cart", function()
  local c = w:cart_create(mpi.dims_create(w:size(), 2), {true, true}, false)
  if c then c:free() end
end)
