// core/base/crash_report.cpp: a rank that dies of a signal says where
// (issue 27: "a rank killed by a signal is reported with its rank, the
// signal's name and the MPI call it was in, and a source line when built
// with -g"), for a C or a C++ program alike.
//
// lumpi::Init (launcher/host/api_init.cpp, which MPI_Init calls) installs
// handlers for the signals of a crash (SEGV, BUS, FPE, ILL, ABRT). The
// handler writes one line on stderr, which lumpi exec passes through:
//   lumpi-rank 1: SIGSEGV in MPI_Send
//   lumpi-rank 1: SIGSEGV outside MPI (the last MPI call was MPI_Comm_rank)
// (an uncaught exception first says its text: on_terminate), then, for
// the innermost frame of the program's own executable, the
// function and source line addr2line finds (binutils; nothing without -g),
// and dies of the same signal, so the exit status stays the signal's.
// The doors name the MPI call in progress with an InCall (crash_report.hpp):
// C's run_call, the C++ API's guarded. Only async-signal-safe calls are
// used, but for the backtrace walk (primed at install time). A sanitized
// build keeps the sanitizer's own reports.
#include <elf.h>
#include <execinfo.h>
#include <link.h>
#include <signal.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <exception>

#include "core/base/crash_report.hpp"

namespace lumpi::core {

constinit thread_local const char* t_current_call = nullptr;
constinit thread_local const char* t_last_call = nullptr;
constinit thread_local uint64_t t_call_serial = 0;

namespace {

int g_rank = -1;
char g_exe[4096];  // the program's executable (/proc/self/exe)

// One line, built in place and written with one write(2): ranks that crash
// at once share stderr, and a line written piece by piece came out
// interleaved with another rank's ("lumpi-rank 1: SIGlumpi-rank ABRT0 in").
struct Line {
  char text[2048];  // under PIPE_BUF: one write is not split
  size_t n = 0;
  Line& operator<<(const char* s) {
    for (; *s && n < sizeof text - 1; ++s) text[n++] = *s;
    return *this;
  }
  void write_out() {
    text[n++] = '\n';
    if (write(STDERR_FILENO, text, n) < 0) return;
  }
};

// Decimal and hexadecimal without printf (not async-signal-safe).
const char* decimal(long v, char* buf) {
  char tmp[24];
  int n = 0;
  bool neg = v < 0;
  unsigned long u = neg ? 0ul - static_cast<unsigned long>(v) : static_cast<unsigned long>(v);
  do tmp[n++] = char('0' + u % 10); while ((u /= 10) != 0);
  int i = 0;
  if (neg) buf[i++] = '-';
  while (n > 0) buf[i++] = tmp[--n];
  buf[i] = '\0';
  return buf;
}

const char* hex(unsigned long v, char* buf) {
  char tmp[20];
  int n = 0;
  do tmp[n++] = "0123456789abcdef"[v % 16]; while ((v /= 16) != 0);
  int i = 0;
  buf[i++] = '0', buf[i++] = 'x';
  while (n > 0) buf[i++] = tmp[--n];
  buf[i] = '\0';
  return buf;
}

// The program's executable segments (from dl_iterate_phdr at install
// time) and its load bias: addr2line wants pc - bias (0 when not PIE).
struct Segment {
  unsigned long lo, hi;
};
Segment g_text[8];
int g_ntext = 0;
unsigned long g_bias = 0;

bool program_address(void* pc, unsigned long* out) {
  const auto a = reinterpret_cast<unsigned long>(pc);
  for (int i = 0; i < g_ntext; ++i)
    if (a >= g_text[i].lo && a < g_text[i].hi) {
      *out = a - g_bias;
      return true;
    }
  return false;
}

int note_program(dl_phdr_info* info, size_t, void*) {  // the first object is the program
  g_bias = info->dlpi_addr;
  for (int i = 0; i < info->dlpi_phnum && g_ntext < 8; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X))
      g_text[g_ntext++] = {info->dlpi_addr + ph.p_vaddr, info->dlpi_addr + ph.p_vaddr + ph.p_memsz};
  }
  return 1;  // stop after the program
}

// "  at main at crash.c:9" for the innermost frame of the program's own
// code: the faulting instruction, then the return addresses (one byte
// back, inside the call), through addr2line; lumpi's own functions (a
// statically linked libmpi shares the program's text) and the C++
// library's are passed over by a grep in the child.
void source_line(void* fault_pc) {
  void* frames[64];
  const int n = backtrace(frames, 64);
  char addrs[65][24];
  char* argv[80];
  int argc = 0;
  argv[argc++] = const_cast<char*>("addr2line");
  for (const char* a : {"-f", "-C", "-p", "-e"}) argv[argc++] = const_cast<char*>(a);
  argv[argc++] = g_exe;
  int naddr = 0;
  unsigned long addr;
  if (program_address(fault_pc, &addr)) argv[argc++] = const_cast<char*>(hex(addr, addrs[naddr++]));
  for (int i = 0; i < n && argc < 78; ++i)
    if (program_address(static_cast<char*>(frames[i]) - 1, &addr))
      argv[argc++] = const_cast<char*>(hex(addr, addrs[naddr++]));
  argv[argc] = nullptr;
  if (naddr == 0) return;
  int fds[2];
  if (pipe(fds) != 0) return;
  pid_t a2l = fork();
  if (a2l == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    execvp("addr2line", argv);
    _exit(127);
  }
  close(fds[1]);
  pid_t pick = fork();
  if (pick == 0) {
    dup2(fds[0], STDIN_FILENO);
    dup2(STDERR_FILENO, STDOUT_FILENO);
    execlp("sh", "sh", "-c", "grep -v -m1 -E 'lumpi::|^MPI_|^PMPI_|std::|^\\?\\?' | sed 's/^/  at /'",
           static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[0]);
  if (a2l > 0) waitpid(a2l, nullptr, 0);
  if (pick > 0) waitpid(pick, nullptr, 0);
}

void on_crash(int sig, siginfo_t*, void* context) {
  char r[24];
  Line line;
  line << "lumpi-rank " << decimal(g_rank, r) << ": SIG" << (sigabbrev_np(sig) ? sigabbrev_np(sig) : "?");
  if (t_current_call) line << " in " << t_current_call;
  else if (t_last_call) line << " outside MPI (the last MPI call was " << t_last_call << ")";
  else line << " outside MPI";
  line.write_out();
  auto* uc = static_cast<ucontext_t*>(context);
  source_line(reinterpret_cast<void*>(uc->uc_mcontext.gregs[REG_RIP]));
  signal(sig, SIG_DFL);
  raise(sig);
}

// An exception no one caught (a C++ program under the C++ API's default
// handler, which throws): its text in one line, then abort, which
// on_crash reports with the call. libstdc++'s own handler writes the two
// lines piecemeal, and ranks that throw together interleaved them.
void on_terminate() {
  char r[24];
  Line line;
  line << "lumpi-rank " << decimal(g_rank, r) << ": ";
  try {
    if (std::exception_ptr e = std::current_exception()) std::rethrow_exception(e);
    line << "std::terminate called without an exception";
  } catch (const std::exception& e) {
    line << "uncaught exception: " << e.what();
  } catch (...) {
    line << "uncaught exception of a type not derived from std::exception";
  }
  line.write_out();
  std::abort();
}

}  // namespace

// The C checker's creation sites (capi/c_check_resource.cpp): the return addresses of
// the current stack that lie in the program's own text, as addr2line
// wants them (one byte back, inside the call; minus the load bias).
std::vector<uintptr_t> program_frames() {
  void* frames[32];
  const int n = backtrace(frames, 32);
  std::vector<uintptr_t> out;
  unsigned long addr;
  for (int i = 1; i < n; ++i)
    if (program_address(static_cast<char*>(frames[i]) - 1, &addr)) out.push_back(addr);
  return out;
}

const char* program_path() { return g_exe; }

#if defined(__SANITIZE_ADDRESS__)
#define LUMPI_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LUMPI_SANITIZED 1
#endif
#endif

void install_crash_report(int rank) {
#ifndef LUMPI_SANITIZED
  g_rank = rank;
  ssize_t n = readlink("/proc/self/exe", g_exe, sizeof g_exe - 1);
  g_exe[n > 0 ? n : 0] = '\0';
  dl_iterate_phdr(note_program, nullptr);
  void* prime[2];
  backtrace(prime, 2);  // loads libgcc's unwinder now, not in the handler
  struct sigaction sa {};
  sa.sa_sigaction = on_crash;
  sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  for (int s : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(s, &sa, nullptr);
  std::set_terminate(on_terminate);
#else
  (void)rank;  // the sanitizer reports a crash itself
#endif
}

}  // namespace lumpi::core
