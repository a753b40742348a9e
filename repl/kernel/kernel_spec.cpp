// repl/kernel/kernel_spec.cpp: the `lumpi kernel` command line and `lumpi kernel
// install`, which writes the kernelspec (kernel.json) Jupyter finds the
// kernel by.
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "repl/kernel/kernel.hpp"

namespace lumpi::repl {
namespace {

const char* kUsage =
    "usage: lumpi kernel install [--user | --prefix DIR] [-n N]\n"
    "       lumpi kernel -f CONNECTION_FILE [-n N] [--bind LEVEL] [--timeout SECONDS]\n"
    "  install    write the Jupyter kernelspec 'lumpi' (default: /usr/local/share/jupyter/kernels)\n"
    "  --user     into the user's Jupyter data directory (~/.local/share/jupyter/kernels)\n"
    "  --prefix   into DIR/share/jupyter/kernels\n"
    "  -n N       number of ranks of the kernel's world (default 4)\n"
    "  -f FILE    the connection file Jupyter hands to the kernel\n";

int usage_error(const std::string& msg) {
  std::fprintf(stderr, "lumpi kernel: %s\n%s", msg.c_str(), kUsage);
  return 2;
}

std::string self_exe() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, size_t(n)) : "lumpi";
}

// jupyter_core's user data directory on Linux.
std::filesystem::path user_data_dir() {
  if (const char* d = std::getenv("JUPYTER_DATA_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_DATA_HOME"); x && *x) return std::filesystem::path(x) / "jupyter";
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home && *home ? home : "/root") / ".local/share/jupyter";
}

int install(const std::filesystem::path& data_dir, int np) {
  namespace fs = std::filesystem;
  fs::path dir = data_dir / "kernels" / "lumpi";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    std::fprintf(stderr, "lumpi kernel install: cannot create %s: %s\n", dir.c_str(), ec.message().c_str());
    return 1;
  }
  nlohmann::json spec = {
      {"argv", {self_exe(), "kernel", "-f", "{connection_file}", "-n", std::to_string(np)}},
      {"display_name", "lumpi (Lua on " + std::to_string(np) + " MPI ranks)"},
      {"language", "lua"},
      {"interrupt_mode", "message"},
      {"metadata", nlohmann::json::object()}};
  std::ofstream out(dir / "kernel.json");
  out << spec.dump(1) << "\n";
  out.close();
  if (!out) {
    std::fprintf(stderr, "lumpi kernel install: cannot write %s\n", (dir / "kernel.json").c_str());
    return 1;
  }
  std::printf("installed kernelspec lumpi in %s\n", dir.c_str());
  return 0;
}

bool parse_np(const std::string& v, int* np) {
  char* end = nullptr;
  long n = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end || n < 1 || n > 1024) return false;
  *np = int(n);
  return true;
}

// What `lumpi kernel [install] ...` asks for.
struct KernelArgs {
  bool install = false;  // lumpi kernel install
  bool user = false;     // install --user
  bool help = false;     // -h
  std::string prefix;    // install --prefix DIR
  std::string file;      // -f FILE
  Session::Options o;    // the world's: -n, --bind, --timeout
};

// Option `a` with its value `v` (null when the command line ended there):
// "" when taken, else what is wrong.
std::string take_value(KernelArgs& k, const std::string& a, const char* v) {
  std::string s = v ? v : "";
  if (a == "-n" || a == "--np") return v && parse_np(s, &k.o.size) ? "" : "-n needs a number of ranks from 1 to 1024";
  if (k.install && a == "--prefix") {
    if (s.empty()) return "--prefix needs a directory";
    k.prefix = s;
    return "";
  }
  if (!k.install && a == "-f") {
    if (!v) return "-f needs a connection file";
    k.file = s;
    return "";
  }
  if (!k.install && a == "--bind") {
    if (s != "none" && s != "core" && s != "pu" && s != "numa" && s != "package")
      return "--bind must be none, core, pu, numa or package";
    k.o.bind = s;
    return "";
  }
  if (!k.install && a == "--timeout") {
    k.o.timeout = std::atof(s.c_str());
    return k.o.timeout > 0 ? "" : "--timeout needs a positive number of seconds";
  }
  return "unknown argument " + a;
}

// Reads the words after `lumpi kernel`: "" when they make sense, else what is wrong.
std::string parse_kernel_args(int argc, char** argv, KernelArgs& k) {
  k.install = argc > 1 && std::string(argv[1]) == "install";
  for (int i = k.install ? 2 : 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      k.help = true;
      return "";
    }
    if (k.install && a == "--user") {
      k.user = true;
      continue;
    }
    if (std::string err = take_value(k, a, i + 1 < argc ? argv[i + 1] : nullptr); !err.empty()) return err;
    ++i;
  }
  if (k.install && k.user && !k.prefix.empty()) return "--user and --prefix exclude each other";
  if (!k.install && k.file.empty()) return "-f CONNECTION_FILE is required (or: lumpi kernel install)";
  return "";
}

// Where install writes: --user's, --prefix's, or the system's Jupyter data directory.
std::filesystem::path install_dir(const KernelArgs& k) {
  if (k.user) return user_data_dir();
  if (!k.prefix.empty()) return std::filesystem::path(k.prefix) / "share/jupyter";
  return "/usr/local/share/jupyter";
}

}  // namespace

int kernel_command(int argc, char** argv, const std::string& rank_exe) {
  KernelArgs k;
  k.o.rank_exe = rank_exe;
  if (std::string err = parse_kernel_args(argc, argv, k); !err.empty()) return usage_error(err);
  if (k.help) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (k.install) return install(install_dir(k), k.o.size);
  try {
    return run_kernel(k.file, k.o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lumpi kernel: %s\n", e.what());
    return 1;
  }
}

}  // namespace lumpi::repl
