// core/api/api_neighbor.cpp: the C++ API's neighbourhood collectives
// (Topocomm::Neighbor_allgather(v), Neighbor_alltoall(v/w) and their
// nonblocking forms Ineighbor_allgather(v), Ineighbor_alltoall(v/w);
// MPI-3.1 §7.6, §7.7), over the core's byte forms (core/coll/neighbor.cpp,
// core/coll/nbc.cpp), which check the topology and define the neighbour
// order. Checks: the topology first (ERR_TOPOLOGY), then the arguments,
// all before anything is sent: for the regular forms, count contiguous
// elements of one type, the sides (detail::significant), then the
// buffers; the v- and w-forms by the rules the C API shares
// (core/coll/layout.hpp), any committed datatype. A PROC_NULL neighbour's
// block of recvbuf is left untouched.
#include "core/api/api_detail.hpp"
#include "core/base/constants.hpp"
#include "core/coll/layout.hpp"
#include "core/coll/nbc.hpp"
#include "core/topo/topo_comm.hpp"

namespace lumpi {

namespace typed = core::coll::typed;
using core::coll::Bytes;
using detail::Access;
using detail::guarded;

namespace {

// The arguments of one call: the neighbours and the bytes of one block.
struct Args {
  core::Neighbors nb;
  size_t each;
};

Args checked(const core::Comm& c, const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
             int recvcount, const Datatype& recvtype, const char* func) {
  Args a{core::neighbors_of(c, func), 0};
  detail::Elems e = detail::significant({sendcount, sendtype, true}, {recvcount, recvtype, true}, func);
  typed::check_count(e.count, "sendcount", func);
  typed::check_buffer(sendbuf, e.count, "sendbuf", func);
  typed::check_buffer(recvbuf, e.count, "recvbuf", func);
  a.each = size_t(e.count) * typed::type_size(e.type);
  return a;
}

// Block k of buf for k < k_end, each bytes long.
std::vector<Bytes> blocks(const void* buf, size_t k_end, size_t each) {
  std::vector<Bytes> out;
  for (size_t k = 0; k < k_end; ++k) out.push_back(typed::bytes_of(static_cast<const char*>(buf) + k * each, each));
  return out;
}

// Puts in-neighbour k's block at k * each of recvbuf, but for PROC_NULL.
void put_blocks(void* recvbuf, const std::vector<int>& in, const std::vector<Bytes>& got, size_t each,
                std::string_view func) {
  for (size_t k = 0; k < in.size() && k < got.size(); ++k)
    if (in[k] != core::PROC_NULL) typed::put(static_cast<char*>(recvbuf) + k * each, got[k], each, func);
}

std::vector<Bytes> present(core::Blocks b) {
  std::vector<Bytes> out;
  for (auto& x : b) out.push_back(x ? std::move(*x) : Bytes());
  return out;
}

core::nbc::Deliver put_later(void* recvbuf, std::vector<int> in, size_t each, const char* func) {
  return [recvbuf, in = std::move(in), each, name = std::string(func)](core::nbc::Out& o) {
    put_blocks(recvbuf, in, o.parts, each, name);
  };
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
    Args a = checked(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, func);
    core::Blocks got = core::neighbor_allgather(c, typed::bytes_of(sendbuf, a.each), func);
    put_blocks(recvbuf, a.nb.in, present(std::move(got)), a.each, func);
  });
}

void Topocomm::Neighbor_alltoall(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                                 int recvcount, const Datatype& recvtype) const {
  const char* func = "MPI_Neighbor_alltoall";
  guarded(*this, func, [&](core::Comm& c) {
    Args a = checked(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, func);
    core::Blocks got = core::neighbor_alltoall(c, blocks(sendbuf, a.nb.out.size(), a.each), func);
    put_blocks(recvbuf, a.nb.in, present(std::move(got)), a.each, func);
  });
}

Request Topocomm::Ineighbor_allgather(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                                      int recvcount, const Datatype& recvtype) const {
  const char* func = "MPI_Ineighbor_allgather";
  return detail::start_collective(*this, func, [&](const core::CommPtr& c) {
    Args a = checked(*c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, func);
    return core::nbc::ineighbor_allgather(c, typed::bytes_of(sendbuf, a.each),
                                          put_later(recvbuf, std::move(a.nb.in), a.each, func), func)
        .request;
  });
}

Request Topocomm::Ineighbor_alltoall(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                                     int recvcount, const Datatype& recvtype) const {
  const char* func = "MPI_Ineighbor_alltoall";
  return detail::start_collective(*this, func, [&](const core::CommPtr& c) {
    Args a = checked(*c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, func);
    std::vector<Bytes> parts = blocks(sendbuf, a.nb.out.size(), a.each);
    return core::nbc::ineighbor_alltoall(c, std::move(parts), put_later(recvbuf, std::move(a.nb.in), a.each, func),
                                         func)
        .request;
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
