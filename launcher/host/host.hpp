// launcher/host/host.hpp: the rank host: what every rank process of a lumpi
// world runs in, whatever its program.
//
// The host owns the rank's core engine and its control channel to the
// coordinator. It joins the world (hello, endpoint table), answers status
// queries with where the program waits, turns interrupts and peer deaths
// into failed MPI waits, forwards what the program prints (when the program
// prints through it), and reports an MPI_Abort or a normal finish. It
// knows no Lua: the program is either
//   - a command runner (lumpi-rank's Lua interpreter, launcher/host/lua_rank.cpp)
//     that the host feeds the coordinator's commands through serve(), or
//   - a plain C or C++ program linked against the core and this host,
//     started by `lumpi exec`: it calls Host::join() once (MPI_Init),
//     communicates on world(), and calls finish() (MPI_Finalize).
// Either way, control messages are handled whenever the program is inside
// an MPI wait (the engine's watch callback) or calls poll_control(), so a
// program blocked in MPI_Recv still answers :status and Ctrl-C.
//
// Needs the core; never Lua, never the coordinator's World.
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/comm/comm.hpp"
#include "core/engine/engine.hpp"
#include "launcher/protocol/curve.hpp"
#include "launcher/protocol/heartbeat.hpp"
#include "launcher/protocol/protocol.hpp"

namespace lumpi::launcher {

// What a command runner gives back for one Exec.
struct CommandResult {
  bool ok = true;
  std::string text;         // rendered values, or the error message
  bool values = false;      // the command returned values
  bool incomplete = false;  // (with !ok) a Repl chunk that ended too early; nothing ran
};

// A program that runs the coordinator's commands (the Lua interpreter).
class CommandRunner {
 public:
  virtual ~CommandRunner() = default;
  // Runs one Exec (mode, payload, args). The host has begun the command's
  // epoch; the runner calls poll_control() now and then when it runs long
  // outside MPI calls, and stops early once interrupt_pending().
  virtual CommandResult run(const ControlMsg& exec) = 0;
  // Called once when serve() ends (the coordinator said quit), while the
  // world is still wired: the program's finalize (MPI-3.1 §8.7.1).
  virtual void shutdown() {}
};

class Host {
 public:
  // The entry for programs: joins the world this process was started in
  // (reads LUMPI_RANK, LUMPI_SIZE, LUMPI_CONTROL, LUMPI_DIR, LUMPI_BIND from
  // the environment that World sets; or, started by a launcher, the job file
  // LUMPI_JOIN names and the rank the launcher's environment gives:
  // OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK, SLURM_PROCID), binds the process if --bind asked,
  // says hello, waits for the endpoint table and wires the data plane.
  // Returns the process's one Host; later calls return the same one.
  // Blocks until every rank of the world has joined (the coordinator bounds
  // that wait). Throws std::runtime_error when the process was not started
  // by lumpi (LUMPI_* missing or malformed), or after finish().
  static Host& join();
  // MPI_Initialized / MPI_Finalized: has join() succeeded; has finish() run.
  static bool joined();
  static bool finished();
  ~Host();
  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  core::Engine& engine() { return *engine_; }
  const core::CommPtr& world() const { return world_; }
  const core::CommPtr& self() const { return self_; }

  // Ends the program's part (MPI_Finalize): tells the coordinator this rank
  // finished normally with `code` (so its exit is nobody's failure),
  // delivers queued output and data messages, closes the channel and the
  // engine. Returns code, for `return host.finish(0);` at the end of main.
  // engine(), world() and self() must not be used afterwards.
  int finish(int code);
  // MPI_Abort: reports (code, why) to the coordinator, which stops the
  // other ranks, and exits with code (1 if code is 0).
  [[noreturn]] void abort(int code, const std::string& why);
  // Exits now with `code` once queued output and messages are out.
  [[noreturn]] void exit_now(int code);

  // ---- for command runners ----
  // Runs the coordinator's commands in order through `runner` until told to
  // quit; returns the process exit code.
  int serve(CommandRunner& runner);
  // Handles every control message waiting (interrupts, status queries,
  // deaths, queued commands). Cheap when none is.
  void poll_control();
  bool interrupt_pending() const;
  // What :status shows while the program runs outside an MPI wait.
  void set_busy_text(std::string text) { busy_text_ = std::move(text); }
  // Output streamed to the coordinator line by line (Lua's print).
  void write_output(std::string_view text);
  void flush_output();
  // A structured event for the coordinator (lumpi test), after the output so far.
  void send_event(std::vector<std::string> fields);

 private:
  Host();
  void join_remote(const char* join_file);
  void start_singleton();
  void remove_singleton_dir();
  void open_control(const std::string& identity);
  void say_hello();
  static void report_bad_rank(const JoinInfo& j);
  void stop_threads();
  void send_bye(int code);
  void send(const ControlMsg& m);
  void wire();
  void on_interrupt(uint32_t epoch, bool deadlocked);
  void on_fail(const ControlMsg& m);
  void answer_status();
  ControlMsg status_of(Kind kind, const core::Waiting* w) const;
  ControlMsg finishing_status(Kind kind) const;
  void answer_tree(const std::vector<std::string>& list);
  void on_trace(const std::string& action);
  void run_command(CommandRunner& runner, const ControlMsg& exec);
  void finish_interrupt();
  void await_quit(int timeout_ms);

  int rank_ = 0, size_ = 0;
  bool remote_ = false;  // joined over tcp (a launcher started us)
  std::string singleton_dir_;  // a world of one started without lumpi: its private ipc directory
  std::unique_ptr<core::Engine> engine_;
  std::unique_ptr<ZapHandler> zap_;     // remote: admits only the job's key to our data socket
  std::unique_ptr<BeatClient> beat_;    // remote: our heartbeat; exits when the coordinator is gone
  std::unique_ptr<zmq::socket_t> control_;
  core::CommPtr world_, self_;
  std::deque<ControlMsg> queue_;  // commands not started yet
  std::string out_buf_;
  std::string busy_text_ = "running outside MPI calls";
  bool serving_ = false;  // serve() runs: "idle" between commands
  bool running_ = false;  // a command (or a joined program) runs
  bool quit_ = false;
  uint32_t epoch_ = 0;
  std::optional<uint32_t> discard_;  // an interrupted epoch to clean up after
};

}  // namespace lumpi::launcher
