#!/usr/bin/env python3
"""tests/integration/test_dims_create_mpich.py: mpi.dims_create against MPICH.

API.md §9 promises the same dims as MPICH's MPI_Dims_create wherever the result
is defined. When MPICH's compiler wrapper is installed (Debian's `mpich`
package: `mpicc.mpich`, or an `mpicc` that says it is MPICH), this compiles a
small C program that prints MPI_Dims_create for a few thousand inputs, runs the
same inputs through `lumpi -n 1`, and compares:
  - MPICH gives dims whose product is nnodes  -> lumpi gives the same dims;
  - MPICH raises an error, or gives dims that cannot describe nnodes
    processes (it accepts e.g. nnodes=8 with dims (2,2))  -> lumpi raises
    MPI_ERR_DIMS or MPI_ERR_ARG.
Without MPICH it prints SKIP and exits 0.

Usage: test_dims_create_mpich.py PATH_TO_LUMPI
"""
import os
import shutil
import subprocess
import sys
import tempfile

C_PROGRAM = r"""
#include <mpi.h>
#include <stdio.h>
/* stdin: lines "nnodes ndims d1 ... dn"; stdout: "OK d1 ... dn" or "ERR". */
int main(int argc, char **argv) {
  int nnodes, ndims, dims[16];
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  while (scanf("%d %d", &nnodes, &ndims) == 2) {
    for (int i = 0; i < ndims; ++i) scanf("%d", &dims[i]);
    if (MPI_Dims_create(nnodes, ndims, dims) != MPI_SUCCESS) {
      printf("ERR\n");
      continue;
    }
    printf("OK");
    for (int i = 0; i < ndims; ++i) printf(" %d", dims[i]);
    printf("\n");
  }
  MPI_Finalize();
  return 0;
}
"""

LUA_PROGRAM = r"""
-- Reads the same input lines from the file named in arg[1] (or LUMPI_DIMS_INPUT).
local path = os.getenv("LUMPI_DIMS_INPUT")
for line in io.lines(path) do
  local nums = {}
  for x in line:gmatch("%-?%d+") do nums[#nums + 1] = math.tointeger(tonumber(x)) end
  local nnodes, ndims = nums[1], nums[2]
  local dims = {}
  for i = 1, ndims do dims[i] = nums[2 + i] end
  local ok, res = pcall(mpi.dims_create, nnodes, dims)
  if ok then
    print("OK" .. (#res > 0 and (" " .. table.concat(res, " ")) or ""))
  else
    print("ERR " .. (type(res) == "table" and res.class or tostring(res)))
  end
end
"""


def find_mpich_cc():
    for cc in ("mpicc.mpich", "mpicc"):
        path = shutil.which(cc)
        if not path:
            continue
        try:
            out = subprocess.run([path, "-v"], capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if "mpich" in (out.stdout + out.stderr).lower():
            return path
    return None


def inputs():
    rows = []
    for nnodes in range(1, 257):
        for ndims in range(1, 5):
            rows.append((nnodes, [0] * ndims))
    patterns = [[0, 2, 0], [3, 0], [0, 0, 2], [2, 0, 0, 0], [0, 4, 0], [5, 0, 0],
                [0, 3, 0, 2], [2, 2], [0, 0], [4, 0, 0, 0, 0]]
    for nnodes in range(1, 121):
        for p in patterns:
            rows.append((nnodes, list(p)))
    # erroneous: negative entries and ndims = 0
    rows += [(6, [0, -2]), (1, []), (4, []), (7, [0, 3, 0])]
    return rows


def product(v):
    p = 1
    for x in v:
        p *= x
    return p


def main():
    if len(sys.argv) < 2:
        print("usage: test_dims_create_mpich.py PATH_TO_LUMPI")
        return 2
    lumpi = sys.argv[1]
    cc = find_mpich_cc()
    if not cc:
        print("SKIP: MPICH is not installed (Debian package 'mpich' provides mpicc.mpich)")
        return 0
    rows = inputs()
    text = "".join(f"{n} {len(d)} {' '.join(map(str, d))}\n" for n, d in rows)
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "dims.c"), os.path.join(tmp, "dims")
        inp, lua = os.path.join(tmp, "in.txt"), os.path.join(tmp, "dims.lua")
        with open(src, "w") as f:
            f.write(C_PROGRAM)
        with open(inp, "w") as f:
            f.write(text)
        with open(lua, "w") as f:
            f.write(LUA_PROGRAM)
        subprocess.run([cc, "-std=c99", "-o", exe, src], check=True, timeout=120)
        env = dict(os.environ)
        mpich = subprocess.run([exe], input=text, capture_output=True, text=True,
                               timeout=300, env=env)
        if mpich.returncode != 0:
            print("SKIP: the MPICH program did not run:", mpich.stderr.strip()[:300])
            return 0
        env["LUMPI_DIMS_INPUT"] = inp
        ours = subprocess.run([lumpi, "-n", "1", lua], capture_output=True, text=True,
                              timeout=300, env=env)
    theirs = mpich.stdout.splitlines()
    mine = [line[4:] if line.startswith("[0] ") else line for line in ours.stdout.splitlines()]
    if len(theirs) != len(rows) or len(mine) != len(rows):
        print(f"FAIL: expected {len(rows)} lines, MPICH gave {len(theirs)}, lumpi {len(mine)}")
        print(ours.stderr[-2000:])
        return 1
    failures, compared, errors = 0, 0, 0
    for (nnodes, dims), t, m in zip(rows, theirs, mine):
        tdims = [int(x) for x in t.split()[1:]] if t.startswith("OK") else None
        defined = tdims is not None and product(tdims) == nnodes
        if defined:
            compared += 1
            if m != t:
                failures += 1
                print(f"MISMATCH nnodes={nnodes} dims={dims}: MPICH {t}, lumpi {m}")
        else:
            errors += 1
            if not (m.startswith("ERR MPI_ERR_DIMS") or m.startswith("ERR MPI_ERR_ARG")):
                failures += 1
                print(f"MISMATCH nnodes={nnodes} dims={dims}: MPICH {t} (undefined), lumpi {m}")
    print(f"compared {compared} defined results and {errors} erroneous inputs: {failures} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
