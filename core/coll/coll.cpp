// core/coll/coll.cpp: the data-movement collectives (barrier, bcast, gather,
// scatter, allgather, alltoall) on intracommunicators, over the team trees
// of core/comm/team.hpp.
// Reductions live in core/coll/coll_reduce.cpp.
//
// Messages of one collective carry its own tag (plus the round where a pair
// can meet twice), so consecutive collectives cannot confuse each other and
// the non-overtaking rule keeps each pair's messages in order.
#include "core/coll/coll.hpp"

#include "core/coll/coll_detail.hpp"
#include "core/base/constants.hpp"
#include "core/base/error.hpp"

namespace lumpi::core::coll {

using namespace detail;

void detail::check_parts(const std::vector<Bytes>& parts, const Comm& c, std::string_view func) {
  if (int(parts.size()) != c.peer_size())
    fail(ErrClass::Count, func,
         "values has " + std::to_string(parts.size()) + " entries; expected " + std::to_string(c.peer_size()) +
             " (one per rank)");
}

// ---- intracommunicator collectives ---------------------------------------------------

// A binomial fan-in and fan-out (team_barrier, core/comm/team.hpp).
void barrier(Comm& c) {
  c.check_usable("MPI_Barrier");
  if (c.is_inter()) return inter::barrier(c);
  Team t(c, Lane::Coll, c.waiting("MPI_Barrier"));
  team_barrier(t, kBarrier);
}

Bytes bcast(Comm& c, Bytes data, int root) {
  c.check_root(root, "MPI_Bcast");
  if (c.is_inter()) return inter::bcast(c, std::move(data), root);
  Team t(c, Lane::Coll, c.waiting("MPI_Bcast", "root", root));
  return team_bcast(t, std::move(data), root, kBcast);
}

std::vector<Bytes> gather(Comm& c, Bytes mine, int root) {
  c.check_root(root, "MPI_Gather");
  if (c.is_inter()) return inter::gather(c, std::move(mine), root);
  Team t(c, Lane::Coll, c.waiting("MPI_Gather", "root", root));
  return team_gather(t, std::move(mine), root, kGather);
}

Bytes scatter(Comm& c, std::vector<Bytes> parts, int root) {
  c.check_root(root, "MPI_Scatter");
  if (c.is_root(root)) check_parts(parts, c, "MPI_Scatter");
  if (c.is_inter()) return inter::scatter(c, std::move(parts), root);
  Team t(c, Lane::Coll, c.waiting("MPI_Scatter", "root", root));
  return team_scatter(t, std::move(parts), root, kScatter);
}

// Bruck: in round k every rank sends the blocks it holds (up to 2^k of them)
// to rank - 2^k and appends those of rank + 2^k; after lg p rounds block i
// of rank r is rank (r + i)'s, and a rotation puts them in rank order.
std::vector<Bytes> allgather(Comm& c, Bytes mine) {
  c.check_usable("MPI_Allgather");
  if (c.is_inter()) return inter::allgather(c, std::move(mine));
  Team t(c, Lane::Coll, c.waiting("MPI_Allgather"));
  const int n = t.n, me = t.me;
  std::vector<Bytes> held{std::move(mine)};
  held.reserve(size_t(n));
  int round = 0;
  for (int dist = 1; dist < n; dist <<= 1, ++round) {
    const int count = std::min(dist, n - dist);
    t.send((me - dist + n) % n, kAllgather + round,
           pack_list(std::vector<Bytes>(held.begin(), held.begin() + count)));
    for (auto& b : t.unpack(t.recv((me + dist) % n, kAllgather + round))) held.push_back(std::move(b));
  }
  if (int(held.size()) != n) fail(ErrClass::Intern, "MPI_Allgather", "gathered the wrong number of parts");
  std::vector<Bytes> out(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) out[size_t((me + i) % n)] = std::move(held[size_t(i)]);
  return out;
}

// Bruck: rotate so block i is bound for rank me + i; in round k send the
// blocks whose index has bit k set to rank me + 2^k (receiving the same
// indices from me - 2^k); at the end block i came from rank me - i.
std::vector<Bytes> alltoall(Comm& c, std::vector<Bytes> parts) {
  c.check_usable("MPI_Alltoall");
  check_parts(parts, c, "MPI_Alltoall");
  if (c.is_inter()) return inter::alltoall(c, std::move(parts));
  Team t(c, Lane::Coll, c.waiting("MPI_Alltoall"));
  const int n = t.n, me = t.me;
  std::vector<Bytes> b(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) b[size_t(i)] = std::move(parts[size_t((me + i) % n)]);
  int round = 0;
  for (int dist = 1; dist < n; dist <<= 1, ++round) {
    std::vector<Bytes> out;
    for (int i = dist; i < n; ++i)
      if (i & dist) out.push_back(std::move(b[size_t(i)]));
    t.send((me + dist) % n, kAlltoall + round, pack_list(out));
    std::vector<Bytes> in = t.unpack(t.recv((me - dist + n) % n, kAlltoall + round));
    size_t k = 0;
    for (int i = dist; i < n; ++i) {
      if (!(i & dist)) continue;
      if (k >= in.size()) fail(ErrClass::Intern, "MPI_Alltoall", "received too few blocks");
      b[size_t(i)] = std::move(in[k++]);
    }
  }
  std::vector<Bytes> result(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) result[size_t((me - i + n) % n)] = std::move(b[size_t(i)]);
  return result;
}

}  // namespace lumpi::core::coll
