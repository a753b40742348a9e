// capi/c_p2p.cpp: the C API's point-to-point operations, cancelling
// and freeing requests (completing them is c_complete.cpp's) and blocking
// collectives. A send or receive resolves (buf, count, MPI_Datatype) to the
// core's typed buffer (TypeBytes: any committed datatype, packed and
// unpacked by the one pack engine) and hands it to the C++ API's one
// point-to-point path (detail::send, recv, sendrecv ... in
// core/api/handles.hpp), so sizes are size_t there and a message may
// exceed 2 GiB. The collectives here run the core's byte collectives;
// reductions are c_reduce.cpp's. MPI_IN_PLACE is turned into an explicit
// copy of the caller's own contribution.
#include <cstring>
#include <vector>

#include "core/coll/coll.hpp"
#include "capi/c_check.hpp"
#include "capi/c_layout.hpp"

using namespace lumpi;
using namespace lumpi::capi;

namespace {

// MPI_Send and its modes: the arguments checked, the checker's signature,
// then the C++ API's one send (a ready send is a standard one; a buffered
// one needs room in the attached buffer: core/comm/bsend.hpp).
int send(const void* buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, detail::Mode m,
         const char* f) {
  return call(comm, f, [&] {
    TypeBytes b(buf, count, t, f);
    P2PSignatures sigs(comm, f, side(count, t), {});
    detail::send(comm_of(comm, f), b.sent(dest), dest, tag, m, f);
  });
}

// MPI_Isend and its modes; a staged copy of a type with holes is sent at once.
int isend(const void* buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request* r,
          detail::Mode m, const char* f) {
  return call(comm, f, [&] {
    check_out(r, f, "request");
    TypeBytes b(buf, count, t, f);
    P2PSignatures sigs(comm, f, side(count, t), {});
    *r = add_request(detail::isend(comm_of(comm, f), b.sent(dest), dest, tag, m, f));
  });
}

}  // namespace

extern "C" {

// ---- point-to-point ------------------------------------------------------------------

LUMPI_PMPI(Send);
int MPI_Send(const void* buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm) {
  return send(buf, count, t, dest, tag, comm, detail::Mode::Standard, "MPI_Send");
}

LUMPI_PMPI(Ssend);
int MPI_Ssend(const void* buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm) {
  return send(buf, count, t, dest, tag, comm, detail::Mode::Synchronous, "MPI_Ssend");
}

LUMPI_PMPI(Rsend);
int MPI_Rsend(const void* buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm) {
  return send(buf, count, t, dest, tag, comm, detail::Mode::Ready, "MPI_Rsend");
}

LUMPI_PMPI(Bsend);
int MPI_Bsend(const void* buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm) {
  return send(buf, count, t, dest, tag, comm, detail::Mode::Buffered, "MPI_Bsend");
}

LUMPI_PMPI(Isend);
int MPI_Isend(const void* buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request* r) {
  return isend(buf, count, t, dest, tag, comm, r, detail::Mode::Standard, "MPI_Isend");
}

LUMPI_PMPI(Issend);
int MPI_Issend(const void* buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request* r) {
  return isend(buf, count, t, dest, tag, comm, r, detail::Mode::Synchronous, "MPI_Issend");
}

LUMPI_PMPI(Irsend);
int MPI_Irsend(const void* buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request* r) {
  return isend(buf, count, t, dest, tag, comm, r, detail::Mode::Ready, "MPI_Irsend");
}

LUMPI_PMPI(Ibsend);
int MPI_Ibsend(const void* buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request* r) {
  return isend(buf, count, t, dest, tag, comm, r, detail::Mode::Buffered, "MPI_Ibsend");
}

LUMPI_PMPI(Recv);
int MPI_Recv(void* buf, int count, MPI_Datatype t, int source, int tag, MPI_Comm comm, MPI_Status* status) {
  return call(comm, "MPI_Recv", [&] {
    TypeBytes b(buf, count, t, "MPI_Recv");
    P2PSignatures sigs(comm, "MPI_Recv", {}, side(count, t));
    to_c(detail::recv(comm_of(comm, "MPI_Recv"), b.room(source), source, tag, "MPI_Recv"), status);
  });
}

LUMPI_PMPI(Irecv);
int MPI_Irecv(void* buf, int count, MPI_Datatype t, int source, int tag, MPI_Comm comm, MPI_Request* r) {
  return call(comm, "MPI_Irecv", [&] {
    auto b = std::make_shared<TypeBytes>(buf, count, t, "MPI_Irecv");
    P2PSignatures sigs(comm, "MPI_Irecv", {}, side(count, t));
    std::shared_ptr<core::TypedBuffer> room(b, &b->room(source));  // keeps b alive until the message lands
    *r = add_request(detail::irecv(comm_of(comm, "MPI_Irecv"), std::move(room), source, tag, "MPI_Irecv"));
  });
}

LUMPI_PMPI(Sendrecv);
int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  const char* f = "MPI_Sendrecv";
  return call(comm, f, [&] {
    TypeBytes out(sendbuf, sendcount, sendtype, f, "sendcount");
    TypeBytes in(recvbuf, recvcount, recvtype, f, "recvcount");
    P2PSignatures sigs(comm, f, side(sendcount, sendtype), side(recvcount, recvtype));
    to_c(detail::sendrecv(comm_of(comm, f), out.sent(dest), dest, sendtag, in.room(source), source, recvtag, f),
         status);
  });
}

LUMPI_PMPI(Probe);
int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  return call(comm, "MPI_Probe", [&] {
    Status s;
    comm_of(comm, "MPI_Probe").Probe(source, tag, s);
    to_c(s, status);
  });
}

LUMPI_PMPI(Iprobe);
int MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  return call(comm, "MPI_Iprobe", [&] {
    Status s;
    *flag = comm_of(comm, "MPI_Iprobe").Iprobe(source, tag, s);
    if (*flag) to_c(s, status);
  });
}

LUMPI_PMPI(Sendrecv_replace);
int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype t, int dest, int sendtag, int source, int recvtag,
                         MPI_Comm comm, MPI_Status* status) {
  const char* f = "MPI_Sendrecv_replace";
  return call(comm, f, [&] {
    TypeBytes b(buf, count, t, f);  // sent from a copy taken first, then received into buf
    P2PSignatures sigs(comm, f, side(count, t), side(count, t));
    to_c(detail::sendrecv(comm_of(comm, f), b.sent(dest), dest, sendtag, b.room(source), source, recvtag, f),
         status);
  });
}

// The request stays valid: it still has to be completed (Wait, Test) or freed.
LUMPI_PMPI(Cancel);
int MPI_Cancel(MPI_Request* r) {
  return call("MPI_Cancel", [&] {
    check_out(r, "MPI_Cancel", "request");
    if (!grequest_cancel(*r, "MPI_Cancel")) request(*r, "MPI_Cancel").Cancel();
    note_settled(*r);
  });
}

LUMPI_PMPI(Test_cancelled);
int MPI_Test_cancelled(const MPI_Status* status, int* flag) {
  return call("MPI_Test_cancelled", [&] {
    if (!status) fail(MPI_ERR_ARG, "MPI_Test_cancelled", "status is MPI_STATUS_IGNORE");
    *flag = status->lumpi_cancelled;
  });
}

LUMPI_PMPI(Request_free);
int MPI_Request_free(MPI_Request* r) {
  return call("MPI_Request_free", [&] {
    check_request_free(*r);
    buffers().unlanded(*r);
    request(*r, "MPI_Request_free").Free();
    buffers().landed(*r);  // a pending receive's message may land now, or later: no longer the program's to watch
    drop_request(*r);
    *r = MPI_REQUEST_NULL;
  });
}

// ---- collectives ---------------------------------------------------------------------

LUMPI_PMPI(Barrier);
int MPI_Barrier(MPI_Comm comm) {
  return call(comm, "MPI_Barrier", [&] {
    check_coll(comm, {"MPI_Barrier", -1, MPI_OP_NULL, {}, {}});
    comm_of(comm, "MPI_Barrier").Barrier();
  });
}

LUMPI_PMPI(Bcast);
int MPI_Bcast(void* buf, int count, MPI_Datatype t, int root, MPI_Comm comm) {
  const char* f = "MPI_Bcast";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    TypeBytes b(buf, count, t, f);
    check_coll(comm, {f, root, MPI_OP_NULL, side(count, t), {}});
    c->check_root(root, f);
    const bool sends = c->is_root(root), receives = c->takes_part(root) && !sends;
    Bytes out = core::coll::bcast(*c, sends ? Bytes(static_cast<const char*>(b.pack(f)), b.size()) : Bytes(), root);
    if (receives) b.room().land(out, f);
  });
}

LUMPI_PMPI(Gather);
int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
               MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const char* f = "MPI_Gather";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    Gatherv a = gather_args(*c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, f);
    check_coll(comm, {f, root, MPI_OP_NULL, side(sendcount, sendtype, !a.at_root || sendbuf != MPI_IN_PLACE),
                      side(recvcount, recvtype, a.at_root)});
    std::vector<Bytes> all = core::coll::gather(*c, std::move(a.mine), root);
    if (a.at_root) place_all(recvbuf, a.recv, all, f);
  });
}

LUMPI_PMPI(Scatter);
int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const char* f = "MPI_Scatter";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    Scatterv a = scatter_args(*c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, f);
    check_coll(comm, {f, root, MPI_OP_NULL, side(sendcount, sendtype, c->rank() == root),
                      side(recvcount, recvtype, a.receives)});
    Bytes mine = core::coll::scatter(*c, std::move(a.parts), root);
    if (a.receives) place(recvbuf, a.slot, mine, f, root);
  });
}

LUMPI_PMPI(Allgather);
int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm) {
  const char* f = "MPI_Allgather";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    Allgatherv a = allgather_args(*c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, f);
    check_coll(comm, {f, -1, MPI_OP_NULL, side(sendcount, sendtype, sendbuf != MPI_IN_PLACE), side(recvcount, recvtype)});
    place_all(recvbuf, a.recv, core::coll::allgather(*c, std::move(a.mine)), f);
  });
}

LUMPI_PMPI(Alltoall);
int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm) {
  const char* f = "MPI_Alltoall";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    Exchange a = alltoall_args(*c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, f);
    check_coll(comm, {f, -1, MPI_OP_NULL, side(sendcount, sendtype, sendbuf != MPI_IN_PLACE), side(recvcount, recvtype)});
    place_all(recvbuf, a.recv, core::coll::alltoall(*c, std::move(a.parts)), f);
  });
}

}  // extern "C"
