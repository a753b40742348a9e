"""tests/integration/test_capi_rma.py: the rest of MPI-3.1 chapter 11 in C:
lumpi-cc builds tests/exec/capi_rma.c without warnings and `lumpi exec` runs
it at 1, 2, 3, 4 and 7 ranks (derived and signed-char datatypes in
put/get/accumulate, get_accumulate, fetch_and_op and compare_and_swap with
MPI_NO_OP and MPI_REPLACE, lock_all and the flushes, post/start/complete/
wait/test, the request-based operations, MPI_Win_sync, window info, and
the errors of misuse).

usage: python3 test_capi_rma.py /path/to/build/lumpi
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, compile_program, finish, no_leftovers, run  # noqa: E402

LUMPI = os.path.abspath(sys.argv[1])
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "exec", "capi_rma.c")

with tempfile.TemporaryDirectory(prefix="lumpi-capi-rma-") as tmp:
    exe = os.path.join(tmp, "capi_rma")
    if compile_program(LUMPI, SRC, exe):
        for n in (1, 2, 3, 4, 7):
            rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), exe], timeout=120)
            check(f"capi_rma passes at {n} ranks and leaves no rank",
                  rc == 0 and "capi_rma ok" in out and no_leftovers(tag), f"{rc}\n{out}\n{err}")
finish()
