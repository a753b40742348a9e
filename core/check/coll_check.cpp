// core/check/coll_check.cpp: the collective-mismatch check (core/check/coll_check.hpp).
#include "core/check/coll_check.hpp"

#include <initializer_list>
#include <memory>

#include "core/base/pack.hpp"
#include "core/engine/engine.hpp"
#include "core/engine/request.hpp"

namespace lumpi::core::check {
namespace {

constexpr const char* kRule =
    "MPI-3.1 §5.1, §5.13: every process of a communicator must call its collectives in the same order, "
    "with the same root and reduction op, and the type signature each process sends must equal the one "
    "its receiver gives";

void put(Packer& p, const Sig& s) { p.u64(uint64_t(s.kind)).u64(s.unit).i64(s.reps).bytes(s.text); }

Sig get_sig(Unpacker& u) {
  Sig s;
  uint64_t kind = u.u64();
  s.kind = kind <= uint64_t(Sig::Kind::Known) ? Sig::Kind(kind) : Sig::Kind::Any;
  s.unit = u.u64();
  s.reps = u.i64();
  s.text = u.bytes();
  return s;
}

std::string pack(const CollCall& c) {
  Packer p;
  p.bytes(c.call).bytes(c.args).i64(c.root).bytes(c.op);
  put(p, c.send);
  put(p, c.recv);
  p.u64(c.per_pair ? 1 : 0).u64(c.failed ? 1 : 0).u64(c.send_per_rank ? 1 : 0).u64(c.recv_per_rank ? 1 : 0);
  for (const auto* counts : {&c.send_counts, &c.recv_counts}) {
    p.u64(counts->size());
    for (std::int64_t k : *counts) p.i64(k);
  }
  return p.take();
}

CollCall unpack(std::string_view b) {
  Unpacker u(b, "the collective check");
  CollCall c;
  c.call = u.bytes();
  c.args = u.bytes();
  c.root = u.i32();
  c.op = u.bytes();
  c.send = get_sig(u);
  c.recv = get_sig(u);
  c.per_pair = u.u64() != 0;
  c.failed = u.u64() != 0;
  c.send_per_rank = u.u64() != 0;
  c.recv_per_rank = u.u64() != 0;
  for (auto* counts : {&c.send_counts, &c.recv_counts}) {
    const uint64_t n = u.u64();
    if (n > (1u << 24)) throw Error(ErrClass::Intern, "the collective check", "too many counts");
    for (uint64_t i = 0; i < n; ++i) counts->push_back(u.i64());
  }
  u.end();
  return c;
}

std::string shown(const std::vector<CollCall>& calls, size_t i) {
  return "rank " + std::to_string(i) + " calls " + calls[i].call + "(" + calls[i].args + ")";
}

// "rank 0 calls MPI_Bcast(...), rank 1 calls MPI_Bcast(...): <why>"; one
// rank's call once when it disagrees with itself (a root's send and receive).
std::string pair_report(const std::vector<CollCall>& calls, size_t a, size_t b, const std::string& why) {
  return shown(calls, a) + (a == b ? "" : ", " + shown(calls, b)) + ": " + why;
}

// The first signature that disagrees with the first significant one.
std::string compare_data(const std::vector<CollCall>& calls) {
  struct Side {
    size_t rank;
    const Sig* sig;
    const char* verb;
  };
  std::vector<Side> sides;
  for (size_t i = 0; i < calls.size(); ++i) {
    if (calls[i].failed) continue;
    sides.push_back({i, &calls[i].send, "sends"});
    sides.push_back({i, &calls[i].recv, "receives"});
  }
  const Side* ref = nullptr;
  for (const Side& s : sides) {
    if (s.sig->kind == Sig::Kind::None || s.sig->kind == Sig::Kind::Any) continue;
    if (!ref) {
      ref = &s;
      continue;
    }
    if (compatible(*ref->sig, *s.sig, calls[0].per_pair)) continue;
    return pair_report(calls, ref->rank, s.rank,
                       "rank " + std::to_string(ref->rank) + " " + ref->verb + " " + ref->sig->text + " per block, rank " +
                           std::to_string(s.rank) + " " + s.verb + " " + s.sig->text +
                           ": the type signatures differ");
  }
  return "";
}

// The v forms whose pairs the check compares one by one (MPI-3.1 §5.5,
// §5.6, §5.7, §5.8: what i sends to j has the signature j receives from i),
// and the amount rank `from` sends to (or `to` receives from) a peer, in
// units of the side's signature: -1 where it is not known (no counts given,
// MPI_BYTE and MPI_PACKED, a side that moves nothing here).
bool one_of(const std::string& call, std::initializer_list<const char*> calls) {
  for (const char* c : calls)
    if (call == c) return true;
  return false;
}
bool pairs_compared(const std::string& call) {
  return one_of(call, {"MPI_Gatherv", "MPI_Scatterv", "MPI_Allgatherv", "MPI_Alltoallv", "MPI_Igatherv",
                       "MPI_Iscatterv", "MPI_Iallgatherv", "MPI_Ialltoallv"});
}

std::int64_t amount(const Sig& s, bool per_rank, const std::vector<std::int64_t>& counts, size_t peer) {
  if (s.kind == Sig::Kind::None || s.kind == Sig::Kind::Any || (per_rank && counts.empty())) return -1;
  if (counts.empty()) return s.kind == Sig::Kind::Known ? s.reps : 0;  // one count for every peer
  if (peer >= counts.size()) return -1;
  if (counts[peer] == 0) return 0;
  return s.kind == Sig::Kind::Known ? counts[peer] * s.reps : -1;
}

// "3 x MPI_INT" for what a side moves with one peer.
std::string pair_amount_text(const Sig& s, const std::vector<std::int64_t>& counts, size_t peer) {
  if (counts.empty()) return s.text;
  const size_t x = s.text.find(" x ");
  return std::to_string(counts[peer]) + (x == std::string::npos ? " x ?" : s.text.substr(x));
}

std::string compare_pairs(const std::vector<CollCall>& calls) {
  if (!pairs_compared(calls[0].call)) return "";
  const size_t n = calls.size();
  const std::string& call = calls[0].call;
  const bool gather = one_of(call, {"MPI_Gatherv", "MPI_Igatherv"}),
             scatter = one_of(call, {"MPI_Scatterv", "MPI_Iscatterv"});
  const size_t root = size_t(std::max(calls[0].root, 0));
  for (size_t from = 0; from < n; ++from)
    for (size_t to = 0; to < n; ++to) {
      if ((gather && to != root) || (scatter && from != root)) continue;
      const CollCall &a = calls[from], &b = calls[to];
      if (a.failed || b.failed) continue;
      const std::int64_t sent = amount(a.send, a.send_per_rank, a.send_counts, to),
                         got = amount(b.recv, b.recv_per_rank, b.recv_counts, from);
      if (sent < 0 || got < 0 || sent == got) continue;
      return pair_report(calls, from, to,
                         "rank " + std::to_string(from) + " sends " + pair_amount_text(a.send, a.send_counts, to) +
                             " to rank " + std::to_string(to) + ", which receives " +
                             pair_amount_text(b.recv, b.recv_counts, from) + " from it: the type signatures of "
                             "that pair differ");
    }
  return "";
}

std::string type_text(const Side& s) {
  const std::string& n = s.type->name();
  return n.empty() ? "a derived datatype" : n;
}

// "sendcount=1, sendtype=MPI_INT, root=0, op=MPI_SUM" (what is significant here).
std::string args_text(const Side& send, const Side& recv, int root, const std::string& op) {
  std::string s;
  auto add = [&](const std::string& part) { s += (s.empty() ? "" : ", ") + part; };
  const bool both = send.type && recv.type;
  for (const Side* side : {&send, &recv}) {
    if (!side->type) continue;
    const char* count = both ? (side == &send ? "sendcount" : "recvcount") : "count";
    const char* type = both ? (side == &send ? ", sendtype=" : ", recvtype=") : ", datatype=";
    add(std::string(count) + (side->per_rank ? "s=..." : "=" + std::to_string(side->count)) + type + type_text(*side));
  }
  if (root >= 0) add("root=" + std::to_string(root));
  if (!op.empty()) add("op=" + op);
  return s;
}

// The calls whose "in place" option is given at all processes or at none
// (MPI-3.1 §5.7, §5.8: "passing MPI_IN_PLACE to the argument sendbuf at
// all processes"), and whether a member gave it: a send side without data
// where the receive side has some, as every door describes MPI_IN_PLACE.
bool all_or_none_in_place(const std::string& call) {
  return one_of(call, {"MPI_Allgather", "MPI_Allgatherv", "MPI_Alltoall", "MPI_Alltoallv", "MPI_Iallgather",
                       "MPI_Iallgatherv", "MPI_Ialltoall", "MPI_Ialltoallv"});
}
bool in_place(const CollCall& c) { return c.send.kind == Sig::Kind::None && c.recv.kind == Sig::Kind::Known; }

std::string compare_in_place(const std::vector<CollCall>& calls) {
  if (!all_or_none_in_place(calls[0].call)) return "";
  for (size_t i = 1; i < calls.size(); ++i) {
    if (calls[i].failed || in_place(calls[i]) == in_place(calls[0])) continue;
    size_t given = in_place(calls[0]) ? 0 : i, not_given = given == 0 ? i : 0;
    return pair_report(calls, 0, i,
                       "rank " + std::to_string(given) + " passes MPI_IN_PLACE as sendbuf and rank " +
                           std::to_string(not_given) + " does not: " + calls[0].call +
                           " takes it at all processes or at none (MPI-3.1 §5.7, §5.8)");
  }
  return "";
}

}  // namespace

Verdict compare(const std::vector<CollCall>& calls, const std::string& comm_name) {
  Verdict v;
  for (size_t i = 1; i < calls.size() && v.text.empty(); ++i)
    if (calls[0].call != calls[i].call) v = {ErrClass::Other, pair_report(calls, 0, i, "different collectives")};
  if (v.text.empty() && !calls[0].failed) v = {ErrClass::Arg, compare_in_place(calls)};
  // The arguments of the members whose own arguments did not fail.
  size_t first = 0;
  while (first < calls.size() && calls[first].failed) ++first;
  for (size_t i = first + 1; i < calls.size() && v.text.empty(); ++i) {
    const CollCall &a = calls[first], &b = calls[i];
    if (b.failed) continue;
    if (a.root != b.root)
      v = {ErrClass::Root, pair_report(calls, first, i, "the roots differ (" + std::to_string(a.root) + " and " +
                                                             std::to_string(b.root) + ")")};
    else if (a.op != b.op)
      v = {ErrClass::Op, pair_report(calls, first, i, "the reduction ops differ (" + a.op + " and " + b.op + ")")};
  }
  if (v.text.empty()) v = {ErrClass::Type, compare_data(calls)};
  if (v.text.empty()) v = {ErrClass::Type, compare_pairs(calls)};
  if (v.text.empty()) return {};
  v.text = "collective mismatch on '" + comm_name + "': " + v.text + "\n" + kRule;
  return v;
}

CollCall describe(const char* call, int root, const std::string& op, const Side& send, const Side& recv,
                  bool per_pair) {
  CollCall c;
  c.call = call;
  c.root = root;
  c.op = op;
  c.args = args_text(send, recv, root, op);
  if (send.type) c.send = signature(*send.type, send.count);
  if (recv.type) c.recv = signature(*recv.type, recv.count);
  c.send_counts = send.counts;
  c.recv_counts = recv.counts;
  c.send_per_rank = send.per_rank;
  c.recv_per_rank = recv.per_rank;
  c.per_pair = per_pair;
  return c;
}

namespace {

// One collective's exchange of descriptions: members send theirs to rank
// 0 and wait for its verdict; rank 0 waits for all, compares, answers.
class Exchange {
 public:
  Exchange(Comm& c, const CollCall& mine, CommPtr keep)
      : c_(c), keep_(std::move(keep)), mine_(mine), tag_(int((c.next_checked() & 0x3FFFFu) << 12) | 0xFFF),
        what_(c.waiting(mine.call, mine.root >= 0 ? "root" : "", mine.root)) {
    what_.group = c_.local_group();
    for (int r = c_.rank() == 0 ? 1 : 0; r < (c_.rank() == 0 ? c_.size() : 1); ++r)
      what_.needs.push_back(c_.local_group()[size_t(r)]);
    if (c_.rank() != 0) {
      c_.lane_send(Lane::Nbc, 0, tag_, Body(pack(mine_)), true);
      in_.push_back(c_.lane_irecv(Lane::Nbc, 0, tag_, what_, true));
      return;
    }
    for (int r = 1; r < c_.size(); ++r) in_.push_back(c_.lane_irecv(Lane::Nbc, r, tag_, what_, true));
  }

  // True once the verdict is in (reporting it if it is a mismatch).
  bool step() {
    if (done_) return true;
    for (const RequestPtr& r : in_)
      if (!r->complete()) return false;
    verdict_ = c_.rank() == 0 ? judge() : unpack_verdict(in_[0]->body().str());
    done_ = true;
    if (!verdict_.text.empty()) c_.engine().report_check("collective-mismatch", verdict_.text);
    return true;
  }
  const Verdict& verdict() const { return verdict_; }
  const Waiting& what() const { return what_; }

 private:
  Verdict judge() {
    std::vector<CollCall> calls{mine_};
    for (const RequestPtr& r : in_) calls.push_back(unpack(r->body().str()));
    std::string name = c_.name().empty() ? "a communicator of size " + std::to_string(c_.size()) : c_.name();
    Verdict v = compare(calls, name);
    const std::string packed = Packer().i64(int64_t(v.cls)).bytes(v.text).take();
    for (int r = 1; r < c_.size(); ++r) c_.lane_send(Lane::Nbc, r, tag_, Body(std::string(packed)), true);
    return v;
  }

  static Verdict unpack_verdict(std::string_view b) {
    Unpacker u(b, "the collective check's verdict");
    Verdict v;
    const ErrClass cls = ErrClass(u.i32());
    v.cls = cls == ErrClass::Root || cls == ErrClass::Op || cls == ErrClass::Type || cls == ErrClass::Arg ? cls
                                                                                                 : ErrClass::Other;
    v.text = u.bytes();
    u.end();
    return v;
  }

  Comm& c_;
  CommPtr keep_;  // a nonblocking collective's communicator, alive while the exchange runs
  CollCall mine_;
  int tag_;
  Waiting what_;
  std::vector<RequestPtr> in_;
  Verdict verdict_;
  bool done_ = false;
};

}  // namespace

bool applies(const Comm& c) { return c.engine().checking() && !c.is_inter() && c.size() > 1; }

void collective(Comm& c, const CollCall& mine) {
  if (!applies(c)) return;
  Exchange ex(c, mine, nullptr);
  c.engine().wait([&] { return ex.step(); }, ex.what());
  if (!ex.verdict().text.empty()) throw Error(ex.verdict().cls, mine.call, ex.verdict().text);
}

void collective_started(const CommPtr& c, const CollCall& mine) {
  if (!applies(*c)) return;
  auto ex = std::make_shared<Exchange>(*c, mine, c);
  c->engine().add_background([ex] { return ex->step(); });
  c->set_check_gate([ex, call = mine.call] {
    if (!ex->step()) return false;
    if (!ex->verdict().text.empty()) throw Error(ex->verdict().cls, call, ex->verdict().text);
    return true;
  });
}

}  // namespace lumpi::core::check
