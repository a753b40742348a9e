// core/engine/race.hpp: message races, a check of --check (docs/checking.md,
// issue 25 item 8; MPI-3.1 §3.5).
//
// The rule: a receive (or a probe) from MPI_ANY_SOURCE takes whichever
// matching message it meets first. When a message from another sender could have matched it
// as well, which one it gets depends on timing (MPI makes no guarantee of
// fairness, §3.5), and so may the program's result: a message race.
//
// How it is seen without false reports: every message carries its sender's
// Lamport clock (Envelope::clock), and the engine notes the receiver's clock
// when a wildcard receive of the user's point-to-point lane matched. A send
// that happened after that match (caused by it, through any chain of
// messages) carries a larger clock. So a message from another source that
// fits the receive's context and tag, and whose clock is not larger, was
// sent concurrently with the match and could have been taken instead. The
// converse does not hold (a larger clock need not mean "caused by"): some
// races go unseen, but no message the receive could never have had is
// named. Checked when the receive completes, against the messages waiting
// unmatched, and at each later arrival, for the last kKeep such receives.
//
// The replay: a report says how to run the program again with the other
// order, LUMPI_RACE=R:N:S (several separated by commas): the N-th receive
// from ANY_SOURCE of COMM_WORLD rank R (counted on the point-to-point lane
// from the start of the program) takes only COMM_WORLD rank S's message, so
// the user sees whether the result changes or a deadlock appears. A probe's
// race is reported the same way (its clock is the receiver's when it
// looked: every later send of the receiver carries a larger one), and
// replayed the same way: a probe from ANY_SOURCE that found a message is
// numbered with the receives (Engine::probe_source), and the receive that
// follows it usually names the source it found.
// Pure bookkeeping: the engine calls it and sends the reports.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "core/engine/match.hpp"

namespace lumpi::core {

// A wildcard receive that completed: what it asked for, what it took, when.
struct WildcardMatch {
  uint64_t context = 0;     // base * 4 + lane (the point-to-point lane only is checked)
  int tag = 0;              // or ANY_TAG
  int source = 0;           // the COMM_WORLD rank whose message it took
  uint64_t clock = 0;       // the receiver's Lamport clock when it matched (PostedRecv::clock)
  std::string call;         // "MPI_Recv(source=ANY_SOURCE, tag=5) on 'MPI_COMM_WORLD'"
  std::function<int(int)> rank_of;  // COMM_WORLD rank -> rank in the receive's communicator
  int receiver = 0;         // the COMM_WORLD rank that received
  uint64_t number = 0;      // which of its wildcard receives and probes (PostedRecv::wildcard); 0: none
  bool probe = false;       // a probe (MPI_Probe, MPI_Iprobe, MPI_Mprobe, MPI_Improbe)
  // A receive's message (none for a probe): the receives kept before it
  // could have taken it instead when its send did not come after theirs
  // matched (two wildcard receives posted together take their messages in
  // arrival order).
  std::optional<Envelope> taken;
};

// The replay's choices for COMM_WORLD rank `rank` from LUMPI_RACE's text
// ("0:3:2,1:1:0"): wildcard receive number -> the source it takes. Entries
// of other ranks, and malformed ones, are left out.
std::map<uint64_t, int> parse_replay(const char* text, int rank);

// A race found: the report, and the message that could have matched as
// well (its sender's COMM_WORLD rank and send clock, for :trace).
struct Race {
  std::string text;
  std::string call;  // the receive or probe (WildcardMatch::call)
  int other = -1;
  uint64_t other_clock = 0;
  int tag = 0;
  uint64_t context = 0;
};

class RaceCheck {
 public:
  static constexpr size_t kKeep = 64;
  // A wildcard receive completed; `waiting` are the unexpected messages
  // (Matcher::unexpected). Returns the report if one of them, or the
  // message it took, could have matched another (kept) receive, and keeps
  // the receive for later arrivals.
  std::optional<Race> completed(WildcardMatch m, const std::list<Message>& waiting);
  // A message arrived: the report if it could have matched a kept receive
  // (each receive is reported once, each text once).
  std::optional<Race> arrived(const Envelope& e);

 private:
  std::optional<Race> race(WildcardMatch& m, const Envelope& other);
  std::deque<WildcardMatch> kept_;
  std::set<std::string> said_;
};

}  // namespace lumpi::core
