/* tests/exec/capi_persistent.c: persistent requests (MPI-3.1 §3.9) in C, at
 * any number of ranks: every send mode and MPI_Recv_init with derived
 * datatypes that have holes (each start packs the buffer as it is then, each
 * completion unpacks, the holes untouched), and the rules: an inactive request
 * completes at once with an empty status and stays allocated after a wait;
 * starting an active one is MPI_ERR_REQUEST and MPI_Startall checks every
 * request before it starts any; MPI_Request_get_status leaves it active;
 * freeing an active receive lets its message still land; MPI_Bsend_init
 * needs room in the attached buffer at each start. Prints "done" on rank 0
 * when every check passes. */
#include <mpi.h>
#include <stdlib.h>

#include "check.h"

static int prev, next;
static MPI_Datatype every_other; /* 3 ints, one every 2: holes between them */

static int class_of(int rc) {
  int c;
  MPI_Error_class(rc, &c);
  return c;
}

static int empty(const MPI_Status* s) {
  int count = -1;
  MPI_Get_count(s, MPI_INT, &count);
  return s->MPI_SOURCE == MPI_ANY_SOURCE && s->MPI_TAG == MPI_ANY_TAG && count == 0;
}

/* Three rounds around the ring in mode `init`, a column with holes on both
 * sides; the send buffer changes between starts. */
static void ring(int (*init)(const void*, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request*), const char* mode) {
  int out[6], in[6];
  MPI_Request rs[2];
  MPI_Recv_init(in, 1, every_other, prev, 1, MPI_COMM_WORLD, &rs[0]);
  init(out, 1, every_other, next, 1, MPI_COMM_WORLD, &rs[1]);
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 6; ++i) out[i] = i % 2 ? -1 : 100 * me + 10 * round + i;
    for (int i = 0; i < 6; ++i) in[i] = -7;
    MPI_Startall(2, rs);
    MPI_Status st[2];
    MPI_Waitall(2, rs, st);
    int ok = st[0].MPI_SOURCE == prev && st[0].MPI_TAG == 1;
    for (int i = 0; i < 6; ++i) ok &= in[i] == (i % 2 ? -7 : 100 * prev + 10 * round + i);
    CHECK(ok, "%s round %d: got %d %d %d %d %d %d from %d", mode, round, in[0], in[1], in[2], in[3], in[4], in[5],
          st[0].MPI_SOURCE);
    CHECK(rs[0] != MPI_REQUEST_NULL && rs[1] != MPI_REQUEST_NULL, "%s: a wait freed a persistent request", mode);
  }
  MPI_Request_free(&rs[0]);
  MPI_Request_free(&rs[1]);
  CHECK(rs[0] == MPI_REQUEST_NULL && rs[1] == MPI_REQUEST_NULL, "%s: MPI_Request_free left a handle", mode);
}

static void inactive(void) {
  int a = -1;
  MPI_Request r;
  MPI_Status st;
  int flag = 0;
  MPI_Recv_init(&a, 1, MPI_INT, prev, 2, MPI_COMM_WORLD, &r);
  CHECK(MPI_Wait(&r, &st) == MPI_SUCCESS && empty(&st) && r != MPI_REQUEST_NULL,
        "a wait on an inactive request: not an empty status at once");
  CHECK(MPI_Test(&r, &flag, &st) == MPI_SUCCESS && flag && empty(&st), "a test on an inactive request");
  int index = 0, outcount = 0, indices[1];
  MPI_Waitany(1, &r, &index, &st);
  CHECK(index == MPI_UNDEFINED, "MPI_Waitany with only an inactive request gave index %d", index);
  MPI_Testsome(1, &r, &outcount, indices, MPI_STATUSES_IGNORE);
  CHECK(outcount == MPI_UNDEFINED, "MPI_Testsome with only an inactive request gave %d", outcount);
  MPI_Request_free(&r);
}

static void start_errors(void) {
  int a = 0, b = 0, c = 0, one = 1;
  MPI_Request rs[2], plain;
  MPI_Recv_init(&a, 1, MPI_INT, me, 3, MPI_COMM_WORLD, &rs[0]);
  MPI_Recv_init(&b, 1, MPI_INT, me, 4, MPI_COMM_WORLD, &rs[1]);
  MPI_Start(&rs[0]);
  int rc = MPI_Start(&rs[0]);
  CHECK(class_of(rc) == MPI_ERR_REQUEST, "MPI_Start of an active request gave class %d", class_of(rc));
  rc = MPI_Startall(2, (MPI_Request[]){rs[1], rs[0]});
  CHECK(class_of(rc) == MPI_ERR_REQUEST, "MPI_Startall with an active request gave class %d", class_of(rc));
  /* rs[1] was not started: its message stays unexpected */
  MPI_Send(&one, 1, MPI_INT, me, 4, MPI_COMM_WORLD);
  int found = 0;
  MPI_Iprobe(me, 4, MPI_COMM_WORLD, &found, MPI_STATUS_IGNORE);
  CHECK(found && b == 0, "MPI_Startall started a request before it found the active one");
  rc = MPI_Startall(2, (MPI_Request[]){rs[1], rs[1]});
  CHECK(class_of(rc) == MPI_ERR_REQUEST, "MPI_Startall with a request twice gave class %d", class_of(rc));
  rc = MPI_Startall(2, (MPI_Request[]){rs[1], MPI_REQUEST_NULL});
  CHECK(class_of(rc) == MPI_ERR_REQUEST, "MPI_Startall with MPI_REQUEST_NULL gave class %d", class_of(rc));
  MPI_Irecv(&c, 1, MPI_INT, me, 5, MPI_COMM_WORLD, &plain);
  rc = MPI_Start(&plain);
  CHECK(class_of(rc) == MPI_ERR_REQUEST, "MPI_Start of a nonpersistent request gave class %d", class_of(rc));
  MPI_Send(&one, 1, MPI_INT, me, 5, MPI_COMM_WORLD);
  MPI_Wait(&plain, MPI_STATUS_IGNORE);
  MPI_Start(&rs[1]);
  MPI_Wait(&rs[1], MPI_STATUS_IGNORE);
  CHECK(b == 1, "the unexpected message went to %d", b);
  /* MPI_Request_get_status leaves the request active */
  int flag = 0, two = 2;
  MPI_Send(&two, 1, MPI_INT, me, 3, MPI_COMM_WORLD);
  for (double t0 = MPI_Wtime(); !flag && MPI_Wtime() - t0 < 10;) MPI_Request_get_status(rs[0], &flag, MPI_STATUS_IGNORE);
  CHECK(flag && a == 2, "MPI_Request_get_status: flag %d a %d", flag, a);
  rc = MPI_Start(&rs[0]);
  CHECK(class_of(rc) == MPI_ERR_REQUEST, "MPI_Request_get_status deactivated the request");
  MPI_Wait(&rs[0], MPI_STATUS_IGNORE);
  CHECK(MPI_Start(&rs[0]) == MPI_SUCCESS, "a completed request does not start again");
  MPI_Cancel(&rs[0]);
  MPI_Wait(&rs[0], MPI_STATUS_IGNORE);
  MPI_Request_free(&rs[0]);
  MPI_Request_free(&rs[1]);
  rc = MPI_Request_free(&rs[1]);
  CHECK(class_of(rc) == MPI_ERR_REQUEST, "freeing twice gave class %d", class_of(rc));
}

/* An active persistent receive freed before its message arrives still takes
 * it, into its type's places; the next message goes to the next receive. */
static void free_active(void) {
  int in[6] = {-7, -7, -7, -7, -7, -7}, out[6] = {1, -1, 2, -1, 3, -1}, later = 0;
  MPI_Request r;
  MPI_Recv_init(in, 1, every_other, prev, 6, MPI_COMM_WORLD, &r);
  MPI_Start(&r);
  MPI_Request_free(&r);
  CHECK(r == MPI_REQUEST_NULL, "MPI_Request_free left the handle");
  MPI_Barrier(MPI_COMM_WORLD); /* the receive is posted before its message is sent */
  int next_later = 40 + me;
  MPI_Send(out, 1, every_other, next, 6, MPI_COMM_WORLD);
  MPI_Send(&next_later, 1, MPI_INT, next, 6, MPI_COMM_WORLD);
  MPI_Recv(&later, 1, MPI_INT, prev, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK(later == 40 + prev, "the freed receive did not take the first message (the second gave %d)", later);
  int flag = 0;
  for (double t0 = MPI_Wtime(); in[4] != 3 && MPI_Wtime() - t0 < 10;) MPI_Iprobe(prev, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  CHECK(in[0] == 1 && in[1] == -7 && in[2] == 2 && in[3] == -7 && in[4] == 3 && in[5] == -7,
        "the freed receive landed %d %d %d %d %d %d", in[0], in[1], in[2], in[3], in[4], in[5]);
}

/* MPI_Bsend_init needs room at each start, not at the call. */
static void buffered(void) {
  int v = me, got = -1;
  MPI_Request r;
  MPI_Bsend_init(&v, 1, MPI_INT, me, 7, MPI_COMM_WORLD, &r);
  int rc = MPI_Start(&r);
  CHECK(class_of(rc) == MPI_ERR_BUFFER, "MPI_Start of a buffered send with no buffer gave class %d", class_of(rc));
  int size = 64 + MPI_BSEND_OVERHEAD;
  void* buf = malloc((size_t)size);
  MPI_Buffer_attach(buf, size);
  CHECK(MPI_Start(&r) == MPI_SUCCESS, "MPI_Start of a buffered send with a buffer failed");
  MPI_Recv(&got, 1, MPI_INT, me, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(got == me, "the buffered persistent send gave %d", got);
  MPI_Request_free(&r);
  MPI_Buffer_detach(&buf, &size);
  free(buf);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  prev = (me + n - 1) % n;
  next = (me + 1) % n;
  MPI_Type_vector(3, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);

  ring(MPI_Send_init, "MPI_Send_init");
  ring(MPI_Ssend_init, "MPI_Ssend_init");
  ring(MPI_Rsend_init, "MPI_Rsend_init");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  inactive();
  start_errors();
  free_active();
  buffered();

  MPI_Type_free(&every_other);
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) printf(all ? "%d failures\n" : "done\n", all);
  MPI_Finalize();
  return all != 0;
}
