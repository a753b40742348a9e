// capi/c_nbcv.cpp: the C API's nonblocking v-, w- and reduce-scatter
// collectives (MPI-3.1 §5.12.3-§5.12.9: MPI_Igatherv, MPI_Iscatterv,
// MPI_Iallgatherv, MPI_Ialltoallv, MPI_Ialltoallw, MPI_Ireduce_scatter,
// MPI_Ireduce_scatter_block) on intra- and intercommunicators, over the
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
#include "capi/c_layout.hpp"

using namespace lumpi;
using namespace lumpi::capi;

namespace {

using core::nbc::Out;

// A predefined op as a Combine: inout = in op inout (MPI-3.1 §5.9.7).
core::coll::Combine predefined_combine(MPI_Op op, MPI_Datatype t, const char* f) {
  Datatype dt = reduce_type(t, f);
  Op o = op_of(op, f);
  const size_t es = size_t(type_size(t, f));
  std::string name = f;
  return [dt, o, es, name](const Bytes& lower, const Bytes& higher) {
    if (lower.size() != higher.size())
      core::fail(core::ErrClass::Count, name,
                 "ranks passed different counts (" + std::to_string(lower.size() / es) + " vs " +
                     std::to_string(higher.size() / es) + " elements)");
    Bytes out = higher;
    if (!out.empty()) o.Reduce_local(lower.data(), out.data(), int(out.size() / es), dt);
    return out;
  };
}

// Reduce-scatter (core::nbc::ireduce_scatter): counts, one per rank of the
// local group, are the blocks this group gets; the input vector is the sum
// of them. On an intercommunicator the other group's result is scattered
// here (§5.10.1).
MPI_Request reduce_scatter(const void* sendbuf, void* recvbuf, const std::vector<int>& counts, MPI_Datatype t,
                           MPI_Op op, const core::CommPtr& c, const char* f) {
  const size_t es = size_t(type_size(t, f));
  std::vector<size_t> sizes;
  size_t total = 0;
  for (int k : counts) {
    sizes.push_back(size_t(k) * es);
    total += size_t(k) * es;
  }
  core::coll::Combine comb = is_user_op(op) ? user_combine(op, t, f) : predefined_combine(op, t, f);
  if (c->is_inter() && sendbuf == MPI_IN_PLACE)
    fail(MPI_ERR_ARG, f, "sendbuf is MPI_IN_PLACE, which an intercommunicator does not allow");
  const void* in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;  // in place: recvbuf holds the whole input
  if (total > 0) check_out(in, f, "sendbuf");
  const size_t n = sizes[size_t(c->rank())];
  if (n > 0) check_out(recvbuf, f, "recvbuf");
  std::string name = f;
  core::nbc::Deliver into = [recvbuf, n, name](Out& o) {
    if (o.has_data) place(recvbuf, 0, o.data, n, name, 0);
  };
  return started(c, core::nbc::ireduce_scatter(c, block_at(in, 0, total), comb, sizes, into, f), f);
}

}  // namespace

extern "C" {

int MPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Igatherv";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    core::CommPtr c = core_comm(comm, f);
    Gatherv a = gatherv_args(*c, sendbuf, sendcount, sendtype, recvcounts, displs, recvtype, root, f);
    core::nbc::Deliver into = a.at_root ? place_later(recvbuf, std::move(a.recv), f) : nullptr;
    *r = started(c, core::nbc::igather(c, std::move(a.mine), root, std::move(into)), f);
  });
}

int MPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                  void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Iscatterv";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    core::CommPtr c = core_comm(comm, f);
    Scatterv a = scatterv_args(*c, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, f);
    core::nbc::Deliver into;
    if (a.receives)
      into = [recvbuf, room = a.room, name = std::string(f), root](Out& o) {
        if (o.has_data) place(recvbuf, 0, o.data, room, name, root);
      };
    *r = started(c, core::nbc::iscatter(c, std::move(a.parts), root, std::move(into)), f);
  });
}

int MPI_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                    const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Iallgatherv";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    core::CommPtr c = core_comm(comm, f);
    Allgatherv a = allgatherv_args(*c, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, f);
    *r = started(c, core::nbc::iallgather(c, std::move(a.mine), place_later(recvbuf, std::move(a.recv), f)), f);
  });
}

int MPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                   MPI_Request* r) {
  const char* f = "MPI_Ialltoallv";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    core::CommPtr c = core_comm(comm, f);
    Exchange a = alltoallv_args(*c, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, f);
    *r = started(c, core::nbc::ialltoall(c, std::move(a.parts), place_later(recvbuf, std::move(a.recv), f)), f);
  });
}

int MPI_Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                   void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                   MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Ialltoallw";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    core::CommPtr c = core_comm(comm, f);
    Exchange a =
        alltoallw_args(*c, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, f);
    *r = started(c, core::nbc::ialltoall(c, std::move(a.parts), place_later(recvbuf, std::move(a.recv), f)), f);
  });
}

int MPI_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype t, MPI_Op op,
                        MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Ireduce_scatter";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    core::CommPtr c = core_comm(comm, f);
    *r = reduce_scatter(sendbuf, recvbuf, counts_arg(recvcounts, c->size(), f, "recvcounts"), t, op, c, f);
  });
}

int MPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype t, MPI_Op op,
                              MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Ireduce_scatter_block";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    check_count(recvcount, f, "recvcount");
    core::CommPtr c = core_comm(comm, f);
    *r = reduce_scatter(sendbuf, recvbuf, std::vector<int>(size_t(c->size()), recvcount), t, op, c, f);
  });
}

}  // extern "C"
