// core/comm_create.hpp: communicator constructors and the destructor (seed
// §6.4.2, §6.4.3, §6.6.2). All collective over the parent communicator
// unless noted.
//
// New context bases are agreed during the constructor: each process proposes
// a fresh base (its world rank plus a counter, Engine::propose_context) and
// every new communicator takes the proposal of one agreed member, so ids are
// unique in the job and never reused. Arguments are validated before any
// communication; a process that gets MPI_COMM_NULL receives nullptr.
#pragma once

#include "core/comm.hpp"

namespace lumpi::core {

// MPI_Comm_dup: same group(s), new context, the topology and error handler
// of the parent, info hints copied; no name (names are not copied).
CommPtr comm_dup(Comm& parent);

// MPI_Comm_split on an intracommunicator: processes with the same colour form
// one communicator, ordered by key, ties by parent rank; UNDEFINED gives nullptr.
CommPtr comm_split(Comm& parent, int color, int key);

}  // namespace lumpi::core
