// tests/exec/ring.cpp: a plain C++ program run as a world by `lumpi exec`
// (tests/integration/test_exec.py): it links the core and the rank host, no
// Lua, and joins with launcher::Host::join().
//
//   ring [ROUNDS]   a token goes round the ring ROUNDS times (default 3), each
//                   rank adding its number; rank 0 prints it on its own stdout
//   hang            rank 0 waits for the last rank, which computes (sleeps)
//                   for a minute first: a hang, no deadlock (timeout, Ctrl-C)
//   orphan          rank 0 waits for a message the last rank, finished,
//                   never sent: a deadlock, found as it happens
//   exit CODE       the last rank finishes with CODE, the others with 0
//   crash           rank 1 dies of SIGKILL before finishing
//   dead            rank 1 exits 4 without finishing; rank 0, waiting for
//                   it, prints the error class it gets and finishes with 0
//   abort           rank 1 calls MPI_Abort with code 5
//   stdin           rank 0 echoes the first line of its standard input
//   late            rank 1 computes for 2 s before joining, then the ring runs
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <unistd.h>

#include "core/base/error.hpp"
#include "launcher/host/host.hpp"

namespace {

using lumpi::core::Comm;
using lumpi::launcher::Host;

void send_text(Comm& c, const std::string& s, int dest, int tag) {
  c.send(lumpi::core::Body(s), dest, tag);
}

std::string recv_text(Comm& c, int source, int tag) { return c.recv(source, tag).body.str(); }

void ring(Comm& w, int rounds) {
  int me = w.rank(), n = w.size();
  for (int round = 0; round < rounds; ++round) {
    if (me == 0) {
      std::string token = "0";
      if (n > 1) {
        send_text(w, token, 1, round);
        token = recv_text(w, n - 1, round);
      }
      std::printf("round %d: %s\n", round, token.c_str());
    } else {
      std::string token = recv_text(w, me - 1, round) + " " + std::to_string(me);
      send_text(w, token, (me + 1) % n, round);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string mode = argc > 1 ? argv[1] : "ring";
  if (Host::joined()) return 96;
  const char* env_rank = std::getenv("LUMPI_RANK");
  if (mode == "late" && env_rank && std::string(env_rank) == "1") sleep(2);  // before MPI_Init
  Host& host = Host::join();
  Comm& w = *host.world();
  int me = w.rank(), n = w.size();
  if (mode == "ring" || mode == "late") {
    ring(w, argc > 2 ? std::atoi(argv[2]) : 3);
  } else if (mode == "hang") {
    if (me == n - 1)
      for (int s = 0; s < 600; ++s) usleep(100000);  // computing, outside MPI: no rank is stuck
    if (me == 0) recv_text(w, n - 1, 99);
  } else if (mode == "orphan") {
    if (me == 0) recv_text(w, n - 1, 99);
  } else if (mode == "exit") {
    return host.finish(me == n - 1 ? std::atoi(argv[2]) : 0);
  } else if (mode == "crash") {
    if (me == 1) std::raise(SIGKILL);
  } else if (mode == "dead") {
    if (me == 1) std::_Exit(4);
    if (me == 0) {
      try {
        recv_text(w, 1, 7);
      } catch (const lumpi::core::Error& e) {
        std::printf("rank 0: %s\n", lumpi::core::class_name(e.cls()));
      }
    }
  } else if (mode == "abort") {
    if (me == 1) host.abort(5, "rank 1 gives up");
    recv_text(w, 1, 7);  // the others wait until they are stopped
  } else if (mode == "stdin") {
    std::string line;
    if (me == 0 && std::getline(std::cin, line)) std::printf("rank 0 read: %s\n", line.c_str());
  }
  std::fflush(stdout);
  int code = host.finish(0);
  // After finish: MPI_Finalized is true, and joining again is refused.
  if (!Host::joined() || !Host::finished()) return 98;
  try {
    Host::join();
    return 97;
  } catch (const std::runtime_error&) {
  }
  return code;
}
