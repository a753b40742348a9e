// launcher/world.hpp: the coordinator's view of a running world of ranks.
//
// Starts N lumpi-rank processes (fork/exec), wires them (each binds its data
// endpoint in a private 0700 directory; the endpoint table is handed out
// once all have said hello), and supervises them: a rank that exits or is
// killed becomes a Death event, and the destructor kills and reaps every
// rank still alive, by pid. Ranks also die with the coordinator
// (PR_SET_PDEATHSIG), so none is left behind even after a SIGKILL.
#pragma once

#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>
#include <zmq.hpp>

#include "launcher/control.hpp"
#include "launcher/rundir.hpp"

namespace lumpi::launcher {

struct RankInfo {
  pid_t pid = -1;
  std::string host, endpoint;
  bool alive = false;
  int wait_status = 0;  // as waitpid reports it, once dead
};

// "exit 3", "signal 11"
std::string describe_wait_status(int status);
// 0, the exit code, or 128 + signal.
int exit_code_of(int status);

class World {
 public:
  struct Options {
    int size = 4;
    std::string rank_exe;  // path of lumpi-rank
    std::string bind = "none";
  };

  struct Event {
    enum class Kind { Message, Death } kind;
    int rank = -1;
    Frames frames;  // for Message: type first
  };

  // Starts and wires the world; throws std::runtime_error if it cannot.
  explicit World(const Options& opts);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  int size() const { return int(ranks_.size()); }
  const RankInfo& rank(int r) const { return ranks_[size_t(r)]; }
  bool alive(int r) const { return ranks_[size_t(r)].alive; }
  int alive_count() const;

  void send(int rank, const Frames& frames);
  // Next event, waiting at most timeout_ms; nullopt on timeout, and at once
  // when a signal interrupts the wait (so a Ctrl-C handler's flag is seen).
  std::optional<Event> next(int timeout_ms);
  // Asks every rank to quit, waits up to grace_ms, then kills what is left.
  void shutdown(int grace_ms = 2000);

 private:
  void spawn(int r, const Options& opts);
  void reap();
  void kill_all();

  RunDir rundir_;  // removes the directory however the coordinator ends
  std::string dir_;
  zmq::context_t ctx_{1};
  zmq::socket_t control_{ctx_, zmq::socket_type::router};
  std::vector<RankInfo> ranks_;
  std::vector<Event> pending_;  // deaths found while reaping
};

}  // namespace lumpi::launcher
