// core/comm_create.cpp: constructors that build communicators from a parent,
// the destructor, comparison and info hints.
//
// Sections: packing; teams (collectives among a list of one communicator's
// local-group ranks, on its internal lane, so constructor traffic never meets
// user or collective traffic); intercommunicator leader exchange; local
// helpers; the constructors.
//
// Internal-lane tags: fixed constructor phases use negative tags far below
// the wildcard values; MPI_Comm_create_group uses the user's tag (0..TAG_UB)
// and the MPI_Intercomm_create leader exchange uses TAG_UB + 1 + tag, so the
// three never meet on one communicator.
#include "core/comm_create.hpp"

#include <algorithm>
#include <cstring>

#include "core/coll.hpp"
#include "core/constants.hpp"
#include "core/error.hpp"
#include "core/hw.hpp"

namespace lumpi::core {
namespace {

using Bytes = std::string;

enum Tag : int {
  kDup = -(1 << 20),
  kIdup = kDup - 8,
  kCreate = kDup - 16,
  kSplit = kDup - 24,
  kSplitType = kDup - 32,
  kInterLocal = kDup - 40,  // intercomm_create: the leader's news for its group
  kMerge = kDup - 48,
};
constexpr int kLeaderPhase = 1;  // + to a tag: the exchange between leaders
constexpr int kBcastPhase = 2;   // + to a tag: the broadcast after a gather

// ---- packing ------------------------------------------------------------------------

Bytes pack_ints(const std::vector<int64_t>& v) {
  Bytes out(v.size() * 8, '\0');
  if (!v.empty()) std::memcpy(out.data(), v.data(), v.size() * 8);
  return out;
}

std::vector<int64_t> unpack_ints(std::string_view s, const char* func) {
  if (s.size() % 8 != 0) fail(ErrClass::Intern, func, "malformed constructor data from a peer");
  std::vector<int64_t> v(s.size() / 8);
  if (!v.empty()) std::memcpy(v.data(), s.data(), s.size());
  return v;
}

Bytes pack_members(const group::Members& m) { return pack_ints({m.begin(), m.end()}); }

group::Members unpack_members(std::string_view s, const char* func) {
  auto v = unpack_ints(s, func);
  return group::Members(v.begin(), v.end());
}

Bytes to_bytes(const Body& m) { return m.str(); }

// ---- teams --------------------------------------------------------------------------

// Some processes of one communicator's local group, in team order, talking
// on that communicator's internal lane with one tag.
struct Team {
  Comm& comm;
  std::vector<int> ranks;  // local-group ranks of the members
  int me;                  // my index in ranks
  int tag;
  Waiting what;
  int size() const { return int(ranks.size()); }
  void send(int index, Bytes b, int phase) {
    comm.lane_send(Lane::Internal, ranks[size_t(index)], tag + phase, Body(std::move(b)), true);
  }
  Bytes recv(int index, int phase) {
    return to_bytes(comm.lane_recv(Lane::Internal, ranks[size_t(index)], tag + phase, what, true));
  }
};

// The whole local group of c.
Team whole(Comm& c, int tag, const char* func) {
  std::vector<int> ranks(size_t(c.size()));
  for (int i = 0; i < c.size(); ++i) ranks[size_t(i)] = i;
  return Team{c, std::move(ranks), c.rank(), tag, c.waiting(func)};
}

// Binomial tree from team index `root`.
Bytes team_bcast(Team& t, Bytes data, int root) {
  const int n = t.size(), vr = (t.me - root + n) % n;
  int mask = 1;
  for (; mask < n; mask <<= 1) {
    if (vr & mask) {
      data = t.recv((vr - mask + root) % n, kBcastPhase);
      break;
    }
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (vr + mask < n) t.send((vr + mask + root) % n, data, kBcastPhase);
  return data;
}

// Binomial gather to index 0, then broadcast: every member gets every part.
std::vector<Bytes> team_allgather(Team& t, Bytes mine) {
  const int n = t.size(), me = t.me;
  std::vector<Bytes> subtree{std::move(mine)};  // indices me, me+1, ...
  for (int mask = 1; mask < n; mask <<= 1) {
    if (me & mask) {
      t.send(me - mask, coll::pack(subtree), 0);
      subtree.clear();
      break;
    }
    if (me + mask < n)
      for (auto& part : coll::unpack(t.recv(me + mask, 0))) subtree.push_back(std::move(part));
  }
  Bytes all = team_bcast(t, me == 0 ? coll::pack(subtree) : Bytes(), 0);
  std::vector<Bytes> out = coll::unpack(all);
  if (int(out.size()) != n) fail(ErrClass::Intern, t.what.call, "gathered the wrong number of parts");
  return out;
}

// ---- intercommunicator leader exchange ---------------------------------------------

// Local rank 0 of each side sends `mine` to the other side's rank 0 and gets
// theirs; then every process of the side learns both: {leader's mine, theirs}.
struct Exchanged {
  Bytes own, theirs;
};
Exchanged exchange_across(Comm& inter, const Bytes& mine, int tag, const char* func) {
  Team t = whole(inter, tag, func);
  Bytes both;
  if (inter.rank() == 0) {
    inter.lane_send(Lane::Internal, 0, tag + kLeaderPhase, Body(mine));
    Bytes theirs = to_bytes(inter.lane_recv(Lane::Internal, 0, tag + kLeaderPhase,
                                            inter.waiting(func, "remote leader", 0)));
    both = coll::pack({mine, theirs});
  }
  auto parts = coll::unpack(team_bcast(t, both, 0));
  if (parts.size() != 2) fail(ErrClass::Intern, func, "malformed leader data from a peer");
  return {std::move(parts[0]), std::move(parts[1])};
}

// True on the side whose first member has the lower world rank ("left").
bool is_left(const Comm& inter) { return inter.local_group()[0] < inter.remote_group()[0]; }

// ---- local helpers ------------------------------------------------------------------

group::Relation relation(const group::Members& a, const group::Members& b) {
  return group::compare(a, b);
}

void check_subgroup(const Comm& parent, const group::Members& g, const char* func) {
  for (size_t i = 0; i < g.size(); ++i)
    if (group::rank_of(parent.local_group(), g[i]) == UNDEFINED)
      fail(ErrClass::Group, func,
           "group member " + std::to_string(i) + " (COMM_WORLD rank " + std::to_string(g[i]) +
               ") is not in the " + (parent.is_inter() ? "local group of the" : "group of the") +
               " communicator");
}

void check_intra(const Comm& c, const char* func, const char* what = "comm") {
  if (c.is_inter())
    fail(ErrClass::Comm, func, std::string(what) + " must be an intracommunicator, got an intercommunicator");
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

// One row of a split table: a process's colour, key, proposal; `rank` is
// its rank in its own group.
struct Row {
  int64_t color, key;
  uint64_t proposal;
  int rank;
};

std::vector<Row> rows_of(const std::vector<Bytes>& parts, const char* func) {
  std::vector<Row> rows;
  for (int r = 0; r < int(parts.size()); ++r) {
    auto v = unpack_ints(parts[size_t(r)], func);
    if (v.size() != 3) fail(ErrClass::Intern, func, "malformed split data from a peer");
    rows.push_back({v[0], v[1], uint64_t(v[2]), r});
  }
  return rows;
}

// The rows of one colour ordered by (key, rank).
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

uint64_t min_proposal(const std::vector<Row>& a, const std::vector<Row>& b = {}) {
  uint64_t best = UINT64_MAX;
  for (const Row& r : a) best = std::min(best, r.proposal);
  for (const Row& r : b) best = std::min(best, r.proposal);
  return best;
}

// A cheap fingerprint of a group, to detect processes passing different groups.
int64_t fingerprint(const group::Members& g) {
  uint64_t h = 1469598103934665603ull;
  for (int m : g) h = (h ^ uint64_t(uint32_t(m))) * 1099511628211ull;
  return int64_t(h ^ g.size());
}

}  // namespace

// ---- local operations ------------------------------------------------------------------

CommRelation comm_compare(const Comm& a, const Comm& b) {
  if (&a == &b) return CommRelation::Ident;
  if (a.is_inter() != b.is_inter()) return CommRelation::Unequal;
  group::Relation local = relation(a.local_group(), b.local_group());
  group::Relation remote =
      a.is_inter() ? relation(a.remote_group(), b.remote_group()) : group::Relation::Ident;
  if (local == group::Relation::Unequal || remote == group::Relation::Unequal)
    return CommRelation::Unequal;
  if (local == group::Relation::Ident && remote == group::Relation::Ident) return CommRelation::Congruent;
  return CommRelation::Similar;
}

const char* relation_name(CommRelation r) {
  switch (r) {
    case CommRelation::Ident: return "ident";
    case CommRelation::Congruent: return "congruent";
    case CommRelation::Similar: return "similar";
    case CommRelation::Unequal: return "unequal";
  }
  return "unequal";
}

namespace {
// The boolean hints of §6.4.4, all defaulting to false.
const char* const kBoolHints[] = {"mpi_assert_no_any_tag", "mpi_assert_no_any_source",
                                  "mpi_assert_exact_length", "mpi_assert_allow_overtaking"};
}  // namespace

void set_hints(Comm& c, const Hints& given) {
  for (const char* key : kBoolHints) {
    auto it = given.find(key);
    if (it == given.end()) continue;
    std::string v = it->second;
    std::transform(v.begin(), v.end(), v.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
    if (v == "true" || v == "false") c.info()[key] = v;  // other values are ignored
  }
}

Hints hints_used(const Comm& c) {
  Hints out;
  for (const char* key : kBoolHints) out[key] = "false";
  for (const auto& [k, v] : const_cast<Comm&>(c).info()) out[k] = v;
  return out;
}

void check_freeable(const Comm& c) {
  c.check_usable("MPI_Comm_free");
  if (c.base() == 1 || c.base() == 2)
    fail(ErrClass::Comm, "MPI_Comm_free",
         std::string("comm is ") + (c.base() == 1 ? "MPI_COMM_WORLD" : "MPI_COMM_SELF") +
             ", which cannot be freed");
}

void comm_free(Comm& c) {
  check_freeable(c);
  c.mark_freed();
}

// ---- dup ------------------------------------------------------------------------------

namespace {
uint64_t agree_dup_base(Comm& parent, const char* func) {
  if (!parent.is_inter()) {
    Team t = whole(parent, kDup, func);
    Bytes mine = parent.rank() == 0 ? pack_ints({int64_t(parent.engine().propose_context())}) : Bytes();
    return uint64_t(unpack_ints(team_bcast(t, mine, 0), func).at(0));
  }
  // Both leaders propose; the smaller proposal wins on both sides.
  Bytes mine = parent.rank() == 0 ? pack_ints({int64_t(parent.engine().propose_context())}) : Bytes();
  Exchanged x = exchange_across(parent, mine, kDup, func);
  return std::min(uint64_t(unpack_ints(x.own, func).at(0)), uint64_t(unpack_ints(x.theirs, func).at(0)));
}

CommPtr dup_on(Comm& parent, uint64_t base) {
  auto c = std::make_shared<Comm>(parent.engine(), base, parent.local_group(), parent.remote_group(),
                                  parent.is_inter());
  c->set_topology(parent.topology());
  c->set_errhandler(parent.errhandler());
  return c;
}
}  // namespace

CommPtr comm_dup(Comm& parent) {
  parent.check_usable("MPI_Comm_dup");
  return dup_on(parent, agree_dup_base(parent, "MPI_Comm_dup"));
}

CommPtr comm_dup_with_info(Comm& parent, const Hints& hints) {
  parent.check_usable("MPI_Comm_dup_with_info");
  CommPtr c = dup_on(parent, agree_dup_base(parent, "MPI_Comm_dup_with_info"));
  set_hints(*c, hints);
  return c;
}

// ---- idup -----------------------------------------------------------------------------

namespace {
// One posted internal-lane receive owned by an idup request.
struct PendingRecv {
  Engine* engine;
  PostedRecv recv;
  PendingRecv(Engine& e, uint64_t context, int source_world, int tag) : engine(&e) {
    recv.context = context;
    recv.source = source_world;
    recv.tag = tag;
    engine->post(&recv);
  }
  ~PendingRecv() {
    if (!recv.done) engine->matcher().cancel(&recv);
  }
  // True once the message is here; an interrupt that abandoned the receive
  // fails the request instead of leaving it pending forever.
  bool done() const {
    if (recv.abandoned && !recv.done)
      fail(ErrClass::Interrupted, "MPI_Comm_idup", "the pending MPI_Comm_idup was abandoned by an interrupt");
    return recv.done;
  }
  uint64_t value(const char* func) const {
    return uint64_t(unpack_ints(recv.msg.body.view(), func).at(0));
  }
};

// Nothing blocks at call time. Intra: rank 0 proposes and sends its proposal
// to every member. Inter: the leaders send each other their proposals; each
// leader, once it has the other's, forwards the smaller to its group. The
// new communicator completes when its process holds the agreed base.
Idup start_idup(const CommPtr& parent_ptr, const IdupHook& before_start, const char* func) {
  Comm& parent = *parent_ptr;
  parent.check_usable(func);
  CommPtr c = dup_on(parent, 0);
  c->set_pending();
  if (before_start) before_start(c);
  Engine& e = parent.engine();
  const uint64_t ctx = parent.context(Lane::Internal);
  const int me = e.world_rank();
  const int leader = parent.local_group()[0];
  auto forward = [parent_ptr](uint64_t base) {
    for (int r = 1; r < parent_ptr->size(); ++r)
      parent_ptr->lane_send(Lane::Internal, r, kIdup, Body(pack_ints({int64_t(base)})), true);
  };
  Waiting what = parent.waiting(func);
  if (me == leader) {
    uint64_t proposal = e.propose_context();
    if (!parent.is_inter()) {
      forward(proposal);
      c->complete_pending(proposal);
      return {c, Request::done()};
    }
    parent.lane_send(Lane::Internal, 0, kIdup + kLeaderPhase, Body(pack_ints({int64_t(proposal)})));
    auto pr = std::make_shared<PendingRecv>(e, ctx, parent.remote_group()[0], kIdup + kLeaderPhase);
    auto test = [c, pr, proposal, forward, func]() {
      if (!c->pending()) return true;
      if (!pr->done()) return false;
      uint64_t base = std::min(proposal, pr->value(func));
      forward(base);
      c->complete_pending(base);
      return true;
    };
    return {c, Request::generic(e, test, what)};
  }
  auto pr = std::make_shared<PendingRecv>(e, ctx, leader, kIdup);
  auto test = [c, pr, func]() {
    if (!c->pending()) return true;
    if (!pr->done()) return false;
    c->complete_pending(pr->value(func));
    return true;
  };
  return {c, Request::generic(e, test, what)};
}
}  // namespace

Idup comm_idup(const CommPtr& parent, const IdupHook& before_start) {
  return start_idup(parent, before_start, "MPI_Comm_idup");
}

Idup comm_idup_with_info(const CommPtr& parent, const Hints& hints, const IdupHook& before_start) {
  auto with_hints = [&hints, &before_start](const CommPtr& c) {
    set_hints(*c, hints);
    if (before_start) before_start(c);
  };
  return start_idup(parent, with_hints, "MPI_Comm_idup_with_info");
}

// ---- create ---------------------------------------------------------------------------

namespace {
CommPtr create_intra(Comm& parent, const group::Members& g, const char* func) {
  Team t = whole(parent, kCreate, func);
  int64_t fp = fingerprint(g);
  auto all = team_allgather(t, pack_ints({int64_t(parent.engine().propose_context()), fp}));
  int mine = group::rank_of(g, parent.engine().world_rank());
  if (mine == UNDEFINED) return nullptr;
  // Every member must have passed the same group (seed §6.4.2).
  for (int m : g) {
    int pr = group::rank_of(parent.local_group(), m);
    if (unpack_ints(all[size_t(pr)], func).at(1) != fp)
      fail(ErrClass::Group, func,
           "COMM_WORLD rank " + std::to_string(m) + " passed a different group than this process");
  }
  int first = group::rank_of(parent.local_group(), g[0]);
  return make_intra(parent, uint64_t(unpack_ints(all[size_t(first)], func).at(0)), g);
}

// Each side passes a subgroup of its own group; the leaders swap the groups
// their sides chose and a proposal, and the smaller proposal wins.
CommPtr create_inter(Comm& parent, const group::Members& g, const char* func) {
  Bytes mine = coll::pack({pack_members(g), pack_ints({int64_t(parent.engine().propose_context())})});
  Exchanged x = exchange_across(parent, mine, kCreate, func);
  auto o = coll::unpack(x.own), r = coll::unpack(x.theirs);
  if (o.size() != 2 || r.size() != 2) fail(ErrClass::Intern, func, "malformed create data from a peer");
  if (unpack_members(o[0], func) != g)
    fail(ErrClass::Group, func, "this process passed a different group than its group's rank 0");
  group::Members remote = unpack_members(r[0], func);
  if (g.empty() || remote.empty() || group::rank_of(g, parent.engine().world_rank()) == UNDEFINED)
    return nullptr;
  uint64_t base = std::min(uint64_t(unpack_ints(o[1], func).at(0)), uint64_t(unpack_ints(r[1], func).at(0)));
  return make_inter(parent, base, g, std::move(remote));
}
}  // namespace

CommPtr comm_create(Comm& parent, const group::Members& g) {
  const char* func = "MPI_Comm_create";
  parent.check_usable(func);
  check_subgroup(parent, g, func);
  return parent.is_inter() ? create_inter(parent, g, func) : create_intra(parent, g, func);
}

CommPtr comm_create_group(Comm& parent, const group::Members& g, int tag) {
  const char* func = "MPI_Comm_create_group";
  parent.check_usable(func);
  check_intra(parent, func);
  if (tag == ANY_TAG) fail(ErrClass::Tag, func, "tag must not be mpi.ANY_TAG");
  if (tag < 0 || tag > TAG_UB)
    fail(ErrClass::Tag, func, "tag " + std::to_string(tag) + " is out of range 0.." + std::to_string(TAG_UB));
  check_subgroup(parent, g, func);
  int me = group::rank_of(g, parent.engine().world_rank());
  if (me == UNDEFINED) return nullptr;  // local: non-members do not take part
  std::vector<int> ranks;
  for (int m : g) ranks.push_back(group::rank_of(parent.local_group(), m));
  Waiting what = parent.waiting(func);
  what.has_tag = true;
  what.tag = tag;
  // The user's tag keys the traffic: the broadcast phase adds kBcastPhase to
  // the team's tag, so the team's tag is set that much below it.
  Team t{parent, std::move(ranks), me, tag - kBcastPhase, what};
  Bytes data = me == 0 ? pack_ints({int64_t(parent.engine().propose_context()), fingerprint(g)}) : Bytes();
  auto v = unpack_ints(team_bcast(t, data, 0), func);
  if (v.size() != 2) fail(ErrClass::Intern, func, "malformed create data from a peer");
  if (v[1] != fingerprint(g))
    fail(ErrClass::Group, func, "this process passed a different group than the group's rank 0");
  return make_intra(parent, uint64_t(v[0]), g);
}

// ---- split ----------------------------------------------------------------------------

namespace {
CommPtr split_intra(Comm& parent, int color, int key, const char* func) {
  Team t = whole(parent, kSplit, func);
  auto rows = rows_of(team_allgather(t, pack_ints({color, key, int64_t(parent.engine().propose_context())})), func);
  if (color == UNDEFINED) return nullptr;
  auto members = colour_members(rows, color);
  return make_intra(parent, min_proposal(members), world_ranks(parent.local_group(), members));
}

// Each side gathers its table; the leaders swap tables; a colour present on
// both sides becomes an intercommunicator.
CommPtr split_inter(Comm& parent, int color, int key, const char* func) {
  Team t = whole(parent, kSplit, func);
  auto parts = team_allgather(t, pack_ints({color, key, int64_t(parent.engine().propose_context())}));
  Exchanged x = exchange_across(parent, coll::pack(parts), kSplit + 4, func);
  auto local_rows = rows_of(parts, func);
  auto remote_rows = rows_of(coll::unpack(x.theirs), func);
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
    fail(ErrClass::Arg, func, "color " + std::to_string(color) + " must be non-negative or mpi.UNDEFINED");
  return parent.is_inter() ? split_inter(parent, color, key, func) : split_intra(parent, color, key, func);
}

// ---- split_type -------------------------------------------------------------------------

namespace {
// Split kinds as exchanged between processes (all must agree, but UNDEFINED).
enum SplitKind : int64_t { kUndefined = 0, kShared = 1, kHwGuided = 2, kHwDomain = 3 };

SplitKind parse_split_kind(bool is_undefined, const std::string& type, const char* func) {
  if (is_undefined) return kUndefined;
  if (type == "shared") return kShared;
  if (type == "hw_guided") return kHwGuided;
  if (type == "hw_domain") return kHwDomain;
  fail(ErrClass::Arg, func,
       "split_type '" + type + "' is unknown (expected \"shared\", \"hw_guided\", \"hw_domain\" or mpi.UNDEFINED)");
}

// Levels searched by an unguided hw_domain split, coarse to fine.
const hw::Level kDomainLevels[] = {hw::Level::Package, hw::Level::NUMA,    hw::Level::L3Cache,
                                   hw::Level::L2Cache, hw::Level::Core,    hw::Level::PU};
constexpr int kNoDomain = -1;

// This process's domain index at each level (kNoDomain where its binding
// spans several objects), preceded by a number for the host.
std::vector<int64_t> my_domains(const std::string& host) {
  std::vector<int64_t> v{int64_t(std::hash<std::string>{}(host) & 0x7fffffffffffll)};
  for (hw::Level l : kDomainLevels) {
    auto i = hw::locality(l);
    v.push_back(i ? *i : kNoDomain);
  }
  return v;
}

// Column of the level within my_domains' vector (0 is the host).
int column_of(hw::Level l) {
  for (int i = 0; i < int(std::size(kDomainLevels)); ++i)
    if (kDomainLevels[i] == l) return i + 1;
  return 0;
}

struct TypeRow {
  int64_t kind, key;
  uint64_t proposal;
  std::vector<int64_t> domains;
};

// Members whose domain at `col` (host prefix included) equals mine, by
// (key, rank); empty when mine is undefined.
std::vector<Row> same_domain(const std::vector<TypeRow>& rows, int me, int col) {
  std::vector<Row> out;
  auto domain = [&](const TypeRow& r) { return std::make_pair(r.domains[0], r.domains[size_t(col)]); };
  if (rows[size_t(me)].domains[size_t(col)] == kNoDomain) return out;
  for (int r = 0; r < int(rows.size()); ++r)
    if (rows[size_t(r)].kind != kUndefined && domain(rows[size_t(r)]) == domain(rows[size_t(me)]))
      out.push_back({0, rows[size_t(r)].key, rows[size_t(r)].proposal, r});
  std::stable_sort(out.begin(), out.end(), [](const Row& a, const Row& b) { return a.key < b.key; });
  return out;
}

// True when every participating process has the same defined domain at col:
// the split would not give a strict subset.
bool all_same(const std::vector<TypeRow>& rows, int col) {
  const TypeRow* first = nullptr;
  for (const TypeRow& r : rows) {
    if (r.kind == kUndefined) continue;
    if (r.domains[size_t(col)] == kNoDomain) return false;
    if (!first) first = &r;
    else if (r.domains[0] != first->domains[0] || r.domains[size_t(col)] != first->domains[size_t(col)])
      return false;
  }
  return true;
}

// The column a hardware split uses, or -1 for "nobody gets a communicator".
int hw_column(SplitKind kind, const Hints& hints, const std::vector<TypeRow>& rows, bool* as_shared) {
  const char* key = kind == kHwGuided ? "mpi_hw_resource_type" : "mpi_hw_domain_type";
  auto it = hints.find(key);
  if (it != hints.end()) {
    if (it->second == "mpi_shared_memory") {
      *as_shared = true;
      return 0;
    }
    auto level = hw::parse_level(it->second);
    if (!level || *level == hw::Level::Machine) return -1;
    int col = column_of(*level);
    // MPI-4.0's HW_GUIDED groups the processes on each instance, even when
    // that is all of them; the draft HW_DOMAIN asks for strict subsets.
    return kind == kHwGuided || !all_same(rows, col) ? col : -1;
  }
  if (kind == kHwGuided) return -1;  // guided needs a resource type
  for (hw::Level l : kDomainLevels)   // unguided: the coarsest level that splits
    if (!all_same(rows, column_of(l))) return column_of(l);
  return -1;
}
}  // namespace

CommPtr comm_split_type(Comm& parent, bool is_undefined, const std::string& type, int key,
                        const Hints& hints) {
  const char* func = "MPI_Comm_split_type";
  parent.check_usable(func);
  check_intra(parent, func);
  SplitKind kind = parse_split_kind(is_undefined, type, func);
  std::vector<int64_t> mine{kind, key, int64_t(parent.engine().propose_context())};
  for (int64_t d : my_domains(hw::info().host)) mine.push_back(d);
  Team t = whole(parent, kSplitType, func);
  std::vector<TypeRow> rows;
  for (const Bytes& b : team_allgather(t, pack_ints(mine))) {
    auto v = unpack_ints(b, func);
    if (v.size() != mine.size()) fail(ErrClass::Intern, func, "malformed split_type data from a peer");
    rows.push_back({v[0], v[1], uint64_t(v[2]), std::vector<int64_t>(v.begin() + 3, v.end())});
  }
  for (int r = 0; r < int(rows.size()); ++r)
    if (rows[size_t(r)].kind != kUndefined && kind != kUndefined && rows[size_t(r)].kind != kind)
      fail(ErrClass::Arg, func,
           "split_type differs between processes (rank " + std::to_string(r) + " passed another type)");
  if (kind == kUndefined) return nullptr;
  bool as_shared = kind == kShared;
  int col = as_shared ? 0 : hw_column(kind, hints, rows, &as_shared);
  if (col < 0) return nullptr;
  auto members = same_domain(rows, parent.rank(), col);
  if (members.empty()) return nullptr;
  CommPtr c = make_intra(parent, min_proposal(members), world_ranks(parent.local_group(), members));
  set_hints(*c, hints);
  return c;
}

// ---- intercommunicators ---------------------------------------------------------------

namespace {
// The checks every process can make alone: local_comm, local_leader, tag.
void check_local_args(Comm& local, int local_leader, int tag, const char* func) {
  check_intra(local, func, "local_comm");
  if (local_leader < 0 || local_leader >= local.size())
    fail(ErrClass::Rank, func,
         "local_leader " + std::to_string(local_leader) + " is not a rank of local_comm (size " +
             std::to_string(local.size()) + ")");
  if (tag < 0 || tag > TAG_UB)
    fail(ErrClass::Tag, func,
         "tag " + std::to_string(tag) + (tag == ANY_TAG ? " (mpi.ANY_TAG)" : "") + " must be in 0.." +
             std::to_string(TAG_UB));
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
    fail(ErrClass::Rank, func, "remote_leader " + std::to_string(remote_leader) + " is this process itself");
  if (group::rank_of(local.local_group(), world) != UNDEFINED)
    fail(ErrClass::Rank, func,
         "remote_leader " + std::to_string(remote_leader) + " (COMM_WORLD rank " + std::to_string(world) +
             ") is a member of local_comm; the two groups must be disjoint");
}

// The leaders swap their groups and a proposal over the peer's internal lane
// (tag TAG_UB + 1 + tag); the leader's news for its group is the remote
// group, the smaller proposal and whether the groups overlap.
Bytes leader_exchange(Comm& local, Comm& peer, int remote_leader, int tag, const char* func) {
  uint64_t proposal = local.engine().propose_context();
  Bytes mine = coll::pack({pack_members(local.local_group()), pack_ints({int64_t(proposal)})});
  const int wire_tag = TAG_UB + 1 + tag;
  peer.lane_send(Lane::Internal, remote_leader, wire_tag, Body(mine));
  Waiting what = peer.waiting(func, "remote_leader", remote_leader);
  what.has_tag = true;
  what.tag = tag;
  auto r = coll::unpack(to_bytes(peer.lane_recv(Lane::Internal, remote_leader, wire_tag, what)));
  if (r.size() != 2) fail(ErrClass::Intern, func, "malformed leader data from a peer");
  group::Members remote = unpack_members(r[0], func);
  bool overlap = !group::intersection(local.local_group(), remote).empty();
  uint64_t base = std::min(proposal, uint64_t(unpack_ints(r[1], func).at(0)));
  return coll::pack({r[0], pack_ints({int64_t(base), overlap})});
}
}  // namespace

// The local leader checks its own arguments (raising before it sends
// anything, so a call made by the leader alone leaves no stray message),
// talks to the remote leader and broadcasts the news to its group.
CommPtr intercomm_create(Comm& local, int local_leader, Comm* peer, int remote_leader, int tag) {
  const char* func = "MPI_Intercomm_create";
  local.check_usable(func);
  check_local_args(local, local_leader, tag, func);
  Bytes news;
  if (local.rank() == local_leader) {
    check_leader_args(local, peer, remote_leader, func);
    news = leader_exchange(local, *peer, remote_leader, tag, func);
  }
  Team t = whole(local, kInterLocal, func);
  auto n = coll::unpack(team_bcast(t, news, local_leader));
  if (n.size() != 2) fail(ErrClass::Intern, func, "malformed leader data from a peer");
  auto v = unpack_ints(n[1], func);
  if (v.size() != 2) fail(ErrClass::Intern, func, "malformed leader data from a peer");
  if (v[1])
    fail(ErrClass::Comm, func, "the local and remote groups overlap; an intercommunicator needs disjoint groups");
  return make_inter(local, uint64_t(v[0]), local.local_group(), unpack_members(n[0], func));
}

CommPtr intercomm_merge(Comm& inter, bool high) {
  const char* func = "MPI_Intercomm_merge";
  inter.check_usable(func);
  if (!inter.is_inter())
    fail(ErrClass::Comm, func, "intercomm must be an intercommunicator, got an intracommunicator");
  // Leaders swap (high, proposal); each side hears its leader's flag too, so
  // a process whose flag differs from its leader's can say so.
  Bytes mine = pack_ints({high, int64_t(inter.rank() == 0 ? inter.engine().propose_context() : 0)});
  Exchanged x = exchange_across(inter, mine, kMerge, func);
  auto own = unpack_ints(x.own, func);
  auto other = unpack_ints(x.theirs, func);
  if (own.size() != 2 || other.size() != 2) fail(ErrClass::Intern, func, "malformed merge data from a peer");
  if (bool(own[0]) != high)
    fail(ErrClass::Arg, func,
         std::string("high = ") + (high ? "true" : "false") + " differs from the value of this group's rank 0");
  bool local_first = own[0] != other[0] ? !own[0] : is_left(inter);
  group::Members all = local_first ? inter.local_group() : inter.remote_group();
  const group::Members& second = local_first ? inter.remote_group() : inter.local_group();
  all.insert(all.end(), second.begin(), second.end());
  return make_intra(inter, std::min(uint64_t(own[1]), uint64_t(other[1])), std::move(all));
}

}  // namespace lumpi::core
