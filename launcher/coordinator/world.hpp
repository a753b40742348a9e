// launcher/coordinator/world.hpp: the coordinator's view of a running world of ranks.
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
// Across hosts (a Placement whose launcher is not `local`): World binds its
// control and heartbeat sockets on tcp with CURVE (the job's keys, a ZAP
// handler admitting only them; launcher/protocol/curve.hpp), writes the 0600 job
// file, and runs the launcher (mpirun, mpiexec, srun, or one ssh per host)
// as child processes in their own process groups. Ranks join with the rank
// their launcher's environment gives; a duplicate, out-of-range or missing
// rank fails wait_wired with a clear error. A rank's end is its `bye`, or
// the silence of its heartbeat (launcher/protocol/heartbeat.hpp); World::kill asks its
// heartbeat to end it, and the launchers' process groups are killed last.
//
// Waiting for a REPL (`lumpi world`, world_attach.cpp): a World made with
// Options::serve also binds an attach socket (a CURVE ROUTER with the job's
// keys: tcp for a launcher's world, ipc in the private directory for a local
// one) and writes the connection file (the job file's format, 0600, with an
// `attach=` line); serve() then relays between the ranks and at most one
// REPL at a time and keeps the world (and its heartbeats) alive while no
// REPL is attached. A World made with Options::attach is that REPL's view:
// the same interface, its messages relayed through the waiting world.
//
// Coordinator side: links cppzmq only, never the core or Lua.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>
#include <zmq.hpp>

#include "launcher/protocol/curve.hpp"
#include "launcher/protocol/heartbeat.hpp"
#include "launcher/coordinator/launch.hpp"
#include "launcher/protocol/protocol.hpp"
#include "launcher/coordinator/rundir.hpp"

namespace lumpi::launcher {

struct RankInfo {
  pid_t pid = -1;              // our child (local), or the pid on its host (from its hello)
  std::string host, endpoint;  // from its hello
  std::string identity;        // its control DEALER's identity
  bool joined = false;         // said hello
  bool finished = false;       // said finished (Host::finish): its exit is no failure
  bool alive = false;
  int wait_status = 0;  // as waitpid reports it, once dead (or kStatusLost)
  int64_t joined_at = 0;  // now_ms() of its hello
};

// The wait status of a remote rank whose heartbeat stopped.
inline constexpr int kStatusLost = -2;

// "exit 3", "signal 11", "lost (no heartbeat for 3 s)"
std::string describe_wait_status(int status);
// 0, the exit code, or 128 + signal; 255 for a lost rank.
int exit_code_of(int status);

class World {
 public:
  struct Options {
    int size = 4;
    std::string exe;                // path of the rank executable
    std::vector<std::string> args;  // its arguments (argv[1]...)
    std::string bind = "none";      // --bind level, passed to the host
    int stdin_rank = -1;            // the one rank that keeps stdin (others read /dev/null); -1: all keep it
    Placement placement;            // where ranks run: local (fork, ipc) or a launcher (tcp, CURVE)
    bool check = false;             // --check: the ranks start with the full checks on (LUMPI_CHECK)
    bool serve = false;             // wait for a REPL (serve()): bind the attach socket, write the file
    std::string jobfile;            // serve: the connection file's path ("": `job` in the run directory)
    std::string attach;             // a REPL attaching to the waiting world of this connection file
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
  // Why the ranks cannot all join (a duplicate or out-of-range rank, the
  // launcher ended first); "" while nothing is wrong. wait_wired throws it.
  const std::string& join_error() const { return join_error_; }

  int size() const { return int(ranks_.size()); }
  // Where ranks connect their control DEALER (also what LUMPI_CONTROL says).
  std::string control_endpoint() const { return control_endpoint_; }
  bool remote() const { return remote_; }
  // The job file ranks started by a launcher join with ("" for local worlds).
  const std::string& join_path() const { return join_path_; }
  // Connections the ZAP handler refused (0 for local worlds).
  int refused() const { return zap_ ? zap_->refused() : 0; }
  const RankInfo& rank(int r) const { return ranks_[size_t(r)]; }
  bool alive(int r) const { return ranks_[size_t(r)].alive; }
  int alive_count() const;
  // Deaths reaped and not yet returned by next(): one reap may find
  // several, so the last ranks are dead before next() has said so.
  bool deaths_pending() const { return !pending_.empty(); }

  // Sends m to rank r if it is alive.
  void send(int r, const ControlMsg& m);
  // Tells every live rank that rank `dead` has died, so that their waits
  // that need it fail (MPI_ERR_PROC_FAILED).
  void announce_death(int dead);
  // Next event, waiting at most timeout_ms; nullopt on timeout, and at once
  // when a signal interrupts the wait (so a Ctrl-C handler's flag is seen).
  // Hello and Finished are consumed here (wiring, RankInfo): next() then
  // returns nullopt early.
  // Malformed messages are dropped with a line on stderr.
  std::optional<Event> next(int timeout_ms);
  // Kills rank r (SIGKILL); its Death event follows from next().
  void kill(int r);
  // Asks every rank to quit, waits up to grace_ms, then kills what is left
  // and returns those ranks. Attached: ends the waiting world (unless
  // detach() came first) and returns the ranks it did not report ended.
  // What the ranks print while they quit (COMM_SELF's delete callbacks run
  // then) goes to on_output, when given, up to the last line.
  std::vector<int> shutdown(int grace_ms = 2000, const std::function<void(const Event&)>& on_output = {});

  // ---- waiting for a REPL, and attached to a waiting world (world_attach.cpp) ----
  bool attached() const { return attached_; }
  // Attached: leave the world running; shutdown() and the destructor then leave it alone.
  void detach();
  // Serving (Options::serve): relays between the ranks and the attached
  // REPL until a REPL (or `lumpi world --stop`) says quit, every rank has
  // ended, or stop() answers true (polled every few ms: a signal's flag).
  // Returns the exit status of `lumpi world`.
  int serve(const std::function<bool()>& stop);

 private:
  void spawn(int r, const Options& opts);
  std::vector<std::string> rank_environment(int r, const Options& opts) const;
  std::string silent_ranks() const;
  void reap();
  // The oldest death not yet reported, taken off pending_.
  std::optional<Event> take_pending();
  void kill_all();
  void on_hello(int r, const ControlMsg& m, const std::string& identity);
  void on_finished(int r, int code);
  // ---- worlds started by a launcher (world_remote.cpp) ----
  static std::string remote_job_base();
  void start_remote(const Options& opts);
  void spawn_launcher(const std::vector<std::string>& argv);
  bool on_unknown_sender(const std::string& id);
  void check_beats();
  void mark_dead(int r, int status);
  void kill_remote();
  void reap_launcher(pid_t pid, int status);
  void reap_launchers_for(int ms);
  // ---- waiting for a REPL / attached (world_attach.cpp) ----
  void bind_attach(const std::string& endpoint, const CurveKeys& keys);
  void serve_local(const Options& opts);
  void start_attached(const std::string& path);
  std::optional<Event> next_attached(int timeout_ms);
  std::vector<int> shutdown_attached(int grace_ms);
  void send_to_repl(const std::string& to, const ControlMsg& m);
  bool send_routed(const std::string& id, const std::string& to, const ControlMsg& m);
  bool on_attach_message(const Frames& f);
  void take_repl(const std::string& id);
  void drop_repl();
  void forward(const Event& ev);
  void end_served(const std::vector<std::string>& tell);

  bool remote_ = false;
  bool check_ = false;  // Options::check, for the launchers' environment
  RunDir rundir_;  // removes the directory however the coordinator ends
  std::string dir_;
  std::string control_endpoint_, join_path_, launcher_name_;
  std::string join_error_;         // a rank that could not join (remote): wait_wired reports it
  std::vector<pid_t> launchers_;   // launcher processes still running (remote)
  std::string launcher_end_;       // how the last launcher ended, if before wiring
  zmq::context_t ctx_{1};
  std::unique_ptr<ZapHandler> zap_;  // before the sockets it guards, after the context
  zmq::socket_t control_{ctx_, zmq::socket_type::router};
  std::unique_ptr<BeatServer> beat_;
  std::vector<RankInfo> ranks_;
  std::vector<Event> pending_;  // deaths found while reaping
  int hellos_ = 0;
  bool wired_ = false;
  // waiting for a REPL (serving_) or attached to such a world (attached_)
  bool serving_ = false, attached_ = false;
  bool relaying_ = false;        // serving: inside serve(), which reads the attach socket
  zmq::socket_t attach_;         // serving: ROUTER; attached: DEALER to the waiting world
  std::string attach_endpoint_;
  std::string repl_;             // serving: the attached REPL's routing id ("" while detached)
  uint32_t epoch_base_ = 0, epoch_seen_ = 0;  // serving: added to this REPL's epochs; the highest relayed
  int64_t last_heard_ = 0;       // attached: now_ms() of the world's last message
  bool detached_ = false, quit_sent_ = false, world_gone_ = false;  // attached
};

// `lumpi world --stop FILE`: tells the waiting world of that connection file
// to end and waits (up to timeout_ms) until it has; throws std::runtime_error.
void stop_waiting_world(const std::string& path, int timeout_ms);

}  // namespace lumpi::launcher
