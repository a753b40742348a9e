// core/engine/match.hpp: envelope matching, MPI's message-ordering rules.
//
// Owns the two queues of a receiver: messages that arrived before anyone
// asked for them (unexpected, in arrival order) and receives that were posted
// before their message came (in posting order). A message matches a receive
// when context, source and tag agree, source and tag allowing wildcards.
// Taking the oldest match on both sides is what makes messages between one
// pair in one context non-overtaking. Pure bookkeeping: no sockets, no waits.
#pragma once

#include <cstdint>
#include <list>
#include <optional>
#include <vector>

#include "core/transport/body.hpp"
#include "core/transport/wire.hpp"

namespace lumpi::core {

struct Message {
  Envelope env;
  Body body;
};

// A receive waiting for its message. Owned by its Request; the Matcher only
// holds a pointer while it is posted.
struct PostedRecv {
  uint64_t context = 0;
  int source = 0;  // COMM_WORLD rank or ANY_SOURCE
  int tag = 0;     // or ANY_TAG
  bool done = false;
  bool abandoned = false;  // unposted by an interrupt; will never complete
  uint32_t epoch = 0;      // the command that posted it
  uint64_t clock = 0;      // the receiver's Lamport clock when it matched (Engine sets it)
  uint64_t wildcard = 0;   // a user receive from ANY_SOURCE: its number on this rank (1, 2, ...)
  Message msg;     // valid once done
};

bool matches(uint64_t context, int source, int tag, const Envelope& e);

// One entry of a snapshot of the queues (read-only, for :queue).
struct QueueItem {
  bool posted = false;  // a posted receive; else an unexpected message
  int source = 0;       // COMM_WORLD rank, or ANY_SOURCE for a posted receive
  int tag = 0;          // or ANY_TAG for a posted receive
  uint64_t context = 0; // matching context (base * 4 + lane)
  long long bytes = -1; // unexpected: the body's size
};

class Matcher {
 public:
  // A message arrived. It completes the oldest posted receive it matches
  // (which is returned and no longer posted) or is kept as unexpected
  // (nullptr is returned).
  PostedRecv* arrive(Message m);
  // Posts `r`. If an unexpected message matches, `r` completes at once with
  // the oldest such message and is not kept; returns r->done.
  bool post(PostedRecv* r);
  // Removes a posted receive; false if it was not posted.
  bool cancel(PostedRecv* r);
  // The oldest unexpected message that matches, without taking it.
  const Message* probe(uint64_t context, int source, int tag) const;
  // The same, taken out of the queue (matched probe, MPI-3.1 §3.8.2): no
  // receive or probe can match it any more.
  std::optional<Message> take(uint64_t context, int source, int tag);
  // Removes the unexpected message that world rank `source` sent with
  // sequence number `seq` (a cancelled send); false if no receive can match
  // it any more, or it never came.
  bool withdraw(int source, uint64_t seq);
  // Forgets unexpected messages sent during command `epoch`.
  void drop_epoch(uint32_t epoch);
  // Unposts the receives posted during command `epoch`, marking each
  // abandoned; receives posted by earlier commands stay posted.
  void abandon_posted(uint32_t epoch);
  size_t unexpected_count() const { return unexpected_.size(); }
  // The unexpected messages, in arrival order (the race check reads them).
  const std::list<Message>& unexpected() const { return unexpected_; }
  size_t posted_count() const { return posted_.size(); }
  // The posted receives in posting order, then the unexpected messages in
  // arrival order. Reads only.
  std::vector<QueueItem> snapshot() const;

 private:
  std::list<Message> unexpected_;
  std::list<PostedRecv*> posted_;
};

}  // namespace lumpi::core
