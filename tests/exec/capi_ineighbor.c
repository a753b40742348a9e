/* tests/exec/capi_ineighbor.c: the C API's nonblocking neighbourhood
 * collectives (MPI-3.1 §7.7: MPI_Ineighbor_allgather(v),
 * MPI_Ineighbor_alltoall(v/w)) from a C program, each checked against its
 * blocking form (§7.6) and against the values the neighbours sent, on
 * - a 2-d Cartesian grid, periodic in dimension 0 only (PROC_NULL slots
 *   stay untouched),
 * - a periodic ring (at 1 and 2 ranks both neighbours are one process:
 *   the -1 block must land in the +1 slot and vice versa),
 * - a symmetric graph (a ring with a chord, repeated edges at small sizes),
 * - a distributed graph with unequal in- and out-degrees (rank i receives
 *   from every lower rank and sends to every higher one; rank 0 also to
 *   itself);
 * all five pending at once, and bad arguments reported at the call under
 * MPI_ERRORS_RETURN with the same error class as the blocking form.
 * Prints "FAIL ..." per failed check and "done" on rank 0 at the end
 * (tests/integration/test_capi_nbc.py runs it at 1, 2, 3, 4, 5 and 7 ranks). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { MAXN = 64, BUF = 4096 };

/* A comm's neighbours in MPI order (in and out), from the topology queries. */
static int neighbours(MPI_Comm c, int in[], int *indeg, int out[], int *outdeg) {
  int kind, d, k;
  MPI_Topo_test(c, &kind);
  if (kind == MPI_CART) {
    MPI_Cartdim_get(c, &d);
    for (k = 0; k < d; k++) MPI_Cart_shift(c, k, 1, &in[2 * k], &in[2 * k + 1]);
    *indeg = *outdeg = 2 * d;
    memcpy(out, in, sizeof(int) * (size_t)(2 * d));
  } else if (kind == MPI_GRAPH) {
    MPI_Graph_neighbors_count(c, me, indeg);
    MPI_Graph_neighbors(c, me, MAXN, in);
    *outdeg = *indeg;
    memcpy(out, in, sizeof(int) * (size_t)*indeg);
  } else {
    int weighted, iw[MAXN], ow[MAXN];
    MPI_Dist_graph_neighbors_count(c, indeg, outdeg, &weighted);
    MPI_Dist_graph_neighbors(c, MAXN, in, iw, MAXN, out, ow);
  }
  return kind;
}

/* How many ints a sends to b in the v and w forms: 1 or 2. */
static int pair_count(int a, int b) { return 1 + (a + b) % 2; }

static void fill(int *b, int v) {
  int i;
  for (i = 0; i < BUF; i++) b[i] = v;
}

/* The five, blocking into b*, nonblocking into i* (all five pending), on c. */
static void compare(MPI_Comm c, const char *name) {
  static int sbuf[BUF], b[5][BUF], x[5][BUF];
  int in[MAXN], out[MAXN], indeg, outdeg, k, j, f;
  int rc[MAXN], rd[MAXN], sc[MAXN], sd[MAXN], gc[MAXN], gd[MAXN];
  MPI_Aint rdw[MAXN], sdw[MAXN];
  MPI_Datatype st[MAXN], rt[MAXN];
  MPI_Request r[5];
  const char *form[5] = {"allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw"};
  neighbours(c, in, &indeg, out, &outdeg);
  for (k = 0; k < BUF; k++) sbuf[k] = 1000 * me + k;
  /* allgatherv: rank i sends 1 + i % 3 ints; in-slot k has room for its
   * sender's after a gap of two. alltoallv/w: pair_count(sender, receiver)
   * ints per block, after a gap of one. */
  for (k = 0, j = 0; k < indeg; k++) {
    int from = in[k] == MPI_PROC_NULL ? 0 : in[k];
    gc[k] = 1 + from % 3;
    gd[k] = 2 * (k + 1) + 3 * k;
    rc[k] = pair_count(from, me);
    rd[k] = j + 1;
    rdw[k] = (MPI_Aint)(sizeof(int) * (size_t)rd[k]);
    rt[k] = MPI_INT;
    j += rc[k] + 1;
  }
  for (k = 0, j = 0; k < outdeg; k++) {
    int to = out[k] == MPI_PROC_NULL ? 0 : out[k];
    sc[k] = pair_count(me, to);
    sd[k] = j;
    sdw[k] = (MPI_Aint)(sizeof(int) * (size_t)j);
    st[k] = MPI_INT;
    j += sc[k] + 3;
  }
  for (f = 0; f < 5; f++) {
    fill(b[f], -1);
    fill(x[f], -1);
  }
  MPI_Neighbor_allgather(sbuf, 2, MPI_INT, b[0], 2, MPI_INT, c);
  MPI_Neighbor_allgatherv(sbuf, 1 + me % 3, MPI_INT, b[1], gc, gd, MPI_INT, c);
  MPI_Neighbor_alltoall(sbuf, 2, MPI_INT, b[2], 2, MPI_INT, c);
  MPI_Neighbor_alltoallv(sbuf, sc, sd, MPI_INT, b[3], rc, rd, MPI_INT, c);
  MPI_Neighbor_alltoallw(sbuf, sc, sdw, st, b[4], rc, rdw, rt, c);
  MPI_Ineighbor_allgather(sbuf, 2, MPI_INT, x[0], 2, MPI_INT, c, &r[0]);
  MPI_Ineighbor_allgatherv(sbuf, 1 + me % 3, MPI_INT, x[1], gc, gd, MPI_INT, c, &r[1]);
  MPI_Ineighbor_alltoall(sbuf, 2, MPI_INT, x[2], 2, MPI_INT, c, &r[2]);
  MPI_Ineighbor_alltoallv(sbuf, sc, sd, MPI_INT, x[3], rc, rd, MPI_INT, c, &r[3]);
  MPI_Ineighbor_alltoallw(sbuf, sc, sdw, st, x[4], rc, rdw, rt, c, &r[4]);
  MPI_Waitall(5, r, MPI_STATUSES_IGNORE);
  for (f = 0; f < 5; f++)
    for (k = 0; k < BUF; k++)
      if (b[f][k] != x[f][k]) {
        CHECK(0, "%s: ineighbor_%s [%d] = %d, blocking gave %d", name, form[f], k, x[f][k], b[f][k]);
        break;
      }
  /* what the neighbours sent: allgather block k is in[k]'s first two ints */
  for (k = 0; k < indeg; k++) {
    if (in[k] == MPI_PROC_NULL) {
      CHECK(x[0][2 * k] == -1 && x[2][2 * k] == -1 && x[1][gd[k]] == -1, "%s: PROC_NULL slot %d was written", name,
            k);
      continue;
    }
    CHECK(x[0][2 * k] == 1000 * in[k] && x[0][2 * k + 1] == 1000 * in[k] + 1,
          "%s: ineighbor_allgather slot %d = %d %d, from %d", name, k, x[0][2 * k], x[0][2 * k + 1], in[k]);
    for (j = 0; j < gc[k]; j++)
      CHECK(x[1][gd[k] + j] == 1000 * in[k] + j, "%s: ineighbor_allgatherv slot %d [%d] = %d, from %d", name, k, j,
            x[1][gd[k] + j], in[k]);
    CHECK(x[1][gd[k] - 1] == -1, "%s: ineighbor_allgatherv wrote the gap before slot %d", name, k);
  }
  /* alltoall on a ring of 1 or 2: the +1 neighbour's -1 block lands in slot 1 */
  if (indeg == 2 && in[0] != MPI_PROC_NULL && in[0] == in[1]) {
    int kind;
    MPI_Topo_test(c, &kind);
    if (kind == MPI_CART)
      CHECK(x[2][2] == 1000 * in[1] && x[2][0] == 1000 * in[0] + 2,
            "%s: ineighbor_alltoall on a ring of one neighbour: %d %d", name, x[2][0], x[2][2]);
  }
}

static void errors(MPI_Comm cart) {
  int rc, cls, bcls, v[4] = {0, 0, 0, 0}, neg[MAXN], z[MAXN];
  MPI_Aint zw[MAXN];
  MPI_Datatype bad[MAXN];
  MPI_Request r = MPI_REQUEST_NULL;
  int k;
  for (k = 0; k < MAXN; k++) {
    neg[k] = -1;
    z[k] = 0;
    zw[k] = 0;
    bad[k] = MPI_DATATYPE_NULL;
  }
  /* no topology: the blocking and nonblocking forms agree */
  rc = MPI_Ineighbor_allgather(v, 1, MPI_INT, v, 1, MPI_INT, MPI_COMM_WORLD, &r);
  MPI_Error_class(rc, &cls);
  rc = MPI_Neighbor_allgather(v, 1, MPI_INT, v, 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Error_class(rc, &bcls);
  CHECK(cls == MPI_ERR_TOPOLOGY && bcls == cls, "neighbour collectives on MPI_COMM_WORLD: class %d / %d", cls,
        bcls);
  CHECK(r == MPI_REQUEST_NULL, "a failed ineighbor_allgather set the request");
  rc = MPI_Ineighbor_alltoallw(v, z, zw, bad, v, z, zw, bad, MPI_COMM_SELF, &r);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_TOPOLOGY, "ineighbor_alltoallw on MPI_COMM_SELF: class %d", cls);
  /* on the grid (every rank has 4 slots) */
  rc = MPI_Ineighbor_alltoallv(v, neg, z, MPI_INT, v, z, z, MPI_INT, cart, &r);
  MPI_Error_class(rc, &cls);
  rc = MPI_Neighbor_alltoallv(v, neg, z, MPI_INT, v, z, z, MPI_INT, cart);
  MPI_Error_class(rc, &bcls);
  CHECK(cls == MPI_ERR_COUNT && bcls == cls, "neighbor_alltoallv with sendcounts -1: class %d / %d", cls, bcls);
  rc = MPI_Ineighbor_allgatherv(v, 1, MPI_INT, v, NULL, z, MPI_INT, cart, &r);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_ARG, "ineighbor_allgatherv with recvcounts NULL: class %d", cls);
  rc = MPI_Ineighbor_alltoallw(v, z, zw, bad, v, z, zw, bad, cart, &r);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_TYPE, "ineighbor_alltoallw with MPI_DATATYPE_NULL: class %d", cls);
  rc = MPI_Ineighbor_alltoall(v, -2, MPI_INT, v, 1, MPI_INT, cart, &r);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_COUNT, "ineighbor_alltoall with sendcount -2: class %d", cls);
  rc = MPI_Ineighbor_alltoall(v, 1, MPI_INT, v, 1, MPI_INT, cart, NULL);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_ARG, "ineighbor_alltoall with request NULL: class %d", cls);
  CHECK(r == MPI_REQUEST_NULL, "a failed call set the request");
}

static void intercomm_error(void) {
  MPI_Comm local, inter;
  MPI_Request r = MPI_REQUEST_NULL;
  int rc, cls, v = 0, color = me % 2;
  if (n < 2) return;
  MPI_Comm_split(MPI_COMM_WORLD, color, me, &local);
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - color, 78, &inter);
  rc = MPI_Ineighbor_allgather(&v, 1, MPI_INT, &v, 1, MPI_INT, inter, &r);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_TOPOLOGY, "ineighbor_allgather on an intercommunicator: class %d", cls);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);
}

int main(int argc, char **argv) {
  int total_failures = 0, dims[2] = {0, 0}, periods[2] = {1, 0}, yes = 1, k, j;
  int *index, *edges, srcs[MAXN], dsts[MAXN], ones[MAXN], ns = 0, nd = 0, e = 0;
  MPI_Comm cart, line, graph, dist;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Dims_create(n, 2, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  MPI_Cart_create(MPI_COMM_WORLD, 1, &n, &yes, 0, &line);
  /* a ring with a chord from every rank to rank + 2 (both directions) */
  index = malloc(sizeof(int) * (size_t)n);
  edges = malloc(sizeof(int) * (size_t)(4 * n));
  for (k = 0; k < n; k++) {
    edges[e++] = (k + 1) % n;
    edges[e++] = (k + n - 1) % n;
    edges[e++] = (k + 2) % n;
    edges[e++] = (k + n - 2) % n;
    index[k] = e;
  }
  MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 0, &graph);
  if (me == 0) srcs[ns++] = 0, dsts[nd++] = 0;
  for (j = 0; j < n; j++) {
    if (j < me) srcs[ns++] = j;
    if (j > me) dsts[nd++] = j;
  }
  for (k = 0; k < MAXN; k++) ones[k] = 1;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, ns, srcs, ones, nd, dsts, ones, MPI_INFO_NULL, 0, &dist);
  compare(cart, "cart");
  compare(line, "ring");
  compare(graph, "graph");
  compare(dist, "dist graph");
  errors(cart);
  intercomm_error();
  /* after the failed calls, the topologies still work */
  compare(dist, "dist graph again");
  MPI_Comm_free(&cart);
  MPI_Comm_free(&line);
  MPI_Comm_free(&graph);
  MPI_Comm_free(&dist);
  free(index);
  free(edges);
  MPI_Allreduce(&failures, &total_failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) printf(total_failures ? "FAILED\n" : "done\n");
  MPI_Finalize();
  return total_failures ? 1 : 0;
}
