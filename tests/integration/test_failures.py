# tests/integration/test_failures.py: ranks that die (SIGKILL, os.exit, a
# crash) while the REPL runs, driven under a pseudo-terminal: the death is
# reported with its status, ranks blocked on the dead one (reported as a
# deadlock while it was idle, the ranks staying blocked) get
# MPI_ERR_PROC_FAILED instead of hanging, the REPL survives, :restart starts a
# fresh world, and no process is left behind (not even after the coordinator
# itself is SIGKILLed).
# Usage: python3 test_failures.py /path/to/build/lumpi  (exit status 1 on failure)
import os, re, signal, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import scratch_dir  # noqa: E402
from ptyrun import Failure, Lumpi, run_tests, zombie  # noqa: E402


def check(cond, msg, screen=""):
    if not cond:
        raise Failure(msg + ("\nscreen:\n" + screen if screen else ""))


def pid_of_rank(l, rank):
    out = l.command(":on %d mpi.hw.info().pid" % rank)
    m = re.search(r"\[%d\] (\d+)" % rank, out)
    check(m, "no pid for rank %d" % rank, out)
    return int(m.group(1))


def fresh_world_works(l, n):
    out = l.command(":restart")
    check("started a world of %d ranks" % n in out, ":restart failed", out)
    out = l.command("mpi.COMM_WORLD:allgather(mpi.rank())")
    want = "[0-%d] {%s}" % (n - 1, ", ".join(str(i) for i in range(n)))
    check(want in out, "the fresh world does not work", out)


def test_sigkill_of_a_rank_fails_the_receives_waiting_for_it(exe):
    with Lumpi(exe, ["-n", "4"]) as l:
        l.prompt()
        victim = pid_of_rank(l, 2)
        l.line("if mpi.rank() ~= 2 then mpi.COMM_WORLD:recv(2, 5) end")
        # rank 2 is idle: a deadlock, found at once (the hang report came after 2 s); the ranks stay blocked
        l.expect(r"deadlock: ranks 0-1,3 in MPI_Recv\(source=2, tag=5\) on 'MPI_COMM_WORLD' wait for 2: "
                 r"rank 2 is idle", 1.5, "deadlock report")
        os.kill(victim, signal.SIGKILL)
        l.expect(r"rank 2 died: signal 9", 5)
        l.expect(r"\[0-1,3\] error: MPI_ERR_PROC_FAILED in MPI_Recv", 5)
        l.prompt(5)
        # the survivors still talk to each other
        out = l.command(":on 0-1,3 #mpi.COMM_WORLD:group():members()")
        check("[0-1,3] 4" in out, "survivors not usable", out)
        out = l.command("1")
        check("rank 2 is not running" in out or "[0-1,3] 1" in out, "dead rank not reported", out)
        fresh_world_works(l, 4)


def test_sigkill_during_a_collective_fails_every_survivor(exe):
    with Lumpi(exe, ["-n", "5"]) as l:
        l.prompt()
        victim = pid_of_rank(l, 3)
        l.line("if mpi.rank() ~= 3 then mpi.COMM_WORLD:barrier() end")
        l.expect(r"deadlock: ranks 0-2,4 in MPI_Barrier on 'MPI_COMM_WORLD' wait for 3: rank 3 is idle", 1.5,
                 "deadlock report")
        os.kill(victim, signal.SIGKILL)
        l.expect(r"rank 3 died: signal 9", 5)
        l.expect(r"\[0-2,4\] error: MPI_ERR_PROC_FAILED in MPI_Barrier", 5,
                 "every survivor fails, none hangs")
        l.prompt(5)
        fresh_world_works(l, 5)


def test_os_exit_is_reported_with_its_status(exe):
    with Lumpi(exe, ["-n", "3"]) as l:
        l.prompt()
        l.line("if mpi.rank() == 1 then os.exit(3) end mpi.COMM_WORLD:barrier()")
        l.expect(r"rank 1 died: exit 3", 6)
        l.expect(r"MPI_ERR_PROC_FAILED", 5)
        l.prompt(5)
        out = l.command(":status")
        check(re.search(r"\[1\] dead \(exit 3\)", out), ":status does not show the dead rank", out)
        out = l.command(":ranks")
        check(re.search(r"^1\s+\S+\s+\d+\s+dead", out, re.M), ":ranks does not show the dead rank", out)
        fresh_world_works(l, 3)


def test_a_crashing_rank_is_reported_and_the_repl_survives(exe):
    # Under AddressSanitizer (scripts/dev test --sanitize) a SIGSEGV becomes a
    # sanitizer report and exit 1; SIGABRT is left alone, so crash with that.
    sig, num = ("ABRT", 6) if "ASAN_OPTIONS" in os.environ else ("SEGV", 11)
    with Lumpi(exe, ["-n", "3"]) as l:
        l.prompt()
        l.line("if mpi.rank() == 0 then os.execute('kill -%s ' .. mpi.hw.info().pid) "
               "else mpi.COMM_WORLD:recv(0, 1) end" % sig)
        l.expect(r"rank 0 died: signal %d" % num, 8)
        l.expect(r"\[1-2\] error: MPI_ERR_PROC_FAILED in MPI_Recv", 5)
        l.prompt(5)
        out = l.command(":restart 2")
        check("started a world of 2 ranks" in out, ":restart 2 failed", out)
        out = l.command("mpi.size()")
        check("[0-1] 2" in out, "the restarted world has the wrong size", out)


def test_all_ranks_dead_leaves_a_usable_repl(exe):
    with Lumpi(exe, ["-n", "2"]) as l:
        l.prompt()
        l.line("os.exit(0)")
        l.expect(r"rank \d died: exit 0", 6)
        l.prompt(5)
        out = l.command("1+1")
        check("restart" in out or "not running" in out, "no hint after the world died", out)
        fresh_world_works(l, 2)


def test_sigkill_of_the_coordinator_leaves_no_rank(exe):
    l = Lumpi(exe, ["-n", "3"])
    try:
        l.prompt()
        l.line("mpi.COMM_WORLD:recv(0, 1)")
        time.sleep(0.5)
        check(len(l.ranks()) == 3, "expected 3 ranks, found %s" % l.ranks())
        os.kill(l.pid, signal.SIGKILL)
        l.wait(5)
    finally:
        l.close()  # raises if a rank is left


def test_script_exit_status_follows_the_ranks(exe):
    import tempfile
    d = scratch_dir("lumpi-fail-")
    path = os.path.join(d, "exit3.lua")
    with open(path, "w") as f:
        f.write("if mpi.rank() == 1 then os.exit(3) end\n")
    p = subprocess.run([exe, "-n", "3", path], capture_output=True, text=True, timeout=30,
                       start_new_session=True)
    check(p.returncode == 3, "exit status %d, want 3; stderr: %s" % (p.returncode, p.stderr))
    check("rank 1 died: exit 3" in p.stdout + p.stderr, "death not reported", p.stdout + p.stderr)


def test_a_third_ctrl_c_kills_a_rank_that_ignores_interrupts(exe):
    with Lumpi(exe, ["-n", "3"]) as l:
        l.prompt()
        # inside a C call (os.execute) a rank cannot see the interrupt
        l.line("if mpi.rank() == 1 then os.execute('sleep 20') end")
        time.sleep(0.5)
        for _ in range(3):
            l.ctrl_c()
            time.sleep(0.3)
        l.expect(r"killing the ranks still running", 5)
        l.expect(r"rank 1 died: signal 9", 5)
        l.prompt(5)
        check(l.text()[:l.pos].endswith("lumpi[0,2]> "), "the prompt does not show the live ranks", l.text()[-300:])
        out = l.command("mpi.rank()")  # runs on the live ranks the prompt shows
        check("[1]" not in out and "[0] 0" in out and "[2] 2" in out, "the command did not run on the live ranks", out)
        out = l.command(":on 1 return 1")  # asked by name, the dead rank is reported
        check("[1] not running" in out, "the killed rank is not reported", out)
        fresh_world_works(l, 3)


TESTS = [
    test_sigkill_of_a_rank_fails_the_receives_waiting_for_it,
    test_sigkill_during_a_collective_fails_every_survivor,
    test_os_exit_is_reported_with_its_status,
    test_a_crashing_rank_is_reported_and_the_repl_survives,
    test_all_ranks_dead_leaves_a_usable_repl,
    test_sigkill_of_the_coordinator_leaves_no_rank,
    test_script_exit_status_follows_the_ranks,
    test_a_third_ctrl_c_kills_a_rank_that_ignores_interrupts,
]

if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_failures.py /path/to/lumpi [test name substring]")
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    sys.exit(run_tests([t for t in TESTS if only in t.__name__], os.path.abspath(sys.argv[1])))
