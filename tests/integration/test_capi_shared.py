"""tests/integration/test_capi_shared.py: libmpi.so from a user's side
(issue 26): lumpi-cc links it by default and -static-mpi the archives; the
library exports every function mpi.h declares (and its PMPI_ name,
test_pmpi.py) and the C++ API, and hides the
runtime under them; a program finds it by its run path (no LD_LIBRARY_PATH
here); `lumpi-cc -shared -fPIC` builds a module that a program knowing no
MPI dlopen()s and becomes a rank through; a Python process becomes a rank
through ctypes alone (libmpi.so with RTLD_GLOBAL, or the module). Each runs
under `lumpi exec` at 1, 2 and 3 ranks, leaving no process behind.

In a sanitized build the Python runs are skipped (the interpreter is not
instrumented, so the sanitizer runtime a sanitized libmpi.so needs is not in
the process) and the dlopen host is linked with the sanitizer runtimes.

usage: python3 test_capi_shared.py /path/to/lumpi
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, elf_dynamic, cmake_cache, finish, no_leftovers, run, sanitized, scratch_dir  # noqa: E402

LUMPI = sys.argv[1]
BUILD = os.path.dirname(os.path.abspath(LUMPI))
CC = os.path.join(BUILD, "lumpi-cc")
LIBMPI = os.path.join(BUILD, "capi", "libmpi.so")
MPI_H = os.path.join(BUILD, "include", "mpi.h")
EXEC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "exec")
PYTHON = "/usr/bin/python3"
os.environ.pop("LD_LIBRARY_PATH", None)  # every library is found by a run path


def sh(args):
    return subprocess.run(args, capture_output=True, text=True, timeout=300)


def runs(args, want, what):
    for n in (1, 2, 3):
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n)] + args, timeout=60)
        check(f"{what} at {n} ranks", rc == 0 and out == want(n), f"rc={rc} out={out!r} err={err[-2000:]!r}")
        check(f"{what}: no process left at {n} ranks", no_leftovers(tag))


SANITIZED = sanitized(BUILD)
tmp = scratch_dir("lumpi-shared-")

# 1. The library: its name, and what it shows.
check("libmpi.so's soname is libmpi.so.0", elf_dynamic(LIBMPI, "SONAME") == ["libmpi.so.0"], elf_dynamic(LIBMPI, "SONAME"))
header = open(MPI_H).read()
declared = set(re.findall(r"^(?!typedef)[A-Za-z_][\w ]*?[ *](MPI_\w+)\s*\(", header, re.M))
symbols = sh(["nm", "-D", "--defined-only", "-C", LIBMPI]).stdout.splitlines()
names = [line.split(" ", 2)[2] for line in symbols if line.count(" ") >= 2]
check("libmpi.so exports every function mpi.h declares", len(declared) > 200 and declared <= set(names),
      sorted(declared - set(names))[:20])
check("libmpi.so exports the C++ API", {"lumpi::Init()", "lumpi::Finalize()", "typeinfo for lumpi::Exception"}
      <= set(names), [n for n in names if n.startswith("lumpi::I")][:20])
hidden = [n for n in names if not re.match(r"(P?MPI_|lumpi::[A-Z]|(typeinfo|typeinfo name|vtable) for lumpi::[A-Z])", n)]
check("libmpi.so hides the runtime under the API", not hidden, hidden[:20])

# 2. lumpi-cc: shared by default, -static-mpi.
RING = os.path.join(EXEC, "capi_ring.c")
show = sh([CC, "-show", "-o", "x", RING]).stdout
check("lumpi-cc links libmpi.so with a run path by default", LIBMPI in show and f"-Wl,-rpath,{os.path.dirname(LIBMPI)}"
      in show and "libmpi.a" not in show, show)
show = sh([CC, "-show", "-static-mpi", "-o", "x", RING]).stdout
check("lumpi-cc -static-mpi links the archives", "libmpi.a" in show and "libmpi.so" not in show
      and "-static-mpi" not in show, show)


def ring_out(n):
    return f"ring {n} of {n}\n"


shared, static = os.path.join(tmp, "ring-shared"), os.path.join(tmp, "ring-static")
r = sh([CC, "-Wall", "-Werror", "-o", shared, RING])
check("lumpi-cc builds a program against libmpi.so", r.returncode == 0, r.stderr[-2000:])
check("the program needs libmpi.so.0", "libmpi.so.0" in elf_dynamic(shared, "NEEDED"), elf_dynamic(shared, "NEEDED"))
check("the program's run path is libmpi.so's directory",
      elf_dynamic(shared, "RUNPATH") == [os.path.dirname(LIBMPI)], elf_dynamic(shared, "RUNPATH"))
r = sh([shared])
check("the program started by hand runs as a world of one (MPI-3.1 §10.5.2)",
      r.returncode == 0 and r.stdout == ring_out(1), f"rc={r.returncode} out={r.stdout!r} err={r.stderr!r}")
runs([shared], ring_out, "the program linked against libmpi.so")
r = sh([CC, "-static-mpi", "-Wall", "-Werror", "-o", static, RING])
check("lumpi-cc -static-mpi builds a program", r.returncode == 0, r.stderr[-2000:])
check("the static program needs no libmpi.so", not any("libmpi" in x for x in elf_dynamic(static, "NEEDED")),
      elf_dynamic(static, "NEEDED"))
runs([static], ring_out, "the program linked statically")

# 3. A module built with lumpi-cc -shared -fPIC, loaded by a program that knows no MPI.
module = os.path.join(tmp, "libmodule.so")
r = sh([CC, "-shared", "-fPIC", "-Wall", "-Werror", "-o", module, os.path.join(EXEC, "shared_module.c")])
check("lumpi-cc -shared -fPIC builds a module", r.returncode == 0, r.stderr[-2000:])
check("the module needs libmpi.so.0 and finds it by its run path", "libmpi.so.0" in elf_dynamic(module, "NEEDED")
      and elf_dynamic(module, "RUNPATH") == [os.path.dirname(LIBMPI)], sh(["readelf", "-d", module]).stdout)
host = os.path.join(tmp, "dlopen_host")
# sanitized: the runtimes libmpi.so needs, as lumpi-cc links them (capi/CMakeLists.txt)
sanitize = ["-fsanitize=address,undefined", "-fsanitize-link-c++-runtime", "-lstdc++"] if SANITIZED else []
r = sh([cmake_cache(BUILD, "CMAKE_C_COMPILER") or "cc", "-Wall", "-Werror"] + sanitize +
       ["-o", host, os.path.join(EXEC, "dlopen_host.c"), "-ldl"])
check("the dlopen host builds without lumpi-cc", r.returncode == 0, r.stderr[-2000:])
check("the dlopen host needs no libmpi", not any("libmpi" in x for x in elf_dynamic(host, "NEEDED")),
      elf_dynamic(host, "NEEDED"))


def module_out(n):
    return f"module: {n} ranks, sum {n * (n + 1) // 2}\n"


runs([host, module], module_out, "a program dlopen()ing the module")

# 4. Python, through ctypes.
if SANITIZED:
    print("skip the Python runs: this build's libmpi.so is instrumented (LUMPI_SANITIZE=ON) and needs the "
          "sanitizer runtime, which an uninstrumented python3 does not load")
else:
    r = sh([PYTHON, "-c", f"import ctypes; ctypes.CDLL({LIBMPI!r}, ctypes.RTLD_GLOBAL)"])
    check("ctypes.CDLL(libmpi.so, RTLD_GLOBAL) loads it", r.returncode == 0, r.stderr[-2000:])
    script = os.path.join(EXEC, "ctypes_ranks.py")
    runs([PYTHON, script, LIBMPI, MPI_H],
         lambda n: f"ctypes: {n} ranks, sum {n * (n + 1) // 2}, largest rank {n - 1}\n",
         "python3 through ctypes and libmpi.so")
    runs([PYTHON, script, "--module", module], module_out, "python3 loading the module with ctypes")

finish()
