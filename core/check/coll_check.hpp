// core/check/coll_check.hpp: the collective-mismatch check of --check
// (docs/checking.md, issue 25 item 2; MPI-3.1 §5.1, §5.13).
//
// The rule: on each communicator, every member's n-th collective (blocking
// or not: §5.12 says they never match each other) must be the same
// operation with the same root and reduction op, and every signature sent
// must equal the signature its receiver gives (for the v forms, where each
// pair has counts of its own, the basic types, then each pair's amount
// where the door gives the counts).
//
// How: under Engine::checking(), each collective of an intracommunicator
// first sends its description (CollCall) to local rank 0 on the
// communicator's nonblocking-collective lane, under a tag of its own (the
// communicator's count of checked collectives in the high bits, phase
// 0xFFF, which core/coll/nbc.cpp never uses). Rank 0 compares them and
// answers each member with the verdict: "" or the report, the same text on
// every member, which each sends to Engine::report_check (class
// "collective-mismatch"; the coordinator merges the copies and ends the
// run). A blocking collective waits for the verdict before it sends any of
// its data (so a mismatch is reported instead of computing garbage); a
// nonblocking one leaves the exchange to the engine's background work and
// goes on. A member that never calls the collective leaves the others
// waiting in it, which the deadlock watch reports as before. The cost is
// two small messages per member and collective, only under --check.
#pragma once

#include <string>

#include "core/check/signature.hpp"
#include "core/comm/comm.hpp"

namespace lumpi::core::check {

// One process's call of a collective, as the check compares it.
struct CollCall {
  std::string call;   // "MPI_Bcast", as the user wrote it
  std::string args;   // "count=1, datatype=MPI_INT, root=0": shown in the report
  int root = -1;      // -1: the call has none
  std::string op;     // "MPI_SUM", "a user op"; "" for none
  Sig send, recv;     // what one block sent / received holds (Kind::None: no data that way)
  bool per_pair = false;  // v forms: counts differ per pair; only the basic types are compared
  // v forms: a side's counts, one per peer (send, recv then hold one
  // element's signature); empty where the side has one count or none, or
  // where the door gave none for a side of counts (*_per_rank).
  std::vector<std::int64_t> send_counts, recv_counts;
  bool send_per_rank = false, recv_per_rank = false;
  // This process's own arguments already failed their check, and it takes
  // part only so that no partner waits (the Lua door's reductions carry
  // the error in place of the data): its call is compared, not its
  // arguments, which its own error already names.
  bool failed = false;
};

// A door's call described for the check: `op` is op_name's ("MPI_SUM"),
// user_op_text() for a user op, "" for none; the shown arguments are built
// from the rest.
CollCall describe(const char* call, int root, const std::string& op, const Side& send, const Side& recv,
                  bool per_pair = false);
inline std::string user_op_text() { return "a user op"; }

// True where the check runs: under --check, on an intracommunicator of
// more than one process (so a binding describes a call only then).
bool applies(const Comm& c);

// Under --check, on an intracommunicator of more than one process: runs
// the exchange and returns once the verdict is in; after a mismatch it
// reports it and raises it as core::Error (on every member alike).
void collective(Comm& c, const CollCall& mine);
// The same for a nonblocking collective: never blocks; a mismatch is
// reported when the verdict arrives, from whichever call progresses, and
// the collective's request (started next on c) completes only once the
// verdict is in, raising a mismatch (Comm::set_check_gate).
void collective_started(const CommPtr& c, const CollCall& mine);

// The verdict on these calls (one per member, in rank order): an empty
// text if they match, else the report and the class of the MPI error that
// every member raises. For core/check/coll_check.cpp and the unit tests.
struct Verdict {
  ErrClass cls = ErrClass::Success;
  std::string text;
};
Verdict compare(const std::vector<CollCall>& calls, const std::string& comm_name);

}  // namespace lumpi::core::check
