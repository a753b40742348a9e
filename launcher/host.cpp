// launcher/host.cpp: the rank host: joining, the control channel, the
// command loop, output forwarding, finish and abort.
#include "launcher/host.hpp"

#include <charconv>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <sys/prctl.h>
#include <unistd.h>

#include "core/hw.hpp"
#include "core/transport.hpp"
#include "launcher/clock.hpp"

namespace lumpi::launcher {
namespace {

std::unique_ptr<Host> g_host;  // one per process
bool g_finished = false;

const char* env_or_throw(const char* name) {
  const char* v = std::getenv(name);
  if (!v) throw std::runtime_error(std::string(name) + " is not set (start this program with lumpi exec)");
  return v;
}

int env_int(const char* name, int lo, int hi) {
  std::string s = env_or_throw(name);
  int v = -1;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < lo || v > hi)
    throw std::runtime_error(std::string(name) + " is not a number from " + std::to_string(lo) + " to " +
                             std::to_string(hi) + ": '" + s + "'");
  return v;
}

// --bind LEVEL (passed as LUMPI_BIND): rank r takes object r mod count of
// that level, so ranks spread over the machine before they wrap around.
// A binding the machine cannot give is reported and skipped, never fatal.
void bind_from_env(int rank) {
  const char* level_name = std::getenv(kEnvBind);
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

// ---- joining ------------------------------------------------------------------------------

Host& Host::join() {
  if (g_finished) throw std::runtime_error("this rank has already finished (Host::finish)");
  if (!g_host) g_host.reset(new Host());
  return *g_host;
}

bool Host::joined() { return g_host != nullptr; }
bool Host::finished() { return g_finished; }

Host::Host() {
  rank_ = env_int(kEnvRank, 0, (1 << 24) - 1);
  size_ = env_int(kEnvSize, rank_ + 1, 1 << 24);
  std::string control = env_or_throw(kEnvControl);
  std::string dir = env_or_throw(kEnvDir);
  // Die with the coordinator, even if it is SIGKILLed.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (const char* parent = std::getenv(kEnvParent))
    if (getppid() != std::atoi(parent)) std::_Exit(0);  // it died before prctl took effect
  signal(SIGINT, SIG_IGN);  // Ctrl-C belongs to the coordinator, which interrupts us
  bind_from_env(rank_);     // before any thread starts, so ZeroMQ's threads inherit it

  engine_ = std::make_unique<core::Engine>(rank_, size_, "ipc://" + dir + "/rank-" + std::to_string(rank_));
  control_ = std::make_unique<zmq::socket_t>(engine_->transport().context(), zmq::socket_type::dealer);
  control_->set(zmq::sockopt::routing_id, "rank-" + std::to_string(rank_));
  control_->set(zmq::sockopt::linger, 1000);
  control_->set(zmq::sockopt::sndhwm, 0);
  control_->set(zmq::sockopt::rcvhwm, 0);
  control_->connect(control);
  ControlMsg hello = msg(Kind::Hello);
  hello.rank = rank_;
  hello.pid = long(getpid());
  hello.text = core::hw::hostname();
  hello.endpoint = engine_->endpoint();
  send(hello);
  wire();
  world_ = core::Comm::world(*engine_);
  self_ = core::Comm::self(*engine_);
  running_ = true;  // a joined program runs until it finishes; serve() says otherwise
}

// Waits for the endpoint table (malformed control messages before it are
// dropped). Without a time limit: the coordinator bounds the start-up (the
// REPL's 15 s, lumpi exec's timeout; slow ranks may join late under exec),
// and kills us when it gives up or goes.
void Host::wire() {
  for (;;) {
    std::string why;
    auto m = decode(recv_frames(*control_, true), &why);
    if (!m) {
      log_dropped("lumpi-rank " + std::to_string(rank_), why);
      continue;
    }
    if (m->kind == Kind::Quit) std::_Exit(0);
    if (m->kind != Kind::Start) continue;  // nothing else is meaningful before it
    if (int(m->list.size()) != size_) throw std::runtime_error("endpoint table of the wrong size");
    engine_->set_peer_endpoints(std::move(m->list));
    engine_->transport().watch(*control_, [this] { poll_control(); });
    return;
  }
}

Host::~Host() {
  if (control_) control_->close();
  world_.reset();
  self_.reset();
  engine_.reset();
}

int Host::finish(int code) {
  flush_output();
  ControlMsg m = msg(Kind::Finished);
  m.code = code;
  send(m);
  await_quit(5000);
  world_.reset();
  self_.reset();
  control_->close();  // lingers until the notice and the output are out
  control_.reset();
  engine_.reset();  // lingers until queued data messages are out
  g_finished = true;
  return code;
}

// After finished: the coordinator answers quit once it knows, so that our
// exit cannot reach it first and be taken for a death. Status queries
// meanwhile are answered; a coordinator that is gone costs timeout_ms.
void Host::await_quit(int timeout_ms) {
  running_ = false;
  int64_t deadline = now_ms() + timeout_ms;
  while (now_ms() < deadline) {
    zmq::pollitem_t item{control_->handle(), 0, ZMQ_POLLIN, 0};
    if (zmq::poll(&item, 1, std::chrono::milliseconds(50)) == 0) continue;
    std::string why;
    auto m = decode(recv_frames(*control_, true), &why);
    if (!m) {
      log_dropped("lumpi-rank " + std::to_string(rank_), why);
      continue;
    }
    if (m->kind == Kind::Quit) return;
    if (m->kind == Kind::StatusQuery) {
      ControlMsg st = text_msg(Kind::Status, "finishing");
      st.state = RankState::Finishing;
      send(st);
    }
  }
}

void Host::abort(int code, const std::string& why) {
  flush_output();
  ControlMsg m = text_msg(Kind::Abort, why);
  m.code = code;
  send(m);
  exit_now(code ? code : 1);
}

void Host::exit_now(int code) {
  flush_output();
  if (control_) control_->close();  // lingers until queued output (and an abort notice) is out
  engine_.reset();                  // lingers until queued data messages are out
  std::_Exit(code);
}

void Host::send(const ControlMsg& m) { send_frames(*control_, encode(m)); }

// ---- output -------------------------------------------------------------------------------

void Host::write_output(std::string_view text) {
  out_buf_.append(text);
  size_t nl;
  while ((nl = out_buf_.find('\n')) != std::string::npos) {
    send(text_msg(Kind::Output, out_buf_.substr(0, nl)));
    out_buf_.erase(0, nl + 1);
  }
}

void Host::flush_output() {
  if (out_buf_.empty() || !control_) return;
  send(text_msg(Kind::Output, out_buf_));
  out_buf_.clear();
}

void Host::send_event(std::vector<std::string> fields) {
  flush_output();  // keep the order of prints and events
  if (engine_->tracing() && fields.size() >= 2 && fields[0] == "begin") {  // lumpi test --trace: cases apart
    core::TraceEvent t;
    t.kind = core::TraceEvent::Kind::Mark;
    t.call = "case " + fields[1];
    engine_->trace(std::move(t));
  }
  ControlMsg m = msg(Kind::Event);
  m.list = std::move(fields);
  send(m);
}

// ---- control ------------------------------------------------------------------------------

bool Host::interrupt_pending() const { return engine_->interrupted(); }

void Host::poll_control() {
  for (;;) {
    Frames f = recv_frames(*control_, false);
    if (f.empty()) return;
    std::string why;
    auto m = decode(f, &why);
    if (!m) {
      log_dropped("lumpi-rank " + std::to_string(rank_), why);
      continue;
    }
    switch (m->kind) {
      case Kind::Exec: queue_.push_back(std::move(*m)); break;
      case Kind::Interrupt: on_interrupt(m->epoch); break;
      case Kind::StatusQuery: answer_status(); break;
      case Kind::TreeQuery: answer_tree(m->list); break;
      case Kind::TraceQuery: on_trace(m->text); break;
      case Kind::Dead:
        if (m->rank < size_) engine_->mark_dead(m->rank);
        break;
      case Kind::Quit:
        quit_ = true;
        if (running_ && serving_) {  // nobody waits for this command any more
          flush_output();
          control_->close();
          std::_Exit(0);
        }
        break;
      default:
        log_dropped("lumpi-rank " + std::to_string(rank_),
                    std::string(kind_name(m->kind)) + " is not a message for a rank");
    }
  }
}

void Host::on_interrupt(uint32_t e) {
  // A command not started yet is dropped, with an answer.
  for (auto it = queue_.begin(); it != queue_.end();) {
    if (it->epoch != e) {
      ++it;
      continue;
    }
    ControlMsg r = text_msg(Kind::Result, "LUMPI_ERR_INTERRUPTED in lumpi: interrupted before it started");
    r.epoch = e;
    send(r);
    it = queue_.erase(it);
  }
  discard_ = e;
  if (running_ && e == epoch_) engine_->interrupt();
  else finish_interrupt();
}

void Host::finish_interrupt() {
  if (!discard_) return;
  engine_->discard_epoch(*discard_);
  discard_.reset();
}

// At most this many queue entries go with a status reply (:queue shows the oldest).
constexpr size_t kMaxQueueEntries = 1000;

// The text as before, the state, the blocked call's structured wait and
// the message queues (launcher/protocol.hpp's WaitInfo and QueueEntry).
void Host::answer_status() {
  const core::Waiting* w = running_ ? engine_->blocked() : nullptr;
  ControlMsg m = text_msg(Kind::Status, !running_ ? "idle" : w ? w->describe() : busy_text_);
  m.state = !running_ ? RankState::Idle : w ? RankState::Blocked : RankState::Running;
  if (w) {
    m.wait.call = w->call;
    m.wait.comm = w->comm;
    m.wait.context = w->context;
    m.wait.has_tag = w->has_tag;
    m.wait.tag = w->tag;
    m.wait.any = w->any;
    m.wait.waits = w->needs;
    m.wait.group = w->group;
  }
  for (const core::QueueItem& q : engine_->matcher().snapshot()) {
    if (m.queue.size() == kMaxQueueEntries) break;  // a flood must not make every status reply huge
    m.queue.push_back({q.posted, q.source, q.tag, q.context, q.bytes, engine_->context_name(q.context / 4)});
  }
  send(m);
}

// "rank=cpuset" entries -> the machine's tree with those ranks placed (:hw).
void Host::answer_tree(const std::vector<std::string>& list) {
  std::map<int, std::string> cpusets;
  for (const auto& item : list) {
    size_t eq = item.find('=');
    int r = -1;
    auto [end, ec] = std::from_chars(item.data(), item.data() + std::min(eq, item.size()), r);
    if (eq == std::string::npos || ec != std::errc() || end != item.data() + eq || r < 0) {
      log_dropped("lumpi-rank " + std::to_string(rank_), "tree? entry '" + item.substr(0, 40) + "'");
      continue;
    }
    cpusets[r] = item.substr(eq + 1);
  }
  std::string text;
  try {
    text = core::hw::tree_text(cpusets);
  } catch (const std::exception& e) {
    text = std::string("no hardware tree: ") + e.what() + "\n";
  }
  send(text_msg(Kind::Tree, text));
}

// trace? on|off|clear|get (launcher/README.md): the engine's Tracer.
void Host::on_trace(const std::string& action) {
  core::Tracer& t = engine_->tracer();
  if (action == "on") t.set_on(true);
  if (action == "off") t.set_on(false);
  if (action == "clear") t.clear();
  if (action != "get") return;
  ControlMsg m = msg(Kind::Trace);
  m.dropped = t.dropped();
  for (const core::TraceEvent& e : t.events())
    m.trace.push_back({core::trace_kind_name(e.kind), e.clock, (long long)e.wall_ns, e.peer, e.tag, e.context, e.msg,
                       e.bytes, e.call, e.comm});
  send(m);
}

// ---- commands -----------------------------------------------------------------------------

int Host::serve(CommandRunner& runner) {
  serving_ = true;
  running_ = false;
  while (!quit_) {
    if (queue_.empty()) {
      engine_->progress(1000);  // runs poll_control when the coordinator speaks
      continue;
    }
    ControlMsg exec = std::move(queue_.front());
    queue_.pop_front();
    run_command(runner, exec);
  }
  runner.shutdown();
  flush_output();
  return 0;
}

void Host::run_command(CommandRunner& runner, const ControlMsg& exec) {
  epoch_ = exec.epoch;
  engine_->begin_command(epoch_);
  // The trace is the last command's; the REPL's own queries (text, check) leave it alone.
  bool user_command = exec.mode == Mode::Repl || exec.mode == Mode::Script;
  if (user_command && engine_->tracer().enabled()) engine_->tracer().clear();
  engine_->tracer().set_paused(!user_command);
  running_ = true;
  CommandResult res = runner.run(exec);
  running_ = false;
  engine_->tracer().set_paused(false);
  flush_output();
  finish_interrupt();
  ControlMsg r = text_msg(Kind::Result, std::move(res.text));
  r.epoch = exec.epoch;
  r.ok = res.ok;
  r.incomplete = !res.ok && res.incomplete;
  r.values = res.values;
  send(r);
}

}  // namespace lumpi::launcher
