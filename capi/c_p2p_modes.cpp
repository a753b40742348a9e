// capi/c_p2p_modes.cpp: the attached buffer of the buffered mode
// (MPI_Buffer_attach/detach, MPI-3.1 §3.6) and persistent requests in every
// mode (§3.9: MPI_Send_init ... MPI_Recv_init, MPI_Start, MPI_Startall):
// core's one implementation (core/comm/persistent.hpp) behind the C++ API's
// Prequest, with the C API's datatypes packed and unpacked by the core's
// pack engine. The send modes' blocking and nonblocking calls are
// c_p2p.cpp's.
//
// lumpi's standard send is eager: it copies the message into the engine's
// queue and completes at once. A ready send is therefore a standard send
// (§3.4 allows it: a correct ready-mode program behaves the same). A
// buffered send must find room in the attached buffer (its size plus
// MPI_BSEND_OVERHEAD, else MPI_ERR_BUFFER naming both sizes, before
// anything is sent); the message leaves the buffer as soon as it is queued,
// so detaching never waits. That rule and the attached buffer are the
// core's (core/comm/bsend.hpp), which the C++ API shares.
#include <algorithm>
#include <vector>

#include "core/comm/bsend.hpp"
#include "capi/c_api.hpp"
#include "capi/c_check.hpp"

using namespace lumpi;
using namespace lumpi::capi;

static_assert(MPI_BSEND_OVERHEAD == core::BSEND_OVERHEAD && MPI_BSEND_OVERHEAD == lumpi::BSEND_OVERHEAD);

namespace {

using detail::Mode;

// MPI_Send_init and its modes, any committed datatype: each start packs the
// buffer as it is then, and a buffered send must find room in the attached
// buffer at each start (§3.9: MPI_Start is the send). A ready send is a
// standard send (above).
int send_init(const void* buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request* r,
              Mode mode, const char* f) {
  return call(comm, f, [&] {
    check_out(r, f, "request");
    Comm& c = comm_of(comm, f);
    auto b = std::make_shared<TypeBytes>(buf, count, t, f);
    b->sent(dest);  // the buffer noted now: each start watches it till completion (core/check/buffer_watch.hpp)
    auto p = core::Persistent::send_init(core_comm(comm, f), dest, tag, mode == Mode::Synchronous,
                                         mode == Mode::Buffered, f);
    p->set_signature(p2p_signature(comm, f, side(count, t), false));
    auto message = [b, mode, dest](const char* func) {
      if (mode == Mode::Buffered) core::check_bsend_room(b->size(), dest, func);
      return detail::body_of(b->sent(), func);
    };
    *r = add_persistent(detail::prequest_of(c, std::move(p), message, nullptr, f));
  });
}

}  // namespace

extern "C" {

LUMPI_PMPI(Buffer_attach);
int MPI_Buffer_attach(void* buffer, int size) {
  const char* f = "MPI_Buffer_attach";
  return call(f, [&] { core::attach_buffer(buffer, size, f); });
}

// Gives back the attached buffer (NULL and 0 if none is attached).
LUMPI_PMPI(Buffer_detach);
int MPI_Buffer_detach(void* buffer_addr, int* size) {
  const char* f = "MPI_Buffer_detach";
  return call(f, [&] {
    check_out(buffer_addr, f, "buffer_addr");
    check_out(size, f, "size");
    core::AttachedBuffer a = core::detach_buffer();
    *static_cast<void**>(buffer_addr) = a.buf;
    *size = a.size;
  });
}

// ---- persistent requests (core/comm/persistent.hpp) -------------------------------------

LUMPI_PMPI(Send_init);
int MPI_Send_init(const void* buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request* r) {
  return send_init(buf, count, t, dest, tag, comm, r, Mode::Standard, "MPI_Send_init");
}

LUMPI_PMPI(Rsend_init);
int MPI_Rsend_init(const void* buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request* r) {
  return send_init(buf, count, t, dest, tag, comm, r, Mode::Ready, "MPI_Rsend_init");
}

LUMPI_PMPI(Bsend_init);
int MPI_Bsend_init(const void* buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request* r) {
  return send_init(buf, count, t, dest, tag, comm, r, Mode::Buffered, "MPI_Bsend_init");
}

LUMPI_PMPI(Ssend_init);
int MPI_Ssend_init(const void* buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request* r) {
  return send_init(buf, count, t, dest, tag, comm, r, Mode::Synchronous, "MPI_Ssend_init");
}

// A receive into any committed datatype: each completion unpacks the
// message into the buffer.
LUMPI_PMPI(Recv_init);
int MPI_Recv_init(void* buf, int count, MPI_Datatype t, int source, int tag, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Recv_init";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    Comm& c = comm_of(comm, f);
    auto b = std::make_shared<TypeBytes>(buf, count, t, f);
    auto p = core::Persistent::recv_init(core_comm(comm, f), source, tag, f);
    p->set_signature(p2p_signature(comm, f, side(count, t), true));
    std::shared_ptr<core::TypedBuffer> room(b, &b->room());  // keeps b alive while the request lives
    *r = add_persistent(detail::prequest_of(c, std::move(p), nullptr, std::move(room), f));
  });
}

LUMPI_PMPI(Start);
int MPI_Start(MPI_Request* r) {
  const char* f = "MPI_Start";
  return call(r ? comm_of_request(*r) : MPI_COMM_WORLD, f, [&] {
    check_out(r, f, "request");
    prequest(*r, f).Start();
    buffers().wake(*r);
  });
}

LUMPI_PMPI(Startall);
int MPI_Startall(int count, MPI_Request rs[]) {
  const char* f = "MPI_Startall";
  return call(f, [&] {
    check_count(count, f);
    if (count > 0) check_out(rs, f, "array_of_requests");
    std::vector<Prequest> ps;
    for (int i = 0; i < count; ++i) ps.push_back(prequest(rs[i], f));
    Prequest::Startall(count, ps.data());
    for (int i = 0; i < count; ++i) buffers().wake(rs[i]);
  });
}

}  // extern "C"
