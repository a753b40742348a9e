// core/comm/team.cpp: Team messaging and the binomial trees every collective and
// constructor is made of.
#include "core/comm/team.hpp"

#include <algorithm>
#include <atomic>

#include "core/base/error.hpp"

namespace lumpi::core {

TeamSpan::TeamSpan(Engine& e, const Waiting& what) {
  if (!e.tracing()) return;
  static std::atomic<uint64_t> spans{0};  // unit tests run several engines in one process
  id_ = ++spans;
  e_ = &e;
  call_ = what.call;
  context_ = what.context;
  root_ = what.peer_role == "root" ? what.peer : -1;
  record(TraceEvent::Kind::Begin);
}

void TeamSpan::end() {
  if (!e_) return;
  record(TraceEvent::Kind::End);
  e_ = nullptr;
}

void TeamSpan::record(TraceEvent::Kind k) {
  TraceEvent t;
  t.kind = k;
  t.call = call_;
  t.context = context_;
  t.peer = root_;
  t.msg = id_;
  e_->trace(std::move(t));
}

Team::Team(Comm& comm, Lane lane, Waiting w)
    : c(comm), n(comm.size()), me(comm.rank()), what(std::move(w)), lane_(lane),
      span_(comm.engine(), what) {}

Team::Team(Comm& comm, Lane lane, std::vector<int> ranks, int index, Waiting w)
    : c(comm), n(int(ranks.size())), me(index), what(std::move(w)), lane_(lane),
      ranks_(std::move(ranks)), span_(comm.engine(), what) {}

void Team::send(int index, int tag, std::string b) {
  c.lane_send(lane_, local_rank(index), tag, Body(std::move(b)), /*local=*/true);
}

std::string Team::recv(int index, int tag) {
  return c.lane_recv(lane_, local_rank(index), tag, what, /*local=*/true).str();
}

void Team::send_remote(int rank, int tag, std::string b) {
  c.lane_send(lane_, rank, tag, Body(std::move(b)), /*local=*/false);
}

std::string Team::recv_remote(int rank, int tag) {
  return c.lane_recv(lane_, rank, tag, what, /*local=*/false).str();
}

// Binomial tree rooted at root, in indices relative to it.
std::string team_bcast(Team& t, std::string data, int root, int tag) {
  const int n = t.n, vr = (t.me - root + n) % n;
  int mask = 1;
  for (; mask < n; mask <<= 1) {
    if (vr & mask) {
      data = t.recv((vr - mask + root) % n, tag);
      break;
    }
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (vr + mask < n) t.send((vr + mask + root) % n, tag, data);
  return data;
}

// A binomial fan-in, then fan-out: 2 lg p hops but only 2(p-1) messages.
// Where every message costs a wake-up (few cores, ipc), that beats
// dissemination's lg p hops of p messages each: about 25 % faster at 16
// ranks on 2 cores (tests/bench/README.md), and at 3 to 8 ranks too (5
// ranks: 414 µs against 702). Two members do not exchange once either,
// though that halves the time (80 µs against 157): each would leave as soon
// as it has the other's message, before its own is known delivered, and if
// it then died at once (a crash, or an _exit, which drops what its I/O
// thread has not sent yet), the other would fail in the barrier instead of
// in its next call on the dead rank (CI, stop 43). In the tree, a leaf (at
// 2 or 3 members, every member but the root) leaves last in its branch.
void team_barrier(Team& t, int tag) {
  team_gather(t, {}, 0, tag);  // everyone has entered
  team_bcast(t, {}, 0, tag + 1);
}

// Binomial tree: each member forwards its subtree's parts (in relative
// order, which is contiguous) to its parent.
std::vector<std::string> team_gather(Team& t, std::string mine, int root, int tag) {
  const int n = t.n, vr = (t.me - root + n) % n;
  std::vector<std::string> subtree{std::move(mine)};  // relative indices vr, vr+1, ...
  for (int mask = 1; mask < n; mask <<= 1) {
    if (vr & mask) {
      t.send((vr - mask + root) % n, tag, pack_list(subtree));
      return {};
    }
    if (vr + mask < n)
      for (auto& part : t.unpack(t.recv((vr + mask + root) % n, tag))) subtree.push_back(std::move(part));
  }
  if (int(subtree.size()) != n) fail(ErrClass::Intern, t.what.call, "gathered the wrong number of parts");
  std::vector<std::string> out(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) out[size_t((i + root) % n)] = std::move(subtree[size_t(i)]);
  return out;
}

// Binomial tree: a member receives the parts of its whole subtree from its
// parent and hands each child the upper half of what it holds.
std::string team_scatter(Team& t, std::vector<std::string> parts, int root, int tag) {
  const int n = t.n, vr = (t.me - root + n) % n;
  std::vector<std::string> held;  // relative indices vr, vr+1, ...
  if (vr == 0) {
    held.resize(size_t(n));
    for (int i = 0; i < n; ++i) held[size_t(i)] = std::move(parts[size_t((i + root) % n)]);
  }
  int mask = 1;
  for (; mask < n; mask <<= 1) {
    if (vr & mask) {
      held = t.unpack(t.recv((vr - mask + root) % n, tag));
      break;
    }
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (vr + mask >= n || size_t(mask) >= held.size()) continue;
    std::vector<std::string> upper(std::make_move_iterator(held.begin() + mask),
                                   std::make_move_iterator(held.end()));
    held.resize(size_t(mask));
    t.send((vr + mask + root) % n, tag, pack_list(upper));
  }
  if (held.empty()) fail(ErrClass::Intern, t.what.call, "scatter delivered no part");
  return std::move(held[0]);
}

// Up to kDisseminationMax members, Bruck's dissemination: in the round of
// distance d every member passes the parts it holds (its own and those of
// the next d-1 members) to the member d before it and takes as many from the
// member d after it: ceil(log2 n) sequential hops instead of a gather and a
// broadcast's 2 log2 n. A sender is a different member in every round, so
// consecutive calls on the same tag keep apart by per-source order. It sends
// n ceil(log2 n) messages against the tree's 2 (n - 1), and with more ranks
// than cores the count, not the hops, sets the time: at 16 ranks on 2 cores
// a split took 1.5x as long (tests/bench/README.md, "Issue 11, session 6").
constexpr int kDisseminationMax = 8;

std::vector<std::string> team_allgather(Team& t, std::string mine, int tag) {
  const int n = t.n;
  if (n > kDisseminationMax) {
    auto parts = team_gather(t, std::move(mine), 0, tag);
    return t.unpack(team_bcast(t, t.me == 0 ? pack_list(parts) : std::string(), 0, tag));
  }
  std::vector<std::string> held{std::move(mine)};  // held[i]: the part of member (me + i) % n
  for (int d = 1; d < n; d <<= 1) {
    size_t count = size_t(std::min(d, n - d));
    t.send((t.me - d + n) % n, tag, pack_list(std::vector<std::string>(held.begin(), held.begin() + long(count))));
    auto got = t.unpack(t.recv((t.me + d) % n, tag));
    if (got.size() != count) fail(ErrClass::Intern, t.what.call, "malformed allgather data from a peer");
    for (auto& part : got) held.push_back(std::move(part));
  }
  std::vector<std::string> all(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) all[size_t((t.me + i) % n)] = std::move(held[size_t(i)]);
  return all;
}

Exchanged exchange_across(Team& t, const std::string& mine, int tag) {
  std::string both;
  if (t.me == 0) {
    t.send_remote(0, tag, mine);
    both = pack_list({mine, t.recv_remote(0, tag)});
  }
  auto parts = t.unpack(team_bcast(t, std::move(both), 0, tag + 1));
  if (parts.size() != 2) fail(ErrClass::Intern, t.what.call, "malformed leader data from a peer");
  return {std::move(parts[0]), std::move(parts[1])};
}

}  // namespace lumpi::core
