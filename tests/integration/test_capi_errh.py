"""tests/integration/test_capi_errh.py: user-defined error handlers, added
error classes/codes/strings, derived datatypes with attributes, and
MPI_Finalize's deletion of COMM_SELF attributes (newest first, MPI-3.1
§8.7.1) through the C API: lumpi-cc builds tests/exec/capi_errh_type.c and
`lumpi exec` runs it at 1, 2, 3 and 5 ranks; no process left behind. A
COMM_SELF delete callback that fails makes MPI_Finalize return its error,
named for MPI_Finalize as the Lua door names it (1, 3 and 4 ranks).

usage: python3 test_capi_errh.py /path/to/lumpi
"""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, compile_program, finish, no_leftovers, run  # noqa: E402

LUMPI = sys.argv[1]
BUILD = os.path.dirname(os.path.abspath(LUMPI))
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "exec", "capi_errh_type.c")
CHECKS = 24  # "ok" lines per rank

# MPI_Finalize runs COMM_SELF's delete callbacks newest first; the failing
# one stops the deletion ("kept" is never deleted) and MPI_Finalize returns
# its class under MPI_ERRORS_RETURN.
FAILING_DELETE = r"""
#include <mpi.h>
#include <stdio.h>
static int fails(MPI_Comm c, int k, void *v, void *extra) { printf("deleting %s\n", (char *)v); return MPI_ERR_OTHER; }
static int kept(MPI_Comm c, int k, void *v, void *extra) { printf("deleting %s\n", (char *)v); return MPI_SUCCESS; }
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int k1, k2, len = 0, cls = 0;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, kept, &k1, NULL);
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, fails, &k2, NULL);
  MPI_Comm_set_attr(MPI_COMM_SELF, k1, "kept");
  MPI_Comm_set_attr(MPI_COMM_SELF, k2, "failing");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rc = MPI_Finalize();
  char text[MPI_MAX_ERROR_STRING] = "";
  if (rc != MPI_SUCCESS) { MPI_Error_class(rc, &cls); MPI_Error_string(rc, text, &len); }
  printf("class %d: %s\n", cls, text);
  return 0;
}
"""

with tempfile.TemporaryDirectory(prefix="lumpi-capi-errh-") as tmp:
    exe = os.path.join(tmp, "capi_errh_type")
    compile_program(LUMPI, SRC, exe)

    for n in [1, 2, 3, 5]:
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), exe], timeout=90)
        lines = out.splitlines()
        detail = f"rc={rc} out={out!r} err={err!r}"
        check(f"every check passes on every rank at {n} ranks",
              rc == 0 and not any(" FAIL " in l for l in lines)
              and all(sum(1 for l in lines if l.startswith(f"r{r} ok ")) == CHECKS for r in range(n)), detail)
        check(f"rank 0 reached MPI_Finalize at {n} ranks", "done" in lines, detail)
        for r in range(n):
            order = [l.split()[-1] for l in lines if l.startswith(f"r{r} self-delete ")]
            check(f"MPI_Finalize deleted rank {r}'s COMM_SELF attributes newest first (set 2, 3, 1)",
                  order == ["1", "3", "2"], detail)
        check(f"no process left at {n} ranks", no_leftovers(tag))

    src = os.path.join(tmp, "failing_delete.c")
    with open(src, "w") as f:
        f.write(FAILING_DELETE)
    exe = os.path.join(tmp, "failing_delete")
    compile_program(LUMPI, src, exe, ())
    said = re.compile(r"class 16: MPI_ERR_OTHER in MPI_Finalize: the delete callback of keyval \d+ returned error 16")
    for n in [1, 3, 4]:
        rc, out, err, tag = run(LUMPI, ["exec", "-n", str(n), exe], timeout=90)
        lines = out.splitlines()
        check(f"a failing COMM_SELF delete callback is MPI_Finalize's error on every rank at {n} ranks",
              lines.count("deleting failing") == n and sum(1 for l in lines if said.fullmatch(l)) == n
              and "deleting kept" not in lines, f"rc={rc} out={out!r} err={err!r}")
        check(f"no process left after the failing finalize at {n} ranks", no_leftovers(tag))

finish()
