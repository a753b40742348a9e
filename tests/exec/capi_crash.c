/* tests/exec/capi_crash.c: a rank that dies of a signal, for
 * test_crash_report.py. Every rank prints a line, without flushing, then
 * the chosen rank crashes: "outside" dereferences NULL in main (line
 * CRASH_LINE_OUTSIDE), "inside" gives MPI_Send a buffer that is not
 * mapped (line CRASH_LINE_INSIDE). The other ranks wait in a barrier. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  printf("rank %d ready\n", me); /* line-buffered under lumpi exec: not lost */
  int victim = argc > 2 ? (argv[2][0] == 'l' ? n - 1 : 1 % n) : 0;
  if (me == victim && argc > 1 && strcmp(argv[1], "outside") == 0) {
    volatile int *p = 0;
    *p = 1; /* CRASH_LINE_OUTSIDE */
  }
  if (me == victim && argc > 1 && strcmp(argv[1], "inside") == 0)
    MPI_Send((void *)16, 1000, MPI_INT, (me + 1) % n, 0, MPI_COMM_WORLD); /* CRASH_LINE_INSIDE */
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
