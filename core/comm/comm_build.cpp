// core/comm/comm_build.cpp: the pieces every communicator constructor shares.
#include "core/comm/comm_build.hpp"

#include <algorithm>

#include "core/base/constants.hpp"
#include "core/base/error.hpp"

namespace lumpi::core::build {

Team whole(Comm& c, const char* func) { return Team(c, Lane::Internal, c.waiting(func)); }

void finalize_barrier(Comm& world) {
  Team t = whole(world, "MPI_Finalize");
  team_barrier(t, kFinalize);
}

CommPtr make_intra(Comm& parent, uint64_t base, group::Members members) {
  auto c = std::make_shared<Comm>(parent.engine(), base, std::move(members), group::Members{}, false);
  c->set_errhandler(parent.errhandler());
  return c;
}

CommPtr make_inter(Comm& parent, uint64_t base, group::Members local, group::Members remote) {
  auto c = std::make_shared<Comm>(parent.engine(), base, std::move(local), std::move(remote), true);
  c->set_errhandler(parent.errhandler());
  return c;
}

void check_subgroup(const Comm& parent, const group::Members& g, const char* func) {
  for (size_t i = 0; i < g.size(); ++i)
    if (group::rank_of(parent.local_group(), g[i]) == UNDEFINED)
      fail(ErrClass::Group, func,
           "group member " + std::to_string(i) + " (COMM_WORLD rank " + std::to_string(g[i]) +
               ") is not in the " + (parent.is_inter() ? "local group of the" : "group of the") +
               " communicator");
}

int64_t fingerprint(const group::Members& g) {
  uint64_t h = 1469598103934665603ull;
  for (int m : g) h = (h ^ uint64_t(uint32_t(m))) * 1099511628211ull;
  return int64_t(h ^ g.size());
}

std::string pack_row(int64_t color, int64_t key, uint64_t proposal) {
  return Packer().i64(color).i64(key).u64(proposal).take();
}

std::vector<Row> rows_of(const std::vector<std::string>& parts, const char* func) {
  std::vector<Row> rows;
  for (int r = 0; r < int(parts.size()); ++r) {
    Unpacker u(parts[size_t(r)], func);
    Row row{u.i64(), u.i64(), u.u64(), r};
    u.end();
    rows.push_back(row);
  }
  return rows;
}

std::vector<Row> colour_members(const std::vector<Row>& rows, int64_t color) {
  std::vector<Row> out;
  for (const Row& r : rows)
    if (r.color == color) out.push_back(r);
  std::stable_sort(out.begin(), out.end(), [](const Row& a, const Row& b) { return a.key < b.key; });
  return out;
}

group::Members world_ranks(const group::Members& g, const std::vector<Row>& rows) {
  group::Members out;
  for (const Row& r : rows) out.push_back(g[size_t(r.rank)]);
  return out;
}

uint64_t min_proposal(const std::vector<Row>& a, const std::vector<Row>& b) {
  uint64_t best = UINT64_MAX;
  for (const Row& r : a) best = std::min(best, r.proposal);
  for (const Row& r : b) best = std::min(best, r.proposal);
  return best;
}

}  // namespace lumpi::core::build
