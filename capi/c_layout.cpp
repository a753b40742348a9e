// capi/c_layout.cpp: the C door over core/coll/layout.hpp (capi/c_layout.hpp):
// datatype handles as the core's type arguments, and the checker's notes
// around the blocks a call reads and the blocks that land.
#include "capi/c_layout.hpp"

namespace lumpi::capi {

namespace coll = core::coll;

namespace {

core::TypePtr usable(MPI_Datatype t, const char* f) {
  core::TypePtr p = type_of(t, f);
  p->check_usable(f);
  return p;
}

// Runs the core's checker of a family, then notes what it read.
template <class Args>
Args noted(Args a) {
  note_read(a.read);
  return a;
}

void check_landings(void* buf, const Layout& l, bool after) {
  for (size_t i = 0; i < l.slots.size(); ++i)
    if (int(i) != l.skip) buffers().landing(coll::at_offset(buf, l.slots[i].at), l.slots[i].bytes(), after);
}

}  // namespace

coll::TypeArg type_arg(MPI_Datatype t, const char* f) {
  return [t, f](int) { return usable(t, f); };
}

coll::TypeArg types_arg(const MPI_Datatype* t, const char* f, const char* what) {
  return [t, f, what](int i) {
    check_out(t, f, what);
    return usable(t[i], f);
  };
}

Slot slot_arg(int count, MPI_Datatype t, const char* f, const char* what) {
  return coll::slot_arg(count, type_arg(t, f), f, what);
}

Bytes pack_slot(const void* buf, const Slot& s, const char* func) {
  std::vector<coll::Piece> read;
  Bytes out = coll::pack_block(buf, s, func, &read);
  note_read(read);
  return out;
}

void note_read(const std::vector<coll::Piece>& read) {
  for (const coll::Piece& p : read)
    if (dense(*p.slot.type)) note_read_buffer(coll::at_offset(p.buf, p.slot.at), p.slot.bytes());
}

void place(void* buf, const Slot& s, const Bytes& b, const std::string& func, int from) {
  if (b.empty() || b.size() > s.bytes()) return coll::unpack_block(buf, s, b, func, from);
  buffers().landing(coll::at_offset(buf, s.at), s.bytes(), false);
  coll::unpack_block(buf, s, b, func, from);
  buffers().landing(coll::at_offset(buf, s.at), s.bytes(), true);
}

void place_all(void* buf, const Layout& l, const std::vector<Bytes>& parts, const std::string& func) {
  check_landings(buf, l, false);
  coll::unpack_blocks(buf, l, parts, func);
  check_landings(buf, l, true);
}

core::nbc::Deliver place_later(void* buf, Layout l, const char* func) {
  for (size_t i = 0; i < l.slots.size(); ++i)
    if (int(i) != l.skip && l.slots[i].type && dense(*l.slots[i].type))
      note_written_buffer(coll::at_offset(buf, l.slots[i].at), l.slots[i].bytes());
  return [buf, l = std::move(l), name = std::string(func)](core::nbc::Out& o) { place_all(buf, l, o.parts, name); };
}

MPI_Request started(const core::CommPtr& c, const core::nbc::Started& s, const char* func) {
  return add_request(detail::request_of(c, s.request, func));
}

// ---- the families ---------------------------------------------------------------------

Gatherv gatherv_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                     const void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                     int root, const char* f) {
  return noted(coll::gatherv_args(c, sendbuf, sendcount, type_arg(sendtype, f), recvbuf, recvcounts, displs,
                                  type_arg(recvtype, f), root, f));
}

Scatterv scatterv_args(const core::Comm& c, const void* sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, const void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                       const char* f) {
  return noted(coll::scatterv_args(c, sendbuf, sendcounts, displs, type_arg(sendtype, f), recvbuf, recvcount,
                                   type_arg(recvtype, f), root, f));
}

Allgatherv allgatherv_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                           void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                           const char* f) {
  return noted(coll::allgatherv_args(c, sendbuf, sendcount, type_arg(sendtype, f), recvbuf, recvcounts, displs,
                                     type_arg(recvtype, f), f));
}

Exchange alltoallv_args(const core::Comm& c, const void* sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                        MPI_Datatype recvtype, const char* f) {
  return noted(coll::alltoallv_args(c, sendbuf, sendcounts, sdispls, type_arg(sendtype, f), recvbuf, recvcounts,
                                    rdispls, type_arg(recvtype, f), f));
}

Exchange alltoallw_args(const core::Comm& c, const void* sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
                        const MPI_Datatype recvtypes[], const char* f) {
  return noted(coll::alltoallw_args(c, sendbuf, sendcounts, sdispls, types_arg(sendtypes, f, "sendtypes"), recvbuf,
                                    recvcounts, rdispls, types_arg(recvtypes, f, "recvtypes"), f));
}

Gatherv gather_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                    const void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, const char* f) {
  return noted(coll::gather_args(c, sendbuf, sendcount, type_arg(sendtype, f), recvbuf, recvcount,
                                 type_arg(recvtype, f), root, f));
}

Scatterv scatter_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                      const void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, const char* f) {
  return noted(coll::scatter_args(c, sendbuf, sendcount, type_arg(sendtype, f), recvbuf, recvcount,
                                  type_arg(recvtype, f), root, f));
}

Allgatherv allgather_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                          void* recvbuf, int recvcount, MPI_Datatype recvtype, const char* f) {
  return noted(coll::allgather_args(c, sendbuf, sendcount, type_arg(sendtype, f), recvbuf, recvcount,
                                    type_arg(recvtype, f), f));
}

Exchange alltoall_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                       void* recvbuf, int recvcount, MPI_Datatype recvtype, const char* f) {
  return noted(coll::alltoall_args(c, sendbuf, sendcount, type_arg(sendtype, f), recvbuf, recvcount,
                                   type_arg(recvtype, f), f));
}

Exchange neighbor_allgather_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                 const void* recvbuf, int recvcount, MPI_Datatype recvtype, const char* f) {
  return noted(coll::neighbor_allgather_args(c, sendbuf, sendcount, type_arg(sendtype, f), recvbuf, recvcount,
                                             type_arg(recvtype, f), f));
}

Exchange neighbor_allgatherv_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                  const void* recvbuf, const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, const char* f) {
  return noted(coll::neighbor_allgatherv_args(c, sendbuf, sendcount, type_arg(sendtype, f), recvbuf, recvcounts,
                                              displs, type_arg(recvtype, f), f));
}

Exchange neighbor_alltoall_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                const void* recvbuf, int recvcount, MPI_Datatype recvtype, const char* f) {
  return noted(coll::neighbor_alltoall_args(c, sendbuf, sendcount, type_arg(sendtype, f), recvbuf, recvcount,
                                            type_arg(recvtype, f), f));
}

Exchange neighbor_alltoallv_args(const core::Comm& c, const void* sendbuf, const int sendcounts[],
                                 const int sdispls[], MPI_Datatype sendtype, const void* recvbuf,
                                 const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, const char* f) {
  return noted(coll::neighbor_alltoallv_args(c, sendbuf, sendcounts, sdispls, type_arg(sendtype, f), recvbuf,
                                             recvcounts, rdispls, type_arg(recvtype, f), f));
}

Exchange neighbor_alltoallw_args(const core::Comm& c, const void* sendbuf, const int sendcounts[],
                                 const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], const void* recvbuf,
                                 const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                 const char* f) {
  return noted(coll::neighbor_alltoallw_args(c, sendbuf, sendcounts, sdispls, types_arg(sendtypes, f, "sendtypes"),
                                             recvbuf, recvcounts, rdispls, types_arg(recvtypes, f, "recvtypes"), f));
}

}  // namespace lumpi::capi
