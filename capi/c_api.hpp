// capi/c_api.hpp: what the files of the C API (capi/c_*.cpp, the
// library libmpi behind capi/mpi.h) share: the handle tables that turn
// C ints into the public C++ API's objects (core/api/lumpi.hpp), and call(), the
// one way a C function runs its body: a lumpi::Exception or core::Error
// becomes an error code under the communicator's error handler, the core
// object's (core::deliver). Every C API function is defined as PMPI_<name>,
// with MPI_<name> its weak alias (capi/pmpi.hpp, first of all).
#pragma once

#include "capi/pmpi.hpp"

#include <cstdint>
#include <memory>
#include <cstring>
#include <string>
#include <vector>

#include "core/api/handles.hpp"
#include "core/base/attr.hpp"
#include "core/base/call_lock.hpp"
#include "core/base/crash_report.hpp"
#include "core/check/buffer_watch.hpp"
#include "core/check/resource.hpp"
#include "core/datatype/datatype.hpp"
#include "core/datatype/typed_buffer.hpp"
#include "core/datatype/op.hpp"
#include "core/coll/coll.hpp"
#include "core/api/lumpi.hpp"
#include "core/rma/win.hpp"
#include "capi/mpi.h"

namespace lumpi::capi {

using detail::Access;
using detail::CommHandle;

// ---- communicators --------------------------------------------------------------
struct CommEntry {
  CommEntry() = default;
  explicit CommEntry(std::shared_ptr<CommHandle> handle);
  std::shared_ptr<CommHandle> h;  // null: free slot or COMM_NULL
  // h as its class (Intracomm, Intercomm, Cartcomm, Graphcomm, Distgraphcomm).
  std::shared_ptr<Comm> object;
};
// The table; slots 0 (NULL), 1 (WORLD), 2 (SELF) are fixed.
std::vector<CommEntry>& comms();
// A new handle for h; MPI_COMM_NULL for a null h.
MPI_Comm add_comm(std::shared_ptr<CommHandle> h);
// The C handle of a C++ communicator (attribute callbacks), MPI_COMM_NULL if unknown.
MPI_Comm handle_of(const Comm& c);
// The entry of comm; ERR_COMM naming func when it is not a live communicator.
CommEntry& entry(MPI_Comm comm, const char* func);
// The communicator of comm as its own class, for the calls every class has.
inline Comm& comm_of(MPI_Comm comm, const char* func) { return *entry(comm, func).object; }
// comm as class C, whatever it is: the topology calls (Cartcomm, Graphcomm),
// whose core raises MPI_ERR_TOPOLOGY on a communicator without that topology.
template <class C>
C as(MPI_Comm comm, const char* func) {
  return Access::wrap<C>(entry(comm, func).h);
}
// comm, which must be an intracommunicator (else MPI_ERR_COMM) or an
// intercommunicator (inter).
Intracomm intra(MPI_Comm comm, const char* func);
// Drops the table's slot for comm (after MPI_Comm_free).
void forget_comm(MPI_Comm comm);
Intercomm inter(MPI_Comm comm, const char* func);

// Stores v in the first slot of table t, from index `first` on, that
// is_free(slot) says is free, else in a new slot at the end; returns the
// slot's index, the new C handle.
template <class T, class IsFree>
int put_in_free_slot(std::vector<T>& t, size_t first, T v, IsFree is_free) {
  for (size_t i = first; i < t.size(); ++i)
    if (is_free(t[i])) {
      t[i] = std::move(v);
      return int(i);
    }
  t.push_back(std::move(v));
  return int(t.size()) - 1;
}

// ---- groups, infos, requests ----------------------------------------------------
Group& group(MPI_Group g, const char* func);
MPI_Group add_group(Group g);
void free_group(MPI_Group g);  // no-op for the predefined groups
MPI_Info add_info(Info i);
Info& info(MPI_Info i, const char* func);  // MPI_INFO_NULL is an ERR_INFO
Info info_or_null(MPI_Info i, const char* func);
Request& request(MPI_Request r, const char* func);
MPI_Request add_request(Request r);
// The communicator request r was started on, whose handler takes the errors
// of completing it (§8.3); MPI_COMM_WORLD for a null or unknown request.
MPI_Comm comm_of_request(MPI_Request r);
void drop_request(MPI_Request r);
// Generalized requests (c_grequest.cpp): when r is one that completed, runs
// its query function into *status (may be null) and, when release, its free
// function; false for any other request. grequest_cancel runs its cancel
// function (false: not a generalized request).
bool grequest_completed(MPI_Request r, MPI_Status* status, bool release, const char* func);
bool grequest_cancel(MPI_Request r, const char* func);
// A generalized request's handle goes away (drop_request): runs its free
// function if a completing call has not, so a reused handle is never taken
// for it.
void grequest_dropped(MPI_Request r);
// Persistent requests (MPI_Send_init ...): a handle in the same table that
// completing leaves inactive instead of freeing.
MPI_Request add_persistent(Prequest r);
Prequest& prequest(MPI_Request r, const char* func);  // ERR_REQUEST if not persistent
// MPI_REQUEST_NULL or an inactive persistent request: what the any/some
// calls ignore (MPI-3.1 §3.7.5, §3.9).
bool ignored(MPI_Request r);
// After *r completed (Wait, Test ...): frees it and sets MPI_REQUEST_NULL,
// unless it is persistent.
void completed(MPI_Request* r);
// Every request handle the program holds (the checker's look at MPI_Finalize).
std::vector<MPI_Request> live_requests();
bool is_persistent(MPI_Request r);

// ---- the checker (c_check.cpp, docs/checking.md), under --check only --------------
// The table functions tell it what the current call created and what was
// freed; MPI_Finalize asks it what is left (requests never completed,
// objects never freed) and reports each once.
void start_checking();  // MPI_Init: is --check on for this rank?
bool checking();
void note_created(core::check::Kind k, int64_t handle);
void note_freed(core::check::Kind k, int64_t handle);
using core::check::keyval_key;
// MPI_Request_free of r, a request whose operation was never completed.
void check_request_free(MPI_Request r);
// The program knows how r ends: MPI_Request_get_status found it complete,
// or MPI_Cancel was called (§3.8.4 names MPI_Request_free as one way to
// finish a cancelled request). Freeing it is then no finding.
void note_settled(MPI_Request r);
void check_finalize();
// Local concurrency (core/check/buffer_watch.hpp): the C door's watch,
// keyed by MPI_Request; note_* are its note for C buffers (MPI_IN_PLACE
// is none). c_env.cpp's request table tells it of each request made and
// completed, c_complete.cpp of each receive's landing.
core::check::BufferWatch& buffers();
void note_read_buffer(const void* buf, size_t bytes);
void note_written_buffer(const void* buf, size_t bytes);

// ---- datatypes (c_type.cpp, c_type_attr.cpp) and ops ------------------------------
// The core object of handle t; ERR_TYPE naming what in func for NULL or an
// unknown handle.
core::TypePtr type_of(MPI_Datatype t, const char* func, const char* what = "datatype");
MPI_Datatype add_type(core::TypePtr t);
void forget_type(MPI_Datatype t);  // no-op for the predefined handles
// (core::dense(t), found by argument lookup as dense(t): count elements of
// t are count * size bytes at the buffer's address.)
// count elements of t at buf as the contiguous bytes a message carries
// (core::TypedBuffer: the user's memory itself for a dense type, else a
// staging copy the type packs into and unpacks from), with the checker's
// note of a send read straight from the user's memory.
class TypeBytes {
 public:
  TypeBytes(const void* buf, int count, MPI_Datatype t, const char* func, const char* what = "count");
  size_t size() const { return bytes_.size(); }
  bool staged() const { return bytes_.staged(); }
  // The bytes for detail::send and its kin (core/api/handles.hpp), noted as
  // a read of the user's memory where the send reads it in place
  // (buffers()); the room a receive lands in.
  core::TypedBuffer& sent();
  core::TypedBuffer& room();
  // The same for a send to dest, a receive from source: not noted for
  // MPI_PROC_NULL, whose communication touches no memory (MPI-3.1 §3.11).
  core::TypedBuffer& sent(int dest) { return dest == MPI_PROC_NULL ? bytes_ : sent(); }
  core::TypedBuffer& room(int source) { return source == MPI_PROC_NULL ? bytes_ : room(); }
  void* pack(const char* func);

 private:
  const void* buf_;
  core::TypedBuffer bytes_;
};
// Datatype attributes: runs the copy callbacks of old's attributes onto
// newtype (MPI_Type_dup), and the delete callbacks of t's (MPI_Type_free);
// a failing callback throws with its code.
void type_copy_attrs(MPI_Datatype old, MPI_Datatype newtype, const char* func);
void type_delete_attrs(MPI_Datatype t, const char* func);
// The core's op for a predefined reduction op (MPI_SUM ... MPI_MINLOC);
// ERR_OP naming func for any other handle.
core::Op predefined_op(MPI_Op op, const char* func);
// User-defined ops (capi/c_op.cpp), which the reductions (capi/c_reduce.cpp)
// call as MPI says: inoutvec = invec op inoutvec, invec the lower ranks'.
bool is_user_op(MPI_Op op);
bool user_op_commutes(MPI_Op op, const char* func);  // ERR_OP if not a live user op
MPI_User_function* user_fn(MPI_Op op, const char* func);

// A count check: ERR_COUNT naming func for a negative count.
void check_count(int count, const char* func, const char* what = "count");
// The usable core communicator of comm (ERR_COMM if freed or pending).
core::CommPtr core_comm(MPI_Comm comm, const char* func);

void to_c(const Status& s, MPI_Status* out);

// An ERR_ARG naming what when the output (or input) pointer p is NULL.
inline void check_out(const void* p, const char* func, const char* what);

// ---- windows (c_win.cpp; the operations c_win_ops.cpp) -------------------------------
// The core window of win; ERR_WIN naming func when it is not a live window.
core::Win& win_of(MPI_Win win, const char* func);
// Delivers an error of a call on win under its handler (a C user handler
// called with win); MPI_COMM_WORLD's when win is not a window.
int win_failed(MPI_Win win, const core::DeliveredError& e);
// Runs body(); its errors go to win's handler (win_failed).
template <class F>
int call_on_win(MPI_Win win, const char* func, F&& body);

// ---- errors -----------------------------------------------------------------------
[[noreturn]] void fail(int cls, const char* func, std::string message);
// (c_errh.cpp) Delivers e under h (core::deliver), calling a C user handler
// with `handle`, the object's C handle; returns e's code.
int deliver(core::Errhandler h, int handle, const core::DeliveredError& e);
// The same under comm's handler; MPI_COMM_WORLD's when comm is not live;
// MPI_ERRORS_ARE_FATAL outside MPI_Init ... MPI_Finalize.
int deliver(MPI_Comm comm, const core::DeliveredError& e);
// The core handler of h to set on an object of kind `object` (core::settable).
core::Errhandler settable(MPI_Errhandler h, core::HandlerObject object, const char* func);
// A handle to h the program frees (MPI_*_get_errhandler, §8.3.1).
MPI_Errhandler errhandler_handle(const core::Errhandler& h, const char* func);
void check_initialized(const char* func);

// A name or message into the user's buffer of max bytes, NUL-terminated and
// cut to fit (MPI_Comm_get_name, MPI_Error_string, MPI_Type_get_name ...);
// its length without the NUL in *len when len is given.
inline void copy_out(const std::string& s, char* buf, int* len, int max) {
  int n = int(s.size()) < max - 1 ? int(s.size()) : max - 1;
  std::memcpy(buf, s.data(), size_t(n));
  buf[n] = '\0';
  if (len) *len = n;
}

inline void check_out(const void* p, const char* func, const char* what) {
  if (!p) fail(MPI_ERR_ARG, func, std::string(what) + " is NULL");
}

// Runs body() as the C function func; an error in it becomes an error code
// through failed(DeliveredError), the handler of the object the call is on.
// The whole call is inside MPI (core/base/call_lock.hpp): a passive-target
// progress thread never touches the engine meanwhile.
template <class F, class Failed>
int run_call(const char* func, F&& body, Failed&& failed) {
  core::InMpi in_mpi;
  core::InCall in(func);  // names the call (crash reports, the checker) and numbers it
  detail::CDoorCall door;  // its objects are this door's ledger's, not the C++ API's
  try {
    check_initialized(func);
    body();
    return MPI_SUCCESS;
  } catch (const Exception& e) {
    return failed(core::DeliveredError{e.Get_error_code(), e.Get_class_name(), e.Get_function(), e.Get_message()});
  } catch (const core::Error& e) {
    return failed(core::delivered(e));
  } catch (const std::bad_alloc&) {
    return failed(core::DeliveredError{MPI_ERR_NO_MEM, "MPI_ERR_NO_MEM", func, "out of memory"});
  }
}

// Runs body(); any error is delivered under comm's handler. comm is read
// when the error is delivered, so a body may first learn which communicator
// an error belongs to (the failing request's, c_complete.cpp).
template <class F>
int call(const MPI_Comm& comm, const char* func, F&& body) {
  return run_call(func, std::forward<F>(body),
                  [&comm](const core::DeliveredError& e) { return deliver(comm, e); });
}
// The same for calls tied to no communicator (MPI_COMM_WORLD's handler).
template <class F>
int call(const char* func, F&& body) {
  return call(MPI_COMM_WORLD, func, std::forward<F>(body));
}

template <class F>
int call_on_win(MPI_Win win, const char* func, F&& body) {
  return run_call(func, std::forward<F>(body),
                  [win](const core::DeliveredError& e) { return win_failed(win, e); });
}

}  // namespace lumpi::capi
