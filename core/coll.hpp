// core/coll.hpp: collective operations on communicators, over bytes.
//
// Every collective is written once over point-to-point on the communicator's
// collective lane (a context of its own, so user traffic never matches it),
// with logarithmic depth: binomial trees, recursive doubling, dissemination.
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

#include "core/comm.hpp"

namespace lumpi::core::coll {

using Bytes = std::string;
// Combines two partial results; `lower` holds contributions of lower ranks.
using Combine = std::function<Bytes(const Bytes& lower, const Bytes& higher)>;

void barrier(Comm& c);
// Every rank gets root's bytes (on an intercommunicator: the remote group's
// ranks get the bytes of the root; the root's own group gets "" ).
Bytes bcast(Comm& c, Bytes data, int root);
// Root gets every rank's bytes in rank order; other ranks get {}.
std::vector<Bytes> gather(Comm& c, Bytes mine, int root);
// Every rank gets every rank's bytes in rank order.
std::vector<Bytes> allgather(Comm& c, Bytes mine);

// Length-prefixed packing of a list of byte strings into one.
Bytes pack(const std::vector<Bytes>& parts);
// Raises core::Error(MPI_ERR_OTHER) on malformed input.
std::vector<Bytes> unpack(std::string_view packed);

}  // namespace lumpi::core::coll
