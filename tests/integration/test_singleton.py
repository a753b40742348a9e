"""tests/integration/test_singleton.py: a program started without lumpi
exec initialises as a world of one rank (MPI-3.1 §10.5.2 "singleton
MPI_INIT", as MPICH and Open MPI run it; issue 27 item 3).

A C program built with lumpi-cc (shared and -static-mpi) and a Python
process loading libmpi.so through ctypes, each started by hand: MPI_Init
succeeds, MPI_COMM_WORLD and MPI_COMM_SELF have one rank, a send to
itself, a reduction and a split work, MPI_Finalize returns, the exit status
is 0, and the private ipc directory is gone afterwards. Several at once
do not interfere.

usage: python3 test_singleton.py /path/to/lumpi
"""
import glob
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, sanitized  # noqa: E402

LUMPI = sys.argv[1]
BUILD = os.path.dirname(os.path.abspath(LUMPI))
CC = os.path.join(BUILD, "lumpi-cc")
LIBMPI = os.path.join(BUILD, "capi", "libmpi.so")

PROGRAM = r"""
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int provided, rank, size, self, in = 41, out = 0, sum = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_size(MPI_COMM_SELF, &self);
  MPI_Sendrecv(&in, 1, MPI_INT, 0, 3, &out, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Allreduce(&in, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &half);
  int hs;
  MPI_Comm_size(half, &hs);
  MPI_Comm_free(&half);
  printf("rank %d of %d, self %d, got %d, sum %d, split %d\n", rank, size, self, out, sum, hs);
  MPI_Finalize();
  return 0;
}
"""
WANT = "rank 0 of 1, self 1, got 41, sum 41, split 1\n"

CTYPES = r"""
import ctypes, sys
mpi = ctypes.CDLL(sys.argv[1], ctypes.RTLD_GLOBAL)
mpi.MPI_Init(None, None)
rank, size = ctypes.c_int(-1), ctypes.c_int(-1)
mpi.MPI_Comm_rank(1, ctypes.byref(rank))  # MPI_COMM_WORLD is 1
mpi.MPI_Comm_size(1, ctypes.byref(size))
print(f"python rank {rank.value} of {size.value}")
sys.exit(mpi.MPI_Finalize())
"""


def leftovers(tmpdir):
    return glob.glob(os.path.join(tmpdir, "lumpi-singleton-*"))


with tempfile.TemporaryDirectory(prefix="lumpi-singleton-test-") as tmp:
    env = dict(os.environ, TMPDIR=tmp)
    for k in [k for k in env if k.startswith("LUMPI_")]:
        del env[k]
    src = os.path.join(tmp, "one.c")
    open(src, "w").write(PROGRAM)
    for kind, flags in (("shared", []), ("static", ["-static-mpi"])):
        exe = os.path.join(tmp, "one-" + kind)
        r = subprocess.run([CC] + flags + ["-Wall", "-Werror", "-o", exe, src], capture_output=True, text=True,
                           timeout=180)
        check(f"lumpi-cc builds the program ({kind})", r.returncode == 0, r.stderr[-2000:])
        r = subprocess.run([exe], capture_output=True, text=True, timeout=30, env=env)
        check(f"{kind}: started by hand, it is a world of one", r.returncode == 0 and r.stdout == WANT,
              f"rc={r.returncode} out={r.stdout!r} err={r.stderr!r}")
        check(f"{kind}: its private directory is gone", leftovers(tmp) == [], leftovers(tmp))
        procs = [subprocess.Popen([exe], stdout=subprocess.PIPE, text=True, env=env) for _ in range(3)]
        outs = [p.communicate(timeout=30)[0] for p in procs]
        check(f"{kind}: three at once do not interfere", all(p.returncode == 0 for p in procs) and outs == [WANT] * 3,
              f"{outs!r}")
    if sanitized(BUILD):
        print("skip: Python through ctypes in the sanitized build (the sanitizer runtime must come first)")
    else:
        r = subprocess.run([sys.executable, "-c", CTYPES, LIBMPI], capture_output=True, text=True, timeout=30,
                           env=env)
        check("Python through ctypes, started by hand, is a world of one",
              r.returncode == 0 and r.stdout == "python rank 0 of 1\n", f"rc={r.returncode} {r.stdout!r} {r.stderr!r}")
    check("no directory left at the end", leftovers(tmp) == [], leftovers(tmp))
finish()
