// launcher/rank.hpp: one rank process: its Lua state, its core runtime, and
// the loop that runs the coordinator's commands in order.
//
// Between commands the rank waits on the control channel (and keeps taking
// in data messages). While a command runs, every blocking MPI call and,
// every few thousand Lua instructions, a hook watch the control channel, so
// an interrupt, a status query or a peer's death is handled at once.
#pragma once

#include <deque>
#include <lua.hpp>
#include <memory>
#include <optional>
#include <string>

#include "core/comm.hpp"
#include "core/engine.hpp"
#include "launcher/control.hpp"
#include "lua/binding.hpp"

namespace lumpi::launcher {

class Rank {
 public:
  // Reads LUMPI_* from the environment, connects and wires the data plane.
  Rank();
  ~Rank();
  // Runs commands until told to quit; returns the process exit code.
  int run();

  // Output of print/io.write: complete lines are streamed to the coordinator.
  void write_output(std::string_view text);
  void flush_output();
  // Sends a control message to the coordinator (events from lumpi.host).
  void send_control(const Frames& f);
  // Handles every control message waiting; from the idle loop, the engine's
  // waits and the Lua hook.
  void on_control();
  bool interrupt_pending() const;
  [[noreturn]] void abort(int code, const std::string& why);
  // Ends the process with `code` once queued output and messages are out
  // (os.exit); closes the Lua state first when asked, as os.exit(c, true).
  [[noreturn]] void exit_now(int code, bool close_lua);

 private:
  void execute(const Frames& exec);
  void finish_interrupt();
  void send(const Frames& f);
  void open_lua();

  int rank_ = 0, size_ = 0;
  std::unique_ptr<core::Engine> engine_;
  std::unique_ptr<zmq::socket_t> control_;
  lua::Runtime rt_;
  lua_State* L_ = nullptr;
  std::deque<Frames> queue_;
  std::string out_buf_;
  bool running_ = false;
  bool quit_ = false;
  uint32_t epoch_ = 0;
  std::optional<uint32_t> discard_;  // an interrupted epoch to clean up after
};

}  // namespace lumpi::launcher
