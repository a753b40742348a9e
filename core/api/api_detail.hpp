// core/api/api_detail.hpp: what the files of the public C++ API (core/api/api_*.cpp)
// share and no user sees: the opaque handles' contents, the one door into the
// public classes (detail::Access), the translation of core errors into
// lumpi::Exception under a communicator's error handler, and the few
// cross-file hooks (attributes on Dup/Free, datatype and op mapping).
// Every call into the core from the API goes through guarded(), so a core
// error surfaces as a lumpi::Exception with the same class, function and
// message.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/attr.hpp"
#include "core/coll/coll_typed.hpp"
#include "core/comm/comm.hpp"
#include "core/base/error.hpp"
#include "core/api/lumpi.hpp"

namespace lumpi::detail {

// A communicator of the core. Exactly one handle is made per core
// communicator (when the API creates or adopts it); its destructor drops the
// communicator's attributes without running callbacks once the last lumpi
// handle is gone, as a communicator never freed cannot be reached again.
struct CommHandle {
  explicit CommHandle(core::CommPtr c) : comm(std::move(c)) {}
  ~CommHandle();
  core::CommPtr comm;
};

struct Access {
  static const std::shared_ptr<CommHandle>& handle(const Comm& c) { return c.h_; }
  static void reset(Comm& c) { c.h_.reset(); }
  // A communicator of class C around p; COMM_NULL when p is null.
  template <class C>
  static C make(core::CommPtr p) {
    if (!p) return C();
    return C(std::make_shared<CommHandle>(std::move(p)));
  }
  template <class C>
  static C wrap(std::shared_ptr<CommHandle> h) {
    if (!h) return C();
    return C(std::move(h));
  }
  static const std::shared_ptr<RequestHandle>& handle(const Request& r) { return r.h_; }
  static void reset(Request& r) { r.h_.reset(); }
  static Request request(std::shared_ptr<RequestHandle> h) { return Request(std::move(h)); }
  static Prequest prequest(std::shared_ptr<RequestHandle> h) { return Prequest(std::move(h)); }
  static Keyval keyval(int id) { return Keyval(id); }
  static void reset(Keyval& k) { k.id_ = 0; }
  static constexpr Datatype datatype(int id) { return Datatype(id); }
  static constexpr Op op(int id) { return Op(id); }
  static Errhandler errhandler(int id) { return Errhandler(id); }
  static Errhandler errhandler(std::shared_ptr<UserHandler> u) {
    Errhandler h;
    h.user_ = std::move(u);
    return h;
  }
  static int id(const Errhandler& e) { return e.id_; }
  static const std::shared_ptr<UserHandler>& user(const Errhandler& e) { return e.user_; }
  static void reset(Errhandler& e) { e = Errhandler(); }
  static Group group(std::vector<int> world_ranks, int my_world_rank) {
    return Group(std::move(world_ranks), my_world_rank);
  }
};

// ---- errors (api_error.cpp) -----------------------------------------------------

// A handler made by Comm::Create_errhandler (fn set) or
// Win::Create_errhandler (win_fn set); `object` says which.
struct UserHandler : core::UserErrhandler {
  explicit UserHandler(Comm_errhandler_function f)
      : core::UserErrhandler(core::HandlerObject::Comm), fn(std::move(f)) {}
  explicit UserHandler(Win_errhandler_function f)
      : core::UserErrhandler(core::HandlerObject::Win), win_fn(std::move(f)) {}
  Comm_errhandler_function fn;
  Win_errhandler_function win_fn;
};
// The user handler of h checked for setting on an object of kind `object`
// (ERR_ARG when freed or made for another kind); null for a predefined one.
std::shared_ptr<core::UserErrhandler> settable_user(const Errhandler& h, core::HandlerObject object,
                                                    std::string_view func);

Exception to_exception(const core::Error& e);
// Throws Exception(cls, func, message).
[[noreturn]] void fail(int cls, std::string_view func, std::string message);

// Applies c's error handler to e (null c: throw): throws, or ends the
// process. A user-defined handler is called first when api (the C++ handle
// of c) is given.
[[noreturn]] void deliver(const core::Comm* c, const Exception& e,
                          const std::shared_ptr<CommHandle>* api = nullptr);

// The usable core communicator of c, raising ERR_COMM naming func when c is
// COMM_NULL, freed or still pending.
core::Comm& core_of(const Comm& c, std::string_view func);

// Runs f(core communicator of c), turning a core::Error or Exception into an
// Exception delivered under c's error handler.
template <class F>
auto guarded(const Comm& c, std::string_view func, F&& f) -> decltype(f(core_of(c, func))) {
  core::Comm* cc = nullptr;
  try {
    cc = &core_of(c, func);
    return f(*cc);
  } catch (const core::Error& e) {
    deliver(cc, to_exception(e), &Access::handle(c));
  } catch (const Exception& e) {
    deliver(cc, e, &Access::handle(c));
  }
}

// Runs f with no communicator: core errors become Exceptions.
template <class F>
auto guarded(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const core::Error& e) {
    throw to_exception(e);
  }
}

// ---- communicators (api_comm.cpp) -------------------------------------------------

// MPI_Comm_dup of c (any class) with its attributes copied, for each
// class's Dup to wrap.
std::shared_ptr<CommHandle> dup_handle(const Comm& c, std::string_view func);
// COMM_WORLD and COMM_SELF of the process whose engine is e: what Init sets
// up, and what the unit tests build one per thread.
Intracomm world_of(core::Engine& e);
Intracomm self_of(core::Engine& e);

// ---- requests (api_p2p.cpp) -------------------------------------------------------

// A Request for a pending core operation that moves no user data (MPI_Comm_idup
// in the C API): Wait/Test complete it with an empty status; errors go
// under comm's handler as func.
Request request_of(core::CommPtr comm, std::shared_ptr<core::Request> req, const char* func);
// The core communicator request r was started on; null for REQUEST_NULL.
const core::Comm* comm_of(const Request& r);
// Blocks until one of the active requests among rs could complete (done,
// or ended in an error), without completing it: the sleep between two test
// rounds of a Waitany or Waitsome. An interrupt raises as func under the
// first active request's communicator's handler.
void await_any(const std::vector<const Request*>& rs, const char* func);

// ---- datatypes and ops (api_coll.cpp) --------------------------------------------

// The core's element type of t; ERR_TYPE naming func if t is null or unknown.
core::coll::typed::Type typed_type(const Datatype& t, std::string_view func);
// The core's op for op on t; ERR_OP if op is null or undefined on t.
core::coll::typed::Op typed_op(const Op& op, const Datatype& t, std::string_view func);
// A collective's (count, type) from its significant side(s): where both
// are significant on this process they need the same type (ERR_TYPE) and
// count (ERR_COUNT), as the core has no type conversion.
struct Side {
  int count;
  const Datatype& type;
  bool significant;
};
struct Elems {
  int count;
  core::coll::typed::Type type;
};
Elems significant(const Side& send, const Side& recv, std::string_view func);
// Checks a (buf, count, type) triple; returns count * size in bytes.
size_t buffer_bytes(const void* buf, int count, const Datatype& t, std::string_view func,
                    const char* what = "buf");

// ---- attributes (api_attr.cpp) ---------------------------------------------------

// The attributes of oldcomm as copied by the copy callbacks, for Dup to
// attach to the new communicator (callbacks run before any communication).
using AttrCopies = core::attr::Copies;
AttrCopies copy_attrs(const Comm& oldcomm);
void attach_attrs(const core::Comm& newcomm, const AttrCopies& copies);
// Runs the delete callbacks of every attribute of c and drops them (Free).
void delete_all_attrs(Comm& c);
// Drops c's attributes without callbacks (the last handle went away).
void forget_attrs(uint64_t serial);
// A keyval's C++ callbacks for the core's store: Obj (Comm or Win) is the
// object the store hands back; an empty function stays empty (NULL_*_FN).
template <class Obj, class Copy, class Delete>
core::attr::Callbacks attr_callbacks(Copy copy, Delete del, void* extra) {
  core::attr::Callbacks cb;
  if (copy)
    cb.copy = [copy, extra](core::attr::Object from, int id, void* in, void*& out, bool& keep) {
      return copy(*static_cast<const Obj*>(from), id, extra, in, out, keep);
    };
  if (del)
    cb.del = [del, extra](core::attr::Object on, int id, void* value) {
      return del(*static_cast<Obj*>(on), id, value, extra);
    };
  return cb;
}

}  // namespace lumpi::detail
