/* tests/exec/capi_coll.c: the C API's v- and w-collectives, user-defined
 * ops, neighbourhood collectives, buffered/ready sends, persistent requests
 * MPI_Testsome/Testany/Waitsome/Waitany with inactive ones, and NULL or
 * overlapping buffers refused, from a C program. Prints "FAIL ..." per failed check
 * and "done" on rank 0 (tests/integration/test_capi_nbc.py runs it). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* A non-commutative, associative op on positive ints: decimal concatenation
 * (12 op 3 = 123), so the result spells the contributions in rank order. */
static void digits(void *in, void *inout, int *len, MPI_Datatype *dt) {
  int i, *a = in, *b = inout;
  (void)dt;
  for (i = 0; i < *len; i++) {
    int scale = 1;
    while (scale <= b[i]) scale *= 10;
    b[i] = a[i] * scale + b[i];
  }
}

static void user_ops(void) {
  MPI_Op op;
  int commute = -1, v = me + 1, out = -1, want = 0, k, rc, cls;
  int in[2] = {1, 2}, io[2] = {3, 4};
  MPI_Request r;
  MPI_Op_create(digits, 0, &op);
  MPI_Op_commutative(op, &commute);
  CHECK(commute == 0, "MPI_Op_commutative gave %d", commute);
  MPI_Op_commutative(MPI_SUM, &commute);
  CHECK(commute == 1, "MPI_SUM does not commute: %d", commute);
  MPI_Reduce_local(in, io, 2, MPI_INT, op);
  CHECK(io[0] == 13 && io[1] == 24, "reduce_local gave %d %d", io[0], io[1]);
  if (n <= 6) { /* digits fit an int */
    for (k = 1; k <= n; k++) want = 10 * want + k;
    MPI_Allreduce(&v, &out, 1, MPI_INT, op, MPI_COMM_WORLD);
    CHECK(out == want, "allreduce with a non-commutative op gave %d, want %d", out, want);
    out = -1;
    MPI_Iallreduce(&v, &out, 1, MPI_INT, op, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK(out == want, "iallreduce with a non-commutative op gave %d, want %d", out, want);
    out = -1;
    MPI_Reduce(&v, &out, 1, MPI_INT, op, 0, MPI_COMM_WORLD);
    if (me == 0) CHECK(out == want, "reduce with a non-commutative op gave %d", out);
    MPI_Scan(&v, &out, 1, MPI_INT, op, MPI_COMM_WORLD);
    want = 0;
    for (k = 1; k <= me + 1; k++) want = 10 * want + k;
    CHECK(out == want, "scan gave %d, want %d", out, want);
  }
  MPI_Op_free(&op);
  CHECK(op == MPI_OP_NULL, "MPI_Op_free did not reset the handle");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  op = MPI_SUM;
  rc = MPI_Op_free(&op);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_OP, "freeing MPI_SUM: class %d", cls);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void vcolls(void) {
  int *counts = malloc(sizeof(int) * (size_t)n), *displs = malloc(sizeof(int) * (size_t)n);
  int *sc = malloc(sizeof(int) * (size_t)n), *sd = malloc(sizeof(int) * (size_t)n);
  int *big, *mine, total = 0, i, j, root, got[64];
  MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (size_t)n);
  for (i = 0; i < n; i++) {
    counts[i] = i % 3 + 1;
    displs[i] = total + i; /* a gap of i ints before block i */
    total += counts[i] + i;
  }
  big = malloc(sizeof(int) * (size_t)(total + 1));
  mine = malloc(sizeof(int) * 4);
  for (j = 0; j < counts[me]; j++) mine[j] = 100 * me + j;
  for (root = 0; root < n; root += n > 2 ? n - 1 : 1) {
    for (i = 0; i < total; i++) big[i] = -1;
    MPI_Gatherv(mine, counts[me], MPI_INT, big, counts, displs, MPI_INT, root, MPI_COMM_WORLD);
    if (me == root)
      for (i = 0; i < n; i++)
        for (j = 0; j < counts[i]; j++)
          CHECK(big[displs[i] + j] == 100 * i + j, "gatherv root %d: block %d[%d] = %d", root, i, j, big[displs[i] + j]);
    for (i = 0; i < n; i++)
      for (j = 0; j < counts[i]; j++) big[displs[i] + j] = 7 * i + j;
    memset(got, 0, sizeof got);
    MPI_Scatterv(big, counts, displs, MPI_INT, got, counts[me], MPI_INT, root, MPI_COMM_WORLD);
    for (j = 0; j < counts[me]; j++) CHECK(got[j] == 7 * me + j, "scatterv root %d: [%d] = %d", root, j, got[j]);
  }
  for (i = 0; i < total; i++) big[i] = -1;
  MPI_Allgatherv(mine, counts[me], MPI_INT, big, counts, displs, MPI_INT, MPI_COMM_WORLD);
  for (i = 0; i < n; i++)
    for (j = 0; j < counts[i]; j++)
      CHECK(big[displs[i] + j] == 100 * i + j, "allgatherv: block %d[%d] = %d", i, j, big[displs[i] + j]);
  /* alltoallv: rank me sends i+1 ints (value me*1000+i) to rank i */
  {
    int *sb = malloc(sizeof(int) * (size_t)(n * n + 1)), *rb = malloc(sizeof(int) * (size_t)(n * n + 1));
    int *rc = malloc(sizeof(int) * (size_t)n), *rd = malloc(sizeof(int) * (size_t)n);
    int *sbytes = malloc(sizeof(int) * (size_t)n), *rbytes = malloc(sizeof(int) * (size_t)n);
    int s = 0;
    for (i = 0; i < n; i++) {
      sc[i] = i + 1;
      sd[i] = s;
      for (j = 0; j < sc[i]; j++) sb[s + j] = me * 1000 + i;
      s += sc[i];
      rc[i] = me + 1;
      rd[i] = i * (me + 1);
      sbytes[i] = sd[i] * (int)sizeof(int);
      rbytes[i] = rd[i] * (int)sizeof(int);
      types[i] = MPI_INT;
    }
    MPI_Alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, MPI_COMM_WORLD);
    for (i = 0; i < n; i++)
      for (j = 0; j < me + 1; j++)
        CHECK(rb[rd[i] + j] == i * 1000 + me, "alltoallv from %d: %d", i, rb[rd[i] + j]);
    memset(rb, 0, sizeof(int) * (size_t)(n * n));
    MPI_Alltoallw(sb, sc, sbytes, types, rb, rc, rbytes, types, MPI_COMM_WORLD);
    for (i = 0; i < n; i++)
      for (j = 0; j < me + 1; j++)
        CHECK(rb[rd[i] + j] == i * 1000 + me, "alltoallw from %d: %d", i, rb[rd[i] + j]);
    free(sb), free(rb), free(rc), free(rd), free(sbytes), free(rbytes);
  }
  free(counts), free(displs), free(sc), free(sd), free(big), free(mine), free(types);
}

static void neighbours(void) {
  MPI_Comm ring;
  int dims[1], periods[1] = {1}, left, right, out[2] = {-1, -1}, send[2];
  dims[0] = n;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  MPI_Cart_shift(ring, 0, 1, &left, &right);
  MPI_Neighbor_allgather(&me, 1, MPI_INT, out, 1, MPI_INT, ring);
  CHECK(out[0] == left && out[1] == right, "neighbor_allgather gave %d %d", out[0], out[1]);
  send[0] = me * 10;     /* to the left neighbour */
  send[1] = me * 10 + 1; /* to the right neighbour */
  MPI_Neighbor_alltoall(send, 1, MPI_INT, out, 1, MPI_INT, ring);
  CHECK(out[0] == left * 10 + 1 && out[1] == right * 10, "neighbor_alltoall gave %d %d", out[0], out[1]);
  MPI_Comm_free(&ring);
}

static void p2p_modes(void) {
  int next = (me + 1) % n, prev = (me + n - 1) % n, v = -1, i, rc, cls, size;
  char *buf = malloc(1000 + MPI_BSEND_OVERHEAD);
  void *back;
  MPI_Request rs[2];
  int idx[2], outcount;
  MPI_Buffer_attach(buf, 1000 + MPI_BSEND_OVERHEAD);
  MPI_Bsend(&me, 1, MPI_INT, next, 1, MPI_COMM_WORLD);
  MPI_Recv(&v, 1, MPI_INT, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK(v == prev, "bsend ring gave %d", v);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  rc = MPI_Bsend(buf, 2000, MPI_CHAR, next, 1, MPI_COMM_WORLD);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_BUFFER, "bsend larger than the buffer: class %d", cls);
  /* one buffer as sendbuf and recvbuf (MPI-3.1 §2.3): MPI_ERR_BUFFER on every rank, nothing sent */
  rc = MPI_Allreduce(&v, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_BUFFER, "Allreduce with sendbuf == recvbuf: class %d", cls);
  rc = MPI_Scan(&v, &v, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_BUFFER, "Scan with sendbuf == recvbuf: class %d", cls);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Buffer_detach(&back, &size);
  CHECK(back == buf && size == 1000 + MPI_BSEND_OVERHEAD, "detach gave %p %d", back, size);
  free(buf);
  /* persistent: three rounds of a ring exchange with the same requests */
  MPI_Recv_init(&v, 1, MPI_INT, prev, 2, MPI_COMM_WORLD, &rs[0]);
  MPI_Send_init(&i, 1, MPI_INT, next, 2, MPI_COMM_WORLD, &rs[1]);
  for (i = 0; i < 3; i++) {
    MPI_Startall(2, rs);
    outcount = 0;
    while (1) {
      int got = 0, k;
      MPI_Testsome(2, rs, &got, idx, MPI_STATUSES_IGNORE);
      if (got == MPI_UNDEFINED) break;
      for (k = 0; k < got; k++) outcount |= 1 << idx[k];
      if (outcount == 3) break;
    }
    CHECK(v == i, "persistent round %d gave %d", i, v);
    CHECK(rs[0] != MPI_REQUEST_NULL && rs[1] != MPI_REQUEST_NULL, "a persistent request became null");
  }
  MPI_Request_free(&rs[0]);
  MPI_Request_free(&rs[1]);
  /* ready mode: the receive is posted before the barrier that precedes the send */
  MPI_Irecv(&v, 1, MPI_INT, prev, 3, MPI_COMM_WORLD, &rs[0]);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Rsend(&me, 1, MPI_INT, next, 3, MPI_COMM_WORLD);
  MPI_Wait(&rs[0], MPI_STATUS_IGNORE);
  CHECK(v == prev, "rsend ring gave %d", v);
}

/* MPI-3.1 §3.7.5 and §3.9: the any/some calls ignore null and inactive
 * persistent requests; with no active one, Testsome/Waitsome give outcount
 * MPI_UNDEFINED and Testany/Waitany index MPI_UNDEFINED (Testany flag true). */
static void inactive_requests(void) {
  int next = (me + 1) % n, prev = (me + n - 1) % n, v = -1, w = -1, out = me;
  int idx[3], got = -2, index = -2, flag = 0, k, seen[3] = {0, 0, 0};
  MPI_Request rs[3];
  MPI_Recv_init(&v, 1, MPI_INT, prev, 5, MPI_COMM_WORLD, &rs[0]);
  MPI_Send_init(&out, 1, MPI_INT, next, 5, MPI_COMM_WORLD, &rs[1]);
  rs[2] = MPI_REQUEST_NULL;
  MPI_Testsome(3, rs, &got, idx, MPI_STATUSES_IGNORE);
  CHECK(got == MPI_UNDEFINED, "testsome on inactive+null gave outcount %d", got);
  MPI_Waitsome(3, rs, &got, idx, MPI_STATUSES_IGNORE);
  CHECK(got == MPI_UNDEFINED, "waitsome on inactive+null gave outcount %d", got);
  MPI_Testany(3, rs, &index, &flag, MPI_STATUS_IGNORE);
  CHECK(flag && index == MPI_UNDEFINED, "testany on inactive+null gave flag %d index %d", flag, index);
  MPI_Waitany(3, rs, &index, MPI_STATUS_IGNORE);
  CHECK(index == MPI_UNDEFINED, "waitany on inactive+null gave index %d", index);
  /* one active receive beside the inactive ones: only it is ever reported */
  MPI_Irecv(&w, 1, MPI_INT, prev, 6, MPI_COMM_WORLD, &rs[2]);
  MPI_Send(&me, 1, MPI_INT, next, 6, MPI_COMM_WORLD);
  do {
    MPI_Testsome(3, rs, &got, idx, MPI_STATUSES_IGNORE);
    CHECK(got != MPI_UNDEFINED, "testsome with an active request gave MPI_UNDEFINED");
    for (k = 0; k < got && got != MPI_UNDEFINED; k++)
      CHECK(idx[k] == 2, "testsome reported inactive request %d", idx[k]);
  } while (got == 0);
  CHECK(w == prev && rs[2] == MPI_REQUEST_NULL, "the active receive gave %d", w);
  /* started: each persistent request is reported once, then neither is */
  MPI_Startall(2, rs);
  while (1) {
    MPI_Testsome(3, rs, &got, idx, MPI_STATUSES_IGNORE);
    if (got == MPI_UNDEFINED) break;
    for (k = 0; k < got; k++) seen[idx[k]]++;
  }
  CHECK(seen[0] == 1 && seen[1] == 1 && seen[2] == 0, "completions seen %d %d %d", seen[0], seen[1], seen[2]);
  CHECK(v == prev, "the persistent ring gave %d", v);
  MPI_Testany(3, rs, &index, &flag, MPI_STATUS_IGNORE);
  CHECK(flag && index == MPI_UNDEFINED, "testany after completion gave flag %d index %d", flag, index);
  MPI_Request_free(&rs[0]);
  MPI_Request_free(&rs[1]);
}

/* A NULL buffer that would hold data is MPI_ERR_BUFFER naming it, before
 * anything is sent; MPI_BOTTOM (NULL) with absolute addresses is a buffer;
 * MPI_Sendrecv's two buffers must be disjoint (MPI-3.1 §3.10). */
static void null_buffers(void) {
  int next = (me + 1) % n, prev = (me + n - 1) % n, v = -1, pair[2] = {me, -1}, rc, cls, len;
  char text[MPI_MAX_ERROR_STRING];
  MPI_Aint at;
  MPI_Datatype absolute;
  MPI_Request r;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  rc = MPI_Send(NULL, 4, MPI_INT, next, 7, MPI_COMM_WORLD);
  MPI_Error_class(rc, &cls);
  MPI_Error_string(rc, text, &len);
  CHECK(cls == MPI_ERR_BUFFER && strstr(text, "buf is NULL"), "Send(NULL, 4): class %d (%s)", cls, text);
  rc = MPI_Recv(NULL, 4, MPI_INT, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_BUFFER, "Recv(NULL, 4): class %d", cls);
  rc = MPI_Irecv(NULL, 1, MPI_DOUBLE, prev, 7, MPI_COMM_WORLD, &r);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_BUFFER, "Irecv(NULL, 1): class %d", cls);
  rc = MPI_Sendrecv(&me, 1, MPI_INT, next, 7, NULL, 1, MPI_INT, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Error_class(rc, &cls);
  MPI_Error_string(rc, text, &len);
  CHECK(cls == MPI_ERR_BUFFER && strstr(text, "recvbuf is NULL"), "Sendrecv recvbuf NULL: class %d (%s)", cls, text);
  rc = MPI_Allreduce(NULL, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_BUFFER, "Allreduce(NULL sendbuf): class %d", cls);
  rc = MPI_Bcast(NULL, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_BUFFER, "Bcast(NULL, 1): class %d", cls);
  rc = MPI_Sendrecv(pair, 2, MPI_INT, next, 7, pair + 1, 1, MPI_INT, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Error_class(rc, &cls);
  MPI_Error_string(rc, text, &len);
  CHECK(cls == MPI_ERR_BUFFER && strstr(text, "overlap"), "Sendrecv with overlapping buffers: class %d (%s)", cls,
        text);
  /* nothing was sent by the refused calls: the ring below sees only its own messages */
  rc = MPI_Sendrecv(NULL, 0, MPI_INT, next, 7, NULL, 0, MPI_INT, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK(rc == MPI_SUCCESS, "Sendrecv of nothing from NULL: %d", rc);
  MPI_Get_address(&pair[0], &at);
  MPI_Type_create_hindexed(1, (int[]){1}, &at, MPI_INT, &absolute);
  MPI_Type_commit(&absolute);
  rc = MPI_Sendrecv(MPI_BOTTOM, 1, absolute, next, 8, &v, 1, MPI_INT, prev, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK(rc == MPI_SUCCESS && v == prev, "Sendrecv from MPI_BOTTOM gave rc %d, %d", rc, v);
  pair[0] = me;
  rc = MPI_Sendrecv_replace(pair, 1, MPI_INT, next, 9, prev, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK(rc == MPI_SUCCESS && pair[0] == prev, "Sendrecv_replace gave rc %d, %d", rc, pair[0]);
  MPI_Type_free(&absolute);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv) {
  int total = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  user_ops();
  vcolls();
  neighbours();
  p2p_modes();
  inactive_requests();
  null_buffers();
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) printf(total ? "FAILED\n" : "done\n");
  MPI_Finalize();
  return total ? 1 : 0;
}
