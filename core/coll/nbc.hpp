// core/coll/nbc.hpp: nonblocking collectives (MPI-3.1 §5.12) over bytes: each
// call checks its arguments, starts the collective and returns a Request
// that completes, by wait/test like any other, when this process's part is
// done; the result is then in the Started's Out.
//
// Matching (§5.12): collectives on a communicator match in the order they
// are started; nonblocking ones never match blocking ones (they talk on a
// lane of their own, Lane::Nbc) nor point-to-point traffic. Each started
// collective takes the communicator's next number (Comm::next_nbc), which
// is in every tag it sends, so any number of them can be pending at once.
// Progress: sends go out at the start; the rest advances inside any MPI
// call of the process that waits or tests (Engine::add_background), so a
// rank blocked elsewhere still plays its part. Inputs are copied at the
// start (the caller may reuse its buffers); outputs appear at completion.
//
// Algorithms (p = size): barrier, bcast, gather, scatter, allgather,
// reduce and allreduce on binomial trees (lg p rounds per phase; reduce is
// rooted at 0 and keeps rank order, then forwards to root); alltoall sends
// each block directly (p - 1 messages); scan and exscan by recursive
// doubling (lg p rounds). Intercommunicators: barrier, bcast, gather,
// scatter, allgather, alltoall, reduce and allreduce as in core/coll/coll.hpp
// (each group runs its tree to its leader, the leaders exchange), and
// reduce_scatter. Neighbourhood collectives: one round of direct messages.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/coll/coll.hpp"
#include "core/coll/coll_typed.hpp"

namespace lumpi::core::nbc {

using coll::Bytes;
using coll::Combine;

// What a collective produced for this process, valid once its request is
// complete: `data` for one value (bcast, scatter, reductions), `parts` for
// one per rank (gather at the root, allgather, alltoall). `has_data` is
// false where MPI gives no result (reduce off the root, exscan on rank 0,
// the root's group of an intercommunicator bcast).
struct Out {
  Bytes data;
  std::vector<Bytes> parts;
  bool has_data = false;
};

struct Started {
  RequestPtr request;
  std::shared_ptr<Out> out;
};

// Runs once, when the collective completes successfully, before its
// request reports completion: copies the Out into user buffers (the typed
// API). May raise core::Error, which the request then raises.
using Deliver = std::function<void(Out&)>;

Started ibarrier(const CommPtr& c);
Started ibcast(const CommPtr& c, Bytes data, int root, Deliver d = {});
Started igather(const CommPtr& c, Bytes mine, int root, Deliver d = {});
// parts: size() entries at the root (remote_size() on an intercommunicator).
Started iscatter(const CommPtr& c, std::vector<Bytes> parts, int root, Deliver d = {});
Started iallgather(const CommPtr& c, Bytes mine, Deliver d = {});
Started ialltoall(const CommPtr& c, std::vector<Bytes> parts, Deliver d = {});
// `commutative` false keeps rank order (always kept here; the flag is
// accepted for symmetry with core/coll/coll.hpp).
Started ireduce(const CommPtr& c, Bytes mine, Combine combine, bool commutative, int root,
                Deliver d = {});
Started iallreduce(const CommPtr& c, Bytes mine, Combine combine, Deliver d = {});
// Intracommunicators only (MPI_ERR_COMM otherwise).
Started iscan(const CommPtr& c, Bytes mine, Combine combine, Deliver d = {});
Started iexscan(const CommPtr& c, Bytes mine, Combine combine, Deliver d = {});
// Reduce-scatter (§5.12.9, §5.10): `mine` is this process's whole input
// vector; sizes[i] bytes of the result go to local rank i. The vector is
// reduced in rank order to local rank 0, which cuts it by `sizes` and
// scatters the blocks (binomial). Intercommunicator (§5.10.1): each group
// reduces its own vector, the leaders swap, and the other group's result is
// cut by this group's sizes (MPI_ERR_COUNT if the two totals differ).
// `call` names the MPI function (MPI_Ireduce_scatter or ..._block).
Started ireduce_scatter(const CommPtr& c, Bytes mine, Combine combine, std::vector<size_t> sizes,
                        Deliver d = {}, const char* call = "MPI_Ireduce_scatter");

// Neighbourhood collectives (MPI-3.1 §7.7) on Cartesian, graph and
// distributed-graph communicators (MPI_ERR_TOPOLOGY otherwise, checked as
// the blocking forms do: core/topo/topo_comm.hpp's exchange_neighbors). Out's
// parts: one block per in-neighbour in neighbour order, "" for a PROC_NULL
// neighbour. One round: every block is sent at the start.
// ineighbor_alltoall: parts[k] to out-neighbour k (parts.size() must be the
// out-degree). `call` names the MPI function (the C API's v and w forms pass
// theirs).
Started ineighbor_allgather(const CommPtr& c, Bytes mine, Deliver d = {},
                            const char* call = "MPI_Ineighbor_allgather");
Started ineighbor_alltoall(const CommPtr& c, std::vector<Bytes> parts, Deliver d = {},
                           const char* call = "MPI_Ineighbor_alltoall");

}  // namespace lumpi::core::nbc
