// core/comm/comm_split.cpp: MPI_Comm_create, MPI_Comm_create_group and
// MPI_Comm_split (seed §6.4.2), on intra- and intercommunicators.
#include "core/comm/comm_build.hpp"
#include "core/comm/comm_create.hpp"
#include "core/comm/verdict.hpp"
#include "core/base/constants.hpp"
#include "core/base/error.hpp"

namespace lumpi::core {
namespace {

using namespace build;

// ---- create -------------------------------------------------------------------------

// One process's row in create's table: its proposal, the fingerprint and
// size of the group it passed, and whether it is a member of that group.
struct CreateRow {
  uint64_t proposal;
  int64_t fp;
  uint64_t size;
  bool member;
};

std::vector<CreateRow> create_rows(const std::vector<std::string>& parts, const char* func) {
  std::vector<CreateRow> rows;
  for (const std::string& p : parts) {
    Unpacker u(p, func);
    CreateRow r{u.u64(), u.i64(), u.u64(), u.u64() != 0};
    u.end();
    rows.push_back(r);
  }
  return rows;
}

// Groups must be equal or disjoint (§6.4.2): every member of a group passed
// that same group. Every process checks every group on the same table, so
// all reach the same verdict: the group of rank r (the first that fails)
// has size members but fewer of them passed it.
void check_groups_agree(const std::vector<CreateRow>& rows, const char* func) {
  for (size_t r = 0; r < rows.size(); ++r) {
    uint64_t passed = 0;  // members of r's group that passed it
    for (const CreateRow& o : rows) passed += o.member && o.fp == rows[r].fp;
    if (passed != rows[r].size)
      fail(ErrClass::Group, func,
           "group of rank " + std::to_string(r) + " has " + std::to_string(rows[r].size) + " members but only " +
               std::to_string(passed) + " of them passed that same group; groups must be equal or disjoint");
  }
}

// Every process proposes a base and says which group it passed; members of
// the group take the first member's proposal.
CommPtr create_intra(Comm& parent, const group::Members& g, const char* func) {
  Team t = whole(parent, func);
  const int me = group::rank_of(g, parent.engine().world_rank());
  std::string mine = Packer()
                         .u64(parent.engine().propose_context())
                         .i64(fingerprint(g))
                         .u64(g.size())
                         .u64(me != UNDEFINED)
                         .take();
  std::vector<CreateRow> rows = create_rows(team_allgather(t, std::move(mine), kCreate), func);
  check_groups_agree(rows, func);
  if (me == UNDEFINED) return nullptr;
  return make_intra(parent, rows[size_t(group::rank_of(parent.local_group(), g[0]))].proposal, g);
}

// Each side passes a subgroup of its own group; the leaders swap the groups
// their sides chose and a proposal, and the smaller proposal wins.
CommPtr create_inter(Comm& parent, const group::Members& g, const char* func) {
  Team t = whole(parent, func);
  auto differs = [&](int rank) {
    return Error(ErrClass::Group, func,
                 "rank " + std::to_string(rank) + " (COMM_WORLD rank " +
                     std::to_string(parent.local_group()[size_t(rank)]) +
                     ") passed a different group than rank 0 of the same group");
  };
  Exchanged x = exchange_agreed(t, Packer().ints(g).u64(parent.engine().propose_context()).take(),
                                Packer().i64(fingerprint(g)).take(), differs, kCreate);
  Unpacker own(x.own, func), theirs(x.theirs, func);
  own.ints();  // this group's, equal to g (exchange_agreed checked)
  group::Members remote = theirs.ints();
  uint64_t base = std::min(own.u64(), theirs.u64());
  own.end(), theirs.end();
  if (g.empty() || remote.empty() || group::rank_of(g, parent.engine().world_rank()) == UNDEFINED)
    return nullptr;
  return make_inter(parent, base, g, std::move(remote));
}

}  // namespace

CommPtr comm_create(Comm& parent, const group::Members& g) {
  const char* func = "MPI_Comm_create";
  parent.check_usable(func);
  check_subgroup(parent, g, func);
  return parent.is_inter() ? create_inter(parent, g, func) : create_intra(parent, g, func);
}

// Only the members of g take part: the group's rank 0 proposes and
// broadcasts, keyed by the user's tag.
CommPtr comm_create_group(Comm& parent, const group::Members& g, int tag) {
  const char* func = "MPI_Comm_create_group";
  parent.check_usable(func);
  parent.check_intra(func);
  Comm::check_send_tag(tag, func);
  check_subgroup(parent, g, func);
  int me = group::rank_of(g, parent.engine().world_rank());
  if (me == UNDEFINED) return nullptr;  // local: non-members do not take part
  std::vector<int> ranks;
  for (int m : g) ranks.push_back(group::rank_of(parent.local_group(), m));
  Waiting what = parent.waiting(func);
  what.has_tag = true;
  what.tag = tag;
  Team t(parent, Lane::Internal, std::move(ranks), me, what);
  std::string data = me == 0 ? Packer().u64(parent.engine().propose_context()).i64(fingerprint(g)).take() : "";
  std::string got = team_bcast(t, data, 0, tag);
  Unpacker u(got, func);
  uint64_t base = u.u64();
  int64_t fp = u.i64();
  u.end();
  if (fp != fingerprint(g)) fail(ErrClass::Group, func, "this process passed a different group than the group's rank 0");
  return make_intra(parent, base, g);
}

// ---- split ----------------------------------------------------------------------------

namespace {

CommPtr split_intra(Comm& parent, int color, int key, const char* func) {
  Team t = whole(parent, func);
  auto rows = rows_of(team_allgather(t, pack_row(color, key, parent.engine().propose_context()), kSplit), func);
  if (color == UNDEFINED) return nullptr;
  auto members = colour_members(rows, color);
  return make_intra(parent, min_proposal(members), world_ranks(parent.local_group(), members));
}

// Each side gathers its table; the leaders swap tables; a colour present on
// both sides becomes an intercommunicator.
CommPtr split_inter(Comm& parent, int color, int key, const char* func) {
  Team t = whole(parent, func);
  auto parts = team_allgather(t, pack_row(color, key, parent.engine().propose_context()), kSplit);
  Exchanged x = exchange_across(t, pack_list(parts), kSplitLeaders);
  auto local_rows = rows_of(parts, func);
  auto remote_rows = rows_of(unpack_list(x.theirs, func), func);
  if (color == UNDEFINED) return nullptr;
  auto mine = colour_members(local_rows, color);
  auto other = colour_members(remote_rows, color);
  if (other.empty()) return nullptr;
  return make_inter(parent, min_proposal(mine, other), world_ranks(parent.local_group(), mine),
                    world_ranks(parent.remote_group(), other));
}

}  // namespace

CommPtr comm_split(Comm& parent, int color, int key) {
  const char* func = "MPI_Comm_split";
  parent.check_usable(func);
  if (color < 0 && color != UNDEFINED)
    fail(ErrClass::Arg, func, "color " + std::to_string(color) + " must be non-negative or MPI_UNDEFINED");
  return parent.is_inter() ? split_inter(parent, color, key, func) : split_intra(parent, color, key, func);
}

}  // namespace lumpi::core
