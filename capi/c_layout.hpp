// capi/c_layout.hpp: the C door over core/coll/layout.hpp, the argument
// rules of the gather, scatter, allgather and alltoall families (regular,
// v-, w- and neighbourhood forms) that the C and C++ doors share. This
// header gives them the C API's datatype handles (each resolved only where
// the core's rules look at it) and adds the C door's checker
// (core/check/buffer_watch.hpp, under --check): the blocks a call packs from
// the program's memory are noted as read, a nonblocking collective's
// receive blocks as written, and every block that lands is checked before
// and after (check_landing). The blocking (capi/c_collv.cpp,
// capi/c_neighbor.cpp, capi/c_p2p.cpp) and the nonblocking
// (capi/c_nbc.cpp, capi/c_nbcv.cpp, capi/c_neighbor.cpp) forms use it.
#pragma once

#include <string>
#include <vector>

#include "core/coll/layout.hpp"
#include "core/coll/nbc.hpp"
#include "capi/c_api.hpp"

namespace lumpi::capi {

using core::coll::Allgatherv;
using core::coll::Bytes;
using core::coll::counts_arg;
using core::coll::displs_arg;
using core::coll::Exchange;
using core::coll::Gatherv;
using core::coll::Layout;
using core::coll::Scatterv;
using core::coll::Slot;

// MPI_IN_PLACE is ((void*)-1), the core's core::coll::kInPlace.

// Datatype handle t as the core's TypeArg: type_of(t), usable. `array`:
// t[i] of an array of handles named `what` (ERR_ARG when it is NULL).
core::coll::TypeArg type_arg(MPI_Datatype t, const char* f);
core::coll::TypeArg types_arg(const MPI_Datatype* t, const char* f, const char* what);

// count elements of t at a buffer's start (ERR_COUNT naming `what`, ERR_TYPE).
Slot slot_arg(int count, MPI_Datatype t, const char* f, const char* what);
// The packed data of slot s of buf (noted as read).
Bytes pack_slot(const void* buf, const Slot& s, const char* func);
// Notes the blocks a call read (watched while its request is pending).
void note_read(const std::vector<core::coll::Piece>& read);
// core::coll::unpack_block, unpack_blocks, unpack_later with the checker's landing checks.
void place(void* buf, const Slot& s, const Bytes& b, const std::string& func, int from);
void place_all(void* buf, const Layout& l, const std::vector<Bytes>& parts, const std::string& func);
core::nbc::Deliver place_later(void* buf, Layout l, const char* func);
// The handle of a started nonblocking collective.
MPI_Request started(const core::CommPtr& c, const core::nbc::Started& s, const char* func);

// ---- the families (core/coll/layout.hpp), their reads noted ----------------------------

Gatherv gatherv_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                     const void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                     int root, const char* f);
Scatterv scatterv_args(const core::Comm& c, const void* sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, const void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                       const char* f);
Allgatherv allgatherv_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                           void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                           const char* f);
Exchange alltoallv_args(const core::Comm& c, const void* sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                        MPI_Datatype recvtype, const char* f);
Exchange alltoallw_args(const core::Comm& c, const void* sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
                        const MPI_Datatype recvtypes[], const char* f);
Gatherv gather_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                    const void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, const char* f);
Scatterv scatter_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                      const void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, const char* f);
Allgatherv allgather_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                          void* recvbuf, int recvcount, MPI_Datatype recvtype, const char* f);
Exchange alltoall_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                       void* recvbuf, int recvcount, MPI_Datatype recvtype, const char* f);
Exchange neighbor_allgather_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                 const void* recvbuf, int recvcount, MPI_Datatype recvtype, const char* f);
Exchange neighbor_allgatherv_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                  const void* recvbuf, const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, const char* f);
Exchange neighbor_alltoall_args(const core::Comm& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                const void* recvbuf, int recvcount, MPI_Datatype recvtype, const char* f);
Exchange neighbor_alltoallv_args(const core::Comm& c, const void* sendbuf, const int sendcounts[],
                                 const int sdispls[], MPI_Datatype sendtype, const void* recvbuf,
                                 const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, const char* f);
Exchange neighbor_alltoallw_args(const core::Comm& c, const void* sendbuf, const int sendcounts[],
                                 const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], const void* recvbuf,
                                 const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                 const char* f);

}  // namespace lumpi::capi
