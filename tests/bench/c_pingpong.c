/* tests/bench/c_pingpong.c: ping-pong between 2 ranks through lumpi's C API
 * (mpi.h, libmpi), built with lumpi-cc and run by `lumpi exec -n 2`: the
 * same sizes, iteration counts and output format as lumpi-bench pingpong
 * (the C++ core), so tests/bench/bench.py sets the two side by side:
 *   PP <bytes> <iters> <half_rtt_us> <MBps>      (rank 0)
 * An optional argument divides the iteration counts. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  static const struct { int bytes, iters; } sizes[] = {
      {8, 20000}, {1024, 20000}, {65536, 5000}, {1 << 20, 500}, {4 << 20, 200}};
  int me, n, divisor = 1, k;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (argc > 1) divisor = atoi(argv[1]) > 0 ? atoi(argv[1]) : 1;
  if (n != 2) {
    if (me == 0) fprintf(stderr, "c_pingpong: needs exactly 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  for (k = 0; k < (int)(sizeof sizes / sizeof sizes[0]); k++) {
    int bytes = sizes[k].bytes, iters = sizes[k].iters / divisor, warm, i;
    char *buf = malloc((size_t)bytes);
    double t0 = 0, half;
    memset(buf, 'x', (size_t)bytes);
    if (iters < 20) iters = 20;
    warm = iters / 10;
    for (i = -warm; i < iters; i++) {
      if (i == 0) t0 = MPI_Wtime();
      if (me == 0) {
        MPI_Send(buf, bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buf, bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
      }
    }
    half = (MPI_Wtime() - t0) / iters / 2;
    if (me == 0) printf("PP %d %d %.3f %.1f\n", bytes, iters, half * 1e6, bytes / half / 1e6);
    fflush(stdout);
    free(buf);
  }
  MPI_Finalize();
  return 0;
}
