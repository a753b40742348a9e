// core/engine/request.cpp: completion of nonblocking operations.
#include "core/engine/request.hpp"

#include <algorithm>

#include "core/base/constants.hpp"
#include "core/base/error.hpp"

namespace lumpi::core {

Request::~Request() {
  if (kind_ == Kind::Recv && !recv_.done && !cancelled_) engine_->matcher().cancel(&recv_);
}

RequestPtr Request::done(Status st) {
  RequestPtr r(new Request(Kind::Done, nullptr, {}));
  r->status_ = st;
  r->complete_ = true;
  return r;
}

RequestPtr Request::recv(Engine& e, uint64_t context, int source_world, int tag,
                         std::function<int(int)> rank_of, Waiting what) {
  RequestPtr r(new Request(Kind::Recv, &e, std::move(what)));
  r->recv_.context = context;
  r->recv_.source = source_world;
  r->recv_.tag = tag;
  r->rank_of_ = std::move(rank_of);
  e.post(&r->recv_);
  return r;
}

RequestPtr Request::send(Engine& e, int dest, uint64_t seq, Waiting what) {
  RequestPtr r(new Request(Kind::Send, &e, std::move(what)));
  r->dest_ = dest;
  r->seq_ = seq;
  r->complete_ = true;
  return r;
}

RequestPtr Request::ssend(Engine& e, int dest, uint64_t seq, Waiting what) {
  RequestPtr r = send(e, dest, seq, std::move(what));
  r->kind_ = Kind::Ssend;
  r->complete_ = false;
  return r;
}

RequestPtr Request::generic(Engine& e, std::function<bool()> test, Waiting what) {
  RequestPtr r(new Request(Kind::Generic, &e, std::move(what)));
  r->generic_ = std::move(test);
  return r;
}

bool Request::poll_complete() {
  if (complete_) return true;
  switch (kind_) {
    case Kind::Done:
      complete_ = true;
      break;
    case Kind::Recv:
      if (recv_.abandoned)
        fail(ErrClass::Interrupted, what_.call, "the receive was abandoned by an interrupt");
      if (recv_.done) {
        status_.source = rank_of_(recv_.msg.env.source);
        status_.tag = recv_.msg.env.tag;
        status_.bytes = recv_.msg.body.size();
        complete_ = true;
        if (engine_->tracing() && lane_of(recv_.context) == Lane::P2P) trace_recv();
        if (recv_sig_.kind && recv_.msg.env.sig.kind) check_signature();
        if (lane_of(recv_.context) == Lane::P2P && engine_->checking()) {
          if (recv_.source == ANY_SOURCE)
            engine_->note_wildcard({recv_.context, recv_.tag, recv_.msg.env.source, recv_.clock,
                                    what_.describe().substr(std::string_view("waiting in ").size()), rank_of_,
                                    engine_->world_rank(), recv_.wildcard, false, recv_.msg.env});
          else if (!recv_.wildcard)  // named by the user (not fixed by LUMPI_RACE's replay)
            engine_->note_named_receive(recv_.msg.env);
        }
      }
      break;
    case Kind::Send:
    case Kind::Ssend:
      complete_ = poll_send();
      break;
    case Kind::Generic:
      complete_ = generic_();
      break;
  }
  return complete_;
}

bool Request::test() {
  bool complete = poll_complete();
  if (!complete) {
    engine_->progress(0);
    complete = poll_complete();
  }
  if (complete) {
    if (engine_) engine_->poll_ended();  // a request made done has none
    return true;
  }
  engine_->check_peers(what_);  // a polling loop fails as a blocked wait would
  engine_->poll_failed(what_);
  return false;
}

namespace {

// A message of signature `sent` may be received by a receive of signature
// `recv` when its basic types are a prefix of the receive's. Reported only
// where that is certain to fail: a receive of one basic type (kind 4) and a
// message with any other (a different period). Untyped data (MPI_BYTE,
// MPI_PACKED), empty messages and signatures not known exactly are never
// reported, nor a receive of several basic types (the message may be a
// prefix of one of its elements); a message longer than the receive is
// MPI_ERR_TRUNCATE's.
bool receivable(const WireSig& sent, const WireSig& recv) {
  if (sent.kind < 3 || recv.kind != 4) return true;
  return sent.unit == recv.unit;
}

}  // namespace

size_t copy_out(const Body& body, TypedBuffer& b, std::string_view func) {
  if (body.size() > b.size())
    fail(ErrClass::Truncate, func,
         "the message has " + std::to_string(body.size()) + " bytes, the receive buffer room for " +
             std::to_string(b.size()));
  b.unpack_from(body.data(), body.size(), func);
  return body.size();
}

std::string p2p_mismatch(const WireSig& sent, const WireSig& recv, int source, int tag, const std::string& comm) {
  if (!sent.kind || !recv.kind || receivable(sent, recv)) return "";
  return recv.text + " received rank " + std::to_string(source) + "'s " + sent.text + " (tag " +
         std::to_string(tag) + ", " + (comm.empty() ? "a communicator" : comm) +
         "): the type signatures do not match (MPI-3.1 §3.3.1)";
}

// Reports once, at completion, a receive whose signature does not match
// its message's; the program runs on (the bytes are delivered as they are).
void Request::check_signature() {
  std::string text = p2p_mismatch(recv_.msg.env.sig, recv_sig_, status_.source, status_.tag, what_.comm);
  if (!text.empty()) engine_->report_check("type-mismatch", text);
  recv_sig_ = {};
}

void Request::trace_recv() {
  engine_->trace_arrival(TraceEvent::Kind::Recv, recv_.msg, base_of(recv_.context), what_.call);
}

void Request::wait() {
  if (poll_complete()) return;  // also a cancelled request, and one made complete (no engine)
  // A user's wait on a request (MPI_Wait, MPI_Waitall ...) is a span in the trace.
  bool traced = engine_->tracing() && what_.call.starts_with("MPI_Wait");
  if (traced) trace_wait(TraceEvent::Kind::Begin);
  engine_->wait([this] { return poll_complete(); }, what_);
  if (traced) trace_wait(TraceEvent::Kind::End);
}

void Request::wait_any(const std::vector<Request*>& reqs, const std::string& call) {
  Engine* engine = nullptr;
  Waiting what;  // any one request will do: it waits for any of their ranks
  what.call = call;
  what.any = true;
  bool one_comm = true;  // the communicator is named only when all share it
  for (const Request* r : reqs) {
    if (!r || !r->engine_) continue;
    if (!engine) {
      engine = r->engine_;
      what.comm = r->what_.comm;
      what.context = r->what_.context;
    }
    one_comm = one_comm && r->what_.context == what.context;
    for (int w : r->what_.needs)
      if (std::find(what.needs.begin(), what.needs.end(), w) == what.needs.end()) what.needs.push_back(w);
  }
  if (!one_comm) {
    what.comm.clear();
    what.context = 0;
  }
  auto ready = [&] {
    for (Request* r : reqs) {
      if (!r) continue;
      try {
        if (r->poll_complete()) return true;
        if (r->engine_) r->engine_->check_peers(r->what_);
      } catch (const Error&) {
        return true;  // the caller's test raises it
      }
    }
    return false;
  };
  if (engine && !ready()) engine->wait(ready, what);
}

void Request::trace_wait(TraceEvent::Kind k) {
  TraceEvent t;
  t.kind = k;
  t.context = what_.context;
  t.call = what_.call;
  engine_->trace(std::move(t));
}

bool Request::let_go(RequestPtr r, std::function<void(Request*)> land) {
  Engine* engine = r->engine_;
  // One step: true once the operation is over and land has run.
  auto step = [r = std::move(r), land = std::move(land)]() mutable {
    Request* done = nullptr;
    try {
      if (!r->poll_complete()) return false;
      done = r.get();
    } catch (...) {  // the operation's error: no one to go to
    }
    try {
      if (land) land(done);
    } catch (...) {  // nor has an error in putting its message in place
    }
    r.reset();
    land = nullptr;
    return true;
  };
  if (step()) return false;  // over already (a request made complete has no engine)
  engine->add_background(std::move(step));
  return true;
}

// A send being cancelled waits for the answer (after the ack, if the
// message was matched); a synchronous one otherwise for its ack.
bool Request::poll_send() {
  if (!cancelling_) return engine_->take_ack(seq_);
  std::optional<bool> withdrawn = engine_->take_cancel_answer(seq_);
  if (!withdrawn) return false;
  if (kind_ == Kind::Ssend && !*withdrawn) engine_->take_ack(seq_);
  cancelled_ = *withdrawn;
  return true;
}

bool Request::cancel() {
  if ((kind_ == Kind::Send || kind_ == Kind::Ssend) && !cancelling_) {
    if (kind_ == Kind::Ssend && poll_complete()) return false;  // matched: its ack came
    cancelling_ = true;
    complete_ = false;
    engine_->cancel_send(dest_, seq_);
    return true;
  }
  if (complete_ || kind_ != Kind::Recv) return false;
  if (!engine_->matcher().cancel(&recv_)) return false;
  cancelled_ = true;
  complete_ = true;
  return true;
}

}  // namespace lumpi::core
