// launcher/coordinator/launch.cpp: launcher command lines (see launch.hpp).
#include "launcher/coordinator/launch.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace lumpi::launcher {
namespace {

// The first of `names` found executable on PATH (full path), or "".
std::string find_on_path(const std::vector<std::string>& names) {
  const char* env = std::getenv("PATH");
  std::string path = env ? env : "/usr/local/bin:/usr/bin:/bin";
  for (const auto& name : names) {
    if (name.find('/') != std::string::npos) {
      if (access(name.c_str(), X_OK) == 0) return name;
      continue;
    }
    std::stringstream dirs(path);
    std::string dir;
    while (std::getline(dirs, dir, ':'))
      if (access(((dir.empty() ? "." : dir) + "/" + name).c_str(), X_OK) == 0) return (dir.empty() ? "." : dir) + "/" + name;
  }
  return "";
}

std::string require(const std::vector<std::string>& names, const std::string& launcher, const std::string& package) {
  std::string p = find_on_path(names);
  if (p.empty()) throw std::runtime_error("--launcher " + launcher + ": " + names.front() + " is not installed (" + package + ")");
  return p;
}

std::vector<std::string> split_words(const std::string& s) {
  std::vector<std::string> w;
  std::stringstream in(s);
  std::string x;
  while (in >> x) w.push_back(x);
  return w;
}

int slots_of(const std::string& text, const std::string& where) {
  char* end = nullptr;
  long n = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end || n < 1 || n > 1 << 20) throw std::invalid_argument(where + ": '" + text + "' is not a number of slots");
  return int(n);
}

std::string hosts_text(const std::vector<HostSlots>& hosts) {
  std::string s;
  for (const auto& h : hosts) s += (s.empty() ? "" : ",") + h.name + ":" + std::to_string(h.slots);
  return s;
}

int total_slots(const std::vector<HostSlots>& hosts) {
  int n = 0;
  for (const auto& h : hosts) n += h.slots;
  return n;
}

const char* kJoinVar = "LUMPI_JOIN";

std::vector<std::string> mpirun_command(const LaunchSpec& s) {
  const Placement& p = s.placement;
  std::vector<std::string> a = {require({"mpirun.openmpi", "mpirun"}, "mpirun", "Debian: openmpi-bin")};
  a.insert(a.end(), {"-n", std::to_string(s.size)});
  if (!p.hosts.empty()) a.insert(a.end(), {"--host", hosts_text(p.hosts)});
  if (!p.hostfile.empty()) a.insert(a.end(), {"--hostfile", p.hostfile});
  if (p.hosts.empty() && p.hostfile.empty()) a.push_back("--oversubscribe");  // this machine: as many ranks as asked
  if (!p.rsh.empty()) a.insert(a.end(), {"--mca", "plm_rsh_agent", p.rsh});
  if (geteuid() == 0) a.push_back("--allow-run-as-root");
  a.push_back("--enable-recovery");  // a rank's death is lumpi's to report (MPI_ERR_PROC_FAILED), not a job abort
  // Open MPI 4.1's orted maps a shared copy of its hwloc topology at an address it guesses from its own
  // memory map, for Open MPI's ranks to attach; lumpi's ranks never attach, and the guess sometimes
  // segfaults the orted (seen in CI: hwloc_shmem_topology_write). "none" skips the copy.
  a.insert(a.end(), {"--mca", "rtc_hwloc_vmhole", "none"});
  a.insert(a.end(), {"-x", std::string(kJoinVar) + "=" + s.join_path, "-x", "GLIBC_TUNABLES", "--wdir", s.cwd});
  a.push_back(s.exe);
  a.insert(a.end(), s.args.begin(), s.args.end());
  return a;
}

std::vector<std::string> mpiexec_command(const LaunchSpec& s) {
  const Placement& p = s.placement;
  std::vector<std::string> a = {require({"mpiexec.mpich", "mpiexec.hydra", "mpiexec"}, "mpiexec", "Debian: mpich")};
  a.insert(a.end(), {"-n", std::to_string(s.size)});
  if (!p.hosts.empty()) a.insert(a.end(), {"-hosts", hosts_text(p.hosts)});
  if (!p.hostfile.empty()) a.insert(a.end(), {"-f", p.hostfile});
  if (!p.rsh.empty()) a.insert(a.end(), {"-launcher", "ssh", "-launcher-exec", p.rsh});
  a.insert(a.end(), {"-genv", kJoinVar, s.join_path, "-wdir", s.cwd});
  a.push_back("-disable-auto-cleanup");  // a rank's death is lumpi's to report, not a job abort
  a.push_back(s.exe);
  a.insert(a.end(), s.args.begin(), s.args.end());
  return a;
}

std::vector<std::string> srun_command(const LaunchSpec& s) {
  const Placement& p = s.placement;
  std::vector<std::string> a = {require({"srun"}, "srun", "Debian: slurm-client")};
  a.insert(a.end(), {"-n", std::to_string(s.size), "--export=ALL," + std::string(kJoinVar) + "=" + s.join_path,
                     "--chdir=" + s.cwd, "--kill-on-bad-exit=1"});
  std::string nodes;
  for (const auto& h : p.hosts) nodes += (nodes.empty() ? "" : ",") + h.name;
  if (!nodes.empty()) a.push_back("--nodelist=" + nodes);
  if (!p.hostfile.empty()) a.push_back("--nodelist=" + p.hostfile);
  a.push_back(s.exe);
  a.insert(a.end(), s.args.begin(), s.args.end());
  return a;
}

// One remote shell per host, which starts that host's ranks (filled in
// order, slot by slot) and waits for them: "rsh host 'cd DIR && (...) & wait'".
std::vector<std::vector<std::string>> ssh_commands(const LaunchSpec& s) {
  const Placement& p = s.placement;
  std::vector<HostSlots> hosts = p.hosts.empty() ? read_hostfile(p.hostfile) : p.hosts;
  std::vector<std::string> rsh = split_words(p.rsh.empty() ? "ssh" : p.rsh);
  if (rsh.empty()) throw std::invalid_argument("--rsh is empty");
  if (find_on_path({rsh[0]}).empty()) throw std::runtime_error("--launcher ssh: " + rsh[0] + " is not installed");
  std::string program = shell_quote(s.exe);
  for (const auto& arg : s.args) program += " " + shell_quote(arg);
  std::vector<std::vector<std::string>> out;
  int next = 0;
  for (const auto& h : hosts) {
    if (next >= s.size) break;
    std::string cmd = "cd " + shell_quote(s.cwd) + " || exit 1; " + kJoinVar + "=" + shell_quote(s.join_path) +
                      "; export " + kJoinVar + "; ";
    for (int local = 0; local < h.slots && next < s.size; ++local, ++next)
      cmd += "LUMPI_RANK=" + std::to_string(next) + " LUMPI_LOCAL_RANK=" + std::to_string(local) + " " + program + " & ";
    cmd += "wait";
    std::vector<std::string> a = rsh;
    a.push_back(h.name);
    a.push_back(cmd);
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace

bool valid_launcher(const std::string& n) {
  return n == "local" || n == "mpirun" || n == "mpiexec" || n == "srun" || n == "ssh";
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::vector<HostSlots> parse_hosts(const std::string& text) {
  std::vector<HostSlots> hosts;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    size_t colon = item.rfind(':');
    HostSlots h{item.substr(0, colon), 1};
    if (colon != std::string::npos) h.slots = slots_of(item.substr(colon + 1), "--hosts " + item);
    if (h.name.empty()) throw std::invalid_argument("--hosts: an entry has no host name ('" + text + "')");
    hosts.push_back(h);
  }
  if (hosts.empty()) throw std::invalid_argument("--hosts needs at least one host");
  return hosts;
}

std::vector<HostSlots> read_hostfile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("--hostfile " + path + ": cannot read it");
  std::vector<HostSlots> hosts;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    line = line.substr(0, line.find('#'));
    std::vector<std::string> w = split_words(line);
    if (w.empty()) continue;
    std::string where = "--hostfile " + path + " line " + std::to_string(n);
    HostSlots h{w[0], 1};
    size_t colon = w[0].rfind(':');
    if (colon != std::string::npos) h = {w[0].substr(0, colon), slots_of(w[0].substr(colon + 1), where)};
    for (size_t i = 1; i < w.size(); ++i) {
      if (w[i].rfind("slots=", 0) == 0) h.slots = slots_of(w[i].substr(6), where);
      else if (w[i].rfind("max_slots=", 0) != 0) throw std::invalid_argument(where + ": unknown '" + w[i] + "'");
    }
    hosts.push_back(h);
  }
  if (hosts.empty()) throw std::invalid_argument("--hostfile " + path + " names no host");
  return hosts;
}

void check_placement(const Placement& p, int size) {
  if (!valid_launcher(p.launcher))
    throw std::invalid_argument("--launcher must be local, mpirun, mpiexec, srun or ssh (not '" + p.launcher + "')");
  if (!p.hosts.empty() && !p.hostfile.empty()) throw std::invalid_argument("--hosts and --hostfile exclude each other");
  if (!p.remote()) {
    if (!p.hosts.empty() || !p.hostfile.empty() || !p.rsh.empty() || !p.iface.empty())
      throw std::invalid_argument("--hosts, --hostfile, --rsh and --iface need a --launcher other than local");
    return;
  }
  if (!p.rsh.empty() && p.launcher != "ssh" && p.launcher != "mpirun" && p.launcher != "mpiexec")
    throw std::invalid_argument("--rsh applies to the ssh, mpirun and mpiexec launchers");
  if (p.launcher == "ssh") {
    if (p.hosts.empty() && p.hostfile.empty()) throw std::invalid_argument("--launcher ssh needs --hosts or --hostfile");
    int slots = total_slots(p.hosts.empty() ? read_hostfile(p.hostfile) : p.hosts);
    if (slots < size)
      throw std::invalid_argument("-n " + std::to_string(size) + " is more than the " + std::to_string(slots) +
                                  " slots of the hosts given");
  }
}

std::vector<std::vector<std::string>> launch_commands(const LaunchSpec& s) {
  const std::string& l = s.placement.launcher;
  if (l == "mpirun") return {mpirun_command(s)};
  if (l == "mpiexec") return {mpiexec_command(s)};
  if (l == "srun") return {srun_command(s)};
  if (l == "ssh") return ssh_commands(s);
  throw std::invalid_argument("no launcher command for --launcher " + l);
}

}  // namespace lumpi::launcher
