// core/coll/coll.hpp: collective operations on communicators, over bytes.
//
// Every collective is written once over point-to-point on the communicator's
// collective lane (a context of its own, so user traffic never matches it),
// with logarithmic depth: binomial trees, recursive doubling, Bruck.
// Values are opaque byte strings (the Lua binding encodes them); reductions
// take a Combine callback. Each function validates its arguments (root,
// sizes) before sending anything and raises core::Error naming the bad one.
// On an intercommunicator the functions follow MPI's intercommunicator
// semantics where MPI defines them (root = ROOT / PROC_NULL / remote rank).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/comm/comm.hpp"

namespace lumpi::core::coll {

using Bytes = std::string;
// Combines two partial results; `lower` holds contributions of lower ranks.
// May throw core::Error (e.g. operands of different lengths): the collective
// then finishes its protocol on every rank and raises that error on every
// rank that saw it (for allreduce, scan and the like: every rank).
using Combine = std::function<Bytes(const Bytes& lower, const Bytes& higher)>;
// reduce_scatter on an intercommunicator: turns the remote group's reduced
// blocks (one per remote rank) into this group's blocks (one per local rank).
using Regroup = std::function<std::vector<Bytes>(std::vector<Bytes> remote_blocks)>;

// Round counts below are for p = size() ranks and small data;
// ⌈log2 p⌉ is written lg p.

// Barrier: binomial fan-in and fan-out, 2 lg p rounds, 2(p-1) messages.
// Intercommunicator: fan-in, leader exchange, fan-out.
void barrier(Comm& c);
// Binomial tree, lg p rounds. On an intercommunicator the remote group's
// ranks get the bytes of the root; the root's own group gets "".
Bytes bcast(Comm& c, Bytes data, int root);
// Root gets every rank's bytes in rank order; other ranks get {}. Binomial,
// lg p rounds. Intercommunicator: root (ROOT) gets the remote group's bytes.
std::vector<Bytes> gather(Comm& c, Bytes mine, int root);
// Root's parts[i] goes to rank i; `parts` must have size() entries at the
// root (remote_size() on an intercommunicator), else MPI_ERR_COUNT. Binomial.
Bytes scatter(Comm& c, std::vector<Bytes> parts, int root);
// Every rank gets every rank's bytes in rank order. Bruck: lg p rounds.
// Intercommunicator: every rank gets the remote group's bytes.
std::vector<Bytes> allgather(Comm& c, Bytes mine);
// parts[j] goes to rank j; returns what each rank sent here, in rank order.
// Bruck (lg p rounds, each moving about half the blocks). Intercommunicator:
// parts has remote_size() entries, exchanged directly.
std::vector<Bytes> alltoall(Comm& c, std::vector<Bytes> parts);

// Reductions. `commutative` false keeps rank order (x0 ∘ x1 ∘ ... ∘ xp-1).
// Result at root; nullopt elsewhere (and at PROC_NULL on an intercomm).
// Binomial: lg p rounds (+1 if not commutative and root != 0).
std::optional<Bytes> reduce(Comm& c, Bytes mine, const Combine& combine, bool commutative,
                            int root);
// Binomial reduce to rank 0, then binomial bcast of the result: 2 lg p
// rounds, 2(p-1) messages; every rank gets rank 0's bytes, so the results
// agree bit for bit. Intercommunicator: each group gets the reduction of the
// other group's data.
Bytes allreduce(Comm& c, Bytes mine, const Combine& combine, bool commutative = true);
// Inclusive prefix, recursive doubling: lg p rounds. Intracommunicators only.
Bytes scan(Comm& c, Bytes mine, const Combine& combine);
// Exclusive prefix; nullopt on rank 0. Intracommunicators only.
std::optional<Bytes> exscan(Comm& c, Bytes mine, const Combine& combine);
// parts[i] is this rank's contribution to block i (size() parts); returns
// block rank() reduced over all ranks. Recursive halving (with a fold for p
// not a power of two): lg p (+2) rounds, about one vector's worth of data
// sent per rank. Intercommunicator: each group reduces its own blocks,
// the leaders swap, and `regroup` turns the remote group's reduced blocks
// into this group's blocks, which are scattered. `counts` (the recvcounts,
// which MPI requires alike on every rank) are compared along the way on an
// intracommunicator: when they differ, every rank raises MPI_ERR_COUNT
// naming two ranks that disagree.
Bytes reduce_scatter(Comm& c, std::vector<Bytes> parts, const Combine& combine,
                     bool commutative, const Regroup& regroup = {}, const std::vector<int>& counts = {});


}  // namespace lumpi::core::coll
