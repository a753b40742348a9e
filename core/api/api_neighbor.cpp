// core/api/api_neighbor.cpp: the C++ API's neighbourhood collectives
// (Topocomm::Neighbor_allgather(v), Neighbor_alltoall(v/w) and their
// nonblocking forms Ineighbor_allgather(v), Ineighbor_alltoall(v/w);
// MPI-3.1 §7.6, §7.7) on any committed datatype, over the core's byte
// forms (core/coll/neighbor.cpp, core/coll/nbc.cpp), which check the
// topology and define the neighbour order. Checks: the topology first
// (ERR_TOPOLOGY), then the arguments, all before anything is sent: for the
// regular forms, the sides (detail::blocks: counts, types, signatures,
// buffers), count elements per neighbour packed and unpacked block by
// block; the v- and w-forms by the rules the C API shares
// (core/coll/layout.hpp). A PROC_NULL neighbour's block of recvbuf is left
// untouched.
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

// The arguments of one call: the neighbours, the send side packed as
// sblocks blocks (detail::Blocks: one for allgather, one per out-neighbour
// for alltoall), and where in-neighbour k's block goes.
struct Args {
  core::Neighbors nb;
  std::vector<Bytes> sent;
  core::TypePtr rtype;
  int rcount;
  size_t each;  // packed bytes of one block
};

Args checked(const core::Comm& c, const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
             int recvcount, const Datatype& recvtype, bool per_neighbor, const char* func) {
  Args a{core::neighbors_of(c, func), {}, {}, recvcount, 0};
  const int sblocks = per_neighbor ? int(a.nb.out.size()) : 1;
  detail::Blocks b = detail::blocks(sendbuf, {sendcount, sendtype, true}, sblocks, recvbuf,
                                    {recvcount, recvtype, true}, int(a.nb.in.size()), func);
  a.each = b.block;
  a.sent = b.sent_blocks(func);
  a.rtype = b.recv->type();
  return a;
}

// Unpacks in-neighbour k's block into block k of recvbuf (rcount elements
// of rtype, k * rcount extents in), but for PROC_NULL, whose block stays.
void put_blocks(void* recvbuf, const Args& a, const std::vector<Bytes>& got, std::string_view func) {
  const std::int64_t stride = std::int64_t(a.rcount) * a.rtype->extent();
  for (size_t k = 0; k < a.nb.in.size() && k < got.size(); ++k) {
    if (a.nb.in[k] == core::PROC_NULL) continue;
    if (got[k].size() != a.each)
      detail::fail(ERR_TRUNCATE, func, "neighbour " + std::to_string(a.nb.in[k]) + " sent " +
                                           std::to_string(got[k].size()) + " bytes where " + std::to_string(a.each) +
                                           " were expected");
    a.rtype->unpack(got[k].data(), got[k].size(), static_cast<char*>(recvbuf) + std::int64_t(k) * stride, a.rcount,
                    func);
  }
}

std::vector<Bytes> present(core::Blocks b) {
  std::vector<Bytes> out;
  for (auto& x : b) out.push_back(x ? std::move(*x) : Bytes());
  return out;
}

core::nbc::Deliver put_later(void* recvbuf, Args a, const char* func) {
  return [recvbuf, a = std::move(a), func](core::nbc::Out& o) { put_blocks(recvbuf, a, o.parts, func); };
}

// The blocking exchange of the v- and w-forms: a's blocks, the received
// ones unpacked at once.
void exchange(core::Comm& c, core::coll::Exchange a, void* recvbuf, const char* f) {
  core::coll::unpack_blocks(recvbuf, a.recv, present(core::neighbor_alltoall(c, a.parts, f)), f);
}

// The nonblocking one: the blocks unpacked when the request completes.
core::RequestPtr start(const core::CommPtr& c, core::coll::Exchange a, void* recvbuf, const char* f) {
  auto into = core::coll::unpack_later(recvbuf, std::move(a.recv), f);
  return core::nbc::ineighbor_alltoall(c, std::move(a.parts), std::move(into), f).request;
}

}  // namespace

void Topocomm::Neighbor_allgather(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                                  int recvcount, const Datatype& recvtype) const {
  const char* func = "MPI_Neighbor_allgather";
  guarded(*this, func, [&](core::Comm& c) {
    Args a = checked(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, false, func);
    core::Blocks got = core::neighbor_allgather(c, a.sent[0], func);
    put_blocks(recvbuf, a, present(std::move(got)), func);
  });
}

void Topocomm::Neighbor_alltoall(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                                 int recvcount, const Datatype& recvtype) const {
  const char* func = "MPI_Neighbor_alltoall";
  guarded(*this, func, [&](core::Comm& c) {
    Args a = checked(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, true, func);
    core::Blocks got = core::neighbor_alltoall(c, a.sent, func);
    put_blocks(recvbuf, a, present(std::move(got)), func);
  });
}

Request Topocomm::Ineighbor_allgather(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                                      int recvcount, const Datatype& recvtype) const {
  const char* func = "MPI_Ineighbor_allgather";
  return detail::start_collective(*this, func, [&](const core::CommPtr& c) {
    Args a = checked(*c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, false, func);
    Bytes mine = a.sent[0];
    return core::nbc::ineighbor_allgather(c, std::move(mine), put_later(recvbuf, std::move(a), func), func).request;
  });
}

Request Topocomm::Ineighbor_alltoall(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                                     int recvcount, const Datatype& recvtype) const {
  const char* func = "MPI_Ineighbor_alltoall";
  return detail::start_collective(*this, func, [&](const core::CommPtr& c) {
    Args a = checked(*c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, true, func);
    std::vector<Bytes> parts = std::move(a.sent);
    return core::nbc::ineighbor_alltoall(c, std::move(parts), put_later(recvbuf, std::move(a), func), func).request;
  });
}

// ---- the v- and w-forms (core/coll/layout.hpp) ------------------------------------------

namespace coll = core::coll;
using detail::type_arg;
using detail::types_arg;

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
