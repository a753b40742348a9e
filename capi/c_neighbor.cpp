// capi/c_neighbor.cpp: the C API's neighbourhood collectives on
// Cartesian, graph and distributed-graph communicators, blocking (MPI-3.1
// §7.6: MPI_Neighbor_allgather(v), MPI_Neighbor_alltoall(v/w)) and
// nonblocking (§7.7: MPI_Ineighbor_allgather(v), MPI_Ineighbor_alltoall(v/w)).
// Each form checks its arguments with the one checker of its family
// (capi/c_layout.hpp), which cuts the send side into one block per
// out-neighbour; the core (core/coll/neighbor.cpp, core/coll/nbc.cpp) moves the blocks
// and defines the neighbour order and which block fills which slot. A
// PROC_NULL neighbour (a non-periodic Cartesian edge) leaves its receive
// block untouched. The nonblocking forms place the blocks when the request
// completes.
#include "core/coll/nbc.hpp"
#include "core/topo/topo_comm.hpp"
#include "capi/c_layout.hpp"

using namespace lumpi;
using namespace lumpi::capi;

namespace {

// The blocking exchange of a's blocks; the received ones placed at once.
void exchange(core::Comm& c, Exchange a, void* recvbuf, const char* f) {
  core::Blocks got = core::neighbor_alltoall(c, a.parts, f);
  std::vector<Bytes> parts;
  for (auto& b : got) parts.push_back(b ? std::move(*b) : Bytes());
  place_all(recvbuf, a.recv, parts, f);
}

// The nonblocking one: the blocks placed when the request completes.
MPI_Request start(const core::CommPtr& c, Exchange a, void* recvbuf, const char* f) {
  return started(c, core::nbc::ineighbor_alltoall(c, std::move(a.parts), place_later(recvbuf, std::move(a.recv), f), f),
                 f);
}

}  // namespace

extern "C" {

LUMPI_PMPI(Neighbor_allgather);
int MPI_Neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm) {
  const char* f = "MPI_Neighbor_allgather";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    exchange(*c, neighbor_allgather_args(*c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, f), recvbuf, f);
  });
}

LUMPI_PMPI(Neighbor_allgatherv);
int MPI_Neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                            const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  const char* f = "MPI_Neighbor_allgatherv";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    exchange(*c, neighbor_allgatherv_args(*c, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, f), recvbuf,
             f);
  });
}

LUMPI_PMPI(Neighbor_alltoall);
int MPI_Neighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm) {
  const char* f = "MPI_Neighbor_alltoall";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    exchange(*c, neighbor_alltoall_args(*c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, f), recvbuf, f);
  });
}

LUMPI_PMPI(Neighbor_alltoallv);
int MPI_Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                           void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                           MPI_Comm comm) {
  const char* f = "MPI_Neighbor_alltoallv";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    exchange(*c,
             neighbor_alltoallv_args(*c, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, f),
             recvbuf, f);
  });
}

LUMPI_PMPI(Neighbor_alltoallw);
int MPI_Neighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                           const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                           const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  const char* f = "MPI_Neighbor_alltoallw";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    exchange(*c,
             neighbor_alltoallw_args(*c, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, f),
             recvbuf, f);
  });
}

LUMPI_PMPI(Ineighbor_allgather);
int MPI_Ineighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Ineighbor_allgather";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    core::CommPtr c = core_comm(comm, f);
    *r = start(c, neighbor_allgather_args(*c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, f), recvbuf, f);
  });
}

LUMPI_PMPI(Ineighbor_allgatherv);
int MPI_Ineighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request* r) {
  const char* f = "MPI_Ineighbor_allgatherv";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    core::CommPtr c = core_comm(comm, f);
    *r = start(c, neighbor_allgatherv_args(*c, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, f),
               recvbuf, f);
  });
}

LUMPI_PMPI(Ineighbor_alltoall);
int MPI_Ineighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Ineighbor_alltoall";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    core::CommPtr c = core_comm(comm, f);
    *r = start(c, neighbor_alltoall_args(*c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, f), recvbuf, f);
  });
}

LUMPI_PMPI(Ineighbor_alltoallv);
int MPI_Ineighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                            void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Ineighbor_alltoallv";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    core::CommPtr c = core_comm(comm, f);
    *r = start(c,
               neighbor_alltoallv_args(*c, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, f),
               recvbuf, f);
  });
}

LUMPI_PMPI(Ineighbor_alltoallw);
int MPI_Ineighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                            MPI_Request* r) {
  const char* f = "MPI_Ineighbor_alltoallw";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    core::CommPtr c = core_comm(comm, f);
    *r = start(c,
               neighbor_alltoallw_args(*c, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                                       f),
               recvbuf, f);
  });
}

}  // extern "C"
