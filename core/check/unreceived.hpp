// core/check/unreceived.hpp: messages never received, reported at
// MPI_Finalize under --check (issue 25 item 6, "MPI_Finalize with operations
// pending"; MPI-3.1 §8.7: a process completes all its communication before
// it finalizes). A buffered or ready send completes without its receive, so
// a message that no receive ever takes leaves no pending request behind: it
// is found where it waits, in the receiver's queue of unexpected messages.
#pragma once

#include "core/comm/comm.hpp"

namespace lumpi::core::check {

// Collective over world, called by every rank in MPI_Finalize after its
// barrier, only under --check. Every rank sends an empty marker to every
// other on world's internal lane and waits for one from each: a peer's
// messages reach this rank in the order it sent them (core/transport: one
// ordered socket per pair), so once its marker has come, every message it
// sent before finalizing is here. Then one report (class
// "request-lifecycle") lists the user's messages no receive took.
void report_unreceived(Comm& world);

}  // namespace lumpi::core::check
