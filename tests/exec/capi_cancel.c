/* tests/exec/capi_cancel.c: MPI_Cancel of sends (MPI-3.1 §3.8.4). Each rank
 * sends to the next one around MPI_COMM_WORLD (to itself at one rank).
 * A send no receive has matched yet is cancelled, in every form (MPI_Isend,
 * MPI_Issend, MPI_Ibsend, MPI_Irsend, a started MPI_Send_init): MPI_Wait
 * returns although the receiver never receives, MPI_Test_cancelled says
 * so, and the message is never delivered (a probe after a barrier finds
 * nothing, and the next message comes as usual). A send whose message was
 * already received (standard and synchronous) is not: the communication
 * succeeded, so the cancel fails. Prints "done" when every check passed
 * (test_capi_nbc.py, at 1 to 7 ranks). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static int next, prev;

static int cancelled(MPI_Request *r) {
  MPI_Status st;
  int flag = -1;
  MPI_Cancel(r);
  MPI_Wait(r, &st);
  MPI_Test_cancelled(&st, &flag);
  return flag;
}

static void unmatched(void) {
  int x = me, flag = 1;
  char buffer[4 * (sizeof(int) + MPI_BSEND_OVERHEAD)];
  void *detached;
  int size;
  MPI_Request r;
  MPI_Buffer_attach(buffer, sizeof buffer);
  MPI_Isend(&x, 1, MPI_INT, next, 1, MPI_COMM_WORLD, &r);
  CHECK(cancelled(&r) == 1, "an unmatched MPI_Isend is not cancelled");
  MPI_Issend(&x, 1, MPI_INT, next, 2, MPI_COMM_WORLD, &r);
  CHECK(cancelled(&r) == 1, "an unmatched MPI_Issend is not cancelled");
  MPI_Ibsend(&x, 1, MPI_INT, next, 3, MPI_COMM_WORLD, &r);
  CHECK(cancelled(&r) == 1, "an unmatched MPI_Ibsend is not cancelled");
  MPI_Irsend(&x, 1, MPI_INT, next, 4, MPI_COMM_WORLD, &r);
  CHECK(cancelled(&r) == 1, "an unmatched MPI_Irsend is not cancelled");
  MPI_Send_init(&x, 1, MPI_INT, next, 5, MPI_COMM_WORLD, &r);
  MPI_Start(&r);
  CHECK(cancelled(&r) == 1, "an unmatched started MPI_Send_init is not cancelled");
  MPI_Request_free(&r);
  MPI_Buffer_detach(&detached, &size);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int tag = 1; tag <= 5; tag++) {
    MPI_Iprobe(prev, tag, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    CHECK(!flag, "the cancelled message with tag %d was delivered", tag);
  }
  MPI_Sendrecv(&x, 1, MPI_INT, next, 6, &flag, 1, MPI_INT, prev, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK(flag == prev, "the message after the cancelled ones brought %d", flag);
}

static void matched(int synchronous) {
  int x = me, y = -1;
  MPI_Request r[2];
  MPI_Irecv(&y, 1, MPI_INT, prev, 7, MPI_COMM_WORLD, &r[0]);
  if (synchronous) MPI_Issend(&x, 1, MPI_INT, next, 7, MPI_COMM_WORLD, &r[1]);
  else MPI_Isend(&x, 1, MPI_INT, next, 7, MPI_COMM_WORLD, &r[1]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);  /* every message is received */
  CHECK(cancelled(&r[1]) == 0, "a received %s was cancelled", synchronous ? "MPI_Issend" : "MPI_Isend");
  CHECK(y == prev, "the received message brought %d", y);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  next = (me + 1) % n;
  prev = (me + n - 1) % n;
  unmatched();
  matched(0);
  matched(1);
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0 && all == 0) printf("done\n");
  MPI_Finalize();
  return all != 0;
}
