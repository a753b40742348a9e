// core/coll/nbc.cpp: the nonblocking collectives of core/coll/nbc.hpp, each written
// once as a coroutine (core/coll/nbc_task.hpp) over point-to-point on the
// communicator's Lane::Nbc, from the tree phases below.
//
// Every co_await is on a named object, never on a temporary or inside a
// larger expression: GCC 12 destroys some temporaries of a full-expression
// that contains a co_await twice.
//
// Tags: the collective's number (Comm::next_nbc, modulo 2^18) in the high
// bits, a phase number in the low 12, so two pending collectives on one
// communicator never take each other's messages, and within one the
// non-overtaking rule keeps each pair's messages in order. Reductions carry
// Partials (core/coll/coll_detail.hpp): a combine error travels in place of the
// data, every rank finishes its part, then the request raises it.
#include "core/coll/nbc.hpp"

#include "core/coll/coll_detail.hpp"
#include "core/base/constants.hpp"
#include "core/base/error.hpp"
#include "core/coll/nbc_task.hpp"
#include "core/comm/team.hpp"
#include "core/topo/topo_comm.hpp"

namespace lumpi::core::nbc {

using coll::detail::check_parts;
using coll::detail::frame;
using coll::detail::Merger;
using coll::detail::Partial;
using coll::detail::result_or_raise;
using coll::detail::unframe;
using detail::Arrival;
using detail::Task;

namespace {

// One started collective: its communicator (kept alive while pending), its
// number, and what a wait on it reports.
struct Ctx {
  CommPtr c;
  uint32_t number;
  Waiting what;

  int tag(int phase) const { return int((number & 0x3FFFFu) << 12) | phase; }
  // local: a rank of the local group (tree phases); otherwise of the peer
  // group (the remote group of an intercommunicator).
  void send(int to, int phase, Bytes b, bool local = true) const {
    c->lane_send(Lane::Nbc, to, tag(phase), Body(std::move(b)), local);
  }
  Arrival recv(int from, int phase, bool local = true) const {
    return Arrival{c->lane_irecv(Lane::Nbc, from, tag(phase), what, local)};
  }
  std::vector<Bytes> unpack(std::string_view b) const { return unpack_list(b, what.call); }
  int n() const { return c->size(); }
  int me() const { return c->rank(); }
};

int absolute(int v, int root, int n) { return (v + root) % n; }

// ---- tree phases on the local group ---------------------------------------------------

// Binomial broadcast of root's data; returns it on every member.
Task<Bytes> tree_bcast(const Ctx& x, Bytes data, int root, int phase) {
  const int n = x.n(), v = (x.me() - root + n) % n;
  int mask = 1;
  for (; mask < n; mask <<= 1)
    if (v & mask) {
      Arrival a = x.recv(absolute(v - mask, root, n), phase);
      data = co_await a;
      break;
    }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (v + mask < n) x.send(absolute(v + mask, root, n), phase, data);
  co_return data;
}

// Binomial gather: root gets every member's bytes in rank order, others {}.
Task<std::vector<Bytes>> tree_gather(const Ctx& x, Bytes mine, int root, int phase) {
  const int n = x.n(), v = (x.me() - root + n) % n;
  std::vector<Bytes> held{std::move(mine)};  // relative ranks v, v + 1, ...
  for (int mask = 1; mask < n; mask <<= 1) {
    if (v & mask) {
      x.send(absolute(v - mask, root, n), phase, pack_list(held));
      co_return std::vector<Bytes>{};
    }
    if (v + mask < n) {
      Arrival a = x.recv(absolute(v + mask, root, n), phase);
      Bytes got = co_await a;
      for (Bytes& b : x.unpack(got)) held.push_back(std::move(b));
    }
  }
  if (int(held.size()) != n) fail(ErrClass::Intern, x.what.call, "gathered the wrong number of parts");
  std::vector<Bytes> out(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) out[size_t(absolute(i, root, n))] = std::move(held[size_t(i)]);
  co_return out;
}

// Binomial scatter of parts (n of them, in rank order, significant at root).
Task<Bytes> tree_scatter(const Ctx& x, std::vector<Bytes> parts, int root, int phase) {
  const int n = x.n(), v = (x.me() - root + n) % n;
  std::vector<Bytes> held;  // relative ranks v, v + 1, ...
  int mask = 1;
  if (v == 0) {
    for (int i = 0; i < n; ++i) held.push_back(std::move(parts[size_t(absolute(i, root, n))]));
    while (mask < n) mask <<= 1;
  } else {
    while (!(v & mask)) mask <<= 1;
    Arrival a = x.recv(absolute(v - mask, root, n), phase);
    Bytes got = co_await a;
    held = x.unpack(got);
  }
  for (int m = mask >> 1; m > 0; m >>= 1) {
    if (v + m >= n || size_t(m) >= held.size()) continue;
    const size_t end = std::min(held.size(), size_t(2 * m));
    x.send(absolute(v + m, root, n), phase,
           pack_list(std::vector<Bytes>(held.begin() + m, held.begin() + long(end))));
    held.resize(size_t(m));
  }
  if (held.empty()) fail(ErrClass::Intern, x.what.call, "received no part");
  co_return std::move(held[0]);
}

// Binomial reduction to local rank 0 in rank order: each node's partial
// covers [v, v + mask) and the child's the interval just above it. The
// result is significant at rank 0.
Task<Partial> tree_reduce(const Ctx& x, Partial mine, Merger& m, int phase) {
  const int n = x.n(), me = x.me();
  for (int mask = 1; mask < n; mask <<= 1) {
    if (me & mask) {
      x.send(me - mask, phase, frame(mine));
      co_return mine;
    }
    if (me + mask < n) {
      Arrival a = x.recv(me + mask, phase);
      Bytes b = co_await a;
      Partial got = unframe(b);
      mine = m(mine, got);
    }
  }
  co_return mine;
}

// Intercommunicator leaders swap bytes (phase); "" off the leaders.
Task<Bytes> leaders_swap(const Ctx& x, Bytes mine, int phase) {
  if (x.me() != 0) co_return Bytes();
  x.send(0, phase, std::move(mine), false);
  Arrival a = x.recv(0, phase, false);
  Bytes got = co_await a;
  co_return got;
}

Out value(Bytes b) { return Out{std::move(b), {}, true}; }
Out list(std::vector<Bytes> p) { return Out{{}, std::move(p), true}; }

// ---- the collectives ---------------------------------------------------------------------

Task<Out> run_barrier(Ctx x) {
  auto in = tree_gather(x, Bytes(), 0, 0);
  co_await in;
  if (x.c->is_inter()) {
    auto swap = leaders_swap(x, Bytes(), 1);
    co_await swap;
  }
  auto out = tree_bcast(x, Bytes(), 0, 2);
  co_await out;
  co_return Out{};
}

Task<Out> run_bcast(Ctx x, Bytes data, int root) {
  if (!x.c->is_inter()) {
    auto t = tree_bcast(x, std::move(data), root, 0);
    Bytes b = co_await t;
    co_return value(std::move(b));
  }
  if (root == PROC_NULL) co_return Out{};
  if (root == ROOT) {
    x.send(0, 0, std::move(data), false);
    co_return Out{};
  }
  Bytes got;
  if (x.me() == 0) {
    Arrival a = x.recv(root, 0, false);
    got = co_await a;
  }
  auto t = tree_bcast(x, std::move(got), 0, 1);
  Bytes b = co_await t;
  co_return value(std::move(b));
}

Task<Out> run_gather(Ctx x, Bytes mine, int root) {
  if (!x.c->is_inter()) {
    auto t = tree_gather(x, std::move(mine), root, 0);
    std::vector<Bytes> all = co_await t;
    if (x.me() != root) co_return Out{};
    co_return list(std::move(all));
  }
  if (root == PROC_NULL) co_return Out{};
  if (root == ROOT) {
    Arrival a = x.recv(0, 0, false);
    Bytes got = co_await a;
    co_return list(x.unpack(got));
  }
  auto t = tree_gather(x, std::move(mine), 0, 1);
  std::vector<Bytes> all = co_await t;
  if (x.me() == 0) x.send(root, 0, pack_list(all), false);
  co_return Out{};
}

Task<Out> run_scatter(Ctx x, std::vector<Bytes> parts, int root) {
  if (!x.c->is_inter()) {
    auto t = tree_scatter(x, std::move(parts), root, 0);
    Bytes b = co_await t;
    co_return value(std::move(b));
  }
  if (root == PROC_NULL) co_return Out{};
  if (root == ROOT) {
    x.send(0, 0, pack_list(parts), false);
    co_return Out{};
  }
  std::vector<Bytes> got;
  if (x.me() == 0) {
    Arrival a = x.recv(root, 0, false);
    Bytes b = co_await a;
    got = x.unpack(b);
    if (int(got.size()) != x.n()) fail(ErrClass::Intern, x.what.call, "the root sent the wrong number of parts");
  }
  auto t = tree_scatter(x, std::move(got), 0, 1);
  Bytes b = co_await t;
  co_return value(std::move(b));
}

Task<Out> run_allgather(Ctx x, Bytes mine) {
  auto in = tree_gather(x, std::move(mine), 0, 0);
  std::vector<Bytes> all = co_await in;
  Bytes packed = x.me() == 0 ? pack_list(all) : Bytes();
  if (x.c->is_inter()) {
    auto swap = leaders_swap(x, std::move(packed), 1);
    packed = co_await swap;
  }
  auto out = tree_bcast(x, std::move(packed), 0, 2);
  Bytes b = co_await out;
  co_return list(x.unpack(b));
}

// Block j goes straight to (peer) rank j; the blocks arrive in any order.
Task<Out> run_alltoall(Ctx x, std::vector<Bytes> parts) {
  const int peers = int(parts.size());
  for (int j = 0; j < peers; ++j) x.send(j, 0, std::move(parts[size_t(j)]), false);
  std::vector<Bytes> got(static_cast<size_t>(peers));
  for (int j = 0; j < peers; ++j) {
    Arrival a = x.recv(j, 0, false);
    got[size_t(j)] = co_await a;
  }
  co_return list(std::move(got));
}

Task<Out> run_reduce(Ctx x, Bytes mine, Combine f, int root) {
  Merger m(f, x.me(), x.what.call);
  if (x.c->is_inter()) {
    if (root == PROC_NULL) co_return Out{};
    if (root == ROOT) {
      Arrival a = x.recv(0, 0, false);
      Bytes b = co_await a;
      co_return value(result_or_raise(unframe(b), m));
    }
    auto t = tree_reduce(x, Partial{std::nullopt, std::move(mine)}, m, 1);
    Partial p = co_await t;
    if (x.me() == 0) x.send(root, 0, frame(p), false);
    m.finish();
    co_return Out{};
  }
  auto t = tree_reduce(x, Partial{std::nullopt, std::move(mine)}, m, 0);
  Partial p = co_await t;
  if (root != 0) {
    if (x.me() == 0) x.send(root, 1, frame(p));
    if (x.me() == root) {
      Arrival a = x.recv(0, 1);
      Bytes b = co_await a;
      p = unframe(b);
    }
  }
  if (x.me() != root) {
    m.finish();
    co_return Out{};
  }
  co_return value(result_or_raise(p, m));
}

// Reduce to rank 0, then broadcast rank 0's result (framed, so an error
// reaches every rank). Intercommunicator: each group reduces its own data,
// the leaders swap, and each group gets the other's result.
Task<Out> run_allreduce(Ctx x, Bytes mine, Combine f) {
  Merger m(f, x.me(), x.what.call);
  auto in = tree_reduce(x, Partial{std::nullopt, std::move(mine)}, m, 0);
  Partial p = co_await in;
  Bytes top = x.me() == 0 ? frame(p) : Bytes();
  if (x.c->is_inter()) {
    auto swap = leaders_swap(x, std::move(top), 1);
    top = co_await swap;
  }
  auto out = tree_bcast(x, std::move(top), 0, 2);
  Bytes b = co_await out;
  Partial all = unframe(b);
  co_return value(result_or_raise(all, m));
}

// Recursive doubling: after round k, `partial` covers ranks
// [me - 2^(k+1) + 1, me] and `result` [0, me] as far as it reaches.
Task<Out> run_scan(Ctx x, Bytes mine, Combine f, bool exclusive) {
  Merger m(f, x.me(), x.what.call);
  const int n = x.n(), me = x.me();
  Partial partial{std::nullopt, std::move(mine)};
  std::optional<Partial> result;
  if (!exclusive) result = partial;
  int round = 0;
  for (int d = 1; d < n; d <<= 1, ++round) {
    if (me + d < n) x.send(me + d, round, frame(partial));
    if (me - d >= 0) {
      Arrival a = x.recv(me - d, round);
      Bytes b = co_await a;
      Partial got = unframe(b);
      result = result ? m(got, *result) : got;
      partial = m(got, partial);
    }
  }
  if (!result) {
    m.finish();
    co_return Out{};
  }
  co_return value(result_or_raise(*result, m));
}

// The reduced vector cut into the local group's blocks, each framed; every
// block carries the error instead when the reduction failed or the vector
// is not as long as the blocks together (the groups' counts differ).
std::vector<Bytes> cut_reduced(const Partial& p, const std::vector<size_t>& sizes, const std::string& call) {
  std::optional<Error> err = p.err;
  size_t total = 0;
  for (size_t s : sizes) total += s;
  if (!err && p.data.size() != total)
    err = Error(ErrClass::Count, call,
                "the reduced vector has " + std::to_string(p.data.size()) + " bytes; this group's counts add up to " +
                    std::to_string(total) + " (the two groups' counts differ)");
  std::vector<Bytes> out;
  size_t at = 0;
  for (size_t s : sizes) {
    out.push_back(frame(err ? Partial{err, {}} : Partial{std::nullopt, p.data.substr(at, s)}));
    at += s;
  }
  return out;
}

// Reduce to local rank 0 (rank order); on an intercommunicator the leaders
// swap their groups' results (an error of either side wins); rank 0 cuts
// the vector into this group's blocks and scatters them.
Task<Out> run_reduce_scatter(Ctx x, Bytes mine, Combine f, std::vector<size_t> sizes) {
  Merger m(f, x.me(), x.what.call);
  auto in = tree_reduce(x, Partial{std::nullopt, std::move(mine)}, m, 0);
  Partial p = co_await in;
  if (x.c->is_inter()) {
    auto swap = leaders_swap(x, x.me() == 0 ? frame(p) : Bytes(), 1);
    Bytes got = co_await swap;
    if (x.me() == 0) {
      Partial theirs = unframe(got);
      if (!theirs.err && p.err) theirs = Partial{p.err, {}};
      p = std::move(theirs);
    }
  }
  std::vector<Bytes> blocks;
  if (x.me() == 0) blocks = cut_reduced(p, sizes, x.what.call);
  auto out = tree_scatter(x, std::move(blocks), 0, 2);
  Bytes b = co_await out;
  Partial block = unframe(b);
  m.note(block);
  co_return value(result_or_raise(block, m));
}

// One round: blocks[k] to out-neighbour k, then one block from each
// in-neighbour; the phase is the slot's stream (core/topo/topo_comm.hpp).
Task<Out> run_neighbor(Ctx x, Neighbors n, std::vector<Bytes> blocks) {
  for (size_t k = 0; k < n.out.size(); ++k)
    if (n.out[k] != PROC_NULL) x.send(n.out[k], n.out_stream(k), std::move(blocks[k]));
  std::vector<Bytes> got(n.in.size());
  for (size_t k = 0; k < n.in.size(); ++k) {
    if (n.in[k] == PROC_NULL) continue;
    Arrival a = x.recv(n.in[k], n.in_stream(k));
    got[k] = co_await a;
  }
  co_return list(std::move(got));
}

// ---- starting ---------------------------------------------------------------------------

// A running collective as the engine steps it and its request sees it.
// It is a span of the trace from its start to its completion (not to the
// wait that sees it complete, which is a span of its own).
struct Running {
  Running(Task<Out> t, Deliver d, std::shared_ptr<Out> o, std::string call, TeamSpan span, Comm::CheckGate gate)
      : schedule(std::move(t)), deliver(std::move(d)), out(std::move(o)), call(std::move(call)),
        span(std::move(span)), gate(std::move(gate)) {}
  ~Running() { span.forget(); }  // never completed: no end (the engine may be gone)
  Running(const Running&) = delete;
  Running& operator=(const Running&) = delete;
  detail::Schedule<Out> schedule;
  Deliver deliver;
  std::shared_ptr<Out> out;
  std::string call;
  TeamSpan span;
  Comm::CheckGate gate;  // --check: the verdict on this call (Comm::set_check_gate), or none
  std::optional<Error> err;
  bool computed = false;
  bool done = false;

  // The result lands in the caller's buffers (deliver) only after the
  // check's verdict: a mismatch raises from the gate, which ends the
  // collective with that error, and nothing is written after it (the
  // wait that raised it is the caller's last word on those buffers).
  bool step() {
    if (done) return true;
    try {
      const bool judged = !gate || gate();
      if (!computed) {
        if (!schedule.step()) return false;
        *out = schedule.take();
        computed = true;
      }
      if (!judged) return false;
      if (deliver) deliver(*out);
    } catch (const Error& e) {
      err = e;
    } catch (const std::exception& e) {
      err = Error(ErrClass::Other, call, e.what());
    }
    done = true;
    span.end();
    return true;
  }
};

// Numbers the collective, builds its coroutine with make(ctx) and hands it
// to the engine, which runs it up to its first missing message at once.
template <class Make>
Started start(const CommPtr& c, const char* call, std::string role, int peer, Deliver d, Make make) {
  const uint32_t x_number = c->next_nbc();
  Ctx x{c, x_number, c->waiting(call, std::move(role), peer)};
  x.what.group = c->local_group();  // a member's death fails the wait
  x.what.group.insert(x.what.group.end(), c->remote_group().begin(), c->remote_group().end());
  auto out = std::make_shared<Out>();
  Waiting what = x.what;
  TeamSpan span(c->engine(), what);  // begins before the coroutine's first step sends anything
  auto run = std::make_shared<Running>(make(std::move(x)), std::move(d), out, call, std::move(span),
                                       c->take_check_gate(x_number));
  c->engine().add_background([run] { return run->step(); });
  auto test = [run] {
    if (!run->done) return false;
    if (run->err) throw *run->err;
    return true;
  };
  return {Request::generic(c->engine(), test, std::move(what)), out};
}

}  // namespace

Started ibarrier(const CommPtr& c) {
  c->check_usable("MPI_Ibarrier");
  return start(c, "MPI_Ibarrier", "", 0, {}, [](Ctx x) { return run_barrier(std::move(x)); });
}

Started ibcast(const CommPtr& c, Bytes data, int root, Deliver d) {
  c->check_root(root, "MPI_Ibcast");
  return start(c, "MPI_Ibcast", "root", root, std::move(d),
               [&](Ctx x) { return run_bcast(std::move(x), std::move(data), root); });
}

Started igather(const CommPtr& c, Bytes mine, int root, Deliver d) {
  c->check_root(root, "MPI_Igather");
  return start(c, "MPI_Igather", "root", root, std::move(d),
               [&](Ctx x) { return run_gather(std::move(x), std::move(mine), root); });
}

Started iscatter(const CommPtr& c, std::vector<Bytes> parts, int root, Deliver d) {
  c->check_root(root, "MPI_Iscatter");
  if (c->is_root(root)) check_parts(parts, *c, "MPI_Iscatter");
  return start(c, "MPI_Iscatter", "root", root, std::move(d),
               [&](Ctx x) { return run_scatter(std::move(x), std::move(parts), root); });
}

Started iallgather(const CommPtr& c, Bytes mine, Deliver d) {
  c->check_usable("MPI_Iallgather");
  return start(c, "MPI_Iallgather", "", 0, std::move(d),
               [&](Ctx x) { return run_allgather(std::move(x), std::move(mine)); });
}

Started ialltoall(const CommPtr& c, std::vector<Bytes> parts, Deliver d) {
  c->check_usable("MPI_Ialltoall");
  check_parts(parts, *c, "MPI_Ialltoall");
  return start(c, "MPI_Ialltoall", "", 0, std::move(d),
               [&](Ctx x) { return run_alltoall(std::move(x), std::move(parts)); });
}

Started ireduce(const CommPtr& c, Bytes mine, Combine combine, bool, int root, Deliver d) {
  c->check_root(root, "MPI_Ireduce");
  return start(c, "MPI_Ireduce", "root", root, std::move(d), [&](Ctx x) {
    return run_reduce(std::move(x), std::move(mine), std::move(combine), root);
  });
}

Started iallreduce(const CommPtr& c, Bytes mine, Combine combine, Deliver d) {
  c->check_usable("MPI_Iallreduce");
  return start(c, "MPI_Iallreduce", "", 0, std::move(d), [&](Ctx x) {
    return run_allreduce(std::move(x), std::move(mine), std::move(combine));
  });
}

Started iscan(const CommPtr& c, Bytes mine, Combine combine, Deliver d) {
  c->check_usable("MPI_Iscan");
  c->check_intra("MPI_Iscan");
  return start(c, "MPI_Iscan", "", 0, std::move(d), [&](Ctx x) {
    return run_scan(std::move(x), std::move(mine), std::move(combine), false);
  });
}

Started iexscan(const CommPtr& c, Bytes mine, Combine combine, Deliver d) {
  c->check_usable("MPI_Iexscan");
  c->check_intra("MPI_Iexscan");
  return start(c, "MPI_Iexscan", "", 0, std::move(d), [&](Ctx x) {
    return run_scan(std::move(x), std::move(mine), std::move(combine), true);
  });
}

Started ireduce_scatter(const CommPtr& c, Bytes mine, Combine combine, std::vector<size_t> sizes, Deliver d,
                        const char* call) {
  c->check_usable(call);
  if (int(sizes.size()) != c->size())
    fail(ErrClass::Count, call,
         "counts has " + std::to_string(sizes.size()) + " entries; expected " + std::to_string(c->size()) +
             " (one per rank of the local group)");
  return start(c, call, "", 0, std::move(d), [&](Ctx x) {
    return run_reduce_scatter(std::move(x), std::move(mine), std::move(combine), std::move(sizes));
  });
}

Started ineighbor_allgather(const CommPtr& c, Bytes mine, Deliver d, const char* call) {
  Neighbors n = exchange_neighbors(*c, call);
  std::vector<Bytes> blocks(n.out.size(), mine);
  return start(c, call, "", 0, std::move(d),
               [&](Ctx x) { return run_neighbor(std::move(x), std::move(n), std::move(blocks)); });
}

Started ineighbor_alltoall(const CommPtr& c, std::vector<Bytes> parts, Deliver d, const char* call) {
  Neighbors n = exchange_neighbors(*c, call, parts.size());
  return start(c, call, "", 0, std::move(d),
               [&](Ctx x) { return run_neighbor(std::move(x), std::move(n), std::move(parts)); });
}

}  // namespace lumpi::core::nbc
