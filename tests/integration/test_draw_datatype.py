"""tests/integration/test_draw_datatype.py: `:draw` of a datatype through the
real binary over stdin: the byte ruler (letters per basic type, holes,
lb/ub bars), negative strides, struct padding, resized bounds, overlapping
entries, types that differ between ranks, and a freed type.

usage: python3 test_draw_datatype.py /path/to/lumpi
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, no_leftovers, run  # noqa: E402

LUMPI = sys.argv[1]


def draw(expr, n=3, setup=""):
    stdin = (setup + "\n" if setup else "") + ":draw " + expr + "\n"
    rc, out, err, tag = run(LUMPI, ["-n", str(n)], stdin=stdin)
    check(f"lumpi -n {n} exits 0 and leaves no rank for :draw {expr}",
          rc == 0 and no_leftovers(tag), f"{rc} {out} {err}")
    return out


out = draw("mpi.type_vector(3, 2, -4, mpi.INT)")
check("vector with a negative stride: blocks below 0, holes between, lb and ub bars",
      "datatype vector size=24 lb=-32 extent=40 (not committed)\n"
      "    -32 |iiiiiiii........iiiiiiii........iiiiiiii|\n"
      "  i = MPI_INT (4 bytes), . = hole, | = lb and ub\n"
      "  lb -32, extent 40 (ub 8); true lb -32, true extent 40; size 24 bytes in 3 blocks: "
      "8@0 8@-16 8@-32 (bytes@offset)\n" in out, out)
check("a type that is the same everywhere is drawn once, without rank labels",
      out.count("datatype vector") == 1 and "world ranks" not in out, out)

out = draw("mpi.type_create_struct({1, 1, 2}, {0, 8, 12}, {mpi.DOUBLE, mpi.CHAR, mpi.SHORT})")
check("struct: the padding hole and the extent rounded to 16 (MPI-3.1 §4.1.6)",
      "      0 |ddddddddc...ssss|\n"
      "  c = MPI_CHAR (1 byte), d = MPI_DOUBLE (8 bytes), s = MPI_SHORT (2 bytes), . = hole, | = lb and ub\n"
      in out, out)

out = draw("mpi.INT:create_resized(-4, 16)")
check("resized: lb before the data, ub after a hole",
      "     -4 |....iiii........|\n" in out and "true lb 0, true extent 4" in out, out)

out = draw("mpi.type_create_hindexed({2, 2}, {0, 4}, mpi.INT)")
check("overlapping entries are marked #",
      "      0 |iiii####iiii|\n" in out and "# = bytes of two entries" in out, out)

out = draw("mpi.type_contiguous(mpi.rank() % 2 + 1, mpi.DOUBLE)")
check("types that differ are drawn per set of world ranks, in rank order",
      out.index("world ranks 0,2:") < out.index("world ranks 1:")
      and "      0 |dddddddd|\n" in out and "      0 |dddddddddddddddd|\n" in out, out)

out = draw("ft", setup="ft = mpi.type_contiguous(2, mpi.INT); ft:free()")
check("a freed type says so", "datatype (freed)" in out, out)

out = draw("mpi.type_create_subarray({64, 64}, {2, 2}, {60, 60}, mpi.ORDER_C, mpi.DOUBLE)", n=1)
check("a type spanning more than 4096 bytes is described, not drawn",
      "too wide to draw byte by byte" in out and "2 blocks: 16@31200 16@31712" in out, out)

finish()
