/* tests/exec/capi_nbc.c: the C API's nonblocking collectives (MPI-3.1
 * §5.12) from a C program: every MPI_I* collective against what its
 * blocking form gives, MPI_IN_PLACE, many pending at once completed with
 * MPI_Waitall/MPI_Waitany/MPI_Test, a blocking collective started while a
 * nonblocking one is pending (they do not match), an intercommunicator,
 * and bad arguments reported at the call under MPI_ERRORS_RETURN.
 * Prints "FAIL ..." per failed check and "done" on rank 0 at the end
 * (tests/integration/test_capi_nbc.py runs it). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void data_movement(void) {
  int root, i;
  int *all = malloc(sizeof(int) * (size_t)n * 2), *parts = malloc(sizeof(int) * (size_t)n * 2);
  MPI_Request r[4];
  for (root = 0; root < n; root++) {
    int v = me == root ? 4242 + root : -1, got = -1;
    MPI_Ibcast(&v, 1, MPI_INT, root, MPI_COMM_WORLD, &r[0]);
    MPI_Igather(&me, 1, MPI_INT, all, 1, MPI_INT, root, MPI_COMM_WORLD, &r[1]);
    for (i = 0; i < n; i++) parts[i] = 100 * root + i;
    MPI_Iscatter(parts, 1, MPI_INT, &got, 1, MPI_INT, root, MPI_COMM_WORLD, &r[2]);
    MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
    CHECK(v == 4242 + root, "ibcast root %d gave %d", root, v);
    CHECK(got == 100 * root + me, "iscatter root %d gave %d", root, got);
    if (me == root)
      for (i = 0; i < n; i++) CHECK(all[i] == i, "igather root %d: all[%d] = %d", root, i, all[i]);
  }
  for (i = 0; i < n; i++) parts[i] = me * 1000 + i;
  MPI_Iallgather(&me, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  for (i = 0; i < n; i++) CHECK(all[i] == i, "iallgather: all[%d] = %d", i, all[i]);
  MPI_Ialltoall(parts, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  for (i = 0; i < n; i++) CHECK(all[i] == i * 1000 + me, "ialltoall: all[%d] = %d", i, all[i]);
  for (i = 0; i < n; i++) all[i] = i == me ? me + 7 : -1;
  MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1, MPI_INT, MPI_COMM_WORLD, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  for (i = 0; i < n; i++) CHECK(all[i] == i + 7, "iallgather in place: all[%d] = %d", i, all[i]);
  free(all);
  free(parts);
}

static void reductions(void) {
  int sum = -1, scan = -1, exscan = -99, red = -1, inplace = me + 1, flag = 0;
  double dmax = 0, dv = (double)me / 2;
  MPI_Request r[6];
  MPI_Iallreduce(&me, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]);
  MPI_Iscan(&me, &scan, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[1]);
  MPI_Iexscan(&me, &exscan, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[2]);
  MPI_Ireduce(&me, &red, 1, MPI_INT, MPI_MAX, n - 1, MPI_COMM_WORLD, &r[3]);
  MPI_Iallreduce(MPI_IN_PLACE, &inplace, 1, MPI_INT, MPI_PROD, MPI_COMM_WORLD, &r[4]);
  MPI_Iallreduce(&dv, &dmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &r[5]);
  while (!flag) MPI_Testall(6, r, &flag, MPI_STATUSES_IGNORE);
  {
    int want_prod = 1, k;
    for (k = 1; k <= n; k++) want_prod *= k;
    CHECK(inplace == want_prod, "iallreduce in place PROD gave %d, want %d", inplace, want_prod);
  }
  CHECK(sum == n * (n - 1) / 2, "iallreduce SUM gave %d", sum);
  CHECK(scan == me * (me + 1) / 2, "iscan gave %d", scan);
  if (me > 0) CHECK(exscan == me * (me - 1) / 2, "iexscan gave %d", exscan);
  else CHECK(exscan == -99, "iexscan touched rank 0's buffer: %d", exscan);
  if (me == n - 1) CHECK(red == n - 1, "ireduce MAX gave %d", red);
  CHECK(dmax == (double)(n - 1) / 2, "iallreduce MAX double gave %g", dmax);
}

static void ordering(void) {
  enum { K = 32 };
  int out[K], in[K], k, idx, done = 0;
  MPI_Request r[K];
  int v = -1;
  MPI_Request rb;
  for (k = 0; k < K; k++) {
    in[k] = k * (me + 1);
    MPI_Iallreduce(&in[k], &out[k], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[k]);
  }
  while (done < K) {
    MPI_Waitany(K, r, &idx, MPI_STATUS_IGNORE);
    CHECK(idx != MPI_UNDEFINED, "waitany found no request");
    if (idx == MPI_UNDEFINED) break;
    CHECK(out[idx] == idx * n * (n + 1) / 2, "iallreduce %d gave %d", idx, out[idx]);
    done++;
  }
  /* A blocking bcast started while an ibcast is pending does not match it. */
  {
    int nb = me == 0 ? 11 : -1, b = me == 0 ? 22 : -1;
    MPI_Ibcast(&nb, 1, MPI_INT, 0, MPI_COMM_WORLD, &rb);
    MPI_Bcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Wait(&rb, MPI_STATUS_IGNORE);
    CHECK(nb == 11 && b == 22, "ibcast/bcast mixed up: %d %d", nb, b);
  }
  /* Progress: rank 0 blocks in a receive that rank n-1 sends only once its
   * ibarrier completed, which needs rank 0's part. */
  MPI_Ibarrier(MPI_COMM_WORLD, &rb);
  if (n > 1 && me == 0) {
    MPI_Recv(&v, 1, MPI_INT, n - 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(v == 33, "recv after ibarrier gave %d", v);
  }
  MPI_Wait(&rb, MPI_STATUS_IGNORE);
  if (n > 1 && me == n - 1) {
    v = 33;
    MPI_Send(&v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
  }
}

static void intercomm(void) {
  MPI_Comm half, inter;
  MPI_Request r[3];
  int color = me % 2, lr, rn, sum = -1, b = -1, root;
  if (n < 2) return;
  MPI_Comm_split(MPI_COMM_WORLD, color, me, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - color, 17, &inter);
  MPI_Comm_rank(inter, &lr);
  MPI_Comm_remote_size(inter, &rn);
  MPI_Ibarrier(inter, &r[0]);
  MPI_Iallreduce(&lr, &sum, 1, MPI_INT, MPI_SUM, inter, &r[1]);
  root = color == 1 ? 0 : (lr == 0 ? MPI_ROOT : MPI_PROC_NULL);
  if (root == MPI_ROOT) b = 555;
  MPI_Ibcast(&b, 1, MPI_INT, root, inter, &r[2]);
  MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
  CHECK(sum == rn * (rn - 1) / 2, "intercomm iallreduce gave %d", sum);
  if (color == 1) CHECK(b == 555, "intercomm ibcast gave %d", b);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
}

static void errors(void) {
  MPI_Request r = MPI_REQUEST_NULL;
  int v = 0, rc, cls;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  rc = MPI_Ibcast(&v, 1, MPI_INT, n, MPI_COMM_WORLD, &r);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_ROOT, "ibcast with root %d: class %d", n, cls);
  rc = MPI_Iallreduce(&v, &v, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_COUNT, "iallreduce with count -1: class %d", cls);
  rc = MPI_Iallreduce(&v, &v, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD, &r);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_OP, "iallreduce with MPI_OP_NULL: class %d", cls);
  rc = MPI_Ibarrier(MPI_COMM_NULL, &r);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_COMM, "ibarrier on MPI_COMM_NULL: class %d", cls);
  CHECK(r == MPI_REQUEST_NULL, "a failed call set the request");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv) {
  int total = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  data_movement();
  reductions();
  ordering();
  intercomm();
  errors();
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) printf(total ? "FAILED\n" : "done\n");
  MPI_Finalize();
  return total ? 1 : 0;
}
