// capi/c_collv.cpp: the C API's v- and w-collectives (MPI-3.1 §5.5,
// §5.6, §5.7, §5.8: MPI_Gatherv, MPI_Scatterv, MPI_Allgatherv,
// MPI_Alltoallv, MPI_Alltoallw) on intra- and intercommunicators, over the
// core's byte collectives (core/coll/coll.hpp), which move one block of any
// length per rank. The arguments are checked and the send buffer cut into
// blocks by the checks their nonblocking twins (capi/c_nbcv.cpp) share
// (capi/c_layout.hpp); this file moves the blocks and places the
// received ones. MPI_IN_PLACE where MPI allows it.
#include "core/coll/coll.hpp"
#include "capi/c_check.hpp"
#include "capi/c_layout.hpp"

using namespace lumpi;
using namespace lumpi::capi;

extern "C" {

LUMPI_PMPI(Gatherv);
int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const char* f = "MPI_Gatherv";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    Gatherv a = gatherv_args(*c, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, f);
    check_coll(comm, {f, root, MPI_OP_NULL, side(sendcount, sendtype, !a.at_root || sendbuf != MPI_IN_PLACE),
                      side_v(recvcounts, c->size(), recvtype, a.at_root), true});
    std::vector<Bytes> all = core::coll::gather(*c, std::move(a.mine), root);
    if (a.at_root) place_all(recvbuf, a.recv, all, f);
  });
}

LUMPI_PMPI(Scatterv);
int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const char* f = "MPI_Scatterv";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    Scatterv a = scatterv_args(*c, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, f);
    check_coll(comm, {f, root, MPI_OP_NULL, side_v(sendcounts, c->size(), sendtype, c->rank() == root),
                      side(recvcount, recvtype, a.receives), true});
    Bytes mine = core::coll::scatter(*c, std::move(a.parts), root);
    if (a.receives) place(recvbuf, a.slot, mine, f, root);
  });
}

LUMPI_PMPI(Allgatherv);
int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  const char* f = "MPI_Allgatherv";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    Allgatherv a = allgatherv_args(*c, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, f);
    check_coll(comm, {f, -1, MPI_OP_NULL, side(sendcount, sendtype, sendbuf != MPI_IN_PLACE),
                      side_v(recvcounts, c->size(), recvtype), true});
    place_all(recvbuf, a.recv, core::coll::allgather(*c, std::move(a.mine)), f);
  });
}

LUMPI_PMPI(Alltoallv);
int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                  void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  const char* f = "MPI_Alltoallv";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    Exchange a = alltoallv_args(*c, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, f);
    check_coll(comm, {f, -1, MPI_OP_NULL, side_v(sendcounts, c->size(), sendtype, sendbuf != MPI_IN_PLACE),
                      side_v(recvcounts, c->size(), recvtype), true});
    place_all(recvbuf, a.recv, core::coll::alltoall(*c, std::move(a.parts)), f);
  });
}

LUMPI_PMPI(Alltoallw);
int MPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                  void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                  MPI_Comm comm) {
  const char* f = "MPI_Alltoallw";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    Exchange a =
        alltoallw_args(*c, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, f);
    check_coll(comm, {f, -1, MPI_OP_NULL, {}, {}});  // the call only: a type per pair
    place_all(recvbuf, a.recv, core::coll::alltoall(*c, std::move(a.parts)), f);
  });
}

}  // extern "C"
