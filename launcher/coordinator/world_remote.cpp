// launcher/coordinator/world_remote.cpp: the World of ranks started by a launcher
// (mpirun, mpiexec, srun, ssh) over tcp with CURVE: binding, the job file,
// the launcher processes, join errors, heartbeats and killing (world.hpp).
#include <cerrno>
#include <cstdio>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <netdb.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

#include "launcher/protocol/clock.hpp"
#include "launcher/coordinator/world.hpp"

namespace lumpi::launcher {
namespace {

// The address the coordinator binds when --iface does not say: the one
// that reaches the first host named, else what this host's name resolves to
// (if it is not a loopback address), else 127.0.0.1.
std::string default_address(const Placement& p) {
  if (!p.iface.empty()) return interface_address(p.iface);
  std::vector<HostSlots> hosts = p.hosts;
  if (hosts.empty() && !p.hostfile.empty()) {
    try {
      hosts = read_hostfile(p.hostfile);
    } catch (const std::exception&) {  // mpirun/mpiexec/srun read it themselves
    }
  }
  if (!hosts.empty()) return address_towards(hosts.front().name);
  char name[256] = {0};
  gethostname(name, sizeof name - 1);
  try {
    std::string a = address_towards(name);
    if (a.rfind("127.", 0) != 0) return a;
  } catch (const std::exception&) {
  }
  return "127.0.0.1";
}

// The benchmark knob LUMPI_INSECURE_NO_CURVE=1 (docs/hosts.md): the data
// plane between ranks goes without CURVE, so that tests/bench can measure
// what CURVE costs. Control and heartbeats keep CURVE and the ZAP handler
// (nobody without the job file can run code on a rank), but rank-to-rank
// data is then readable on the wire and open to anyone who can reach a
// rank's port. Said on stderr each time; any value but 1 is refused.
bool data_curve_wanted() {
  const char* v = std::getenv("LUMPI_INSECURE_NO_CURVE");
  if (!v || !*v) return true;
  if (std::string(v) != "1")
    throw std::invalid_argument("LUMPI_INSECURE_NO_CURVE must be 1 or unset (not '" + std::string(v) + "')");
  std::fprintf(stderr, "lumpi: warning: LUMPI_INSECURE_NO_CURVE=1: data between ranks travels unencrypted and "
                       "unauthenticated (a benchmark knob, never for a real network)\n");
  return false;
}

}  // namespace

// Job files must be at the same path on every host: under LUMPI_JOBDIR, or
// ~/.lumpi/jobs (home directories are shared on most clusters and labs).
std::string World::remote_job_base() {
  if (const char* d = std::getenv("LUMPI_JOBDIR"); d && *d) return d;
  const char* home = std::getenv("HOME");
  if (!home || !*home) throw std::runtime_error("neither LUMPI_JOBDIR nor HOME is set: no place for the job file");
  return std::string(home) + "/.lumpi/jobs";
}

void World::start_remote(const Options& opts) {
  const Placement& p = opts.placement;
  launcher_name_ = p.launcher;
  bool data_curve = data_curve_wanted();
  CurveKeys keys = make_keys();
  std::string addr = default_address(p);
  zap_ = std::make_unique<ZapHandler>(ctx_, keys.public_key, "lumpi");
  curve_server(control_, keys);
  control_.bind("tcp://" + addr + ":*");
  control_endpoint_ = control_.get(zmq::sockopt::last_endpoint);
  beat_ = std::make_unique<BeatServer>(ctx_, "tcp://" + addr + ":*", keys, size());
  join_path_ = opts.jobfile.empty() ? dir_ + "/job" : opts.jobfile;
  if (opts.serve) bind_attach("tcp://" + addr + ":*", keys);
  write_join_file(join_path_, JoinInfo{control_endpoint_, beat_->endpoint(), size(), opts.bind, keys, data_curve, attach_endpoint_});
  if (!opts.jobfile.empty()) rundir_.also_remove(join_path_);
  for (auto& r : ranks_) r.alive = true;  // started, as far as we know, until they end or go silent
  char cwd[4096];
  LaunchSpec spec{p, size(), opts.exe, opts.args, join_path_, getcwd(cwd, sizeof cwd) ? cwd : "/"};
  for (const auto& argv : launch_commands(spec)) spawn_launcher(argv);
}

// One launcher process, in its own process group (so killing the group
// reaches what it started locally), stdin from /dev/null (mpirun would
// forward our terminal to rank 0), with the job file's path in LUMPI_JOIN
// and none of a surrounding world's LUMPI_* variables. Built before fork as
// in spawn().
void World::spawn_launcher(const std::vector<std::string>& args) {
  std::vector<std::string> env;
  auto ours = [](std::string_view kv) {
    for (const char* k : {kEnvControl, kEnvRank, kEnvSize, kEnvDir, kEnvParent, kEnvBind, kEnvJoin, kEnvLocalRank, kEnvCheck})
      if (kv.size() > std::strlen(k) && kv.compare(0, std::strlen(k), k) == 0 && kv[std::strlen(k)] == '=') return true;
    return false;
  };
  for (char** e = environ; *e; ++e)
    if (!ours(*e)) env.emplace_back(*e);
  env.push_back(std::string(kEnvJoin) + "=" + join_path_);
  if (check_) env.push_back(std::string(kEnvCheck) + "=1");  // launchers that pass the environment on
  if (!std::getenv("GLIBC_TUNABLES"))
    env.emplace_back("GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=67108864");
  std::vector<char*> envp, argv;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::string cannot_run = "lumpi: cannot run " + args[0] + "\n";
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork: " + std::string(strerror(errno)));
  if (pid == 0) {
    setpgid(0, 0);
    signal(SIGINT, SIG_IGN);
    int null = open("/dev/null", O_RDONLY);
    if (null >= 0) dup2(null, 0), close(null);
    execve(argv[0], argv.data(), envp.data());
    ssize_t ignored = write(STDERR_FILENO, cannot_run.data(), cannot_run.size());
    (void)ignored;
    _exit(127);
  }
  setpgid(pid, pid);  // also here: no race with a kill of the group
  launchers_.push_back(pid);
  rundir_.add_rank(pid);
}

// A launcher ended. Before the world is wired that is fatal (its ranks
// failed or never started: their own messages are on stderr above); after,
// the ranks' byes and heartbeats tell what happened to each.
void World::reap_launcher(pid_t pid, int status) {
  for (size_t i = 0; i < launchers_.size(); ++i) {
    if (launchers_[i] != pid) continue;
    launchers_.erase(launchers_.begin() + long(i));
    bool unjoined = false;
    for (const auto& r : ranks_) unjoined |= r.alive && !r.joined;
    if (!wired_ && unjoined && join_error_.empty())
      join_error_ = launcher_name_ + " ended (" + describe_wait_status(status) + ") before every rank joined";
    if (!launchers_.empty()) return;
    for (int r = 0; r < size(); ++r)  // nothing is left to start them; `lumpi exec` of a program that never joins
      if (!ranks_[size_t(r)].joined) mark_dead(r, status);
    return;
  }
}

// A sender that is none of our ranks: a process that took an out-of-range
// rank from its launcher's environment is a join error; anything else is dropped.
bool World::on_unknown_sender(const std::string& id) {
  if (id.rfind("rank-", 0) != 0 || wired_) return false;
  size_t at = id.find('@');
  join_error_ = "a process joined as rank " + id.substr(5, at == std::string::npos ? std::string::npos : at - 5) +
                " but the world has " + std::to_string(size()) + " ranks (ranks are 0 to " +
                std::to_string(size() - 1) + "): check -n against the launcher's own count";
  return true;
}

void World::mark_dead(int r, int status) {
  RankInfo& info = ranks_[size_t(r)];
  if (!info.alive) return;
  info.alive = false;
  info.wait_status = status;
  pending_.push_back(Event{Event::Kind::Death, r, {}});
}

// A joined rank silent for kLostMs is lost; one we asked to kill is dead
// once its beats stop (two missed).
void World::check_beats() {
  int64_t now = now_ms();
  for (int r = 0; r < size(); ++r) {
    const RankInfo& info = ranks_[size_t(r)];
    if (!info.alive || !info.joined) continue;
    int64_t seen = std::max(beat_->last_seen(r), info.joined_at);
    if (beat_->kill_sent(r) > 0 && now - seen > 2 * kBeatMs) mark_dead(r, SIGKILL);
    else if (now - seen > kLostMs) mark_dead(r, kStatusLost);
  }
}

// Reaps launchers that end within ms.
void World::reap_launchers_for(int ms) {
  int64_t deadline = now_ms() + ms;
  do {
    std::vector<pid_t> left = launchers_;
    for (pid_t pid : left) {
      int status = 0;
      if (waitpid(pid, &status, WNOHANG) == pid) reap_launcher(pid, status);
    }
    if (!launchers_.empty() && now_ms() < deadline) usleep(20000);
  } while (!launchers_.empty() && now_ms() < deadline);
}

// Every rank still alive is asked to end through its heartbeat; then the
// launchers' process groups get SIGTERM, and SIGKILL a moment later; every
// launcher is reaped. Ranks that a cut-off host keeps end by themselves
// (kOrphanMs after our heartbeats stop).
void World::kill_remote() {
  for (int r = 0; r < size(); ++r)
    if (ranks_[size_t(r)].alive && ranks_[size_t(r)].joined) beat_->request_kill(r);
  int64_t deadline = now_ms() + kLostMs;
  auto joined_alive = [&] {
    for (const auto& r : ranks_)
      if (r.alive && r.joined) return true;
    return false;
  };
  while (joined_alive() && now_ms() < deadline) {
    check_beats();
    usleep(20000);
  }
  reap_launchers_for(joined_alive() ? 0 : 3000);  // with their ranks gone, they end by themselves
  for (pid_t pid : launchers_) ::kill(-pid, SIGTERM);
  reap_launchers_for(2000);
  for (pid_t pid : launchers_) {
    ::kill(-pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  }
  launchers_.clear();
  for (int r = 0; r < size(); ++r) mark_dead(r, SIGKILL);
}

}  // namespace lumpi::launcher
