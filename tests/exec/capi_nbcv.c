/* tests/exec/capi_nbcv.c: the C API's nonblocking v-, w- and reduce-scatter
 * collectives (MPI-3.1 §5.12.3-§5.12.9: MPI_Igatherv, MPI_Iscatterv,
 * MPI_Iallgatherv, MPI_Ialltoallv, MPI_Ialltoallw, MPI_Ireduce_scatter,
 * MPI_Ireduce_scatter_block) from a C program: ragged blocks (rank i has
 * i + 1 elements) at displacements with gaps that must stay untouched,
 * every root, several pending at once, MPI_IN_PLACE, a user-defined op,
 * the reduce-scatters on an intercommunicator (§5.10.1, checked against
 * the blocking forms too), and bad arguments reported at the call under
 * MPI_ERRORS_RETURN.
 * Prints "FAIL ..." per failed check and "done" on rank 0 at the end
 * (tests/integration/test_capi_nbc.py runs it at 1, 2, 3, 4, 5 and 7 ranks). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

/* Rank i's block: i + 1 elements at displacement i * (i + 1) / 2 + i (one
 * element of gap before each block), so the buffer spans total(n) ints. */
static int count_of(int i) { return i + 1; }
static int displ_of(int i) { return i * (i + 1) / 2 + i; }
static int total(int p) { return displ_of(p); }

static void gather_scatter(void) {
  int root, i, k;
  int *counts = malloc(sizeof(int) * (size_t)n), *displs = malloc(sizeof(int) * (size_t)n);
  int *all = malloc(sizeof(int) * (size_t)total(n)), *all2 = malloc(sizeof(int) * (size_t)total(n));
  int *src = malloc(sizeof(int) * (size_t)total(n)), *mine = malloc(sizeof(int) * (size_t)(me + 1));
  int *got = malloc(sizeof(int) * (size_t)(me + 1));
  MPI_Request r[3];
  for (i = 0; i < n; i++) {
    counts[i] = count_of(i);
    displs[i] = displ_of(i);
  }
  for (k = 0; k <= me; k++) mine[k] = 1000 * me + k;
  for (root = 0; root < n; root++) {
    for (i = 0; i < total(n); i++) all[i] = all2[i] = src[i] = -1;
    for (i = 0; i < n; i++)
      for (k = 0; k < count_of(i); k++) src[displ_of(i) + k] = 7000 * root + 10 * i + k;
    for (k = 0; k <= me; k++) got[k] = -1;
    /* three pending at once, completed together */
    MPI_Igatherv(mine, me + 1, MPI_INT, all, counts, displs, MPI_INT, root, MPI_COMM_WORLD, &r[0]);
    MPI_Iscatterv(src, counts, displs, MPI_INT, got, me + 1, MPI_INT, root, MPI_COMM_WORLD, &r[1]);
    MPI_Iallgatherv(mine, me + 1, MPI_INT, all2, counts, displs, MPI_INT, MPI_COMM_WORLD, &r[2]);
    MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
    for (k = 0; k <= me; k++) CHECK(got[k] == 7000 * root + 10 * me + k, "iscatterv root %d [%d] = %d", root, k, got[k]);
    for (i = 0; i < n; i++) {
      if (i > 0) CHECK(all2[displ_of(i) - 1] == -1, "iallgatherv wrote the gap before block %d", i);
      for (k = 0; k < count_of(i); k++) {
        CHECK(all2[displ_of(i) + k] == 1000 * i + k, "iallgatherv block %d [%d] = %d", i, k, all2[displ_of(i) + k]);
        if (me == root)
          CHECK(all[displ_of(i) + k] == 1000 * i + k, "igatherv root %d block %d [%d] = %d", root, i, k,
                all[displ_of(i) + k]);
      }
      if (me == root && i > 0) CHECK(all[displ_of(i) - 1] == -1, "igatherv wrote the gap before block %d", i);
    }
    if (me != root) CHECK(all[0] == -1, "igatherv wrote a non-root's buffer");
  }
  /* MPI_IN_PLACE: the root's (igatherv) and every rank's (iallgatherv) own block is already there */
  for (i = 0; i < total(n); i++) all[i] = -1;
  for (k = 0; k <= me; k++) all[displ_of(me) + k] = 1000 * me + k;
  MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  for (i = 0; i < n; i++)
    for (k = 0; k < count_of(i); k++)
      CHECK(all[displ_of(i) + k] == 1000 * i + k, "iallgatherv in place block %d [%d] = %d", i, k, all[displ_of(i) + k]);
  for (i = 0; i < total(n); i++) all[i] = -1;
  if (me == 0)
    for (k = 0; k < 1; k++) all[displ_of(0) + k] = 1000 * 0 + k;
  MPI_Igatherv(me == 0 ? MPI_IN_PLACE : mine, me + 1, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  if (me == 0)
    for (i = 0; i < n; i++)
      for (k = 0; k < count_of(i); k++)
        CHECK(all[displ_of(i) + k] == 1000 * i + k, "igatherv in place block %d [%d] = %d", i, k, all[displ_of(i) + k]);
  free(counts); free(displs); free(all); free(all2); free(src); free(mine); free(got);
}

/* Rank s sends rank d (d + 1) elements 100 * s + d + 1000 * k; rank d
 * receives (d + 1) from each s at displacement s * (d + 2) (a gap of one). */
static void alltoall(void) {
  int s, k, j;
  int *scounts = malloc(sizeof(int) * (size_t)n), *sdispls = malloc(sizeof(int) * (size_t)n);
  int *rcounts = malloc(sizeof(int) * (size_t)n), *rdispls = malloc(sizeof(int) * (size_t)n);
  int *wsd = malloc(sizeof(int) * (size_t)n), *wrd = malloc(sizeof(int) * (size_t)n);
  MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (size_t)n);
  int *send = malloc(sizeof(int) * (size_t)(total(n) + n)), *recv = malloc(sizeof(int) * (size_t)(n * (me + 2)));
  int *recvw = malloc(sizeof(int) * (size_t)(n * (me + 2)));
  MPI_Request r[2];
  int at = 0;
  for (j = 0; j < n; j++) {
    scounts[j] = j + 1;
    sdispls[j] = at;
    for (k = 0; k <= j; k++) send[at + k] = 100 * me + j + 1000 * k;
    at += j + 1;
    rcounts[j] = me + 1;
    rdispls[j] = j * (me + 2);
    wsd[j] = sdispls[j] * (int)sizeof(int);
    wrd[j] = rdispls[j] * (int)sizeof(int);
    types[j] = MPI_INT;
  }
  for (j = 0; j < n * (me + 2); j++) recv[j] = recvw[j] = -1;
  MPI_Ialltoallv(send, scounts, sdispls, MPI_INT, recv, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD, &r[0]);
  MPI_Ialltoallw(send, scounts, wsd, types, recvw, rcounts, wrd, types, MPI_COMM_WORLD, &r[1]);
  for (j = 0; j < at; j++) send[j] = -7; /* the send side was copied at the call */
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  for (s = 0; s < n; s++) {
    for (k = 0; k <= me; k++) {
      int want = 100 * s + me + 1000 * k;
      CHECK(recv[s * (me + 2) + k] == want, "ialltoallv from %d [%d] = %d, not %d", s, k, recv[s * (me + 2) + k], want);
      CHECK(recvw[s * (me + 2) + k] == want, "ialltoallw from %d [%d] = %d, not %d", s, k, recvw[s * (me + 2) + k], want);
    }
    CHECK(recv[s * (me + 2) + me + 1] == -1 && recvw[s * (me + 2) + me + 1] == -1, "an all-to-all wrote a gap");
  }
  free(scounts); free(sdispls); free(rcounts); free(rdispls); free(wsd); free(wrd); free(types);
  free(send); free(recv); free(recvw);
}

static void my_sum(void *in, void *inout, int *len, MPI_Datatype *dt) {
  int i;
  (void)dt;
  for (i = 0; i < *len; i++) ((long *)inout)[i] += ((long *)in)[i];
}

/* Element e of every rank's vector is rank + e; rank r keeps its block of
 * r + 1 elements (ireduce_scatter) or of 2 (ireduce_scatter_block). */
static void reduce_scatter(void) {
  int i, k, before = 0, all = 0;
  int *counts = malloc(sizeof(int) * (size_t)n);
  int *in = malloc(sizeof(int) * (size_t)(n * (n + 1) / 2 + 2 * n)), out[64];
  long *lin = malloc(sizeof(long) * (size_t)(2 * n)), lout[2];
  MPI_Request r[3];
  MPI_Op op;
  for (i = 0; i < n; i++) {
    counts[i] = i + 1;
    if (i < me) before += i + 1;
    all += i + 1;
  }
  for (i = 0; i < all; i++) in[i] = me + i;
  for (k = 0; k < 64; k++) out[k] = -1;
  MPI_Op_create(my_sum, 1, &op);
  for (i = 0; i < 2 * n; i++) lin[i] = 10L * me + i;
  MPI_Ireduce_scatter(in, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]);
  MPI_Ireduce_scatter_block(lin, lout, 2, MPI_LONG, op, MPI_COMM_WORLD, &r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  for (k = 0; k <= me; k++) {
    int e = before + k, want = n * (n - 1) / 2 + n * e;
    CHECK(out[k] == want, "ireduce_scatter [%d] = %d, not %d", k, out[k], want);
  }
  CHECK(out[me + 1] == -1, "ireduce_scatter wrote past its block");
  for (k = 0; k < 2; k++) {
    long e = 2L * me + k, want = 10L * n * (n - 1) / 2 + (long)n * e;
    CHECK(lout[k] == want, "ireduce_scatter_block (user op) [%d] = %ld, not %ld", k, lout[k], want);
  }
  /* in place, MPI_MAX: the whole input is in recvbuf; the block lands at its start */
  for (i = 0; i < 2 * n; i++) in[i] = me * (i + 1);
  MPI_Ireduce_scatter_block(MPI_IN_PLACE, in, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &r[2]);
  MPI_Wait(&r[2], MPI_STATUS_IGNORE);
  for (k = 0; k < 2; k++)
    CHECK(in[k] == (n - 1) * (2 * me + k + 1), "ireduce_scatter_block in place [%d] = %d", k, in[k]);
  MPI_Op_free(&op);
  free(counts); free(in); free(lin);
}

/* Intercommunicator reduce-scatter (MPI-3.1 §5.10.1): the even and the odd
 * ranks are the two groups. Element e of world rank w's vector is
 * 100 * w + e; each group's reduced vector is scattered over the other
 * group: MPI_Ireduce_scatter in blocks of T = 12 elements shared out over
 * the group, MPI_Ireduce_scatter_block (user op, longs) in blocks of 2 *
 * remote size. The blocking forms give the same. Then counts whose totals
 * differ between the groups: every rank's request fails with MPI_ERR_COUNT. */
static void inter_reduce_scatter(void) {
  enum { T = 12 };
  MPI_Comm local, inter;
  MPI_Request r[2];
  MPI_Op op;
  int color = me % 2, lsize, lrank, rsize, i, k, before = 0, sumw = 0, rc, cls;
  int counts[T], in[T + 1], out[T + 1], bout[T + 1];
  long lin[2 * 64], lout[2 * 8];
  if (n < 2) return;
  MPI_Comm_split(MPI_COMM_WORLD, color, me, &local);
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - color, 77, &inter);
  MPI_Comm_size(local, &lsize);
  MPI_Comm_rank(local, &lrank);
  MPI_Comm_remote_size(inter, &rsize);
  for (i = 0; i < n; i++)
    if (i % 2 != color) sumw += i;
  for (i = 0; i < lsize; i++) {
    counts[i] = T / lsize + (i < T % lsize);
    if (i < lrank) before += counts[i];
  }
  for (k = 0; k <= T; k++) in[k] = 100 * me + k, out[k] = bout[k] = -1;
  for (k = 0; k < 2 * rsize * lsize; k++) lin[k] = 100L * me + k;
  MPI_Op_create(my_sum, 1, &op);
  MPI_Ireduce_scatter(in, out, counts, MPI_INT, MPI_SUM, inter, &r[0]);
  MPI_Ireduce_scatter_block(lin, lout, 2 * rsize, MPI_LONG, op, inter, &r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  MPI_Reduce_scatter(in, bout, counts, MPI_INT, MPI_SUM, inter);
  for (k = 0; k < counts[lrank]; k++) {
    int want = 100 * sumw + rsize * (before + k);
    CHECK(out[k] == want, "inter ireduce_scatter [%d] = %d, not %d", k, out[k], want);
    CHECK(bout[k] == want, "inter reduce_scatter [%d] = %d, not %d", k, bout[k], want);
  }
  CHECK(out[counts[lrank]] == -1, "inter ireduce_scatter wrote past its block");
  for (k = 0; k < 2 * rsize; k++) {
    long want = 100L * sumw + (long)rsize * (2L * rsize * lrank + k);
    CHECK(lout[k] == want, "inter ireduce_scatter_block (user op) [%d] = %ld, not %ld", k, lout[k], want);
  }
  /* the groups' totals differ (T vs T + 1): an error at completion, everywhere,
   * under the request's communicator's handler (§8.3), while MPI_COMM_WORLD's
   * stays MPI_ERRORS_ARE_FATAL */
  MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
  if (color == 1) counts[0] += 1;
  MPI_Ireduce_scatter(in, out, counts, MPI_INT, MPI_SUM, inter, &r[0]);
  rc = MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_COUNT, "inter ireduce_scatter with differing totals: class %d", cls);
  /* in place is an intracommunicator option */
  rc = MPI_Ireduce_scatter_block(MPI_IN_PLACE, out, 1, MPI_INT, MPI_SUM, inter, &r[0]);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_ARG, "inter ireduce_scatter_block in place: class %d", cls);
  MPI_Op_free(&op);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);
}

/* Every rank makes the same bad call, so none of them starts it. */
static void errors(void) {
  int rc, cls, v = 0, c1 = 1, d0 = 0;
  int *counts = calloc((size_t)n, sizeof(int)), *displs = calloc((size_t)n, sizeof(int));
  MPI_Request r = MPI_REQUEST_NULL;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  rc = MPI_Igatherv(&v, -1, MPI_INT, &v, counts, displs, MPI_INT, 0, MPI_COMM_WORLD, &r);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_COUNT, "igatherv with sendcount -1: class %d", cls);
  CHECK(r == MPI_REQUEST_NULL, "a failed igatherv set the request");
  rc = MPI_Ireduce_scatter_block(&v, &v, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD, &r);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_OP, "ireduce_scatter_block with MPI_OP_NULL: class %d", cls);
  rc = MPI_Iscatterv(&v, &c1, &d0, MPI_INT, &v, 1, MPI_INT, n, MPI_COMM_WORLD, &r);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_ROOT, "iscatterv with root %d: class %d", n, cls);
  rc = MPI_Ialltoallv(&v, NULL, displs, MPI_INT, &v, counts, displs, MPI_INT, MPI_COMM_WORLD, &r);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_ARG, "ialltoallv with sendcounts NULL: class %d", cls);
  rc = MPI_Ireduce_scatter(&v, &v, NULL, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_ARG, "ireduce_scatter with recvcounts NULL: class %d", cls);
  CHECK(r == MPI_REQUEST_NULL, "a failed call set the request");
  /* the world still works: one more after the failed ones */
  rc = MPI_Ireduce_scatter_block(&me, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(rc == MPI_SUCCESS && v == me, "ireduce_scatter_block on MPI_COMM_SELF gave %d", v);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  free(counts); free(displs);
}

int main(int argc, char **argv) {
  int total_failures = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  gather_scatter();
  alltoall();
  reduce_scatter();
  inter_reduce_scatter();
  errors();
  MPI_Allreduce(&failures, &total_failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) printf(total_failures ? "FAILED\n" : "done\n");
  MPI_Finalize();
  return total_failures ? 1 : 0;
}
