"""tests/integration/test_capi.py: the C API from a user's side: lumpi-cc
(next to lumpi in the build tree) compiles tests/exec/capi.c against mpi.h
and libmpi, `lumpi-cc -show` prints the command, and `lumpi exec` runs the
program at 1, 2 and 5 ranks: error codes under MPI_ERRORS_RETURN, the fatal
default (the world stops with the error class as status and the message),
attributes with C callbacks, a Cartesian ring; no process left behind.
MPICH's own tests judge the rest (tests/mpich).

usage: python3 test_capi.py /path/to/lumpi
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, compile_program, finish, no_leftovers, run  # noqa: E402

LUMPI = sys.argv[1]
BUILD = os.path.dirname(os.path.abspath(LUMPI))
CC = os.path.join(BUILD, "lumpi-cc")
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "exec", "capi.c")

with tempfile.TemporaryDirectory(prefix="lumpi-capi-") as tmp:
    exe = os.path.join(tmp, "capi")
    show = subprocess.run([CC, "-show", "-o", exe, SRC], capture_output=True, text=True, timeout=30)
    check("lumpi-cc -show prints the compile and link command",
          show.returncode == 0 and "-I" in show.stdout and "libmpi.so" in show.stdout, show.stdout + show.stderr)
    compile_program(LUMPI, SRC, exe)
    bad = os.path.join(tmp, "bad.c")
    with open(bad, "w") as f:
        f.write("#include <mpi.h>\nint main(void) { MPI_File f; return 0; }\n")
    r = subprocess.run([CC, "-c", "-o", bad + ".o", bad], capture_output=True, text=True, timeout=60)
    check("what lumpi does not implement is not declared", r.returncode != 0 and "MPI_File" in r.stderr, r.stderr)

    for n in [1, 2, 5]:
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), exe, "ok"], timeout=60)
        lines = out.splitlines()
        check(f"the C program passes its checks at {n} ranks",
              rc == 0 and lines and lines[-1] == "done" and not any(l.startswith("FAIL") for l in lines)
              and len(lines) == 12, f"rc={rc} out={out!r} err={err!r}")
        check(f"no process left at {n} ranks", no_leftovers(tag))

    rc, out, err, tag = run(LUMPI, ["exec", "-n", "3", exe, "fatal"], timeout=60)
    check("MPI_ERRORS_ARE_FATAL stops the world with the error class as exit status",
          rc == 6 and "MPI_ERR_RANK in MPI_Send" in err, f"rc={rc} out={out!r} err={err!r}")
    check("no process left after a fatal error", no_leftovers(tag))

finish()
