/* tests/exec/capi_fortran.c: handles and statuses in their Fortran form
 * (MPI-3.1 §17.2.4-5) and the error classes every MPI-3.1 program may name
 * (§8.4). A handle converted to MPI_Fint and back is the same handle and
 * still works; a status survives MPI_Status_c2f/f2c; MPI_STATUS_IGNORE is
 * refused with MPI_ERR_ARG; every class up to MPI_ERR_LASTCODE has its
 * own name in MPI_Error_string. Prints "done" on rank 0 when every check
 * passed. */
#include <mpi.h>
#include <string.h>

#include "check.h"

static void handles(void) {
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Fint fc = MPI_Comm_c2f(dup);
  MPI_Comm back = MPI_Comm_f2c(fc);
  CHECK(back == dup, "MPI_Comm_f2c(MPI_Comm_c2f(dup)) is dup");
  int sum = 0, one = 1;
  MPI_Allreduce(&one, &sum, 1, MPI_Type_f2c(MPI_Type_c2f(MPI_INT)), MPI_Op_f2c(MPI_Op_c2f(MPI_SUM)), back);
  CHECK(sum == n, "an allreduce through converted handles gives %d, wanted %d", sum, n);
  MPI_Comm_free(&back);
  CHECK(MPI_Comm_c2f(MPI_COMM_NULL) == MPI_Comm_c2f(MPI_COMM_NULL), "MPI_COMM_NULL converts");
  CHECK(MPI_Group_f2c(MPI_Group_c2f(MPI_GROUP_EMPTY)) == MPI_GROUP_EMPTY, "MPI_GROUP_EMPTY round trip");
  CHECK(MPI_Info_f2c(MPI_Info_c2f(MPI_INFO_NULL)) == MPI_INFO_NULL, "MPI_INFO_NULL round trip");
  CHECK(MPI_Errhandler_f2c(MPI_Errhandler_c2f(MPI_ERRORS_RETURN)) == MPI_ERRORS_RETURN,
        "MPI_ERRORS_RETURN round trip");
  CHECK(MPI_Request_f2c(MPI_Request_c2f(MPI_REQUEST_NULL)) == MPI_REQUEST_NULL, "MPI_REQUEST_NULL round trip");
  CHECK(MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NULL)) == MPI_MESSAGE_NULL, "MPI_MESSAGE_NULL round trip");
  CHECK(MPI_Win_f2c(MPI_Win_c2f(MPI_WIN_NULL)) == MPI_WIN_NULL, "MPI_WIN_NULL round trip");
}

static void statuses(void) {
  int to = (me + 1) % n, from = (me + n - 1) % n, out = me, in = -1;
  MPI_Status st, again;
  MPI_Sendrecv(&out, 1, MPI_INT, to, 7, &in, 1, MPI_INT, from, 7, MPI_COMM_WORLD, &st);
  MPI_Fint f[MPI_F_STATUS_SIZE];
  CHECK(MPI_Status_c2f(&st, f) == MPI_SUCCESS, "MPI_Status_c2f");
  memset(&again, 0, sizeof again);
  CHECK(MPI_Status_f2c(f, &again) == MPI_SUCCESS, "MPI_Status_f2c");
  int count = -1;
  MPI_Get_count(&again, MPI_INT, &count);
  CHECK(again.MPI_SOURCE == from && again.MPI_TAG == 7 && count == 1,
        "the status after c2f/f2c: source %d tag %d count %d, wanted %d 7 1", again.MPI_SOURCE, again.MPI_TAG,
        count, from);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rc = MPI_Status_c2f(MPI_STATUS_IGNORE, f), cls = -1;
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_ARG, "MPI_Status_c2f(MPI_STATUS_IGNORE) gives class %d, wanted MPI_ERR_ARG", cls);
  rc = MPI_Status_f2c(MPI_F_STATUS_IGNORE, &again);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_ARG, "MPI_Status_f2c(MPI_F_STATUS_IGNORE) gives class %d, wanted MPI_ERR_ARG", cls);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void classes(void) {
  static const struct { int cls; const char *name; } named[] = {
      {MPI_ERR_ACCESS, "MPI_ERR_ACCESS"}, {MPI_ERR_FILE, "MPI_ERR_FILE"},
      {MPI_ERR_NOT_SAME, "MPI_ERR_NOT_SAME"}, {MPI_ERR_RMA_SHARED, "MPI_ERR_RMA_SHARED"},
      {MPI_ERR_SPAWN, "MPI_ERR_SPAWN"}, {MPI_ERR_UNSUPPORTED_OPERATION, "MPI_ERR_UNSUPPORTED_OPERATION"},
  };
  char text[MPI_MAX_ERROR_STRING];
  int len;
  for (unsigned i = 0; i < sizeof named / sizeof named[0]; i++) {
    MPI_Error_string(named[i].cls, text, &len);
    CHECK(strncmp(text, named[i].name, strlen(named[i].name)) == 0, "MPI_Error_string(%d) is '%s', wanted %s...",
          named[i].cls, text, named[i].name);
  }
  for (int c = 1; c < MPI_ERR_LASTCODE; c++) {
    int cls = -1;
    CHECK(MPI_Error_class(c, &cls) == MPI_SUCCESS && cls == c, "MPI_Error_class(%d) is %d", c, cls);
    MPI_Error_string(c, text, &len);
    CHECK(strncmp(text, "MPI_ERR_", 8) == 0 || strncmp(text, "LUMPI_ERR_", 10) == 0,
          "class %d has no name: '%s'", c, text);
  }
  int last = 0, flag = 0, *attr = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &attr, &flag);
  if (flag) last = *attr;
  CHECK(flag && last >= MPI_ERR_LASTCODE, "MPI_LASTUSEDCODE %d below MPI_ERR_LASTCODE %d", last, MPI_ERR_LASTCODE);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  handles();
  statuses();
  classes();
  CHECK(MPI_Pcontrol(1) == MPI_SUCCESS, "MPI_Pcontrol");
  int bad = 0;
  MPI_Allreduce(&failures, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0 && bad == 0) printf("done\n");
  MPI_Finalize();
  return bad != 0;
}
