"""tests/integration/test_halo_example.py: docs/datatypes.md's worked example,
the column halo of a 2-D grid with a vector datatype, in C
(scripts/halo_column.c, built with lumpi-cc, run with `lumpi exec`) and in
Lua (scripts/halo_column.lua): at 4 ranks both print exactly the output the
docs show (the block after the halo-example-output marker); at 3, 6 and 7
ranks the two print the same lines. No process is left behind.

usage: python3 test_halo_example.py /path/to/lumpi
"""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, compile_program, finish, no_leftovers, run  # noqa: E402

LUMPI = sys.argv[1]
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

doc = open(os.path.join(ROOT, "docs", "datatypes.md"), encoding="utf-8").read()
block = re.search(r"<!-- halo-example-output -->\n```\n(.*?)```", doc, re.S).group(1).splitlines()
documented = [line for line in block if not line.startswith("$ ")]

with tempfile.TemporaryDirectory(prefix="lumpi-halo-") as tmp:
    exe = os.path.join(tmp, "halo")
    compile_program(LUMPI, os.path.join(ROOT, "scripts", "halo_column.c"), exe)
    for n in [3, 4, 6, 7]:
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), exe], timeout=120)
        c_lines = out.splitlines()
        check(f"the C halo runs at {n} ranks", rc == 0 and len(c_lines) == n, f"rc={rc} out={out!r} err={err!r}")
        check(f"no process left after the C run at {n} ranks", no_leftovers(tag))
        rc, out, err, tag = run(LUMPI, ["-n", str(n), os.path.join(ROOT, "scripts", "halo_column.lua")], timeout=120)
        lua_lines = [line[4:] for line in out.splitlines() if line.startswith("[0] rank ")]
        check(f"the Lua halo prints what the C one does at {n} ranks", rc == 0 and lua_lines == c_lines,
              f"rc={rc} lua={out!r} c={c_lines!r} err={err!r}")
        check(f"no process left after the Lua run at {n} ranks", no_leftovers(tag))
        if n == 4:
            check("at 4 ranks the output is the one docs/datatypes.md shows", c_lines == documented,
                  f"{c_lines!r} vs {documented!r}")

finish()
