/* tests/exec/capi_pmpi.c: a program under a profiling tool (MPI-3.1
 * §14.2, tests/exec/pmpi_tool.c). Rank r calls MPI_Send r + 1 times and
 * MPI_Bcast twice, then calls what lumpi could build on a send or a
 * broadcast (MPI_Sendrecv, MPI_Ssend, MPI_Isend, a blocking and a
 * nonblocking collective of each kind, MPI_Comm_dup, MPI_Comm_split) and
 * PMPI_Send and PMPI_Bcast themselves, none of which a tool counts as an
 * MPI_Send or an MPI_Bcast. Rank 0 prints "program: sends S, bcasts B",
 * the totals of the program's own calls; the tool, when there is one,
 * prints its count at MPI_Finalize, which must be the same. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

/* Rank r sends r + 1 messages to the next rank by MPI_Send (the receives
 * are posted first, so one rank sends to itself too). */
static int ring_sends(void) {
  int next = (me + 1) % n, prev = (me + n - 1) % n, out = me + 1;
  MPI_Request *r = malloc(sizeof(MPI_Request) * (size_t)(prev + 1));
  int *got = malloc(sizeof(int) * (size_t)(prev + 1));
  for (int i = 0; i <= prev; i++) MPI_Irecv(&got[i], 1, MPI_INT, prev, i, MPI_COMM_WORLD, &r[i]);
  for (int i = 0; i <= me; i++) MPI_Send(&out, 1, MPI_INT, next, i, MPI_COMM_WORLD);
  MPI_Waitall(prev + 1, r, MPI_STATUSES_IGNORE);
  for (int i = 0; i <= prev; i++) CHECK(got[i] == prev + 1, "message %d from %d is %d", i, prev, got[i]);
  free(r);
  free(got);
  return me + 1;
}

/* The calls that are not MPI_Send or MPI_Bcast, though lumpi may move
 * their data the same way. */
static void other_calls(void) {
  int next = (me + 1) % n, prev = (me + n - 1) % n, x = me, y = -1, sum = 0;
  MPI_Sendrecv(&x, 1, MPI_INT, next, 7, &y, 1, MPI_INT, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK(y == prev, "MPI_Sendrecv gave %d", y);
  MPI_Request r[2];
  MPI_Irecv(&y, 1, MPI_INT, prev, 8, MPI_COMM_WORLD, &r[0]);
  MPI_Isend(&x, 1, MPI_INT, next, 8, MPI_COMM_WORLD, &r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  MPI_Irecv(&y, 1, MPI_INT, prev, 9, MPI_COMM_WORLD, &r[0]);
  MPI_Issend(&x, 1, MPI_INT, next, 9, MPI_COMM_WORLD, &r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(sum == n * (n - 1) / 2, "MPI_Allreduce gave %d", sum);
  MPI_Ibcast(&sum, 1, MPI_INT, 0, MPI_COMM_WORLD, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Comm dup, split;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_split(dup, me % 2, me, &split);
  MPI_Comm_free(&split);
  MPI_Comm_free(&dup);
  PMPI_Bcast(&sum, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Irecv(&y, 1, MPI_INT, prev, 10, MPI_COMM_WORLD, &r[0]);
  PMPI_Send(&x, 1, MPI_INT, next, 10, MPI_COMM_WORLD);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  CHECK(y == prev, "PMPI_Send brought %d", y);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  int mine[2] = {ring_sends(), 0}, all[2] = {0, 0};
  int value = me == 0 ? 42 : -1;
  MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
  CHECK(value == 42, "MPI_Bcast gave %d", value);
  MPI_Bcast(&value, 1, MPI_INT, n - 1, MPI_COMM_WORLD);
  mine[1] = 2;
  other_calls();
  MPI_Reduce(mine, all, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0) printf("program: sends %d, bcasts %d\n", all[0], all[1]);
  fflush(stdout);
  MPI_Finalize();
  return failures != 0;
}
