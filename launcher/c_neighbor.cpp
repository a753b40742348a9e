// launcher/c_neighbor.cpp: the C API's neighbourhood collectives (MPI-3.1
// §7.6: MPI_Neighbor_allgather(v), MPI_Neighbor_alltoall(v/w)) on
// Cartesian, graph and distributed-graph communicators, over the core's
// byte forms (core/topo_comm.hpp, core/neighbor.cpp), which define the
// neighbour order and which block fills which slot. A PROC_NULL neighbour
// (a non-periodic Cartesian edge) leaves its receive block untouched.
#include "core/topo_comm.hpp"
#include "launcher/c_layout.hpp"

using namespace lumpi;
using namespace lumpi::capi;

namespace {

// Places in-neighbour k's block at rdispl[k] (bytes), room rcap[k].
void place_all(const core::Blocks& got, void* recvbuf, const std::vector<long>& rdispl,
               const std::vector<size_t>& rcap, const char* f) {
  for (size_t k = 0; k < got.size(); ++k)
    if (got[k]) place(recvbuf, rdispl[k], *got[k], rcap[k], f, int(k));
}

void alltoall_bytes(core::Comm& c, const void* sendbuf, const std::vector<size_t>& scount,
                    const std::vector<long>& sdispl, void* recvbuf, const std::vector<size_t>& rcap,
                    const std::vector<long>& rdispl, const char* f) {
  std::vector<std::string> blocks;
  for (size_t k = 0; k < scount.size(); ++k) blocks.push_back(block_at(sendbuf, sdispl[k], scount[k]));
  place_all(core::neighbor_alltoall(c, blocks, f), recvbuf, rdispl, rcap, f);
}

}  // namespace

extern "C" {

int MPI_Neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm) {
  const char* f = "MPI_Neighbor_allgather";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    core::Neighbors nb = core::neighbors_of(*c, f);
    const size_t room = nbytes(recvcount, recvtype, f, "recvcount");
    std::vector<long> rdispl;
    for (size_t k = 0; k < nb.in.size(); ++k) rdispl.push_back(long(k * room));
    Bytes mine = block_at(sendbuf, 0, nbytes(sendcount, sendtype, f, "sendcount"));
    place_all(core::neighbor_allgather(*c, mine), recvbuf, rdispl, std::vector<size_t>(nb.in.size(), room), f);
  });
}

int MPI_Neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                            const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  const char* f = "MPI_Neighbor_allgatherv";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    core::Neighbors nb = core::neighbors_of(*c, f);
    const int in = int(nb.in.size());
    std::vector<int> rc = counts_arg(recvcounts, in, f, "recvcounts"), rd = displs_arg(displs, in, f, "displs");
    const size_t es = size_t(type_size(recvtype, f));
    std::vector<long> rdispl;
    std::vector<size_t> rcap;
    for (int k = 0; k < in; ++k) {
      rdispl.push_back(long(rd[size_t(k)]) * long(es));
      rcap.push_back(size_t(rc[size_t(k)]) * es);
    }
    Bytes mine = block_at(sendbuf, 0, nbytes(sendcount, sendtype, f, "sendcount"));
    place_all(core::neighbor_allgather(*c, mine, f), recvbuf, rdispl, rcap, f);
  });
}

int MPI_Neighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm) {
  const char* f = "MPI_Neighbor_alltoall";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    core::Neighbors nb = core::neighbors_of(*c, f);
    const size_t sb = nbytes(sendcount, sendtype, f, "sendcount"), rb = nbytes(recvcount, recvtype, f, "recvcount");
    std::vector<long> sdispl, rdispl;
    for (size_t k = 0; k < nb.out.size(); ++k) sdispl.push_back(long(k * sb));
    for (size_t k = 0; k < nb.in.size(); ++k) rdispl.push_back(long(k * rb));
    alltoall_bytes(*c, sendbuf, std::vector<size_t>(nb.out.size(), sb), sdispl, recvbuf,
                   std::vector<size_t>(nb.in.size(), rb), rdispl, f);
  });
}

int MPI_Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                           void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                           MPI_Comm comm) {
  const char* f = "MPI_Neighbor_alltoallv";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    core::Neighbors nb = core::neighbors_of(*c, f);
    const int in = int(nb.in.size()), out = int(nb.out.size());
    std::vector<int> sc = counts_arg(sendcounts, out, f, "sendcounts"), sd = displs_arg(sdispls, out, f, "sdispls");
    std::vector<int> rc = counts_arg(recvcounts, in, f, "recvcounts"), rd = displs_arg(rdispls, in, f, "rdispls");
    const size_t ses = size_t(type_size(sendtype, f)), res = size_t(type_size(recvtype, f));
    std::vector<size_t> scount, rcap;
    std::vector<long> sdispl, rdispl;
    for (int k = 0; k < out; ++k) {
      scount.push_back(size_t(sc[size_t(k)]) * ses);
      sdispl.push_back(long(sd[size_t(k)]) * long(ses));
    }
    for (int k = 0; k < in; ++k) {
      rcap.push_back(size_t(rc[size_t(k)]) * res);
      rdispl.push_back(long(rd[size_t(k)]) * long(res));
    }
    alltoall_bytes(*c, sendbuf, scount, sdispl, recvbuf, rcap, rdispl, f);
  });
}

int MPI_Neighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                           const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                           const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  const char* f = "MPI_Neighbor_alltoallw";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    core::Neighbors nb = core::neighbors_of(*c, f);
    const int in = int(nb.in.size()), out = int(nb.out.size());
    std::vector<int> sc = counts_arg(sendcounts, out, f, "sendcounts");
    std::vector<int> rc = counts_arg(recvcounts, in, f, "recvcounts");
    if (out > 0) {
      check_out(sdispls, f, "sdispls");
      check_out(sendtypes, f, "sendtypes");
    }
    if (in > 0) {
      check_out(rdispls, f, "rdispls");
      check_out(recvtypes, f, "recvtypes");
    }
    std::vector<size_t> scount, rcap;
    std::vector<long> sdispl, rdispl;
    for (int k = 0; k < out; ++k) {
      scount.push_back(size_t(sc[size_t(k)]) * size_t(type_size(sendtypes[k], f)));
      sdispl.push_back(long(sdispls[k]));
    }
    for (int k = 0; k < in; ++k) {
      rcap.push_back(size_t(rc[size_t(k)]) * size_t(type_size(recvtypes[k], f)));
      rdispl.push_back(long(rdispls[k]));
    }
    alltoall_bytes(*c, sendbuf, scount, sdispl, recvbuf, rcap, rdispl, f);
  });
}

}  // extern "C"
