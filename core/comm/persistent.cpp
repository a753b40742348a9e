// core/comm/persistent.cpp: persistent requests (MPI-3.1 §3.9); the rules
// are in persistent.hpp.
#include "core/comm/persistent.hpp"

#include <algorithm>

#include "core/base/error.hpp"

namespace lumpi::core {

PersistentPtr Persistent::send_init(CommPtr comm, int dest, int tag, bool sync, bool buffered,
                                    std::string_view func) {
  comm->check_send(dest, tag, func);
  return PersistentPtr(new Persistent(std::move(comm), true, dest, tag, sync, buffered));
}

PersistentPtr Persistent::recv_init(CommPtr comm, int source, int tag, std::string_view func) {
  comm->check_source(source, func);
  Comm::check_recv_tag(tag, func);
  return PersistentPtr(new Persistent(std::move(comm), false, source, tag, false, false));
}

void Persistent::begin(Body body) {
  Engine& e = comm_->engine();
  Engine::CallSignatures::Scope clear{e};
  (send_ ? e.call_signatures().send : e.call_signatures().recv) = sig_;
  req_ = send_ ? comm_->isend(std::move(body), peer_, tag_, sync_, buffered_) : comm_->irecv(peer_, tag_);
}

void Persistent::start(const std::function<Body()>& message, std::string_view func) {
  if (active()) fail(ErrClass::Request, func, "request is already active (started and not yet completed)");
  begin(send_ ? message() : Body());
}

void Persistent::start_all(const std::vector<Persistent*>& ps, const std::function<Body(size_t)>& message,
                           std::string_view func) {
  for (size_t i = 0; i < ps.size(); ++i) {
    if (!ps[i]) fail(ErrClass::Request, func, at("requests", i) + " is MPI_REQUEST_NULL, which cannot be started");
    if (ps[i]->active())
      fail(ErrClass::Request, func, at("requests", i) + " is already active (started and not yet completed)");
    if (std::find(ps.begin(), ps.begin() + long(i), ps[i]) != ps.begin() + long(i))
      fail(ErrClass::Request, func, at("requests", i) + " appears twice in requests");
  }
  std::vector<Body> bodies(ps.size());
  for (size_t i = 0; i < ps.size(); ++i)
    if (ps[i]->send_) bodies[i] = message(i);
  for (size_t i = 0; i < ps.size(); ++i) ps[i]->begin(std::move(bodies[i]));
}

void Persistent::free(std::function<void(Request*)> land) {
  if (!req_) return;
  // The communicator stays alive until the operation is over: a receive reads its group.
  Request::let_go(std::exchange(req_, nullptr), [comm = comm_, land = std::move(land)](Request* r) {
    if (land) land(r);
  });
}

}  // namespace lumpi::core
