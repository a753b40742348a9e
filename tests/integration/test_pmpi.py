"""tests/integration/test_pmpi.py: the profiling interface (MPI-3.1 §14.2,
capi/pmpi.hpp). mpi.h declares PMPI_<name> for every function MPI_<name>,
with the same arguments; libmpi.so and libmpi.a define each PMPI_<name>
and MPI_<name> as its weak alias. A tool's counting MPI_Send, MPI_Bcast
and MPI_Finalize (tests/exec/pmpi_tool.c) take the place of lumpi's for
a program (tests/exec/capi_pmpi.c) and count exactly the program's own
calls, not lumpi's nor the program's PMPI_ ones: linked into the program
statically and with libmpi.so, as a library the program links before
libmpi, and LD_PRELOADed into a program built without it (not in a
sanitized build, whose runtime must come first). Each runs under
`lumpi exec` at 1, 2, 3 and 5 ranks, leaving no process behind.

usage: python3 test_pmpi.py /path/to/lumpi
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, no_leftovers, run, scratch_dir  # noqa: E402

LUMPI = sys.argv[1]
BUILD = os.path.dirname(os.path.abspath(LUMPI))
CC = os.path.join(BUILD, "lumpi-cc")
MPI_H = os.path.join(BUILD, "include", "mpi.h")
EXEC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "exec")
PROGRAM, TOOL = os.path.join(EXEC, "capi_pmpi.c"), os.path.join(EXEC, "pmpi_tool.c")


def sh(args):
    return subprocess.run(args, capture_output=True, text=True, timeout=300)


def sanitized():
    with open(os.path.join(BUILD, "CMakeCache.txt")) as f:
        return re.search(r"^LUMPI_SANITIZE:\w+=ON$", f.read(), re.M) is not None


# 1. mpi.h: a PMPI_ prototype for every MPI_ one.
PROTOTYPE = re.compile(r"^([A-Za-z_]+ \*?)(P?MPI_[A-Z][a-z]\w*)(\(.*\));$", re.M)
prototypes = {name: (ret, args) for ret, name, args in PROTOTYPE.findall(open(MPI_H).read())}
functions = sorted(n for n in prototypes if n.startswith("MPI_"))
missing = [n for n in functions if prototypes.get("P" + n) != prototypes[n]]
check("mpi.h declares PMPI_<name> like MPI_<name> for every function", len(functions) > 250 and not missing,
      missing[:20])


# 2. The libraries: PMPI_<name> defined, MPI_<name> its weak alias.
def kinds(args):
    """{symbol: nm's letter} of the defined symbols nm lists."""
    out = sh(["nm", "--defined-only"] + args).stdout
    return {m.group(2): m.group(1) for m in re.finditer(r"^\w+ (\w) (\S+)$", out, re.M)}


for lib, args in (("libmpi.so", ["-D"]), ("libmpi.a", [])):
    have = kinds(args + [os.path.join(BUILD, "capi", lib)])
    wrong = [n for n in functions if have.get(n) != "W" or have.get("P" + n) != "T"]
    check(f"{lib}: every PMPI_<name> is defined and MPI_<name> is weak", not wrong,
          [(n, have.get(n), have.get("P" + n)) for n in wrong[:20]])

# 3. The tool in four places, the program at several sizes.
tmp = scratch_dir("lumpi-pmpi-")
exe = lambda name: os.path.join(tmp, name)  # noqa: E731
tool_lib = exe("libpmpi_tool.so")
builds = {
    "the program with the tool, static": [CC, "-static-mpi", "-o", exe("static"), PROGRAM, TOOL],
    "the program with the tool, with libmpi.so": [CC, "-o", exe("shared"), PROGRAM, TOOL],
    "the tool as a library": [CC, "-shared", "-fPIC", "-o", tool_lib, TOOL],
    "the program without the tool": [CC, "-o", exe("plain"), PROGRAM],
    "the program linked with the tool's library": [CC, "-o", exe("with_lib"), PROGRAM, tool_lib,
                                                   f"-Wl,-rpath,{tmp}"],
}
for what, args in builds.items():
    r = sh(args[:1] + ["-Wall", "-Werror"] + args[1:])
    check(f"lumpi-cc builds {what}", r.returncode == 0, r.stderr[-2000:])

runs = {"the tool linked statically": [exe("static")],
        "the tool linked with libmpi.so": [exe("shared")],
        "the tool as a library linked before libmpi": [exe("with_lib")]}
if sanitized():
    print("skip LD_PRELOAD: in a sanitized build the sanitizer runtime has to be the first library loaded")
else:
    runs["the tool LD_PRELOADed"] = ["env", f"LD_PRELOAD={tool_lib}", exe("plain")]
for n in (1, 2, 3, 5):
    counts = f"sends {n * (n + 1) // 2}, bcasts {2 * n}\n"
    rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), exe("plain")], timeout=60)
    check(f"the program alone at {n} ranks", rc == 0 and out == f"program: {counts}",
          f"rc={rc} out={out!r} err={err[-2000:]!r}")
    check(f"the program alone: no process left at {n} ranks", no_leftovers(tag))
    for what, args in runs.items():
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n)] + args, timeout=60)
        check(f"{what} counts the program's calls at {n} ranks",
              rc == 0 and out == f"program: {counts}tool: {counts}", f"rc={rc} out={out!r} err={err[-2000:]!r}")
        check(f"{what}: no process left at {n} ranks", no_leftovers(tag))

finish()
