"""tests/integration/test_win_idle.py: passive-target one-sided access
(MPI-3.1 §11.5.3) completes while the target rank sits idle at the REPL
prompt: `:on 1` runs lock/put/get/accumulate/unlock on rank 1 only, rank 0
runs nothing meanwhile (its host's idle loop progresses the engine, which
serves the window), and the next command sees the data on rank 0.

usage: python3 test_win_idle.py /path/to/lumpi
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, no_leftovers, run  # noqa: E402

LUMPI = sys.argv[1]

script = "\n".join([
    "win, buf = mpi.COMM_WORLD:win_allocate(32, 8, nil, mpi.DOUBLE)",
    ":on 1 win:lock(mpi.LOCK_EXCLUSIVE, 0); "
    "win:put(mpi.buffer(mpi.DOUBLE, 2, {42.5, 7}), 2, mpi.DOUBLE, 0, 1, 2, mpi.DOUBLE); "
    "win:unlock(0); print('unlocked')",
    ":on 2 win:lock(mpi.LOCK_SHARED, 0); "
    "win:accumulate(mpi.buffer(mpi.DOUBLE, 1, {3}), 1, mpi.DOUBLE, 0, 2, 1, mpi.DOUBLE, mpi.SUM); "
    "g = mpi.buffer(mpi.DOUBLE, 4); win:get(g, 4, mpi.DOUBLE, 0, 0, 4, mpi.DOUBLE); "
    "win:unlock(0); print('got', g[2], g[3])",
    ":on 0 print('rank0', buf[1], buf[2], buf[3], buf[4])",
    "win:free()",
    "print('freed')",
]) + "\n"
rc, out, err, tag = run(LUMPI, ["-n", "3", "--timeout", "60"], stdin=script, timeout=120)
check("lumpi -n 3 exits 0 and leaves no rank", rc == 0 and no_leftovers(tag), f"{rc}\n{out}\n{err}")
check("rank 1's lock, put and unlock complete while rank 0 is idle", "[1] unlocked" in out, out)
check("rank 2's shared lock, accumulate and get complete while rank 0 is idle",
      "[2] got\t42.5\t10.0" in out, out)
check("rank 0 then holds what was put and accumulated", "[0] rank0\t0.0\t42.5\t10.0\t0.0" in out, out)
check("the window is freed collectively afterwards", out.count("freed") == 3, out)
finish()
