"""tests/integration/test_draw_win.py: `:draw` of a window through the real
binary over stdin: one line per rank with its window's size, disp_unit and
element type, then its memory element by element, after a fence epoch of
puts; a freed window still shows its memory.

usage: python3 test_draw_win.py /path/to/lumpi
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lumpitest import check, finish, no_leftovers, run  # noqa: E402

LUMPI = sys.argv[1]

setup = "\n".join([
    "win, buf = mpi.COMM_WORLD:win_allocate(24, 8, nil, mpi.DOUBLE)",
    "win:set_name('grid')",
    "win:fence(); win:put(mpi.buffer(mpi.DOUBLE, 1, {mpi.rank() + 0.5}), 1, mpi.DOUBLE, "
    "(mpi.rank() + 1) % mpi.size(), 1, 1, mpi.DOUBLE); win:fence()",
    ":draw win",
    "iw = mpi.COMM_WORLD:win_create(mpi.buffer(mpi.INT, 2, {mpi.rank(), -mpi.rank()}))",
    "iw:free()",
    ":draw iw",
]) + "\n"
rc, out, err, tag = run(LUMPI, ["-n", "3"], stdin=setup)
check("lumpi -n 3 exits 0 and leaves no rank", rc == 0 and no_leftovers(tag), f"{rc} {out} {err}")
check("the window's title and each rank's memory after the fence epoch",
      "win 'grid' size=24 disp_unit=8: each rank's window memory\n"
      "  rank 0 (world 0): 24 bytes, disp_unit 8, 3 x MPI_DOUBLE\n"
      "    [0]=0 [1]=2.5 [2]=0\n"
      "  rank 1 (world 1): 24 bytes, disp_unit 8, 3 x MPI_DOUBLE\n"
      "    [0]=0 [1]=0.5 [2]=0\n"
      "  rank 2 (world 2): 24 bytes, disp_unit 8, 3 x MPI_DOUBLE\n"
      "    [0]=0 [1]=1.5 [2]=0\n" in out, out)
check("an int window, freed, still shows its memory",
      "  rank 2 (world 2): 8 bytes, disp_unit 4, 2 x MPI_INT\n    [0]=2 [1]=-2\n" in out
      and "(freed)" in out, out)
finish()
