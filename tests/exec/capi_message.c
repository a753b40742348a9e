/* tests/exec/capi_message.c: matched probe and receive (MPI-3.1 §3.8.2-3):
 * MPI_Mprobe/MPI_Improbe take the message out of the queue (a later
 * MPI_Iprobe does not see it), MPI_Get_count sizes the buffer, MPI_Mrecv
 * and MPI_Imrecv receive it (into a vector type too), a synchronous send
 * completes once its message is matched by a probe, and MPI_PROC_NULL gives
 * MPI_MESSAGE_NO_PROC; and generalized requests (§12.2) with
 * MPI_Request_get_status and the status setters. Prints "FAIL ..." per failed check and "done" on
 * rank 0 (tests/integration/test_capi_nbc.py). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "check.h"

/* A generalized request's callbacks: query sets the status, free and
 * cancel count their calls in the extra state. */
static int g_query(void *extra, MPI_Status *st) {
  (void)extra;
  st->MPI_SOURCE = 42, st->MPI_TAG = 7, st->MPI_ERROR = MPI_SUCCESS;
  MPI_Status_set_elements(st, MPI_INT, 3);
  MPI_Status_set_cancelled(st, 0);
  return MPI_SUCCESS;
}
static int g_free(void *extra) { return ((int *)extra)[0]++, MPI_SUCCESS; }
static int g_cancel(void *extra, int complete) { return ((int *)extra)[1] += 1 + complete, MPI_SUCCESS; }

static void grequest(void) {
  int calls[2] = {0, 0}, flag = -1, count = -1;
  MPI_Request r;
  MPI_Status st;
  MPI_Grequest_start(g_query, g_free, g_cancel, calls, &r);
  MPI_Request_get_status(r, &flag, &st);
  CHECK(flag == 0, "an incomplete generalized request tested complete");
  MPI_Cancel(&r);
  MPI_Grequest_complete(r);
  MPI_Request_get_status(r, &flag, &st);
  CHECK(flag == 1 && st.MPI_SOURCE == 42 && r != MPI_REQUEST_NULL, "get_status: flag %d source %d", flag,
        st.MPI_SOURCE);
  MPI_Wait(&r, &st);
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(r == MPI_REQUEST_NULL && st.MPI_TAG == 7 && count == 3, "wait: tag %d count %d", st.MPI_TAG, count);
  CHECK(calls[0] == 1 && calls[1] == 1, "free ran %d times, cancel saw %d", calls[0], calls[1]);
  /* freed before it completes: its free function runs, and its handle is free for others */
  MPI_Grequest_start(g_query, g_free, g_cancel, calls, &r);
  MPI_Request_free(&r);
  CHECK(r == MPI_REQUEST_NULL && calls[0] == 2, "MPI_Request_free: free ran %d times", calls[0]);
  MPI_Irecv(&count, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, &st);
  CHECK(st.MPI_SOURCE == MPI_PROC_NULL && calls[0] == 2, "a reused handle ran the old query: source %d",
        st.MPI_SOURCE);
}

int main(int argc, char **argv) {
  int next, prev, i, count = -1, flag = 0, data[6], got[12];
  MPI_Message msg;
  MPI_Status st;
  MPI_Request r;
  MPI_Datatype every_other;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  next = (me + 1) % n, prev = (me + n - 1) % n;
  for (i = 0; i < 6; i++) data[i] = 10 * me + i;

  /* a message of unknown length: probe, size, receive */
  MPI_Isend(data, 1 + me % 6, MPI_INT, next, 3, MPI_COMM_WORLD, &r);
  st.MPI_ERROR = -7; /* §3.2.5: a call that returns one status leaves its MPI_ERROR alone */
  MPI_Mprobe(MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &msg, &st);
  CHECK(st.MPI_ERROR == -7, "MPI_Mprobe wrote MPI_ERROR %d", st.MPI_ERROR);
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(st.MPI_SOURCE == prev && count == 1 + prev % 6, "mprobe: source %d count %d", st.MPI_SOURCE, count);
  MPI_Iprobe(MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  CHECK(!flag, "a matched message is still visible to MPI_Iprobe");
  MPI_Mrecv(got, count, MPI_INT, &msg, &st);
  CHECK(msg == MPI_MESSAGE_NULL, "MPI_Mrecv left the handle %d", msg);
  CHECK(st.MPI_ERROR == -7, "MPI_Mrecv wrote MPI_ERROR %d", st.MPI_ERROR);
  for (i = 0; i < count; i++) CHECK(got[i] == 10 * prev + i, "mrecv got[%d] = %d", i, got[i]);
  MPI_Wait(&r, MPI_STATUS_IGNORE);

  /* a synchronous send completes once a matched probe takes its message;
   * MPI_Improbe until it is there, then MPI_Imrecv into every other int */
  MPI_Issend(data, 6, MPI_INT, next, 4, MPI_COMM_WORLD, &r);
  do MPI_Improbe(prev, 4, MPI_COMM_WORLD, &flag, &msg, &st);
  while (!flag);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Type_vector(6, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  for (i = 0; i < 12; i++) got[i] = -1;
  MPI_Imrecv(got, 1, every_other, &msg, &r);
  st.MPI_ERROR = -7;
  MPI_Wait(&r, &st);
  CHECK(st.MPI_ERROR == -7, "MPI_Wait wrote MPI_ERROR %d", st.MPI_ERROR);
  for (i = 0; i < 12; i++)
    CHECK(got[i] == (i % 2 ? -1 : 10 * prev + i / 2), "imrecv into a vector: got[%d] = %d", i, got[i]);
  MPI_Type_free(&every_other);

  /* MPI_PROC_NULL */
  MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, &st);
  CHECK(msg == MPI_MESSAGE_NO_PROC && st.MPI_SOURCE == MPI_PROC_NULL, "mprobe of PROC_NULL: %d", msg);
  MPI_Mrecv(got, 1, MPI_INT, &msg, &st);
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(st.MPI_SOURCE == MPI_PROC_NULL && count == 0 && msg == MPI_MESSAGE_NULL, "mrecv of NO_PROC");

  /* a receive too short for the message: MPI_ERR_TRUNCATE */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Send(data, 4, MPI_INT, next, 5, MPI_COMM_WORLD);
  MPI_Mprobe(prev, 5, MPI_COMM_WORLD, &msg, &st);
  {
    int rc, cls = -1;
    st.MPI_ERROR = -7;
    rc = MPI_Mrecv(got, 2, MPI_INT, &msg, &st);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TRUNCATE, "a short MPI_Mrecv gave class %d", cls);
    CHECK(st.MPI_ERROR == -7, "a failing MPI_Mrecv wrote MPI_ERROR %d", st.MPI_ERROR);
    /* the same words as any receive's truncation (one rule, core::copy_out) */
    {
      char text[MPI_MAX_ERROR_STRING];
      int len = 0;
      MPI_Error_string(rc, text, &len);
      CHECK(strstr(text, "MPI_Mrecv") && strstr(text, "the message has 16 bytes, the receive buffer room for 8"),
            "a short MPI_Mrecv says '%s'", text);
    }
  }

  grequest();
  MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0 && failures == 0) printf("done\n");
  MPI_Finalize();
  return failures != 0;
}
