"""tests/integration/test_capi_signals.py: a C program's own signals and
early deaths (tests/exec/capi_signals.c, built with lumpi-cc, run with
`lumpi exec`).

- A SIGALRM every 0.5 ms, handled without SA_RESTART from before MPI_Init
  to after MPI_Finalize, interrupts start-up, messages, collectives, waits
  and shutdown: every check passes at 1, 2, 3, 5 and 7 ranks.
- A rank that joins and dies while MPI_Init still waits for a late rank:
  the others are told once the world is wired, so a receive from it and
  MPI_Finalize end with MPI_ERR_PROC_FAILED, and the world ends with the
  dead rank's status (128 + SIGALRM), at 3, 4 and 5 ranks.
No process is left behind.

usage: python3 test_capi_signals.py /path/to/lumpi
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, compile_program, finish, no_leftovers, run  # noqa: E402

LUMPI = sys.argv[1]
SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "exec", "capi_signals.c")

with tempfile.TemporaryDirectory(prefix="lumpi-capi-signals-") as tmp:
    exe = os.path.join(tmp, "capi_signals")
    compile_program(LUMPI, SOURCE, exe)
    for n in [1, 2, 3, 5, 7]:
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), exe], timeout=120)
        check(f"interrupted by SIGALRM, every call carries on at {n} ranks",
              rc == 0 and out.splitlines() == ["done"], f"rc={rc} out={out!r} err={err!r}")
        check(f"no process left at {n} ranks", no_leftovers(tag))
    for n in [3, 4, 5]:
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), exe, "early-death"], timeout=60)
        check(f"a rank that dies before the world is wired fails the waits that need it at {n} ranks",
              rc == 128 + 14 and out == "rank 0: recv MPI_ERR_PROC_FAILED, finalize MPI_ERR_PROC_FAILED\n",
              f"rc={rc} out={out!r} err={err!r}")
        check(f"no process left after the early death at {n} ranks", no_leftovers(tag))

finish()
