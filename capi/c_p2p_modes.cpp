// capi/c_p2p_modes.cpp: the C API's other send modes (MPI-3.1 §3.4):
// ready (MPI_Rsend, MPI_Irsend) and buffered (MPI_Bsend, MPI_Ibsend with
// MPI_Buffer_attach/detach); persistent requests (§3.9: MPI_Send_init ...
// MPI_Recv_init, MPI_Start, MPI_Startall) over the C++ API's Prequest.
//
// lumpi's standard send is eager: it copies the message into the engine's
// queue and completes at once. A ready send is therefore a standard send
// (§3.4 allows it: a correct ready-mode program behaves the same). A
// buffered send must find room in the attached buffer (its size plus
// MPI_BSEND_OVERHEAD, else MPI_ERR_BUFFER naming both sizes, before
// anything is sent); the message leaves the buffer as soon as it is queued,
// so detaching never waits.
#include <algorithm>
#include <vector>

#include "capi/c_api.hpp"

using namespace lumpi;
using namespace lumpi::capi;

namespace {

struct Attached {
  void* buf = nullptr;
  int size = 0;
  bool present = false;
};

Attached& attached() {
  static Attached a;
  return a;
}

// Raises MPI_ERR_BUFFER unless the attached buffer has room for n bytes.
void check_room(int n, const char* func) {
  const Attached& a = attached();
  if (!a.present) fail(MPI_ERR_BUFFER, func, "no buffer is attached (MPI_Buffer_attach)");
  if (long(n) + MPI_BSEND_OVERHEAD > long(a.size))
    fail(MPI_ERR_BUFFER, func,
         "the message needs " + std::to_string(n) + " + MPI_BSEND_OVERHEAD (" +
             std::to_string(MPI_BSEND_OVERHEAD) + ") bytes; the attached buffer has " +
             std::to_string(a.size));
}

}  // namespace

extern "C" {

int MPI_Rsend(const void* buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm) {
  const char* f = "MPI_Rsend";
  return call(comm, f, [&] {
    TypeBytes b(buf, count, t, f);
    comm_of(comm, f).Send(b.pack(f), int(b.size()), BYTE, dest, tag);
  });
}

int MPI_Irsend(const void* buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Irsend";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    TypeBytes b(buf, count, t, f);
    *r = add_request(comm_of(comm, f).Isend(b.pack(f), int(b.size()), BYTE, dest, tag));
  });
}

int MPI_Bsend(const void* buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm) {
  const char* f = "MPI_Bsend";
  return call(comm, f, [&] {
    Comm& c = comm_of(comm, f);
    TypeBytes b(buf, count, t, f);
    if (dest != MPI_PROC_NULL) check_room(int(b.size()), f);
    c.Send(b.pack(f), int(b.size()), BYTE, dest, tag);
  });
}

int MPI_Ibsend(const void* buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Ibsend";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    Comm& c = comm_of(comm, f);
    TypeBytes b(buf, count, t, f);
    if (dest != MPI_PROC_NULL) check_room(int(b.size()), f);
    *r = add_request(c.Isend(b.pack(f), int(b.size()), BYTE, dest, tag));
  });
}

int MPI_Buffer_attach(void* buffer, int size) {
  const char* f = "MPI_Buffer_attach";
  return call(f, [&] {
    if (size < 0) fail(MPI_ERR_ARG, f, "size " + std::to_string(size) + " is negative");
    if (!buffer && size > 0) fail(MPI_ERR_BUFFER, f, "buffer is NULL");
    if (attached().present) fail(MPI_ERR_BUFFER, f, "a buffer is already attached (detach it first)");
    attached() = Attached{buffer, size, true};
  });
}

// Gives back the attached buffer (NULL and 0 if none is attached).
int MPI_Buffer_detach(void* buffer_addr, int* size) {
  const char* f = "MPI_Buffer_detach";
  return call(f, [&] {
    check_out(buffer_addr, f, "buffer_addr");
    check_out(size, f, "size");
    Attached a = attached();
    *static_cast<void**>(buffer_addr) = a.buf;
    *size = a.size;
    attached() = Attached{};
  });
}

// ---- persistent requests ----------------------------------------------------------------

int MPI_Send_init(const void* buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Send_init";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    *r = add_persistent(comm_of(comm, f).Send_init(buf, bytes(count, t, f), BYTE, dest, tag));
  });
}

int MPI_Rsend_init(const void* buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Rsend_init";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    *r = add_persistent(comm_of(comm, f).Send_init(buf, bytes(count, t, f), BYTE, dest, tag));
  });
}

// The room is checked at the call (MPI would check at each MPI_Start; the
// buffer cannot shrink while attached, only be detached).
int MPI_Bsend_init(const void* buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Bsend_init";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    int n = bytes(count, t, f);
    if (dest != MPI_PROC_NULL) check_room(n, f);
    *r = add_persistent(comm_of(comm, f).Send_init(buf, n, BYTE, dest, tag));
  });
}

int MPI_Ssend_init(const void* buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Ssend_init";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    *r = add_persistent(comm_of(comm, f).Ssend_init(buf, bytes(count, t, f), BYTE, dest, tag));
  });
}

int MPI_Recv_init(void* buf, int count, MPI_Datatype t, int source, int tag, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Recv_init";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    *r = add_persistent(comm_of(comm, f).Recv_init(buf, bytes(count, t, f), BYTE, source, tag));
  });
}

int MPI_Start(MPI_Request* r) {
  const char* f = "MPI_Start";
  return call(f, [&] {
    check_out(r, f, "request");
    prequest(*r, f).Start();
  });
}

int MPI_Startall(int count, MPI_Request rs[]) {
  const char* f = "MPI_Startall";
  return call(f, [&] {
    check_count(count, f);
    if (count > 0) check_out(rs, f, "array_of_requests");
    std::vector<Prequest> ps;
    for (int i = 0; i < count; ++i) ps.push_back(prequest(rs[i], f));  // all checked before any starts
    for (Prequest& p : ps) p.Start();
  });
}

}  // extern "C"
