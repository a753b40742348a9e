"""tests/integration/test_install.py: `cmake --install` gives a C and C++
user everything issue 13 names: the binaries, the static libraries, the
headers (mpi.h, lumpi.hpp), lumpi-cc, a pkg-config file and a CMake package.
Programs are then built against the installed copy only, three ways (the
installed lumpi-cc, pkg-config, and a CMake project with find_package(lumpi)
linking lumpi::mpi and lumpi::lumpi), and each runs under the installed
`lumpi exec` at 1, 2 and 3 ranks, leaving no process behind.

A sanitized build installs instrumented libraries, which only a program built
with the same compiler and flags can link; there the builds of the third way
are skipped (lumpi-cc carries the flags and still runs), and the test says so.

usage: python3 test_install.py /path/to/lumpi
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, no_leftovers, run, scratch_dir  # noqa: E402

LUMPI = sys.argv[1]
BUILD = os.path.dirname(os.path.abspath(LUMPI))
EXEC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "exec")

C_RING = r"""
#include <mpi.h>
#include <stdio.h>
int main(int argc, char** argv) {
  int me, n, token = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (n == 1) token = 1;
  else if (me == 0) {
    token = 1;
    MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    MPI_Recv(&token, 1, MPI_INT, n - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(&token, 1, MPI_INT, me - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    token += 1;
    MPI_Send(&token, 1, MPI_INT, (me + 1) % n, 0, MPI_COMM_WORLD);
  }
  if (me == 0) printf("ring %d of %d\n", token, n);
  MPI_Finalize();
  return 0;
}
"""

CXX_SPLIT = r"""
#include <lumpi.hpp>
#include <cstdio>
int main(int argc, char** argv) {
  lumpi::Init(argc, argv);
  const lumpi::Intracomm& world = lumpi::COMM_WORLD;
  lumpi::Intracomm half = world.Split(world.Get_rank() % 2, world.Get_rank());
  int sum = 0, one = 1;
  half.Allreduce(&one, &sum, 1, lumpi::INT, lumpi::SUM);
  int total = 0;
  world.Allreduce(&sum, &total, 1, lumpi::INT, lumpi::SUM);
  if (world.Get_rank() == 0) std::printf("split %d\n", total);
  half.Free();
  lumpi::Finalize();
  return 0;
}
"""

CMAKE_PROJECT = """
cmake_minimum_required(VERSION 3.16)
project(uses_lumpi C CXX)
set(CMAKE_CXX_STANDARD 20)
find_package(lumpi REQUIRED)
add_executable(cring ring.c)
target_link_libraries(cring lumpi::mpi)
add_executable(cxxsplit split.cpp)
target_link_libraries(cxxsplit lumpi::lumpi)
"""


def sh(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, timeout=300, **kw)


def sanitized():
    with open(os.path.join(BUILD, "CMakeCache.txt")) as f:
        return re.search(r"^LUMPI_SANITIZE:BOOL=ON$", f.read(), re.M) is not None


def runs(lumpi, exe, want, what):
    for n in (1, 2, 3):
        rc, out, err, tag = run(lumpi, ["exec", "-n", str(n), exe], timeout=60)
        check(f"{what} at {n} ranks", rc == 0 and out == want(n), f"rc={rc} out={out!r} err={err[-2000:]!r}")
        check(f"{what}: no process left at {n} ranks", no_leftovers(tag))


tmp = scratch_dir("lumpi-install-")
prefix = os.path.join(tmp, "prefix")
r = sh(["cmake", "--install", BUILD, "--prefix", prefix])
check("cmake --install succeeds", r.returncode == 0, r.stderr[-2000:])
for f in ("bin/lumpi", "bin/lumpi-rank", "bin/lumpi-cc", "include/lumpi/mpi.h", "include/lumpi/lumpi.hpp",
          "lib/lumpi/libmpi.a", "lib/lumpi/liblumpi_core.a", "lib/pkgconfig/lumpi-mpi.pc",
          "lib/cmake/lumpi/lumpiConfig.cmake", "lib/cmake/lumpi/lumpiTargets.cmake", "share/man/man1/lumpi.1"):
    check(f"installed: {f}", os.path.exists(os.path.join(prefix, f)))

lumpi = os.path.join(prefix, "bin", "lumpi")
with open(os.path.join(tmp, "ring.c"), "w") as f:
    f.write(C_RING)
with open(os.path.join(tmp, "split.cpp"), "w") as f:
    f.write(CXX_SPLIT)


def ring_out(n):
    return f"ring {n} of {n}\n"


# 1. The installed lumpi-cc, on a program of ours and on one of the C tests.
exe = os.path.join(tmp, "ring-cc")
r = sh([os.path.join(prefix, "bin", "lumpi-cc"), "-Wall", "-Werror", "-o", exe, os.path.join(tmp, "ring.c")])
check("the installed lumpi-cc builds a program", r.returncode == 0, r.stderr[-2000:])
if r.returncode == 0:
    runs(lumpi, exe, ring_out, "lumpi-cc's program under the installed lumpi exec")
    cc_text = open(os.path.join(prefix, "bin", "lumpi-cc")).read()
    check("the installed lumpi-cc names no path of the build tree", BUILD not in cc_text)

if sanitized():
    print("skip pkg-config and find_package builds: this build's libraries are instrumented "
          "(LUMPI_SANITIZE=ON); only lumpi-cc carries the sanitizer flags a program needs")
else:
    # 2. pkg-config.
    env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(prefix, "lib", "pkgconfig"))
    r = sh(["pkg-config", "--cflags", "--libs", "lumpi-mpi"], env=env)
    check("pkg-config knows lumpi-mpi", r.returncode == 0, r.stderr)
    flags = r.stdout.split()
    check("pkg-config's flags point into the prefix only", all(BUILD not in x for x in flags), r.stdout)
    exe = os.path.join(tmp, "ring-pc")
    r = sh(["cc", "-Wall", "-Werror", "-o", exe, os.path.join(tmp, "ring.c")] + flags)
    check("cc with pkg-config's flags builds a program", r.returncode == 0, r.stderr[-2000:])
    if r.returncode == 0:
        runs(lumpi, exe, ring_out, "pkg-config's program")

    # 3. A CMake project: find_package(lumpi), lumpi::mpi and lumpi::lumpi.
    with open(os.path.join(tmp, "CMakeLists.txt"), "w") as f:
        f.write(CMAKE_PROJECT)
    proj = os.path.join(tmp, "proj")
    r = sh(["cmake", "-S", tmp, "-B", proj, "-DCMAKE_PREFIX_PATH=" + prefix])
    check("find_package(lumpi) configures", r.returncode == 0, (r.stdout + r.stderr)[-2000:])
    r = sh(["cmake", "--build", proj])
    check("lumpi::mpi and lumpi::lumpi build", r.returncode == 0, (r.stdout + r.stderr)[-3000:])
    if r.returncode == 0:
        runs(lumpi, os.path.join(proj, "cring"), ring_out, "the CMake package's C program")
        runs(lumpi, os.path.join(proj, "cxxsplit"), lambda n: f"split {n * n - 2 * (n // 2) * ((n + 1) // 2)}\n",
             "the CMake package's C++ program")

finish()
