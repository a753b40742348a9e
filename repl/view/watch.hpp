// repl/view/watch.hpp: deadlock found when it happens (docs/checking.md),
// always on, from what the ranks say unasked.
//
// A rank blocked kWaitNoticeMs in one wait says so (a Wait notice: its
// wait, wait serial and message counts), and says so again when it leaves
// that wait; faster waits send nothing. The watch keeps the latest notice
// of every rank. When the wait-for graph of those notices (deadlock.hpp:
// ranks that told nothing count as running) has stuck ranks, the caller
// asks every rank for its status at an instant Q, and the watch confirms.
//
// The invariant: a verdict is given only for ranks that, at Q, were blocked
// for good. That is, at Q
//   1. every stuck rank was in one wait and stayed in it across Q: its
//      notice (or earlier answer) was received before the question went out
//      (the notices are frozen when it does; one that comes later, even
//      before the answer, does not count) and its answer names the same
//      wait serial with the same message counts, so between the two it
//      left no wait and sent and received nothing;
//   2. nothing was in flight to or from a stuck rank: for every rank a whose
//      counts are known, a's count of messages sent to r equals r's count
//      received from a, and r's sent to a equals a's received from r. A
//      message in flight to r could release it; one from r could make its
//      receiver act (an idle rank matches it to a receive it posted earlier
//      and acknowledges, a lock is granted, a nonblocking collective goes on
//      in the background), so either cancels the verdict;
//   3. every rank a stuck rank waits for is stuck itself or can never act:
//      its program ended (its counts are those of its last, "finishing",
//      notice, sent after its last message), it is idle between commands
//      (its counts from an answer it gave idle, after Q), or it is dead
//      (which the caller passes as unknown: the death fails the waits on it,
//      no deadlock). A rank that ended with unknown counts cancels the
//      verdict; a running or silent rank is never waited on by a stuck one.
// Every message, internal lanes (communicator construction, RMA, acks)
// included, is counted by the engine at its send and at its delivery, so
// 1-3 make the stuck ranks a closed set at Q: none can be released by a
// message, and none can send one. Otherwise the answers become the new
// notices (all received before the next question) and the caller asks
// again a little later. Pure logic, no I/O: the caller sends and receives.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "launcher/protocol/protocol.hpp"
#include "repl/view/deadlock.hpp"

namespace lumpi::repl {

// A message from rank `from` (its counts) to rank `to` (its counts) that
// `to` has not received yet: from's count sent to `to` is above to's count
// received from `from` (false where a count is unknown).
inline bool on_its_way(const launcher::Counts& from_counts, int from, const launcher::Counts& to_counts, int to) {
  return size_t(to) < from_counts.sent.size() && size_t(from) < to_counts.received.size() &&
         from_counts.sent[size_t(to)] > to_counts.received[size_t(from)];
}

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
  // as base has it: a rank that did not answer is unknown); the counts and
  // the last MPI error a finished rank told in its last notice are added.
  // Returns the report's lines when the deadlock is confirmed (once per
  // set of stuck ranks in their waits), else nothing.
  std::vector<std::string> confirm(const std::map<int, RankView>& views, double now);
  // The stuck ranks of the last confirmed deadlock.
  const std::set<int>& reported() const { return reported_; }
  // Those of them whose wait should raise an error (deadlock.hpp wait_failures).
  const std::vector<WaitFailure>& failures() const { return failures_; }
  // When the first of them told it was blocked in the wait it is stuck in.
  double first_notice() const;

 private:
  std::map<int, RankView> merged(const std::map<int, RankView>& base) const;
  bool unchanged(int r, const RankView& now) const;
  static bool in_flight(int r, const std::map<int, RankView>& views);

  std::map<int, RankView> seen_;   // the latest notice (or answer) of every rank that told one
  std::map<int, RankView> asked_;  // seen_ when the question went out (rule 1)
  bool dirty_ = false;
  bool asking_ = false;
  double retry_at_ = -1;  // >= 0: ask again then (answers did not confirm)
  std::set<int> reported_;
  std::map<int, uint64_t> reported_waits_;  // their wait serials
  std::map<int, uint64_t> failed_;          // rank -> the wait its last failure (failures_) named
  std::vector<WaitFailure> failures_;
  std::map<int, std::pair<uint64_t, double>> since_;  // rank -> (wait serial, when first told)
};

// The MPI text that makes the confirmed deadlock an error, for the report:
// "MPI-3.1 §3.5" for point-to-point waits, §5.13 for collectives.
std::string deadlock_section(const std::map<int, RankView>& views, const std::set<int>& stuck);

}  // namespace lumpi::repl
