/* tests/bench/c_rma.c: issue 28's one-sided figures through lumpi's C API,
 * each beside the two-sided operation it is measured against, 2 ranks
 * (`lumpi exec -n 2 c_rma [divisor]`), rank 0 timing, rank 1 the target:
 *   RTT8      an 8-byte ping-pong: one small-message round trip
 *   FOP       MPI_Fetch_and_op of one double + MPI_Win_flush under MPI_Win_lock_all
 *   SEND1M    a 1 MiB MPI_Send answered by a 0-byte message (the send known delivered)
 *   PUT1M     a 1 MiB MPI_Put + MPI_Win_flush under MPI_Win_lock
 * one line each: <name> <iters> <us per operation>. The target of the
 * one-sided loops waits in MPI_Barrier, as a rank busy elsewhere in MPI
 * would. An optional argument divides the iteration counts. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIB (1 << 20)

static int me, iters_small = 20000, iters_big = 500;

static void report(const char *name, int iters, double t) {
  if (me == 0) printf("%-8s %6d %10.2f\n", name, iters, t * 1e6 / iters);
}

static void rtt8(void) {
  char b[8] = {0};
  int i;
  double t = 0;
  for (i = -100; i < iters_small; i++) {
    if (i == 0) t = MPI_Wtime();
    if (me == 0) {
      MPI_Send(b, 8, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(b, 8, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(b, 8, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(b, 8, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
  }
  report("RTT8", iters_small, MPI_Wtime() - t);
}

static void fop(void) {
  double *cell, one = 1, old, t = 0;
  int i;
  MPI_Win w;
  /* Allocated, not a stack variable: on a window over a stack double, MPICH
   * 4.0.2 here wrote the sum 4 bytes off and clobbered the handle beside it. */
  MPI_Win_allocate(sizeof *cell, sizeof *cell, MPI_INFO_NULL, MPI_COMM_WORLD, &cell, &w);
  *cell = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  if (me == 0) {
    MPI_Win_lock_all(0, w);
    for (i = -100; i < iters_small; i++) {
      if (i == 0) t = MPI_Wtime();
      MPI_Fetch_and_op(&one, &old, MPI_DOUBLE, 1, 0, MPI_SUM, w);
      MPI_Win_flush(1, w);
    }
    t = MPI_Wtime() - t;
    MPI_Win_unlock_all(w);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  report("FOP", iters_small, t);
  MPI_Win_free(&w);
}

/* The 1 MiB figures, interleaved in blocks of kBlock operations: a block
 * of sends, then a block of puts, and so on. A 1 MiB transfer through the
 * kernel costs either about 400 us or 2-5x that for seconds at a time on
 * this 2-vCPU machine, sends and puts alike (the sender's I/O thread
 * copying into the socket slows down; tests/bench/README.md, session 11):
 * measured one after the other, the two figures could land in different
 * states and their ratio said more about the machine than about MPI_Put. */
enum { kBlock = 25 };

static double send_block(char *buf) {
  double t = MPI_Wtime();
  int i;
  for (i = 0; i < kBlock; i++) {
    if (me == 0) {
      MPI_Send(buf, MIB, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(NULL, 0, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, MIB, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(NULL, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
  }
  return MPI_Wtime() - t;
}

static double put_block(char *buf, MPI_Win w) {
  double t = 0;
  int i;
  if (me == 0) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, w);
    t = MPI_Wtime();
    for (i = 0; i < kBlock; i++) {
      MPI_Put(buf, MIB, MPI_BYTE, 1, 0, MIB, MPI_BYTE, w);
      MPI_Win_flush(1, w);
    }
    t = MPI_Wtime() - t;
    MPI_Win_unlock(1, w);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return t;
}

static void big(char *buf) {
  char *mem;
  int b, blocks = iters_big / kBlock;
  double ts = 0, tp = 0, s, p;
  MPI_Win w;
  MPI_Win_allocate(MIB, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &w);
  for (b = -1; b < blocks; b++) { /* block -1 warms up */
    s = send_block(buf);
    p = put_block(buf, w);
    if (b >= 0) ts += s, tp += p;
  }
  report("SEND1M", blocks * kBlock, ts);
  report("PUT1M", blocks * kBlock, tp);
  MPI_Win_free(&w);
}

int main(int argc, char **argv) {
  int n;
  char *buf = malloc(MIB);
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (n != 2) {
    if (me == 0) fprintf(stderr, "c_rma: needs exactly 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (argc > 1 && atoi(argv[1]) > 0) iters_small /= atoi(argv[1]), iters_big /= atoi(argv[1]);
  if (iters_big < kBlock) iters_big = kBlock;
  memset(buf, 'x', MIB);
  rtt8();
  fop();
  big(buf);
  free(buf);
  MPI_Finalize();
  return 0;
}
