/* tests/exec/capi_big.c: messages larger than 2 GiB (count x extent over
 * INT_MAX, MPI-3.1 §3.2.2 counts elements, not bytes): rank 0 sends rank 1
 * 2 GiB + 1 MiB of doubles by MPI_Send, MPI_Isend/MPI_Irecv, MPI_Sendrecv
 * and as one element of a contiguous derived type, and broadcasts them;
 * MPI_Get_count, MPI_Get_elements and their _x forms give the counts the
 * text says. Ranks past 1 only take part in the barriers. Prints "done" on
 * rank 0 when every check passed, FAIL lines otherwise. Needs 2 ranks or
 * more and about 9 GiB of memory in all. */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N ((MPI_Count)(1u << 28) + (1u << 17)) /* doubles: 2 GiB + 1 MiB */

static int me, failures;

static void expect(int ok, const char* what) {
  if (ok) return;
  printf("FAIL rank %d: %s\n", me, what);
  failures++;
}

static void fill(double* d, double salt) {
  for (MPI_Count i = 0; i < N; ++i) d[i] = (double)i + salt;
}

static int holds(const double* d, double salt) {
  for (MPI_Count i = 0; i < N; ++i)
    if (d[i] != (double)i + salt) return 0;
  return 1;
}

static void counts(const MPI_Status* s, MPI_Datatype t, int want, const char* what) {
  int count = -1, elements = -1;
  MPI_Count elements_x = -1, bytes = -1;
  MPI_Get_count(s, t, &count);
  MPI_Get_elements(s, t, &elements);
  MPI_Get_elements_x(s, MPI_BYTE, &bytes);
  MPI_Get_elements_x(s, MPI_DOUBLE, &elements_x);
  expect(count == want, what);
  expect(elements_x == N, what);
  expect(elements == (int)N, what); /* basic elements: N doubles, fewer than INT_MAX */
  expect(bytes == N * 8, what);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  double* d = me < 2 ? malloc((size_t)N * sizeof(double)) : NULL;
  if (me < 2 && !d) {
    printf("FAIL rank %d: no memory\n", me);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Datatype whole;
  MPI_Type_contiguous((int)N, MPI_DOUBLE, &whole);
  MPI_Type_commit(&whole);
  MPI_Status s;

  /* MPI_Send and MPI_Recv: N doubles, then one element of `whole` */
  if (me == 0) {
    fill(d, 0.5);
    MPI_Send(d, (int)N, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD);
    MPI_Send(d, 1, whole, 1, 2, MPI_COMM_WORLD);
  } else if (me == 1) {
    fill(d, -1);
    MPI_Recv(d, (int)N, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, &s);
    expect(holds(d, 0.5), "MPI_Recv of 2 GiB + 1 MiB");
    counts(&s, MPI_DOUBLE, (int)N, "MPI_Get_count after MPI_Recv");
    fill(d, -1);
    MPI_Recv(d, 1, whole, 0, 2, MPI_COMM_WORLD, &s);
    expect(holds(d, 0.5), "MPI_Recv of one element of 2 GiB + 1 MiB");
    counts(&s, whole, 1, "MPI_Get_count of one element of 2 GiB + 1 MiB");
  }
  MPI_Barrier(MPI_COMM_WORLD);

  /* MPI_Isend and MPI_Irecv, then MPI_Sendrecv back */
  if (me < 2) {
    MPI_Request r;
    if (me == 0) {
      fill(d, 2);
      MPI_Isend(d, (int)N, MPI_DOUBLE, 1, 3, MPI_COMM_WORLD, &r);
    } else {
      fill(d, -1);
      MPI_Irecv(d, (int)N, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD, &r);
    }
    MPI_Wait(&r, &s);
    if (me == 1) {
      expect(holds(d, 2), "MPI_Irecv of 2 GiB + 1 MiB");
      counts(&s, MPI_DOUBLE, (int)N, "MPI_Get_count after MPI_Irecv");
    }
    if (me == 0) fill(d, -1);
    else fill(d, 3);
    MPI_Sendrecv_replace(d, (int)N, MPI_DOUBLE, 1 - me, 4, 1 - me, 4, MPI_COMM_WORLD, &s);
    if (me == 0) {
      expect(holds(d, 3), "MPI_Sendrecv_replace of 2 GiB + 1 MiB");
      counts(&s, MPI_DOUBLE, (int)N, "MPI_Get_count after MPI_Sendrecv_replace");
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);

  /* MPI_Bcast on the communicator of ranks 0 and 1 */
  MPI_Comm pair;
  MPI_Comm_split(MPI_COMM_WORLD, me < 2 ? 0 : MPI_UNDEFINED, me, &pair);
  if (pair != MPI_COMM_NULL) {
    if (me == 0) fill(d, 4);
    else fill(d, -1);
    MPI_Bcast(d, 1, whole, 0, pair);
    expect(holds(d, 4), "MPI_Bcast of 2 GiB + 1 MiB");
    MPI_Comm_free(&pair);
  }

  MPI_Type_free(&whole);
  free(d);
  int all = 0;
  MPI_Reduce(&failures, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0 && all == 0) printf("done\n");
  MPI_Finalize();
  return 0;
}
