// launcher/world.hpp: the coordinator's view of a running world of ranks.
//
// Starts N processes of one executable (fork/exec: lumpi-rank for the REPL,
// any program for `lumpi exec`), wires them (each rank host binds its data
// endpoint in a private 0700 directory and says hello; once all have, the
// endpoint table goes out to every rank), and supervises them: a rank that
// exits or is killed becomes a Death event, and the destructor kills and
// reaps every rank still alive, by pid. Ranks also die with the coordinator
// (PR_SET_PDEATHSIG, set by the host), so none is left behind even after a
// SIGKILL. World is the only code that starts or kills a rank.
//
// Coordinator side: links cppzmq only, never the core or Lua.
#pragma once

#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>
#include <zmq.hpp>

#include "launcher/protocol.hpp"
#include "launcher/rundir.hpp"

namespace lumpi::launcher {

struct RankInfo {
  pid_t pid = -1;
  std::string host, endpoint;  // from its hello
  bool joined = false;         // said hello
  bool finished = false;       // said finished (Host::finish): its exit is no failure
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
    std::string exe;                // path of the rank executable
    std::vector<std::string> args;  // its arguments (argv[1]...)
    std::string bind = "none";      // --bind level, passed to the host
    int stdin_rank = -1;            // the one rank that keeps stdin (others read /dev/null); -1: all keep it
  };

  struct Event {
    enum class Kind { Message, Death } kind;
    int rank = -1;
    ControlMsg msg;  // for Message
  };

  // Starts the processes; throws std::runtime_error if it cannot. Wiring
  // completes as the hellos come in (next() handles them).
  explicit World(const Options& opts);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // Waits until every rank has joined and has the endpoint table; throws
  // std::runtime_error (after killing every rank) when one dies first or
  // timeout_ms passes.
  void wait_wired(int timeout_ms);
  bool wired() const { return wired_; }

  int size() const { return int(ranks_.size()); }
  // Where ranks connect their control DEALER (also what LUMPI_CONTROL says).
  std::string control_endpoint() const { return "ipc://" + dir_ + "/control"; }
  const RankInfo& rank(int r) const { return ranks_[size_t(r)]; }
  bool alive(int r) const { return ranks_[size_t(r)].alive; }
  int alive_count() const;

  // Sends m to rank r if it is alive.
  void send(int r, const ControlMsg& m);
  // Next event, waiting at most timeout_ms; nullopt on timeout, and at once
  // when a signal interrupts the wait (so a Ctrl-C handler's flag is seen).
  // Hello and Finished are consumed here (wiring, RankInfo): next() then
  // returns nullopt early.
  // Malformed messages are dropped with a line on stderr.
  std::optional<Event> next(int timeout_ms);
  // Kills rank r (SIGKILL); its Death event follows from next().
  void kill(int r);
  // Asks every rank to quit, waits up to grace_ms, then kills what is left
  // and returns those ranks.
  std::vector<int> shutdown(int grace_ms = 2000);

 private:
  void spawn(int r, const Options& opts);
  std::vector<std::string> rank_environment(int r, const Options& opts) const;
  std::string silent_ranks() const;
  void reap();
  void kill_all();
  void on_hello(int r, const ControlMsg& m);
  void on_finished(int r);

  RunDir rundir_;  // removes the directory however the coordinator ends
  std::string dir_;
  zmq::context_t ctx_{1};
  zmq::socket_t control_{ctx_, zmq::socket_type::router};
  std::vector<RankInfo> ranks_;
  std::vector<Event> pending_;  // deaths found while reaping
  int hellos_ = 0;
  bool wired_ = false;
};

}  // namespace lumpi::launcher
