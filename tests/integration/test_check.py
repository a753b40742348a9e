"""tests/integration/test_check.py: the checker (docs/checking.md) under
`lumpi exec`: lumpi-cc builds tests/exec/check_cases.c, and every buggy case
that hangs is reported as it happens (no --timeout: the run's own bound is
the test's), naming the ranks and the MPI section, exit status 1, and a
JSON finding in --check-report; its correct twin runs silently (status 0,
nothing on stderr, an empty report), at 2, 3, 4 and 5 ranks, with and without
--check. The latency from start to report is printed.

usage: python3 test_check.py /path/to/lumpi
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, compile_program, finish, no_leftovers, run, scratch_dir  # noqa: E402

LUMPI = sys.argv[1]
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "exec", "check_cases.c")
tmp = scratch_dir("lumpi-check-")
exe = os.path.join(tmp, "cases")
compile_program(LUMPI, SRC, exe, ("-g", "-Wall", "-Werror"))

# buggy case -> (correct twin, what the report must say, smallest world it needs)
CASES = {
    "ssend_cycle": ("ssend_ok", "deadlock: 0 -> 1 -> ", 2),
    "ring_recv": ("ring_ok", "deadlock: 0 -> ", 2),
    "recv_finalized": ("recv_ok", "rank 0", 2),
    "waitall_bug": ("waitall_ok", "rank 0 in MPI_Recv(source=1, tag=2)", 2),
    "recv_self": ("self_ok", "MPI_Recv(source=%d, tag=3) on 'MPI_COMM_WORLD' waits for %d", 1),
    "coll_swap": ("coll_ok", "collective mismatch: ", 2),
    "comm_cross": ("comm_ok", "collective mismatch: ", 2),
}
SECTION = "MPI-3.1 §"

for n in [2, 3, 4, 5]:
    for bug, (ok, says, least) in CASES.items():
        if n < least:
            continue
        says = says % (n - 1, n - 1) if "%d" in says else says
        for flags in ([], ["--check"]):
            report = os.path.join(tmp, f"{bug}-{n}.json")
            t0 = time.time()
            rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n)] + flags + ["--check-report", report, exe, bug],
                                    timeout=30)
            took = time.time() - t0
            found = json.load(open(report))["findings"] if os.path.exists(report) else None
            name = f"{bug} at {n} ranks {' '.join(flags)}".strip()
            print(f"     {name}: reported after {took:.2f} s (whole run)")
            # Under --check swapped collectives are compared before they block
            # (tests/integration/test_check_coll.py has the rest of that check).
            found_as = ("collective mismatch found", "different collectives") if flags and bug == "coll_swap" \
                else ("deadlock found", says)
            check(f"{name}: reported as it happens, exit 1",
                  rc == 1 and all(w in err for w in found_as) and SECTION in err and took < 5,
                  f"rc={rc} took={took:.2f} err={err!r}")
            check(f"{name}: one finding in the report file", found is not None and len(found) == 1, repr(found))
            check(f"{name}: nothing left behind", no_leftovers(tag))
            rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n)] + flags + ["--check-report", report, exe, ok],
                                    timeout=30)
            found = json.load(open(report))["findings"] if os.path.exists(report) else None
            check(f"{ok} at {n} ranks {' '.join(flags)}: silent, exit 0, empty report",
                  rc == 0 and err == "" and out.endswith("done\n") and found == [],
                  f"rc={rc} out={out!r} err={err!r} found={found!r}")
            check(f"{ok} at {n} ranks: nothing left behind", no_leftovers(tag))

finish()
