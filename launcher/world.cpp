// launcher/world.cpp: starting, wiring, supervising and stopping ranks.
#include "launcher/world.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace lumpi::launcher {

std::string describe_wait_status(int status) {
  if (WIFEXITED(status)) return "exit " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "signal " + std::to_string(WTERMSIG(status));
  return "status " + std::to_string(status);
}

int exit_code_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

namespace {

int64_t now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

}  // namespace

World::World(const Options& opts) : dir_(rundir_.path()), ranks_(size_t(opts.size)) {
  control_.set(zmq::sockopt::linger, 0);
  control_.set(zmq::sockopt::router_mandatory, 0);
  control_.set(zmq::sockopt::sndhwm, 0);
  control_.set(zmq::sockopt::rcvhwm, 0);
  control_.bind("ipc://" + dir_ + "/control");
  for (int r = 0; r < opts.size; ++r) spawn(r, opts);

  // Wait for every hello, then hand out the endpoint table.
  int hellos = 0;
  int64_t deadline = now_ms() + 15000;
  while (hellos < opts.size) {
    int64_t left = deadline - now_ms();
    if (left <= 0) {
      kill_all();
      throw std::runtime_error("ranks did not start within 15 s");
    }
    auto ev = next(int(left));
    if (!ev) continue;
    if (ev->kind == Event::Kind::Death) {
      kill_all();
      throw std::runtime_error("rank " + std::to_string(ev->rank) + " died during start-up: " +
                               describe_wait_status(ranks_[size_t(ev->rank)].wait_status));
    }
    if (ev->frames.size() == 5 && ev->frames[0] == "hello") {
      ranks_[size_t(ev->rank)].host = ev->frames[3];
      ranks_[size_t(ev->rank)].endpoint = ev->frames[4];
      ++hellos;
    }
  }
  std::string table;
  for (const auto& r : ranks_) table += r.endpoint + "\n";
  for (int r = 0; r < opts.size; ++r) send(r, {"start", table});
}

World::~World() {
  kill_all();
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

void World::spawn(int r, const Options& opts) {
  std::string rank_s = std::to_string(r), size_s = std::to_string(opts.size);
  std::string control = "ipc://" + dir_ + "/control";
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork: " + std::string(strerror(errno)));
  if (pid == 0) {
    setenv(kEnvControl, control.c_str(), 1);
    setenv(kEnvRank, rank_s.c_str(), 1);
    setenv(kEnvSize, size_s.c_str(), 1);
    setenv(kEnvDir, dir_.c_str(), 1);
    setenv("LUMPI_PARENT", std::to_string(parent).c_str(), 1);
    setenv("LUMPI_BIND", opts.bind.c_str(), 1);
    // Large messages: glibc's malloc would mmap and munmap every buffer of
    // a few MiB (codec, libzmq, Lua strings), paying ~1000 page faults per
    // 4 MiB message; fixed thresholds keep such buffers in the heap (the 4 MiB
    // Lua ping-pong made 20x fewer page faults and used 27% less CPU, see
    // tests/bench/README.md). A user's own GLIBC_TUNABLES wins.
    setenv("GLIBC_TUNABLES",
           "glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=67108864", 0);
    signal(SIGINT, SIG_IGN);  // Ctrl-C belongs to the coordinator, which interrupts us
    execl(opts.rank_exe.c_str(), "lumpi-rank", (char*)nullptr);
    std::fprintf(stderr, "lumpi: cannot run %s: %s\n", opts.rank_exe.c_str(), strerror(errno));
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

void World::send(int rank, const Frames& frames) {
  if (!alive(rank)) return;
  Frames f{"rank-" + std::to_string(rank)};
  f.insert(f.end(), frames.begin(), frames.end());
  send_frames(control_, f);
}

void World::reap() {
  for (;;) {
    int status = 0;
    pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid <= 0) return;
    for (size_t r = 0; r < ranks_.size(); ++r) {
      if (ranks_[r].pid == pid && ranks_[r].alive) {
        ranks_[r].alive = false;
        ranks_[r].wait_status = status;
        pending_.push_back(Event{Event::Kind::Death, int(r), {}});
      }
    }
  }
}

std::optional<World::Event> World::next(int timeout_ms) {
  int64_t deadline = now_ms() + timeout_ms;
  for (;;) {
    // Messages first: a rank's last output must be shown before its death.
    Frames f = recv_frames(control_, false);
    if (!f.empty()) {
      if (f.size() < 2 || f[0].rfind("rank-", 0) != 0) continue;
      int r = std::atoi(f[0].c_str() + 5);
      if (r < 0 || r >= size()) continue;
      return Event{Event::Kind::Message, r, Frames(f.begin() + 1, f.end())};
    }
    reap();
    if (!pending_.empty()) {
      Event e = std::move(pending_.front());
      pending_.erase(pending_.begin());
      return e;
    }
    int64_t left = deadline - now_ms();
    if (left <= 0) return std::nullopt;
    // Deaths are noticed by waitpid, so never sleep long in poll.
    zmq::pollitem_t item{control_.handle(), 0, ZMQ_POLLIN, 0};
    if (zmq_poll(&item, 1, long(std::min<int64_t>(left, 20))) < 0) {
      if (errno == EINTR) return std::nullopt;  // a signal (Ctrl-C): let the caller look
      throw zmq::error_t();
    }
  }
}

void World::shutdown(int grace_ms) {
  for (int r = 0; r < size(); ++r) send(r, {"quit"});
  int64_t deadline = now_ms() + grace_ms;
  while (alive_count() > 0 && now_ms() < deadline) {
    reap();
    if (alive_count() > 0) usleep(2000);
  }
  kill_all();
}

void World::kill_all() {
  for (auto& r : ranks_)
    if (r.alive && r.pid > 0) kill(r.pid, SIGKILL);
  for (auto& r : ranks_) {
    if (!r.alive || r.pid <= 0) continue;
    int status = 0;
    if (waitpid(r.pid, &status, 0) == r.pid) r.wait_status = status;
    r.alive = false;
  }
}

}  // namespace lumpi::launcher
