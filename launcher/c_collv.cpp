// launcher/c_collv.cpp: the C API's v- and w-collectives (MPI-3.1 §5.5,
// §5.6, §5.7, §5.8: MPI_Gatherv, MPI_Scatterv, MPI_Allgatherv,
// MPI_Alltoallv, MPI_Alltoallw) on intra- and intercommunicators, over the
// core's byte collectives (core/coll.hpp), which move one block of any
// length per rank: this file only cuts the send buffer into blocks by
// counts and displacements and places the received ones
// (launcher/c_layout.hpp). MPI_IN_PLACE where MPI allows it.
#include "core/coll.hpp"
#include "launcher/c_layout.hpp"

using namespace lumpi;
using namespace lumpi::capi;

namespace {

int peers(const core::Comm& c) { return c.is_inter() ? c.remote_size() : c.size(); }

}  // namespace

extern "C" {

int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const char* f = "MPI_Gatherv";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    c->check_root(root, f);
    const bool at_root = c->is_root(root), sends = !c->is_inter() || root >= 0;
    const int p = peers(*c);
    std::vector<int> counts, disp;
    size_t es = 0;
    if (at_root) {
      counts = counts_arg(recvcounts, p, f, "recvcounts");
      disp = displs_arg(displs, p, f, "displs");
      es = size_t(type_size(recvtype, f));
    }
    const bool in_place = sendbuf == MPI_IN_PLACE && at_root && !c->is_inter();
    Bytes mine = in_place || !sends ? Bytes() : block_at(sendbuf, 0, nbytes(sendcount, sendtype, f, "sendcount"));
    std::vector<Bytes> all = core::coll::gather(*c, std::move(mine), root);
    if (!at_root) return;
    for (int i = 0; i < p; ++i) {
      if (in_place && i == c->rank()) continue;
      place(recvbuf, long(disp[size_t(i)]) * long(es), all[size_t(i)], size_t(counts[size_t(i)]) * es, f, i);
    }
  });
}

int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const char* f = "MPI_Scatterv";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    c->check_root(root, f);
    const bool at_root = c->is_root(root), receives = !c->is_inter() || root >= 0;
    const int p = peers(*c);
    std::vector<Bytes> parts;
    if (at_root) {
      std::vector<int> counts = counts_arg(sendcounts, p, f, "sendcounts");
      std::vector<int> disp = displs_arg(displs, p, f, "displs");
      const size_t es = size_t(type_size(sendtype, f));
      for (int i = 0; i < p; ++i)
        parts.push_back(block_at(sendbuf, long(disp[size_t(i)]) * long(es), size_t(counts[size_t(i)]) * es));
    }
    const bool in_place = recvbuf == MPI_IN_PLACE && at_root && !c->is_inter();
    const size_t room = receives && !in_place ? nbytes(recvcount, recvtype, f, "recvcount") : 0;
    Bytes mine = core::coll::scatter(*c, std::move(parts), root);
    if (receives && !in_place) place(recvbuf, 0, mine, room, f, c->is_inter() ? root : root);
  });
}

int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  const char* f = "MPI_Allgatherv";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    const int p = peers(*c);
    std::vector<int> counts = counts_arg(recvcounts, p, f, "recvcounts");
    std::vector<int> disp = displs_arg(displs, p, f, "displs");
    const size_t es = size_t(type_size(recvtype, f));
    Bytes mine;
    if (sendbuf == MPI_IN_PLACE && !c->is_inter()) {
      const size_t me = size_t(c->rank());
      mine = block_at(recvbuf, long(disp[me]) * long(es), size_t(counts[me]) * es);
    } else {
      mine = block_at(sendbuf, 0, nbytes(sendcount, sendtype, f, "sendcount"));
    }
    std::vector<Bytes> all = core::coll::allgather(*c, std::move(mine));
    for (int i = 0; i < p; ++i)
      place(recvbuf, long(disp[size_t(i)]) * long(es), all[size_t(i)], size_t(counts[size_t(i)]) * es, f, i);
  });
}

// The general exchange: block j of the send side goes to rank j; the
// block from rank i lands at rdispl[i] (all in bytes), with room rcap[i].
static void exchange(core::Comm& c, const void* sendbuf, const std::vector<size_t>& scount,
                     const std::vector<long>& sdispl, void* recvbuf, const std::vector<size_t>& rcap,
                     const std::vector<long>& rdispl, const char* f) {
  std::vector<Bytes> parts;
  for (size_t j = 0; j < scount.size(); ++j) parts.push_back(block_at(sendbuf, sdispl[j], scount[j]));
  std::vector<Bytes> got = core::coll::alltoall(c, std::move(parts));
  for (size_t i = 0; i < got.size(); ++i) place(recvbuf, rdispl[i], got[i], rcap[i], f, int(i));
}

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                  void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  const char* f = "MPI_Alltoallv";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    const int p = peers(*c);
    std::vector<int> rc = counts_arg(recvcounts, p, f, "recvcounts"), rd = displs_arg(rdispls, p, f, "rdispls");
    const size_t res = size_t(type_size(recvtype, f));
    std::vector<size_t> rcap, scount;
    std::vector<long> rdispl, sdispl;
    for (int i = 0; i < p; ++i) {
      rcap.push_back(size_t(rc[size_t(i)]) * res);
      rdispl.push_back(long(rd[size_t(i)]) * long(res));
    }
    std::vector<char> copy;
    if (sendbuf == MPI_IN_PLACE) {  // the send side is the receive side's layout
      size_t end = 0;
      for (int i = 0; i < p; ++i) end = std::max(end, size_t(rdispl[size_t(i)]) + rcap[size_t(i)]);
      copy.assign(static_cast<char*>(recvbuf), static_cast<char*>(recvbuf) + end);
      exchange(*c, copy.data(), rcap, rdispl, recvbuf, rcap, rdispl, f);
      return;
    }
    std::vector<int> sc = counts_arg(sendcounts, p, f, "sendcounts"), sd = displs_arg(sdispls, p, f, "sdispls");
    const size_t ses = size_t(type_size(sendtype, f));
    for (int j = 0; j < p; ++j) {
      scount.push_back(size_t(sc[size_t(j)]) * ses);
      sdispl.push_back(long(sd[size_t(j)]) * long(ses));
    }
    exchange(*c, sendbuf, scount, sdispl, recvbuf, rcap, rdispl, f);
  });
}

int MPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                  void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                  MPI_Comm comm) {
  const char* f = "MPI_Alltoallw";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    const int p = peers(*c);
    std::vector<int> rc = counts_arg(recvcounts, p, f, "recvcounts"), rd = displs_arg(rdispls, p, f, "rdispls");
    if (p > 0) check_out(recvtypes, f, "recvtypes");
    std::vector<size_t> rcap, scount;
    std::vector<long> rdispl, sdispl;
    for (int i = 0; i < p; ++i) {
      rcap.push_back(size_t(rc[size_t(i)]) * size_t(type_size(recvtypes[i], f)));
      rdispl.push_back(long(rd[size_t(i)]));  // bytes
    }
    std::vector<char> copy;
    if (sendbuf == MPI_IN_PLACE) {
      size_t end = 0;
      for (int i = 0; i < p; ++i) end = std::max(end, size_t(rdispl[size_t(i)]) + rcap[size_t(i)]);
      copy.assign(static_cast<char*>(recvbuf), static_cast<char*>(recvbuf) + end);
      exchange(*c, copy.data(), rcap, rdispl, recvbuf, rcap, rdispl, f);
      return;
    }
    std::vector<int> sc = counts_arg(sendcounts, p, f, "sendcounts"), sd = displs_arg(sdispls, p, f, "sdispls");
    if (p > 0) check_out(sendtypes, f, "sendtypes");
    for (int j = 0; j < p; ++j) {
      scount.push_back(size_t(sc[size_t(j)]) * size_t(type_size(sendtypes[j], f)));
      sdispl.push_back(long(sd[size_t(j)]));
    }
    exchange(*c, sendbuf, scount, sdispl, recvbuf, rcap, rdispl, f);
  });
}

}  // extern "C"
