// core/engine/passive.cpp: passive-target progress that does not depend on
// the target calling MPI (issue 28, docs/design/passive-progress.md).
//
// While a window exists on an engine whose application thread registered
// its CallLock (enable_passive_progress: the Lua rank host, lumpi::Init,
// which MPI_Init calls), a second thread sleeps on the data socket's
// descriptor. When input may be
// waiting it naps a millisecond (an application inside MPI reads its own
// input meanwhile, so a busy rank does not pay a thread switch per
// message), then try_locks the CallLock: held means the application is in
// MPI and progresses itself (the thread looks again 10 ms later). Got,
// the thread reads every waiting message; it serves Rma messages of open windows on the spot (lock requests, put,
// get, the accumulate family, flush, unlock, and the answers an origin
// waits for: plain memory work and sends, no user code) and sets every
// other message aside (deferred_) for the application thread's next
// progress, which delivers them first, in order. It never runs user code,
// background steps, or anything of the control channel.
//
// Under --check it serves alike; a conflict report it makes waits, with the
// messages set aside, for the application thread (Engine::report_check:
// the report goes to the host's control channel, which only that thread
// touches).
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "core/base/log.hpp"
#include "core/engine/engine.hpp"
#include "core/transport/transport.hpp"

namespace lumpi::core {

void Engine::enable_passive_progress() {
  passive_enabled_ = true;
  set_thread_call_lock(call_lock_);
  if (!rma_services_.empty()) start_passive_thread();
}

void Engine::disable_passive_progress() {
  stop_passive_thread();
  passive_enabled_ = false;
  set_thread_call_lock(nullptr);
  send_deferred_reports();
}

void Engine::serve_rma(uint64_t id, RmaService service) {
  rma_services_[id] = std::move(service);
  if (passive_enabled_) start_passive_thread();
}

void Engine::stop_rma(uint64_t id) {
  rma_services_.erase(id);
  rma_describers_.erase(id);
  if (rma_services_.empty()) stop_passive_thread();
}

// Called by the application thread inside MPI (holding the lock, or with
// no lock registered).
void Engine::start_passive_thread() {
  if (passive_.joinable()) return;
  passive_wake_fd_ = eventfd(0, EFD_CLOEXEC);
  if (passive_wake_fd_ < 0) {
    log("no passive-target progress thread: eventfd failed");
    return;
  }
  passive_stop_ = false;
  passive_ = std::thread([this] { passive_loop(); });
}

// Safe from any context, the lock held or not: the thread never waits for it.
void Engine::stop_passive_thread() {
  if (!passive_.joinable()) return;
  passive_stop_ = true;
  std::uint64_t one = 1;
  if (write(passive_wake_fd_, &one, sizeof one) < 0) {
  }  // (the thread's sleeps end within 200 ms anyway)
  passive_.join();
  close(passive_wake_fd_);
  passive_wake_fd_ = -1;
}

// An application found inside MPI serves itself: the thread then looks
// again in 10 ms without watching the data socket, so a rank waiting long
// in MPI does not wake it with every message.
void Engine::passive_loop() {
  pollfd both[2] = {{transport_->data_fd(), POLLIN, 0}, {passive_wake_fd_, POLLIN, 0}};
  pollfd wake = {passive_wake_fd_, POLLIN, 0};
  bool in_mpi = false;
  while (!passive_stop_) {
    if (in_mpi) ::poll(&wake, 1, 10);
    else ::poll(both, 2, 200);  // input may wait (or 200 ms passed: look anyway)
    ::poll(&wake, 1, 1);        // the nap: an application in MPI reads it first
    if (passive_stop_) return;
    std::unique_lock<std::mutex> held(call_lock_->mutex, std::try_to_lock);
    in_mpi = !held;
    if (held) serve_passive();
  }
}

// The application thread is outside MPI and this thread holds its lock.
void Engine::serve_passive() {
  struct Serving {
    bool& on;
    ~Serving() { on = false; }
  } serving{serving_passive_ = true};
  while (std::optional<Message> m = next_message()) {
    if (m->env.kind == MsgKind::Rma && rma_services_.count(m->env.context)) deliver(std::move(*m));
    else deferred_.push_back(std::move(*m));
  }
}

}  // namespace lumpi::core
