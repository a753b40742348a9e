// launcher/coordinator/launch.hpp: where ranks run and which program starts them:
// --launcher, --hosts, --hostfile, --rsh, --iface, turned into the command
// lines of the launcher processes the coordinator runs.
//
// `local` (the default) is no command at all: World forks the ranks itself
// over ipc. Every other launcher is one child process of the coordinator
// (one per host for `ssh`) that starts lumpi-rank (or the program of
// `lumpi exec`) wherever it puts ranks; the ranks find the world through the
// job file named by LUMPI_JOIN (launcher/protocol/curve.hpp) and take their rank from
// the launcher's environment. Pure: builds argv, runs nothing.
#pragma once

#include <string>
#include <vector>

namespace lumpi::launcher {

struct HostSlots {
  std::string name;
  int slots = 1;
};

// Where the ranks of a world run (the command line's options).
struct Placement {
  std::string launcher = "local";  // local, mpirun, mpiexec, srun, ssh
  std::vector<HostSlots> hosts;    // --hosts, or read from --hostfile for ssh
  std::string hostfile;            // --hostfile
  std::string rsh;                 // --rsh: replaces ssh (a command, split at spaces)
  std::string iface;               // --iface: interface name or address the coordinator binds
  bool remote() const { return launcher != "local"; }
};

// Checks a --launcher value.
bool valid_launcher(const std::string& name);
// "h1:2,h2,h3:4" (slots default to 1); throws std::invalid_argument naming
// the bad entry.
std::vector<HostSlots> parse_hosts(const std::string& text);
// A hostfile: one host per line as "name", "name:N", "name slots=N"
// (Open MPI's form) or "name:N" (MPICH's); '#' starts a comment. Throws
// std::invalid_argument naming the file and line.
std::vector<HostSlots> read_hostfile(const std::string& path);
// Checks a placement for `size` ranks before anything starts (ssh needs
// hosts and enough slots; --hosts and --hostfile exclude each other; local
// takes neither); throws std::invalid_argument with the option's name.
void check_placement(const Placement& p, int size);

// What the launcher processes get: the placement, the world's size, the
// rank program and its arguments, the job file's path, the working directory.
struct LaunchSpec {
  Placement placement;
  int size = 0;
  std::string exe;
  std::vector<std::string> args;
  std::string join_path;
  std::string cwd;
};

// The argv of each launcher process to run (one; for ssh one per host).
// Throws std::runtime_error when the launcher's program is not installed.
std::vector<std::vector<std::string>> launch_commands(const LaunchSpec& spec);

// s quoted for a POSIX shell.
std::string shell_quote(const std::string& s);

}  // namespace lumpi::launcher
