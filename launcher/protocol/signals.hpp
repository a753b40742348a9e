// launcher/protocol/signals.hpp: living with a program's own signals. A rank runs
// inside the user's program, whose timers, profilers and handlers (installed
// without SA_RESTART) interrupt blocking calls. lumpi's helper threads (the
// ZAP handler, the heartbeat) start with every signal blocked, as libzmq's
// I/O threads do, so signals reach the program's own threads; a ZeroMQ call
// that a signal interrupted is made again. (core/transport/transport.cpp has the
// data plane's own again_on_eintr: the coordinator links nothing of the core.)
#pragma once

#include <cerrno>
#include <pthread.h>
#include <signal.h>
#include <thread>
#include <utility>
#include <zmq.hpp>

namespace lumpi::launcher {

// A thread that runs f with every signal blocked.
template <class F>
std::thread quiet_thread(F&& f) {
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);  // the new thread inherits it
  struct Restore {
    sigset_t& old;
    ~Restore() { pthread_sigmask(SIG_SETMASK, &old, nullptr); }
  } restore{old};
  return std::thread(std::forward<F>(f));
}

// f() again for as long as a signal interrupts it (EINTR, nothing done).
// Every libzmq call that first runs the socket's pending commands can fail
// so: send, receive, bind, connect, poll.
template <class F>
auto again_on_eintr(F&& f) {
  for (;;) {
    try {
      return f();
    } catch (const zmq::error_t& e) {
      if (e.num() != EINTR) throw;
    }
  }
}

}  // namespace lumpi::launcher
