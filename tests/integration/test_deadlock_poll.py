"""tests/integration/test_deadlock_poll.py: a polling loop that can never
succeed is a deadlock too (core/engine/poll.hpp, docs/checking.md
"Deadlocks", issue 25 item 1). lumpi-cc builds tests/exec/deadlock_poll.c;
each buggy case (MPI_Test, MPI_Iprobe, MPI_Testany in a loop whose message
never comes; a loop in a cycle with a blocked receive) is found by the live
watch without --timeout and without --check, the report naming the call as
"called in a loop", the world stopped, exit status 1; each correct twin
polls for longer than the watch's two seconds while its peer computes, and
ends normally with no report. At 2, 3 and 5 ranks. The C++ door (lumpi.hpp,
tests/exec/deadlock_poll.cpp) alike, at 3 and 5: Request::Test in a loop, and
its twin whose sender is late. The Lua door (tests/exec/deadlock_poll.lua,
run as a script) alike, at 2, 3 and 5: r:test, c:iprobe and mpi.testany in
a loop, and their twins.

usage: python3 test_deadlock_poll.py /path/to/lumpi
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, compile_program, finish, no_leftovers, run, scratch_dir  # noqa: E402

LUMPI = sys.argv[1]
EXEC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "exec")
SRC, CXX_SRC = os.path.join(EXEC, "deadlock_poll.c"), os.path.join(EXEC, "deadlock_poll.cpp")
tmp = scratch_dir("lumpi-deadlock-poll-")
exe = os.path.join(tmp, "poll")
compile_program(LUMPI, SRC, exe, ("-Wall", "-Werror"))
W = "'MPI_COMM_WORLD'"
LOOP = "(called in a loop)"

# buggy case -> (correct twin, what the report must say at n ranks)
CASES = {
    "test": ("test_ok", lambda n: f"rank 1 in MPI_Test(source=0, tag=7) on {W} {LOOP} waits for 0"),
    "iprobe": ("iprobe_ok", lambda n: f"rank 0 in MPI_Iprobe(source=1, tag=3) on {W} {LOOP} waits for 1"),
    "testany": ("testany_ok", lambda n: f"rank 0 in MPI_Testany(source={n - 1}, tag=1) on {W} {LOOP} "
                                        f"waits for {n - 1}"),
    "cycle": ("cycle_ok", lambda n: f"deadlock: 0 -> 1 -> 0: rank 0 in MPI_Test(source=1, tag=0) on {W} {LOOP} "
                                    f"waits for 1, rank 1 in MPI_Recv(source=0, tag=0) on {W} waits for 0"),
}

for n in (2, 3, 5):
    for bug, (ok, says) in CASES.items():
        t0 = time.time()
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), exe, bug], timeout=60)
        took = time.time() - t0
        check(f"{bug} at {n} ranks: found without a timeout ({took:.1f} s), the loop named, the world stopped",
              rc == 1 and "lumpi exec: deadlock found" in err and says(n) in err and took < 10
              and no_leftovers(tag), f"rc={rc} took={took:.1f}\nout={out!r}\n{err}")
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), exe, ok], timeout=60)
        check(f"{ok} at {n} ranks: polls past the watch's two seconds, ends normally, no report",
              rc == 0 and out.strip() == "done" and err == "" and no_leftovers(tag),
              f"rc={rc}\nout={out!r}\n{err}")
    for ok, what in (("busy_ok", "a loop whose calls differ is no polling streak"),
                     ("compute_ok", "a loop that computes 3 s between its tests, its partner in MPI_Recv, "
                                    "is no polling streak"),
                     ("deadline_ok", "an MPI_Iprobe loop that gives up after 0.8 s, its partner in MPI_Recv, "
                                     "ends before the watch's two seconds")):
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), exe, ok], timeout=60)
        check(f"{ok} at {n} ranks: {what}",
              rc == 0 and out.strip() == "done" and err == "" and no_leftovers(tag), f"rc={rc}\nout={out!r}\n{err}")

cxx_exe = os.path.join(tmp, "poll_cxx")
compile_program(LUMPI, CXX_SRC, cxx_exe, cxx=True)
for n in (3, 5):
    rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), cxx_exe, "never"], timeout=60)
    check(f"C++ Request::Test loop at {n} ranks: found without a timeout, the loop named",
          rc == 1 and f"rank 1 in MPI_Test(source=0, tag=5) on {W} {LOOP} waits for 0" in err and no_leftovers(tag),
          f"rc={rc}\nout={out!r}\n{err}")
    rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), cxx_exe, "late"], timeout=60)
    check(f"C++ twin at {n} ranks: the sender is late, no report",
          rc == 0 and out.strip() == "done" and err == "" and no_leftovers(tag), f"rc={rc}\nout={out!r}\n{err}")

LUA_SRC = os.path.join(EXEC, "deadlock_poll.lua")
LUA_CASES = {
    "test": lambda n: f"rank 1 in MPI_Test(source=0, tag=7) on {W} {LOOP} waits for 0",
    "iprobe": lambda n: f"rank 0 in MPI_Iprobe(source=1, tag=3) on {W} {LOOP} waits for 1",
    "testany": lambda n: f"rank 0 in MPI_Testany(source={n - 1}, tag=1) on {W} {LOOP} waits for {n - 1}",
}
for n in (2, 3, 5):
    for bug, says in LUA_CASES.items():
        t0 = time.time()
        rc, out, err, tag = run(LUMPI, ["-n", str(n), LUA_SRC, bug], timeout=60)
        took = time.time() - t0
        check(f"Lua {bug} loop at {n} ranks: found without a timeout ({took:.1f} s), the loop named",
              rc == 1 and "deadlock found" in out + err and says(n) in out + err and took < 10
              and no_leftovers(tag), f"rc={rc} took={took:.1f}\nout={out!r}\n{err}")
        rc, out, err, tag = run(LUMPI, ["-n", str(n), LUA_SRC, bug + "_ok"], timeout=60)
        check(f"Lua {bug}_ok at {n} ranks: polls past the two seconds, no report",
              rc == 0 and out.count("done") == n and "deadlock" not in out + err and no_leftovers(tag),
              f"rc={rc}\nout={out!r}\n{err}")

finish()
