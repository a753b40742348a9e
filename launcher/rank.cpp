// launcher/rank.cpp: the rank process's command loop, output streaming and
// control handling.
#include "launcher/rank.hpp"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <sys/prctl.h>
#include <unistd.h>

#include "core/error.hpp"
#include "core/hw.hpp"
#include "core/transport.hpp"
#include "lua/module.hpp"

namespace lumpi::launcher {
namespace {

Rank* g_rank = nullptr;  // one rank per process; used by the C callbacks below

const char* env_or_throw(const char* name) {
  const char* v = std::getenv(name);
  if (!v) throw std::runtime_error(std::string(name) + " is not set (lumpi-rank is started by lumpi)");
  return v;
}

std::string hostname() {
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  return host;
}

// ---- Lua callbacks ------------------------------------------------------------

// print(...): like Lua's, but the line goes to the coordinator.
int l_print(lua_State* L) {
  int n = lua_gettop(L);
  std::string line;
  for (int i = 1; i <= n; ++i) {
    size_t len;
    const char* s = luaL_tolstring(L, i, &len);  // push tostring(arg i)
    if (i > 1) line += '\t';
    line.append(s, len);
    lua_pop(L, 1);
  }
  line += '\n';
  g_rank->write_output(line);
  return 0;
}

// io.write(...): strings and numbers, streamed line by line.
int l_io_write(lua_State* L) {
  int n = lua_gettop(L);
  std::string text;
  for (int i = 1; i <= n; ++i) {
    size_t len;
    const char* s = luaL_checklstring(L, i, &len);
    text.append(s, len);
  }
  g_rank->write_output(text);
  lua_getglobal(L, "io");
  lua_getfield(L, -1, "stdout");  // io.write returns the default output file
  return 1;
}

// os.exit([code [, close]]) as Lua's, except that what the rank printed or
// sent is delivered first: a bare exit() drops libzmq's queues.
int l_os_exit(lua_State* L) {
  int code = lua_isboolean(L, 1) ? (lua_toboolean(L, 1) ? EXIT_SUCCESS : EXIT_FAILURE)
                                 : int(luaL_optinteger(L, 1, EXIT_SUCCESS));
  g_rank->exit_now(code, lua_toboolean(L, 2));
}

// Every few thousand instructions: look at the control channel, and unwind
// the command if it was interrupted. Raising from a hook is allowed.
void interrupt_hook(lua_State* L, lua_Debug*) {
  g_rank->on_control();
  if (!g_rank->interrupt_pending()) return;
  lumpi::lua::push_error(L, core::Error(core::ErrClass::Interrupted, "lumpi",
                                        "interrupted while running Lua code"));
  lua_error(L);
}

// Pushes render.values, compiled once per rank and kept in the registry:
// compiling the module costs ~90 µs, more than all the rest of a REPL round
// trip on a rank (tests/bench/README.md).
void push_render_values(lua_State* L) {
  if (lua_getfield(L, LUA_REGISTRYINDEX, "lumpi.render.values") == LUA_TFUNCTION) return;
  lua_pop(L, 1);
  lumpi::lua::load_embedded(L, "render");  // push chunk
  lua_call(L, 0, 1);                       // push the render module
  lua_getfield(L, -1, "values");           // push render.values
  lua_remove(L, -2);
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, "lumpi.render.values");
}

// Message handler of the command's pcall: keeps error objects, adds nothing.
int message_handler(lua_State*) { return 1; }

// lumpi.host.event(kind, fields...): a structured message to the coordinator.
int l_event(lua_State* L) {
  Frames f{"event"};
  for (int i = 1; i <= lua_gettop(L); ++i) {
    size_t len;
    const char* s = luaL_tolstring(L, i, &len);  // push tostring(arg i)
    f.emplace_back(s, len);
    lua_pop(L, 1);
  }
  g_rank->flush_output();  // keep the order of prints and events
  g_rank->send_control(f);
  return 0;
}

int open_host(lua_State* L) {
  lua_newtable(L);
  lua_pushcfunction(L, l_event);
  lua_setfield(L, -2, "event");
  return 1;
}

void runtime_abort(int code, const std::string& why) { g_rank->abort(code, why); }

// --bind LEVEL (passed as LUMPI_BIND): rank r takes object r mod count of
// that level, so ranks spread over the machine before they wrap around.
// A binding the machine cannot give is reported and skipped, never fatal.
void bind_from_env(int rank) {
  const char* level_name = std::getenv("LUMPI_BIND");
  if (!level_name || !*level_name || std::string(level_name) == "none") return;
  try {
    auto level = core::hw::parse_level(level_name);
    if (!level) throw std::runtime_error(std::string("unknown --bind level ") + level_name);
    int n = core::hw::count(*level);
    if (n < 1) throw std::runtime_error(std::string("this machine has no ") + level_name + " objects");
    core::hw::bind(*level, rank % n, "--bind");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lumpi-rank %d: not bound: %s\n", rank, e.what());
  }
}

}  // namespace

// ---- set-up and tear-down ----------------------------------------------------------

Rank::Rank() {
  rank_ = std::atoi(env_or_throw(kEnvRank));
  size_ = std::atoi(env_or_throw(kEnvSize));
  std::string control = env_or_throw(kEnvControl);
  std::string dir = env_or_throw(kEnvDir);
  // Die with the coordinator, even if it is SIGKILLed.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (const char* parent = std::getenv("LUMPI_PARENT"))
    if (getppid() != std::atoi(parent)) std::_Exit(0);  // it died before prctl took effect
  signal(SIGINT, SIG_IGN);
  g_rank = this;
  bind_from_env(rank_);  // before any thread starts, so ZeroMQ's threads inherit it

  engine_ = std::make_unique<core::Engine>(rank_, size_, "ipc://" + dir + "/rank-" + std::to_string(rank_));
  control_ = std::make_unique<zmq::socket_t>(engine_->transport().context(), zmq::socket_type::dealer);
  control_->set(zmq::sockopt::routing_id, "rank-" + std::to_string(rank_));
  control_->set(zmq::sockopt::linger, 1000);
  control_->set(zmq::sockopt::sndhwm, 0);
  control_->set(zmq::sockopt::rcvhwm, 0);
  control_->connect(control);
  send({"hello", std::to_string(rank_), std::to_string(getpid()), hostname(), engine_->endpoint()});

  zmq::pollitem_t item{control_->handle(), 0, ZMQ_POLLIN, 0};
  if (zmq::poll(&item, 1, std::chrono::milliseconds(20000)) == 0)
    throw std::runtime_error("no start message from the coordinator");
  Frames start = recv_frames(*control_, true);
  if (start.size() != 2 || start[0] != "start") throw std::runtime_error("bad start message");
  std::vector<std::string> table;
  size_t pos = 0;
  for (size_t nl; (nl = start[1].find('\n', pos)) != std::string::npos; pos = nl + 1)
    table.push_back(start[1].substr(pos, nl - pos));
  if (int(table.size()) != size_) throw std::runtime_error("endpoint table of the wrong size");
  engine_->set_peer_endpoints(std::move(table));
  engine_->transport().watch(*control_, [this] { on_control(); });

  rt_.engine = engine_.get();
  rt_.world = core::Comm::world(*engine_);
  rt_.self = core::Comm::self(*engine_);
  rt_.abort = runtime_abort;
  open_lua();
}

Rank::~Rank() {
  if (L_) lua_close(L_);
  control_->close();
  engine_.reset();
}

void Rank::open_lua() {
  L_ = luaL_newstate();
  // Generational GC: a received value is usually garbage by the next
  // message, and minor collections hand its memory back while still in
  // cache. The incremental default lets garbage pile up to the size of the
  // live heap first; with a few MiB live, a 64 KiB ping-pong ran 10-25 %
  // slower (tests/bench/README.md).
  lua_gc(L_, LUA_GCGEN, 0, 0);
  luaL_openlibs(L_);
  lua::open_mpi(L_, &rt_);
  lua_register(L_, "print", l_print);
  lua_getglobal(L_, "io");
  lua_pushcfunction(L_, l_io_write);
  lua_setfield(L_, -2, "write");  // io.write = ours, pop
  lua_pop(L_, 1);
  lua_getglobal(L_, "os");
  lua_pushcfunction(L_, l_os_exit);
  lua_setfield(L_, -2, "exit");  // os.exit = ours, pop
  lua_pop(L_, 1);
  luaL_getsubtable(L_, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);  // push package.preload
  lua_pushcfunction(L_, open_host);
  lua_setfield(L_, -2, "lumpi.host");
  lua_pop(L_, 1);
  lua_sethook(L_, interrupt_hook, LUA_MASKCOUNT, 20000);
}

void Rank::send(const Frames& f) { send_frames(*control_, f); }
void Rank::send_control(const Frames& f) { send(f); }

void Rank::abort(int code, const std::string& why) {
  flush_output();
  send({"abort", std::to_string(code), why});
  exit_now(code ? code : 1, true);
}

void Rank::exit_now(int code, bool close_lua) {
  flush_output();
  if (close_lua && L_) lua_close(L_);
  L_ = nullptr;
  control_->close();  // lingers until queued output (and an abort notice) is out
  engine_.reset();    // lingers until queued data messages are out
  std::_Exit(code);
}

// ---- output ---------------------------------------------------------------------------

void Rank::write_output(std::string_view text) {
  out_buf_.append(text);
  size_t nl;
  while ((nl = out_buf_.find('\n')) != std::string::npos) {
    send({"output", out_buf_.substr(0, nl)});
    out_buf_.erase(0, nl + 1);
  }
}

void Rank::flush_output() {
  if (out_buf_.empty()) return;
  send({"output", out_buf_});
  out_buf_.clear();
}

// ---- control ----------------------------------------------------------------------------

bool Rank::interrupt_pending() const { return engine_->interrupted(); }

void Rank::on_control() {
  for (;;) {
    Frames f = recv_frames(*control_, false);
    if (f.empty()) return;
    const std::string& type = f[0];
    if (type == "exec" && f.size() >= 4) {
      queue_.push_back(std::move(f));
    } else if (type == "interrupt" && f.size() == 2) {
      uint32_t e = uint32_t(std::stoul(f[1]));
      // A command not started yet is dropped, with an answer.
      for (auto it = queue_.begin(); it != queue_.end();) {
        if (uint32_t(std::stoul((*it)[1])) == e) {
          send({"result", (*it)[1], "error", "LUMPI_ERR_INTERRUPTED in lumpi: interrupted before it started"});
          it = queue_.erase(it);
        } else {
          ++it;
        }
      }
      discard_ = e;
      if (running_ && e == epoch_) engine_->interrupt();
      else finish_interrupt();
    } else if (type == "status?") {
      std::string s = !running_ ? "idle" : engine_->blocked() ? engine_->blocked()->describe() : "running Lua code";
      send({"status", s});
    } else if (type == "dead" && f.size() >= 2) {
      engine_->mark_dead(std::atoi(f[1].c_str()));
    } else if (type == "quit") {
      quit_ = true;
      if (running_) {  // nobody waits for this command any more
        flush_output();
        control_->close();
        std::_Exit(0);
      }
    }
  }
}

void Rank::finish_interrupt() {
  if (!discard_) return;
  engine_->discard_epoch(*discard_);
  discard_.reset();
}

// ---- commands ---------------------------------------------------------------------------

int Rank::run() {
  while (!quit_) {
    if (queue_.empty()) {
      engine_->progress(1000);  // runs on_control when the coordinator speaks
      continue;
    }
    Frames f = std::move(queue_.front());
    queue_.pop_front();
    execute(f);
  }
  flush_output();
  return 0;
}

void Rank::execute(const Frames& exec) {
  // exec epoch mode payload [args...]
  epoch_ = uint32_t(std::stoul(exec[1]));
  const std::string& mode = exec[2];
  const std::string& payload = exec[3];
  engine_->begin_command(epoch_);
  running_ = true;
  lua_State* L = L_;
  int base = lua_gettop(L);
  lua_pushcfunction(L, message_handler);
  int nargs = 0;
  int st;
  if (mode == "script") {
    st = luaL_loadfile(L, payload.c_str());
    if (st == LUA_OK) {
      lua_createtable(L, int(exec.size()) - 4, 1);  // arg = {[0]=script, ...}
      lua_pushstring(L, payload.c_str());
      lua_rawseti(L, -2, 0);
      for (size_t i = 4; i < exec.size(); ++i) {
        lua_pushstring(L, exec[i].c_str());
        lua_rawseti(L, -2, lua_Integer(i - 3));
      }
      lua_setglobal(L, "arg");
      for (size_t i = 4; i < exec.size(); ++i) lua_pushstring(L, exec[i].c_str());
      nargs = int(exec.size()) - 4;
    }
  } else {
    std::string chunk = "=stdin";
    if (exec.size() >= 5 && mode == "call") chunk = "=" + exec[4];
    st = LUA_ERRSYNTAX;
    if (mode == "repl" || mode == "text") {
      std::string ret = "return " + payload;
      st = luaL_loadbuffer(L, ret.data(), ret.size(), chunk.c_str());
      if (st != LUA_OK) lua_pop(L, 1);
    }
    if (st != LUA_OK) st = luaL_loadbuffer(L, payload.data(), payload.size(), chunk.c_str());
  }
  if (st == LUA_OK) st = lua_pcall(L, nargs, LUA_MULTRET, base + 1);

  std::string text;
  bool ok = st == LUA_OK;
  bool has_values = false;
  if (ok) {
    int nres = lua_gettop(L) - (base + 1);
    if (nres > 0 && mode == "text") {  // the first value, as tostring shows it
      size_t len;
      const char* s = luaL_tolstring(L, base + 2, &len);  // push tostring(first result)
      text.assign(s, len);
      has_values = true;
    } else if (nres > 0 && mode == "repl") {
      push_render_values(L);
      lua_insert(L, base + 2);          // below the results
      if (lua_pcall(L, nres, 1, 0) == LUA_OK && lua_isstring(L, -1)) {
        text = lua_tostring(L, -1);
        has_values = true;
      }
    }
  } else {
    size_t len;
    const char* s = luaL_tolstring(L, -1, &len);  // honours the error object's __tostring
    text.assign(s, len);
  }
  lua_settop(L, base);
  running_ = false;
  flush_output();
  finish_interrupt();
  send({"result", exec[1], ok ? "ok" : "error", text, has_values ? "1" : "0"});
}

}  // namespace lumpi::launcher
