// launcher/coordinator/rundir.hpp: the world's private run directory, which never
// outlives the coordinator however it ends.
//
// The directory (mkdtemp, 0700) holds the ipc sockets of one world. It is
// removed by the World's destructor on a normal exit; on SIGTERM or SIGHUP
// by a signal handler that kills and reaps the ranks by pid, removes every
// live run directory and exits with 128+signal; and on SIGKILL (which no
// handler sees) by a watchdog: a small forked process that blocks reading a
// pipe whose only writer is the coordinator, and removes the directory when
// the read ends (ranks die with the coordinator through PR_SET_PDEATHSIG).
#pragma once

#include <string>
#include <sys/types.h>

namespace lumpi::launcher {

class RunDir {
 public:
  // Creates the directory (under `base`, created 0700 if missing; the
  // system's temporary directory when empty), starts its watchdog, and
  // installs the SIGTERM and SIGHUP handlers (once per process). Throws
  // std::runtime_error.
  explicit RunDir(const std::string& base = "");
  // Removes the directory and stops the watchdog (reaping it).
  ~RunDir();
  RunDir(const RunDir&) = delete;
  RunDir& operator=(const RunDir&) = delete;

  const std::string& path() const { return path_; }
  // A rank process of this world: the SIGTERM/SIGHUP handler kills it.
  void add_rank(pid_t pid);
  // A file outside the directory that goes with it (the connection file of
  // `lumpi world --jobfile FILE`): removed with it, however the coordinator
  // ends (the destructor, the handler, the watchdog). One per directory.
  void also_remove(const std::string& file);

 private:
  std::string path_;
  std::string extra_;     // also_remove's file
  int slot_ = -1;         // entry in the signal handler's table
  int watchdog_fd_ = -1;  // write end of the watchdog's pipe
  pid_t watchdog_ = -1;
};

}  // namespace lumpi::launcher
