"""tests/integration/test_runner.py: `lumpi test` itself: world sizes from
t.np, pass/fail/skip accounting, failure details with ranks and lines, the
per-case timeout (on a case that hangs without a deadlock: a rank computes),
rerunning after a hang or a deadlock found as it happens, --junit, and exit
statuses.

usage: python3 test_runner.py /path/to/lumpi
"""
import os
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, no_leftovers, run, scratch_dir  # noqa: E402

LUMPI = sys.argv[1]
tmp = scratch_dir("lumpi-runner-")


def scenario(name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


good = scenario("good.lua", """
local t = require("lumpi.test")
t.np = {1, 3}
t.case("sizes", function() t.ok(mpi.size() == 1 or mpi.size() == 3) end)
t.case("same everywhere", function() t.same_everywhere(mpi.size()) end)
t.case("skipped", function() t.skip("not today") end)
""")
rc, out, err, tag = run(LUMPI, ["test", good])
check("t.np sizes each run once", out.count("np=1") == 1 and out.count("np=3") == 1, out)
check("summary counts passes and skips", out.rstrip().endswith("4 passed, 0 failed, 2 skipped"), out)
check("a passing run exits 0", rc == 0, str(rc))
check("no process left after lumpi test", no_leftovers(tag))

bad = scenario("bad.lua", """
local t = require("lumpi.test")
t.np = {4}
t.case("fails on odd ranks", function()
  t.eq(mpi.rank() % 2, 0)
end)
t.case("raises the wrong class", function()
  t.raises(function() mpi.COMM_WORLD:send(1, 99) end, "MPI_ERR_TAG")
end)
t.case("still runs", function() t.ok(true) end)
""")
junit = os.path.join(tmp, "out.xml")
rc, out, err, tag = run(LUMPI, ["test", "--junit", junit, bad])
check("a failure names the ranks, the line and both values",
      "[1,3] " in out and "bad.lua:5: t.eq failed: got 1, expected 0" in out, out)
check("t.raises reports the class it got", "expected MPI_ERR_TAG, got MPI_ERR_RANK" in out, out)
check("a failing run exits non-zero with the summary", rc == 1 and out.rstrip().endswith("1 passed, 2 failed"), f"{rc} {out}")
suites = ET.parse(junit).getroot()
cases = suites.findall(".//testcase")
check("JUnit XML lists every case with failures marked",
      len(cases) == 3 and len(suites.findall(".//failure")) == 2 and suites.get("failures") == "2",
      ET.tostring(suites).decode())

hang = scenario("hang.lua", """
local t = require("lumpi.test")
t.np = {3}
t.case("hangs on rank 1", function()
  if mpi.rank() == 1 then mpi.COMM_WORLD:recv(2, 7) end
  if mpi.rank() == 2 then local t = os.time() + 60; while os.time() < t do end end  -- computing: no deadlock
end)
t.case("runs on a fresh world", function()
  mpi.COMM_WORLD:barrier()
  t.eq(mpi.COMM_WORLD:allgather(mpi.rank()), {0, 1, 2})
end)
""")
rc, out, err, tag = run(LUMPI, ["test", "--timeout", "2", hang], timeout=60)
check("a hanging case fails with where the rank was blocked",
      "waiting in MPI_Recv(source=2, tag=7) on 'MPI_COMM_WORLD'" in out and "[1] " in out, out)
check("the cases after a hang run on a fresh world", "pass  runs on a fresh world" in out, out)
check("the hang run ends with one failure", out.rstrip().endswith("1 passed, 1 failed"), out)
check("no process left after a timeout", no_leftovers(tag))

deadlock = scenario("deadlock.lua", """
local t = require("lumpi.test")
t.np = {3}
t.case("deadlocks on rank 1", function()
  if mpi.rank() == 1 then mpi.COMM_WORLD:recv(2, 7) end
end)
t.case("runs on a fresh world", function()
  mpi.COMM_WORLD:barrier()
  t.eq(mpi.COMM_WORLD:allgather(mpi.rank()), {0, 1, 2})
end)
""")
t0 = time.time()
rc, out, err, tag = run(LUMPI, ["test", "--timeout", "20", deadlock], timeout=60)
took = time.time() - t0
print(f"     the deadlock run took {took:.2f} s")
check("a deadlocking case fails at once with the deadlock's report, no timeout needed",
      rc == 1 and took < 10 and "deadlock found:" in out and "timed out" not in out and
      "rank 1 in MPI_Recv(source=2, tag=7) on 'MPI_COMM_WORLD' waits for 2" in out, f"took={took:.2f}\n{out}")
check("the cases after a deadlock run on a fresh world", "pass  runs on a fresh world" in out, out)
check("the deadlock run ends with one failure and the checks' count",
      out.rstrip().endswith("1 passed, 1 failed\nthe checks found 1 error(s) (docs/checking.md)"), out)
check("no process left after a deadlock", no_leftovers(tag))

broken = scenario("broken.lua", "local t = require('lumpi.test')\nt.case('x', function() end\n")
rc, out, err, tag = run(LUMPI, ["test", "-n", "2", broken])
check("a file that does not compile is a failure", rc == 1 and "(file)" in out and "1 failed" in out, out)

rc, out, err, tag = run(LUMPI, ["test", "-n", "2", "--timeout", "2", tmp], timeout=120)
check("a directory runs every .lua file in it", out.count("== ") == 6, out)

finish()
