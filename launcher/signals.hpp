// launcher/signals.hpp: living with a program's own signals. A rank runs
// inside the user's program, whose timers, profilers and handlers (installed
// without SA_RESTART) interrupt blocking calls. lumpi's helper threads (the
// ZAP handler, the heartbeat) start with every signal blocked, as libzmq's
// I/O threads do, so signals reach the program's own threads. The main
// thread's ZeroMQ calls go through core::again_on_eintr (core/transport.hpp).
#pragma once

#include <pthread.h>
#include <signal.h>
#include <thread>
#include <utility>

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

}  // namespace lumpi::launcher
