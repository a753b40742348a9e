"""tests/integration/test_capi_errh.py: user-defined error handlers, added
error classes/codes/strings, derived datatypes with attributes, and
MPI_Finalize's deletion of COMM_SELF attributes (newest first, MPI-3.1
§8.7.1) through the C API: lumpi-cc builds tests/exec/capi_errh_type.c and
`lumpi exec` runs it at 1, 2, 3 and 5 ranks; no process left behind.

usage: python3 test_capi_errh.py /path/to/lumpi
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, no_leftovers, run  # noqa: E402

LUMPI = sys.argv[1]
BUILD = os.path.dirname(os.path.abspath(LUMPI))
CC = os.path.join(BUILD, "lumpi-cc")
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "exec", "capi_errh_type.c")
CHECKS = 24  # "ok" lines per rank

with tempfile.TemporaryDirectory(prefix="lumpi-capi-errh-") as tmp:
    exe = os.path.join(tmp, "capi_errh_type")
    r = subprocess.run([CC, "-Wall", "-Werror", "-o", exe, SRC], capture_output=True, text=True, timeout=120)
    check("lumpi-cc builds the program without warnings", r.returncode == 0, r.stderr)

    for n in [1, 2, 3, 5]:
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), exe], timeout=90)
        lines = out.splitlines()
        detail = f"rc={rc} out={out!r} err={err!r}"
        check(f"every check passes on every rank at {n} ranks",
              rc == 0 and not any(" FAIL " in l for l in lines)
              and all(sum(1 for l in lines if l.startswith(f"r{r} ok ")) == CHECKS for r in range(n)), detail)
        check(f"rank 0 reached MPI_Finalize at {n} ranks", "done" in lines, detail)
        for r in range(n):
            order = [l.split()[-1] for l in lines if l.startswith(f"r{r} self-delete ")]
            check(f"MPI_Finalize deleted rank {r}'s COMM_SELF attributes newest first (set 2, 3, 1)",
                  order == ["1", "3", "2"], detail)
        check(f"no process left at {n} ranks", no_leftovers(tag))

finish()
