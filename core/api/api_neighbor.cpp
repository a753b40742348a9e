// core/api/api_neighbor.cpp: the C++ API's neighbourhood collectives
// (Topocomm::Neighbor_allgather(v), Neighbor_alltoall(v/w) and their
// nonblocking forms Ineighbor_allgather(v), Ineighbor_alltoall(v/w);
// MPI-3.1 §7.6, §7.7) on any committed datatype, over the core's byte
// forms (core/coll/neighbor.cpp, core/coll/nbc.cpp), which check the
// topology and define the neighbour order. Checks, all before anything is
// sent: the topology first (ERR_TOPOLOGY), then the arguments by the rules
// the C API shares (core/coll/layout.hpp), then for the regular forms the
// two sides' type signatures (detail::check_sides). A PROC_NULL
// neighbour's block of recvbuf is left untouched.
#include "core/api/api_detail.hpp"
#include "core/base/constants.hpp"
#include "core/coll/layout.hpp"
#include "core/coll/nbc.hpp"
#include "core/topo/topo_comm.hpp"

namespace lumpi {

using core::coll::Bytes;
using detail::Access;
using detail::guarded;

namespace {

std::vector<Bytes> present(core::Blocks b) {
  std::vector<Bytes> out;
  for (auto& x : b) out.push_back(x ? std::move(*x) : Bytes());
  return out;
}

// The blocking exchange: a's blocks, the received ones unpacked at once.
void exchange(core::Comm& c, core::coll::Exchange a, void* recvbuf, const char* f) {
  core::coll::unpack_blocks(recvbuf, a.recv, present(core::neighbor_alltoall(c, a.parts, f)), f);
}

// The nonblocking one: the blocks unpacked when the request completes.
core::RequestPtr start(const core::CommPtr& c, core::coll::Exchange a, void* recvbuf, const char* f) {
  auto into = core::coll::unpack_later(recvbuf, std::move(a.recv), f);
  return core::nbc::ineighbor_alltoall(c, std::move(a.parts), std::move(into), f).request;
}

}  // namespace

namespace coll = core::coll;
using detail::type_arg;
using detail::types_arg;

void Topocomm::Neighbor_allgather(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                                  int recvcount, const Datatype& recvtype) const {
  const char* f = "MPI_Neighbor_allgather";
  guarded(*this, f, [&](core::Comm& c) {
    coll::Exchange a = coll::neighbor_allgather_args(c, sendbuf, sendcount, type_arg(sendtype, f), recvbuf,
                                                     recvcount, type_arg(recvtype, f), f);
    detail::check_sides(sendcount, sendtype, recvcount, recvtype, f);
    exchange(c, std::move(a), recvbuf, f);
  });
}

void Topocomm::Neighbor_alltoall(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                                 int recvcount, const Datatype& recvtype) const {
  const char* f = "MPI_Neighbor_alltoall";
  guarded(*this, f, [&](core::Comm& c) {
    coll::Exchange a = coll::neighbor_alltoall_args(c, sendbuf, sendcount, type_arg(sendtype, f), recvbuf,
                                                    recvcount, type_arg(recvtype, f), f);
    detail::check_sides(sendcount, sendtype, recvcount, recvtype, f);
    exchange(c, std::move(a), recvbuf, f);
  });
}

Request Topocomm::Ineighbor_allgather(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                                      int recvcount, const Datatype& recvtype) const {
  const char* f = "MPI_Ineighbor_allgather";
  return detail::start_collective(*this, f, [&](const core::CommPtr& c) {
    coll::Exchange a = coll::neighbor_allgather_args(*c, sendbuf, sendcount, type_arg(sendtype, f), recvbuf,
                                                     recvcount, type_arg(recvtype, f), f);
    detail::check_sides(sendcount, sendtype, recvcount, recvtype, f);
    return start(c, std::move(a), recvbuf, f);
  });
}

Request Topocomm::Ineighbor_alltoall(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                                     int recvcount, const Datatype& recvtype) const {
  const char* f = "MPI_Ineighbor_alltoall";
  return detail::start_collective(*this, f, [&](const core::CommPtr& c) {
    coll::Exchange a = coll::neighbor_alltoall_args(*c, sendbuf, sendcount, type_arg(sendtype, f), recvbuf,
                                                    recvcount, type_arg(recvtype, f), f);
    detail::check_sides(sendcount, sendtype, recvcount, recvtype, f);
    return start(c, std::move(a), recvbuf, f);
  });
}

// ---- the v- and w-forms ------------------------------------------------------------------

void Topocomm::Neighbor_allgatherv(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                                   const int recvcounts[], const int displs[], const Datatype& recvtype) const {
  const char* f = "MPI_Neighbor_allgatherv";
  guarded(*this, f, [&](core::Comm& c) {
    exchange(c, coll::neighbor_allgatherv_args(c, sendbuf, sendcount, type_arg(sendtype, f), recvbuf, recvcounts,
                                               displs, type_arg(recvtype, f), f),
             recvbuf, f);
  });
}

void Topocomm::Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                  const Datatype& sendtype, void* recvbuf, const int recvcounts[],
                                  const int rdispls[], const Datatype& recvtype) const {
  const char* f = "MPI_Neighbor_alltoallv";
  guarded(*this, f, [&](core::Comm& c) {
    exchange(c, coll::neighbor_alltoallv_args(c, sendbuf, sendcounts, sdispls, type_arg(sendtype, f), recvbuf,
                                              recvcounts, rdispls, type_arg(recvtype, f), f),
             recvbuf, f);
  });
}

void Topocomm::Neighbor_alltoallw(const void* sendbuf, const int sendcounts[], const long sdispls[],
                                  const Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                                  const long rdispls[], const Datatype recvtypes[]) const {
  const char* f = "MPI_Neighbor_alltoallw";
  guarded(*this, f, [&](core::Comm& c) {
    exchange(c, coll::neighbor_alltoallw_args(c, sendbuf, sendcounts, sdispls, types_arg(sendtypes, f, "sendtypes"),
                                              recvbuf, recvcounts, rdispls, types_arg(recvtypes, f, "recvtypes"), f),
             recvbuf, f);
  });
}

Request Topocomm::Ineighbor_allgatherv(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                                       const int recvcounts[], const int displs[], const Datatype& recvtype) const {
  const char* f = "MPI_Ineighbor_allgatherv";
  return detail::start_collective(*this, f, [&](const core::CommPtr& c) {
    return start(c, coll::neighbor_allgatherv_args(*c, sendbuf, sendcount, type_arg(sendtype, f), recvbuf,
                                                   recvcounts, displs, type_arg(recvtype, f), f),
                 recvbuf, f);
  });
}

Request Topocomm::Ineighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                      const Datatype& sendtype, void* recvbuf, const int recvcounts[],
                                      const int rdispls[], const Datatype& recvtype) const {
  const char* f = "MPI_Ineighbor_alltoallv";
  return detail::start_collective(*this, f, [&](const core::CommPtr& c) {
    return start(c, coll::neighbor_alltoallv_args(*c, sendbuf, sendcounts, sdispls, type_arg(sendtype, f), recvbuf,
                                                  recvcounts, rdispls, type_arg(recvtype, f), f),
                 recvbuf, f);
  });
}

Request Topocomm::Ineighbor_alltoallw(const void* sendbuf, const int sendcounts[], const long sdispls[],
                                      const Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                                      const long rdispls[], const Datatype recvtypes[]) const {
  const char* f = "MPI_Ineighbor_alltoallw";
  return detail::start_collective(*this, f, [&](const core::CommPtr& c) {
    return start(c,
                 coll::neighbor_alltoallw_args(*c, sendbuf, sendcounts, sdispls, types_arg(sendtypes, f, "sendtypes"),
                                               recvbuf, recvcounts, rdispls, types_arg(recvtypes, f, "recvtypes"), f),
                 recvbuf, f);
  });
}

}  // namespace lumpi
