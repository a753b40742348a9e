// core/engine/race.hpp: message races, a check of --check (docs/checking.md,
// issue 25 item 8; MPI-3.1 §3.5).
//
// The rule: a receive (or a probe) from MPI_ANY_SOURCE takes whichever
// matching message it meets first. When a message from another sender could have matched it
// as well, which one it gets depends on timing (MPI makes no guarantee of
// fairness, §3.5), and so may the program's result: a message race.
//
// Which races are reported: those whose other order strands a message or
// a receive. The other message is followed to the operation that takes it.
// A wildcard receive or probe that would have taken the first message as
// well (same communicator, MPI_ANY_SOURCE, a tag that fits it) could simply
// have swapped with the first one: the two are interchangeable, as a
// master's receives of its workers' results are, and nothing is said. A
// receive that names the other message's source (or a wildcard one whose
// tag the first message does not carry) could not have: in the other order
// it waits for a message the wildcard one took, or gets another one, so the
// race is said when it takes the other message. A race whose other message
// is never taken ends in a deadlock: when the deadlock interrupts the rank
// (at the prompt, in scripts; lumpi exec stops its ranks instead), the
// races noted on the messages still unreceived are said too.
//
// This is the MPI Bugs Initiative's rule (its correct codes have
// interchangeable wildcard receives). What it leaves unsaid: a program that
// uses the order of interchangeable receives (numbering its workers by
// arrival), and a named receive that took a later message of the wildcard
// one's sender. What it says wrongly: a program that names, in its later
// receives, the senders its wildcard receive did not get (read from its
// status) handles the race, and is told of it.
//
// Under --check standard sends wait for their match (buffering hazards);
// that wait orders nothing MPI orders, so its acknowledgement does not
// advance the sender's clock (Engine::unordered_ack).
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
// named. Noted when the receive completes, against the messages waiting
// unmatched, and at each later arrival, for the last kKeep such receives;
// said when the other message is taken (above).
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
#include <vector>

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
  // The message it took or found: the receives kept before it could have
  // taken it instead when its send did not come after theirs matched (two
  // wildcard receives posted together take their messages in arrival order).
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
  // A wildcard receive or probe completed; `waiting` are the unexpected
  // messages (Matcher::unexpected). Notes the races it may be part of, and
  // keeps it for later arrivals; returns the race its own message settles
  // as real (above), if any.
  std::optional<Race> completed(WildcardMatch m, const std::list<Message>& waiting);
  // A message arrived: noted if it could have matched a kept receive.
  void arrived(const Envelope& e);
  // A receive that names its source took e: the race noted on e is real.
  std::optional<Race> taken_by_name(const Envelope& e);
  // The run stopped (a deadlock interrupts it) with `waiting` unreceived:
  // the races noted on them are real (in the other order a wildcard
  // receive took one of them).
  std::vector<Race> stranded(const std::list<Message>& waiting);

 private:
  // Kept receive k could have taken `other` instead of its own message.
  void suspect(const WildcardMatch& k, const Envelope& other);
  // e was taken, by the wildcard operation `by` or (null) by name, or is
  // stranded: the report, if the race noted on e is real and not yet said.
  std::optional<Race> settle(const Envelope& e, const WildcardMatch* by, bool stranded);
  struct Suspect {
    Race race;                      // text: made once the race is settled as real
    std::optional<Envelope> first;  // the kept receive's own message
    uint64_t number = 0;            // the kept receive's (WildcardMatch::number)
    int mine = 0, other = 0;        // the two senders, as ranks of the receive's communicator
    bool probe = false;
    std::string replay;             // " (to run it with the other order: LUMPI_RACE=R:N:S)"
    uint64_t added = 0;             // its place in suspect()'s order: the oldest goes first when full
  };
  uint64_t suspected_ = 0;  // Suspect::added
  std::deque<WildcardMatch> kept_;
  std::map<std::pair<int, uint64_t>, Suspect> suspects_;  // by the other message's source and seq
  std::set<uint64_t> said_receives_;  // by WildcardMatch::number
  std::set<std::string> said_;        // unnumbered receives: by call and other sender
};

}  // namespace lumpi::core
