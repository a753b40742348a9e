// core/comm/verdict.hpp: how one process's error becomes every process's
// error in a collective call (constructors and collectives alike).
//
// The rule: a collective call either succeeds on every participating
// process or raises the same MPI error (class and text) on every one of
// them; no process waits for a partner that has already raised, and none
// keeps an object the others lack.
//
// - Checks every process makes alike on its own arguments (a negative
//   count, a rank out of range) still raise before any communication.
// - A check only some processes can make (the local leader's peer_comm and
//   remote_leader, a member's `high` against its leader's) gives that
//   process a Verdict: OK, or the error it would raise. The verdict rides in
//   the exchange the call makes anyway, and after it every process raises
//   the first failing verdict (lowest rank first), naming that rank, before
//   any object is made.
// - A check that needs the others' arguments (groups passed to
//   MPI_Comm_create, recvcounts) is made by every process on the same
//   exchanged data, so every process reaches the same verdict.
// Internal to core/comm and core/coll; not part of the public API.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/base/error.hpp"
#include "core/comm/team.hpp"

namespace lumpi::core {

class Verdict {
 public:
  Verdict() = default;  // OK
  // The failure `e` of the process at `rank` (its rank in the call's group).
  Verdict(int rank, Error e) : rank_(rank), err_(std::move(e)) {}
  // Runs `check`; an Error it raises becomes the verdict of `rank`, with
  // "(on rank R)" added to its message so every process can name it.
  static Verdict of(int rank, const std::function<void()>& check);

  bool ok() const { return !err_; }
  // The lower-ranked failure of the two (this one on a tie), or OK.
  const Verdict& first(const Verdict& other) const;
  // Raises the failure (nothing when OK).
  void raise() const;

  std::string pack() const;
  static Verdict unpack(std::string_view b, std::string_view func);

 private:
  int rank_ = -1;
  std::optional<Error> err_;
};

// exchange_across (core/comm/team.hpp) for the intercommunicator
// constructors whose arguments must agree within each group: every member
// sends its `key` up to its leader (tag + 2), the leader's verdict names the
// first member whose key differs from the leader's (`differs(rank)` gives
// the message), and the verdicts cross with `mine`. Every process of both
// groups then raises the same first failing verdict (the group with the
// lower first COMM_WORLD rank first), or gets both leaders' `mine`.
Exchanged exchange_agreed(Team& t, const std::string& mine, const std::string& key,
                          const std::function<Error(int rank)>& differs, int tag);

}  // namespace lumpi::core
