// core/comm_create.cpp: constructors that build communicators from a parent.
#include "core/comm_create.hpp"

#include <algorithm>
#include <cstring>

#include "core/coll.hpp"
#include "core/constants.hpp"
#include "core/error.hpp"

namespace lumpi::core {
namespace {

// Fixed-width packing of a few int64 values for an allgather.
std::string pack_ints(std::initializer_list<int64_t> v) {
  std::string out(v.size() * 8, '\0');
  size_t i = 0;
  for (int64_t x : v) std::memcpy(out.data() + 8 * i++, &x, 8);
  return out;
}

std::vector<int64_t> unpack_ints(const std::string& s, size_t n, const char* func) {
  if (s.size() != n * 8) fail(ErrClass::Intern, func, "malformed constructor data from a peer");
  std::vector<int64_t> v(n);
  std::memcpy(v.data(), s.data(), n * 8);
  return v;
}

}  // namespace

CommPtr comm_dup(Comm& parent) {
  parent.check_usable("MPI_Comm_dup");
  if (parent.is_inter()) fail(ErrClass::Comm, "MPI_Comm_dup", "intercommunicator dup is not available yet");
  // Rank 0's proposal becomes the new base.
  std::string mine = pack_ints({int64_t(parent.engine().propose_context())});
  std::string agreed = coll::bcast(parent, mine, 0);
  uint64_t base = uint64_t(unpack_ints(agreed, 1, "MPI_Comm_dup")[0]);
  auto c = std::make_shared<Comm>(parent.engine(), base, parent.local_group(), parent.remote_group(),
                                  parent.is_inter());
  c->set_topology(parent.topology());
  c->set_errhandler(parent.errhandler());
  c->info() = parent.info();
  return c;
}

CommPtr comm_split(Comm& parent, int color, int key) {
  const char* func = "MPI_Comm_split";
  parent.check_usable(func);
  if (color < 0 && color != UNDEFINED)
    fail(ErrClass::Arg, func, "color " + std::to_string(color) + " must be non-negative or mpi.UNDEFINED");
  if (parent.is_inter()) fail(ErrClass::Comm, func, "intercommunicator split is not available yet");
  std::string mine = pack_ints({color, key, int64_t(parent.engine().propose_context())});
  std::vector<std::string> all = coll::allgather(parent, mine);
  if (color == UNDEFINED) return nullptr;
  struct Member {
    int64_t key;
    int rank;
    uint64_t proposal;
  };
  std::vector<Member> members;
  for (int r = 0; r < int(all.size()); ++r) {
    auto v = unpack_ints(all[size_t(r)], 3, func);
    if (v[0] == color) members.push_back({v[1], r, uint64_t(v[2])});
  }
  std::stable_sort(members.begin(), members.end(),
                   [](const Member& a, const Member& b) { return a.key < b.key; });
  group::Members world_ranks;
  uint64_t base = 0;
  int lowest = INT32_MAX;
  for (const Member& m : members) {
    world_ranks.push_back(parent.local_group()[size_t(m.rank)]);
    if (m.rank < lowest) lowest = m.rank, base = m.proposal;
  }
  auto c = std::make_shared<Comm>(parent.engine(), base, std::move(world_ranks), group::Members{}, false);
  c->set_errhandler(parent.errhandler());
  return c;
}

}  // namespace lumpi::core
