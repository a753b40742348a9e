// capi/c_check_buffer.cpp: local concurrency (issue 25 item 7;
// docs/checking.md), under --check only.
//
// The rule (MPI-3.1 §3.7.2, §5.12): between the start of a nonblocking
// operation and its completion, the program does not modify its send
// buffer, nor read or write its receive buffer. The checker sums each
// buffer a nonblocking call reads (its send side) when it starts and again
// when the program completes it (MPI_Wait, MPI_Test ... or
// MPI_Request_free); a receive buffer of a nonblocking collective is
// summed when it starts and compared just before the result is written
// into it, then summed again and compared at completion; that of MPI_Irecv
// (a buffer the message lands in directly) is compared before each call
// that may complete it, and summed again once it has. A difference is
// a write by the program during the operation: a report
// ("local-concurrency", the program runs on). A buffer an MPI call reads or
// writes is also compared with the pending operations' when the call notes
// it: sharing a byte with a pending receive buffer, or writing into a
// pending send buffer, is a report at once (two pending sends may share a
// buffer, §3.7.2). A read of a receive buffer by the program itself
// leaves no trace and is not found. So is a buffer shared with a one-sided
// operation not yet completed (a get's result, or a put's origin the call
// writes; core::Win::pending_buffer_use).
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "capi/c_api.hpp"

namespace lumpi::capi {

using core::t_call_serial;

namespace {

// FNV-1a's step over 8-byte words in four independent lanes (the
// multiplications overlap: about 20 times faster than byte by byte, which
// made --check cost 3-4x on a 1 MiB ping-pong), then the tail by bytes.
// Each step is a bijection of the lane's state, so any one changed word
// changes the sum.
uint64_t checksum(const void* buf, size_t bytes) {
  constexpr uint64_t kBasis = 1469598103934665603ull, kPrime = 1099511628211ull;
  const auto* p = static_cast<const unsigned char*>(buf);
  uint64_t lane[4] = {kBasis, kBasis + 1, kBasis + 2, kBasis + 3};
  size_t i = 0;
  for (; i + 32 <= bytes; i += 32)
    for (int k = 0; k < 4; ++k) {
      uint64_t w;
      std::memcpy(&w, p + i + 8 * size_t(k), 8);
      lane[k] = (lane[k] ^ w) * kPrime;
    }
  uint64_t h = bytes;
  for (uint64_t l : lane) h = (h ^ l) * kPrime;
  for (; i < bytes; ++i) h = (h ^ p[i]) * kPrime;
  return h;
}

struct Watch {
  const void* buf;
  size_t bytes;
  uint64_t sum;
  bool receive;
  uint64_t serial = 0;  // the call that noted it, until a request takes it
  bool shared = false;  // reported as used by another call while pending (its one report)
};

// The current call's buffers (not yet a request's), and each request's.
std::vector<Watch>& noted() {
  static std::vector<Watch> v;
  return v;
}
std::map<MPI_Request, std::vector<Watch>>& watched() {
  static std::map<MPI_Request, std::vector<Watch>> m;
  return m;
}
// A persistent request's buffers while it is inactive: the program may use
// them; each MPI_Start watches them from then (wake_buffers).
std::map<MPI_Request, std::vector<Watch>>& dormant() {
  static std::map<MPI_Request, std::vector<Watch>> m;
  return m;
}

bool overlap(const Watch& a, const Watch& b) {
  auto lo = [](const Watch& w) { return reinterpret_cast<uintptr_t>(w.buf); };
  return lo(a) < lo(b) + b.bytes && lo(b) < lo(a) + a.bytes;
}

std::string pending_call(MPI_Request r) {
  const core::check::Origin* o = request_origin(r);
  return o ? core::check::describe(*o, core::check::source_line_of)
           : core::t_current_call ? core::t_current_call : "a nonblocking call";  // still in its call
}

const char* role(const Watch& w) { return w.receive ? "receive buffer" : "send buffer"; }

void report(const std::string& text) {
  core::check::report(*core_comm(MPI_COMM_WORLD, "MPI_Wait"), "local-concurrency", text);
}

void report_change(const Watch& w, MPI_Request r, const char* when) {
  report(std::string("the ") + role(w) + " of " + pending_call(r) + " was written by the program " + when +
         " (MPI-3.1 §3.7.2, §5.12: a buffer of a pending nonblocking operation is not modified until the "
         "operation completes)");
}

// The current call's buffer now against every pending operation's: a
// receive buffer is not used by another call, a send buffer not written.
void check_shared(const Watch& now) {
  for (auto& [r, ws] : watched())
    for (Watch& w : ws) {
      if (w.shared || (!w.receive && !now.receive) || !overlap(w, now)) continue;
      w.shared = true;
      const std::string call = core::t_current_call ? core::t_current_call : "another call";
      report(std::string("the ") + role(w) + " of " + pending_call(r) + " is also the " + role(now) + " of " +
             call +
             ", before the first completes (MPI-3.1 §3.7.2, §5.12: a pending operation's receive buffer is not "
             "used, its send buffer not written, until it completes)");
    }
}

void note(const void* buf, size_t bytes, bool receive) {
  if (!checking() || !buf || bytes == 0 || buf == MPI_IN_PLACE) return;
  auto& v = noted();
  if (!v.empty() && v.front().serial != t_call_serial) v.clear();
  v.push_back({buf, bytes, checksum(buf, bytes), receive, t_call_serial});
  check_shared(v.back());
  if (std::string why = core::Win::pending_buffer_use(buf, bytes, receive); !why.empty())
    report(std::string("the ") + role(v.back()) + " of " +
           (core::t_current_call ? core::t_current_call : "another call") + " is " + why);
}

}  // namespace

void note_read_buffer(const void* buf, size_t bytes) { note(buf, bytes, false); }
void note_written_buffer(const void* buf, size_t bytes) { note(buf, bytes, true); }

// A type with holes: each block of each element is a buffer of its own (the
// holes are the program's), up to kMaxBlocks of them; beyond, none.
void note_typed_buffer(const void* buf, std::int64_t count, const core::Datatype& t, bool receive) {
  constexpr size_t kMaxBlocks = 256;
  if (!checking() || !buf || buf == MPI_IN_PLACE || count <= 0) return;
  const std::vector<core::Block>& blocks = t.blocks();
  if (blocks.empty() || blocks.size() * size_t(count) > kMaxBlocks) return;
  const auto base = reinterpret_cast<std::uintptr_t>(buf);
  for (std::int64_t i = 0; i < count; ++i)
    for (const core::Block& b : blocks)
      if (b.length > 0)
        note(reinterpret_cast<const void*>(base + std::uintptr_t(i * t.extent() + b.offset)), size_t(b.length),
             receive);
}

// A buffer both read and written by one call (MPI_IN_PLACE, a send block
// inside the receive buffer) is watched as a receive buffer only.
void watch_buffers(MPI_Request r) {
  if (!checking()) return;
  auto& v = noted();
  if (v.empty() || v.front().serial != t_call_serial) return v.clear();
  std::vector<Watch> kept;
  for (const Watch& w : v) {
    bool inside_written = false;
    for (const Watch& x : v)
      if (!w.receive && x.receive && overlap(w, x)) inside_written = true;
    if (!inside_written) kept.push_back(w);
  }
  watched()[r] = std::move(kept);
  v.clear();
}

void rest_buffers(MPI_Request r) {
  if (!checking()) return;
  auto it = watched().find(r);
  if (it == watched().end()) return (void)dormant().erase(r);
  dormant()[r] = std::move(it->second);
  watched().erase(it);
}

void wake_buffers(MPI_Request r) {
  if (!checking()) return;
  auto it = dormant().find(r);
  if (it == dormant().end()) return;
  std::vector<Watch> ws = it->second;
  for (Watch& w : ws) {
    w.sum = checksum(w.buf, w.bytes);
    check_shared(w);
  }
  watched()[r] = std::move(ws);
}

// A collective may land its result while it starts (nothing to wait for):
// its buffers are then still the call's, not yet the request's.
// A block no watch knows is a blocking collective's: it is checked against
// the pending operations as it lands (check_shared).
void check_landing(const void* buf, size_t bytes, bool after) {
  if (!checking()) return;
  bool known = false;
  auto land = [&](Watch& w, MPI_Request r) {
    if (!w.receive || w.buf != buf || w.bytes != bytes) return;
    known = true;
    if (!after && !w.shared && checksum(buf, bytes) != w.sum) report_change(w, r, "before its result arrived");
    if (after) w.sum = checksum(buf, bytes);
  };
  for (auto& [r, ws] : watched())
    for (Watch& w : ws) land(w, r);
  for (Watch& w : noted())
    if (w.serial == t_call_serial) land(w, MPI_REQUEST_NULL);
  if (!known && !after && buf && bytes > 0) check_shared(Watch{buf, bytes, 0, true});
}

void check_unlanded(MPI_Request r) {
  if (!checking()) return;
  auto it = watched().find(r);
  if (it == watched().end()) return;
  for (Watch& w : it->second) {
    if (!w.receive || w.shared || checksum(w.buf, w.bytes) == w.sum) continue;
    report_change(w, r, "before its message arrived");
    w.sum = checksum(w.buf, w.bytes);  // reported once
  }
}

void landed(MPI_Request r) {
  if (!checking()) return;
  auto it = watched().find(r);
  if (it == watched().end()) return;
  for (Watch& w : it->second)
    if (w.receive) w.sum = checksum(w.buf, w.bytes);
}

void check_buffers(MPI_Request r) {
  if (!checking()) return;
  auto it = watched().find(r);
  if (it == watched().end()) return;
  for (const Watch& w : it->second)
    if (!w.shared && checksum(w.buf, w.bytes) != w.sum) report_change(w, r, "before the operation completed");
  watched().erase(it);
}

}  // namespace lumpi::capi
