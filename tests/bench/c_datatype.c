/* tests/bench/c_datatype.c: issue 24's datatype figures, any MPI, 2 ranks
 * (`lumpi exec -n 2 c_datatype [divisor]`, `mpiexec -n 2 ...`), rank 0
 * printing one line each: <name> <iters> <us per operation>.
 *   CONT1M    a 1 MiB ping-pong of 131072 contiguous doubles (half round trip)
 *   VEC1M     the same bytes as one column of a row-major 131072 x 4 matrix
 *             of doubles (MPI_Type_vector(131072, 1, 4, MPI_DOUBLE)), sent
 *             and received as that column at both ends: a halo exchange
 *   MAX1M     MPI_Allreduce of 10^6 doubles with MPI_MAX
 *   MAXLOC1M  MPI_Allreduce of 10^6 MPI_DOUBLE_INT pairs with MPI_MAXLOC
 * Targets (issue 24): VEC1M / CONT1M at most 1.5, and at most 2x the same
 * ratio of MPICH or Open MPI; MAXLOC1M / MAX1M at most 2. An optional
 * argument divides the iteration counts. Each result is checked once, so
 * a fast wrong answer cannot pass for a figure. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define ROWS 131072 /* 1 MiB of doubles */
#define COLS 4
#define N 1000000

static int me, iters_pp = 200, iters_red = 20;

static void report(const char *name, int iters, double t) {
  if (me == 0) printf("%-9s %6d %10.2f\n", name, iters, t * 1e6 / iters);
}

/* A ping-pong of one (buf, count, type) each way; the half round trip. */
static double pingpong(void *buf, int count, MPI_Datatype t, int iters) {
  double start = 0;
  int i;
  for (i = -5; i < iters; i++) {
    if (i == 0) start = MPI_Wtime();
    if (me == 0) {
      MPI_Send(buf, count, t, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(buf, count, t, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (me == 1) {
      MPI_Recv(buf, count, t, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, count, t, 0, 0, MPI_COMM_WORLD);
    }
  }
  return (MPI_Wtime() - start) / 2;
}

static void halo(void) {
  double *row = malloc(sizeof(double) * ROWS), *matrix = malloc(sizeof(double) * ROWS * COLS);
  MPI_Datatype column;
  long i;
  for (i = 0; i < ROWS; i++) row[i] = (double)i;
  for (i = 0; i < (long)ROWS * COLS; i++) matrix[i] = (double)i;
  MPI_Type_vector(ROWS, 1, COLS, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  report("CONT1M", iters_pp, pingpong(row, ROWS, MPI_DOUBLE, iters_pp));
  report("VEC1M", iters_pp, pingpong(matrix + 1, 1, column, iters_pp));
  for (i = 0; i < (long)ROWS * COLS; i++)
    if (matrix[i] != (double)i) {
      fprintf(stderr, "c_datatype: matrix[%ld] = %g after the column ping-pong\n", i, matrix[i]);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  MPI_Type_free(&column);
  free(row);
  free(matrix);
}

struct pair {
  double value;
  int index;
};

static void reductions(void) {
  double *in = malloc(sizeof(double) * N), *out = malloc(sizeof(double) * N), start;
  struct pair *pin = malloc(sizeof(struct pair) * N), *pout = malloc(sizeof(struct pair) * N);
  int i, size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (i = 0; i < N; i++) {
    in[i] = pin[i].value = (double)((i + me) % 7); /* ties: the lowest index wins */
    pin[i].index = me;
  }
  MPI_Allreduce(in, out, N, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  start = MPI_Wtime();
  for (i = 0; i < iters_red; i++) MPI_Allreduce(in, out, N, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  report("MAX1M", iters_red, MPI_Wtime() - start);
  MPI_Allreduce(pin, pout, N, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
  start = MPI_Wtime();
  for (i = 0; i < iters_red; i++) MPI_Allreduce(pin, pout, N, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
  report("MAXLOC1M", iters_red, MPI_Wtime() - start);
  for (i = 0; i < N; i++) {
    int r, best = 0, who = 0;
    for (r = 0; r < size; r++)
      if ((i + r) % 7 > best) best = (i + r) % 7, who = r;
    if (out[i] != best || pout[i].value != best || pout[i].index != who) {
      fprintf(stderr, "c_datatype: element %d: max %g, maxloc (%g, %d), want %d at %d\n", i, out[i],
              pout[i].value, pout[i].index, best, who);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
  free(in);
  free(out);
  free(pin);
  free(pout);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (argc > 1 && atoi(argv[1]) > 0) iters_pp /= atoi(argv[1]), iters_red /= atoi(argv[1]);
  if (iters_pp < 1) iters_pp = 1;
  if (iters_red < 1) iters_red = 1;
  halo();
  reductions();
  MPI_Finalize();
  return 0;
}
