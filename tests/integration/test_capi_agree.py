"""tests/integration/test_capi_agree.py: the C API's side of issue 27, item 1
(tests/exec/capi_agree.c): MPI_Intercomm_create with a bad remote_leader at
the local leader, MPI_Intercomm_merge with one rank's different `high`,
MPI_Comm_create with overlapping groups, MPI_Reduce_scatter(_block) with one
rank's different counts and a barrier on an idup result before its request
completes each fail on every rank with the same class and text (and leave
no communicator), then the world still works. lumpi-cc builds the program
and `lumpi exec` runs it at 3, 4, 5 and 7 ranks, each run bounded in time
(a hang is reported, not waited for); no process is left behind.

usage: python3 test_capi_agree.py /path/to/lumpi
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, compile_program, finish, no_leftovers, run  # noqa: E402

LUMPI = sys.argv[1]
BUILD = os.path.dirname(os.path.abspath(LUMPI))
EXEC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "exec")

with tempfile.TemporaryDirectory(prefix="lumpi-capi-agree-") as tmp:
    exe = os.path.join(tmp, "capi_agree")
    compile_program(LUMPI, os.path.join(EXEC, "capi_agree.c"), exe)
    for n in [3, 4, 5, 7]:
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), "--timeout", "30", exe], timeout=90)
        check(f"capi_agree: every rank fails alike at {n} ranks",
              rc == 0 and out.splitlines() == ["done"], f"rc={rc} out={out!r} err={err!r}")
        check(f"capi_agree: no process left at {n} ranks", no_leftovers(tag))

finish()
