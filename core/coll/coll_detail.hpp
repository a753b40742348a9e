// core/coll/coll_detail.hpp: the building blocks shared by core/coll/coll*.cpp only.
//
// The algorithms run on a Team (core/comm/team.hpp) on the collective lane: on
// an intracommunicator that is the whole communicator; on an
// intercommunicator it is one side, used for the intra-group phases. Every
// algorithm takes its tag base explicitly so intercommunicator code can
// reuse them without clashing with its leader exchanges.
//
// Reductions carry a Partial: either data or the error that combining hit.
// A failed combination does not stop the protocol: the error travels in
// place of the data, every rank finishes its part of the algorithm (so no
// peer is left blocked), and then raises. Not part of the public API.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/coll/coll.hpp"
#include "core/base/error.hpp"
#include "core/comm/team.hpp"

namespace lumpi::core::coll::detail {

// Tag bases: one per collective, the low 12 bits count rounds.
enum Tag : int {
  kBarrier = 1 << 12,
  kBcast = 2 << 12,
  kGather = 3 << 12,
  kScatter = 4 << 12,
  kAllgather = 5 << 12,
  kAlltoall = 6 << 12,
  kReduce = 7 << 12,
  kAllreduce = 8 << 12,
  kScan = 9 << 12,
  kExscan = 10 << 12,
  kRedScat = 11 << 12,
  kLeaders = 12 << 12,  // intercommunicator leader exchanges
};

// MPI_ERR_COUNT unless parts has one entry per peer (c.peer_size()).
void check_parts(const std::vector<Bytes>& parts, const Comm& c, std::string_view func);

// ---- partial results of reductions ------------------------------------------

struct Partial {
  std::optional<Error> err;
  Bytes data;
};

Bytes frame(const Partial& p);
Partial unframe(std::string_view bytes);  // raises MPI_ERR_OTHER if malformed

// Applies a Combine, remembering the first error it met (its own or one
// received), so the caller can finish the protocol and then raise.
class Merger {
 public:
  Merger(const Combine& f, int rank, std::string func)
      : f_(f), rank_(rank), func_(std::move(func)) {}
  // lower ∘ higher; an error on either side (or from the combine) wins.
  Partial operator()(const Partial& lower, const Partial& higher);
  // Element-wise over two equally long lists of partials.
  std::vector<Partial> lists(const std::vector<Partial>& lower, const std::vector<Partial>& higher);
  void note(const Partial& p) {
    if (p.err && !seen_) seen_ = p.err;
  }
  // Raises the first error seen, if any.
  void finish() const {
    if (seen_) throw *seen_;
  }

 private:
  const Combine& f_;
  int rank_;
  std::string func_;
  std::optional<Error> seen_;
};

// p's data, after raising the first error the merger saw or p carries.
Bytes result_or_raise(const Partial& p, const Merger& m);

Bytes pack_partials(const std::vector<Partial>& ps);
std::vector<Partial> unpack_partials(std::string_view bytes);

// ---- team algorithms (logarithmic depth) ------------------------------------

// Binomial reduction; `ordered` keeps rank order (the tree is rooted at 0
// and the result forwarded to root if root != 0). Result valid at root.
Partial team_reduce(Team& t, Partial mine, Merger& m, bool ordered, int root, int tag);
// Same, over lists of partials combined element-wise.
std::vector<Partial> team_reduce_lists(Team& t, std::vector<Partial> mine, Merger& m,
                                       bool ordered, int root, int tag);

}  // namespace lumpi::core::coll::detail

// The intercommunicator forms (core/coll/coll_inter.cpp); arguments are already
// checked by the public functions in core/coll/coll.cpp / core/coll/coll_reduce.cpp.
namespace lumpi::core::coll::inter {

void barrier(Comm& c);
Bytes bcast(Comm& c, Bytes data, int root);
std::vector<Bytes> gather(Comm& c, Bytes mine, int root);
Bytes scatter(Comm& c, std::vector<Bytes> parts, int root);
std::vector<Bytes> allgather(Comm& c, Bytes mine);
std::vector<Bytes> alltoall(Comm& c, std::vector<Bytes> parts);
std::optional<Bytes> reduce(Comm& c, Bytes mine, const Combine& combine, int root);
Bytes allreduce(Comm& c, Bytes mine, const Combine& combine);
Bytes reduce_scatter(Comm& c, std::vector<Bytes> parts, const Combine& combine,
                     const Regroup& regroup);

}  // namespace lumpi::core::coll::inter
