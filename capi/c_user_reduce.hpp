// capi/c_user_reduce.hpp: the reductions with a user-defined op
// (capi/c_op.cpp), which the C reduction functions call when their op
// is one. Arguments as the MPI function's; MPI_IN_PLACE allowed where MPI
// allows it; errors raised as in the rest of the C API (inside call()).
#pragma once

#include <vector>

#include "capi/c_api.hpp"

namespace lumpi::capi {

void user_reduce_local(const void* in, void* inout, int count, MPI_Datatype t, MPI_Op op);
void user_reduce(const void* send, void* recv, int count, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm);
void user_allreduce(const void* send, void* recv, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm);
void user_scan(const void* send, void* recv, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm, bool exclusive);
// counts: the blocks of this process's group, one per rank; f names the call.
void user_reduce_scatter(const void* send, void* recv, const std::vector<int>& counts, MPI_Datatype t, MPI_Op op,
                         MPI_Comm comm, const char* f);
// f: "MPI_Ireduce", "MPI_Iallreduce", "MPI_Iscan" or "MPI_Iexscan" (root only for MPI_Ireduce).
Request user_nonblocking(const char* f, const void* send, void* recv, int count, MPI_Datatype t, MPI_Op op,
                         int root, MPI_Comm comm);

}  // namespace lumpi::capi
