"""tests/integration/test_capi_passive.py: passive-target progress does not
depend on the target calling MPI (issue 28 item 2): lumpi-cc builds
tests/exec/capi_passive.c without warnings and `lumpi exec` runs it at 2, 3
and 5 ranks; rank 0 computes for 2 s without an MPI call (three times)
while the others' lock/get/accumulate/fetch_and_op/unlock epochs, and a
lock_all(MODE_NOCHECK) fetch_and_op with flush, must each finish in under
1 s.

usage: python3 test_capi_passive.py /path/to/build/lumpi
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, no_leftovers, run  # noqa: E402

LUMPI = os.path.abspath(sys.argv[1])
CC = os.path.join(os.path.dirname(LUMPI), "lumpi-cc")
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "exec", "capi_passive.c")

with tempfile.TemporaryDirectory(prefix="lumpi-capi-passive-") as tmp:
    exe = os.path.join(tmp, "capi_passive")
    r = subprocess.run([CC, "-Wall", "-Werror", "-o", exe, SRC], capture_output=True, text=True, timeout=120)
    check("lumpi-cc builds capi_passive.c without warnings", r.returncode == 0, r.stderr)
    if r.returncode == 0:
        for n in (2, 3, 5):
            rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), exe], timeout=120)
            check(f"capi_passive passes at {n} ranks and leaves no rank",
                  rc == 0 and "capi_passive ok" in out and no_leftovers(tag), f"{rc}\n{out}\n{err}")
finish()
