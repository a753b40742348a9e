// repl/main.cpp: the lumpi command line (API.md §11): REPL, script runner,
// -e, -i, `lumpi test`, `lumpi exec`, and `lumpi world` / `lumpi attach`
// (a world that waits for a REPL, and the REPL that attaches to it).
#include <climits>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <cstring>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "repl/exec.hpp"
#include "repl/kernel/kernel.hpp"
#include "repl/repl.hpp"
#include "repl/session.hpp"
#include "repl/test_runner.hpp"
#include "repl/view/trace_view.hpp"

namespace {

using lumpi::repl::Session;

const char* kUsage =
    "usage: lumpi [options] [script.lua [args...]]\n"
    "       lumpi test [options] [files or directories...]\n"
    "       lumpi exec [-n N] [--bind L] [--timeout S] [--check] [--launcher L ...] program [args...]   any executable as a world\n"
    "       lumpi world [-n N] [--bind L] [--launcher L ...] [--jobfile FILE]   a world that waits for a REPL\n"
    "       lumpi world --stop FILE                         end that world\n"
    "       lumpi attach FILE [-e CODE] [-i] [script.lua [args...]]   attach to it (:detach leaves it running)\n"
    "       lumpi kernel install [--user | --prefix DIR]   (Jupyter; see lumpi kernel --help)\n"
    "  -n, --np, -np N   number of ranks (default 4; 1 for exec)\n"
    "  -e CODE           run CODE on every rank, print results, exit\n"
    "  -i                enter the REPL after the script\n"
    "  --bind none|core|pu|numa|package   hwloc binding of ranks (default none)\n"
    "  --timeout SECONDS per-command limit in the REPL, per case in `lumpi test`,\n"
    "                    for the whole run in `lumpi exec` (else MPIEXEC_TIMEOUT)\n"
    "  --no-collate      print every rank's result separately\n"
    "  --check           the full checks of MPI usage (docs/checking.md; deadlocks are always found)\n"
    "  --check-report FILE   write what the checks found as JSON (a run where one fired exits non-zero)\n"
    "  --launcher local|mpirun|mpiexec|srun|ssh   what starts the ranks (default local:\n"
    "                    forked here, over ipc; the others: tcp with CURVE, docs/hosts.md)\n"
    "  --hosts H1:N,H2:N / --hostfile FILE   where the launcher puts ranks\n"
    "  --rsh CMD         remote shell instead of ssh (ssh launcher; mpirun's and mpiexec's agent)\n"
    "  --iface IF        interface (name or address) the coordinator listens on\n"
    "  --junit FILE      (lumpi test) also write JUnit XML\n"
    "  --trace FILE      (script) write the script's MPI trace: .svg, .json (Perfetto), else text\n"
    "  --trace DIR       (lumpi test) write the trace diagram of every failing case into DIR\n";

struct Args {
  bool test = false;
  bool exec = false;
  bool world = false;       // lumpi world
  std::string jobfile;      // lumpi world --jobfile FILE
  std::string stop;         // lumpi world --stop FILE
  std::string attach;       // lumpi attach FILE
  int np = 4;
  bool np_given = false;
  std::vector<std::string> exprs;
  bool interactive = false;
  std::string bind = "none";
  double timeout = 0;
  bool check = false;        // --check
  std::string check_report;  // --check-report FILE
  bool collate = true;
  std::string junit;
  std::string trace;  // --trace FILE (script) or DIR (lumpi test)
  lumpi::launcher::Placement placement;
  std::vector<std::string> positional;  // script and its args, or test paths
};

[[noreturn]] void usage_error(const std::string& msg) {
  std::fprintf(stderr, "lumpi: %s\n%s", msg.c_str(), kUsage);
  std::exit(2);
}

// ---- the command line ----------------------------------------------------------------------------

// The words of the command line, read in order; `i` is the current one.
struct Words {
  int argc;
  char** argv;
  int i = 1;
  // The value after option `opt`, consumed.
  std::string value(const char* opt) {
    if (i + 1 >= argc) usage_error(std::string(opt) + " needs a value");
    return argv[++i];
  }
};

// `lumpi test|exec|world|attach FILE ...`: the mode, before the options.
void parse_mode(Args& a, Words& w) {
  std::string mode = w.i < w.argc ? w.argv[w.i] : "";
  if (mode != "test" && mode != "exec" && mode != "world" && mode != "attach") return;
  ++w.i;
  a.test = mode == "test";
  a.exec = mode == "exec";
  a.world = mode == "world";
  if (a.exec) a.np = 1;
  if (mode != "attach") return;
  if (w.i >= w.argc || w.argv[w.i][0] == '-') usage_error("lumpi attach needs the world's connection file (lumpi world prints it)");
  a.attach = w.argv[w.i++];
}

// --launcher, --hosts, --hostfile, --rsh, --iface: where the ranks run.
// False when `s` is none of them.
bool placement_option(Args& a, const std::string& s, Words& w) {
  if (s == "--launcher") {
    a.placement.launcher = w.value("--launcher");
  } else if (s == "--hosts") {
    try {
      a.placement.hosts = lumpi::launcher::parse_hosts(w.value("--hosts"));
    } catch (const std::invalid_argument& e) {
      usage_error(e.what());
    }
  } else if (s == "--hostfile") {
    a.placement.hostfile = w.value("--hostfile");
  } else if (s == "--rsh") {
    a.placement.rsh = w.value("--rsh");
  } else if (s == "--iface") {
    a.placement.iface = w.value("--iface");
  } else {
    return false;
  }
  return true;
}

// The options of every mode, lumpi exec's too: -n, --bind, --timeout, the
// placement, -h. False when `s` is none of them.
bool common_option(Args& a, const std::string& s, Words& w) {
  if (s == "-n" || s == "--np" || (a.exec && s == "-np")) {
    std::string v = w.value("-n");
    char* end;
    long n = std::strtol(v.c_str(), &end, 10);
    if (*end || n < 1 || n > 1024) usage_error("-n needs a number of ranks from 1 to 1024");
    a.np = int(n);
    a.np_given = true;
  } else if (s == "--bind") {
    a.bind = w.value("--bind");
    if (a.bind != "none" && a.bind != "core" && a.bind != "pu" && a.bind != "numa" && a.bind != "package")
      usage_error("--bind must be none, core, pu, numa or package");
  } else if (s == "--timeout") {
    a.timeout = std::atof(w.value("--timeout").c_str());
    if (a.timeout <= 0) usage_error("--timeout needs a positive number of seconds");
  } else if (s == "--check") {
    a.check = true;
  } else if (s == "--check-report") {
    a.check_report = w.value("--check-report");
  } else if (s == "-h" || s == "--help") {
    std::fputs(kUsage, stdout);
    std::exit(0);
  } else {
    return placement_option(a, s, w);
  }
  return true;
}

// The options of the REPL, scripts, lumpi test and lumpi world. False when
// `s` is none of them.
bool mode_option(Args& a, const std::string& s, Words& w) {
  if (a.world && s == "--jobfile") a.jobfile = std::filesystem::absolute(w.value("--jobfile")).string();
  else if (a.world && s == "--stop") a.stop = w.value("--stop");
  else if (s == "-e") a.exprs.push_back(w.value("-e"));
  else if (s == "-i") a.interactive = true;
  else if (s == "--no-collate") a.collate = false;
  else if (s == "--trace") a.trace = w.value("--trace");
  else if (s == "--junit" && a.test) a.junit = w.value("--junit");
  else return false;
  return true;
}

// One word: an option (with its value) or a positional word.
void take_word(Args& a, const std::string& s, Words& w) {
  bool option = s.size() > 1 && s[0] == '-';
  if (!a.positional.empty() && !a.test) return a.positional.push_back(s);  // the script's (program's) args
  if (common_option(a, s, w)) return;
  if (a.exec && option)
    usage_error("lumpi exec takes -n, --bind, --timeout, --check, --check-report, --launcher, --hosts, --hostfile, --rsh and --iface "
                "before the program; unknown option " + s);
  if (mode_option(a, s, w)) return;
  if (option) usage_error("unknown option " + s);
  a.positional.push_back(s);
}

// The combinations no mode takes, and a placement that cannot hold the ranks.
void check_args(const Args& a) {
  if (a.world && (!a.positional.empty() || !a.exprs.empty() || a.interactive || a.test))
    usage_error("lumpi world runs no script: start it, then lumpi attach FILE runs scripts and the REPL");
  if (!a.attach.empty() && (a.np_given || a.placement.launcher != "local" || a.bind != "none"))
    usage_error("lumpi attach takes no -n, --bind or launcher options: the waiting world has its own");
  try {
    lumpi::launcher::check_placement(a.placement, a.np);
  } catch (const std::invalid_argument& e) {
    usage_error(e.what());
  }
}

Args parse(int argc, char** argv) {
  Args a;
  Words w{argc, argv};
  parse_mode(a, w);
  for (; w.i < argc; ++w.i) take_word(a, argv[w.i], w);
  check_args(a);
  return a;
}

// ---- the modes ---------------------------------------------------------------------------------

// lumpi-rank lives next to lumpi.
std::string rank_exe() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "lumpi-rank";
  std::string self(buf, size_t(n));
  return self.substr(0, self.rfind('/') + 1) + "lumpi-rank";
}

int run_exec(const Args& a) {
  if (a.positional.empty()) usage_error("lumpi exec needs a program to run");
  lumpi::repl::ExecOptions o;
  o.size = a.np;
  o.program = a.positional[0];
  o.args.assign(a.positional.begin() + 1, a.positional.end());
  o.bind = a.bind;
  o.timeout = a.timeout;
  o.placement = a.placement;
  o.check = a.check;
  o.check_report = a.check_report;
  return lumpi::repl::run_exec(o);
}

// --trace FILE: the script's trace, drawn by the file's extension.
bool write_trace(Session& s, const std::string& path) {
  using namespace lumpi::repl;
  TraceModel m = build_trace(s.size(), s.collect_trace());
  std::ofstream f(path);
  f << (path.ends_with(".svg") ? trace_svg(m) : path.ends_with(".json") ? trace_json(m) : trace_text(m, 80));
  if (f) return true;
  std::fprintf(stderr, "lumpi: cannot write the trace to %s\n", path.c_str());
  return false;
}

volatile sig_atomic_t g_stop_world = 0;

int start_timeout_ms(bool remote) {
  const char* env = std::getenv("LUMPI_START_TIMEOUT");
  double s = env && *env ? std::atof(env) : 0;
  return s > 0 ? int(s * 1000) : remote ? 60000 : 15000;
}

// lumpi world: starts the ranks, says where to attach, and waits for REPLs
// until one says :quit, `lumpi world --stop FILE`, Ctrl-C or SIGTERM.
int run_world(const Args& a) {
  if (!a.stop.empty()) {
    lumpi::launcher::stop_waiting_world(a.stop, 30000);
    std::printf("lumpi world: the world of %s has ended\n", a.stop.c_str());
    return 0;
  }
  lumpi::launcher::World::Options o;
  o.size = a.np;
  o.exe = rank_exe();
  o.bind = a.bind;
  o.placement = a.placement;
  o.serve = true;
  o.jobfile = a.jobfile;
  lumpi::launcher::World w(o);
  w.wait_wired(start_timeout_ms(a.placement.remote()));
  std::printf("lumpi world: %d ranks wait for a REPL: lumpi attach %s\n", w.size(), w.join_path().c_str());
  std::fflush(stdout);
  struct sigaction sa {};
  sa.sa_handler = [](int) { g_stop_world = 1; };
  sigaction(SIGINT, &sa, nullptr);
  return w.serve([] { return g_stop_world != 0; });
}

Session::Options session_options(const Args& a) {
  Session::Options o;
  o.size = a.np;
  o.rank_exe = rank_exe();
  o.bind = a.bind;
  o.timeout = a.timeout;
  o.collate = a.collate;
  o.placement = a.placement;
  o.attach = a.attach;
  o.check = a.check;
  // Without a prompt to return to, or without a terminal at it (commands
  // from a pipe or a file: nobody there to type Ctrl-C, and a deadlock
  // never ends by itself), a deadlock found stops the command.
  const bool prompt = a.interactive || (a.positional.empty() && a.exprs.empty());
  o.stop_on_deadlock = a.test || !prompt || !isatty(0);
  return o;
}

// The script (traced with --trace FILE), then each -e, on every rank; false if one failed.
bool run_given(Session& s, const Args& a) {
  bool ok = true;
  if (!a.positional.empty()) {
    std::vector<std::string> args(a.positional.begin() + 1, a.positional.end());
    if (!a.trace.empty()) s.trace_action("on");
    auto out = s.run(s.all_ranks(), "script", a.positional[0], args);
    s.print_outcome(out, stderr);
    ok = out.ok();
    if (!a.trace.empty() && !write_trace(s, a.trace)) ok = false;
  }
  for (const auto& code : a.exprs) {
    auto out = s.run(s.all_ranks(), "repl", code);
    s.print_outcome(out, stderr);
    ok = ok && out.ok();
  }
  return ok;
}

int run_main(const Args& a) {
  if (a.exec) return run_exec(a);
  if (a.world) return run_world(a);
  Session::Options o = session_options(a);
  if (a.test) return lumpi::repl::run_tests(o, a.positional, a.junit, a.trace, a.check_report);
  if (!a.trace.empty() && a.positional.empty()) usage_error("--trace FILE needs a script to trace");
  Session s(o);
  bool failed = !run_given(s, a);
  if (a.interactive || (a.positional.empty() && a.exprs.empty())) {
    lumpi::repl::run_repl(s);
    failed = false;
  } else if (!a.attach.empty()) {
    s.world().detach();  // a script or -e on an attached world leaves it waiting for the next
  }
  bool wrote = a.check_report.empty() || s.check_report().write(a.check_report);
  failed = failed || !s.check_report().empty() || !wrote;  // a check fired: the run fails
  int status = s.shutdown();
  if (status == 0 && failed) status = 1;
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "kernel") == 0)
    return lumpi::repl::kernel_command(argc - 1, argv + 1, rank_exe());
  Args a = parse(argc, argv);
  try {
    return run_main(a);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lumpi: %s\n", e.what());
    return 1;
  }
}
