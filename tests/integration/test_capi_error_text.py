"""tests/integration/test_capi_error_text.py: an error code returned to a C
program carries the detailed message in C's terms (tests/exec/capi_error_text.c:
MPI_Comm_split's colour -2 names MPI_UNDEFINED, MPI_Group_incl's bad first
rank names ranks[0], a struct's second blocklength is blocklengths[1]), at
1, 2, 3 and 5 ranks; no process left behind.

usage: python3 test_capi_error_text.py /path/to/lumpi
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, compile_program, finish, no_leftovers, run  # noqa: E402

LUMPI = sys.argv[1]
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "exec", "capi_error_text.c")

with tempfile.TemporaryDirectory(prefix="lumpi-capi-text-") as tmp:
    exe = os.path.join(tmp, "capi_error_text")
    compile_program(LUMPI, SRC, exe)
    for n in [1, 2, 3, 5]:
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), exe], timeout=90)
        check(f"every check passes on every rank at {n} ranks",
              rc == 0 and all(f"rank {i}: 0 failures" in out for i in range(n)),
              f"rc={rc} out={out!r} err={err!r}")
        check(f"no process left at {n} ranks", no_leftovers(tag))

finish()
