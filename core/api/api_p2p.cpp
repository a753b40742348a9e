// core/api/api_p2p.cpp: the C++ API's point-to-point operations (Send,
// Bsend, Ssend, Rsend and their nonblocking and persistent forms, Recv,
// Irecv, Sendrecv, Probe ...), Attach_buffer and Detach_buffer, Status and
// Request, over core::Comm's send/isend/recv/irecv/probe. A message carries
// its type's packed bytes (core::TypedBuffer): the user's memory itself for
// a dense type, a staging copy packed and unpacked for one with holes.
//
// The send modes (§3.4): a standard send is eager (queued and complete at
// once), a ready send is a standard one (a correct ready-mode program
// behaves the same), a synchronous one completes when the receive has
// matched, and a buffered one needs room in the attached buffer
// (core/comm/bsend.hpp, the rule the C API shares), checked before
// anything is sent.
//
// This file and api_message.cpp are the API's only ones that touch message
// bodies: body_of makes one from a buffer, and core::copy_out
// (engine/request.hpp) lands one in a buffer.
#include <functional>

#include "core/api/api_detail.hpp"
#include "core/check/signature.hpp"
#include "core/comm/bsend.hpp"
#include "core/comm/persistent.hpp"
#include "core/engine/request.hpp"

namespace lumpi {

using detail::Access;
using detail::guarded;

namespace {

// ---- message bodies -------------------------------------------------------------

core::Body body_of(const void* buf, size_t n) {
  return core::Body(n ? std::string(static_cast<const char*>(buf), n) : std::string());
}

}  // namespace

// A dense buffer is copied as it is; a type with holes packs into storage
// the body then owns (the transport hands it to ZeroMQ without a copy).
core::Body detail::body_of(core::TypedBuffer& b, std::string_view func) {
  if (!b.staged()) return ::lumpi::body_of(b.pack(func), b.size());
  std::unique_ptr<char[]> bytes(new char[b.size()]);
  b.pack_into(bytes.get(), func);
  char* at = bytes.release();
  return core::Body::adopt(at, b.size(), at, [](void* p) { delete[] static_cast<char*>(p); });
}

Status detail::status_of(const core::Status& s, size_t bytes, bool cancelled) {
  Status out;
  out.Set_source(s.source);
  out.Set_tag(s.tag);
  out.Set_error(s.error);
  out.Set_bytes(bytes);
  out.Set_cancelled(cancelled);
  return out;
}

namespace {

using core::copy_out;
using detail::status_of;

}  // namespace

// ---- Status -------------------------------------------------------------------------

int Status::Get_count(const Datatype& type) const {
  const size_t size = size_t(type.Get_size());
  if (size == 0) return 0;
  return bytes_ % size ? UNDEFINED : int(bytes_ / size);
}

void Status::Set_elements(const Datatype& type, int count) {
  const char* func = "MPI_Status_set_elements";
  if (count < 0) detail::fail(ERR_COUNT, func, "count " + std::to_string(count) + " is negative");
  bytes_ = size_t(detail::guarded([&] {
    core::TypePtr p = detail::type_of(type, func);
    p->check_committed(func);
    return p->bytes_of_elements(count);
  }));
}

// ---- Request ------------------------------------------------------------------------

namespace detail {

// A core request, and for a receive the buffer its message goes to. A
// persistent request (core/comm/persistent.hpp) holds its operation while
// active; a send's message() packs the buffer at each start.
struct RequestHandle {
  ~RequestHandle() {  // inside MPI, as every handle (handles.hpp): a pending receive leaves the engine
    core::InMpi in_mpi;
    if (check_key) note_request_dropped(check_key, bool(persistent), !inactive() && !done);
    if (auto* w = check_key ? buffer_watch() : nullptr) w->forget(check_key);  // its buffers may go too
    persistent.reset();
    req.reset();
    owner.reset();
    comm.reset();
  }
  core::CommPtr comm;  // for its error handler, and kept alive while pending
  std::shared_ptr<CommHandle> owner;  // the C++ handle it was started on (user handlers)
  std::shared_ptr<core::Request> req;  // an ordinary request's operation
  core::PersistentPtr persistent;      // a persistent request
  std::function<core::Body(const char* func)> message;  // a persistent send's
  const char* func = "MPI_Wait";
  std::shared_ptr<core::TypedBuffer> room;  // a receive's buffer
  bool done = false;
  // Its end is known without completing it: Get_status found it complete,
  // or it was cancelled (§3.8.4 names Request_free as one way to finish a
  // cancelled request). Freeing it is then no finding of the checker.
  bool settled = false;
  int64_t check_key = 0;  // the checker's (api_check.cpp), under --check
  Status status;

  // The pending or complete operation; null while a persistent request is inactive.
  const std::shared_ptr<core::Request>& operation() const { return persistent ? persistent->request() : req; }
  bool inactive() const { return !operation(); }
  // Records the completion of op, this handle's operation (copying a
  // received message out), once. A message too long for room raises
  // ERR_TRUNCATE and leaves it not done, so every handle that completes it
  // raises the error, not an empty status.
  void finish(core::Request& op) {
    if (done) return;
    size_t bytes = op.status().bytes;
    if (room && !op.cancelled()) bytes = copy_out(op.body(), *room, func);
    status = status_of(op.status(), bytes, op.cancelled());
    done = true;
  }
};

}  // namespace detail

namespace detail {
Request request_of(core::CommPtr comm, std::shared_ptr<core::Request> req, const char* func) {
  auto h = std::make_shared<RequestHandle>();
  h->comm = std::move(comm);
  h->req = std::move(req);
  h->func = func;
  h->check_key = note_request(*h, func);
  return Access::request(std::move(h));
}

void watch_buffers(const Request& r, bool persistent) {
  const auto& h = Access::handle(r);
  if (auto* w = h && h->check_key ? buffer_watch() : nullptr) {
    w->watch(h->check_key);
    if (persistent) w->rest(h->check_key);
  }
}

void request_state(const RequestHandle& h, bool& persistent, bool& active) {
  persistent = bool(h.persistent);
  active = !h.inactive() && !(h.done && !h.persistent);
}

const core::Comm* comm_of(const Request& r) {
  const auto& h = Access::handle(r);
  return h ? h->comm.get() : nullptr;
}
}  // namespace detail

extern const Request REQUEST_NULL = Request();

namespace {

// Runs f on h as the call func (detail::ApiCall), delivering errors under
// h's communicator's error handler.
template <class F>
auto on_request(detail::RequestHandle& h, const char* func, F&& f) -> decltype(f()) {
  detail::ApiCall in(func);
  try {
    return f();
  } catch (const core::Error& e) {
    detail::deliver(h.comm.get(), detail::to_exception(e), h.owner ? &h.owner : nullptr);
  } catch (const Exception& e) {
    detail::deliver(h.comm.get(), e, h.owner ? &h.owner : nullptr);
  }
}

std::shared_ptr<detail::RequestHandle> new_handle(const Comm& self, const char* func,
                                                  std::shared_ptr<core::TypedBuffer> room) {
  auto h = std::make_shared<detail::RequestHandle>();
  h->comm = Access::handle(self)->comm;
  h->owner = Access::handle(self);
  h->func = func;
  h->room = std::move(room);
  h->check_key = detail::note_request(*h, func);
  return h;
}

// A request on self's communicator; a receive's message lands in room.
Request make_request(const Comm& self, std::shared_ptr<core::Request> r, const char* func,
                     std::shared_ptr<core::TypedBuffer> room = nullptr) {
  auto h = new_handle(self, func, std::move(room));
  h->req = std::move(r);
  return Access::request(std::move(h));
}

// True when h is complete (waiting for it if block), its status recorded.
bool complete(detail::RequestHandle& h, bool block) {
  if (h.inactive()) {
    h.status = Status();
    return true;
  }
  return on_request(h, block ? "MPI_Wait" : "MPI_Test", [&] {
    core::Request& op = *h.operation();
    auto* w = h.check_key ? detail::buffer_watch() : nullptr;
    if (w) w->unlanded(h.check_key);  // its message lands only in finish, below
    if (!h.done) {
      if (block)
        op.wait();
      else if (!op.test())
        return false;
    }
    h.finish(op);
    if (w) w->landed(h.check_key);
    return true;
  });
}

// After completion through r: a persistent request turns inactive, others null.
void retire(std::shared_ptr<detail::RequestHandle>& h, Status& status) {
  status = h->status;
  if (auto* w = h->check_key ? detail::buffer_watch() : nullptr) w->completed(h->check_key);
  if (h->persistent) {
    h->persistent->completed();
  } else {
    detail::note_request_done(h->check_key);
    h.reset();
  }
}

// Completes h (waiting if block) and retires it; an operation that ends in
// an error is over too, so the request is retired before the error goes on
// (as MPICH and Open MPI free it): waiting again cannot raise it twice.
bool complete_and_retire(std::shared_ptr<detail::RequestHandle>& h, Status& status, bool block) {
  try {
    if (!complete(*h, block)) return false;
  } catch (...) {
    Status dropped;
    retire(h, dropped);
    throw;
  }
  retire(h, status);
  return true;
}

}  // namespace

void Request::Wait(Status& status) {
  detail::ApiCall in("MPI_Wait");
  if (!h_) {
    status = Status();
    return;
  }
  complete_and_retire(h_, status, true);
}

void Request::Wait() {
  Status ignored;
  Wait(ignored);
}

bool Request::Test(Status& status) {
  detail::ApiCall in("MPI_Test");
  if (!h_) {
    status = Status();
    return true;
  }
  return complete_and_retire(h_, status, false);
}

bool Request::Test() {
  Status ignored;
  return Test(ignored);
}

bool Request::Get_status(Status& status) const {
  detail::ApiCall in("MPI_Request_get_status");
  if (!h_ || h_->inactive()) {
    status = Status();
    return true;
  }
  if (!complete(*h_, false)) return false;
  status = h_->status;
  h_->settled = true;
  return true;
}

void Request::Cancel() const {
  if (!h_) detail::fail(ERR_REQUEST, "MPI_Cancel", "request is REQUEST_NULL");
  if (h_->inactive()) detail::fail(ERR_REQUEST, "MPI_Cancel", "the persistent request is not started");
  on_request(*h_, "MPI_Cancel", [&] { h_->operation()->cancel(); });
  h_->settled = true;
}

// An active operation still completes (§3.7.3), its message landing in the buffer.
void Request::Free() {
  if (!h_) detail::fail(ERR_REQUEST, "MPI_Request_free", "request is REQUEST_NULL");
  detail::ApiCall in("MPI_Request_free");
  std::shared_ptr<detail::RequestHandle> h = std::exchange(h_, nullptr);
  if (auto* w = h->check_key ? detail::buffer_watch() : nullptr) w->completed(h->check_key);
  detail::check_request_free(h->check_key, *h->comm, !h->settled && !h->inactive() && !h->done);
  h->check_key = 0;
  auto land = [h](core::Request* op) {
    if (op) h->finish(*op);
  };
  if (h->persistent)
    h->persistent->free(land);
  else if (!h->done)
    core::Request::let_go(h->req, land);
}

namespace {
// A persistent send's message now, as func (MPI_Start, MPI_Startall) sees it.
core::Body message_of(detail::RequestHandle& h, const char* func) { return h.message ? h.message(func) : core::Body(); }
}  // namespace

void Prequest::Start() {
  const char* func = "MPI_Start";
  if (!h_) detail::fail(ERR_REQUEST, func, "request is REQUEST_NULL");
  auto& h = *h_;
  on_request(h, func, [&] {
    h.persistent->start([&] { return message_of(h, func); }, func);
    h.done = h.settled = false;
    if (auto* w = h.check_key ? detail::buffer_watch() : nullptr) w->wake(h.check_key);
  });
}

bool Prequest::Is_active() const { return h_ && !h_->inactive(); }

void Prequest::Startall(int count, Prequest requests[]) {
  const char* func = "MPI_Startall";
  detail::ApiCall in(func);
  if (count < 0) detail::fail(ERR_COUNT, func, "count " + std::to_string(count) + " is negative");
  if (count > 0 && !requests) detail::fail(ERR_ARG, func, "requests is null");
  std::vector<core::Persistent*> ps;
  for (int i = 0; i < count; ++i) ps.push_back(requests[i].h_ ? requests[i].h_->persistent.get() : nullptr);
  detail::guarded([&] {
    core::Persistent::start_all(ps, [&](size_t i) { return message_of(*requests[i].h_, func); }, func);
  });
  for (int i = 0; i < count; ++i) {
    auto& h = *requests[i].h_;
    h.done = h.settled = false;
    if (auto* w = h.check_key ? detail::buffer_watch() : nullptr) w->wake(h.check_key);
  }
}

namespace {

void check_array(int count, const void* a, const char* func) {
  if (count < 0) detail::fail(ERR_COUNT, func, "count " + std::to_string(count) + " is negative");
  if (count > 0 && !a) detail::fail(ERR_ARG, func, "requests is null");
}

}  // namespace

void Request::Waitall(int count, Request requests[], Status statuses[]) {
  detail::ApiCall in("MPI_Waitall");
  check_array(count, requests, "MPI_Waitall");
  for (int i = 0; i < count; ++i) {
    Status s;
    requests[i].Wait(s);
    if (statuses) statuses[i] = s;
  }
}

void Request::Waitall(int count, Request requests[]) { Waitall(count, requests, nullptr); }

void detail::await_any(const std::vector<const Request*>& rs, const char* func) {
  std::vector<core::Request*> reqs;
  detail::RequestHandle* first = nullptr;
  for (const Request* r : rs) {
    auto* h = r ? Access::handle(*r).get() : nullptr;
    if (!h || h->inactive()) continue;
    if (h->done) return;  // its result waits to be taken
    if (!first) first = h;
    reqs.push_back(h->operation().get());
  }
  if (first) on_request(*first, func, [&] { core::Request::wait_any(reqs, func); });
}

// Active requests are tested in turn, null and inactive ones skipped;
// between rounds the rank sleeps until one of them can complete.
int Request::Waitany(int count, Request requests[], Status& status) {
  detail::ApiCall in("MPI_Waitany");
  check_array(count, requests, "MPI_Waitany");
  for (;;) {
    std::vector<const Request*> active;
    for (int i = 0; i < count; ++i) {
      if (requests[i].Is_null() || requests[i].h_->inactive()) continue;
      active.push_back(&requests[i]);
      if (requests[i].Test(status)) return i;
    }
    if (active.empty()) {
      status = Status();
      return UNDEFINED;
    }
    detail::await_any(active, "MPI_Waitany");
  }
}

int Request::Waitany(int count, Request requests[]) {
  Status ignored;
  return Waitany(count, requests, ignored);
}

// All complete: every request is retired and statuses are filled. Otherwise
// none is changed (a request found complete keeps its result for later).
bool Request::Testall(int count, Request requests[], Status statuses[]) {
  detail::ApiCall in("MPI_Testall");
  check_array(count, requests, "MPI_Testall");
  for (int i = 0; i < count; ++i)
    if (requests[i].h_ && !complete(*requests[i].h_, false)) return false;
  for (int i = 0; i < count; ++i) {
    Status s;
    requests[i].Wait(s);  // complete: returns at once
    if (statuses) statuses[i] = s;
  }
  return true;
}

bool Request::Testall(int count, Request requests[]) { return Testall(count, requests, nullptr); }

namespace {

bool active(const Request& r) { return !r.Is_null() && !Access::handle(r)->inactive(); }

// One round over the active requests: each that is complete now is
// completed (its index and status recorded); UNDEFINED when none is active.
int test_some(int incount, Request requests[], int indices[], Status statuses[], const char* func) {
  detail::ApiCall in(func);
  check_array(incount, requests, func);
  if (incount > 0 && !indices) detail::fail(ERR_ARG, func, "indices is null");
  int done = 0, live = 0;
  for (int i = 0; i < incount; ++i) {
    if (!active(requests[i])) continue;
    ++live;
    Status s;
    if (!requests[i].Test(s)) continue;
    indices[done] = i;
    if (statuses) statuses[done] = s;
    ++done;
  }
  return live ? done : UNDEFINED;
}

}  // namespace

bool Request::Testany(int count, Request requests[], int& index, Status& status) {
  detail::ApiCall in("MPI_Testany");
  check_array(count, requests, "MPI_Testany");
  index = UNDEFINED;
  bool any_active = false;
  for (int i = 0; i < count; ++i) {
    if (!active(requests[i])) continue;
    any_active = true;
    if (requests[i].Test(status)) {
      index = i;
      return true;
    }
  }
  if (!any_active) status = Status();
  return !any_active;
}

bool Request::Testany(int count, Request requests[], int& index) {
  Status ignored;
  return Testany(count, requests, index, ignored);
}

int Request::Waitsome(int incount, Request requests[], int indices[], Status statuses[]) {
  detail::ApiCall in("MPI_Waitsome");
  for (;;) {
    int done = test_some(incount, requests, indices, statuses, "MPI_Waitsome");
    if (done != 0) return done;
    std::vector<const Request*> rs;
    for (int i = 0; i < incount; ++i) rs.push_back(&requests[i]);
    detail::await_any(rs, "MPI_Waitsome");
  }
}

int Request::Waitsome(int incount, Request requests[], int indices[]) {
  return Waitsome(incount, requests, indices, nullptr);
}

int Request::Testsome(int incount, Request requests[], int indices[], Status statuses[]) {
  return test_some(incount, requests, indices, statuses, "MPI_Testsome");
}

int Request::Testsome(int incount, Request requests[], int indices[]) {
  return Testsome(incount, requests, indices, nullptr);
}

// ---- persistent requests (core/comm/persistent.hpp) -----------------------------------

Prequest detail::prequest_of(const Comm& self, core::PersistentPtr p, std::function<core::Body(const char*)> message,
                             std::shared_ptr<core::TypedBuffer> room, const char* func) {
  auto h = new_handle(self, func, std::move(room));
  h->persistent = std::move(p);
  h->message = std::move(message);
  return Access::prequest(std::move(h));
}

namespace {

using detail::Mode;

bool synchronous(Mode m) { return m == Mode::Synchronous; }

// A send of n bytes in mode m to dest: the destination and tag are checked
// first, then a buffered send's room (before anything is sent).
void check_mode(core::Comm& c, size_t n, int dest, int tag, Mode m, const char* func) {
  c.check_send(dest, tag, func);
  if (m == Mode::Buffered) core::check_bsend_room(n, dest, func);
}

// A buffer's side of a call, as --check's signatures take it (core/check/signature.hpp).
core::check::Side side(const core::TypedBuffer& b) { return {b.count(), b.type()}; }

// --check's local concurrency (core/check/buffer_watch.hpp), for the C++
// program's calls (the C door tells its own watch): the memory of b, read by
// a send to dest or written by a receive from it (none for PROC_NULL,
// whose communication touches no memory, MPI-3.1 §3.11), is compared with
// the pending operations' buffers, and becomes the buffers that r, the
// request the call made, watches until it completes (a persistent one's
// from each start). Each call noting buffers is one ApiCall throughout.
void note(const core::TypedBuffer& b, bool receive, int peer) {
  if (auto* w = detail::buffer_watch(); w && peer != PROC_NULL) w->note(b, receive);
}

template <class R>
R watched(R r, bool persistent = false) {
  detail::watch_buffers(r, persistent);
  return r;
}

// Send_init and its modes: each start sends the buffer as it is then; a
// buffered one needs room in the attached buffer at each start (§3.9: the
// start is the send).
Prequest send_init(const Comm& self, const void* buf, int count, const Datatype& type, int dest, int tag,
                   Mode m, const char* func) {
  return guarded(self, func, [&](core::Comm&) {
    auto b = std::make_shared<core::TypedBuffer>(detail::typed_bytes(buf, count, type, func));
    note(*b, false, dest);
    auto p = core::Persistent::send_init(Access::handle(self)->comm, dest, tag, synchronous(m),
                                         m == Mode::Buffered, func);
    p->set_signature(core::check::p2p_signature(*Access::handle(self)->comm, func, side(*b), false));
    auto message = [b, m, dest](const char* start) {
      if (m == Mode::Buffered) core::check_bsend_room(b->size(), dest, start);
      return detail::body_of(*b, start);
    };
    return watched(detail::prequest_of(self, std::move(p), message, nullptr, func), true);
  });
}

// count elements of type at buf as packed bytes, its errors under self's handler.
core::TypedBuffer typed(const Comm& self, const void* buf, int count, const Datatype& type, const char* func,
                        const char* buf_name = "buf", const char* count_name = "count") {
  return guarded(self, func, [&](core::Comm&) { return detail::typed_bytes(buf, count, type, func, buf_name, count_name); });
}

void send(const Comm& self, const void* buf, int count, const Datatype& type, int dest, int tag, Mode m,
          const char* func) {
  detail::ApiCall in(func);
  core::TypedBuffer b = typed(self, buf, count, type, func);
  note(b, false, dest);
  detail::send(self, b, dest, tag, m, func);
}

Request isend(const Comm& self, const void* buf, int count, const Datatype& type, int dest, int tag, Mode m,
              const char* func) {
  detail::ApiCall in(func);
  core::TypedBuffer b = typed(self, buf, count, type, func);
  note(b, false, dest);
  return watched(detail::isend(self, b, dest, tag, m, func));
}

}  // namespace

void detail::send(const Comm& self, core::TypedBuffer& b, int dest, int tag, Mode m, const char* func) {
  guarded(self, func, [&](core::Comm& c) {
    check_mode(c, b.size(), dest, tag, m, func);
    core::check::CallSignatures sigs(c, func, side(b), {});
    c.send(detail::body_of(b, func), dest, tag, synchronous(m), m == Mode::Buffered);
  });
}

Request detail::isend(const Comm& self, core::TypedBuffer& b, int dest, int tag, Mode m, const char* func) {
  return guarded(self, func, [&](core::Comm& c) {
    check_mode(c, b.size(), dest, tag, m, func);
    core::check::CallSignatures sigs(c, func, side(b), {});
    return make_request(self, c.isend(detail::body_of(b, func), dest, tag, synchronous(m), m == Mode::Buffered),
                        func);
  });
}

Status detail::recv(const Comm& self, core::TypedBuffer& b, int source, int tag, const char* func) {
  return guarded(self, func, [&](core::Comm& c) {
    core::check::CallSignatures sigs(c, func, {}, side(b));
    core::Received r = c.recv(source, tag);
    return status_of(r.status, copy_out(r.body, b, func));
  });
}

Request detail::irecv(const Comm& self, std::shared_ptr<core::TypedBuffer> b, int source, int tag, const char* func) {
  return guarded(self, func, [&](core::Comm& c) {
    core::check::CallSignatures sigs(c, func, {}, side(*b));
    return make_request(self, c.irecv(source, tag), func, std::move(b));
  });
}

Status detail::sendrecv(const Comm& self, core::TypedBuffer& out, int dest, int sendtag, core::TypedBuffer& in,
                        int source, int recvtag, const char* func) {
  return guarded(self, func, [&](core::Comm& c) {
    c.check_send(dest, sendtag, func);
    if (&out != &in && out.overlaps(in))  // one TypedBuffer for both is MPI_Sendrecv_replace
      detail::fail(ERR_BUFFER, func,
                   "sendbuf and recvbuf overlap; MPI-3.1 §3.10 wants them disjoint (MPI_Sendrecv_replace "
                   "sends and receives in one buffer)");
    core::check::CallSignatures sigs(c, func, side(out), side(in));
    core::Body message = detail::body_of(out, func);  // taken before the receive lands (Sendrecv_replace)
    auto r = c.irecv(source, recvtag);  // posted first: a send to oneself matches it
    c.send(std::move(message), dest, sendtag, false);
    r->wait();
    return status_of(r->status(), r->cancelled() ? 0 : copy_out(r->body(), in, func));
  });
}

Prequest Comm::Send_init(const void* buf, int count, const Datatype& type, int dest, int tag) const {
  return send_init(*this, buf, count, type, dest, tag, Mode::Standard, "MPI_Send_init");
}

Prequest Comm::Bsend_init(const void* buf, int count, const Datatype& type, int dest, int tag) const {
  return send_init(*this, buf, count, type, dest, tag, Mode::Buffered, "MPI_Bsend_init");
}

Prequest Comm::Ssend_init(const void* buf, int count, const Datatype& type, int dest, int tag) const {
  return send_init(*this, buf, count, type, dest, tag, Mode::Synchronous, "MPI_Ssend_init");
}

Prequest Comm::Rsend_init(const void* buf, int count, const Datatype& type, int dest, int tag) const {
  return send_init(*this, buf, count, type, dest, tag, Mode::Ready, "MPI_Rsend_init");
}

Prequest Comm::Recv_init(void* buf, int count, const Datatype& type, int source, int tag) const {
  const char* func = "MPI_Recv_init";
  return guarded(*this, func, [&](core::Comm&) {
    auto b = std::make_shared<core::TypedBuffer>(detail::typed_bytes(buf, count, type, func));
    note(*b, true, source);
    auto p = core::Persistent::recv_init(Access::handle(*this)->comm, source, tag, func);
    p->set_signature(core::check::p2p_signature(*Access::handle(*this)->comm, func, side(*b), true));
    return watched(detail::prequest_of(*this, std::move(p), nullptr, std::move(b), func), true);
  });
}


// ---- blocking and nonblocking sends and receives --------------------------------------

void Comm::Send(const void* buf, int count, const Datatype& type, int dest, int tag) const {
  send(*this, buf, count, type, dest, tag, Mode::Standard, "MPI_Send");
}

void Comm::Bsend(const void* buf, int count, const Datatype& type, int dest, int tag) const {
  send(*this, buf, count, type, dest, tag, Mode::Buffered, "MPI_Bsend");
}

void Comm::Ssend(const void* buf, int count, const Datatype& type, int dest, int tag) const {
  send(*this, buf, count, type, dest, tag, Mode::Synchronous, "MPI_Ssend");
}

void Comm::Rsend(const void* buf, int count, const Datatype& type, int dest, int tag) const {
  send(*this, buf, count, type, dest, tag, Mode::Ready, "MPI_Rsend");
}

Request Comm::Isend(const void* buf, int count, const Datatype& type, int dest, int tag) const {
  return isend(*this, buf, count, type, dest, tag, Mode::Standard, "MPI_Isend");
}

Request Comm::Ibsend(const void* buf, int count, const Datatype& type, int dest, int tag) const {
  return isend(*this, buf, count, type, dest, tag, Mode::Buffered, "MPI_Ibsend");
}

Request Comm::Issend(const void* buf, int count, const Datatype& type, int dest, int tag) const {
  return isend(*this, buf, count, type, dest, tag, Mode::Synchronous, "MPI_Issend");
}

Request Comm::Irsend(const void* buf, int count, const Datatype& type, int dest, int tag) const {
  return isend(*this, buf, count, type, dest, tag, Mode::Ready, "MPI_Irsend");
}

// ---- the attached buffer (core/comm/bsend.hpp) ------------------------------------------

void Attach_buffer(void* buffer, int size) {
  detail::guarded([&] { core::attach_buffer(buffer, size, "MPI_Buffer_attach"); });
}

int Detach_buffer(void*& buffer) {
  detail::ApiCall in("MPI_Buffer_detach");
  core::AttachedBuffer a = core::detach_buffer();
  buffer = a.buf;
  return a.size;
}

void Comm::Recv(void* buf, int count, const Datatype& type, int source, int tag,
                Status& status) const {
  detail::ApiCall in("MPI_Recv");
  core::TypedBuffer b = typed(*this, buf, count, type, "MPI_Recv");
  note(b, true, source);
  status = detail::recv(*this, b, source, tag, "MPI_Recv");
}

void Comm::Recv(void* buf, int count, const Datatype& type, int source, int tag) const {
  Status ignored;
  Recv(buf, count, type, source, tag, ignored);
}

Request Comm::Irecv(void* buf, int count, const Datatype& type, int source, int tag) const {
  detail::ApiCall in("MPI_Irecv");
  auto b = std::make_shared<core::TypedBuffer>(typed(*this, buf, count, type, "MPI_Irecv"));
  note(*b, true, source);
  return watched(detail::irecv(*this, std::move(b), source, tag, "MPI_Irecv"));
}

void Comm::Sendrecv(const void* sendbuf, int sendcount, const Datatype& sendtype, int dest,
                    int sendtag, void* recvbuf, int recvcount, const Datatype& recvtype,
                    int source, int recvtag, Status& status) const {
  const char* func = "MPI_Sendrecv";
  detail::ApiCall call(func);
  core::TypedBuffer out = typed(*this, sendbuf, sendcount, sendtype, func, "sendbuf", "sendcount");
  core::TypedBuffer in = typed(*this, recvbuf, recvcount, recvtype, func, "recvbuf", "recvcount");
  note(out, false, dest);
  note(in, true, source);
  status = detail::sendrecv(*this, out, dest, sendtag, in, source, recvtag, func);
}

void Comm::Sendrecv(const void* sendbuf, int sendcount, const Datatype& sendtype, int dest,
                    int sendtag, void* recvbuf, int recvcount, const Datatype& recvtype,
                    int source, int recvtag) const {
  Status ignored;
  Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
           recvtag, ignored);
}

void Comm::Sendrecv_replace(void* buf, int count, const Datatype& type, int dest, int sendtag,
                            int source, int recvtag, Status& status) const {
  // The outgoing body is a copy of buf, taken before the receive lands there.
  const char* func = "MPI_Sendrecv_replace";
  detail::ApiCall in(func);
  core::TypedBuffer b = typed(*this, buf, count, type, func);
  note(b, true, source);
  status = detail::sendrecv(*this, b, dest, sendtag, b, source, recvtag, func);
}

void Comm::Probe(int source, int tag, Status& status) const {
  status = guarded(*this, "MPI_Probe", [&](core::Comm& c) {
    core::Status s = c.probe(source, tag);
    return status_of(s, s.bytes);
  });
}

void Comm::Probe(int source, int tag) const {
  Status ignored;
  Probe(source, tag, ignored);
}

bool Comm::Iprobe(int source, int tag, Status& status) const {
  return guarded(*this, "MPI_Iprobe", [&](core::Comm& c) {
    std::optional<core::Status> s = c.iprobe(source, tag);
    if (!s) return false;
    status = status_of(*s, s->bytes);
    return true;
  });
}

bool Comm::Iprobe(int source, int tag) const {
  Status ignored;
  return Iprobe(source, tag, ignored);
}

}  // namespace lumpi
