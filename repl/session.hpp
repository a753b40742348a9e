// repl/session.hpp: running commands on a world and showing what happens.
//
// A Session owns the World and runs one command at a time on a set of
// ranks: it streams their output live ("[2] text"), collects their results,
// and keeps the user in control: Ctrl-C interrupts every rank, a hang is
// diagnosed after 2 s, a per-command timeout interrupts automatically, a
// dead rank is reported and the ranks blocked on it are told. Used by the
// REPL, the script runner and `lumpi test` alike.
#pragma once

#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "launcher/coordinator/world.hpp"
#include "repl/check_report.hpp"

namespace lumpi::repl {

struct RankView;  // repl/view/deadlock.hpp

struct RankOutcome {
  enum class State { Running, Ok, Error, Died } state = State::Running;
  std::string text;        // rendered values or error message
  bool has_value = false;  // the command returned values
  int exit_code = 0;       // Died: the rank's exit status (API.md §11)
  bool incomplete = false; // Error: a "repl" chunk that ended too early; nothing ran
};

struct Outcome {
  std::map<int, RankOutcome> ranks;
  bool interrupted = false;  // by Ctrl-C or the timeout
  bool ok() const;           // every rank finished without error (os.exit(0) included)
  bool incomplete() const;   // the chunk wants more lines (lua.c's rule); it ran nowhere
};

class Session {
 public:
  struct Options {
    int size = 4;
    std::string rank_exe;
    std::string bind = "none";
    double timeout = 0;  // seconds per command, 0 = none
    bool collate = true;
    launcher::Placement placement;  // --launcher, --hosts...: local (fork) by default
    std::string attach;             // `lumpi attach FILE`: a waiting world's connection file (size from it)
    bool check = false;             // --check: the ranks' full checks (docs/checking.md)
    bool stop_on_deadlock = false;  // a deadlock found interrupts the command (scripts, lumpi test)
  };

  explicit Session(Options opts);
  ~Session();

  int size() const { return world_ ? world_->size() : 0; }
  launcher::World& world() { return *world_; }
  // Every rank of the world, in order (a target at start and after :restart).
  std::vector<int> all_ranks() const;
  // The world can run a command: it exists and a rank of it lives. When it
  // cannot, kWorldStopped says so.
  bool usable() const { return size() > 0 && world_->alive_count() > 0; }
  const Options& options() const { return opts_; }
  void set_timeout(double seconds) { opts_.timeout = seconds; }

  // Stops the world and starts a fresh one of `size` ranks (0: same size).
  // Throws std::runtime_error for an attached world (only its own `lumpi world` starts ranks).
  void restart(int size = 0);
  // Runs one command on `ranks`; mode is the name of a launcher::Mode
  // ("repl", "script", "text", "check"; launcher/protocol/protocol.hpp).
  Outcome run(const std::vector<int>& ranks, const std::string& mode, const std::string& payload,
              const std::vector<std::string>& args = {});
  // Compiles `code` on the first live rank without running it (Mode::Check):
  // "expression", "statement", "incomplete", or "" when it does not compile
  // or no rank is alive. The coordinator has no Lua of its own. (A typed
  // chunk needs no check first: "repl" answers incomplete() itself.)
  std::string check(const std::string& code);
  // Each host's hardware tree with its ranks placed by their cpusets, drawn
  // by the first live rank on that host (the coordinator has no hwloc); with
  // several hosts each tree follows a "host NAME (ranks ...):" line. A host
  // that does not answer within 5 s gets a line saying so.
  std::string hw_tree(const std::map<int, std::string>& cpusets);
  // Prints results (and errors) collated, errors to `err_stream` if given.
  void print_outcome(const Outcome& o, FILE* err_stream = nullptr) const;
  // What every rank is doing now, collated ("[1,3] waiting in MPI_Recv(...)").
  std::vector<std::string> status_lines();
  // Every rank's posted receives and unmatched messages, collated (:queue).
  std::vector<std::string> queue_lines();
  // Tracing (:trace, core/base/trace.hpp): "on", "off" or "clear" on every live rank.
  // Tracing stays on across :restart.
  void trace_action(const std::string& action);
  bool tracing() const { return tracing_; }
  // Every live rank's trace (the last command's events): rank -> its Trace reply.
  std::map<int, launcher::ControlMsg> collect_trace();
  // --check at the REPL (:check on|off): tells every live rank.
  void set_check(bool on);
  bool checking() const { return opts_.check; }
  // What the checks found so far (deadlocks here, mismatches the ranks reported).
  const CheckReport& check_report() const { return report_; }
  // Shows what happened while no command ran (deaths, late output).
  void drain();
  // Stops the world; returns the exit status of API.md §11 for its ranks.
  int shutdown();

  // Called for Event messages with their fields (used by lumpi test).
  std::function<void(int rank, const std::vector<std::string>& fields)> on_event;
  // Called once a command has been running for `hang_after` seconds, with
  // the status lines; the default prints them.
  std::function<void(const std::vector<std::string>&)> on_hang;
  double hang_after = 2.0;
  // > 0: the hang report is taken again every `hang_repeat` seconds while
  // the command still runs, and shown again only when it changed (a rank
  // moved on, died, or blocks elsewhere).
  double hang_repeat = 2.0;
  // When set, receives every line the Session would print on stdout
  // instead: a rank's output (rank >= 0, text without the "[r] " prefix)
  // and the Session's own notices (rank -1). The Jupyter kernel sets it.
  std::function<void(int rank, const std::string& text)> on_output;
  // Polled while a command runs: a non-empty answer interrupts the command
  // with that message (lumpi test's per-case timeout).
  std::function<std::string()> check_deadline;
  // Called when a deadline strikes, before the interrupt, with what every
  // rank of the command was doing (as ":status" shows it).
  std::function<void(const std::vector<std::string>&)> on_deadline_status;
  // Called when a deadlock is found (with its report's lines), before the
  // command is interrupted for it (Options::stop_on_deadlock).
  std::function<void(const std::vector<std::string>&)> on_deadlock;
  // Polled while a command runs: true when the user asked for ":status"
  // meanwhile (the REPL reads type-ahead from the terminal).
  std::function<bool()> poll_input;
  // Polled likewise: true when the user asked for ":queue" meanwhile.
  std::function<bool()> poll_queue;

 private:
  struct Run;  // one command in flight (session.cpp)
  enum class Poll { None, Hang, User, Deadline, Queue, Deadlock };

  void start();
  int first_alive() const;
  // The steps of run().
  int send_command(Run& run, const std::vector<int>& ranks, const launcher::ControlMsg& exec);
  void on_sigint(Run& run);
  void check_limits(Run& run, double elapsed);
  void ask_status(Run& run, Poll kind, double elapsed);
  void finish_poll(Run& run, double elapsed);
  void watch_deadlock(Run& run, double elapsed);
  void fail_stuck_waits(Run& run);
  void drop_leftovers_after_error(const Run& run);
  void send_interrupt(uint32_t epoch, const std::set<int>& deadlocked);
  void finish_deadlock_poll(Run& run, double elapsed);
  void interrupt(Run& run, const std::string& why);
  static std::map<int, RankView> confirmed(std::map<int, RankView> views, const Run& run, bool snapshot_ok);
  std::map<int, RankView> views_of(const Run& run, bool answers = true) const;
  std::vector<std::string> queue_collated(const std::map<int, launcher::ControlMsg>& statuses) const;
  void on_event_during(Run& run, const launcher::World::Event& ev);
  void show_report(int rank, const launcher::ControlMsg& m);
  // Output and deaths that may come at any time; true if ev was one.
  bool show_background(const launcher::World::Event& ev);
  void report_death(int rank);
  void ask_rank_status(int r);
  std::optional<launcher::World::Event> next_event(int timeout_ms);
  bool all_answered() const;
  void abort_world(int rank, const std::string& message);
  void print_line(const std::string& line) const;
  void print_output(int rank, const std::string& text) const;
  void print_lines(const std::vector<std::string>& lines, FILE* f) const;

  Options opts_;
  std::unique_ptr<launcher::World> world_;
  uint32_t epoch_ = 0;
  int worst_exit_ = 0;
  bool tracing_ = false;
  bool hang_shown_ = false;  // this command's hang report was shown once already
  // Ranks this Session killed because another rank called MPI_Abort: their
  // signal is not the job's exit status, the abort's error code is.
  std::vector<bool> killed_for_abort_;
  CheckReport report_;
  std::vector<int> unanswered_;  // per rank: status questions not answered yet
};

inline constexpr const char* kWorldStopped = "the world has stopped; :restart starts a new one";

// "2", "0.5": a number of seconds as the user wrote it.
std::string seconds_text(double s);

// Ctrl-C: the handler only counts; the Session reads the count.
void install_sigint_handler();
int sigint_count();
void reset_sigint();

}  // namespace lumpi::repl
