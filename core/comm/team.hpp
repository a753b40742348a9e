// core/comm/team.hpp: the one building block of internal messaging: a Team of
// members of one communicator's local group, and the trees they run.
//
// Collectives (core/coll/coll*.cpp, on the collective lane), communicator
// constructors (core/comm/comm_*.cpp, intercomm.cpp) and topology constructors
// (on the internal lane) all talk through a Team, so user traffic never
// meets theirs. Every call takes its tag explicitly: one collective's
// messages carry its own tag (plus the round where a pair can meet twice),
// and the non-overtaking rule keeps each pair's messages in order. Bytes
// are packed with core/base/pack.hpp, the one internal format. Not part of the
// public API.
#pragma once

#include <string>
#include <vector>

#include "core/comm/comm.hpp"
#include "core/base/pack.hpp"

namespace lumpi::core {

// A collective or constructor as a span of the trace (core/base/trace.hpp): its
// begin when the Team is made, its end when the Team goes (or at end(), for
// a nonblocking collective that completes later). Only when tracing. Begin
// and end carry one number (TraceEvent::msg), unique on this rank, so the
// viewer pairs them even when two spans of one call are open at once.
class TeamSpan {
 public:
  TeamSpan(Engine& e, const Waiting& what);
  TeamSpan(TeamSpan&& o) noexcept
      : e_(o.e_), call_(std::move(o.call_)), context_(o.context_), root_(o.root_), id_(o.id_) {
    o.e_ = nullptr;
  }
  TeamSpan(const TeamSpan&) = delete;
  TeamSpan& operator=(const TeamSpan&) = delete;
  ~TeamSpan() { end(); }
  // Records the end now (once).
  void end();
  // Records no end, ever: for a span a later event ends (a nonblocking
  // collective's completion), destroyed whenever its owner goes, perhaps
  // after the engine.
  void forget() { e_ = nullptr; }

 private:
  void record(TraceEvent::Kind k);
  Engine* e_ = nullptr;
  std::string call_;
  uint64_t context_ = 0;
  int root_ = -1;
  uint64_t id_ = 0;
};

class Team {
 public:
  // The whole local group of c, talking on `lane`.
  Team(Comm& c, Lane lane, Waiting what);
  // The members `ranks` (local-group ranks of c, in team order); this
  // process is ranks[me].
  Team(Comm& c, Lane lane, std::vector<int> ranks, int me, Waiting what);

  Comm& c;
  const int n;   // members
  const int me;  // my index
  Waiting what;  // the call, for hang reports and errors

  void send(int index, int tag, std::string b);
  std::string recv(int index, int tag);
  // The peer group: the remote group of an intercommunicator (ranks in it).
  void send_remote(int rank, int tag, std::string b);
  std::string recv_remote(int rank, int tag);
  // Raises MPI_ERR_INTERN naming the call: a peer sent malformed data.
  std::vector<std::string> unpack(std::string_view b) const { return unpack_list(b, what.call); }

 private:
  int local_rank(int index) const { return ranks_.empty() ? index : ranks_[size_t(index)]; }
  Lane lane_;
  std::vector<int> ranks_;  // empty: the whole group, index = rank
  TeamSpan span_;
};

// ---- trees (logarithmic depth; roots are team indices) --------------------------

// Binomial broadcast of root's data.
std::string team_bcast(Team& t, std::string data, int root, int tag);
// Binomial gather: root gets every member's bytes in team order, others {}.
std::vector<std::string> team_gather(Team& t, std::string mine, int root, int tag);
// Binomial scatter: parts (t.n of them, significant at root) -> my part.
std::string team_scatter(Team& t, std::vector<std::string> parts, int root, int tag);
// Every member gets all members' bytes, in team order: Bruck dissemination up to 8
// members, a gather and a broadcast above (tag only).
std::vector<std::string> team_allgather(Team& t, std::string mine, int tag);
// Returns once every member has entered: a binomial fan-in to index 0 (tag),
// then a fan-out (tag + 1).
void team_barrier(Team& t, int tag);

// ---- intercommunicator leaders ---------------------------------------------------

// Rank 0 of each side sends `mine` to the other side's rank 0 (tag) and
// broadcasts both to its side (tag + 1): every process learns its own
// leader's `mine` and the other leader's.
struct Exchanged {
  std::string own, theirs;
};
Exchanged exchange_across(Team& t, const std::string& mine, int tag);

}  // namespace lumpi::core
