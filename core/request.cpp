// core/request.cpp: completion of nonblocking operations.
#include "core/request.hpp"

#include "core/error.hpp"

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

RequestPtr Request::ssend(Engine& e, uint64_t seq, Waiting what) {
  RequestPtr r(new Request(Kind::Ssend, &e, std::move(what)));
  r->ack_seq_ = seq;
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
      }
      break;
    case Kind::Ssend:
      complete_ = engine_->take_ack(ack_seq_);
      break;
    case Kind::Generic:
      complete_ = generic_();
      break;
  }
  return complete_;
}

bool Request::test() {
  if (poll_complete()) return true;
  engine_->progress(0);
  if (poll_complete()) return true;
  engine_->check_peers(what_);  // a polling loop fails as a blocked wait would
  return false;
}

void Request::wait() {
  if (poll_complete()) return;  // also a cancelled request, and one made complete (no engine)
  engine_->wait([this] { return poll_complete(); }, what_);
}

bool Request::cancel() {
  if (complete_ || kind_ != Kind::Recv) return false;
  if (!engine_->matcher().cancel(&recv_)) return false;
  cancelled_ = true;
  complete_ = true;
  return true;
}

}  // namespace lumpi::core
