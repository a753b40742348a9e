// repl/view/deadlock.hpp: the deadlock diagnosis and the message-queue display,
// from what every rank answered to status? (launcher/protocol/protocol.hpp).
//
// diagnose() builds the wait-for graph of the blocked ranks (a receive or
// probe waits for its source, a synchronous send for its destination, a
// collective or constructor for the members of its communicator that are
// not in the same call on the same communicator) and says which ranks form
// a cycle or wait for ranks that are idle, finished or dead; of a rank
// waited for that had an MPI error, it says which ("; its last MPI error:
// MPI_ERR_OP in MPI_Allreduce: unknown op ..."): a bad argument makes a
// rank raise before it communicates, and its partners wait. A wildcard
// receive waits for any one of its ranks: a cycle through it is a
// "possible" deadlock. Pure functions of their input, no I/O.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "launcher/protocol/protocol.hpp"

namespace lumpi::repl {

// What the coordinator knows of one rank when a command hangs.
struct RankView {
  enum class State {
    Blocked,    // in an MPI wait: `wait` says for what
    Running,    // computing outside MPI: may still get there
    Unknown,    // did not answer
    Idle,       // not in the command (finished it, or never had it): `why` says which
    Finishing,  // its program ended (lumpi exec) and waits to be told to exit
    Dead,       // `why`: "exit 3", "signal 9"
  } state = State::Unknown;
  std::string where;  // Blocked: the status text ("waiting in MPI_Recv(source=0, tag=5) on 'w'")
  std::string why;    // Idle, Dead: the reason shown after the state
  launcher::WaitInfo wait;
  std::vector<launcher::QueueEntry> queue;
  uint64_t serial = 0;      // the rank's wait serial (launcher::ControlMsg::serial)
  launcher::Counts counts;  // its message counts, when it answered (empty otherwise)
  launcher::MpiError last_error;  // the last MPI error its program was handed (empty if none, or unknown)
};

// The view of a rank from its status reply.
RankView view_of_status(const launcher::ControlMsg& status);

// The diagnosis lines ("deadlock: 0 -> 2 -> 0: rank 0 in MPI_Barrier on 'w'
// waits for 2, rank 2 in MPI_Recv(source=0, tag=5) on 'w' waits for 0"),
// empty when no blocked rank is stuck for good. Ranks absent from the map
// count as unknown (they might still act).
std::vector<std::string> diagnose(const std::map<int, RankView>& ranks);

// The blocked ranks that can never go on: those waiting only for ranks
// that are stuck themselves, idle, finished or dead (diagnose's graph).
std::set<int> stuck_ranks(const std::map<int, RankView>& ranks);

// A stuck rank whose wait the coordinator makes raise an MPI error instead
// of waiting for ever (launcher's `fail` message), when the report can say
// which error every rank of the call should get:
//  - a rank it waits for failed the same call: that rank's last MPI error
//    names the call it waits in (MPI_ERR_OP in MPI_Allreduce). A bad
//    argument makes a rank raise before it communicates (docs/errors.md),
//    so its partners would wait for ever; they raise its error's class;
//  - the stuck ranks of one collective gave it different roots: each
//    raises MPI_ERR_ROOT naming every rank's root (MPI-3.1 §5.1: the root
//    must have identical values on all processes).
struct WaitFailure {
  int rank = 0;         // the stuck rank
  uint64_t serial = 0;  // its wait
  launcher::MpiError error;  // what it raises: MPI_ERR_OP in MPI_Allreduce, "rank 2 of COMM_WORLD will not ..."
  std::string why;      // for the report: "the error of rank 2"
};
std::vector<WaitFailure> wait_failures(const std::map<int, RankView>& ranks);
// What the report adds: "deadlock: ranks 0-1 raise the error of rank 2", one line per reason.
std::vector<std::string> wait_failure_lines(const std::vector<WaitFailure>& failures);
// The `fail` message that makes f.rank's wait (in the command of that epoch) raise f.error.
launcher::ControlMsg fail_msg(const WaitFailure& f, uint32_t epoch);

// One rank's message queues as text lines (:queue), e.g.
// "posted receive: source=2, tag=7 on 'MPI_COMM_WORLD'",
// "unmatched message: from 0, tag=5 on 'MPI_COMM_WORLD', 8 bytes".
std::string queue_text(const std::vector<launcher::QueueEntry>& queue);

}  // namespace lumpi::repl
