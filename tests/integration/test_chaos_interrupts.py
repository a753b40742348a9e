# tests/integration/test_chaos_interrupts.py: Ctrl-C at random moments into
# random constructors (split, dup, idup, Cartesian, graph, intercommunicators)
# and collectives on them, each followed by a check that the world is
# consistent: no stale message queued or matched (point-to-point or
# collective), collectives and constructors work. Under a pseudo-terminal,
# like a person at the REPL.
#
# Usage: python3 test_chaos_interrupts.py /path/to/build/lumpi
#   LUMPI_CHAOS_INTERRUPTS=N  interrupts in all (default 1000)
#   LUMPI_CHAOS_SEED=S        random seed (default: time; printed, to replay a failure)
import os, random, re, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptyrun import Failure, Lumpi, run_tests  # noqa: E402

# chaos_step(seed) runs random constructors and collectives until interrupted;
# every rank draws the same choices from the same seed, so the calls match up.
# chaos_check() says whether the world is consistent afterwards.
CHAOS_LUA = r"""
local w = mpi.COMM_WORLD
local n, me = w:size(), w:rank()

local function ring_graph()
  local index, edges = {}, {}
  for i = 0, n - 1 do
    edges[#edges + 1] = (i - 1) % n
    edges[#edges + 1] = (i + 1) % n
    index[#index + 1] = #edges
  end
  return index, edges
end

local function make(kind)
  if kind == 1 then return w:dup()
  elseif kind == 2 then
    local k, r = math.random(1, 3), math.random(0, 7)
    return w:split((me + r) % k, (me * (r + 1)) % n)
  elseif kind == 3 then
    local dims = mpi.dims_create(n, 2)
    return w:cart_create(dims, {math.random(2) == 1, math.random(2) == 1}, math.random(2) == 1)
  elseif kind == 4 then
    local index, edges = ring_graph()
    return w:graph_create(index, edges, false)
  elseif kind == 5 and n >= 2 then
    local half = w:split(me % 2, me)
    local ic = half:intercomm_create(0, w, me % 2 == 0 and 1 or 0, 99)
    half:free()
    return ic, true
  else
    local c, req = w:idup()
    req:wait()
    return c
  end
end

local function use(c, inter)
  local ops = math.random(1, 4)
  for _ = 1, ops do
    local op = math.random(1, 5)
    if op == 1 then c:barrier()
    elseif op == 2 then c:allreduce(me, mpi.SUM)
    elseif op == 3 then c:allgather({me, "x"})
    elseif op == 4 and not inter then c:bcast(me == 0 and "v" or nil, 0)
    elseif op == 5 and not inter then
      local t = {}
      for i = 1, c:size() do t[i] = me end
      c:alltoall(t)
    else c:barrier() end
  end
end

function chaos_step(seed)
  math.randomseed(seed)
  if me == 0 then print("go") end
  while true do
    -- traffic on COMM_WORLD that a stale leftover could spoil later
    w:send({stale = true}, (me + 1) % n, 7)
    w:bcast(me == 0 and "stale" or nil, 0)
    local c, inter = make(math.random(1, 6))
    if c then
      use(c, inter)
      c:free()
    end
    w:recv((me - 1) % n, 7)
  end
end

function chaos_check()
  -- every rank runs every step (an early return would hang the others) and
  -- reports all it found
  local bad = {}
  local flag, st = w:iprobe(mpi.ANY_SOURCE, mpi.ANY_TAG)
  if flag then bad[#bad + 1] = "a stale message is queued from " .. st.source .. " tag " .. st.tag end
  w:barrier()  -- every rank has probed before any sends below
  w:send(me, (me + 1) % n, 7)
  local v = w:recv((me - 1) % n, 7)
  if v ~= (me - 1) % n then bad[#bad + 1] = "a stale message matched: " .. tostring(v) end
  local b = w:bcast(me == 0 and "fresh" or nil, 0)
  if b ~= "fresh" then bad[#bad + 1] = "a stale bcast matched: " .. tostring(b) end
  local all = w:allgather(me)
  for i = 1, n do
    if all[i] ~= i - 1 then bad[#bad + 1] = "allgather gave " .. tostring(all[i]) .. " at " .. i end
  end
  local d = w:dup()
  local s = d:allreduce(1, mpi.SUM)
  d:free()
  if s ~= n then bad[#bad + 1] = "allreduce on a fresh dup gave " .. tostring(s) end
  return #bad == 0 and "ok" or table.concat(bad, "; ")
end
"""

INTERRUPTS = int(os.environ.get("LUMPI_CHAOS_INTERRUPTS", "1000"))
SEED = int(os.environ.get("LUMPI_CHAOS_SEED", str(int(time.time()))))
SIZES = [4, 5, 3]  # world sizes, in turn (one REPL each)


WHERE = {}  # interrupted call -> count (printed: the interrupts did land everywhere)


def interrupt_many(exe, n, count, rng, script):
    with Lumpi(exe, ["-n", str(n)]) as l:
        l.prompt()
        out = l.command("dofile(%r)" % script)
        if "error" in out:
            raise Failure("loading the chaos script failed:\n" + out)
        for i in range(count):
            seed = rng.randrange(1 << 30)
            l.line("chaos_step(%d)" % seed)
            l.expect(r"\[0\] go$", 10, "the step started")
            time.sleep(rng.uniform(0, 0.06))
            start = l.pos
            l.ctrl_c()
            l.prompt(10)
            after = l.text()[start:l.pos]
            errors = re.findall(r"error: (\S+)", after)
            for call in re.findall(r"error: LUMPI_ERR_INTERRUPTED in (\w+)", after):
                WHERE[call] = WHERE.get(call, 0) + 1
            wrong = [e for e in errors if e != "LUMPI_ERR_INTERRUPTED"]
            if not errors or wrong:
                raise Failure("interrupt %d (n=%d, step seed %d): expected only "
                              "LUMPI_ERR_INTERRUPTED, got:\n%s" % (i, n, seed, after[-2000:]))
            out = l.command("return chaos_check()", 15)
            if "[0-%d] ok" % (n - 1) not in out:
                raise Failure("interrupt %d (n=%d, step seed %d) left the world inconsistent:\n%s"
                              % (i, n, seed, out[-2000:]))


def test_interrupts_at_random_moments_leave_a_consistent_world(exe):
    rng = random.Random(SEED)
    print("seed %d, %d interrupts" % (SEED, INTERRUPTS), flush=True)
    fd, script = tempfile.mkstemp(prefix="lumpi-chaos-", suffix=".lua")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(CHAOS_LUA)
        done = 0
        for k, n in enumerate(SIZES):
            share = INTERRUPTS // len(SIZES) + (1 if k < INTERRUPTS % len(SIZES) else 0)
            t0 = time.time()
            interrupt_many(exe, n, share, rng, script)
            done += share
            print("  %d interrupts at n=%d in %.1f s" % (share, n, time.time() - t0), flush=True)
        print("  interrupted calls (rank lines): " +
              ", ".join("%s %d" % kv for kv in sorted(WHERE.items(), key=lambda kv: -kv[1])))
    finally:
        os.unlink(script)


TESTS = [test_interrupts_at_random_moments_leave_a_consistent_world]

if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_chaos_interrupts.py /path/to/lumpi")
    # one test: its bound grows with the count (about 3 interrupts a second at worst)
    sys.exit(run_tests(TESTS, os.path.abspath(sys.argv[1]), per_test=60 + INTERRUPTS // 3))
