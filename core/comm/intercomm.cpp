// core/comm/intercomm.cpp: MPI_Intercomm_create and MPI_Intercomm_merge (seed
// §6.6.2).
#include <algorithm>

#include "core/comm/comm_build.hpp"
#include "core/comm/comm_create.hpp"
#include "core/comm/verdict.hpp"
#include "core/base/constants.hpp"
#include "core/base/error.hpp"

namespace lumpi::core {
namespace {

using namespace build;

// The checks every process can make alone: local_comm, local_leader, tag.
void check_local_args(Comm& local, int local_leader, int tag, const char* func) {
  local.check_intra(func, "local_comm");
  if (local_leader < 0 || local_leader >= local.size())
    fail(ErrClass::Rank, func,
         "local_leader " + std::to_string(local_leader) + " is not a rank of local_comm (size " +
             std::to_string(local.size()) + ")");
  Comm::check_send_tag(tag, func);
}

// The checks only the local leader can make: peer_comm and remote_leader,
// which must name a process outside local_comm (the groups are disjoint).
void check_leader_args(Comm& local, Comm* peer, int remote_leader, const char* func) {
  if (!peer) fail(ErrClass::Comm, func, "peer_comm must be a communicator at the local leader");
  peer->check_usable(func);
  const int n = int(peer->peer_group().size());
  if (remote_leader < 0 || remote_leader >= n)
    fail(ErrClass::Rank, func,
         "remote_leader " + std::to_string(remote_leader) + " is not a rank of peer_comm (size " +
             std::to_string(n) + ")");
  const int world = peer->world_of(remote_leader);
  if (world == local.engine().world_rank())
    fail(ErrClass::Rank, func, "remote_leader " + std::to_string(remote_leader) + " is the local leader itself");
  if (group::rank_of(local.local_group(), world) != UNDEFINED)
    fail(ErrClass::Rank, func,
         "remote_leader " + std::to_string(remote_leader) + " (COMM_WORLD rank " + std::to_string(world) +
             ") is a member of local_comm; the two groups must be disjoint");
}

// What the local leader tells its group: its verdict on its own arguments
// (core/comm/verdict.hpp), and when they pass, the remote group, the agreed
// base and whether the groups overlap.
struct News {
  group::Members remote;
  uint64_t base = 0;
  bool overlap = false;
  Verdict verdict;
};

std::string pack_news(const News& n) {
  return Packer().bytes(n.verdict.pack()).ints(n.remote).u64(n.base).u64(n.overlap).take();
}

News unpack_news(std::string_view b, const char* func) {
  Unpacker u(b, func);
  Verdict v = Verdict::unpack(u.bytes(), func);
  News n{u.ints(), u.u64(), u.u64() != 0, std::move(v)};
  u.end();
  return n;
}

// The leaders swap their groups and a proposal over the peer's internal
// lane, at tag TAG_UB + 1 + tag so that user receives never see it.
News leader_exchange(Comm& local, Comm& peer, int remote_leader, int tag, const char* func) {
  uint64_t proposal = local.engine().propose_context();
  const int wire_tag = TAG_UB + 1 + tag;
  peer.lane_send(Lane::Internal, remote_leader, wire_tag,
                 Body(Packer().ints(local.local_group()).u64(proposal).take()));
  Waiting what = peer.waiting(func, "remote_leader", remote_leader);
  what.has_tag = true;
  what.tag = tag;
  Body got = peer.lane_recv(Lane::Internal, remote_leader, wire_tag, what);
  Unpacker u(got.view(), func);
  News n{u.ints(), 0, false, {}};
  n.base = std::min(proposal, u.u64());
  u.end();
  n.overlap = !group::intersection(local.local_group(), n.remote).empty();
  return n;
}

// The leader's news reaches every member of its group. A leader whose own
// arguments failed raises its own error even when a member cannot be
// reached (its error is the news).
News broadcast_news(Team& t, const std::string& news, int leader, const char* func) {
  if (t.me != leader) return unpack_news(team_bcast(t, news, leader, kInterLocal), func);
  News n = unpack_news(news, func);
  try {
    team_bcast(t, news, leader, kInterLocal);
  } catch (const Error&) {
    if (n.verdict.ok()) throw;
  }
  return n;
}

}  // namespace

// The local leader checks its own arguments; when they pass it talks to the
// remote leader (when they fail it sends nothing there, so no stray message
// is left). Either way it broadcasts the news to its group, so every member
// raises the leader's error, naming the leader, or gets the communicator.
CommPtr intercomm_create(Comm& local, int local_leader, Comm* peer, int remote_leader, int tag) {
  const char* func = "MPI_Intercomm_create";
  local.check_usable(func);
  check_local_args(local, local_leader, tag, func);
  std::string news;
  if (local.rank() == local_leader) {
    Verdict v = Verdict::of(local_leader, [&] { check_leader_args(local, peer, remote_leader, func); });
    News n = v.ok() ? leader_exchange(local, *peer, remote_leader, tag, func) : News{};
    n.verdict = std::move(v);
    news = pack_news(n);
  }
  Team t = whole(local, func);
  News n = broadcast_news(t, news, local_leader, func);
  n.verdict.raise();
  if (n.overlap)
    fail(ErrClass::Comm, func, "the local and remote groups overlap; an intercommunicator needs disjoint groups");
  return make_inter(local, n.base, local.local_group(), std::move(n.remote));
}

// The group passing high = false comes first; with equal flags, the group
// whose first member has the lower world rank.
CommPtr intercomm_merge(Comm& inter, bool high) {
  const char* func = "MPI_Intercomm_merge";
  inter.check_usable(func);
  if (!inter.is_inter())
    fail(ErrClass::Comm, func, "intercomm must be an intercommunicator, got an intracommunicator");
  // Leaders swap (high, proposal); each leader has heard its members'
  // flags, so a member whose flag differs from its leader's fails the call
  // on every process of both groups.
  uint64_t proposal = inter.rank() == 0 ? inter.engine().propose_context() : 0;
  Team t = whole(inter, func);
  auto differs = [&](int rank) {
    auto name = [](bool b) { return std::string(b ? "true" : "false"); };
    return Error(ErrClass::Arg, func,
                 "high = " + name(!high) + " at rank " + std::to_string(rank) + " (COMM_WORLD rank " +
                     std::to_string(inter.local_group()[size_t(rank)]) + ") differs from high = " +
                     name(high) + " at rank 0 of the same group");
  };
  Exchanged x = exchange_agreed(t, Packer().u64(high).u64(proposal).take(), Packer().u64(high).take(), differs,
                                kMerge);
  Unpacker own(x.own, func), other(x.theirs, func);
  bool own_high = own.u64() != 0, other_high = other.u64() != 0;
  uint64_t base = std::min(own.u64(), other.u64());
  own.end(), other.end();
  bool left = inter.local_group()[0] < inter.remote_group()[0];
  bool local_first = own_high != other_high ? !own_high : left;
  group::Members all = local_first ? inter.local_group() : inter.remote_group();
  const group::Members& second = local_first ? inter.remote_group() : inter.local_group();
  all.insert(all.end(), second.begin(), second.end());
  return make_intra(inter, base, std::move(all));
}

}  // namespace lumpi::core
