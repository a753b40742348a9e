// core/engine/request.hpp: nonblocking operations and their completion.
//
// A Request is a handle on one pending operation: a receive posted to the
// Matcher, a send, or a generic operation that completes when a predicate
// holds (idup and friends). Standard sends are eager and complete at once;
// a synchronous send completes when its ack comes. A send can still be
// cancelled until it is waited for (MPI-3.1 §3.8.4): then it completes when
// its receiver answers, cancelled if no receive had matched the message. Requests are made only by their named
// constructors; waiting runs the Engine's loop, so it can be interrupted.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/datatype/typed_buffer.hpp"
#include "core/engine/engine.hpp"

namespace lumpi::core {

struct Status {
  int source = 0;  // rank in the communicator (remote group for an intercommunicator)
  int tag = 0;
  int error = 0;   // error class code, 0 for success
  size_t bytes = 0;
};

// MPI-3.1 §3.3.1 for one message under --check: "" where a receive of
// signature recv may take a message of signature sent (from rank `source`
// of communicator `comm`, with `tag`), else the report of the mismatch.
std::string p2p_mismatch(const WireSig& sent, const WireSig& recv, int source, int tag, const std::string& comm);

// A received body into the receive buffer b (MPI-3.1 §3.2.4): MPI_ERR_TRUNCATE
// naming func when it does not fit (the message is consumed all the same,
// as in MPI); a type with holes unpacks straight from the body, so its
// bytes land once. Returns the bytes that landed. Every door's receive,
// matched receive and request completion lands its message here.
size_t copy_out(const Body& body, TypedBuffer& b, std::string_view func);

class Request;
using RequestPtr = std::shared_ptr<Request>;

class Request {
 public:
  enum class Kind { Done, Recv, Send, Ssend, Generic };

  // Already complete, with status `st` (eager sends, PROC_NULL).
  static RequestPtr done(Status st = {});
  // A receive on `context` from `source_world` (or ANY_SOURCE) with `tag`,
  // posted at once; `rank_of` maps the sender's world rank to the rank the
  // status reports.
  static RequestPtr recv(Engine& e, uint64_t context, int source_world, int tag,
                         std::function<int(int)> rank_of, Waiting what);
  // A send already queued to world rank `dest` with sequence number `seq`:
  // an eager one is complete at once, a synchronous one once its receiver's
  // ack arrives.
  static RequestPtr send(Engine& e, int dest, uint64_t seq, Waiting what);
  static RequestPtr ssend(Engine& e, int dest, uint64_t seq, Waiting what);
  // Complete once test() holds; test may throw core::Error.
  static RequestPtr generic(Engine& e, std::function<bool()> test, Waiting what);
  ~Request();

  Kind kind() const { return kind_; }
  // True when complete, from what has already arrived (no progress is run;
  // for use inside another request's test). Throws as test() does.
  bool complete() { return poll_complete(); }
  // True when complete; never blocks (it runs progress once without waiting).
  // Throws Error(ProcFailed), as wait() would, when a rank it needs has died.
  bool test();
  // Blocks until complete.
  void wait();
  // Blocks until one of reqs (null entries are skipped) is complete or has
  // ended in an error (its own, or the death of a rank it needs): the
  // caller's next round of tests then completes it or raises its error.
  // Returns at once when every entry is null. Throws Error(Interrupted) as
  // wait() does; hang reports name `call`.
  static void wait_any(const std::vector<Request*>& reqs, const std::string& call);
  // MPI_Request_free of an active request (MPI-3.1 §3.7.3): the operation
  // still completes, unattended. The engine's background work steps it
  // (Engine::add_background: after each delivery round, whichever call runs
  // progress, also while the rank sits at a prompt) and keeps it alive until
  // it is over; then land runs once, with the request when it completed
  // (a receive's message to put in place), with null when it ended in an
  // error, which has no one to go to. True when it is still pending after
  // the first step, false when it was already over (land has run).
  static bool let_go(RequestPtr r, std::function<void(Request*)> land);
  // Cancels a pending receive (true if it was still pending), or asks a
  // send's receiver to withdraw its message: the send then completes with
  // the answer, cancelled() if withdrawn (true: the cancel was asked).
  bool cancel();
  bool cancelled() const { return cancelled_; }
  const Status& status() const { return status_; }
  // --check: a receive's own type signature, compared with its message's
  // when it completes (a mismatch is reported, MPI-3.1 §3.3.1).
  void expect_signature(WireSig sig) { recv_sig_ = std::move(sig); }
  // The received message body (receives only; empty otherwise).
  Body& body() { return recv_.msg.body; }
  // The MPI call that completes it, as errors and hang reports name it
  // (MPI_Wait, MPI_Testall ...).
  void set_call(std::string call) { what_.call = std::move(call); }
  const std::string& call() const { return what_.call; }
  // What a wait on it waits for (hang reports, the deadlock diagnosis).
  const Waiting& what() const { return what_; }

 private:
  Request(Kind kind, Engine* e, Waiting what) : kind_(kind), engine_(e), what_(std::move(what)) {}
  bool poll_complete();
  bool poll_send();
  void trace_recv();
  void check_signature();
  void trace_wait(TraceEvent::Kind k);

  Kind kind_;
  Engine* engine_;
  Waiting what_;
  PostedRecv recv_;
  std::function<int(int)> rank_of_;
  WireSig recv_sig_;  // a receive's, under --check
  uint64_t seq_ = 0;  // a send's
  int dest_ = 0;       // a send's receiver (world rank)
  bool cancelling_ = false;
  std::function<bool()> generic_;
  Status status_;
  bool complete_ = false;
  bool cancelled_ = false;
};

}  // namespace lumpi::core
