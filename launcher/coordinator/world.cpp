// launcher/coordinator/world.cpp: starting, wiring, supervising and stopping ranks.
#include "launcher/coordinator/world.hpp"

#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

#include "launcher/protocol/clock.hpp"

namespace lumpi::launcher {

std::string describe_wait_status(int status) {
  if (status == kStatusLost) return "lost (no heartbeat for " + std::to_string(kLostMs / 1000) + " s)";
  if (WIFEXITED(status)) return "exit " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const char* abbrev = sigabbrev_np(WTERMSIG(status));  // "SEGV"
    return "signal " + std::to_string(WTERMSIG(status)) + (abbrev ? std::string(" (SIG") + abbrev + ")" : "");
  }
  return "status " + std::to_string(status);
}

int exit_code_of(int status) {
  if (status == kStatusLost) return 255;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

namespace {

std::string read_small_file(const std::string& path) {
  std::string text(512, '\0');
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  ssize_t n = read(fd, text.data(), text.size());
  close(fd);
  text.resize(n > 0 ? size_t(n) : 0);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\0')) text.pop_back();
  return text;
}

}  // namespace

World::World(const Options& opts)
    : remote_(opts.placement.remote() && opts.attach.empty()),
      check_(opts.check),
      rundir_(remote_ ? remote_job_base() : ""),
      dir_(rundir_.path()),
      ranks_(size_t(opts.size)) {
  control_.set(zmq::sockopt::linger, 0);
  control_.set(zmq::sockopt::router_mandatory, 0);
  control_.set(zmq::sockopt::sndhwm, 0);
  control_.set(zmq::sockopt::rcvhwm, 0);
  for (int r = 0; r < opts.size; ++r) ranks_[size_t(r)].identity = "rank-" + std::to_string(r);
  if (!opts.attach.empty()) {
    start_attached(opts.attach);
    return;
  }
  if (remote_) {
    start_remote(opts);
    return;
  }
  control_endpoint_ = "ipc://" + dir_ + "/control";
  control_.bind(control_endpoint_);
  if (opts.serve) serve_local(opts);
  for (int r = 0; r < opts.size; ++r) spawn(r, opts);
}

void World::wait_wired(int timeout_ms) {
  int64_t deadline = now_ms() + timeout_ms;
  while (!wired_) {
    int64_t left = deadline - now_ms();
    if (!join_error_.empty()) {
      kill_all();
      throw std::runtime_error(join_error_);
    }
    if (left <= 0 && attached_) {
      kill_all();
      throw std::runtime_error("no answer from the waiting world at " + attach_endpoint_ + " within " +
                               std::to_string(timeout_ms / 1000) + " s (is its `lumpi world` still running?)");
    }
    if (left <= 0) {
      std::string missing;
      for (int r = 0; r < size(); ++r)
        if (!ranks_[size_t(r)].joined) missing += (missing.empty() ? "" : ",") + std::to_string(r);
      std::string why = remote_ ? "ranks " + missing + " never joined; started by " + launcher_name_ : silent_ranks();
      kill_all();
      throw std::runtime_error("ranks did not start within " + std::to_string(timeout_ms / 1000) + " s (" + why + ")");
    }
    auto ev = next(int(left));
    if (ev && ev->kind == Event::Kind::Death && !join_error_.empty()) continue;  // reported above
    if (ev && ev->kind == Event::Kind::Death) {
      kill_all();
      throw std::runtime_error("rank " + std::to_string(ev->rank) + " died during start-up: " +
                               describe_wait_status(ranks_[size_t(ev->rank)].wait_status));
    }
  }
}

// "no hello from rank 2 (pid 123, state S in do_epoll_wait)": what the ranks
// that did not join are doing, read from /proc before they are killed.
std::string World::silent_ranks() const {
  std::string out;
  for (int r = 0; r < size(); ++r) {
    const RankInfo& ri = ranks_[size_t(r)];
    if (ri.joined) continue;
    std::string proc = "/proc/" + std::to_string(ri.pid) + "/";
    std::string stat = read_small_file(proc + "stat"), wchan = read_small_file(proc + "wchan");
    size_t paren = stat.rfind(") ");
    std::string state = paren == std::string::npos ? "gone" : stat.substr(paren + 2, 1);
    out += (out.empty() ? "no hello from rank " : "; rank ") + std::to_string(r) + " (pid " +
           std::to_string(ri.pid) + ", state " + state + (wchan.empty() ? "" : " in " + wchan) + ")";
  }
  return out.empty() ? "every rank said hello" : out;
}

// Once every rank has said hello, each gets the endpoint table, then the
// news of any rank that joined and has died since: news sent earlier found
// the others not yet listening for it (or not yet connected).
void World::on_hello(int r, const ControlMsg& m, const std::string& identity) {
  RankInfo& info = ranks_[size_t(r)];
  if (remote_ && info.joined && identity != info.identity) {
    join_error_ = "two processes joined as rank " + std::to_string(r) + " (on " + info.host + " pid " +
                  std::to_string(info.pid) + ", and on " + m.text + " pid " + std::to_string(m.pid) +
                  "): the launcher's environment gave the same rank twice";
    return;
  }
  if (m.rank != r || info.joined)
    return log_dropped("lumpi", "hello from rank-" + std::to_string(r) + " names rank " + std::to_string(m.rank) +
                                    (info.joined ? " again" : ""));
  info.identity = identity;
  info.joined_at = now_ms();
  if (remote_) info.pid = pid_t(m.pid);
  info.host = m.text;
  info.endpoint = m.endpoint;
  info.joined = true;
  if (++hellos_ < size()) return;
  ControlMsg start = msg(Kind::Start);
  for (const auto& ri : ranks_) start.list.push_back(ri.endpoint);
  for (int q = 0; q < size(); ++q) send(q, start);
  wired_ = true;
  for (int d = 0; d < size(); ++d)
    if (!alive(d)) announce_death(d);
}

World::~World() {
  kill_all();
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

// The host waits for this answer before it exits, so the finish is known
// here before the exit is: a finished rank's exit is never announced as a death.
void World::on_finished(int r, int code) {
  ranks_[size_t(r)].finished = true;
  send(r, msg(Kind::Quit));
  if (remote_) mark_dead(r, (code & 0xff) << 8);  // it exits next; no waitpid will tell
}

// The environment a rank starts with: ours, plus the world's variables.
// Large messages: glibc's malloc would mmap and munmap every buffer of a few
// MiB (codec, libzmq, Lua strings), paying ~1000 page faults per 4 MiB
// message; fixed thresholds keep such buffers in the heap (the 4 MiB Lua
// ping-pong made 20x fewer page faults and used 27% less CPU, see
// tests/bench/README.md). A user's own GLIBC_TUNABLES wins.
std::vector<std::string> World::rank_environment(int r, const Options& opts) const {
  std::vector<std::pair<std::string, std::string>> ours = {
      {kEnvControl, control_endpoint()}, {kEnvRank, std::to_string(r)},
      {kEnvSize, std::to_string(opts.size)}, {kEnvDir, dir_},
      {kEnvParent, std::to_string(getpid())}, {kEnvBind, opts.bind}, {kEnvCheck, opts.check ? "1" : "0"}};
  if (!std::getenv("GLIBC_TUNABLES"))
    ours.emplace_back("GLIBC_TUNABLES", "glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=67108864");
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string_view kv(*e);
    bool replaced = false;
    for (const auto& [k, v] : ours)
      replaced |= kv.size() > k.size() && kv.compare(0, k.size(), k) == 0 && kv[k.size()] == '=';
    if (!replaced) env.emplace_back(kv);
  }
  for (const auto& [k, v] : ours) env.push_back(k + "=" + v);
  return env;
}

// Everything the child needs is built before fork: ZeroMQ's threads may hold
// malloc's lock at that moment, so the child only makes async-signal-safe
// calls (no setenv, no printf) until execve.
void World::spawn(int r, const Options& opts) {
  std::vector<std::string> env = rank_environment(r, opts);
  std::vector<char*> envp, argv;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  argv.push_back(const_cast<char*>(opts.exe.c_str()));
  for (const auto& a : opts.args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::string cannot_run = "lumpi: cannot run " + opts.exe + "\n";
  bool quiet_stdin = opts.stdin_rank >= 0 && r != opts.stdin_rank;
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork: " + std::string(strerror(errno)));
  if (pid == 0) {
    signal(SIGINT, SIG_IGN);  // Ctrl-C belongs to the coordinator, which interrupts us
    if (quiet_stdin) {
      int null = open("/dev/null", O_RDONLY);
      if (null >= 0) dup2(null, 0), close(null);
    }
    execve(opts.exe.c_str(), argv.data(), envp.data());
    ssize_t ignored = write(STDERR_FILENO, cannot_run.data(), cannot_run.size());
    (void)ignored;
    _exit(127);
  }
  ranks_[size_t(r)].pid = pid;
  ranks_[size_t(r)].alive = true;
  rundir_.add_rank(pid);
}

int World::alive_count() const {
  int n = 0;
  for (const auto& r : ranks_) n += r.alive;
  return n;
}

void World::send(int r, const ControlMsg& m) {
  if (!alive(r)) return;
  if (attached_) return send_to_repl(std::to_string(r), m);  // to the world, which relays it
  send_frames(control_, encode(m, {ranks_[size_t(r)].identity}));
}

void World::announce_death(int dead) {
  ControlMsg m = msg(Kind::Dead);
  m.rank = dead;
  for (int r = 0; r < size(); ++r) send(r, m);
}

void World::kill(int r) {
  if (attached_ && alive(r)) {
    ControlMsg k = msg(Kind::Kill);
    k.rank = r;
    return send_to_repl("-", k);
  }
  if (remote_ && alive(r) && !ranks_[size_t(r)].joined) return mark_dead(r, SIGKILL);  // its launcher goes last
  if (remote_ && alive(r)) return beat_->request_kill(r);
  if (alive(r) && ranks_[size_t(r)].pid > 0) ::kill(ranks_[size_t(r)].pid, SIGKILL);
}

void World::reap() {
  for (;;) {
    int status = 0;
    pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid <= 0) return;
    if (remote_) {
      reap_launcher(pid, status);
      continue;
    }
    for (size_t r = 0; r < ranks_.size(); ++r) {
      if (ranks_[r].pid == pid && ranks_[r].alive) {
        ranks_[r].alive = false;
        ranks_[r].wait_status = status;
        pending_.push_back(Event{Event::Kind::Death, int(r), {}});
      }
    }
  }
}

std::optional<World::Event> World::take_pending() {
  if (pending_.empty()) return std::nullopt;
  Event e = std::move(pending_.front());
  pending_.erase(pending_.begin());
  return e;
}

std::optional<World::Event> World::next(int timeout_ms) {
  if (attached_) return next_attached(timeout_ms);
  int64_t deadline = now_ms() + timeout_ms;
  for (;;) {
    // Messages first: a rank's last output must be shown before its death.
    Frames f = recv_frames(control_, false);
    if (!f.empty()) {
      int r = rank_of_identity(f[0], size());
      if (remote_ && r >= 0 && ranks_[size_t(r)].joined && f[0] != ranks_[size_t(r)].identity && f.size() > 1 &&
          f[1] != "hello")
        r = -1;  // a second process of that rank: only its hello counts (a join error)
      if (r < 0) {
        if (!remote_ || !on_unknown_sender(f[0])) log_dropped("lumpi", "unknown sender '" + f[0].substr(0, 40) + "'");
        continue;
      }
      std::string why;
      auto m = decode(Frames(f.begin() + 1, f.end()), &why);
      if (!m) {
        log_dropped("lumpi", "from rank " + std::to_string(r) + ": " + why);
        continue;
      }
      if (m->kind == Kind::Hello) on_hello(r, *m, f[0]);
      else if (m->kind == Kind::Finished) on_finished(r, m->code);
      else if (m->kind == Kind::Bye && remote_) mark_dead(r, (m->code & 0xff) << 8);
      else if (m->kind == Kind::Bye) log_dropped("lumpi", "bye from a local rank");
      else return Event{Event::Kind::Message, r, std::move(*m)};
      return std::nullopt;  // consumed here: the caller may look at wired() or finished
    }
    reap();
    if (remote_) check_beats();
    if (auto e = take_pending()) return e;
    int64_t left = deadline - now_ms();
    if (left <= 0) return std::nullopt;
    // Deaths are noticed by waitpid, so never sleep long in poll. A waiting
    // world also wakes for its REPL's messages while serve() reads them (not
    // before, nor while it ends: a waiting message would make this spin).
    zmq::pollitem_t items[2] = {{control_.handle(), 0, ZMQ_POLLIN, 0}, {nullptr, 0, ZMQ_POLLIN, 0}};
    if (relaying_) items[1].socket = attach_.handle();
    if (zmq_poll(items, relaying_ ? 2 : 1, long(std::min<int64_t>(left, 20))) < 0) {
      if (errno == EINTR) return std::nullopt;  // a signal (Ctrl-C): let the caller look
      throw zmq::error_t();
    }
    if (relaying_ && (items[1].revents & ZMQ_POLLIN)) return std::nullopt;
  }
}

std::vector<int> World::shutdown(int grace_ms, const std::function<void(const Event&)>& on_output) {
  if (attached_) return shutdown_attached(grace_ms);
  for (int r = 0; r < size(); ++r) send(r, msg(Kind::Quit));
  auto show = [&](const std::optional<Event>& ev) {
    if (ev && on_output && ev->kind == Event::Kind::Message && ev->msg.kind == Kind::Output) on_output(*ev);
  };
  // next() reaps local ranks and reads what they send until they are gone
  // (remote ones: their byes or silence); then what they sent last, until
  // the socket has been quiet for 10 ms (next() also returns nothing when
  // it consumed a bye, so silence is measured, not one empty answer).
  int64_t deadline = now_ms() + grace_ms;
  while (alive_count() > 0 && now_ms() < deadline) show(next(20));
  for (int64_t quiet = now_ms() + 10; now_ms() < quiet;)
    if (auto ev = next(5)) {
      show(ev);
      quiet = now_ms() + 10;
    }
  pending_.clear();
  std::vector<int> killed;
  for (int r = 0; r < size(); ++r)
    if (ranks_[size_t(r)].alive) killed.push_back(r);
  kill_all();
  return killed;
}

void World::kill_all() {
  if (attached_) return detach();  // a REPL that ends otherwise than by :quit leaves the world waiting
  if (remote_) return kill_remote();
  for (auto& r : ranks_)
    if (r.alive && r.pid > 0) ::kill(r.pid, SIGKILL);
  for (auto& r : ranks_) {
    if (!r.alive || r.pid <= 0) continue;
    int status = 0;
    if (waitpid(r.pid, &status, 0) == r.pid) r.wait_status = status;
    r.alive = false;
  }
}

}  // namespace lumpi::launcher
