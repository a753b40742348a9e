// core/check/buffer_watch.cpp: local concurrency under --check; the rule
// and how it is watched are stated in buffer_watch.hpp.
#include "core/check/buffer_watch.hpp"

#include <cstring>

#include "core/base/crash_report.hpp"
#include "core/rma/win.hpp"

namespace lumpi::core::check {

namespace {

// FNV-1a's step over 8-byte words in four independent lanes (the
// multiplications overlap: about 20 times faster than byte by byte, which
// made --check cost 3-4x on a 1 MiB ping-pong), then the tail by bytes.
// Each step is a bijection of the lane's state, so any one changed word
// changes the sum.
std::uint64_t checksum(const void* buf, std::size_t bytes) {
  constexpr std::uint64_t kBasis = 1469598103934665603ull, kPrime = 1099511628211ull;
  const auto* p = static_cast<const unsigned char*>(buf);
  std::uint64_t lane[4] = {kBasis, kBasis + 1, kBasis + 2, kBasis + 3};
  std::size_t i = 0;
  for (; i + 32 <= bytes; i += 32)
    for (int k = 0; k < 4; ++k) {
      std::uint64_t w;
      std::memcpy(&w, p + i + 8 * std::size_t(k), 8);
      lane[k] = (lane[k] ^ w) * kPrime;
    }
  std::uint64_t h = bytes;
  for (std::uint64_t l : lane) h = (h ^ l) * kPrime;
  for (; i < bytes; ++i) h = (h ^ p[i]) * kPrime;
  return h;
}

template <class W>
bool overlap(const W& a, const W& b) {
  auto lo = [](const W& w) { return reinterpret_cast<std::uintptr_t>(w.buf); };
  return lo(a) < lo(b) + b.bytes && lo(b) < lo(a) + a.bytes;
}

template <class W>
const char* role(const W& w) {
  return w.receive ? "receive buffer" : "send buffer";
}

const char* current_call() { return t_current_call ? t_current_call : "another call"; }

}  // namespace

// Key 0 is no request: a buffer still the current call's.
std::string BufferWatch::pending_call(Key r) const {
  std::string made_by = r ? describe_(r) : "";
  if (!made_by.empty()) return made_by;
  return t_current_call ? t_current_call : "a nonblocking call";  // still in its call
}

void BufferWatch::report_change(const Watch& w, Key r, const char* when) {
  report_(std::string("the ") + role(w) + " of " + pending_call(r) + " was written by the program " + when +
          " (MPI-3.1 §3.7.2, §5.12: a buffer of a pending nonblocking operation is not modified until the "
          "operation completes)");
}

// The current call's buffer now against every pending operation's: a
// receive buffer is not used by another call, a send buffer not written.
void BufferWatch::check_shared(const Watch& now) {
  for (auto& [r, ws] : watched_)
    for (Watch& w : ws) {
      if (w.shared || (!w.receive && !now.receive) || !overlap(w, now)) continue;
      w.shared = true;
      report_(std::string("the ") + role(w) + " of " + pending_call(r) + " is also the " + role(now) + " of " +
              current_call() +
              ", before the first completes (MPI-3.1 §3.7.2, §5.12: a pending operation's receive buffer is "
              "not used, its send buffer not written, until it completes)");
    }
}

void BufferWatch::note(const void* buf, std::size_t bytes, bool receive) {
  if (!on || !buf || bytes == 0) return;
  if (!noted_.empty() && noted_.front().serial != t_call_serial) noted_.clear();
  noted_.push_back({buf, bytes, checksum(buf, bytes), receive, t_call_serial});
  check_shared(noted_.back());
  if (std::string why = Win::pending_buffer_use(buf, bytes, receive); !why.empty())
    report_(std::string("the ") + role(noted_.back()) + " of " + current_call() + " is " + why);
}

void BufferWatch::note(const void* buf, std::int64_t count, const Datatype& t, bool receive) {
  constexpr std::size_t kMaxBlocks = 256;
  if (!on || !buf || count <= 0) return;
  if (dense(t)) return note(buf, std::size_t(count * t.size()), receive);
  const std::vector<Block>& blocks = t.blocks();
  if (blocks.empty() || blocks.size() * std::size_t(count) > kMaxBlocks) return;
  const auto base = reinterpret_cast<std::uintptr_t>(buf);
  for (std::int64_t i = 0; i < count; ++i)
    for (const Block& b : blocks)
      if (b.length > 0)
        note(reinterpret_cast<const void*>(base + std::uintptr_t(i * t.extent() + b.offset)),
             std::size_t(b.length), receive);
}

void BufferWatch::watch(Key r) {
  if (!on) return;
  if (noted_.empty() || noted_.front().serial != t_call_serial) return noted_.clear();
  std::vector<Watch> kept;
  for (const Watch& w : noted_) {
    bool inside_written = false;
    for (const Watch& x : noted_)
      if (!w.receive && x.receive && overlap(w, x)) inside_written = true;
    if (!inside_written) kept.push_back(w);
  }
  watched_[r] = std::move(kept);
  noted_.clear();
}

void BufferWatch::rest(Key r) {
  if (!on) return;
  auto it = watched_.find(r);
  if (it == watched_.end()) return (void)dormant_.erase(r);
  dormant_[r] = std::move(it->second);
  watched_.erase(it);
}

void BufferWatch::wake(Key r) {
  if (!on) return;
  auto it = dormant_.find(r);
  if (it == dormant_.end()) return;
  std::vector<Watch> ws = it->second;
  for (Watch& w : ws) {
    w.sum = checksum(w.buf, w.bytes);
    check_shared(w);
  }
  watched_[r] = std::move(ws);
}

// A collective may land its result while it starts (nothing to wait for):
// its buffers are then still the call's, not yet the request's.
void BufferWatch::landing(const void* buf, std::size_t bytes, bool after) {
  if (!on) return;
  bool known = false;
  auto land = [&](Watch& w, Key r) {
    if (!w.receive || w.buf != buf || w.bytes != bytes) return;
    known = true;
    if (!after && !w.shared && checksum(buf, bytes) != w.sum) report_change(w, r, "before its result arrived");
    if (after) w.sum = checksum(buf, bytes);
  };
  for (auto& [r, ws] : watched_)
    for (Watch& w : ws) land(w, r);
  for (Watch& w : noted_)
    if (w.serial == t_call_serial) land(w, 0);
  if (!known && !after && buf && bytes > 0) check_shared(Watch{buf, bytes, 0, true});
}

void BufferWatch::unlanded(Key r) {
  if (!on) return;
  auto it = watched_.find(r);
  if (it == watched_.end()) return;
  for (Watch& w : it->second) {
    if (!w.receive || w.shared || checksum(w.buf, w.bytes) == w.sum) continue;
    report_change(w, r, "before its message arrived");
    w.sum = checksum(w.buf, w.bytes);  // reported once
  }
}

void BufferWatch::landed(Key r) {
  if (!on) return;
  auto it = watched_.find(r);
  if (it == watched_.end()) return;
  for (Watch& w : it->second)
    if (w.receive) w.sum = checksum(w.buf, w.bytes);
}

void BufferWatch::completed(Key r) {
  if (!on) return;
  auto it = watched_.find(r);
  if (it == watched_.end()) return;
  for (const Watch& w : it->second)
    if (!w.shared && checksum(w.buf, w.bytes) != w.sum) report_change(w, r, "before the operation completed");
  watched_.erase(it);
}

void BufferWatch::forget(Key r) {
  watched_.erase(r);
  dormant_.erase(r);
}

}  // namespace lumpi::core::check
