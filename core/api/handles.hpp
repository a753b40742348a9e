// core/api/handles.hpp: what the C++ API's handles hold of the core, shared
// by core/api/api_*.cpp and the door built on the C++ API (capi/): the
// handles, detail::Access, and the few calls between C++ and core objects.
#pragma once

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "core/base/attr.hpp"
#include "core/base/call_lock.hpp"
#include "core/comm/comm.hpp"
#include "core/comm/persistent.hpp"
#include "core/datatype/typed_buffer.hpp"
#include "core/rma/win.hpp"
#include "core/api/lumpi.hpp"

namespace lumpi {

// A handle's last owner drops its core objects inside MPI (core::InMpi):
// a request, a communicator or a window leaving reaches the engine, which
// a passive-progress thread may be serving meanwhile. The members that
// reach the core are reset in the destructor's body, under the lock.
struct WinHandle {
  // A window dropped without Free takes its attributes along, no callbacks.
  ~WinHandle() {
    core::InMpi in_mpi;
    if (win && !win->freed()) core::attr::forget(core::attr::Kind::Win, win->serial());
    win.reset();
  }
  core::WinPtr win;
  int64_t check_key = 0;  // the checker's (api_check.cpp), under --check
  // WIN_BASE/SIZE/... values Get_attr points into.
  void* base = nullptr;
  long size = 0;
  int disp_unit = 0, flavor = 0, model = 0;
};

namespace detail {

// A call of the C door in progress on this thread (capi/c_api.hpp's
// run_call holds one): what the C++ API makes meanwhile is the C door's to
// account for under --check (capi/c_check_resource.cpp), not this API's
// own ledger (api_check.cpp).
struct CDoorCall {
  CDoorCall() { ++depth; }
  ~CDoorCall() { --depth; }
  CDoorCall(const CDoorCall&) = delete;
  CDoorCall& operator=(const CDoorCall&) = delete;
  static thread_local int depth;
};

// A communicator of the core. Exactly one handle is made per core
// communicator (when the API creates or adopts it); its destructor drops the
// communicator's attributes without running callbacks once the last lumpi
// handle is gone, as a communicator never freed cannot be reached again.
struct CommHandle {
  explicit CommHandle(core::CommPtr c);
  ~CommHandle();
  core::CommPtr comm;
  int64_t check_key = 0;  // the checker's (api_check.cpp), under --check
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
  static Message message(std::shared_ptr<MessageHandle> h, bool no_proc) {
    Message m;
    m.h_ = std::move(h);
    m.no_proc_ = no_proc;
    return m;
  }
  static Group group(std::vector<int> world_ranks, int my_world_rank) {
    return Group(std::move(world_ranks), my_world_rank);
  }
};

// Datatypes (api_datatype.cpp): one handle table for both doors (the C
// API's MPI_Datatype is the Datatype's number, capi/mpi.h). The core
// object of t; ERR_TYPE naming `what` in func for DATATYPE_NULL, a freed
// handle or a number that is no datatype. usable_type: also committed and
// not freed (what communication and packing need).
core::TypePtr type_of(const Datatype& t, std::string_view func, std::string_view what = "datatype");
core::TypePtr usable_type(const Datatype& t, std::string_view func, std::string_view what = "datatype");
// A new handle for t (reuse: the lowest freed number, as the C door
// wants); handle_of gives a predefined type its constant.
Datatype add_type(core::TypePtr t, bool reuse = false);
Datatype handle_of(const core::TypePtr& t);
void forget_type(const Datatype& t);  // after Free; no-op for the predefined ones

// The usable core communicator of c, raising ERR_COMM naming func when c is
// COMM_NULL, freed or still pending.
core::Comm& core_of(const Comm& c, std::string_view func);
// MPI_Comm_dup of c (any class) with its attributes copied, for each
// class's Dup to wrap.
std::shared_ptr<CommHandle> dup_handle(const Comm& c, const char* func);

// A Request for a pending core operation that moves no user data (MPI_Comm_idup
// in the C API): Wait/Test complete it with an empty status; errors go
// under comm's handler as func.
Request request_of(core::CommPtr comm, std::shared_ptr<core::Request> req, const char* func);
// A persistent request over p for a door with datatypes of its own (the C
// API): message(func) makes a send's message at each start (it may raise,
// and then nothing starts); a receive's message is unpacked into room
// (ERR_TRUNCATE if it does not fit).
Prequest prequest_of(const Comm& self, core::PersistentPtr p, std::function<core::Body(const char* func)> message,
                     std::shared_ptr<core::TypedBuffer> room, const char* func);
// ---- point-to-point on packed bytes (api_p2p.cpp): the one path of both
// doors. The C++ door resolves (buf, count, Datatype) and the C door
// (buf, count, MPI_Datatype) to a core::TypedBuffer; from there on, sends,
// receives and their statuses are these functions'. Sizes are size_t: a
// message may hold more than INT_MAX bytes (count x extent; MPI-3.1 §3.2.2
// counts elements). Errors go under self's handler as func.
enum class Mode { Standard, Buffered, Synchronous, Ready };
// dest and tag are checked, then a buffered send's room, before anything is sent.
void send(const Comm& self, core::TypedBuffer& b, int dest, int tag, Mode m, const char* func);
Request isend(const Comm& self, core::TypedBuffer& b, int dest, int tag, Mode m, const char* func);
// b's packed bytes as a message body: a type with holes packs straight into
// it (the user's memory is read once; the transport sends it without a copy).
core::Body body_of(core::TypedBuffer& b, std::string_view func);
// The message is unpacked from its body into b; ERR_TRUNCATE if it does not fit.
Status recv(const Comm& self, core::TypedBuffer& b, int source, int tag, const char* func);
Request irecv(const Comm& self, std::shared_ptr<core::TypedBuffer> b, int source, int tag, const char* func);
// out's bytes are taken before the receive lands in `in` (Sendrecv_replace
// passes the same buffer's two typed views).
Status sendrecv(const Comm& self, core::TypedBuffer& out, int dest, int sendtag, core::TypedBuffer& in, int source,
                int recvtag, const char* func);

// The core communicator request r was started on; null for REQUEST_NULL.
const core::Comm* comm_of(const Request& r);
// Blocks until one of the active requests among rs could complete (done,
// or ended in an error), without completing it: the sleep between two test
// rounds of a Waitany or Waitsome. An interrupt raises as func under the
// first active request's communicator's handler.
void await_any(const std::vector<const Request*>& rs, const char* func);

// The attributes of oldcomm as copied by the copy callbacks, for Dup to
// attach to the new communicator (callbacks run before any communication).
using AttrCopies = core::attr::Copies;
AttrCopies copy_attrs(const Comm& oldcomm);
void attach_attrs(const core::Comm& newcomm, const AttrCopies& copies);
// Runs the delete callbacks of every attribute of c and drops them; a
// failing callback is an error of `func`, the call that freed c (Free, or
// Finalize for COMM_SELF: the C door runs it before its leak check).
void delete_all_attrs(Comm& c, const char* func);

}  // namespace detail
}  // namespace lumpi
