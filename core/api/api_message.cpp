// core/api/api_message.cpp: matched probe and receive (MPI-3.1 §3.8.2,
// §3.8.3): Comm::Mprobe and Comm::Improbe take the matched message out of
// the communicator's queue (core::Comm::mprobe, improbe), so no other
// receive or probe can match it; Message::Recv and Message::Irecv copy it
// into the buffer, unpacked by any committed datatype (ERR_TRUNCATE if it does not fit, the message consumed
// all the same, as a receive's would be). A probe from PROC_NULL gives
// MESSAGE_NO_PROC, whose receive completes at once with source PROC_NULL.
#include "core/api/api_detail.hpp"
#include "core/check/signature.hpp"
#include "core/engine/request.hpp"

namespace lumpi {

using detail::Access;
using detail::guarded;

namespace detail {
// A matched message: the communicator it was probed on (its error handler)
// and the message, until a receive takes it.
struct MessageHandle {
  ~MessageHandle() {  // inside MPI, as every handle (handles.hpp)
    core::InMpi in_mpi;
    message.reset();
    owner.reset();
    comm.reset();
  }
  core::CommPtr comm;
  std::shared_ptr<CommHandle> owner;
  std::optional<core::Received> message;
};
}  // namespace detail

extern const Message MESSAGE_NULL = Message();
extern const Message MESSAGE_NO_PROC = Access::message(nullptr, true);

namespace {

Message message_of(const Comm& self, core::Received m) {
  if (m.status.source == core::PROC_NULL) return MESSAGE_NO_PROC;
  auto h = std::make_shared<detail::MessageHandle>();
  h->comm = Access::handle(self)->comm;
  h->owner = Access::handle(self);
  h->message = std::move(m);
  return Access::message(std::move(h), false);
}

// Receives the message of h into (buf, count, type): its status. The
// arguments are checked first; then the message is taken, even when it
// does not fit.
Status receive(detail::MessageHandle& h, void* buf, int count, const Datatype& type, const char* func) {
  detail::ApiCall in(func);
  try {
    core::TypedBuffer b = detail::typed_bytes(buf, count, type, func);
    if (!h.message) detail::fail(ERR_REQUEST, func, "the message was received already (through a copy of its handle)");
    core::Received m = std::move(*h.message);
    h.message.reset();
    core::check::check_matched(*h.comm, func, {b.count(), b.type()}, m);
    return detail::status_of(m.status, core::copy_out(m.body, b, func));
  } catch (const core::Error& e) {
    detail::deliver(h.comm.get(), detail::to_exception(e), &h.owner);
  } catch (const Exception& e) {
    detail::deliver(h.comm.get(), e, &h.owner);
  }
}

// The status of MESSAGE_NO_PROC's receive (the buffer checked all the same).
Status no_proc(void* buf, int count, const Datatype& type, const char* func) {
  detail::typed_bytes(buf, count, type, func);
  Status s;
  s.Set_source(PROC_NULL);
  return s;
}

}  // namespace

Message Comm::Mprobe(int source, int tag, Status& status) const {
  return guarded(*this, "MPI_Mprobe", [&](core::Comm& c) {
    core::Received m = c.mprobe(source, tag);
    status = detail::status_of(m.status, m.status.bytes);
    return message_of(*this, std::move(m));
  });
}

Message Comm::Mprobe(int source, int tag) const {
  Status ignored;
  return Mprobe(source, tag, ignored);
}

bool Comm::Improbe(int source, int tag, Message& message, Status& status) const {
  return guarded(*this, "MPI_Improbe", [&](core::Comm& c) {
    std::optional<core::Received> m = c.improbe(source, tag);
    if (!m) return false;
    status = detail::status_of(m->status, m->status.bytes);
    message = message_of(*this, std::move(*m));
    return true;
  });
}

bool Comm::Improbe(int source, int tag, Message& message) const {
  Status ignored;
  return Improbe(source, tag, message, ignored);
}

void Message::Recv(void* buf, int count, const Datatype& type, Status& status) {
  const char* func = "MPI_Mrecv";
  if (Is_null()) detail::fail(ERR_REQUEST, func, "message is MESSAGE_NULL");
  if (no_proc_) {
    status = no_proc(buf, count, type, func);
  } else {
    std::shared_ptr<detail::MessageHandle> h = h_;
    status = receive(*h, buf, count, type, func);
  }
  *this = MESSAGE_NULL;
}

void Message::Recv(void* buf, int count, const Datatype& type) {
  Status ignored;
  Recv(buf, count, type, ignored);
}

Request Message::Irecv(void* buf, int count, const Datatype& type) {
  const char* func = "MPI_Imrecv";
  if (Is_null()) detail::fail(ERR_REQUEST, func, "message is MESSAGE_NULL");
  core::CommPtr comm = h_ ? h_->comm : nullptr;
  Status s = no_proc_ ? no_proc(buf, count, type, func) : receive(*h_, buf, count, type, func);
  *this = MESSAGE_NULL;
  core::Status done{s.Get_source(), s.Get_tag(), 0, s.Bytes()};
  return detail::request_of(std::move(comm), core::Request::done(done), func);
}

}  // namespace lumpi
