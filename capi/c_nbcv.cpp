// capi/c_nbcv.cpp: the C API's nonblocking v- and w-collectives (MPI-3.1
// §5.12.3-§5.12.6: MPI_Igatherv, MPI_Iscatterv, MPI_Iallgatherv,
// MPI_Ialltoallv, MPI_Ialltoallw) on intra- and intercommunicators, over the
// core's nonblocking byte collectives (core/coll/nbc.hpp), which move one block
// of any length per rank.
//
// The arguments are checked and the send side cut into blocks at the call
// by the checks the blocking twins (capi/c_collv.cpp) share
// (capi/c_layout.hpp), before anything is sent; the caller may reuse its
// send buffer at once. The received blocks are placed into the receive
// buffer when the collective completes, before its request reports
// completion (a block longer than its room fails the request with
// MPI_ERR_TRUNCATE). MPI_IN_PLACE where MPI allows it.
#include "core/coll/nbc.hpp"
#include "capi/c_check.hpp"
#include "capi/c_layout.hpp"

using namespace lumpi;
using namespace lumpi::capi;

using core::nbc::Out;

extern "C" {

LUMPI_PMPI(Igatherv);
int MPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Igatherv";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    core::CommPtr c = core_comm(comm, f);
    Gatherv a = gatherv_args(*c, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, f);
    check_coll(comm, {f, root, MPI_OP_NULL, side(sendcount, sendtype, !a.at_root || sendbuf != MPI_IN_PLACE),
                      side_v(recvcounts, c->size(), recvtype, a.at_root), true}, true);
    core::nbc::Deliver into = a.at_root ? place_later(recvbuf, std::move(a.recv), f) : nullptr;
    *r = started(c, core::nbc::igather(c, std::move(a.mine), root, std::move(into)), f);
  });
}

LUMPI_PMPI(Iscatterv);
int MPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                  void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Iscatterv";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    core::CommPtr c = core_comm(comm, f);
    Scatterv a = scatterv_args(*c, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, f);
    check_coll(comm, {f, root, MPI_OP_NULL, side_v(sendcounts, c->size(), sendtype, c->rank() == root),
                      side(recvcount, recvtype, a.receives), true}, true);
    core::nbc::Deliver into;
    if (a.receives)
      into = [recvbuf, slot = a.slot, name = std::string(f), root](Out& o) {
        if (o.has_data) place(recvbuf, slot, o.data, name, root);
      };
    *r = started(c, core::nbc::iscatter(c, std::move(a.parts), root, std::move(into)), f);
  });
}

LUMPI_PMPI(Iallgatherv);
int MPI_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                    const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Iallgatherv";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    core::CommPtr c = core_comm(comm, f);
    Allgatherv a = allgatherv_args(*c, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, f);
    check_coll(comm, {f, -1, MPI_OP_NULL, side(sendcount, sendtype, sendbuf != MPI_IN_PLACE),
                      side_v(recvcounts, c->size(), recvtype), true}, true);
    *r = started(c, core::nbc::iallgather(c, std::move(a.mine), place_later(recvbuf, std::move(a.recv), f)), f);
  });
}

LUMPI_PMPI(Ialltoallv);
int MPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                   MPI_Request* r) {
  const char* f = "MPI_Ialltoallv";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    core::CommPtr c = core_comm(comm, f);
    Exchange a = alltoallv_args(*c, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, f);
    check_coll(comm, {f, -1, MPI_OP_NULL, side_v(sendcounts, c->size(), sendtype, sendbuf != MPI_IN_PLACE),
                      side_v(recvcounts, c->size(), recvtype), true}, true);
    *r = started(c, core::nbc::ialltoall(c, std::move(a.parts), place_later(recvbuf, std::move(a.recv), f)), f);
  });
}

LUMPI_PMPI(Ialltoallw);
int MPI_Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                   void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                   MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Ialltoallw";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    core::CommPtr c = core_comm(comm, f);
    Exchange a =
        alltoallw_args(*c, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, f);
    check_coll(comm, {f, -1, MPI_OP_NULL, {}, {}}, true);  // the call only: a type per pair
    *r = started(c, core::nbc::ialltoall(c, std::move(a.parts), place_later(recvbuf, std::move(a.recv), f)), f);
  });
}

}  // extern "C"
