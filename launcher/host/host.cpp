// launcher/host/host.cpp: the rank host: joining, the control channel, the
// command loop, output forwarding, finish and abort.
#include "launcher/host/host.hpp"

#include <algorithm>
#include <charconv>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <stdexcept>
#include <sys/prctl.h>
#include <unistd.h>

#include "core/base/errhandler.hpp"
#include "core/base/log.hpp"
#include "core/base/hw.hpp"
#include "core/transport/transport.hpp"
#include "launcher/protocol/clock.hpp"
#include "launcher/protocol/curve.hpp"
#include "launcher/protocol/heartbeat.hpp"
#include "launcher/protocol/signals.hpp"

namespace lumpi::launcher {
namespace {

std::unique_ptr<Host> g_host;  // one per process
bool g_finished = false;

// The last error the program was handed, for the coordinator (empty if none).
MpiError mpi_error(const core::DeliveredError& e) {
  return e.code == 0 ? MpiError() : MpiError{e.class_name, e.call, e.message};
}

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

// The first of `names` set in the environment: its name and value.
std::optional<std::pair<const char*, int>> first_env_int(std::initializer_list<const char*> names, int lo, int hi) {
  for (const char* n : names)
    if (std::getenv(n)) return std::make_pair(n, env_int(n, lo, hi));
  return std::nullopt;
}

constexpr std::initializer_list<const char*> kRankVars = {kEnvRank, "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK",
                                                          "SLURM_PROCID"};
constexpr std::initializer_list<const char*> kSizeVars = {kEnvSize, "OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
                                                          "SLURM_NTASKS"};
constexpr std::initializer_list<const char*> kLocalVars = {kEnvLocalRank, "OMPI_COMM_WORLD_LOCAL_RANK",
                                                           "MPI_LOCALRANKID", "SLURM_LOCALID"};

// A rank started by a launcher: its rank from the launcher's environment,
// checked against the world's size (the job file's) and the launcher's own count.
int rank_from_launcher(int size) {
  auto rank = first_env_int(kRankVars, INT32_MIN, INT32_MAX);
  if (!rank)
    throw std::runtime_error("no rank in the environment (LUMPI_RANK, OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK "
                             "or SLURM_PROCID): start lumpi-rank with lumpi's --launcher");
  if (rank->second < 0 || rank->second >= size)
    throw std::runtime_error(std::string(rank->first) + "=" + std::to_string(rank->second) + " is outside the world's " +
                             std::to_string(size) + " ranks (0 to " + std::to_string(size - 1) + ")");
  if (auto n = first_env_int(kSizeVars, INT32_MIN, INT32_MAX); n && n->second != size)
    throw std::runtime_error(std::string(n->first) + "=" + std::to_string(n->second) + ", but the world has " +
                             std::to_string(size) + " ranks: the launcher started another number of processes");
  return rank->second;
}

// --bind LEVEL (passed as LUMPI_BIND): rank r takes object r mod count of
// that level, so ranks spread over the machine before they wrap around
// (across hosts r is the rank on its host, when the launcher says it).
// A binding the machine cannot give is reported and skipped, never fatal.
void bind_from_env(int rank, const char* level_name) {
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

namespace {
// The core's log lines (core/base/log.hpp), said as this rank (set once
// g_host exists; it lives until the process ends).
void log_as_rank(const std::string& line) { std::fprintf(stderr, "lumpi-rank %d: %s\n", g_host->rank(), line.c_str()); }
}  // namespace

Host& Host::join() {
  if (g_finished) throw std::runtime_error("this rank has already finished (Host::finish)");
  if (!g_host) {
    g_host.reset(new Host());
    core::set_log_sink(log_as_rank);
  }
  return *g_host;
}

bool Host::joined() { return g_host != nullptr; }
bool Host::finished() { return g_finished; }

Host::Host() {
  if (const char* join = std::getenv(kEnvJoin)) {
    join_remote(join);
    return;
  }
  if (!std::getenv(kEnvRank) && !std::getenv(kEnvControl)) {
    start_singleton();
    return;
  }
  rank_ = env_int(kEnvRank, 0, (1 << 24) - 1);
  size_ = env_int(kEnvSize, rank_ + 1, 1 << 24);
  std::string control = env_or_throw(kEnvControl);
  std::string dir = env_or_throw(kEnvDir);
  // Die with the coordinator, even if it is SIGKILLed.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (const char* parent = std::getenv(kEnvParent))
    if (getppid() != std::atoi(parent)) std::_Exit(0);  // it died before prctl took effect
  signal(SIGINT, SIG_IGN);  // Ctrl-C belongs to the coordinator, which interrupts us
  bind_from_env(rank_, std::getenv(kEnvBind));  // before any thread starts, so ZeroMQ's threads inherit it

  engine_ = std::make_unique<core::Engine>(rank_, size_, "ipc://" + dir + "/rank-" + std::to_string(rank_));
  open_control("rank-" + std::to_string(rank_));
  again_on_eintr([&] { control_->connect(control); });
  say_hello();
}

// The DEALER to the coordinator, named `identity` (its ROUTER's routing id).
void Host::open_control(const std::string& identity) {
  control_ = std::make_unique<zmq::socket_t>(engine_->transport().context(), zmq::socket_type::dealer);
  control_->set(zmq::sockopt::routing_id, identity);
  control_->set(zmq::sockopt::linger, 1000);
  control_->set(zmq::sockopt::sndhwm, 0);
  control_->set(zmq::sockopt::rcvhwm, 0);
}

// Hello to the coordinator, then the endpoint table: the world is wired.
void Host::say_hello() {
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

// MPI-3.1 §10.5.2: a program started without lumpi exec (./prog, python3
// prog.py) initialises as a world of one rank, as MPICH and Open MPI run it.
// It has its own engine on an ipc endpoint in a private directory and no
// coordinator: no control channel, so no hang report, trace or Ctrl-C
// handling (`lumpi exec -n 1 ./prog` gives those). The directory goes when
// the rank finishes or exits.
void Host::start_singleton() {
  rank_ = 0;
  size_ = 1;
  std::string tmpl = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/lumpi-singleton-XXXXXX";
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("cannot create a directory for a world of one in " + tmpl);
  singleton_dir_ = tmpl;
  engine_ = std::make_unique<core::Engine>(0, 1, "ipc://" + singleton_dir_ + "/rank-0");
  engine_->set_peer_endpoints({engine_->endpoint()});
  world_ = core::Comm::world(*engine_);
  self_ = core::Comm::self(*engine_);
  running_ = true;
}

void Host::remove_singleton_dir() {
  if (singleton_dir_.empty()) return;
  ::unlink((singleton_dir_ + "/rank-0").c_str());  // ZeroMQ's socket file, if still there
  ::rmdir(singleton_dir_.c_str());
  singleton_dir_.clear();
}

// A rank started by a launcher: the job file (LUMPI_JOIN) gives the world,
// the launcher's environment the rank. Every socket is tcp with CURVE; the
// ZAP handler on our context admits only the job's key; the heartbeat
// replaces PR_SET_PDEATHSIG (our parent is the launcher, maybe on another host).
void Host::join_remote(const char* path) {
  JoinInfo j = read_join_file(path);
  size_ = j.size;
  try {
    rank_ = rank_from_launcher(size_);
  } catch (const std::runtime_error&) {
    report_bad_rank(j);
    throw;
  }
  remote_ = true;
  signal(SIGINT, SIG_IGN);
  auto local = first_env_int(kLocalVars, 0, 1 << 24);
  bind_from_env(local ? local->second : rank_, j.bind.c_str());
  const char* addr_env = std::getenv(kEnvAddress);
  std::string addr = addr_env && *addr_env ? addr_env : address_towards(host_of_endpoint(j.control));
  std::optional<core::CurveKeys> data_keys;
  if (j.data_curve) data_keys = core::CurveKeys{j.keys.public_key, j.keys.secret_key};
  engine_ = std::make_unique<core::Engine>(rank_, size_, "tcp://" + addr + ":*", data_keys);
  zmq::context_t& ctx = engine_->transport().context();
  zap_ = std::make_unique<ZapHandler>(ctx, j.keys.public_key, "lumpi-rank " + std::to_string(rank_));
  std::string identity = "rank-" + std::to_string(rank_) + "@" + core::hw::hostname() + "/" + std::to_string(getpid());
  open_control(identity);
  curve_client(*control_, j.keys);
  again_on_eintr([&] { control_->connect(j.control); });
  beat_ = std::make_unique<BeatClient>(ctx, j.beat, j.keys, identity, rank_);
  say_hello();
}

// A rank outside the world still knocks, as "rank-N@host/pid", so the
// coordinator reports the join error at once instead of waiting for a
// world that cannot fill.
void Host::report_bad_rank(const JoinInfo& j) {
  auto rank = first_env_int(kRankVars, INT32_MIN, INT32_MAX);
  if (!rank || (rank->second >= 0 && rank->second < j.size)) return;  // a size mismatch: each rank says so itself
  zmq::context_t ctx(1);
  ZapHandler zap(ctx, j.keys.public_key, "lumpi-rank");
  zmq::socket_t s(ctx, zmq::socket_type::dealer);
  s.set(zmq::sockopt::routing_id, "rank-" + std::to_string(rank->second) + "@" + core::hw::hostname() + "/" +
                                      std::to_string(getpid()));
  s.set(zmq::sockopt::linger, 10000);  // the handshake may be slow on a loaded host
  curve_client(s, j.keys);
  again_on_eintr([&] { s.connect(j.control); });
  again_on_eintr([&] { return s.send(zmq::str_buffer("hello"), zmq::send_flags::none); });
  s.close();
  zap.stop();
}

// The threads that use our context end before it does.
void Host::stop_threads() {
  if (beat_) beat_->stop();
  if (zap_) zap_->stop();
}

// Across hosts the coordinator cannot waitpid: our exit status goes to it.
void Host::send_bye(int code) {
  if (!remote_ || !control_) return;
  ControlMsg m = msg(Kind::Bye);
  m.code = code;
  send(m);
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
    engine_->on_long_wait(kWaitNoticeMs, [this](const core::Waiting* w) { send(status_of(Kind::Wait, w)); });
    engine_->on_check_report([this](const std::string& cls, const std::string& text) {
      ControlMsg m = text_msg(Kind::Report, text);
      m.check_class = cls;
      send(m);
    });
    const char* check = std::getenv(kEnvCheck);
    engine_->set_checking(check && std::string(check) == "1");
    return;
  }
}

Host::~Host() {
  if (control_) control_->close();
  world_.reset();
  self_.reset();
  stop_threads();
  engine_.reset();
  remove_singleton_dir();
}

int Host::finish(int code) {
  engine_->disable_passive_progress();  // MPI_Finalize: no window is used any more
  flush_output();
  if (control_) {
    send(finishing_status(Kind::Wait));  // the counts (and error) a deadlock watch needs after we are gone
    ControlMsg m = msg(Kind::Finished);
    m.code = code;
    send(m);
    await_quit(5000);
  }
  world_.reset();
  self_.reset();
  if (control_) control_->close();  // lingers until the notice and the output are out
  control_.reset();
  stop_threads();
  engine_.reset();  // lingers until queued data messages are out
  remove_singleton_dir();
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
    if (again_on_eintr([&] { return zmq::poll(&item, 1, std::chrono::milliseconds(50)); }) == 0) continue;
    std::string why;
    auto m = decode(recv_frames(*control_, true), &why);
    if (!m) {
      log_dropped("lumpi-rank " + std::to_string(rank_), why);
      continue;
    }
    if (m->kind == Kind::Quit) return;
    if (m->kind == Kind::StatusQuery) send(finishing_status(Kind::Status));
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
  send_bye(code);
  if (control_) control_->close();  // lingers until queued output (and an abort notice) is out
  engine_.reset();                  // lingers until queued data messages are out
  remove_singleton_dir();
  std::_Exit(code);
}

// A send may take the wake-up of control input already waiting: the
// engine's next poll asks the socket itself (core/transport/transport.hpp).
void Host::send(const ControlMsg& m) {
  if (!control_) return;  // a world of one has nobody to tell
  send_frames(*control_, encode(m));
  if (engine_) engine_->transport().watched_used();
}

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
  while (control_) {
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
      case Kind::Interrupt: on_interrupt(m->epoch, m->code == 1); break;
      case Kind::Fail: on_fail(*m); break;
      case Kind::StatusQuery: answer_status(); break;
      case Kind::RaceQuery:
        engine_->say_stranded_races();
        answer_status();
        break;
      case Kind::TreeQuery: answer_tree(m->list); break;
      case Kind::TraceQuery: on_trace(m->text); break;
      case Kind::Check: engine_->set_checking(m->text == "on"); break;
      case Kind::Dead:
        if (m->rank < size_) engine_->mark_dead(m->rank);
        break;
      case Kind::Quit:
        quit_ = true;
        if (running_ && serving_) {  // nobody waits for this command any more
          flush_output();
          send_bye(0);
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

void Host::on_interrupt(uint32_t e, bool deadlocked) {
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
  if (running_ && e == epoch_) engine_->interrupt(deadlocked);
  else finish_interrupt();
}

// The coordinator found this rank's wait stuck for good and says which
// error it raises (MPI_ERR_OP, "rank 2 of COMM_WORLD will not take part
// ...", repl/view/deadlock.hpp wait_failures).
void Host::on_fail(const ControlMsg& m) {
  if (!running_ || m.epoch != epoch_) return;
  core::ErrClass cls = core::class_from_name(m.error.error_class);  // else Unknown
  engine_->fail_wait(m.serial, core::Error(cls, "lumpi", m.error.message));
}

void Host::finish_interrupt() {
  if (!discard_) return;
  engine_->discard_epoch(*discard_);
  discard_.reset();
}

// At most this many queue entries go with a status reply (:queue shows the oldest).
constexpr size_t kMaxQueueEntries = 1000;

// The text as before, the state, the blocked call's structured wait and
// the message queues (launcher/protocol/protocol.hpp's WaitInfo and QueueEntry).
void Host::answer_status() { send(status_of(Kind::Status, running_ ? engine_->blocked() : nullptr)); }

// A Status answer, or a Wait notice (the engine's long-wait callback: blocked
// in w, or no longer when w is null). A rank with a command queued is not
// idle: the status question can come in the same batch of control messages
// as the command, before it starts, and the deadlock watch takes an idle
// rank for one that can never act (seen under ASan: a false report).
ControlMsg Host::status_of(Kind kind, const core::Waiting* w) const {
  const bool idle = !running_ && queue_.empty();
  ControlMsg m = text_msg(kind, idle ? "idle" : !running_ ? "starting a command" : w ? w->describe() : busy_text_);
  m.state = idle ? RankState::Idle : w ? RankState::Blocked : RankState::Running;
  m.serial = engine_->wait_serial();
  m.counts = {engine_->sent_counts(), engine_->received_counts()};
  m.error = mpi_error(core::last_delivered());
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
    m.queue.push_back({q.posted, q.source, q.tag, q.context, q.bytes, engine_->context_name(core::base_of(q.context)), ""});
  }
  for (core::Engine::PendingRma& p : engine_->pending_rma()) {
    if (m.queue.size() == kMaxQueueEntries) break;
    m.queue.push_back({false, p.peer, 0, p.id * 4, -1, engine_->context_name(p.id), std::move(p.what)});
  }
  return m;
}

// The status of a rank whose program ended (lumpi exec): its last wait
// serial, its final message counts and its last MPI error.
ControlMsg Host::finishing_status(Kind kind) const {
  ControlMsg m = text_msg(kind, "finishing");
  m.state = RankState::Finishing;
  m.serial = engine_->wait_serial();
  m.counts = {engine_->sent_counts(), engine_->received_counts()};
  m.error = mpi_error(core::last_delivered());
  return m;
}

// "rank=cpuset" entries -> the machine's tree with those ranks placed (:hw).
namespace {
// :hw's text: one object per line, indented by depth, with the ranks placed
// on it; a chain of single (non-memory) children shares one line ("Package
// L#0 + Core L#0 + PU L#0"), as lstopo does.
void write_tree(const core::hw::Node& top, int depth, std::string& out) {
  std::string line(size_t(depth) * 2, ' ');
  std::vector<int> ranks;
  const core::hw::Node* n = &top;
  for (;;) {
    line += n->label;
    ranks.insert(ranks.end(), n->ranks.begin(), n->ranks.end());
    if (n->children.size() != 1 || n->children[0].memory) break;
    n = &n->children[0];
    line += " + ";
  }
  if (!ranks.empty()) {
    std::sort(ranks.begin(), ranks.end());
    line += ranks.size() == 1 ? "  <- rank " : "  <- ranks ";
    for (size_t i = 0; i < ranks.size(); ++i) line += (i ? "," : "") + std::to_string(ranks[i]);
  }
  out += line + "\n";
  for (const core::hw::Node& c : n->children) write_tree(c, depth + 1, out);
}
}  // namespace

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
    write_tree(core::hw::machine_tree(cpusets), 0, text);
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

// The host's own work is inside MPI; a command's user code is not
// (core/base/call_lock.hpp): it enters MPI through its door.
int Host::serve(CommandRunner& runner) {
  core::InMpi in_mpi;
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
  send_bye(0);
  return 0;
}

void Host::run_command(CommandRunner& runner, const ControlMsg& exec) {
  epoch_ = exec.epoch;
  engine_->begin_command(epoch_);
  // The trace is the last command's; the REPL's own queries (text, check) leave it alone.
  bool user_command = exec.mode == Mode::Repl || exec.mode == Mode::Script;
  if (user_command && engine_->tracer().enabled()) engine_->tracer().clear();
  if (user_command) core::forget_delivered();  // and so is the last MPI error a status carries
  engine_->tracer().set_paused(!user_command);
  running_ = true;
  CommandResult res;
  {
    core::OutOfMpi user_code;
    res = runner.run(exec);
  }
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
