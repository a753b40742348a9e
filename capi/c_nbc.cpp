// capi/c_nbc.cpp: the C API's nonblocking collectives that move data
// (MPI_Ibarrier, MPI_Ibcast, MPI_Igather ... MPI_Ialltoall, MPI-3.1 §5.12)
// over the core's nonblocking byte collectives (core/coll/nbc.hpp), with
// the argument checks and the packing of their blocking twins
// (capi/c_layout.hpp): any committed datatype. The reductions are
// capi/c_reduce.cpp's.
// MPI_IN_PLACE: the caller's own contribution is copied at the call (the
// core copies every input at the start), the result lands in recvbuf when
// the request completes. The request completes with MPI_Wait/MPI_Test and
// their any/all/some forms like any other.
#include <vector>

#include "core/coll/nbc.hpp"
#include "capi/c_check.hpp"
#include "capi/c_layout.hpp"

using namespace lumpi;
using namespace lumpi::capi;

using core::nbc::Out;

extern "C" {

LUMPI_PMPI(Ibarrier);
int MPI_Ibarrier(MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Ibarrier";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    check_coll(comm, {f, -1, MPI_OP_NULL, {}, {}}, true);
    *r = add_request(comm_of(comm, f).Ibarrier());
  });
}

LUMPI_PMPI(Ibcast);
int MPI_Ibcast(void* buf, int count, MPI_Datatype t, int root, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Ibcast";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    core::CommPtr c = core_comm(comm, f);
    c->check_root(root, f);
    Slot s = slot_arg(count, t, f, "count");
    const bool at_root = c->is_root(root), receives = c->takes_part(root) && !at_root;
    core::nbc::Deliver into;
    if (receives) {
      if (dense(*s.type)) note_written_buffer(buf, s.bytes());
      into = [buf, s, name = std::string(f), root](Out& o) {
        if (o.has_data) place(buf, s, o.data, name, root);
      };
    }
    check_coll(comm, {f, root, MPI_OP_NULL, side(count, t), {}}, true);
    *r = started(c, core::nbc::ibcast(c, at_root ? pack_slot(buf, s, f) : Bytes(), root, into), f);
  });
}

LUMPI_PMPI(Igather);
int MPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Igather";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    core::CommPtr c = core_comm(comm, f);
    Gatherv a = gather_args(*c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, f);
    check_coll(comm, {f, root, MPI_OP_NULL, side(sendcount, sendtype, !a.at_root || sendbuf != MPI_IN_PLACE),
                      side(recvcount, recvtype, a.at_root)}, true);
    core::nbc::Deliver into = a.at_root ? place_later(recvbuf, std::move(a.recv), f) : nullptr;
    *r = started(c, core::nbc::igather(c, std::move(a.mine), root, std::move(into)), f);
  });
}

LUMPI_PMPI(Iscatter);
int MPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Iscatter";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    core::CommPtr c = core_comm(comm, f);
    Scatterv a = scatter_args(*c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, f);
    core::nbc::Deliver into;
    if (a.receives)
      into = [recvbuf, slot = a.slot, name = std::string(f), root](Out& o) {
        if (o.has_data) place(recvbuf, slot, o.data, name, root);
      };
    check_coll(comm, {f, root, MPI_OP_NULL, side(sendcount, sendtype, c->rank() == root),
                      side(recvcount, recvtype, a.receives)}, true);
    *r = started(c, core::nbc::iscatter(c, std::move(a.parts), root, std::move(into)), f);
  });
}

LUMPI_PMPI(Iallgather);
int MPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Iallgather";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    core::CommPtr c = core_comm(comm, f);
    Allgatherv a = allgather_args(*c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, f);
    check_coll(comm, {f, -1, MPI_OP_NULL, side(sendcount, sendtype, sendbuf != MPI_IN_PLACE), side(recvcount, recvtype)},
               true);
    *r = started(c, core::nbc::iallgather(c, std::move(a.mine), place_later(recvbuf, std::move(a.recv), f)), f);
  });
}

LUMPI_PMPI(Ialltoall);
int MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Ialltoall";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    core::CommPtr c = core_comm(comm, f);
    Exchange a = alltoall_args(*c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, f);
    check_coll(comm, {f, -1, MPI_OP_NULL, side(sendcount, sendtype, sendbuf != MPI_IN_PLACE), side(recvcount, recvtype)},
               true);
    *r = started(c, core::nbc::ialltoall(c, std::move(a.parts), place_later(recvbuf, std::move(a.recv), f)), f);
  });
}

}  // extern "C"
