"""tests/integration/test_cxx_examples.py: the five C++ example programs of
scripts/cxx (ring, rows_cols, halo, uneven, particles: the public C++ API of
core/api/lumpi.hpp, no Lua) built as build/cxx-NAME and run with `lumpi exec` at several world
sizes, odd ones too. Each checks its own result against a serial answer and
exits non-zero when wrong; rank 0 prints one line saying so. Also checks
that lumpi::Init outside `lumpi exec` fails with a clear message.

usage: python3 test_cxx_examples.py /path/to/lumpi
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, no_leftovers, run  # noqa: E402

LUMPI = sys.argv[1]
BUILD = os.path.dirname(os.path.abspath(LUMPI))

for name in ["ring", "rows_cols", "halo", "uneven", "particles"]:
    prog = os.path.join(BUILD, "cxx-" + name)
    for n in [1, 2, 3, 4, 6, 7]:
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), prog], timeout=60)
        check(f"{name} on {n} ranks: exit 0 and 'ok'", rc == 0 and f"{name}: ok on {n} ranks" in out,
              f"rc={rc} out={out!r} err={err!r}")
        check(f"{name} on {n} ranks leaves no process", no_leftovers(tag))

# Started by hand, Init makes a world of one (MPI-3.1 §10.5.2).
p = subprocess.run([os.path.join(BUILD, "cxx-ring")], capture_output=True, text=True, timeout=30)
check("started by hand, the program runs as a world of one", p.returncode == 0 and "ring: ok on 1 ranks" in p.stdout,
      f"rc={p.returncode} out={p.stdout!r} err={p.stderr!r}")

finish()
