// capi/c_message.cpp: matched probe and receive (MPI-3.1 §3.8.2, §3.8.3):
// MPI_Mprobe and MPI_Improbe take the matched message out of the
// communicator's queue (core Comm::mprobe), so no other receive or probe
// can take it; MPI_Mrecv and MPI_Imrecv unpack it into the buffer with the
// receive's datatype. The message lives in a handle table until then.
// MPI_MESSAGE_NO_PROC is the message of a probe from MPI_PROC_NULL: its
// receive completes at once with source MPI_PROC_NULL and no data.
#include <map>
#include <optional>

#include "capi/c_api.hpp"
#include "capi/c_check.hpp"

using namespace lumpi;
using namespace lumpi::capi;

namespace {

struct Matched {
  core::CommPtr comm;
  core::Received message;
};

std::map<int, Matched>& messages() {
  static std::map<int, Matched> t;
  return t;
}

MPI_Message add_message(core::CommPtr c, core::Received m) {
  if (m.status.source == core::PROC_NULL) return MPI_MESSAGE_NO_PROC;
  int id = messages().empty() ? MPI_MESSAGE_NO_PROC + 1 : messages().rbegin()->first + 1;
  messages().emplace(id, Matched{std::move(c), std::move(m)});
  return id;
}

// As to_c: MPI_ERROR is not a single-status call's to write (§3.2.5).
void status_out(const core::Status& s, MPI_Status* out) {
  if (!out) return;
  out->MPI_SOURCE = s.source;
  out->MPI_TAG = s.tag;
  out->lumpi_cancelled = 0;
  out->lumpi_bytes = (long long)s.bytes;
}

// Receives *message into (buf, count, t): its status; *message becomes
// MPI_MESSAGE_NULL. MPI_ERR_TRUNCATE when the message is longer than the
// buffer (the message is consumed all the same, as a receive's would be).
core::Status receive(void* buf, int count, MPI_Datatype t, MPI_Message* message, const char* f) {
  check_out(message, f, "message");
  TypeBytes b(buf, count, t, f);
  if (*message == MPI_MESSAGE_NO_PROC) {
    *message = MPI_MESSAGE_NULL;
    return core::Status{core::PROC_NULL, core::ANY_TAG, 0, 0};
  }
  auto it = messages().find(*message);
  if (it == messages().end())
    fail(MPI_ERR_REQUEST, f, "message " + std::to_string(*message) + " is not a matched message (or was received)");
  Matched m = std::move(it->second);
  messages().erase(it);
  *message = MPI_MESSAGE_NULL;
  core::check::check_matched(*m.comm, f, {count, type_of(t, f)}, m.message);
  core::copy_out(m.message.body, b.room(), f);
  return m.message.status;
}

}  // namespace

extern "C" {

LUMPI_PMPI(Mprobe);
int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status) {
  const char* f = "MPI_Mprobe";
  return call(comm, f, [&] {
    check_out(message, f, "message");
    core::CommPtr c = core_comm(comm, f);
    core::Received m = c->mprobe(source, tag);
    status_out(m.status, status);
    *message = add_message(c, std::move(m));
  });
}

LUMPI_PMPI(Improbe);
int MPI_Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message, MPI_Status* status) {
  const char* f = "MPI_Improbe";
  return call(comm, f, [&] {
    check_out(flag, f, "flag");
    check_out(message, f, "message");
    core::CommPtr c = core_comm(comm, f);
    std::optional<core::Received> m = c->improbe(source, tag);
    *flag = m.has_value();
    if (!m) return;
    status_out(m->status, status);
    *message = add_message(c, std::move(*m));
  });
}

LUMPI_PMPI(Mrecv);
int MPI_Mrecv(void* buf, int count, MPI_Datatype t, MPI_Message* message, MPI_Status* status) {
  const char* f = "MPI_Mrecv";
  return call(f, [&] { status_out(receive(buf, count, t, message, f), status); });
}

LUMPI_PMPI(Imrecv);
int MPI_Imrecv(void* buf, int count, MPI_Datatype t, MPI_Message* message, MPI_Request* request) {
  const char* f = "MPI_Imrecv";
  return call(f, [&] {
    check_out(request, f, "request");
    check_out(message, f, "message");
    core::CommPtr c = *message > MPI_MESSAGE_NO_PROC && messages().count(*message)
                          ? messages()[*message].comm
                          : core_comm(MPI_COMM_SELF, f);
    core::Status s = receive(buf, count, t, message, f);
    *request = add_request(detail::request_of(c, core::Request::done(s), f));
    buffers().landed(*request);  // --check: the message landed in this call, before the buffer was watched
  });
}

}  // extern "C"
