# tests/integration/test_chaos_kill.py: SIGKILL of a random rank at a random
# moment while every rank loops over collectives, at 4 to 16 ranks: every
# survivor raises MPI_ERR_PROC_FAILED within 2 s of the kill, the REPL lives,
# and :restart gives a working world. Under a pseudo-terminal.
#
# Usage: python3 test_chaos_kill.py /path/to/build/lumpi
#   LUMPI_CHAOS_KILLS=N   kills per world size (default 5)
#   LUMPI_CHAOS_SEED=S    random seed (default: time; printed)
#   LUMPI_CHAOS_FAIL_WITHIN=S   the bound on the survivors' error (default 2)
import os, random, re, signal, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptyrun import Failure, Lumpi, run_tests  # noqa: E402

KILLS = int(os.environ.get("LUMPI_CHAOS_KILLS", "5"))
SEED = int(os.environ.get("LUMPI_CHAOS_SEED", str(int(time.time()))))
WITHIN = float(os.environ.get("LUMPI_CHAOS_FAIL_WITHIN", "2"))
SIZES = [4, 7, 16]

LOOP = ("local w, me = mpi.COMM_WORLD, mpi.rank() if me == 0 then print('go') end "
        "while true do w:allreduce(me, mpi.SUM) w:barrier() w:bcast(me == 0 and 'x' or nil, 0) "
        "w:allgather(me) local d = w:dup() d:alltoall(w:allgather(me)) d:free() end")


def ranks_of(text):
    """The set of ranks in a collated prefix such as '0-2,4'."""
    out = set()
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out


def pids(l, n):
    out = l.command("return mpi.hw.info().pid", 20)
    found = {int(r): int(p) for r, p in re.findall(r"\[(\d+)\] (\d+)", out)}
    if len(found) != n:
        raise Failure("expected %d rank pids, got:\n%s" % (n, out))
    return found


def kill_during_collectives(l, n, rng, worst):
    victim = rng.randrange(n)
    pid = pids(l, n)[victim]
    l.line(LOOP)
    l.expect(r"\[0\] go$", 10, "the loop started")
    time.sleep(rng.uniform(0.05, 0.6))
    start = l.pos
    os.kill(pid, signal.SIGKILL)
    t_kill = time.time()
    survivors = set(range(n)) - {victim}
    failed = set()
    while failed != survivors:
        left = t_kill + WITHIN + 3 - time.time()
        if left <= 0:
            raise Failure("n=%d, rank %d killed: ranks %s did not raise MPI_ERR_PROC_FAILED;\n%s"
                          % (n, victim, sorted(survivors - failed), l.text()[start:][-2000:]))
        l._read(min(left, 0.05))
        for m in re.finditer(r"^\[([\d,\-]+)\] error: MPI_ERR_PROC_FAILED", l.text()[start:], re.M):
            failed |= ranks_of(m.group(1))
    took = time.time() - t_kill
    worst[0] = max(worst[0], took)
    if took > WITHIN:
        raise Failure("n=%d: the survivors raised MPI_ERR_PROC_FAILED %.2f s after the kill"
                      % (n, took))
    l.expect(r"rank %d died: signal 9" % victim, 5, "death report")
    l.prompt(5)
    out = l.command("return 1+1")  # the REPL lives
    if "[%d] not running" % victim not in out and "2" not in out:
        raise Failure("the REPL does not answer after the kill:\n" + out)
    out = l.command(":restart", 60)
    if "started a world of %d ranks" % n not in out:
        raise Failure(":restart failed:\n" + out)
    out = l.command("mpi.COMM_WORLD:allreduce(1, mpi.SUM)", 30)
    if "[0-%d] %d" % (n - 1, n) not in out:
        raise Failure("the restarted world does not work:\n" + out)


def test_sigkill_of_a_random_rank_during_collectives(exe):
    rng = random.Random(SEED)
    print("seed %d, %d kills per size" % (SEED, KILLS), flush=True)
    for n in SIZES:
        worst = [0.0]
        with Lumpi(exe, ["-n", str(n)]) as l:
            l.prompt(60)
            for _ in range(KILLS):
                kill_during_collectives(l, n, rng, worst)
        print("  n=%d: %d kills, survivors failed within %.2f s at worst" % (n, KILLS, worst[0]),
              flush=True)


TESTS = [test_sigkill_of_a_random_rank_during_collectives]

if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_chaos_kill.py /path/to/lumpi")
    sys.exit(run_tests(TESTS, os.path.abspath(sys.argv[1]), per_test=60 + 40 * KILLS))
