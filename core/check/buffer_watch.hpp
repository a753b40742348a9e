// core/check/buffer_watch.hpp: local concurrency under --check (issue 25
// item 7; docs/checking.md), the rule every door's watch runs.
//
// The rule (MPI-3.1 §3.7.2, §5.12): between the start of a nonblocking
// operation and its completion, the program does not modify its send
// buffer, nor read or write its receive buffer. The watch sums each buffer
// a nonblocking call reads (its send side) when it starts and again when
// the program completes it (wait, test or request free); a receive buffer
// of a nonblocking collective is summed when it starts and compared just
// before the result is written into it, then summed again and compared at
// completion; that of a point-to-point receive (a buffer the message lands
// in directly) is compared before each call that may complete it, and
// summed again once it has. A difference is a write by the program during
// the operation: a report ("local-concurrency", the program runs on). A
// buffer an MPI call reads or writes is also compared with the pending
// operations' when the call notes it: sharing a byte with a pending
// receive buffer, or writing into a pending send buffer, is a report at
// once (two pending sends may share a buffer, §3.7.2), and so is one
// shared with a one-sided operation not yet completed (a get's result, or
// a put's origin the call writes; core::Win::pending_buffer_use). A read
// of a receive buffer by the program itself leaves no trace and is not
// found.
//
// A door keeps one BufferWatch over its own request handles (Key: the C
// door's MPI_Request, the C++ API's request serial) and tells it what its
// calls do: the buffers the current call reads and writes (note), the
// request the call made (watch), and each completion. A door that is not
// checking leaves `on` false, and every member returns at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/datatype/datatype.hpp"
#include "core/datatype/typed_buffer.hpp"

namespace lumpi::core::check {

class BufferWatch {
 public:
  using Key = std::int64_t;
  // describe(r): the call that made request r, as a report names it ("" if
  // unknown); report(text): the finding, as the door reports it.
  BufferWatch(std::function<std::string(Key)> describe, std::function<void(const std::string&)> report)
      : describe_(std::move(describe)), report_(std::move(report)) {}

  bool on = false;  // --check, for this door

  // The current call (core::t_call_serial) reads (receive = false) or
  // writes bytes at buf; compared at once with the pending operations'.
  void note(const void* buf, std::size_t bytes, bool receive);
  // count elements of t at buf: their bytes where t is dense, else block
  // by block (the holes are the program's), at most 256 blocks in all;
  // beyond, none.
  void note(const void* buf, std::int64_t count, const Datatype& t, bool receive);
  void note(const TypedBuffer& b, bool receive) { note(b.buffer(), b.count(), *b.type(), receive); }
  // The current call made request r: it watches the buffers noted. A buffer
  // both read and written by the call (MPI_IN_PLACE, a send block inside
  // the receive buffer) is watched as a receive buffer only.
  void watch(Key r);
  // A persistent request's buffers are watched only while it is active:
  // rest(r) when it is made, wake(r) at each start.
  void rest(Key r);
  void wake(Key r);
  // r completed (or was freed): its buffers are compared, and no longer watched.
  void completed(Key r);
  // Before (after = false) and after a collective's result is written into
  // buf: the buffer may change only then. A buffer no watch knows is a
  // blocking collective's, compared with the pending operations' as it lands.
  void landing(const void* buf, std::size_t bytes, bool after);
  // A point-to-point receive's message lands inside the call that completes
  // it: unlanded(r) before each such call tries, landed(r) after it completed.
  void unlanded(Key r);
  void landed(Key r);
  // r went away without completing (its last handle dropped): its buffers
  // are no longer watched, and not compared (their memory may be gone).
  void forget(Key r);

 private:
  struct Watch {
    const void* buf;
    std::size_t bytes;
    std::uint64_t sum;
    bool receive;
    std::uint64_t serial = 0;  // the call that noted it, until a request takes it
    bool shared = false;       // reported as used by another call while pending (its one report)
  };
  std::string pending_call(Key r) const;
  void report_change(const Watch& w, Key r, const char* when);
  void check_shared(const Watch& now);

  std::function<std::string(Key)> describe_;
  std::function<void(const std::string&)> report_;
  std::vector<Watch> noted_;               // the current call's (not yet a request's)
  std::map<Key, std::vector<Watch>> watched_;  // each pending request's
  std::map<Key, std::vector<Watch>> dormant_;  // inactive persistent requests'
};

}  // namespace lumpi::core::check
