// core/base/call_lock.cpp: the application thread's hold on its engine
// (the rule is in core/base/call_lock.hpp).
#include "core/base/call_lock.hpp"

namespace lumpi::core {

namespace {
thread_local std::shared_ptr<CallLock> t_lock;  // the lock this thread's doors take
thread_local std::shared_ptr<CallLock> t_held;  // the lock it holds now, if any
thread_local int t_depth = 0;                   // InMpi scopes open on this thread
}  // namespace

void set_thread_call_lock(std::shared_ptr<CallLock> lock) { t_lock = std::move(lock); }

InMpi::InMpi() {
  if (t_depth++ > 0 || !t_lock) return;
  held_ = t_lock;
  held_->mutex.lock();
  t_held = held_;
}

InMpi::~InMpi() {
  --t_depth;
  if (!held_) return;
  t_held.reset();
  held_->mutex.unlock();
}

OutOfMpi::OutOfMpi() : depth_(t_depth), released_(t_held) {
  t_depth = 0;
  t_held.reset();
  if (released_) released_->mutex.unlock();
}

// An InMpi that a longjmp skipped (a Lua memory error inside a binding)
// left the lock held by this very thread: it is not taken twice.
OutOfMpi::~OutOfMpi() {
  if (released_ && t_held != released_) released_->mutex.lock();
  t_held = released_;
  t_depth = depth_;
}

}  // namespace lumpi::core
