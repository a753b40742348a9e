// launcher/coordinator/rundir.cpp: run directory lifetime, termination handlers and the
// SIGKILL watchdog. Everything the signal handler and the watchdog run is
// async-signal-safe (raw syscalls on fixed-size tables, no allocation): the
// handler interrupts arbitrary code, and the watchdog is forked from a
// process that may already run ZeroMQ's threads.
#include "launcher/coordinator/rundir.hpp"

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <stdexcept>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <atomic>

namespace lumpi::launcher {
namespace {

// ---- what the signal handler knows: live run directories and their ranks ------------

constexpr int kSlots = 8;          // worlds alive at once (a :restart overlaps two)
constexpr int kPidsPerSlot = 4096;  // ranks beyond this still die by PR_SET_PDEATHSIG

struct Slot {
  std::atomic<bool> used{false};
  char path[PATH_MAX] = {};
  char extra[PATH_MAX] = {};  // RunDir::also_remove's file, "" if none
  std::atomic<int> npids{0};
  pid_t pids[kPidsPerSlot] = {};
};
Slot g_slots[kSlots];

// The terminal's settings before anything (readline) changed them, restored
// on SIGTERM/SIGHUP so a killed REPL does not leave the terminal raw.
struct termios g_tty;
bool g_have_tty = false;

// ---- async-signal-safe helpers -------------------------------------------------------

// Removes a flat directory (the ipc sockets of one world) and the directory.
void remove_flat_dir(const char* path) {
  int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    alignas(8) char buf[4096];
    for (;;) {
      long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
      if (n <= 0) break;
      for (long off = 0; off < n;) {
        // struct linux_dirent64: u64 ino, s64 off, u16 reclen, u8 type, char name[]
        unsigned short reclen;
        std::memcpy(&reclen, buf + off + 16, sizeof reclen);
        const char* name = buf + off + 19;
        if (std::strcmp(name, ".") != 0 && std::strcmp(name, "..") != 0)
          if (unlinkat(fd, name, 0) != 0 && errno == EISDIR) unlinkat(fd, name, AT_REMOVEDIR);
        off += reclen;
      }
    }
    close(fd);
  }
  rmdir(path);
}

// Kills and reaps every rank still running in every live world. waitpid on
// a specific pid only succeeds for our own unreaped children, so a pid that
// was reaped already (and may belong to someone else by now) is left alone.
void kill_ranks() {
  for (Slot& s : g_slots) {
    if (!s.used.load(std::memory_order_acquire)) continue;
    int n = s.npids.load(std::memory_order_acquire);
    for (int i = 0; i < n; ++i) {
      int status;
      if (s.pids[i] > 0 && waitpid(s.pids[i], &status, WNOHANG) == 0) kill(s.pids[i], SIGKILL);
    }
    for (int i = 0; i < n; ++i) {
      int status;
      if (s.pids[i] > 0) while (waitpid(s.pids[i], &status, 0) < 0 && errno == EINTR) {}
    }
  }
}

void on_termination(int sig) {
  if (g_have_tty) tcsetattr(STDIN_FILENO, TCSANOW, &g_tty);
  kill_ranks();
  for (Slot& s : g_slots) {
    if (!s.used.load(std::memory_order_acquire)) continue;
    remove_flat_dir(s.path);
    if (s.extra[0]) unlink(s.extra);
  }
  _exit(128 + sig);
}

void install_termination_handlers() {
  static bool done = false;
  if (done) return;
  done = true;
  g_have_tty = isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &g_tty) == 0;
  struct sigaction sa {};
  sa.sa_handler = on_termination;
  sigfillset(&sa.sa_mask);  // nothing else runs while the world is torn down
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGHUP, &sa, nullptr);
}

// The watchdog: in its own session (a closed terminal's SIGHUP or a Ctrl-C
// to the foreground group does not reach it), holding no descriptor but the
// pipe's read end (not the terminal, not ZeroMQ's), it waits for the pipe to
// close: the coordinator exited or was killed. Then it removes the directory,
// and the file whose path came down the pipe, if any (RunDir::also_remove).
[[noreturn]] void watchdog(int read_fd, const char* path) {
  setsid();
  signal(SIGTERM, SIG_DFL);  // not the coordinator's handler: that one removes every world
  signal(SIGINT, SIG_IGN);
  signal(SIGHUP, SIG_IGN);
  if (read_fd != 3) {
    dup2(read_fd, 3);
    read_fd = 3;
  }
  int null = open("/dev/null", O_RDWR);
  for (int fd = 0; fd < 3; ++fd) dup2(null, fd);
  if (syscall(SYS_close_range, 4u, ~0u, 0u) != 0)
    for (int fd = 4; fd < 4096; ++fd) close(fd);
  static char extra[PATH_MAX];
  size_t len = 0;
  for (;;) {
    ssize_t n = read(read_fd, extra + len, sizeof extra - 1 - len);
    if (n == 0 || (n < 0 && errno != EINTR)) break;
    if (n > 0) len += size_t(n);
    if (len == sizeof extra - 1) len = 0;  // no path is that long: forget it
  }
  remove_flat_dir(path);
  extra[len] = '\0';
  if (len > 0) unlink(extra);
  _exit(0);
}

int take_slot(const std::string& path) {
  for (int i = 0; i < kSlots; ++i) {
    Slot& s = g_slots[i];
    if (s.used.load()) continue;
    std::strncpy(s.path, path.c_str(), sizeof s.path - 1);
    s.extra[0] = '\0';
    s.npids.store(0);
    s.used.store(true, std::memory_order_release);
    return i;
  }
  return -1;  // more live worlds than slots: SIGTERM leaves this directory to the watchdog
}

}  // namespace

RunDir::RunDir(const std::string& base) {
  if (!base.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(base, ec);
    if (ec) throw std::runtime_error("cannot create " + base + ": " + ec.message());
    struct stat st {};
    if (stat(base.c_str(), &st) != 0 || st.st_uid != geteuid() || (st.st_mode & 022))
      throw std::runtime_error(base + " must be a directory of this user that others cannot write");
  }
  std::string tmpl = ((base.empty() ? std::filesystem::temp_directory_path() : std::filesystem::path(base)) /
                      "lumpi-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp: " + std::string(strerror(errno)));
  path_ = tmpl;  // mkdtemp creates it 0700
  install_termination_handlers();
  slot_ = take_slot(path_);

  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return;  // no watchdog: a SIGKILL would leave the directory
  char path[PATH_MAX] = {};
  std::strncpy(path, path_.c_str(), sizeof path - 1);
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[1]);
    watchdog(fds[0], path);
  }
  close(fds[0]);
  if (pid < 0) {
    close(fds[1]);
    return;
  }
  watchdog_ = pid;
  watchdog_fd_ = fds[1];  // O_CLOEXEC: ranks do not inherit it past exec
}

RunDir::~RunDir() {
  if (slot_ >= 0) g_slots[slot_].used.store(false, std::memory_order_release);
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
  if (!extra_.empty()) unlink(extra_.c_str());
  if (watchdog_fd_ >= 0) close(watchdog_fd_);
  if (watchdog_ > 0) {
    int status;
    while (waitpid(watchdog_, &status, 0) < 0 && errno == EINTR) {
    }
  }
}

void RunDir::also_remove(const std::string& file) {
  if (file.empty() || file.size() >= PATH_MAX - 1) return;
  extra_ = file;
  if (slot_ >= 0) std::strncpy(g_slots[slot_].extra, file.c_str(), PATH_MAX - 1);
  if (watchdog_fd_ >= 0) {
    ssize_t ignored = write(watchdog_fd_, file.data(), file.size());
    (void)ignored;
  }
}

void RunDir::add_rank(pid_t pid) {
  if (slot_ < 0) return;
  Slot& s = g_slots[slot_];
  int n = s.npids.load();
  if (n >= kPidsPerSlot) return;
  s.pids[n] = pid;
  s.npids.store(n + 1, std::memory_order_release);
}

}  // namespace lumpi::launcher
