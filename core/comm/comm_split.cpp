// core/comm/comm_split.cpp: MPI_Comm_create, MPI_Comm_create_group and
// MPI_Comm_split (seed §6.4.2), on intra- and intercommunicators.
#include "core/comm/comm_build.hpp"
#include "core/comm/comm_create.hpp"
#include "core/base/constants.hpp"
#include "core/base/error.hpp"

namespace lumpi::core {
namespace {

using namespace build;

// ---- create -------------------------------------------------------------------------

// Every process proposes a base and says which group it passed; members of
// the group take the first member's proposal.
CommPtr create_intra(Comm& parent, const group::Members& g, const char* func) {
  Team t = whole(parent, func);
  int64_t fp = fingerprint(g);
  auto all = team_allgather(t, Packer().u64(parent.engine().propose_context()).i64(fp).take(), kCreate);
  if (group::rank_of(g, parent.engine().world_rank()) == UNDEFINED) return nullptr;
  auto row = [&](int world) {
    Unpacker u(all[size_t(group::rank_of(parent.local_group(), world))], func);
    std::pair<uint64_t, int64_t> r{u.u64(), u.i64()};
    u.end();
    return r;
  };
  for (int m : g)  // every member must have passed the same group (§6.4.2)
    if (row(m).second != fp)
      fail(ErrClass::Group, func,
           "COMM_WORLD rank " + std::to_string(m) + " passed a different group than this process");
  return make_intra(parent, row(g[0]).first, g);
}

// Each side passes a subgroup of its own group; the leaders swap the groups
// their sides chose and a proposal, and the smaller proposal wins.
CommPtr create_inter(Comm& parent, const group::Members& g, const char* func) {
  Team t = whole(parent, func);
  Exchanged x = exchange_across(t, Packer().ints(g).u64(parent.engine().propose_context()).take(), kCreate);
  Unpacker own(x.own, func), theirs(x.theirs, func);
  group::Members own_group = own.ints(), remote = theirs.ints();
  uint64_t base = std::min(own.u64(), theirs.u64());
  own.end(), theirs.end();
  if (own_group != g) fail(ErrClass::Group, func, "this process passed a different group than its group's rank 0");
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
