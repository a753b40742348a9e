"""tests/integration/test_install.py: `cmake --install` gives a C and C++
user everything issues 13 and 26 name: the binaries, the shared library
(libmpi.so, soname libmpi.so.0) and the static ones, the headers (mpi.h,
lumpi.hpp), lumpi-cc, pkg-config files and a CMake package. Programs are
then built against the installed copy only, three ways (the installed
lumpi-cc, shared and -static-mpi; pkg-config's lumpi-mpi and
lumpi-mpi-static; and a CMake project with find_package(lumpi) linking
lumpi::mpi and lumpi::lumpi, and their _static twins), and each runs under
the installed `lumpi exec` at 1, 2 and 3 ranks, leaving no process behind,
with no LD_LIBRARY_PATH: a program linked against libmpi.so finds it by its
run path, the prefix's lib/lumpi. Python loads the installed libmpi.so with
ctypes and runs as a rank through it.

A sanitized build installs instrumented libraries, which only a program built
with the same compiler and flags can link, and which an uninstrumented
python3 cannot load; there the builds of the third way and the Python run
are skipped (lumpi-cc carries the flags and still runs), and the test says so.

usage: python3 test_install.py /path/to/lumpi
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, elf_dynamic, finish, no_leftovers, run, sanitized, scratch_dir  # noqa: E402

LUMPI = sys.argv[1]
BUILD = os.path.dirname(os.path.abspath(LUMPI))
EXEC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "exec")
os.environ.pop("LD_LIBRARY_PATH", None)  # every library is found by a run path

C_RING = open(os.path.join(EXEC, "capi_ring.c")).read()

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

# As docs/c-api.md shows it: no CMAKE_CXX_STANDARD, the C++ targets ask for C++20.
CMAKE_PROJECT = """
cmake_minimum_required(VERSION 3.16)
project(uses_lumpi C CXX)
find_package(lumpi REQUIRED)
add_executable(cring ring.c)
target_link_libraries(cring lumpi::mpi)
add_executable(cxxsplit split.cpp)
target_link_libraries(cxxsplit lumpi::lumpi)
add_executable(cring_static ring.c)
target_link_libraries(cring_static lumpi::mpi_static)
add_executable(cxxsplit_static split.cpp)
target_link_libraries(cxxsplit_static lumpi::lumpi_static)
"""


def sh(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, timeout=300, **kw)


def runs(lumpi, exe, want, what):
    for n in (1, 2, 3):
        rc, out, err, tag = run(lumpi, ["exec", "-n", str(n), exe], timeout=60)
        check(f"{what} at {n} ranks", rc == 0 and out == want(n), f"rc={rc} out={out!r} err={err[-2000:]!r}")
        check(f"{what}: no process left at {n} ranks", no_leftovers(tag))


tmp = scratch_dir("lumpi-install-")
prefix = os.path.join(tmp, "prefix")
r = sh(["cmake", "--install", BUILD, "--prefix", prefix])
check("cmake --install succeeds", r.returncode == 0, r.stderr[-2000:])
for f in ("bin/lumpi", "bin/lumpi-rank", "bin/lumpi-cc", "bin/lumpi-c++", "include/lumpi/mpi.h", "include/lumpi/lumpi.hpp",
          "lib/lumpi/libmpi.a", "lib/lumpi/liblumpi_core.a", "lib/lumpi/libmpi.so", "lib/lumpi/libmpi.so.0",
          "lib/pkgconfig/lumpi-mpi.pc", "lib/pkgconfig/lumpi-mpi-static.pc",
          "lib/cmake/lumpi/lumpiConfig.cmake", "lib/cmake/lumpi/lumpiTargets.cmake", "share/man/man1/lumpi.1"):
    check(f"installed: {f}", os.path.exists(os.path.join(prefix, f)))

lumpi = os.path.join(prefix, "bin", "lumpi")
with open(os.path.join(tmp, "ring.c"), "w") as f:
    f.write(C_RING)
with open(os.path.join(tmp, "split.cpp"), "w") as f:
    f.write(CXX_SPLIT)


def ring_out(n):
    return f"ring {n} of {n}\n"


def split_out(n):
    return f"split {n * n - 2 * (n // 2) * ((n + 1) // 2)}\n"


libdir = os.path.join(prefix, "lib", "lumpi")
libmpi = os.path.join(libdir, "libmpi.so")
check("the installed libmpi.so's soname is libmpi.so.0", elf_dynamic(libmpi, "SONAME") == ["libmpi.so.0"])
check("the installed libmpi.so names no path of the build tree", not any(BUILD in x for x in elf_dynamic(libmpi, "RUNPATH")
      + elf_dynamic(libmpi, "RPATH")), sh(["readelf", "-d", libmpi]).stdout)


def linked_shared(exe, what):
    check(f"{what} needs libmpi.so.0 and finds it in the prefix", "libmpi.so.0" in elf_dynamic(exe, "NEEDED")
          and os.path.realpath(elf_dynamic(exe, "RUNPATH")[0] if elf_dynamic(exe, "RUNPATH") else "/") == libdir,
          sh(["readelf", "-d", exe]).stdout)


# 1. The installed lumpi-cc, shared (the default) and static.
cc = os.path.join(prefix, "bin", "lumpi-cc")
exe = os.path.join(tmp, "ring-cc")
r = sh([cc, "-Wall", "-Werror", "-o", exe, os.path.join(tmp, "ring.c")])
check("the installed lumpi-cc builds a program", r.returncode == 0, r.stderr[-2000:])
if r.returncode == 0:
    linked_shared(exe, "lumpi-cc's program")
    runs(lumpi, exe, ring_out, "lumpi-cc's program under the installed lumpi exec")
    cc_text = open(cc).read()
    check("the installed lumpi-cc names no path of the build tree", BUILD not in cc_text)
exe = os.path.join(tmp, "ring-cc-static")
r = sh([cc, "-static-mpi", "-Wall", "-Werror", "-o", exe, os.path.join(tmp, "ring.c")])
check("the installed lumpi-cc -static-mpi builds a program", r.returncode == 0, r.stderr[-2000:])
if r.returncode == 0:
    check("lumpi-cc -static-mpi's program needs no libmpi.so", not any("libmpi" in x for x in elf_dynamic(exe, "NEEDED")))
    runs(lumpi, exe, ring_out, "lumpi-cc -static-mpi's program under the installed lumpi exec")

# 1b. The installed lumpi-c++ (like mpicxx): the C++ API's program, and a C
# program compiled as C++ against mpi.h, both ways.
cxx = os.path.join(prefix, "bin", "lumpi-c++")
for flags, kind in (([], "shared"), (["-static-mpi"], "static")):
    exe = os.path.join(tmp, "split-cxx-" + kind)
    r = sh([cxx] + flags + ["-Wall", "-Werror", "-o", exe, os.path.join(tmp, "split.cpp")])
    check(f"the installed lumpi-c++ builds a C++ API program ({kind})", r.returncode == 0, r.stderr[-2000:])
    if r.returncode == 0:
        runs(lumpi, exe, split_out, f"lumpi-c++'s C++ API program ({kind}) under the installed lumpi exec")
exe = os.path.join(tmp, "ring-cxx")
r = sh([cxx, "-Wall", "-o", exe, "-x", "c++", os.path.join(tmp, "ring.c"), "-x", "none"])
check("the installed lumpi-c++ builds mpi.h code as C++", r.returncode == 0, r.stderr[-2000:])
if r.returncode == 0:
    runs(lumpi, exe, ring_out, "lumpi-c++'s mpi.h program under the installed lumpi exec")
check("the installed lumpi-c++ names no path of the build tree", BUILD not in open(cxx).read())

if sanitized(BUILD):
    print("skip pkg-config and find_package builds and the Python run: this build's libraries are instrumented "
          "(LUMPI_SANITIZE=ON); only lumpi-cc carries the sanitizer flags a program needs, and an "
          "uninstrumented python3 cannot load them")
else:
    # 2. pkg-config, shared and static.
    env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(prefix, "lib", "pkgconfig"))
    for pc in ("lumpi-mpi", "lumpi-mpi-static"):
        r = sh(["pkg-config", "--cflags", "--libs", pc], env=env)
        check(f"pkg-config knows {pc}", r.returncode == 0, r.stderr)
        flags = r.stdout.split()
        check(f"{pc}'s flags point into the prefix only", all(BUILD not in x for x in flags), r.stdout)
        exe = os.path.join(tmp, "ring-" + pc)
        r = sh(["cc", "-Wall", "-Werror", "-o", exe, os.path.join(tmp, "ring.c")] + flags)
        check(f"cc with {pc}'s flags builds a program", r.returncode == 0, r.stderr[-2000:])
        if r.returncode == 0:
            if pc == "lumpi-mpi":
                linked_shared(exe, f"{pc}'s program")
            runs(lumpi, exe, ring_out, f"{pc}'s program")

    # 3. A CMake project: find_package(lumpi), lumpi::mpi and lumpi::lumpi, and their _static twins.
    with open(os.path.join(tmp, "CMakeLists.txt"), "w") as f:
        f.write(CMAKE_PROJECT)
    proj = os.path.join(tmp, "proj")
    r = sh(["cmake", "-S", tmp, "-B", proj, "-DCMAKE_PREFIX_PATH=" + prefix])
    check("find_package(lumpi) configures", r.returncode == 0, (r.stdout + r.stderr)[-2000:])
    r = sh(["cmake", "--build", proj])
    check("lumpi::mpi, lumpi::lumpi and their _static twins build", r.returncode == 0, (r.stdout + r.stderr)[-3000:])
    if r.returncode == 0:
        for name in ("cring", "cxxsplit"):
            linked_shared(os.path.join(proj, name), f"the CMake package's {name}")
        runs(lumpi, os.path.join(proj, "cring"), ring_out, "the CMake package's C program")
        runs(lumpi, os.path.join(proj, "cxxsplit"), split_out, "the CMake package's C++ program")
        runs(lumpi, os.path.join(proj, "cring_static"), ring_out, "the CMake package's static C program")
        runs(lumpi, os.path.join(proj, "cxxsplit_static"), split_out, "the CMake package's static C++ program")

    # 4. Python: ctypes loads the installed libmpi.so and runs as a rank through it.
    r = sh(["/usr/bin/python3", "-c", f"import ctypes; ctypes.CDLL({libmpi!r}, ctypes.RTLD_GLOBAL)"])
    check("ctypes.CDLL(the installed libmpi.so, RTLD_GLOBAL) loads it", r.returncode == 0, r.stderr[-2000:])
    rc, out, err, tag = run(lumpi, ["exec", "-n", "2", "/usr/bin/python3", os.path.join(EXEC, "ctypes_ranks.py"),
                                    libmpi, os.path.join(prefix, "include", "lumpi", "mpi.h")], timeout=60)
    check("python3 through ctypes and the installed libmpi.so at 2 ranks",
          rc == 0 and out == "ctypes: 2 ranks, sum 3, largest rank 1\n", f"rc={rc} out={out!r} err={err[-2000:]!r}")
    check("python3 through ctypes: no process left", no_leftovers(tag))

finish()
