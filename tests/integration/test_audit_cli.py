"""tests/integration/test_audit_cli.py: an audit of API.md §11-13 through the
real binary: exit statuses (os.exit(0), MPI_Abort), awkward REPL input over
stdin (blank lines, split and unfinished chunks, errors on some ranks, a dead
rank, :restart), meta-command arguments, and `lumpi test` (deep equality,
timeouts with every rank's :status, deaths in a case, directories, junit).

usage: python3 test_audit_cli.py /path/to/lumpi
"""
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, no_leftovers, run, scratch_dir  # noqa: E402

LUMPI = sys.argv[1]
tmp = scratch_dir("lumpi-audit-cli-")


def write(name, text):
    path = os.path.join(tmp, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return path


# ---- §11 exit statuses ------------------------------------------------------------------

for n in (1, 3):
    rc, out, err, tag = run(LUMPI, ["-n", str(n), write("exit0.lua", "os.exit(0)\n")])
    check(f"every rank calling os.exit(0) exits 0, n={n}", rc == 0, f"{rc} {out} {err}")

rc, out, err, tag = run(LUMPI, ["-n", "3", "-e", "if mpi.rank() == 1 then os.exit(0) end return 1"])
check("one rank leaving with os.exit(0) is no error", rc == 0 and "[0,2] 1\n" in out, f"{rc} {out} {err}")

rc, out, err, tag = run(LUMPI, ["-n", "5", "-e", "if mpi.rank() == 4 then os.exit(3) end return 1"])
check("os.exit(3) on one rank of 5 gives status 3", rc == 3 and "rank 4 died: exit 3" in out, f"{rc} {out}")

for n in (1, 3, 5):
    rc, out, err, tag = run(LUMPI, ["-n", str(n), write("abort.lua",
                            "local w = mpi.COMM_WORLD\nif w:rank() == w:size() - 1 then w:abort(9) end\n"
                            "w:barrier()\n")])
    check(f"MPI_Abort(9) makes lumpi exit 9 (not 128+SIGKILL), n={n}", rc == 9, f"{rc} {out} {err}")
    check(f"MPI_Abort leaves no process, n={n}", no_leftovers(tag))

rc, out, err, tag = run(LUMPI, ["-n", "3", write("syntax.lua", "return 1 +\n")])
check("a script with a syntax error exits 1 and names the line",
      rc == 1 and "syntax.lua:2:" in err, f"{rc} {out} {err}")

# A hang that is no deadlock: rank 0 computes while rank 1 waits for it (a
# receive of rank 0 from itself would be a deadlock, found before any timeout).
HANG = ("if mpi.rank() == 0 then local t = mpi.wtime() + 20 while mpi.wtime() < t do end "
        "else mpi.COMM_WORLD:recv(0, 5) end")
rc, out, err, tag = run(LUMPI, ["-n", "2", "--timeout", "0.5", "-e", HANG])
check("--timeout takes fractions and interrupts -e (exit 1)",
      rc == 1 and "timeout after 0.5 s" in out and "LUMPI_ERR_INTERRUPTED" in err, f"{rc} {out} {err}")

for opts in (["-n"], ["--timeout", "0"], ["-n", "3x"], ["--frobnicate"]):
    rc, out, err, tag = run(LUMPI, opts + ["-e", "return 1"] if opts != ["-n"] else opts)
    check(f"usage error exits 2: {' '.join(opts)}", rc == 2 and "usage" in err, f"{rc} {err}")

# ---- §12 the REPL over stdin ------------------------------------------------------------

rc, out, err, tag = run(LUMPI, ["-n", "5"], stdin="\n   \n\t\nreturn 1\n\n")
check("blank lines run nothing", rc == 0 and out == "[0-4] 1\n", repr(out))

rc, out, err, tag = run(LUMPI, ["-n", "3"], stdin="for i = 1, 3 do\n\n  s = (s or 0) + i\nend\ns\n")
check("a chunk split over lines (with a blank one) runs once", out == "[0-2] 6\n", repr(out))

rc, out, err, tag = run(LUMPI, ["-n", "5"],
                        stdin="if mpi.rank() % 2 == 1 then error('odd') end return 'even'\n")
check("errors on some ranks only collate beside the values",
      out == "[0,2,4] even\n[1,3] error: stdin:1: odd\n", repr(out))

rc, out, err, tag = run(LUMPI, ["-n", "2"], stdin="x = = 1\nreturn 5\nfunction g(\n")
check("syntax errors are reported and the session goes on; an unfinished chunk at the end is reported",
      rc == 0 and out.startswith("[0-1] error: stdin:1:") and "[0-1] 5\n" in out
      and out.count("error:") == 2, f"{rc} {out!r}")

rc, out, err, tag = run(LUMPI, ["-n", "5"], stdin=(
    "if mpi.rank() == 3 then os.exit(3) end\nreturn mpi.size()\n:status\n:restart\n"
    "return mpi.rank() < 5\n"))
check("a rank that dies in the REPL is reported with its exit status",
      "rank 3 died: exit 3" in out and "[0-2,4] 5\n" in out
      and "not running" not in out, out)  # the next chunk runs on the live ranks only (docs/repl.md)
check(":status shows the dead rank", "[3] dead (exit 3)" in out and "[0-2,4] idle" in out, out)
check(":restart starts a fresh world of the same size",
      "started a world of 5 ranks" in out and out.endswith("[0-4] true\n"), out)
check("the largest rank exit code is the REPL's exit status", rc == 3, str(rc))
check("no process left after a death and :restart", no_leftovers(tag))

rc, out, err, tag = run(LUMPI, ["-n", "3"], stdin=":restart abc\nreturn mpi.size()\n:restart 7\nreturn mpi.size()\n")
check(":restart with a bad size is a usage message, the world stays",
      out.startswith("usage: :restart") and "[0-2] 3\n" in out and out.endswith("[0-6] 7\n"), out)

rc, out, err, tag = run(LUMPI, ["-n", "2"], stdin=":timeout 0.5\n" + HANG + "\n:timeout off\nreturn 1\n")
check(":timeout takes fractions of a second",
      out.startswith("timeout 0.5 s\ntimeout after 0.5 s: interrupting\n")
      and "LUMPI_ERR_INTERRUPTED" in out and out.endswith("no timeout\n[0-1] 1\n"), out)

rc, out, err, tag = run(LUMPI, ["-n", "3"], stdin=":on 7 x = 1\n:target 0,5\n:on 1\nreturn mpi.rank()\n")
check("bad rank sets are refused and leave the target alone",
      "out of range" in out and "usage: :on RANKS CODE" in out and out.endswith("[0] 0\n[1] 1\n[2] 2\n"), out)

dot = os.path.join(tmp, "split.dot")
rc, out, err, tag = run(LUMPI, ["-n", "5"], stdin=(
    ":draw mpi.COMM_WORLD:split(mpi.rank() % 2, mpi.rank())\n"
    f":dot mpi.COMM_WORLD:split(mpi.rank() < 2 and 0 or mpi.UNDEFINED) {dot}\n"))
check(":draw shows the partition of an odd world with new ranks",
      "  world  0 1 2 3 4\n  A      0 . 1 . 2\n  B      . 0 . 1 .\n" in out, out)
dot_text = open(dot).read() if os.path.exists(dot) else ""
check(":dot writes DOT to a file (COMM_NULL ranks are left out)",
      f"wrote {dot}" in out and dot_text.startswith("digraph") and dot_text.count("subgraph cluster") == 1,
      out + dot_text)



def node_x(svg):
    """{(cluster, rank): x} of the nodes graphviz drew ("c0_2": cluster 0, rank 2)."""
    ns = "{http://www.w3.org/2000/svg}"
    at = {}
    for g in ET.fromstring(svg).iter(ns + "g"):
        title, text = g.find(ns + "title"), g.find(ns + "text")
        if g.get("class") == "node" and title is not None and text is not None:
            cluster, rank = title.text.lstrip("c").split("_")
            at[(int(cluster), int(rank))] = float(text.get("x"))
    return at


# Drawn (graphviz, as the notebook shows :draw), a communicator's members
# stand left to right in rank order (issue 27 item 7: w1 stood left of w0).
if shutil.which("dot"):
    for n in (3, 4, 7):
        path = os.path.join(tmp, f"order{n}.dot")
        run(LUMPI, ["-n", str(n)], stdin=f":dot mpi.COMM_WORLD:split(mpi.rank() % 2, mpi.rank()) {path}\n")
        svg = subprocess.run(["dot", "-Tsvg", path], capture_output=True, text=True, timeout=60).stdout
        at = node_x(svg) if svg else {}
        rows = [[at[k] for k in sorted(at) if k[0] == c] for c in sorted({k[0] for k in at})]
        check(f":dot's drawing of a split lists each communicator's members in rank order, n={n}",
              len(at) == n and all(row == sorted(row) for row in rows), f"{at}\n{svg[:2000]}")
else:
    print("note: graphviz is not installed; the order of :dot's drawing was not checked")

plain = os.path.join(tmp, "plain-name")
rc, out, err, tag = run(LUMPI, ["-n", "3"], stdin=(
    f":dot mpi.COMM_WORLD:split(mpi.rank() % 2) {plain}\n"
    ":dot mpi.COMM_WORLD:split(0) rel-name.txt\n"))
check(":dot FILE takes any file name, not only *.dot",
      f"wrote {plain}" in out and "wrote rel-name.txt" in out and os.path.exists(plain), out)
if os.path.exists("rel-name.txt"):
    os.remove("rel-name.txt")

# ---- §13 lumpi test ------------------------------------------------------------------------

lib = write("lib/lib.lua", """
local t = require("lumpi.test")
t.np = {1, 5}
t.case("deep equality is Lua's ==", function()
  t.eq(1, 1.0)
  t.eq({1, {a = 2}}, {1.0, {a = 2.0}})
end)
t.case("deep equality sees extra keys", function()
  t.raises(function() t.eq({1}, {1, 2}) end)
end)
t.case("skip on one rank only", function() if mpi.rank() == 0 then t.skip("r0") end end)
-- os.exit right away: the rank's earlier case reports must still arrive.
t.case("dies", function()
  if mpi.rank() == mpi.size() - 1 then os.exit(3) end
end)
t.case("after the death", function() t.same_everywhere(mpi.size()) end)
""")
hang = write("lib/sub/hang.lua", """
local t = require("lumpi.test")
t.np = {3}
t.case("hangs on rank 1", function()  -- rank 2 computes: a hang, no deadlock
  if mpi.rank() == 1 then mpi.COMM_WORLD:recv(2, 7) end
  if mpi.rank() == 2 then local t0 = mpi.wtime() while mpi.wtime() - t0 < 30 do end end
end)
t.case("runs after", function() t.ok(true) end)
""")
junit = os.path.join(tmp, "junit.xml")
rc, out, err, tag = run(LUMPI, ["test", "--timeout", "1.5", "--junit", junit, os.path.dirname(lib)],
                        timeout=50)
check("lumpi test walks a directory and its subdirectories",
      out.count("== ") == 3 and "lib.lua  np=1" in out and "lib.lua  np=5" in out and "hang.lua  np=3" in out,
      out)
check("t.eq is deep equality with Lua's == (1 equals 1.0)",
      out.count("pass  deep equality is Lua's ==") == 2 and out.count("pass  deep equality sees extra keys") == 2,
      out)
check("a skip on one rank skips the case", out.count("skip  skip on one rank only (r0)") == 2, out)
check("a rank dying in a case fails it with the exit status",
      "[4] died: exit 3" in out and "[0] died: exit 3" in out and out.count("pass  after the death") == 2, out)
check("a timed-out case shows every rank's :status",
      "case 'hangs on rank 1' exceeded the 1.5 s timeout" in out
      and "[0] idle" in out and "[1] waiting in MPI_Recv(source=2, tag=7) on 'MPI_COMM_WORLD'" in out
      and "[2] running Lua code" in out and "deadlock" not in out, out)
check("the summary line ends the run", out.rstrip().splitlines()[-1] == "7 passed, 3 failed, 2 skipped", out)
check("a failing run exits 1", rc == 1, str(rc))
try:
    root = ET.parse(junit).getroot()
    ok = (root.get("tests") == "12" and root.get("failures") == "3" and root.get("skipped") == "2"
          and len(root.findall(".//testcase")) == 12 and len(root.findall(".//skipped")) == 2
          and [(x.get("tests"), x.get("failures"), x.get("skipped")) for x in root.findall("testsuite")]
          == [("5", "1", "1"), ("5", "1", "1"), ("2", "1", "0")])
    check("--junit counts what the summary counts", ok, ET.tostring(root).decode())
except (OSError, ET.ParseError) as e:
    check("--junit writes well-formed XML", False, str(e))
check("no process left after lumpi test", no_leftovers(tag))

rc, out, err, tag = run(LUMPI, ["test", "-n", "2", write("dup.lua",
                        "local t = require('lumpi.test')\n"
                        "for i = 1, 3 do t.case('same name', function() t.eq(i, 1) end) end\n")])
check("cases that share a name are counted one by one",
      out.count("pass  same name") == 1 and out.count("FAIL  same name") == 2
      and out.rstrip().endswith("1 passed, 2 failed"), out)

rc, out, err, tag = run(LUMPI, ["test", "-n", "3", "--timeout", "1", write("tophang.lua",
                        "local t = require('lumpi.test')\nt.case('a', function() end)\n"
                        "if mpi.rank() == 0 then mpi.COMM_WORLD:recv(2, 1) end\n"
                        "if mpi.rank() == 2 then local t0 = mpi.wtime() while mpi.wtime() - t0 < 30 do end end\n")],
                        timeout=20)
check("a hang outside every case times out too, with every rank's :status",
      rc == 1 and "FAIL  (file)" in out and "[0] waiting in MPI_Recv(source=2, tag=1)" in out
      and "[1] idle" in out and "[2] running Lua code" in out and out.rstrip().endswith("1 passed, 1 failed"),
      f"{rc} {out}")
check("no process left after a hang outside the cases", no_leftovers(tag))

rc, out, err, tag = run(LUMPI, ["test", "-n", "1", "--junit", "/nonexistent-dir/j.xml", write("one.lua",
                        "local t = require('lumpi.test')\nt.case('a', function() end)\n")])
check("an unwritable --junit file is an error", rc == 1 and "/nonexistent-dir/j.xml" in err, f"{rc} {err}")

rc, out, err, tag = run(LUMPI, ["test", "-n", "3", write("allpass.lua",
                        "local t = require('lumpi.test')\nt.case('a', function() t.same_everywhere(1) end)\n")])
check("a passing run without skips says 'N passed, 0 failed' and exits 0",
      rc == 0 and out.rstrip().splitlines()[-1] == "1 passed, 0 failed" and "np=3" in out, f"{rc} {out}")

shutil.rmtree(tmp, ignore_errors=True)
finish()
