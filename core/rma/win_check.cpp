// core/rma/win_check.cpp: --check's conflict detection for windows; the
// rules are stated in core/rma/win_check.hpp.
#include "core/rma/win_check.hpp"

#include <algorithm>
#include <cstring>

namespace lumpi::core::rma {

namespace {

constexpr std::int64_t kMaxCopy = std::int64_t(16) << 20;  // origin bytes kept per operation
// Accesses recorded per epoch (per origin in passive target), buffers kept
// per origin: beyond, an epoch is not checked further (each check is linear).
constexpr std::size_t kMaxRecords = 4096;

const char* call_of(int tag) {
  const char* call = op_call(tag);
  return call ? call : "an RMA operation";
}

bool overlap(const Span& a, const Span& b) { return a.lo < b.hi && b.lo < a.hi; }

// The first byte range two span lists share; false if none.
bool common(const std::vector<Span>& a, const std::vector<Span>& b, Span* out) {
  for (const Span& x : a)
    for (const Span& y : b)
      if (overlap(x, y)) {
        *out = {std::max(x.lo, y.lo), std::min(x.hi, y.hi)};
        return true;
      }
  return false;
}

std::string range_text(const Span& s) { return "bytes [" + std::to_string(s.lo) + ", " + std::to_string(s.hi) + ")"; }

// Who made an access: "MPI_Put from rank 2", or "the result buffer of
// MPI_Get at rank 1" for this rank's own buffer in its window.
template <class Access>
std::string who(const Access& a) {
  if (!a.local) return std::string(call_of(a.tag)) + " from rank " + std::to_string(a.origin);
  return std::string(a.tag == kPut ? "the result buffer of " : "the origin buffer of ") + a.local + " at rank " +
         std::to_string(a.origin);
}

const char* epoch_text(EpochKind k) {
  return k == EpochKind::Fence ? "one fence epoch" : k == EpochKind::Exposure ? "one exposure epoch" : "concurrent lock epochs";
}

}  // namespace

bool shape_spans(const Shape& s, std::vector<Span>* out, std::size_t cap) {
  out->clear();
  for (std::int64_t i = 0; i < s.count; ++i)
    for (const Run& r : s.runs) {
      std::int64_t lo = s.disp + i * s.extent + r.offset, hi = lo + r.count * std::int64_t(basic_info(r.basic).size);
      if (lo == hi) continue;
      if (!out->empty() && out->back().hi == lo) out->back().hi = hi;
      else out->push_back({lo, hi});
      if (out->size() > cap) return false;
    }
  return true;
}

int stamp_tag(int tag, EpochKind kind, std::uint32_t fences) {
  return tag | int(kind) << 8 | int(fences & 0xfffff) << 10;
}

Stamp unstamp(int tag) {
  return {tag & 0xff, EpochKind((tag >> 8) & 3), std::uint32_t(tag) >> 10};
}

// ---- the target's record ------------------------------------------------------------

Conflicts::Conflicts(Engine& e, char* base, std::int64_t size, std::string window, std::shared_ptr<bool> said)
    : engine_(e), base_(base), size_(size), window_(std::move(window)), said_(std::move(said)) {
  resync();
}

// A fence-stamped access from an origin that has already passed the next
// fence belongs to an epoch this rank has not opened: not checked.
bool Conflicts::admit(const Stamp& st) const {
  if (st.kind == EpochKind::Fence) return fence_open_ && st.fences == fences_;
  if (st.kind == EpochKind::Exposure) return exposure_open_;
  return st.kind == EpochKind::Passive;
}

bool Conflicts::stored(const Span& s) const {
  if (s.lo < 0 || s.hi > size_) return false;
  return std::memcmp(base_ + s.lo, shadow_.data() + s.lo, size_t(s.hi - s.lo)) != 0;
}

// True (and reported) if an access among others overlaps a and one of
// them writes, whichever origins made them.
Conflicts::Refs Conflicts::refs(const std::vector<Access>& v) {
  Refs out;
  out.reserve(v.size());
  for (const Access& a : v) out.push_back(&a);
  return out;
}

bool Conflicts::overlaps_other(const Access& a, const Refs& others, EpochKind kind) {
  auto compatible = [&](const Access& b) {
    if ((a.local || b.local) && (a.origin == b.origin)) return true;  // this rank's own: OriginBuffers' rule
    bool reads = (a.tag == kGet) && (b.tag == kGet);
    bool accs = a.tag != kPut && a.tag != kGet && b.tag != kPut && b.tag != kGet && a.basic == b.basic &&
                (a.op == b.op || a.op == int(Op::NoOp) || b.op == int(Op::NoOp));
    return reads || accs;
  };
  for (const Access* p : others) {
    const Access& b = *p;
    Span at;
    if (compatible(b) || !common(a.spans, b.spans, &at)) continue;
    report(who(b) + " and " + who(a) + " access " + range_text(at) + " of " + window_ + " in " + epoch_text(kind) +
           ", and at least one of them writes");
    return true;
  }
  return false;
}

// Passive target: the open accesses of every origin and this rank's open
// buffers, and the completed ones a did not happen after (its clock is
// not above their completion's).
Conflicts::Refs Conflicts::concurrent(const Access& a) const {
  Refs out;
  for (const auto* lists : {&open_, &mine_})
    for (const auto& [o, list] : *lists)
      for (const Access& b : list) out.push_back(&b);
  for (const Access& b : closed_)
    if (b.origin != a.origin && a.clock <= b.until) out.push_back(&b);
  return out;
}

// An overlapping access of the same epoch, or a local store
// to the bytes since the epoch's shadow was taken.
void Conflicts::check(const Access& a, EpochKind kind) {
  const Refs others = kind == EpochKind::Passive ? concurrent(a) : refs(epoch_);
  if (overlaps_other(a, others, kind)) return;
  // Local stores: in a fence or exposure epoch, or inside this rank's own
  // lock epoch, since the shadow was taken, or made by an access whose
  // origin had seen no more than the shadow's clock (nothing after the
  // store ordered it); otherwise where an open access of another epoch
  // overlaps (the rest was this rank's to change).
  bool whole = kind != EpochKind::Passive || self_open_ || (a.origin != engine_.world_rank() && a.clock <= shadow_clock_);
  for (const Span& s : a.spans) {
    Span at = s;
    if (!whole) {
      bool shared = false;
      for (const Access* b : others) shared = shared || (!b->local && b->until == 0 && common({s}, b->spans, &at));
      if (!shared) continue;
    }
    if (stored(at))
      return report("a local store at this rank changed " + range_text(at) + " of " + window_ + " while " +
                    call_of(a.tag) + " from rank " + std::to_string(a.origin) + " accesses it in " + epoch_text(kind));
  }
  if (!whole)
    for (const Span& s : a.spans)
      if (s.lo >= 0 && s.hi <= size_) std::memcpy(shadow_.data() + s.lo, base_ + s.lo, size_t(s.hi - s.lo));
}

void Conflicts::record(Access a, EpochKind kind) {
  std::vector<Access>& list = kind == EpochKind::Passive ? open_[a.origin] : epoch_;
  if (list.size() < kMaxRecords) list.push_back(std::move(a));
}

void Conflicts::update_shadow(const Shape& s) {
  std::vector<Span> spans;
  if (!shape_spans(s, &spans, SIZE_MAX)) return;
  for (const Span& x : spans)
    if (x.lo >= 0 && x.hi <= size_) std::memcpy(shadow_.data() + x.lo, base_ + x.lo, size_t(x.hi - x.lo));
}

// The accesses of an epoch that ends: bytes they touched that differ from
// the shadow were stored into by this rank during the epoch.
void Conflicts::compare(const std::vector<Access>& done, const char* when) {
  for (const Access& a : done)
    for (const Span& s : a.spans)
      if (!a.local && stored(s))
        return report("a local store at this rank changed " + range_text(s) + " of " + window_ + ", which " +
                      call_of(a.tag) + " from rank " + std::to_string(a.origin) + " accesses, before " + when);
}

void Conflicts::fence(bool opens) {
  if (fence_open_) compare(epoch_, "the fence that ends its epoch");
  epoch_.clear();
  ++fences_;
  fence_open_ = opens;
  resync();
  std::vector<Access> early = std::move(next_);
  next_.clear();
  for (Access& a : early)
    if (opens && !overlaps_other(a, refs(epoch_), EpochKind::Fence)) epoch_.push_back(std::move(a));
}

void Conflicts::exposure(bool opens) {
  if (!opens) compare(epoch_, "MPI_Win_wait ended its exposure epoch");
  epoch_.clear();
  exposure_open_ = opens;
  resync();
}

void Conflicts::closed(int origin, std::uint64_t clock) {
  auto it = open_.find(origin);
  if (it == open_.end()) return;
  compare(it->second, "its origin completed it (flush or unlock)");
  keep(std::move(it->second), clock);
  open_.erase(it);
}

// Completed passive accesses, the newest kMaxRecords of them.
void Conflicts::keep(std::vector<Access> done, std::uint64_t clock) {
  for (Access& a : done) {
    a.until = clock;
    closed_.push_back(std::move(a));
  }
  while (closed_.size() > kMaxRecords) closed_.pop_front();
}

void Conflicts::local(const void* buf, std::int64_t count, const Datatype& type, bool written, int target,
                      EpochKind kind, const char* func) {
  if (!buf || count <= 0 || (kind == EpochKind::Fence && !fence_open_) || kind == EpochKind::Exposure) return;
  std::vector<Span> spans;
  if (!shape_spans(shape_of(0, count, type), &spans)) return;
  const std::int64_t at = std::int64_t(reinterpret_cast<std::uintptr_t>(buf)) -
                          std::int64_t(reinterpret_cast<std::uintptr_t>(base_));
  Access a{engine_.world_rank(), written ? kPut : kGet, -1, -1, {}, engine_.seen_clock(), 0, func};
  for (const Span& s : spans)
    if (at + s.lo < size_ && at + s.hi > 0) a.spans.push_back({std::max<std::int64_t>(at + s.lo, 0), std::min(at + s.hi, size_)});
  if (a.spans.empty()) return;
  if (kind == EpochKind::Fence) {
    overlaps_other(a, refs(epoch_), kind);
    if (epoch_.size() < kMaxRecords) epoch_.push_back(std::move(a));
    return;
  }
  overlaps_other(a, concurrent(a), kind);
  std::vector<Access>& list = mine_[target];
  if (list.size() < kMaxRecords) list.push_back(std::move(a));
}

void Conflicts::local_done(int target) {
  for (auto it = mine_.begin(); it != mine_.end();) {
    if (target >= 0 && it->first != target) {
      ++it;
      continue;
    }
    keep(std::move(it->second), engine_.clock());
    it = mine_.erase(it);
  }
}

void Conflicts::self_epoch(bool opens) {
  if (!opens && self_open_) stores_since_shadow();
  if (opens && !self_open_) resync();
  self_open_ = opens;
}

// A store this rank made into bytes that a completed access of another
// origin touched, when neither was ordered after the other. The shadow
// holds the bytes as that access left them (update_shadow), so the store
// came after it was served; and this rank has seen no more than the
// access's completion, so nothing ordered the store after it.
void Conflicts::stores_since_shadow() {
  const std::uint64_t seen = engine_.seen_clock();
  for (const Access& b : closed_) {
    if (b.local || b.origin == engine_.world_rank() || seen > b.until) continue;
    for (const Span& s : b.spans)
      if (stored(s))
        return report("a local store at this rank changed " + range_text(s) + " of " + window_ + ", which " +
                      call_of(b.tag) + " from rank " + std::to_string(b.origin) + " accessed in a concurrent lock epoch");
  }
}

void Conflicts::sync() {
  stores_since_shadow();
  resync();
}

void Conflicts::report(const std::string& what) {
  if (*said_) return;
  *said_ = true;
  engine_.report_check("rma-conflict", "conflicting accesses: " + what +
                                           " (MPI-3.1 §11.7: conflicting accesses to one window location in one "
                                           "epoch are erroneous; accumulates with the same op and basic type excepted)");
}

// ---- the origin's buffers -------------------------------------------------------------

namespace {
// Every window's, for Win::pending_buffer_use; never destroyed, as a
// window a static table still holds may be destroyed after it at exit.
std::vector<OriginBuffers*>& live() {
  static auto* v = new std::vector<OriginBuffers*>;
  return *v;
}

// Spans relative to base, as addresses.
std::vector<Span> absolute(const char* base, std::vector<Span> s) {
  const auto at = std::int64_t(reinterpret_cast<std::uintptr_t>(base));
  for (Span& x : s) x.lo += at, x.hi += at;
  return s;
}
}  // namespace

std::string pending_use(std::uintptr_t lo, std::uintptr_t hi, bool written) {
  for (OriginBuffers* b : live())
    if (std::string why = b->used(lo, hi, written); !why.empty()) return why;
  return {};
}

OriginBuffers::OriginBuffers(Engine& e, std::string window, std::shared_ptr<bool> said)
    : engine_(e), window_(std::move(window)), said_(std::move(said)) {
  live().push_back(this);
}

OriginBuffers::~OriginBuffers() { live().erase(std::find(live().begin(), live().end(), this)); }

// The pending buffer that bytes at `spans` (addresses) may not share: a
// get's result buffer, or (written: the bytes are written) any.
const OriginBuffers::Buffer* OriginBuffers::clash(const std::vector<Span>& spans, bool written) const {
  for (const Buffer& p : pending_) {
    Span at;
    if ((p.written || written) && common(spans, absolute(p.at, p.spans), &at)) return &p;
  }
  return nullptr;
}

std::string OriginBuffers::used(std::uintptr_t lo, std::uintptr_t hi, bool written) {
  const Buffer* b = *said_ ? nullptr : clash({{std::int64_t(lo), std::int64_t(hi)}}, written);
  if (!b) return {};
  *said_ = true;
  return std::string("the ") + (b->written ? "result" : "origin") + " buffer of " + b->func + " (target rank " +
         std::to_string(b->target) + ", " + window_ + "), which " +
         (b->written ? "the data it fetches may still overwrite" : "must not change") +
         " until the synchronization that completes it (MPI-3.1 §11.7)";
}

void OriginBuffers::issued(const void* buf, std::int64_t count, const Datatype& type, int target, bool written,
                           const char* func, std::uint64_t seq) {
  std::vector<Span> spans;
  if (!buf || count <= 0 || pending_.size() >= kMaxRecords) return;
  if (!shape_spans(shape_of(0, count, type), &spans) || spans.empty()) return;
  const char* at = static_cast<const char*>(buf);
  if (const Buffer* p = clash(absolute(at, spans), written))  // a get's buffer read or written again
    return report(std::string(func) + "'s origin buffer overlaps the " + (p->written ? "result" : "origin") +
                  " buffer of an earlier " + p->func + " of the same epoch, which " +
                  (p->written ? "the data it fetches may still overwrite" : "must not change until it completes"));
  std::string copy;
  for (const Span& s : spans) {
    if (std::int64_t(copy.size()) + s.hi - s.lo > kMaxCopy) return;
    copy.append(at + s.lo, size_t(s.hi - s.lo));
  }
  pending_.push_back({at, std::move(spans), std::move(copy), target, written, func, seq});
}

bool OriginBuffers::changed(const Buffer& b) const {
  size_t pos = 0;
  for (const Span& s : b.spans) {
    if (std::memcmp(b.at + s.lo, b.copy.data() + pos, size_t(s.hi - s.lo)) != 0) return true;
    pos += size_t(s.hi - s.lo);
  }
  return false;
}

void OriginBuffers::check_changed(const Buffer& b, const char* when) {
  if (!changed(b)) return;
  report(std::string("the ") + (b.written ? "result" : "origin") + " buffer of " + b.func + " (target rank " +
         std::to_string(b.target) + ") was changed by the program " + when);
}

void OriginBuffers::answered(std::uint64_t seq) {
  for (Buffer& b : pending_)
    if (b.seq == seq && b.written) {
      check_changed(b, "before the data it fetches arrived");
      b.seq = 0;
      return;
    }
}

void OriginBuffers::completed(int target) {
  auto done = [&](const Buffer& b) { return b.target == target; };
  for (const Buffer& b : pending_)
    if (done(b) && !b.written) check_changed(b, "before the epoch completed it");
  pending_.erase(std::remove_if(pending_.begin(), pending_.end(), done), pending_.end());
}

void OriginBuffers::completed_all() {
  for (const Buffer& b : pending_)
    if (!b.written) check_changed(b, "before the epoch completed it");
  pending_.clear();
}

void OriginBuffers::report(const std::string& what) {
  if (*said_) return;
  *said_ = true;
  engine_.report_check("rma-conflict", what + " in " + window_ +
                                           " (MPI-3.1 §11.7: an operation's origin buffer belongs to it until the "
                                           "synchronization that completes it)");
}

}  // namespace lumpi::core::rma
