"""tests/integration/test_capi_passive.py: passive-target progress does not
depend on the target calling MPI (issue 28 item 2), in C and in a pure C++
program (lumpi::Init, no mpi.h): lumpi-cc builds tests/exec/capi_passive.c
and lumpi-c++ tests/exec/cxx_passive.cpp without warnings, and `lumpi exec`
runs them at 2, 3 and 5 ranks (C) and 2, 3 and 4 ranks (C++); rank 0
computes for 2 s without an MPI call while the others' lock/get/accumulate/
fetch_and_op/unlock epochs, and a lock_all(MODE_NOCHECK) fetch_and_op with
flush, must each finish in under 1 s. Under `lumpi exec --check` too (the
passive thread serves a checked run, at 3 ranks), and there the `race` case
(two origins' puts to one location in concurrent shared lock epochs, served
while the target computes) is reported as an rma-conflict and exits 1.

usage: python3 test_capi_passive.py /path/to/build/lumpi
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, no_leftovers, run  # noqa: E402

LUMPI = os.path.abspath(sys.argv[1])
EXEC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "exec")


def passes(compiler, source, sizes, tmp):
    """Builds `source` with `compiler` and runs it at each world size (and
    under --check at 3); it prints "<name> ok". Returns the program's path."""
    name = os.path.splitext(source)[0]
    exe = os.path.join(tmp, name)
    r = subprocess.run([os.path.join(os.path.dirname(LUMPI), compiler), "-Wall", "-Werror", "-o", exe,
                        os.path.join(EXEC, source)], capture_output=True, text=True, timeout=300)
    check(f"{compiler} builds {source} without warnings", r.returncode == 0, r.stderr)
    if r.returncode != 0:
        return None
    for n, flags in [(n, []) for n in sizes] + [(3, ["--check"])]:
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n)] + flags + [exe], timeout=120)
        check(f"{name} {' '.join(flags)} passes at {n} ranks and leaves no rank",
              rc == 0 and f"{name} ok" in out and err == "" and no_leftovers(tag), f"{rc}\n{out}\n{err}")
    return exe


with tempfile.TemporaryDirectory(prefix="lumpi-passive-") as tmp:
    c_exe = passes("lumpi-cc", "capi_passive.c", (2, 3, 5), tmp)
    if c_exe:
        for n in (3, 4):
            rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), "--check", c_exe, "race"], timeout=120)
            check(f"--check reports the race the passive thread served, at {n} ranks",
                  rc == 1 and "rma-conflict" in out + err and "concurrent lock epochs" in out + err
                  and no_leftovers(tag), f"{rc}\n{out}\n{err}")
    passes("lumpi-c++", "cxx_passive.cpp", (2, 3, 4), tmp)
finish()
