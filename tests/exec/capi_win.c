/* tests/exec/capi_win.c: the C API's windows (MPI-3.1 chapter 11) from a
 * user's side: fence epochs with MPI_Put/MPI_Get/MPI_Accumulate, passive
 * target lock/unlock/flush, MPI_PROC_NULL, the predefined attributes, a
 * window keyval's delete callback at MPI_Win_free, names, errors
 * returned under MPI_ERRORS_RETURN, and user-defined window error handlers
 * (MPI-3.1 §8.3.2 MPI_Win_create_errhandler, §8.3.6 MPI_Win_call_errhandler).
 * Prints "capi_win ok" on rank 0 and
 * exits 0 when every check holds (driven by tests/integration/test_capi_win.py). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int errs = 0;
static int deleted = 0;
#define CHECK(c, what) do { if (!(c)) { errs++; fprintf(stderr, "FAIL %s\n", what); } } while (0)

static int on_delete(MPI_Win w, int k, void *v, void *extra) {
  (void)w; (void)k; (void)extra;
  deleted += *(int *)v;
  return MPI_SUCCESS;
}

/* A delete callback that returns `refusal` (MPI_SUCCESS or a failure). */
static int refusal = MPI_SUCCESS;
static int refuse_delete(MPI_Win w, int k, void *v, void *extra) {
  (void)w; (void)k; (void)v; (void)extra;
  return refusal;
}

static int win_calls = 0, win_code = 0;
static MPI_Win win_seen = MPI_WIN_NULL;
static void on_win_error(MPI_Win *w, int *code, ...) {
  win_calls++;
  win_code = *code;
  win_seen = *w;
}
static void on_comm_error(MPI_Comm *c, int *code, ...) { (void)c; (void)code; }

/* §8.3.2: a window's user handler is called with the window and the code,
 * and the call then returns the code; a handler made for a communicator
 * cannot be set on a window nor the other way round (MPI_ERR_ARG, as MPICH
 * and Open MPI); §8.3.6 MPI_Win_call_errhandler. */
static void user_handlers(int rank, int size) {
  int cell = 0, rc, cls;
  MPI_Win w;
  MPI_Errhandler weh, ceh, got, kept;
  MPI_Win_create(&cell, sizeof cell, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  CHECK(MPI_Win_create_errhandler(on_win_error, &weh) == MPI_SUCCESS, "MPI_Win_create_errhandler");
  CHECK(MPI_Comm_create_errhandler(on_comm_error, &ceh) == MPI_SUCCESS, "MPI_Comm_create_errhandler");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
  rc = MPI_Win_set_errhandler(w, ceh);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_ARG, "a communicator's handler on a window: MPI_ERR_ARG");
  rc = MPI_Comm_set_errhandler(MPI_COMM_WORLD, weh);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_ARG, "a window's handler on a communicator: MPI_ERR_ARG");
  CHECK(MPI_Win_set_errhandler(w, weh) == MPI_SUCCESS, "MPI_Win_set_errhandler(user)");
  CHECK(MPI_Win_get_errhandler(w, &got) == MPI_SUCCESS && got == weh, "MPI_Win_get_errhandler gives it back");
  MPI_Errhandler_free(&got);
  rc = MPI_Win_unlock(0, w);
  CHECK(rc == MPI_ERR_RMA_SYNC && win_calls == 1 && win_code == MPI_ERR_RMA_SYNC && win_seen == w,
        "a failing call runs the handler with the window and the code, then returns it");
  MPI_Win_fence(0, w);
  rc = MPI_Put(&cell, 1, MPI_INT, (rank + 1) % size, 1, 1, MPI_INT, w);
  CHECK(rc == MPI_ERR_RMA_RANGE && win_calls == 2 && win_code == MPI_ERR_RMA_RANGE,
        "a put outside the window: the handler, MPI_ERR_RMA_RANGE");
  MPI_Win_fence(0, w);
  CHECK(cell == 0, "nothing of the refused put arrived");
  CHECK(MPI_Win_call_errhandler(w, MPI_ERR_OTHER) == MPI_SUCCESS && win_calls == 3 && win_code == MPI_ERR_OTHER,
        "MPI_Win_call_errhandler calls the user handler and returns MPI_SUCCESS");
  rc = MPI_Win_call_errhandler(w, -7);
  CHECK(rc == MPI_ERR_ARG && win_calls == 4 && win_code == MPI_ERR_ARG, "a code that is no error code: MPI_ERR_ARG");
  rc = MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER);
  CHECK(rc == MPI_SUCCESS && win_calls == 4, "the communicator's errors do not reach the window's handler");
  kept = weh;
  MPI_Errhandler_free(&weh);
  CHECK(weh == MPI_ERRHANDLER_NULL, "MPI_Errhandler_free sets the handle to null");
  rc = MPI_Win_unlock(0, w);
  CHECK(win_calls == 5, "the window keeps a freed handler it uses");
  MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
  rc = MPI_Win_set_errhandler(w, kept);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_ARG, "a freed handler cannot be set");
  /* §8.3.6: MPI_SUCCESS "if the error handler was successfully called",
   * MPI_ERRORS_RETURN included (as MPICH and Open MPI; mpi4py's test). */
  CHECK(MPI_Win_call_errhandler(w, MPI_ERR_OTHER) == MPI_SUCCESS,
        "under MPI_ERRORS_RETURN call_errhandler returns MPI_SUCCESS");
  MPI_Errhandler_free(&ceh);
  MPI_Win_free(&w);
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  /* fence: every rank puts its rank into slot `rank` of rank 0's window */
  int mem[64];
  memset(mem, 0, sizeof mem);
  MPI_Win win;
  CHECK(MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win) == MPI_SUCCESS, "create");
  MPI_Win_fence(0, win);
  int me = 100 + rank;
  MPI_Put(&me, 1, MPI_INT, 0, rank, 1, MPI_INT, win);
  int one = 1;
  MPI_Accumulate(&one, 1, MPI_INT, 0, 63, 1, MPI_INT, MPI_SUM, win);
  MPI_Put(&me, 1, MPI_INT, MPI_PROC_NULL, 1000, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  if (rank == 0) {
    for (int r = 0; r < size; ++r) CHECK(mem[r] == 100 + r, "fence put");
    CHECK(mem[63] == size, "accumulate sum");
  }
  int got = -1;
  MPI_Get(&got, 1, MPI_INT, 0, 63, 1, MPI_INT, win);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  CHECK(got == size, "get");

  /* passive target: increments under an exclusive lock */
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
  int cur = 0;
  MPI_Get(&cur, 1, MPI_INT, 0, 62, 1, MPI_INT, win);
  MPI_Win_flush(0, win);
  cur += 1;
  MPI_Put(&cur, 1, MPI_INT, 0, 62, 1, MPI_INT, win);
  MPI_Win_unlock(0, win);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) CHECK(mem[62] == size, "locked increments");

  /* attributes and names */
  void *base;
  MPI_Aint *wsize;
  int *unit, *flavor, *model, flag;
  MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag);
  CHECK(flag && base == mem, "WIN_BASE");
  MPI_Win_get_attr(win, MPI_WIN_SIZE, &wsize, &flag);
  CHECK(flag && *wsize == (MPI_Aint)sizeof mem, "WIN_SIZE");
  MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &unit, &flag);
  CHECK(flag && *unit == (int)sizeof(int), "WIN_DISP_UNIT");
  MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
  CHECK(flag && *flavor == MPI_WIN_FLAVOR_CREATE, "WIN_CREATE_FLAVOR");
  MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag);
  CHECK(flag && *model == MPI_WIN_UNIFIED, "WIN_MODEL");
  MPI_Win_set_name(win, "counters");
  char name[MPI_MAX_OBJECT_NAME];
  int len;
  MPI_Win_get_name(win, name, &len);
  CHECK(strcmp(name, "counters") == 0 && len == 8, "name");
  MPI_Group g;
  MPI_Win_get_group(win, &g);
  int gsize;
  MPI_Group_size(g, &gsize);
  CHECK(gsize == size, "group");
  MPI_Group_free(&g);

  int kv, value = 5;
  MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, on_delete, &kv, NULL);
  MPI_Win_set_attr(win, kv, &value);
  void *v;
  MPI_Win_get_attr(win, kv, &v, &flag);
  CHECK(flag && v == &value, "user attribute");

  /* errors, returned */
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  int cls, rc = MPI_Win_unlock(0, win);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_RMA_SYNC, "unlock without lock: MPI_ERR_RMA_SYNC");
  MPI_Win_fence(0, win);
  rc = MPI_Put(&me, 1, MPI_INT, 0, 64, 1, MPI_INT, win);
  CHECK(rc == MPI_ERR_RMA_RANGE, "put past the end: MPI_ERR_RMA_RANGE");
  rc = MPI_Put(&me, 1, MPI_INT, size, 0, 1, MPI_INT, win);
  CHECK(rc == MPI_ERR_RANK, "bad rank: MPI_ERR_RANK");
  rc = MPI_Win_lock(7, 0, 0, win);
  CHECK(rc == MPI_ERR_LOCKTYPE, "bad lock type: MPI_ERR_LOCKTYPE");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  rc = MPI_Comm_set_attr(MPI_COMM_WORLD, kv, &value);
  CHECK(rc == MPI_ERR_KEYVAL, "a window keyval on a communicator: MPI_ERR_KEYVAL");
  /* A failing delete callback's code is what the call returns: an added code
     stays itself, as for communicators and types (MPI-3.1 §6.7.2, §8.5). */
  int added_class, added_code, kv_refuse;
  MPI_Add_error_class(&added_class);
  MPI_Add_error_code(added_class, &added_code);
  MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, refuse_delete, &kv_refuse, NULL);
  MPI_Win_set_attr(win, kv_refuse, &value);
  refusal = added_code;
  rc = MPI_Win_delete_attr(win, kv_refuse);
  MPI_Error_class(rc, &cls);
  CHECK(rc == added_code && cls == added_class, "a delete callback's added code is returned as itself");
  refusal = MPI_SUCCESS;
  MPI_Win_set_attr(win, kv_refuse, &value);  /* replaces it, whether kept or not */
  refusal = 12345;
  rc = MPI_Win_delete_attr(win, kv_refuse);
  CHECK(rc == MPI_ERR_OTHER, "a delete callback's return that is no error code: MPI_ERR_OTHER");
  refusal = MPI_SUCCESS;
  MPI_Win_delete_attr(win, kv_refuse);
  MPI_Win_free_keyval(&kv_refuse);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);

  CHECK(MPI_Win_free(&win) == MPI_SUCCESS && win == MPI_WIN_NULL, "free");
  CHECK(deleted == 5, "the delete callback ran at MPI_Win_free");
  MPI_Win_free_keyval(&kv);
  CHECK(kv == MPI_KEYVAL_INVALID, "free_keyval");

  /* allocate */
  double *buf;
  MPI_Win w2;
  MPI_Win_allocate(4 * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &buf, &w2);
  MPI_Win_fence(0, w2);
  double x = 2.5;
  MPI_Accumulate(&x, 1, MPI_DOUBLE, (rank + 1) % size, 3, 1, MPI_DOUBLE, MPI_REPLACE, w2);
  MPI_Win_fence(0, w2);
  CHECK(buf[3] == 2.5, "allocate + accumulate REPLACE");
  MPI_Win_free(&w2);

  user_handlers(rank, size);

  if (rank == 0 && errs == 0) printf("capi_win ok\n");
  MPI_Finalize();
  return errs ? 1 : 0;
}
