// core/base/call_lock.hpp: the application thread's hold on its engine,
// which lets a second thread serve passive-target RMA while the
// application computes outside MPI (core/engine/passive.cpp,
// docs/design/passive-progress.md).
//
// The rule: the engine, its sockets and every window's target state are
// touched by one thread at a time. The application thread holds the lock
// for as long as it is inside MPI: every door takes it at its single
// boundary (an InMpi at C's run_call, at Lua's wrap and the metamethods
// that reach the core, around the host's own work), and the host lets go
// of it while user code runs (OutOfMpi around a Lua command). The passive
// progress thread only ever try_locks it, so it never waits for the
// application and can never deadlock with it; taking and releasing the
// mutex is the full memory barrier ZeroMQ asks for when a socket moves
// between threads.
//
// Nested entries (a user callback that calls MPI inside an MPI call) count
// depth on the thread and lock once. A thread that registered no lock
// (unit tests running ranks as threads, a process before MPI_Init) takes
// nothing: its engine never starts the thread.
#pragma once

#include <memory>
#include <mutex>

namespace lumpi::core {

struct CallLock {
  std::mutex mutex;
};

// Makes `lock` the one this thread's InMpi takes (nullptr: none).
void set_thread_call_lock(std::shared_ptr<CallLock> lock);

// Inside MPI for its lifetime (RAII at a door's boundary).
class InMpi {
 public:
  InMpi();
  ~InMpi();
  InMpi(const InMpi&) = delete;
  InMpi& operator=(const InMpi&) = delete;

 private:
  std::shared_ptr<CallLock> held_;  // set by the outermost entry that locked
};

// Outside MPI for its lifetime, inside an InMpi (the host around a user
// command): the hold is released and taken back after.
class OutOfMpi {
 public:
  OutOfMpi();
  ~OutOfMpi();
  OutOfMpi(const OutOfMpi&) = delete;
  OutOfMpi& operator=(const OutOfMpi&) = delete;

 private:
  int depth_;
  std::shared_ptr<CallLock> released_;
};

}  // namespace lumpi::core
