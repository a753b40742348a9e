// repl/view/watch.hpp: deadlock found when it happens (docs/checking.md),
// always on, from what the ranks say unasked.
//
// A rank blocked kWaitNoticeMs in one wait says so (a Wait notice: its
// wait, wait serial and message counts), and says so again when it leaves
// that wait; faster waits send nothing. The watch keeps the latest notice
// of every rank. When the wait-for graph of those notices (deadlock.hpp:
// ranks that told nothing count as running) has stuck ranks, the caller
// asks every rank for its status, and the watch confirms the deadlock only
// if, in those answers,
//   - the graph still has stuck ranks,
//   - each stuck rank is in the very wait it was in before the question
//     (same serial: it never left it) with the same message counts (it
//     received and sent nothing meanwhile), and
//   - no message is in flight to a stuck rank: every rank's count of
//     messages sent to it equals its count of messages received from that
//     rank.
// Every answer comes after every notice that raised the suspicion, so at
// the moment of the question each stuck rank was blocked, nothing was on
// its way to it, and it waited only for ranks in the same state or for ranks
// that will never act: a deadlock, not a snapshot of ranks passing each
// other. Otherwise the answers become the new notices and the caller asks
// again a little later. Pure logic, no I/O: the caller sends and receives.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "launcher/protocol/protocol.hpp"
#include "repl/view/deadlock.hpp"

namespace lumpi::repl {

class DeadlockWatch {
 public:
  // A Wait notice from rank r (a Status-shaped message), received at `now`.
  void notice(int r, const launcher::ControlMsg& m, double now);
  // Something else changed (a rank finished or ended a command, a rank died).
  void touch() { dirty_ = true; }
  // True when the caller should ask every rank's status now: the notices
  // show stuck ranks, given `base` (every rank as the caller knows it
  // without notices: idle, finished, dead, or unknown for the running ones).
  bool should_ask(const std::map<int, RankView>& base, double now);
  // The answers to that question: every rank's view from its answer (or
  // as base has it: a rank that did not answer is unknown); the counts a
  // finished rank told in its last notice are added.
  // Returns the report's lines when the deadlock is confirmed (once per
  // set of stuck ranks), else nothing.
  std::vector<std::string> confirm(const std::map<int, RankView>& views, double now);
  // The stuck ranks of the last confirmed deadlock.
  const std::set<int>& reported() const { return reported_; }
  // When the first of them told it was blocked in the wait it is stuck in.
  double first_notice() const;

 private:
  std::map<int, RankView> merged(const std::map<int, RankView>& base) const;
  bool unchanged(int r, const RankView& now) const;
  bool in_flight_to(int r, const std::map<int, RankView>& views) const;

  std::map<int, RankView> seen_;  // the latest notice (or answer) of every rank that told one
  bool dirty_ = false;
  bool asking_ = false;
  double retry_at_ = -1;  // >= 0: ask again then (answers did not confirm)
  std::set<int> reported_;
  std::map<int, std::pair<uint64_t, double>> since_;  // rank -> (wait serial, when first told)
};

// The MPI text that makes the confirmed deadlock an error, for the report:
// "MPI-3.1 §3.5" for point-to-point waits, §5.13 for collectives.
std::string deadlock_section(const std::map<int, RankView>& views, const std::set<int>& stuck);

}  // namespace lumpi::repl
