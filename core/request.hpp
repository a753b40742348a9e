// core/request.hpp: nonblocking operations and their completion.
//
// A Request is a handle on one pending operation: a receive posted to the
// Matcher, a synchronous send waiting for its ack, or a generic operation
// that completes when a predicate holds (idup and friends). Standard sends
// are eager and complete at once. Waiting runs the Engine's loop, so it can
// be interrupted.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <zmq.hpp>

#include "core/engine.hpp"

namespace lumpi::core {

struct Status {
  int source = 0;  // rank in the communicator (remote group for an intercommunicator)
  int tag = 0;
  int error = 0;   // error class code, 0 for success
  size_t bytes = 0;
};

class Request {
 public:
  enum class Kind { Done, Recv, Ssend, Generic };

  ~Request();
  static std::shared_ptr<Request> done(Status st = {});
  static std::shared_ptr<Request> generic(Engine& e, std::function<bool()> test, Waiting what);

  Kind kind() const { return kind_; }
  // True when complete; never blocks (it runs progress once without waiting).
  // Throws Error(ProcFailed), as wait() would, when a rank it needs has died.
  bool test();
  // Blocks until complete.
  void wait();
  // Cancels a pending receive; true if it was still pending.
  bool cancel();
  bool cancelled() const { return cancelled_; }
  const Status& status() const { return status_; }
  // The received message body (receives only; empty otherwise).
  zmq::message_t& body() { return recv_.msg.body; }

  // Used by Comm to build requests.
  Kind kind_ = Kind::Done;
  Engine* engine_ = nullptr;
  PostedRecv recv_;
  std::function<int(int)> world_to_rank_;  // maps a message's source to a comm rank
  uint64_t ack_seq_ = 0;
  std::function<bool()> generic_;
  Waiting what_;
  Status status_;
  bool complete_ = false;
  bool cancelled_ = false;

 private:
  bool poll_complete();
};

}  // namespace lumpi::core
