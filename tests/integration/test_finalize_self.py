"""tests/integration/test_finalize_self.py: at rank shutdown the attributes
on COMM_SELF are deleted first, newest first, and their delete callbacks run
(MPI-2.1 Annex B item 22, MPI-3.1 §8.7.1 "in the reverse order that they were
set"), while MPI is still usable (mpi.finalized() is false in them): at the
end of a script, at :restart and :quit in the REPL, and at os.exit in a
script. The callbacks append to one file per rank, which this test reads
after lumpi returns, and print a line, which must reach the user in each of
those four ways (issue 27 item 2: nothing printed is lost); at 1, 3, 4 and
7 ranks.

usage: python3 test_finalize_self.py /path/to/lumpi
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, no_leftovers, run  # noqa: E402

LUMPI = sys.argv[1]

# Sets three COMM_SELF attributes in the order two, three, one; each delete
# callback appends "<value> <mpi.finalized()>" to D/r<rank>.txt and prints
# "deleted <value>".
SETUP = (
    "kv = {} for i = 1, 3 do kv[i] = mpi.comm_create_keyval{delete = function(c, k, v) "
    "local f = assert(io.open(D .. '/r' .. mpi.rank() .. '.txt', 'a')) "
    "f:write(v, ' ', tostring(mpi.finalized()), '\\n') f:close() print('deleted ' .. v) end} end "
    "mpi.COMM_SELF:set_attr(kv[2], 'two') mpi.COMM_SELF:set_attr(kv[3], 'three') "
    "mpi.COMM_SELF:set_attr(kv[1], 'one')"
)
EXPECTED = "one false\nthree false\ntwo false\n"


def files_ok(d, n):
    got = {}
    for r in range(n):
        p = os.path.join(d, f"r{r}.txt")
        got[r] = open(p).read() if os.path.exists(p) else None
    return all(v == EXPECTED for v in got.values()), got


# Every rank's three "deleted" lines are in the output, newest first.
def printed(out, n):
    for r in range(n):
        lines = [ln for ln in out.splitlines() if ln.startswith(f"[{r}] deleted ")]
        if lines != [f"[{r}] deleted {v}" for v in ("one", "three", "two")]:
            return False
    return True


for n in [1, 3, 4, 7]:
    with tempfile.TemporaryDirectory(prefix="lumpi-fin-") as d:
        script = os.path.join(d, "s.lua")
        with open(script, "w") as f:
            f.write(f"D = {d!r}\n{SETUP}\nprint('set')\n")
        rc, out, err, tag = run(LUMPI, ["-n", str(n), script], timeout=90)
        ok, got = files_ok(d, n)
        check(f"end of a script runs the COMM_SELF delete callbacks newest first ({n} ranks)",
              rc == 0 and ok, f"rc={rc} got={got} out={out!r} err={err!r}")
        check(f"what they print at the end of a script is shown ({n} ranks)", printed(out, n), out)
        check(f"no process left after the script ({n} ranks)", no_leftovers(tag))

    with tempfile.TemporaryDirectory(prefix="lumpi-fin-") as d:
        stdin = f"D = {d!r}\n{SETUP}\n:restart\nreturn mpi.size()\n"
        rc, out, err, tag = run(LUMPI, ["-n", str(n)], stdin=stdin, timeout=90)
        ok, got = files_ok(d, n)
        check(f":restart runs the old world's COMM_SELF delete callbacks newest first ({n} ranks)",
              ok, f"rc={rc} got={got} out={out!r} err={err!r}")
        check(f"what they print at :restart is shown ({n} ranks)", printed(out, n), out)
        check(f"the new world after :restart answers ({n} ranks)", str(n) in out, out)
        check(f"no process left after :restart ({n} ranks)", no_leftovers(tag))

    with tempfile.TemporaryDirectory(prefix="lumpi-fin-") as d:
        stdin = f"D = {d!r}\n{SETUP}\n:quit\n"
        rc, out, err, tag = run(LUMPI, ["-n", str(n)], stdin=stdin, timeout=90)
        ok, got = files_ok(d, n)
        check(f":quit runs the COMM_SELF delete callbacks newest first ({n} ranks)",
              ok, f"rc={rc} got={got} out={out!r} err={err!r}")
        check(f"what they print at :quit is shown ({n} ranks)", printed(out, n), out)
        check(f"no process left after :quit ({n} ranks)", no_leftovers(tag))

    with tempfile.TemporaryDirectory(prefix="lumpi-fin-") as d:
        script = os.path.join(d, "s.lua")
        with open(script, "w") as f:
            f.write(f"D = {d!r}\n{SETUP}\nos.exit(0)\n")
        rc, out, err, tag = run(LUMPI, ["-n", str(n), script], timeout=90)
        ok, got = files_ok(d, n)
        check(f"os.exit in a script runs the COMM_SELF delete callbacks newest first ({n} ranks)",
              ok, f"rc={rc} got={got} out={out!r} err={err!r}")
        check(f"what they print at os.exit is shown ({n} ranks)", printed(out, n), out)
        check(f"no process left after os.exit ({n} ranks)", no_leftovers(tag))

finish()
