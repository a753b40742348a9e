// core/api/api_detail.hpp: what the files of the public C++ API (core/api/api_*.cpp)
// share and no user or other door sees: the translation of core errors into
// lumpi::Exception under a communicator's error handler, and the few
// cross-file hooks (attributes on Free, datatype and op mapping). The
// handles' contents and detail::Access are in handles.hpp, which the C API
// shares. Every call into the core from the API goes through guarded(), so
// a core error surfaces as a lumpi::Exception with the same class, function
// and message.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <optional>

#include "core/coll/coll_typed.hpp"
#include "core/coll/combine.hpp"
#include "core/check/buffer_watch.hpp"
#include "core/check/resource.hpp"
#include "core/check/signature.hpp"
#include "core/coll/layout.hpp"
#include "core/datatype/typed_buffer.hpp"
#include "core/base/call_lock.hpp"
#include "core/base/crash_report.hpp"
#include "core/base/error.hpp"
#include "core/api/handles.hpp"
#include "core/api/lumpi.hpp"

namespace lumpi::detail {

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
  int64_t check_key = 0;  // the checker's (api_check.cpp), under --check
};
// h as the core's handler for an object of kind `object` (ERR_ARG for
// ERRHANDLER_NULL, ERRORS_RETURN, or a user handler freed or made for
// another kind), and back (Set_errhandler, Get_errhandler).
core::Errhandler core_handler(const Errhandler& h, core::HandlerObject object, std::string_view func);
Errhandler api_handler(const core::Errhandler& h);

Exception to_exception(const core::Error& e);
// Throws Exception(cls, func, message).
[[noreturn]] void fail(int cls, std::string_view func, std::string message);

// Delivers e under h (core::deliver), a user handler of this API through
// call(UserHandler&); then throws e: a C++ call has no code to return.
template <class Call>
[[noreturn]] void deliver(const core::Errhandler& h, const Exception& e, Call&& call) {
  if (core::deliver(h, {e.Get_error_code(), e.Get_class_name(), e.Get_function(), e.Get_message()}) ==
      core::HandlerKind::User)
    if (auto u = std::dynamic_pointer_cast<UserHandler>(h.user())) call(*u);  // kept: it may replace itself
  throw e;
}
// The same under c's handler (null c: throw), its user handler called with
// api, the C++ handle of c, when given.
[[noreturn]] void deliver(const core::Comm* c, const Exception& e,
                          const std::shared_ptr<CommHandle>* api = nullptr);

// Inside MPI as the C++ API's call func for its lifetime: the engine's lock
// (core/base/call_lock.hpp: no passive-progress thread touches the engine
// meanwhile) and the call a crash report names (core/base/crash_report.hpp).
// Every API function that reaches the core is inside one: through guarded,
// or an ApiCall of its own. Inside a C call both are the C door's already:
// the lock is not taken again and the C name stays.
struct ApiCall {
  explicit ApiCall(const char* func) : named(func) {}
  core::InMpi in_mpi;
  core::InCall named;
};

// Runs f(core communicator of c) as the call func, turning a core::Error or
// Exception into an Exception delivered under c's error handler.
template <class F>
auto guarded(const Comm& c, const char* func, F&& f) -> decltype(f(core_of(c, func))) {
  ApiCall in(func);
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

// Runs f inside MPI with no communicator: core errors become Exceptions.
// The call is not named (the last named call stays what a crash reports).
template <class F>
auto guarded(F&& f) -> decltype(f()) {
  core::InMpi in_mpi;
  try {
    return f();
  } catch (const core::Error& e) {
    throw to_exception(e);
  }
}

// ---- communicators (api_comm.cpp) -------------------------------------------------

// COMM_WORLD and COMM_SELF of the process whose engine is e: what Init sets
// up, and what the unit tests build one per thread.
Intracomm world_of(core::Engine& e);
Intracomm self_of(core::Engine& e);

// ---- the checker's ledger of this door (api_check.cpp) ----------------------------
// Under --check, what a C++ program makes and frees is noted, and what is
// left is reported at lumpi::Finalize (core/check/resource.hpp's rules).
// Nothing is noted inside a C call (CDoorCall) or without --check.
void start_checking(const core::Comm& world);  // lumpi::Init
// A new object of kind k made by func: its key (0 when not noted).
int64_t note_made(core::check::Kind k, const char* func);
// The same for an object numbered by a table (datatype, op, keyval).
void note_made(core::check::Kind k, int64_t key, const char* func);
void note_gone(core::check::Kind k, int64_t key);
// Requests: made (its key), completed through a handle, freed by
// Request::Free (a finding if active and a receive's), dropped by its last
// handle (its state kept for the report).
int64_t note_request(const RequestHandle& h, const char* func);
void note_request_done(int64_t id);
void check_request_free(int64_t id, const core::Comm& comm, bool active);
void note_request_dropped(int64_t id, bool persistent, bool active);
// Local concurrency (core/check/buffer_watch.hpp): this door's watch over
// the buffers of its requests, keyed by their note_request key; null where
// nothing is noted.
core::check::BufferWatch* buffer_watch();
// The buffers the current call noted become r's, watched until it
// completes (a persistent request's only from each start: `persistent`).
void watch_buffers(const Request& r, bool persistent = false);
// h's state (api_p2p.cpp): persistent, and started and not completed.
void request_state(const RequestHandle& h, bool& persistent, bool& active);
void check_finalize(const core::Comm& world);  // lumpi::Finalize

// ---- messages and requests (api_p2p.cpp) --------------------------------------------

// The API's status of a core status, with the bytes that landed.
Status status_of(const core::Status& s, size_t bytes, bool cancelled = false);

// ---- datatypes (api_datatype.cpp, api_type_attr.cpp) ------------------------------

// Attributes: the copy callbacks of old's onto newtype (Dup), the delete
// callbacks of t's (Free); a failing callback throws with its code.
void type_copy_attrs(const Datatype& old, const Datatype& newtype, std::string_view func);
void type_delete_attrs(Datatype& t, std::string_view func);

// count elements of t at buf as the bytes a message carries
// (core::TypedBuffer), after the checks of count (ERR_COUNT naming
// `count`), t (ERR_TYPE) and buf (ERR_BUFFER naming `buf` when count > 0).
core::TypedBuffer typed_bytes(const void* buf, int count, const Datatype& t, std::string_view func,
                              const char* buf_name = "buf", const char* count_name = "count");

// ---- ops (api_op.cpp) ---------------------------------------------------------------

// The core's predefined op of op (REPLACE and NO_OP included); nullopt for
// a user op; ERR_OP for OP_NULL or a freed op.
std::optional<core::Op> predefined_op(const Op& op, std::string_view func);
// The Combine a reduction of op on t uses (core/coll/combine.hpp), and
// whether op commutes. ERR_OP / ERR_TYPE as the core checks them.
struct Reducer {
  core::TypePtr type;
  core::coll::Combine combine;
  bool commutes = true;
};
Reducer reducer(const Op& op, const Datatype& t, std::string_view func);

// ---- collectives (api_coll.cpp) -----------------------------------------------------

// --check: this call described to core's collective-mismatch check
// (core/check/coll_check.hpp), once its arguments are checked and before it
// sends anything; a mismatch raises on every rank. One test without --check.
// `op` null: the call has none; a side of a null `type` moves nothing here.
struct CollSide {
  int count = 0;
  const Datatype* type = nullptr;
};
void check_coll(core::Comm& c, const char* func, int root, const Op* op, CollSide send, CollSide recv = {});
// The same for a nonblocking collective, before it starts (never blocks).
void check_coll_started(const core::CommPtr& c, const char* func, int root, const Op* op, CollSide send,
                        CollSide recv = {});
// The v- and w-forms' check: each side a plain one (coll_side), a v one
// (core::check::v_side) or none; describe sides only where
// core::check::applies(c).
core::check::Side coll_side(int count, const Datatype& t, bool present, const char* func);
void check_coll_v(core::Comm& c, const char* func, int root, const core::check::Side& send,
                  const core::check::Side& recv);
void check_coll_v_started(const core::CommPtr& c, const char* func, int root, const core::check::Side& send,
                          const core::check::Side& recv);

// The core's element type of t, for the typed collectives (the basic types
// of one of their element types); nullopt for any other type.
std::optional<core::coll::typed::Type> typed_type(const Datatype& t);
// The same, ERR_TYPE naming func when t has none (Win's accumulate ops).
core::coll::typed::Type typed_type(const Datatype& t, std::string_view func);
// The core's op for op on t; ERR_OP if op is null or undefined on t.
core::coll::typed::Op typed_op(const Op& op, const Datatype& t, std::string_view func);
// Where a process sends a block to itself or to peers that receive it by
// the same arguments (the regular gather, scatter, allgather, alltoall and
// neighbourhood forms on an intracommunicator, not in place), sendcount
// elements of sendtype need recvcount elements of recvtype's type
// signature: ERR_COUNT / ERR_TYPE, as the core has no type conversion.
// Called after core/coll/layout.hpp's checks of the counts and types.
void check_sides(int sendcount, const Datatype& sendtype, int recvcount, const Datatype& recvtype,
                 std::string_view func);
// The two sides of a Bcast or a reduction as packed bytes: count elements
// of type as the input where this process sends, as the room for the
// result where it receives (each null where it does not).
struct Operands {
  std::shared_ptr<core::TypedBuffer> send, recv;
  // The typed collectives' pointers: the packed send side, the room to
  // receive into, and land() after they wrote it (unpacks a type with holes).
  const char* sent(std::string_view func) const { return send ? send->pack(func) : nullptr; }
  void* room() const { return recv ? recv->stage() : nullptr; }
  void land(std::string_view func) const {
    if (recv) recv->unpack(recv->size(), func);
  }
  // The byte collectives' forms: the packed input, and the received bytes
  // put into the receive side (ERR_TRUNCATE unless they fill it).
  core::coll::Bytes sent_bytes(std::string_view func) const {
    return send ? core::coll::Bytes(send->pack(func), send->size()) : core::coll::Bytes();
  }
  void land(const core::coll::Bytes& data, std::string_view func) const;
};
Operands sides(const void* sendbuf, bool sends, void* recvbuf, bool receives, int count, const Datatype& type,
               std::string_view func);
// A reduction's: the input at sendbuf, or at recvbuf where sendbuf is
// IN_PLACE and `in_place` allows it (ERR_ARG where it does not:
// core/coll/layout.hpp's reduction_input).
Operands operands(const void* sendbuf, bool sends, bool in_place, void* recvbuf, bool receives, int count,
                  const Datatype& type, std::string_view func);
// Reduce-scatter's: the input of sum(counts) elements (IN_PLACE on an
// intracommunicator) cut into sizes[i] bytes for rank i, and this rank's
// counts[rank] elements of room at recvbuf.
struct ReduceScatter {
  Reducer r;
  Operands in, out;
  std::vector<size_t> sizes;
};
ReduceScatter reduce_scatter_args(const core::Comm& c, const void* sendbuf, void* recvbuf,
                                  const std::vector<int>& counts, const Datatype& type, const Op& op,
                                  std::string_view func);

// ---- the collectives over core/coll/layout.hpp (api_coll.cpp, api_collv.cpp, api_nbc.cpp,
// api_nbcv.cpp, api_neighbor.cpp) ----

// t as the type argument of core/coll/layout.hpp's rules.
core::coll::TypeArg type_arg(const Datatype& t, const char* func);
// types[i] of the array `what` (ERR_ARG when it is null).
core::coll::TypeArg types_arg(const Datatype types[], const char* func, const char* what);

// Starts a nonblocking collective on self through start(comm pointer),
// which checks the arguments and returns the core's request, as a Request
// whose errors go under self's handler as func.
// The buffers start noted (sides, operands) are the request's to watch
// under --check (core/check/buffer_watch.hpp).
template <class Start>
Request start_collective(const Comm& self, const char* func, Start start) {
  return guarded(self, func, [&](core::Comm&) {
    const core::CommPtr& p = Access::handle(self)->comm;
    Request r = request_of(p, start(p), func);
    watch_buffers(r);
    return r;
  });
}

// ---- attributes (api_attr.cpp) ---------------------------------------------------

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
