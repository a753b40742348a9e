// core/api/api_win.cpp: lumpi::Win, the C++ API's windows (MPI-3.1 chapter 11,
// attributes §6.7.3, names §6.8) over core::Win; window attributes live in
// the core's store (core/base/attr.hpp), whose window keyvals are their own
// kind, so a communicator call given one raises ERR_KEYVAL, and a window
// call given a communicator's keyval does too.
//
// Errors: every call validates through core::Win first; a core::Error
// becomes an Exception delivered under the window's handler as for
// communicators (core::deliver): thrown to the caller, after the window's
// user handler (Win::Create_errhandler) has run, or the job's end under
// ERRORS_ARE_FATAL.
#include "core/api/api_detail.hpp"
#include "core/rma/win.hpp"

namespace lumpi {

using detail::Access;

namespace {

enum : int { kWinBase = 8, kWinSize = 9, kWinDispUnit = 10, kWinCreateFlavor = 11, kWinModel = 12 };
namespace attr = core::attr;

core::Win& core_of(const Win& w, std::string_view func) {
  if (!w.Handle()) detail::fail(ERR_WIN, func, "the window is WIN_NULL");
  return *w.Handle()->win;
}

// Delivers e under the window's handler (none: throws); a user handler
// is called with the window.
[[noreturn]] void deliver(const Win& api, const core::Win* w, const Exception& e) {
  if (!w) throw e;
  detail::deliver(w->errhandler(), e, [&](detail::UserHandler& u) {
    Win win = api;
    if (u.win_fn) u.win_fn(win, e.Get_error_code());
  });
}

// Runs f(core window) as the call func (detail::ApiCall), errors delivered
// under the window's handler.
template <class F>
auto guarded(const Win& w, const char* func, F&& f) -> decltype(f(core_of(w, func))) {
  detail::ApiCall in(func);
  core::Win* cw = nullptr;
  try {
    cw = &core_of(w, func);
    cw->check_usable(func);
    return f(*cw);
  } catch (const core::Error& e) {
    deliver(w, cw, detail::to_exception(e));
  } catch (const Exception& e) {
    deliver(w, cw, e);
  }
}

// Any committed datatype (ERR_TYPE otherwise, before anything is sent).
core::TypePtr type_of(const Datatype& t, std::string_view func) { return detail::usable_type(t, func); }

// The predefined ops accumulate takes (MAXLOC and MINLOC on the pair types,
// REPLACE, NO_OP; core::Win checks the op against the type); a user op
// cannot be used (§11.3.4).
core::Op rma_op(const Op& op, std::string_view func) {
  if (auto o = detail::predefined_op(op, func)) return *o;
  detail::fail(ERR_OP, func, "op is a user-defined op, which accumulate does not take (only predefined ops)");
}

Win made(core::WinPtr w) {
  auto h = std::make_shared<WinHandle>();
  h->base = w->base();
  h->size = long(w->size());
  h->disp_unit = w->disp_unit();
  h->flavor = w->flavor();
  h->model = w->model();
  h->win = std::move(w);
  h->check_key = detail::note_made(core::check::Kind::Win, "a window constructor");
  return Win::From_handle(std::move(h));
}

// A user keyval's id, after the checks the core cannot make (INVALID, the
// predefined window attributes); attr:: checks the rest.
int user_keyval(const Keyval& k, std::string_view func) {
  if (k.Is_null()) detail::fail(ERR_KEYVAL, func, "keyval is KEYVAL_INVALID");
  if (k.Id() >= kWinBase && k.Id() <= kWinModel)
    detail::fail(ERR_KEYVAL, func, "keyval is a predefined window attribute, which cannot be set, deleted or freed");
  return k.Id();
}

}  // namespace

extern const Win WIN_NULL = Win();
extern const Keyval WIN_BASE = Access::keyval(kWinBase);
extern const Keyval WIN_SIZE = Access::keyval(kWinSize);
extern const Keyval WIN_DISP_UNIT = Access::keyval(kWinDispUnit);
extern const Keyval WIN_CREATE_FLAVOR = Access::keyval(kWinCreateFlavor);
extern const Keyval WIN_MODEL = Access::keyval(kWinModel);

// ---- creation and free ---------------------------------------------------------------

Win Win::Create(const void* base, long size, int disp_unit, const Info& info, const Intracomm& comm) {
  return detail::guarded(comm, "MPI_Win_create", [&](core::Comm& c) {
    core::WinPtr w = core::Win::create(c, const_cast<void*>(base), size, disp_unit, "MPI_Win_create");
    if (!info.Is_null()) w->set_info(info.Pairs());
    return made(std::move(w));
  });
}

Win Win::Allocate(long size, int disp_unit, const Info& info, const Intracomm& comm, void* baseptr) {
  return detail::guarded(comm, "MPI_Win_allocate", [&](core::Comm& c) {
    if (!baseptr) detail::fail(ERR_ARG, "MPI_Win_allocate", "baseptr is NULL");
    Win w = made(core::Win::allocate(c, size, disp_unit, "MPI_Win_allocate"));
    if (!info.Is_null()) w.h_->win->set_info(info.Pairs());
    *static_cast<void**>(baseptr) = w.h_->win->base();
    return w;
  });
}

Win Win::Allocate_shared(long size, int disp_unit, const Info& info, const Intracomm& comm, void* baseptr) {
  const char* f = "MPI_Win_allocate_shared";
  return detail::guarded(comm, f, [&](core::Comm& c) {
    if (!baseptr) detail::fail(ERR_ARG, f, "baseptr is NULL");
    Win w = made(core::Win::allocate_shared(c, size, disp_unit, f));
    if (!info.Is_null()) w.h_->win->set_info(info.Pairs());
    *static_cast<void**>(baseptr) = w.h_->win->base();
    return w;
  });
}

void Win::Shared_query(int rank, long& size, int& disp_unit, void* baseptr) const {
  const char* f = "MPI_Win_shared_query";
  guarded(*this, f, [&](core::Win& w) {
    if (!baseptr) detail::fail(ERR_ARG, f, "baseptr is NULL");
    core::Win::SharedPart p = w.shared_query(rank);
    size = long(p.size);
    disp_unit = p.disp_unit;
    *static_cast<void**>(baseptr) = p.base;
  });
}

Win Win::Create_dynamic(const Info& info, const Intracomm& comm) {
  return detail::guarded(comm, "MPI_Win_create_dynamic", [&](core::Comm& c) {
    core::WinPtr w = core::Win::create_dynamic(c, "MPI_Win_create_dynamic");
    if (!info.Is_null()) w->set_info(info.Pairs());
    return made(std::move(w));
  });
}

void Win::Attach(void* base, long size) const {
  guarded(*this, "MPI_Win_attach", [&](core::Win& w) { w.attach(base, size); });
}

void Win::Detach(const void* base) const {
  guarded(*this, "MPI_Win_detach", [&](core::Win& w) { w.detach(base); });
}

// The delete callbacks run first, in the reverse order of setting; one that
// fails leaves the window (and the attributes not yet deleted) as they are.
void Win::Free() {
  const char* func = "MPI_Win_free";
  guarded(*this, func, [&](core::Win& w) {
    w.check_free(func);
    attr::delete_all(attr::Kind::Win, this, w.serial(), func);
    w.free();
  });
  detail::note_gone(core::check::Kind::Win, h_->check_key);
  h_.reset();
}

// ---- synchronization and operations ----------------------------------------------------

void Win::Fence(int assert) const {
  guarded(*this, "MPI_Win_fence", [&](core::Win& w) { w.fence(assert); });
}
void Win::Lock(int lock_type, int rank, int assert) const {
  guarded(*this, "MPI_Win_lock", [&](core::Win& w) { w.lock(lock_type, rank, assert); });
}
void Win::Unlock(int rank) const {
  guarded(*this, "MPI_Win_unlock", [&](core::Win& w) { w.unlock(rank); });
}
void Win::Flush(int rank) const {
  guarded(*this, "MPI_Win_flush", [&](core::Win& w) { w.flush(rank); });
}

void Win::Lock_all(int assert) const {
  guarded(*this, "MPI_Win_lock_all", [&](core::Win& w) { w.lock_all(assert); });
}
void Win::Unlock_all() const {
  guarded(*this, "MPI_Win_unlock_all", [&](core::Win& w) { w.unlock_all(); });
}
void Win::Flush_all() const {
  guarded(*this, "MPI_Win_flush_all", [&](core::Win& w) { w.flush_all(); });
}
void Win::Flush_local(int rank) const {
  guarded(*this, "MPI_Win_flush_local", [&](core::Win& w) { w.flush_local(rank); });
}
void Win::Flush_local_all() const {
  guarded(*this, "MPI_Win_flush_local_all", [&](core::Win& w) { w.flush_local_all(); });
}
void Win::Sync() const {
  guarded(*this, "MPI_Win_sync", [&](core::Win& w) { w.sync(); });
}
void Win::Post(const Group& group, int assert) const {
  guarded(*this, "MPI_Win_post", [&](core::Win& w) { w.post(group.World_ranks(), assert); });
}
void Win::Start(const Group& group, int assert) const {
  guarded(*this, "MPI_Win_start", [&](core::Win& w) { w.start(group.World_ranks(), assert); });
}
void Win::Complete() const {
  guarded(*this, "MPI_Win_complete", [&](core::Win& w) { w.complete(); });
}
void Win::Wait() const {
  guarded(*this, "MPI_Win_wait", [&](core::Win& w) { w.wait(); });
}
bool Win::Test() const {
  return guarded(*this, "MPI_Win_test", [&](core::Win& w) { return w.test(); });
}

void Win::Put(const void* origin, int count, const Datatype& otype, int target, long disp, int tcount,
              const Datatype& ttype) const {
  const char* f = "MPI_Put";
  guarded(*this, f, [&](core::Win& w) {
    if (!origin && count > 0) detail::fail(ERR_BUFFER, f, "origin_addr is NULL");
    w.put(origin, count, type_of(otype, f), target, disp, tcount, type_of(ttype, f));
  });
}

void Win::Get(void* origin, int count, const Datatype& otype, int target, long disp, int tcount,
              const Datatype& ttype) const {
  const char* f = "MPI_Get";
  guarded(*this, f, [&](core::Win& w) {
    if (!origin && count > 0) detail::fail(ERR_BUFFER, f, "origin_addr is NULL");
    w.get(origin, count, type_of(otype, f), target, disp, tcount, type_of(ttype, f));
  });
}

void Win::Accumulate(const void* origin, int count, const Datatype& otype, int target, long disp, int tcount,
                     const Datatype& ttype, const Op& op) const {
  const char* f = "MPI_Accumulate";
  guarded(*this, f, [&](core::Win& w) {
    if (!origin && count > 0) detail::fail(ERR_BUFFER, f, "origin_addr is NULL");
    w.accumulate(origin, count, type_of(otype, f), target, disp, tcount, type_of(ttype, f), rma_op(op, f));
  });
}

void Win::Get_accumulate(const void* origin, int count, const Datatype& otype, void* result, int rcount,
                         const Datatype& rtype, int target, long disp, int tcount, const Datatype& ttype,
                         const Op& op) const {
  const char* f = "MPI_Get_accumulate";
  guarded(*this, f, [&](core::Win& w) {
    core::Op o = rma_op(op, f);
    core::TypePtr ot = o == core::Op::NoOp ? nullptr : type_of(otype, f);
    w.get_accumulate(origin, count, ot, result, rcount, type_of(rtype, f), target, disp, tcount, type_of(ttype, f), o);
  });
}

void Win::Fetch_and_op(const void* origin, void* result, const Datatype& type, int target, long disp,
                       const Op& op) const {
  const char* f = "MPI_Fetch_and_op";
  guarded(*this, f, [&](core::Win& w) { w.fetch_and_op(origin, result, type_of(type, f), target, disp, rma_op(op, f)); });
}

void Win::Compare_and_swap(const void* origin, const void* compare, void* result, const Datatype& type, int target,
                           long disp) const {
  const char* f = "MPI_Compare_and_swap";
  guarded(*this, f, [&](core::Win& w) { w.compare_and_swap(origin, compare, result, type_of(type, f), target, disp); });
}

Request Win::Rput(const void* origin, int count, const Datatype& otype, int target, long disp, int tcount,
                  const Datatype& ttype) const {
  const char* f = "MPI_Rput";
  return guarded(*this, f, [&](core::Win& w) {
    return detail::request_of(w.comm(), w.rput(origin, count, type_of(otype, f), target, disp, tcount, type_of(ttype, f)), f);
  });
}

Request Win::Rget(void* origin, int count, const Datatype& otype, int target, long disp, int tcount,
                  const Datatype& ttype) const {
  const char* f = "MPI_Rget";
  return guarded(*this, f, [&](core::Win& w) {
    return detail::request_of(w.comm(), w.rget(origin, count, type_of(otype, f), target, disp, tcount, type_of(ttype, f)), f);
  });
}

Request Win::Raccumulate(const void* origin, int count, const Datatype& otype, int target, long disp, int tcount,
                         const Datatype& ttype, const Op& op) const {
  const char* f = "MPI_Raccumulate";
  return guarded(*this, f, [&](core::Win& w) {
    return detail::request_of(
        w.comm(), w.raccumulate(origin, count, type_of(otype, f), target, disp, tcount, type_of(ttype, f), rma_op(op, f)), f);
  });
}

Request Win::Rget_accumulate(const void* origin, int count, const Datatype& otype, void* result, int rcount,
                             const Datatype& rtype, int target, long disp, int tcount, const Datatype& ttype,
                             const Op& op) const {
  const char* f = "MPI_Rget_accumulate";
  return guarded(*this, f, [&](core::Win& w) {
    core::Op o = rma_op(op, f);
    core::TypePtr ot = o == core::Op::NoOp ? nullptr : type_of(otype, f);
    return detail::request_of(w.comm(), w.rget_accumulate(origin, count, ot, result, rcount, type_of(rtype, f), target,
                                                          disp, tcount, type_of(ttype, f), o), f);
  });
}

void Win::Set_info(const Info& info) const {
  guarded(*this, "MPI_Win_set_info", [&](core::Win& w) {
    if (info.Is_null()) detail::fail(ERR_INFO, "MPI_Win_set_info", "info is INFO_NULL");
    w.set_info(info.Pairs());
  });
}

Info Win::Get_info() const {
  return guarded(*this, "MPI_Win_get_info", [&](core::Win& w) {
    Info i = Info::Create();
    for (const auto& [k, v] : w.get_info()) i.Set(k, v);
    return i;
  });
}

// ---- queries, names, error handler ------------------------------------------------------

Group Win::Get_group() const {
  return guarded(*this, "MPI_Win_get_group", [&](core::Win& w) {
    return Access::group(w.group(), w.group()[size_t(w.rank())]);
  });
}

void Win::Set_name(const std::string& name) {
  guarded(*this, "MPI_Win_set_name", [&](core::Win& w) { w.set_name(name); });
}

std::string Win::Get_name() const {
  return guarded(*this, "MPI_Win_get_name", [&](core::Win& w) { return w.name(); });
}

void Win::Set_errhandler(const Errhandler& h) {
  const char* f = "MPI_Win_set_errhandler";
  guarded(*this, f, [&](core::Win& w) { w.set_errhandler(detail::core_handler(h, core::HandlerObject::Win, f)); });
}

Errhandler Win::Get_errhandler() const {
  return guarded(*this, "MPI_Win_get_errhandler", [&](core::Win& w) { return detail::api_handler(w.errhandler()); });
}

Errhandler Win::Create_errhandler(Win_errhandler_function function) {
  if (!function) detail::fail(ERR_ARG, "MPI_Win_create_errhandler", "function is empty");
  auto u = std::make_shared<detail::UserHandler>(std::move(function));
  u->check_key = detail::note_made(core::check::Kind::Errhandler, "MPI_Win_create_errhandler");
  return Access::errhandler(std::move(u));
}

void Win::Call_errhandler(int errorcode) const {
  const char* f = "MPI_Win_call_errhandler";
  guarded(*this, f, [&](core::Win&) { core::raise_code(errorcode, f, "called by Win::Call_errhandler"); });
}

// ---- caching ------------------------------------------------------------------------------

Keyval Win::Create_keyval(Win_copy_attr_function copy, Win_delete_attr_function del, void* extra) {
  auto cb = detail::attr_callbacks<Win>(std::move(copy), std::move(del), extra);
  Keyval k = Access::keyval(attr::create_keyval(attr::Kind::Win, std::move(cb)));
  detail::note_made(core::check::Kind::Keyval, core::check::keyval_key(attr::Kind::Win, k.Id()),
                    "MPI_Win_create_keyval");
  return k;
}

void Win::Free_keyval(Keyval& keyval) {
  detail::guarded([&] {
    const char* f = "MPI_Win_free_keyval";
    attr::free_keyval(attr::Kind::Win, user_keyval(keyval, f), f);
  });
  detail::note_gone(core::check::Kind::Keyval, core::check::keyval_key(attr::Kind::Win, keyval.Id()));
  Access::reset(keyval);
}

void Win::Set_attr(const Keyval& keyval, void* value) {
  const char* f = "MPI_Win_set_attr";
  guarded(*this, f, [&](core::Win& w) {
    attr::set(attr::Kind::Win, this, w.serial(), user_keyval(keyval, f), value, f);
  });
}

bool Win::Get_attr(const Keyval& keyval, void*& value) const {
  const char* f = "MPI_Win_get_attr";
  return guarded(*this, f, [&](core::Win& w) {
    switch (keyval.Id()) {
      case kWinBase: value = h_->base; return true;  // the address itself, as C has it
      case kWinSize: value = &h_->size; return true;
      case kWinDispUnit: value = &h_->disp_unit; return true;
      case kWinCreateFlavor: value = &h_->flavor; return true;
      case kWinModel: value = &h_->model; return true;
      default: break;
    }
    if (keyval.Is_null()) detail::fail(ERR_KEYVAL, f, "keyval is KEYVAL_INVALID");
    return attr::get(attr::Kind::Win, w.serial(), keyval.Id(), value, f);
  });
}

void Win::Delete_attr(const Keyval& keyval) {
  const char* f = "MPI_Win_delete_attr";
  guarded(*this, f, [&](core::Win& w) {
    attr::remove(attr::Kind::Win, this, w.serial(), user_keyval(keyval, f), f);
  });
}

int Win::NULL_COPY_FN(const Win&, int, void*, void*, void*&, bool& flag) {
  flag = false;
  return SUCCESS;
}

int Win::DUP_FN(const Win&, int, void*, void* in, void*& out, bool& flag) {
  out = in;
  flag = true;
  return SUCCESS;
}

int Win::NULL_DELETE_FN(Win&, int, void*, void*) { return SUCCESS; }

}  // namespace lumpi
