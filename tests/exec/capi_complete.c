/* tests/exec/capi_complete.c: errors of operations met while completing
 * requests (MPI-3.1 §3.7.3, §3.7.5, §8.3). Each rank receives its own
 * messages with too small a buffer (MPI_ERR_TRUNCATE) on a duplicate of
 * MPI_COMM_WORLD that has a counting handler, while MPI_COMM_WORLD keeps
 * MPI_ERRORS_ARE_FATAL: an error sent to the wrong handler ends the run.
 * Checked: MPI_Waitall, MPI_Testall, MPI_Waitsome and MPI_Testsome return
 * MPI_ERR_IN_STATUS with each status's MPI_ERROR (MPI_ERR_PENDING for what
 * MPI_Testall left), or the operation's own class without statuses;
 * MPI_Wait, MPI_Test, MPI_Waitany and MPI_Testany return it with index
 * set; a failed request is freed (a persistent one is inactive and starts
 * again); the handler runs once per failing call; a bad handle among the
 * requests is MPI_ERR_REQUEST before any request completes. */
#include <mpi.h>

#include "check.h"

static int calls = 0, last = MPI_SUCCESS;

static void counting(MPI_Comm* comm, int* code, ...) {
  (void)comm;
  calls++;
  last = *code;
}

static int class_of(int code) {
  int c = MPI_SUCCESS;
  MPI_Error_class(code, &c);
  return c;
}

/* A receive of one int on c from this rank, matched by a message of n ints. */
static MPI_Request recv_of(MPI_Comm c, int* buf, int tag, int n) {
  int out[2] = {7, 8};
  MPI_Request r;
  MPI_Irecv(buf, 1, MPI_INT, me, tag, c, &r);
  if (n > 0) MPI_Send(out, n, MPI_INT, me, tag, c);
  return r;
}

static void waitall(MPI_Comm c) {
  int a = 0, b = 0, before = calls;
  MPI_Request r[3];
  MPI_Status st[3];
  r[0] = recv_of(c, &a, 1, 2);
  r[1] = recv_of(c, &b, 2, 1);
  r[2] = MPI_REQUEST_NULL;
  int rc = MPI_Waitall(3, r, st);
  CHECK(rc == MPI_ERR_IN_STATUS, "Waitall: rc %d, not MPI_ERR_IN_STATUS", rc);
  CHECK(calls == before + 1 && last == MPI_ERR_IN_STATUS, "Waitall: the comm's handler ran %d times", calls - before);
  CHECK(class_of(st[0].MPI_ERROR) == MPI_ERR_TRUNCATE, "Waitall: status 0 error %d", st[0].MPI_ERROR);
  CHECK(st[1].MPI_ERROR == MPI_SUCCESS && b == 7, "Waitall: status 1 error %d, b %d", st[1].MPI_ERROR, b);
  CHECK(st[2].MPI_ERROR == MPI_SUCCESS, "Waitall: a null request's status has error %d", st[2].MPI_ERROR);
  CHECK(r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL, "Waitall: the requests are not freed");

  r[0] = recv_of(c, &a, 3, 2);
  rc = MPI_Waitall(1, r, MPI_STATUSES_IGNORE);
  CHECK(class_of(rc) == MPI_ERR_TRUNCATE, "Waitall without statuses: rc %d, not MPI_ERR_TRUNCATE", rc);
  CHECK(r[0] == MPI_REQUEST_NULL, "Waitall without statuses: the request is not freed");
}

static void wait_test(MPI_Comm c) {
  int a = 0, flag = 0, before = calls;
  MPI_Request r = recv_of(c, &a, 4, 2);
  int rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(class_of(rc) == MPI_ERR_TRUNCATE && calls == before + 1, "Wait: rc %d, handler ran %d times", rc,
        calls - before);
  CHECK(r == MPI_REQUEST_NULL, "Wait: the failed request is not freed");
  rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(rc == MPI_SUCCESS, "Wait again: rc %d (the error is raised once)", rc);

  r = recv_of(c, &a, 5, 2);
  for (int i = 0; i < 100000 && !flag && rc == MPI_SUCCESS; ++i) rc = MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
  CHECK(class_of(rc) == MPI_ERR_TRUNCATE && flag && r == MPI_REQUEST_NULL, "Test: rc %d flag %d", rc, flag);
}

static void any(MPI_Comm c) {
  int a = 0, b = 0, index = -1, flag = 0;
  MPI_Request r[3];
  r[0] = MPI_REQUEST_NULL;
  r[1] = recv_of(c, &a, 6, 2);
  r[2] = recv_of(c, &b, 7, 0); /* never sent until after */
  int rc = MPI_Waitany(3, r, &index, MPI_STATUS_IGNORE);
  CHECK(class_of(rc) == MPI_ERR_TRUNCATE && index == 1, "Waitany: rc %d index %d", rc, index);
  CHECK(r[1] == MPI_REQUEST_NULL && r[2] != MPI_REQUEST_NULL, "Waitany: the wrong request was freed");

  r[1] = recv_of(c, &a, 8, 2);
  rc = MPI_SUCCESS;
  for (int i = 0; i < 100000 && !flag && rc == MPI_SUCCESS; ++i) rc = MPI_Testany(3, r, &index, &flag, MPI_STATUS_IGNORE);
  CHECK(class_of(rc) == MPI_ERR_TRUNCATE && flag && index == 1, "Testany: rc %d flag %d index %d", rc, flag, index);
  CHECK(r[1] == MPI_REQUEST_NULL, "Testany: the failed request is not freed");

  int one = 9;
  MPI_Send(&one, 1, MPI_INT, me, 7, c);
  rc = MPI_Wait(&r[2], MPI_STATUS_IGNORE);
  CHECK(rc == MPI_SUCCESS && b == 9, "the pending receive: rc %d b %d", rc, b);
}

/* Waitsome or Testsome (test) until every request is done. */
static void some(MPI_Comm c, int test) {
  const char* name = test ? "Testsome" : "Waitsome";
  int buf[3] = {0, 0, 0}, done = 0, failed = 0, in_status = 0;
  MPI_Request r[3];
  r[0] = recv_of(c, &buf[0], 10, 2);
  r[1] = recv_of(c, &buf[1], 11, 1);
  r[2] = recv_of(c, &buf[2], 12, 2);
  for (int round = 0; round < 100000 && done < 3; ++round) {
    int out = 0, idx[3];
    MPI_Status st[3];
    int rc = test ? MPI_Testsome(3, r, &out, idx, st) : MPI_Waitsome(3, r, &out, idx, st);
    CHECK(out != MPI_UNDEFINED, "%s: MPI_UNDEFINED with requests left", name);
    if (out == MPI_UNDEFINED) break;
    int failed_now = 0;
    for (int k = 0; k < out; ++k) {
      int want = idx[k] == 1 ? MPI_SUCCESS : MPI_ERR_TRUNCATE;
      CHECK(class_of(st[k].MPI_ERROR) == want, "%s: request %d has error %d", name, idx[k], st[k].MPI_ERROR);
      CHECK(r[idx[k]] == MPI_REQUEST_NULL, "%s: request %d is not freed", name, idx[k]);
      failed_now += st[k].MPI_ERROR != MPI_SUCCESS;
    }
    CHECK(rc == (failed_now ? MPI_ERR_IN_STATUS : MPI_SUCCESS), "%s: rc %d with %d failed", name, rc, failed_now);
    in_status += rc == MPI_ERR_IN_STATUS;
    failed += failed_now;
    done += out;
  }
  CHECK(done == 3 && failed == 2 && in_status >= 1, "%s: done %d failed %d in_status %d", name, done, failed,
        in_status);
  CHECK(buf[1] == 7, "%s: the good receive got %d", name, buf[1]);
}

static void testall(MPI_Comm c) {
  int a = 0, b = 0, flag = 1, rc = MPI_SUCCESS;
  MPI_Request r[2];
  MPI_Status st[2];
  r[0] = recv_of(c, &a, 13, 2);
  r[1] = recv_of(c, &b, 14, 0);
  for (int i = 0; i < 100000 && rc == MPI_SUCCESS; ++i) rc = MPI_Testall(2, r, &flag, st);
  CHECK(rc == MPI_ERR_IN_STATUS && !flag, "Testall: rc %d flag %d", rc, flag);
  CHECK(class_of(st[0].MPI_ERROR) == MPI_ERR_TRUNCATE, "Testall: status 0 error %d", st[0].MPI_ERROR);
  CHECK(st[1].MPI_ERROR == MPI_ERR_PENDING, "Testall: status 1 error %d, not MPI_ERR_PENDING", st[1].MPI_ERROR);
  CHECK(r[0] == MPI_REQUEST_NULL && r[1] != MPI_REQUEST_NULL, "Testall: the wrong request was freed");
  int one = 5;
  MPI_Send(&one, 1, MPI_INT, me, 14, c);
  rc = MPI_Wait(&r[1], MPI_STATUS_IGNORE);
  CHECK(rc == MPI_SUCCESS && b == 5, "Testall: the pending receive: rc %d b %d", rc, b);
}

static void persistent(MPI_Comm c) {
  int a = 0, two[2] = {1, 2}, one = 3;
  MPI_Request r;
  MPI_Recv_init(&a, 1, MPI_INT, me, 15, c, &r);
  MPI_Start(&r);
  MPI_Send(two, 2, MPI_INT, me, 15, c);
  int rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(class_of(rc) == MPI_ERR_TRUNCATE && r != MPI_REQUEST_NULL, "persistent: rc %d", rc);
  rc = MPI_Start(&r);
  CHECK(rc == MPI_SUCCESS, "persistent: it does not start again after the error (rc %d)", rc);
  MPI_Send(&one, 1, MPI_INT, me, 15, c);
  rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(rc == MPI_SUCCESS && a == 3, "persistent: the second start: rc %d a %d", rc, a);
  MPI_Request_free(&r);
}

/* A bad handle is found before any request completes, under MPI_COMM_WORLD's handler. */
static void bad_handle(MPI_Comm c) {
  int a = 0, one = 4;
  MPI_Request r[2];
  r[0] = recv_of(c, &a, 16, 0);
  MPI_Send(&one, 1, MPI_INT, me, 16, c);
  r[1] = (MPI_Request)12345;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int before = calls;
  int rc = MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  CHECK(class_of(rc) == MPI_ERR_REQUEST && calls == before, "bad handle: rc %d, comm handler ran %d times", rc,
        calls - before);
  CHECK(r[0] != MPI_REQUEST_NULL && a == 0, "bad handle: a request completed before the check");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  CHECK(a == 4, "bad handle: the good receive got %d", a);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Comm c;
  MPI_Errhandler h;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  MPI_Comm_create_errhandler(counting, &h);
  MPI_Comm_set_errhandler(c, h);
  MPI_Errhandler_free(&h);

  waitall(c);
  wait_test(c);
  any(c);
  some(c, 0);
  some(c, 1);
  testall(c);
  persistent(c);
  bad_handle(c);

  MPI_Comm_free(&c);
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) printf(all ? "%d failures\n" : "done\n", all);
  MPI_Finalize();
  return all != 0;
}
