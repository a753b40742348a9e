"""tests/integration/test_capi_nbc.py: the C API's nonblocking collectives
(tests/exec/capi_nbc.c) and its v/w-, neighbourhood and user-op
collectives, buffered/ready sends, persistent requests and MPI_Testsome
with inactive requests (tests/exec/capi_coll.c), the nonblocking v-, w-
and reduce-scatter collectives, intercommunicators included
(tests/exec/capi_nbcv.c), and the nonblocking neighbourhood collectives
against the blocking ones on Cartesian, graph and distributed-graph
communicators (tests/exec/capi_ineighbor.c), and errors met while
completing requests (tests/exec/capi_complete.c), MPI_Waitany and
MPI_Waitsome asleep while they wait (tests/exec/capi_waitany.c), and the
reductions over the op x type table, the pair types and derived types
(tests/exec/capi_reduce.c), and derived datatypes with holes in
point-to-point, collective, buffered and packing calls
(tests/exec/capi_derived.c), and matched probe and receive
(tests/exec/capi_message.c), and handles and statuses in their Fortran
form with the error classes of MPI-3.1's Table 8.2
(tests/exec/capi_fortran.c), and persistent requests in every send mode
with derived datatypes and MPI-3.1 §3.9's rules (tests/exec/capi_persistent.c),
and MPI_Comm_split_type's SHARED, HW_DOMAIN levels and errors
(tests/exec/capi_split_type.c), and MPI_Cancel of sends, unmatched and
matched (tests/exec/capi_cancel.c): lumpi-cc
builds each and `lumpi exec` runs it at 1, 2, 3, 4, 5 and 7 ranks; every
check passes and no process is left behind. A hung MPI_Waitany (its sender
computes: no deadlock) shows in
the hang report, and a peer's death ends it with MPI_ERR_PROC_FAILED.

usage: python3 test_capi_nbc.py /path/to/lumpi
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, compile_program, finish, no_leftovers, run  # noqa: E402

LUMPI = sys.argv[1]
BUILD = os.path.dirname(os.path.abspath(LUMPI))
EXEC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "exec")

with tempfile.TemporaryDirectory(prefix="lumpi-capi-nbc-") as tmp:
    for prog in ("capi_nbc", "capi_coll", "capi_nbcv", "capi_ineighbor", "capi_complete", "capi_waitany",
                 "capi_reduce", "capi_derived", "capi_message", "capi_fortran", "capi_persistent",
                 "capi_split_type", "capi_cancel"):
        exe = os.path.join(tmp, prog)
        compile_program(LUMPI, os.path.join(EXEC, prog + ".c"), exe)
        for n in [1, 2, 3, 4, 5, 7]:
            rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), exe], timeout=120)
            lines = out.splitlines()
            check(f"{prog}: every check passes at {n} ranks",
                  rc == 0 and lines == ["done"], f"rc={rc} out={out!r} err={err!r}")
            check(f"{prog}: no process left at {n} ranks", no_leftovers(tag))

    waitany = os.path.join(tmp, "capi_waitany")
    for n in [2, 3, 5]:
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), "--timeout", "1", waitany, "hang"], timeout=60)
        check(f"a hung MPI_Waitany shows in the hang report at {n} ranks",
              rc == 124 and "[0] waiting in MPI_Waitany() on 'MPI_COMM_WORLD'" in err and "deadlock" not in err,
              f"rc={rc} err={err!r}")
        check(f"no process left after the hang at {n} ranks", no_leftovers(tag))
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), waitany, "dead"], timeout=60)
        check(f"MPI_Waitany on a rank that dies gets MPI_ERR_PROC_FAILED at {n} ranks",
              rc == 4 and out == "rank 0: MPI_ERR_PROC_FAILED, index 1, request freed\n",
              f"rc={rc} out={out!r} err={err!r}")
        check(f"no process left after the death at {n} ranks", no_leftovers(tag))

finish()
