"""tests/integration/test_capi_win.py: the C API's windows: lumpi-cc builds
tests/exec/capi_win.c without warnings and `lumpi exec` runs it at 1, 3 and
4 ranks (fence and passive-target epochs, attributes, a keyval's delete
callback at MPI_Win_free, errors returned under MPI_ERRORS_RETURN, and
user-defined window error handlers, MPI-3.1 §8.3.2 and §8.3.6).

usage: python3 test_capi_win.py /path/to/build/lumpi
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, compile_program, finish, no_leftovers, run  # noqa: E402

LUMPI = os.path.abspath(sys.argv[1])
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "exec", "capi_win.c")

with tempfile.TemporaryDirectory(prefix="lumpi-capi-win-") as tmp:
    exe = os.path.join(tmp, "capi_win")
    if compile_program(LUMPI, SRC, exe):
        for n in (1, 3, 4):
            rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), exe], timeout=120)
            check(f"capi_win passes at {n} ranks and leaves no rank",
                  rc == 0 and "capi_win ok" in out and no_leftovers(tag), f"{rc}\n{out}\n{err}")
finish()
