// core/engine/poll.hpp: a polling loop that waits, told as a wait (issue 25
// item 1; docs/checking.md "Deadlocks").
//
// The rule: a rank that makes the same test or probe again and again
// (MPI_Test, MPI_Testany, MPI_Testsome, MPI_Testall, MPI_Iprobe,
// MPI_Improbe), each call finding nothing and no other MPI call in between,
// waits as MPI_Wait or MPI_Probe would; it only keeps control. Once such
// calls have gone on for kPollNoticeMs the engine tells the coordinator, as
// it tells of a long blocked wait (Engine::on_long_wait), and the deadlock
// watch judges it as a wait (repl/view/watch.hpp): reported only when every
// rank the loop needs is stuck itself (waits for this rank, or sits in
// MPI_Finalize), finished or dead, and no message is in flight; the rank's
// status answer, given from inside its next test, confirms that it still
// polls.
//
// What is "the same": the outermost MPI call's name and serial
// (core::InCall; consecutive serials, so nothing came between) and the
// first test's wait in each call. A call that tests several requests
// (Testany, Testsome) waits for any one of the ranks they need, so it is
// judged stuck only when all of them are (never too soon). Lua's calls are
// numbered too (lua/binding.hpp's wrap<>), and its tests and probe name
// themselves. Not watched: a request that needs no rank (generalized
// requests, completed by the program itself).
//
// A loop that computes between its tests does not wait: it is told only
// while its calls come back to back, at most one interval in ten between
// two of them longer than kPollGapUs (time spent outside MPI; a spinning
// rank that the scheduler sets aside now and then still counts as
// spinning). A compute step of an "overlap" loop that tests now and then
// takes longer than that, so such a loop is never told, however long the
// rank it needs waits for its result (a program of the helper's false-alarm
// hunt, 2026-11-29: 400 steps of 2.5 ms, MPI_Test of an abort message that
// never comes between them, then the result sent to a rank in MPI_Recv).
//
// The one false report this can give: a loop that spins without computing
// and would have stopped by a condition of its own (an iteration count, a
// clock) after more than kPollNoticeMs, while every rank it needs waits
// for it.
#pragma once

#include <chrono>
#include <cstdint>

#include "core/engine/engine.hpp"

namespace lumpi::core {

// Two seconds: far above any test loop that waits for a message already
// on its way, above the deadline of a loop that gives up after a second
// (the same hunt: an MPI_Iprobe loop that gave up after 0.8 s, while its
// partner waited in MPI_Recv, was reported at 0.5 s), far below a user's
// patience.
inline constexpr int kPollNoticeMs = 2000;
// An interval between two tests longer than this was spent outside MPI.
inline constexpr int kPollGapUs = 100;

class PollStreak {
 public:
  // A test or probe of the current MPI call found nothing; `what` is what
  // it waits for. True when the streak has just lasted kPollNoticeMs: the
  // engine tells the coordinator current().
  bool failed(const Waiting& what);
  // The streak ends (a test found its operation complete, a wait began, a
  // streak broke): true if it had been told.
  bool end();
  bool told() const { return told_; }
  // The told wait while the calls continue the streak (the status answer,
  // given from inside the next call's progress), else null.
  const Waiting* current() const;

 private:
  using Clock = std::chrono::steady_clock;
  uint64_t call_ = 0;          // serial of the streak's last call (0: no streak)
  const char* name_ = nullptr;  // its MPI call
  Waiting first_;              // the first wait of the streak's first call: its identity
  Waiting what_;               // what the calls wait for, as told
  Clock::time_point since_, last_;  // the streak's first call, its last test
  uint64_t intervals_ = 0, gaps_ = 0;  // between its tests; those longer than kPollGapUs
  bool told_ = false;
};

}  // namespace lumpi::core
