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

}  // namespace

int kernel_command(int argc, char** argv, const std::string& rank_exe) {
  bool do_install = argc > 1 && std::string(argv[1]) == "install";
  std::string prefix, file;
  bool user = false;
  Session::Options o;
  o.rank_exe = rank_exe;
  for (int i = do_install ? 2 : 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (a == "-n" || a == "--np") {
      const char* v = value();
      if (!v || !parse_np(v, &o.size)) return usage_error("-n needs a number of ranks from 1 to 1024");
    } else if (do_install && a == "--user") {
      user = true;
    } else if (do_install && a == "--prefix") {
      const char* v = value();
      if (!v || !*v) return usage_error("--prefix needs a directory");
      prefix = v;
    } else if (!do_install && a == "-f") {
      const char* v = value();
      if (!v) return usage_error("-f needs a connection file");
      file = v;
    } else if (!do_install && a == "--bind") {
      const char* v = value();
      std::string b = v ? v : "";
      if (b != "none" && b != "core" && b != "pu" && b != "numa" && b != "package")
        return usage_error("--bind must be none, core, pu, numa or package");
      o.bind = b;
    } else if (!do_install && a == "--timeout") {
      const char* v = value();
      o.timeout = v ? std::atof(v) : 0;
      if (o.timeout <= 0) return usage_error("--timeout needs a positive number of seconds");
    } else {
      return usage_error("unknown argument " + a);
    }
  }
  if (do_install) {
    if (user && !prefix.empty()) return usage_error("--user and --prefix exclude each other");
    std::filesystem::path data = user ? user_data_dir()
                                 : !prefix.empty() ? std::filesystem::path(prefix) / "share/jupyter"
                                                   : std::filesystem::path("/usr/local/share/jupyter");
    return install(data, o.size);
  }
  if (file.empty()) return usage_error("-f CONNECTION_FILE is required (or: lumpi kernel install)");
  try {
    return run_kernel(file, o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lumpi kernel: %s\n", e.what());
    return 1;
  }
}

}  // namespace lumpi::repl
