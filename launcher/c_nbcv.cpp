// launcher/c_nbcv.cpp: the C API's nonblocking v-, w- and reduce-scatter
// collectives (MPI-3.1 §5.12.3-§5.12.9: MPI_Igatherv, MPI_Iscatterv,
// MPI_Iallgatherv, MPI_Ialltoallv, MPI_Ialltoallw, MPI_Ireduce_scatter,
// MPI_Ireduce_scatter_block) over the core's nonblocking byte collectives
// (core/nbc.hpp), which move one block of any length per rank, as their
// blocking twins in launcher/c_collv.cpp do over core/coll.hpp.
//
// Everything is checked and the send side cut into blocks at the call
// (before anything is sent; the caller may reuse its send buffer at once);
// the received blocks are placed into the receive buffer when the
// collective completes, before its request reports completion
// (a block longer than its room fails the request with MPI_ERR_TRUNCATE).
// MPI_IN_PLACE where MPI allows it.
#include <algorithm>
#include <cstring>

#include "core/nbc.hpp"
#include "launcher/c_layout.hpp"

using namespace lumpi;
using namespace lumpi::capi;

namespace {

using core::nbc::Out;

int peers(const core::Comm& c) { return c.is_inter() ? c.remote_size() : c.size(); }

// Where each peer's block lands in the receive buffer (bytes), and its room.
struct Layout {
  std::vector<long> at;
  std::vector<size_t> room;
  int skip = -1;  // a block left as it is (MPI_IN_PLACE)
};

// Raised inside a completing collective: a core error, which the request
// then reports (core/nbc.hpp's Deliver).
void place_done(void* buf, long off, const Bytes& b, size_t cap, const std::string& func, int from) {
  if (b.size() > cap)
    core::fail(core::ErrClass::Truncate, func,
               "rank " + std::to_string(from) + " sent " + std::to_string(b.size()) +
                   " bytes; its block has room for " + std::to_string(cap));
  if (!b.empty()) std::memcpy(static_cast<char*>(buf) + off, b.data(), b.size());
}

core::nbc::Deliver place_parts(void* recvbuf, Layout l, const char* func) {
  std::string name = func;
  return [recvbuf, l = std::move(l), name](Out& o) {
    for (size_t i = 0; i < o.parts.size() && i < l.at.size(); ++i)
      if (int(i) != l.skip) place_done(recvbuf, l.at[i], o.parts[i], l.room[i], name, int(i));
  };
}

// Layout from counts and displacements in elements of es bytes.
Layout layout(const std::vector<int>& counts, const std::vector<int>& displs, size_t es) {
  Layout l;
  for (size_t i = 0; i < counts.size(); ++i) {
    l.at.push_back(long(displs[i]) * long(es));
    l.room.push_back(size_t(counts[i]) * es);
  }
  return l;
}

// The send blocks of an all-to-all: block j of count[j] bytes at displ[j].
std::vector<Bytes> cut(const void* buf, const std::vector<size_t>& count, const std::vector<long>& displ) {
  std::vector<Bytes> parts;
  for (size_t j = 0; j < count.size(); ++j) parts.push_back(block_at(buf, displ[j], count[j]));
  return parts;
}

// The end of the last block of a layout: what MPI_IN_PLACE must copy.
size_t extent_of(const Layout& l) {
  size_t end = 0;
  for (size_t i = 0; i < l.at.size(); ++i) end = std::max(end, size_t(l.at[i]) + l.room[i]);
  return end;
}

MPI_Request started(const core::CommPtr& c, const core::nbc::Started& s, const char* f) {
  return add_request(detail::request_of(c, s.request, f));
}

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

// Reduce-scatter: an allreduce of the whole vector; each rank keeps its
// block (counts[rank] elements after those of the lower ranks).
MPI_Request reduce_scatter(const void* sendbuf, void* recvbuf, const std::vector<int>& counts, MPI_Datatype t,
                           MPI_Op op, MPI_Comm comm, const char* f) {
  core::CommPtr c = core_comm(comm, f);
  if (c->is_inter()) fail(MPI_ERR_COMM, f, "comm is an intercommunicator (lumpi: intracommunicators only)");
  const size_t es = size_t(type_size(t, f));
  size_t total = 0, before = 0;
  for (int i = 0; i < int(counts.size()); ++i) {
    if (i == c->rank()) before = total;
    total += size_t(counts[size_t(i)]);
  }
  core::coll::Combine comb = is_user_op(op) ? user_combine(op, t, f) : predefined_combine(op, t, f);
  const void* in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;  // in place: recvbuf holds the whole input
  if (total > 0) check_out(in, f, "sendbuf");
  Bytes mine = block_at(in, 0, total * es);
  const size_t off = before * es, n = size_t(counts[size_t(c->rank())]) * es;
  std::string name = f;
  core::nbc::Deliver into = [recvbuf, off, n, name](Out& o) {
    if (!o.has_data) return;
    if (o.data.size() < off + n)
      core::fail(core::ErrClass::Intern, name, "the reduced vector is shorter than the blocks");
    if (n) std::memcpy(recvbuf, o.data.data() + off, n);
  };
  return started(c, core::nbc::iallreduce(c, std::move(mine), comb, into), f);
}

}  // namespace

extern "C" {

int MPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Igatherv";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    core::CommPtr c = core_comm(comm, f);
    c->check_root(root, f);
    const bool at_root = c->is_root(root), sends = !c->is_inter() || root >= 0;
    const int p = peers(*c);
    Layout l;
    if (at_root)
      l = layout(counts_arg(recvcounts, p, f, "recvcounts"), displs_arg(displs, p, f, "displs"),
                 size_t(type_size(recvtype, f)));
    const bool in_place = sendbuf == MPI_IN_PLACE && at_root && !c->is_inter();
    if (in_place) l.skip = c->rank();
    Bytes mine = in_place || !sends ? Bytes() : block_at(sendbuf, 0, nbytes(sendcount, sendtype, f, "sendcount"));
    *r = started(c, core::nbc::igather(c, std::move(mine), root, at_root ? place_parts(recvbuf, l, f) : nullptr), f);
  });
}

int MPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                  void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Iscatterv";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    core::CommPtr c = core_comm(comm, f);
    c->check_root(root, f);
    const bool at_root = c->is_root(root), receives = !c->is_inter() || root >= 0;
    const int p = peers(*c);
    std::vector<Bytes> parts;
    if (at_root) {
      Layout l = layout(counts_arg(sendcounts, p, f, "sendcounts"), displs_arg(displs, p, f, "displs"),
                        size_t(type_size(sendtype, f)));
      parts = cut(sendbuf, l.room, l.at);
    }
    const bool in_place = recvbuf == MPI_IN_PLACE && at_root && !c->is_inter();
    const size_t room = receives && !in_place ? nbytes(recvcount, recvtype, f, "recvcount") : 0;
    core::nbc::Deliver into;
    if (receives && !in_place) {
      std::string name = f;
      into = [recvbuf, room, name, root](Out& o) {
        if (o.has_data) place_done(recvbuf, 0, o.data, room, name, root);
      };
    }
    *r = started(c, core::nbc::iscatter(c, std::move(parts), root, into), f);
  });
}

int MPI_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                    const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Iallgatherv";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    core::CommPtr c = core_comm(comm, f);
    const int p = peers(*c);
    Layout l = layout(counts_arg(recvcounts, p, f, "recvcounts"), displs_arg(displs, p, f, "displs"),
                      size_t(type_size(recvtype, f)));
    Bytes mine;
    if (sendbuf == MPI_IN_PLACE && !c->is_inter()) {
      const size_t me = size_t(c->rank());
      mine = block_at(recvbuf, l.at[me], l.room[me]);
      l.skip = c->rank();
    } else {
      mine = block_at(sendbuf, 0, nbytes(sendcount, sendtype, f, "sendcount"));
    }
    *r = started(c, core::nbc::iallgather(c, std::move(mine), place_parts(recvbuf, l, f)), f);
  });
}

int MPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                   MPI_Request* r) {
  const char* f = "MPI_Ialltoallv";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    core::CommPtr c = core_comm(comm, f);
    const int p = peers(*c);
    Layout rl = layout(counts_arg(recvcounts, p, f, "recvcounts"), displs_arg(rdispls, p, f, "rdispls"),
                       size_t(type_size(recvtype, f)));
    std::vector<Bytes> parts;
    if (sendbuf == MPI_IN_PLACE) {  // the send side is the receive side's layout, copied now
      std::vector<char> copy(static_cast<char*>(recvbuf), static_cast<char*>(recvbuf) + extent_of(rl));
      parts = cut(copy.data(), rl.room, rl.at);
    } else {
      Layout sl = layout(counts_arg(sendcounts, p, f, "sendcounts"), displs_arg(sdispls, p, f, "sdispls"),
                         size_t(type_size(sendtype, f)));
      parts = cut(sendbuf, sl.room, sl.at);
    }
    *r = started(c, core::nbc::ialltoall(c, std::move(parts), place_parts(recvbuf, rl, f)), f);
  });
}

int MPI_Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                   void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                   MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Ialltoallw";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    core::CommPtr c = core_comm(comm, f);
    const int p = peers(*c);
    std::vector<int> rc = counts_arg(recvcounts, p, f, "recvcounts"), rd = displs_arg(rdispls, p, f, "rdispls");
    if (p > 0) check_out(recvtypes, f, "recvtypes");
    Layout rl;  // displacements in bytes (§5.8)
    for (int i = 0; i < p; ++i) {
      rl.at.push_back(long(rd[size_t(i)]));
      rl.room.push_back(size_t(rc[size_t(i)]) * size_t(type_size(recvtypes[i], f)));
    }
    std::vector<Bytes> parts;
    if (sendbuf == MPI_IN_PLACE) {
      std::vector<char> copy(static_cast<char*>(recvbuf), static_cast<char*>(recvbuf) + extent_of(rl));
      parts = cut(copy.data(), rl.room, rl.at);
    } else {
      std::vector<int> sc = counts_arg(sendcounts, p, f, "sendcounts"), sd = displs_arg(sdispls, p, f, "sdispls");
      if (p > 0) check_out(sendtypes, f, "sendtypes");
      std::vector<size_t> count;
      std::vector<long> displ;
      for (int j = 0; j < p; ++j) {
        count.push_back(size_t(sc[size_t(j)]) * size_t(type_size(sendtypes[j], f)));
        displ.push_back(long(sd[size_t(j)]));
      }
      parts = cut(sendbuf, count, displ);
    }
    *r = started(c, core::nbc::ialltoall(c, std::move(parts), place_parts(recvbuf, rl, f)), f);
  });
}

int MPI_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype t, MPI_Op op,
                        MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Ireduce_scatter";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    const int n = as<Intracomm>(comm, f).Get_size();
    *r = reduce_scatter(sendbuf, recvbuf, counts_arg(recvcounts, n, f, "recvcounts"), t, op, comm, f);
  });
}

int MPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype t, MPI_Op op,
                              MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Ireduce_scatter_block";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    check_count(recvcount, f, "recvcount");
    const int n = as<Intracomm>(comm, f).Get_size();
    *r = reduce_scatter(sendbuf, recvbuf, std::vector<int>(size_t(n), recvcount), t, op, comm, f);
  });
}

}  // extern "C"
