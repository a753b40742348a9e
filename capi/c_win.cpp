// capi/c_win.cpp: the C API's windows (MPI_Win_*; MPI-3.1 chapter 11,
// attributes §6.7.3, names §6.8): creation, free, every synchronization,
// info, queries, error handlers and attributes, a thin shell over
// lumpi::Win (core/api/api_win.cpp). The operations are c_win_ops.cpp's
// (over core::Win, for any datatype). Window handles are
// ints into a table of their own; each window's error handler is the core
// window's (MPI_ERRORS_ARE_FATAL until set, as MPI says for windows; or one
// made by MPI_Win_create_errhandler, c_errh.cpp), which handles every
// error of a call on it.

#include "core/rma/win.hpp"
#include "capi/c_api.hpp"

using namespace lumpi;
using namespace lumpi::capi;

namespace {

struct WinEntry {
  Win w;
};

std::vector<WinEntry>& wins() {
  static std::vector<WinEntry>* t = new std::vector<WinEntry>(1);  // slot 0: MPI_WIN_NULL
  return *t;
}

WinEntry& entry_of(MPI_Win win, const char* func) {
  auto& t = wins();
  if (win == MPI_WIN_NULL) fail(MPI_ERR_WIN, func, "win is MPI_WIN_NULL");
  if (win < 0 || size_t(win) >= t.size() || t[size_t(win)].w.Is_null())
    fail(MPI_ERR_WIN, func, "win " + std::to_string(win) + " is not a window");
  return t[size_t(win)];
}

MPI_Win add_win(Win w) {
  w.Handle()->win->set_errhandler(core::Errhandler::Fatal);  // C's default (§8.3)
  MPI_Win id = put_in_free_slot(wins(), 1, WinEntry{std::move(w)}, [](const WinEntry& e) { return e.w.Is_null(); });
  note_created(core::check::Kind::Win, id);
  return id;
}

// The C handle of a C++ window (for callbacks), MPI_WIN_NULL if unknown.
MPI_Win handle_of(const Win& w) {
  auto& t = wins();
  for (size_t i = 1; i < t.size(); ++i)
    if (t[i].w == w) return MPI_Win(i);
  return MPI_WIN_NULL;
}

// The core window of win, null when win is not a window.
core::Win* core_win(MPI_Win win) {
  auto& t = wins();
  return win > 0 && size_t(win) < t.size() && !t[size_t(win)].w.Is_null() ? t[size_t(win)].w.Handle()->win.get()
                                                                           : nullptr;
}

// Runs body(entry) as call_on_win does.
template <class F>
int call_win(MPI_Win win, const char* func, F&& body) {
  return call_on_win(win, func, [&] { body(entry_of(win, func)); });
}

}  // namespace

core::Win& lumpi::capi::win_of(MPI_Win win, const char* func) { return *entry_of(win, func).w.Handle()->win; }

int lumpi::capi::win_failed(MPI_Win win, const core::DeliveredError& e) {
  core::Win* w = core_win(win);
  return w ? deliver(w->errhandler(), win, e) : deliver(MPI_COMM_WORLD, e);
}

extern "C" {

// ---- creation and free --------------------------------------------------------------

LUMPI_PMPI(Win_create);
int MPI_Win_create(void* base, MPI_Aint size, int disp_unit, MPI_Info i, MPI_Comm comm, MPI_Win* win) {
  const char* f = "MPI_Win_create";
  return call(comm, f, [&] {
    check_out(win, f, "win");
    *win = add_win(Win::Create(base, size, disp_unit, info_or_null(i, f), intra(comm, f)));
  });
}

LUMPI_PMPI(Win_allocate);
int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info i, MPI_Comm comm, void* baseptr, MPI_Win* win) {
  const char* f = "MPI_Win_allocate";
  return call(comm, f, [&] {
    check_out(win, f, "win");
    check_out(baseptr, f, "baseptr");
    *win = add_win(Win::Allocate(size, disp_unit, info_or_null(i, f), intra(comm, f), baseptr));
  });
}

LUMPI_PMPI(Win_allocate_shared);
int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info i, MPI_Comm comm, void* baseptr, MPI_Win* win) {
  const char* f = "MPI_Win_allocate_shared";
  return call(comm, f, [&] {
    check_out(win, f, "win");
    check_out(baseptr, f, "baseptr");
    *win = add_win(Win::Allocate_shared(size, disp_unit, info_or_null(i, f), intra(comm, f), baseptr));
  });
}

LUMPI_PMPI(Win_shared_query);
int MPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint* size, int* disp_unit, void* baseptr) {
  const char* f = "MPI_Win_shared_query";
  return call_win(win, f, [&](WinEntry& e) {
    check_out(size, f, "size");
    check_out(disp_unit, f, "disp_unit");
    check_out(baseptr, f, "baseptr");
    long n = 0;
    e.w.Shared_query(rank, n, *disp_unit, baseptr);
    *size = n;
  });
}

LUMPI_PMPI(Win_create_dynamic);
int MPI_Win_create_dynamic(MPI_Info i, MPI_Comm comm, MPI_Win* win) {
  const char* f = "MPI_Win_create_dynamic";
  return call(comm, f, [&] {
    check_out(win, f, "win");
    *win = add_win(Win::Create_dynamic(info_or_null(i, f), intra(comm, f)));
  });
}

LUMPI_PMPI(Win_attach);
int MPI_Win_attach(MPI_Win win, void* base, MPI_Aint size) {
  return call_win(win, "MPI_Win_attach", [&](WinEntry& e) { e.w.Attach(base, size); });
}

LUMPI_PMPI(Win_detach);
int MPI_Win_detach(MPI_Win win, const void* base) {
  return call_win(win, "MPI_Win_detach", [&](WinEntry& e) { e.w.Detach(base); });
}

LUMPI_PMPI(Win_free);
int MPI_Win_free(MPI_Win* win) {
  const char* f = "MPI_Win_free";
  if (!win) return call(f, [&] { check_out(win, f, "win"); });
  MPI_Win w = *win;
  int rc = call_win(w, f, [&](WinEntry& e) {
    Win copy = e.w;  // the callbacks may look the window up by its handle
    copy.Free();
    e.w = Win();
  });
  if (rc == MPI_SUCCESS) {
    note_freed(core::check::Kind::Win, w);
    *win = MPI_WIN_NULL;
  }
  return rc;
}

// ---- synchronization --------------------------------------------------------------------

LUMPI_PMPI(Win_fence);
int MPI_Win_fence(int assert, MPI_Win win) {
  return call_win(win, "MPI_Win_fence", [&](WinEntry& e) { e.w.Fence(assert); });
}
LUMPI_PMPI(Win_lock);
int MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win) {
  return call_win(win, "MPI_Win_lock", [&](WinEntry& e) { e.w.Lock(lock_type, rank, assert); });
}
LUMPI_PMPI(Win_unlock);
int MPI_Win_unlock(int rank, MPI_Win win) {
  return call_win(win, "MPI_Win_unlock", [&](WinEntry& e) { e.w.Unlock(rank); });
}
LUMPI_PMPI(Win_flush);
int MPI_Win_flush(int rank, MPI_Win win) {
  return call_win(win, "MPI_Win_flush", [&](WinEntry& e) { e.w.Flush(rank); });
}
LUMPI_PMPI(Win_lock_all);
int MPI_Win_lock_all(int assert, MPI_Win win) {
  return call_win(win, "MPI_Win_lock_all", [&](WinEntry& e) { e.w.Lock_all(assert); });
}
LUMPI_PMPI(Win_unlock_all);
int MPI_Win_unlock_all(MPI_Win win) {
  return call_win(win, "MPI_Win_unlock_all", [&](WinEntry& e) { e.w.Unlock_all(); });
}
LUMPI_PMPI(Win_flush_all);
int MPI_Win_flush_all(MPI_Win win) {
  return call_win(win, "MPI_Win_flush_all", [&](WinEntry& e) { e.w.Flush_all(); });
}
LUMPI_PMPI(Win_flush_local);
int MPI_Win_flush_local(int rank, MPI_Win win) {
  return call_win(win, "MPI_Win_flush_local", [&](WinEntry& e) { e.w.Flush_local(rank); });
}
LUMPI_PMPI(Win_flush_local_all);
int MPI_Win_flush_local_all(MPI_Win win) {
  return call_win(win, "MPI_Win_flush_local_all", [&](WinEntry& e) { e.w.Flush_local_all(); });
}
LUMPI_PMPI(Win_sync);
int MPI_Win_sync(MPI_Win win) {
  return call_win(win, "MPI_Win_sync", [&](WinEntry& e) { e.w.Sync(); });
}
LUMPI_PMPI(Win_post);
int MPI_Win_post(MPI_Group g, int assert, MPI_Win win) {
  return call_win(win, "MPI_Win_post", [&](WinEntry& e) { e.w.Post(group(g, "MPI_Win_post"), assert); });
}
LUMPI_PMPI(Win_start);
int MPI_Win_start(MPI_Group g, int assert, MPI_Win win) {
  return call_win(win, "MPI_Win_start", [&](WinEntry& e) { e.w.Start(group(g, "MPI_Win_start"), assert); });
}
LUMPI_PMPI(Win_complete);
int MPI_Win_complete(MPI_Win win) {
  return call_win(win, "MPI_Win_complete", [&](WinEntry& e) { e.w.Complete(); });
}
LUMPI_PMPI(Win_wait);
int MPI_Win_wait(MPI_Win win) {
  return call_win(win, "MPI_Win_wait", [&](WinEntry& e) { e.w.Wait(); });
}
LUMPI_PMPI(Win_test);
int MPI_Win_test(MPI_Win win, int* flag) {
  return call_win(win, "MPI_Win_test", [&](WinEntry& e) {
    check_out(flag, "MPI_Win_test", "flag");
    *flag = e.w.Test();
  });
}

// ---- info ----------------------------------------------------------------------------------

LUMPI_PMPI(Win_set_info);
int MPI_Win_set_info(MPI_Win win, MPI_Info i) {
  const char* f = "MPI_Win_set_info";
  return call_win(win, f, [&](WinEntry& e) { e.w.Set_info(info(i, f)); });
}

// info_used is a new info object the program frees.
LUMPI_PMPI(Win_get_info);
int MPI_Win_get_info(MPI_Win win, MPI_Info* info_used) {
  const char* f = "MPI_Win_get_info";
  return call_win(win, f, [&](WinEntry& e) {
    check_out(info_used, f, "info_used");
    *info_used = add_info(e.w.Get_info());
  });
}

// ---- queries, names, error handlers ----------------------------------------------------

LUMPI_PMPI(Win_get_group);
int MPI_Win_get_group(MPI_Win win, MPI_Group* group) {
  return call_win(win, "MPI_Win_get_group", [&](WinEntry& e) {
    check_out(group, "MPI_Win_get_group", "group");
    *group = add_group(e.w.Get_group());
  });
}

LUMPI_PMPI(Win_set_name);
int MPI_Win_set_name(MPI_Win win, const char* name) {
  return call_win(win, "MPI_Win_set_name", [&](WinEntry& e) {
    check_out(name, "MPI_Win_set_name", "win_name");
    e.w.Set_name(name);
  });
}

LUMPI_PMPI(Win_get_name);
int MPI_Win_get_name(MPI_Win win, char* name, int* resultlen) {
  return call_win(win, "MPI_Win_get_name", [&](WinEntry& e) {
    check_out(name, "MPI_Win_get_name", "win_name");
    check_out(resultlen, "MPI_Win_get_name", "resultlen");
    copy_out(e.w.Get_name(), name, resultlen, MPI_MAX_OBJECT_NAME);
  });
}

LUMPI_PMPI(Win_set_errhandler);
int MPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler h) {
  const char* f = "MPI_Win_set_errhandler";
  return call_win(win, f, [&](WinEntry&) { core_win(win)->set_errhandler(settable(h, core::HandlerObject::Win, f)); });
}

// A user handler's handle is a new reference the program frees (§8.3.1).
LUMPI_PMPI(Win_get_errhandler);
int MPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler* h) {
  const char* f = "MPI_Win_get_errhandler";
  return call_win(win, f, [&](WinEntry&) {
    check_out(h, f, "errhandler");
    *h = errhandler_handle(core_win(win)->errhandler(), f);
  });
}

// Delivers errorcode under the window's handler (§8.3.6): MPI_SUCCESS after
// a user handler returns, the code under MPI_ERRORS_RETURN; ERRORS_ARE_FATAL
// aborts. A code that is no error code is MPI_ERR_ARG (under the handler).
LUMPI_PMPI(Win_call_errhandler);
int MPI_Win_call_errhandler(MPI_Win win, int errorcode) {
  const char* f = "MPI_Win_call_errhandler";
  int rc = call_win(win, f, [&](WinEntry&) {
    core_win(win);
    core::raise_code(errorcode, f, "error code " + std::to_string(errorcode));
  });
  // §8.3.6: MPI_SUCCESS once the handler was called and returned
  // (ERRORS_RETURN's included); a bad errorcode's MPI_ERR_ARG stays.
  return rc == errorcode ? MPI_SUCCESS : rc;
}

// ---- caching ---------------------------------------------------------------------------------

int MPI_WIN_NULL_COPY_FN(MPI_Win, int, void*, void*, void*, int* flag) {
  *flag = 0;
  return MPI_SUCCESS;
}

int MPI_WIN_DUP_FN(MPI_Win, int, void*, void* in, void* out, int* flag) {
  *static_cast<void**>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}

int MPI_WIN_NULL_DELETE_FN(MPI_Win, int, void*, void*) { return MPI_SUCCESS; }

LUMPI_PMPI(Win_create_keyval);
int MPI_Win_create_keyval(MPI_Win_copy_attr_function* copy_fn, MPI_Win_delete_attr_function* delete_fn,
                          int* keyval, void* extra_state) {
  return call("MPI_Win_create_keyval", [&] {
    check_out(keyval, "MPI_Win_create_keyval", "win_keyval");
    Win_copy_attr_function copy;
    if (copy_fn)
      copy = [copy_fn](const Win& old, int k, void* extra, void* in, void*& out, bool& flag) {
        int fl = 0;
        int rc = copy_fn(handle_of(old), k, extra, in, &out, &fl);
        flag = fl != 0;
        return rc;
      };
    Win_delete_attr_function del;
    if (delete_fn)
      del = [delete_fn](Win& w, int k, void* value, void* extra) { return delete_fn(handle_of(w), k, value, extra); };
    *keyval = Win::Create_keyval(copy, del, extra_state).Id();
    note_created(core::check::Kind::Keyval, keyval_key(core::attr::Kind::Win, *keyval));
  });
}

LUMPI_PMPI(Win_free_keyval);
int MPI_Win_free_keyval(int* keyval) {
  return call("MPI_Win_free_keyval", [&] {
    check_out(keyval, "MPI_Win_free_keyval", "win_keyval");
    Keyval k = detail::Access::keyval(*keyval);
    Win::Free_keyval(k);
    note_freed(core::check::Kind::Keyval, keyval_key(core::attr::Kind::Win, *keyval));
    *keyval = MPI_KEYVAL_INVALID;
  });
}

LUMPI_PMPI(Win_set_attr);
int MPI_Win_set_attr(MPI_Win win, int keyval, void* value) {
  return call_win(win, "MPI_Win_set_attr", [&](WinEntry& e) { e.w.Set_attr(detail::Access::keyval(keyval), value); });
}

// attribute_val receives the value (for WIN_BASE the base address; for
// WIN_SIZE a pointer to an MPI_Aint; for the others a pointer to an int).
LUMPI_PMPI(Win_get_attr);
int MPI_Win_get_attr(MPI_Win win, int keyval, void* value, int* flag) {
  return call_win(win, "MPI_Win_get_attr", [&](WinEntry& e) {
    check_out(value, "MPI_Win_get_attr", "attribute_val");
    check_out(flag, "MPI_Win_get_attr", "flag");
    void* v = nullptr;
    *flag = e.w.Get_attr(detail::Access::keyval(keyval), v);
    if (*flag) *static_cast<void**>(value) = v;
  });
}

LUMPI_PMPI(Win_delete_attr);
int MPI_Win_delete_attr(MPI_Win win, int keyval) {
  return call_win(win, "MPI_Win_delete_attr", [&](WinEntry& e) { e.w.Delete_attr(detail::Access::keyval(keyval)); });
}

}  // extern "C"
