// core/coll/coll_inter.cpp: collectives on intercommunicators (MPI-2.2 §5.2.2).
//
// Every form has the same shape: an intra-group phase on each side (the
// team trees of core/coll/coll.cpp and core/coll/coll_reduce.cpp, on local ranks), one
// exchange between the two leaders (local rank 0 of each group) or between
// the root and the other side's leader, and another intra-group phase. So
// each costs about 2·lg p + 1 rounds. Only alltoall talks to every remote
// rank directly, as its data is pairwise anyway.
//
// Roots: in the root's group the root passes ROOT and the others PROC_NULL;
// the other group passes the root's rank in the remote group. Arguments are
// checked by the public functions before they call in here.
#include "core/coll/coll_detail.hpp"
#include "core/base/constants.hpp"
#include "core/base/error.hpp"

namespace lumpi::core::coll::inter {

using namespace detail;

namespace {

void check_count(const std::vector<Bytes>& v, int want, const Team& t) {
  if (int(v.size()) != want)
    fail(ErrClass::Intern, t.what.call,
         "received " + std::to_string(v.size()) + " parts from the remote group, expected " +
             std::to_string(want));
}

}  // namespace

void barrier(Comm& c) {
  Team t(c, Lane::Coll, c.waiting("MPI_Barrier"));
  team_gather(t, Bytes(), 0, kBarrier);  // everyone here has entered
  if (t.me == 0) {
    t.send_remote(0, kLeaders, Bytes());
    t.recv_remote(0, kLeaders);  // everyone there has entered
  }
  team_bcast(t, Bytes(), 0, kBarrier + 1);
}

Bytes bcast(Comm& c, Bytes data, int root) {
  Team t(c, Lane::Coll, c.waiting("MPI_Bcast", "root", root));
  if (root == PROC_NULL) return Bytes();
  if (root == ROOT) {
    t.send_remote(0, kBcast, std::move(data));
    return Bytes();
  }
  Bytes got;
  if (t.me == 0) got = t.recv_remote(root, kBcast);
  return team_bcast(t, std::move(got), 0, kBcast + 1);
}

std::vector<Bytes> gather(Comm& c, Bytes mine, int root) {
  Team t(c, Lane::Coll, c.waiting("MPI_Gather", "root", root));
  if (root == PROC_NULL) return {};
  if (root == ROOT) {
    std::vector<Bytes> all = t.unpack(t.recv_remote(0, kGather));
    check_count(all, c.remote_size(), t);
    return all;
  }
  std::vector<Bytes> all = team_gather(t, std::move(mine), 0, kGather + 1);
  if (t.me == 0) t.send_remote(root, kGather, pack_list(all));
  return {};
}

Bytes scatter(Comm& c, std::vector<Bytes> parts, int root) {
  Team t(c, Lane::Coll, c.waiting("MPI_Scatter", "root", root));
  if (root == PROC_NULL) return Bytes();
  if (root == ROOT) {
    t.send_remote(0, kScatter, pack_list(parts));
    return Bytes();
  }
  std::vector<Bytes> here;
  if (t.me == 0) {
    here = t.unpack(t.recv_remote(root, kScatter));
    check_count(here, t.n, t);
  }
  return team_scatter(t, std::move(here), 0, kScatter + 1);
}

std::vector<Bytes> allgather(Comm& c, Bytes mine) {
  Team t(c, Lane::Coll, c.waiting("MPI_Allgather"));
  std::vector<Bytes> ours = team_gather(t, std::move(mine), 0, kAllgather);
  Bytes theirs;
  if (t.me == 0) {
    t.send_remote(0, kLeaders + 1, pack_list(ours));
    theirs = t.recv_remote(0, kLeaders + 1);
  }
  std::vector<Bytes> all = t.unpack(team_bcast(t, std::move(theirs), 0, kAllgather + 1));
  check_count(all, c.remote_size(), t);
  return all;
}

std::vector<Bytes> alltoall(Comm& c, std::vector<Bytes> parts) {
  Team t(c, Lane::Coll, c.waiting("MPI_Alltoall"));
  const int rn = c.remote_size();
  for (int j = 0; j < rn; ++j) t.send_remote(j, kAlltoall, std::move(parts[size_t(j)]));
  std::vector<Bytes> out(static_cast<size_t>(rn));
  for (int j = 0; j < rn; ++j) out[size_t(j)] = t.recv_remote(j, kAlltoall);
  return out;
}

std::optional<Bytes> reduce(Comm& c, Bytes mine, const Combine& combine, int root) {
  Team t(c, Lane::Coll, c.waiting("MPI_Reduce", "root", root));
  Merger m(combine, t.me, t.what.call);
  if (root == PROC_NULL) return std::nullopt;
  if (root == ROOT) {
    Partial p = unframe(t.recv_remote(0, kReduce));
    m.note(p);
    return result_or_raise(p, m);
  }
  Partial p = team_reduce(t, Partial{std::nullopt, std::move(mine)}, m, true, 0, kReduce + 2);
  if (t.me == 0) t.send_remote(root, kReduce, frame(p));
  m.finish();
  return std::nullopt;
}

// Each side reduces to its leader, the leaders swap, and each leader
// broadcasts the other side's result (and its own side's error, if any, so
// a bad operand is reported on both sides).
Bytes allreduce(Comm& c, Bytes mine, const Combine& combine) {
  Team t(c, Lane::Coll, c.waiting("MPI_Allreduce"));
  Merger m(combine, t.me, t.what.call);
  Partial ours = team_reduce(t, Partial{std::nullopt, std::move(mine)}, m, true, 0, kAllreduce);
  Bytes both;
  if (t.me == 0) {
    t.send_remote(0, kLeaders + 2, frame(ours));
    Bytes theirs = t.recv_remote(0, kLeaders + 2);
    both = pack_list({std::move(theirs), ours.err ? frame(ours) : frame(Partial{})});
  }
  std::vector<Bytes> got = t.unpack(team_bcast(t, std::move(both), 0, kAllreduce + 2));
  if (got.size() != 2) fail(ErrClass::Intern, t.what.call, "malformed allreduce result");
  m.note(unframe(got[1]));
  Partial theirs = unframe(got[0]);
  m.note(theirs);
  return result_or_raise(theirs, m);
}

namespace {

// At the leader: this side's blocks from the other side's reduced blocks,
// or error partials for every block.
std::vector<Bytes> leader_blocks(const std::vector<Partial>& ours,
                                 const std::vector<Partial>& theirs, const Regroup& regroup,
                                 int n, Merger& m, const std::string& func) {
  auto all_failed = [&](const Error& e) {
    return std::vector<Bytes>(static_cast<size_t>(n), frame(Partial{e, {}}));
  };
  for (const auto* side : {&ours, &theirs})
    for (const Partial& p : *side)
      if (p.err) return m.note(p), all_failed(*p.err);
  std::vector<Bytes> datas;
  for (const Partial& p : theirs) datas.push_back(p.data);
  try {
    std::vector<Bytes> mine = regroup(std::move(datas));
    if (int(mine.size()) != n)
      fail(ErrClass::Count, func,
           "regrouped the remote result into " + std::to_string(mine.size()) + " blocks, expected " +
               std::to_string(n));
    std::vector<Bytes> out;
    for (Bytes& b : mine) out.push_back(frame(Partial{std::nullopt, std::move(b)}));
    return out;
  } catch (const Error& e) {
    Partial p{e, {}};
    m.note(p);
    return all_failed(e);
  }
}

}  // namespace

Bytes reduce_scatter(Comm& c, std::vector<Bytes> parts, const Combine& combine,
                     const Regroup& regroup) {
  Team t(c, Lane::Coll, c.waiting("MPI_Reduce_scatter"));
  Merger m(combine, t.me, t.what.call);
  std::vector<Partial> blocks;
  for (Bytes& b : parts) blocks.push_back(Partial{std::nullopt, std::move(b)});
  std::vector<Partial> ours = team_reduce_lists(t, std::move(blocks), m, true, 0, kRedScat);
  std::vector<Bytes> mine;
  if (t.me == 0) {
    t.send_remote(0, kLeaders + 3, pack_partials(ours));
    std::vector<Partial> theirs = unpack_partials(t.recv_remote(0, kLeaders + 3));
    mine = leader_blocks(ours, theirs, regroup, t.n, m, t.what.call);
  }
  Partial p = unframe(team_scatter(t, std::move(mine), 0, kRedScat + 2));
  m.note(p);
  return result_or_raise(p, m);
}

}  // namespace lumpi::core::coll::inter
