// core/request.cpp: completion of nonblocking operations.
#include "core/request.hpp"

#include "core/error.hpp"

namespace lumpi::core {

Request::~Request() {
  if (kind_ == Kind::Recv && !recv_.done && !cancelled_) engine_->matcher().cancel(&recv_);
}

std::shared_ptr<Request> Request::done(Status st) {
  auto r = std::make_shared<Request>();
  r->status_ = st;
  r->complete_ = true;
  return r;
}

std::shared_ptr<Request> Request::generic(Engine& e, std::function<bool()> test, Waiting what) {
  auto r = std::make_shared<Request>();
  r->kind_ = Kind::Generic;
  r->engine_ = &e;
  r->generic_ = std::move(test);
  r->what_ = std::move(what);
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
        status_.source = world_to_rank_(recv_.msg.env.source);
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
  if (poll_complete()) return;  // a cancelled request is complete (MPI_Cancel)  // also covers requests made complete (no engine)
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
