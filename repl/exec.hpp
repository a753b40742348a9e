// repl/exec.hpp: `lumpi exec -n N program args...`: any executable as a
// world, like mpiexec.
//
// The ranks are the program itself: it joins through the rank host
// (launcher::Host::join, from the LUMPI_* environment World sets). Its own
// stdout and stderr pass through untouched; rank 0 reads lumpi's stdin, the
// others /dev/null. The exit status is 0 when every rank exits 0, else the
// worst (the largest exit code, 128 + signal for a signal; the error code of
// an MPI_Abort). Ctrl-C or the timeout (--timeout S, else MPIEXEC_TIMEOUT)
// first prints on stderr where every rank waits, in the REPL's :status
// format, then stops the world: exit status 130 for Ctrl-C, 124 for a
// timeout. A rank that dies before finishing is announced to the others,
// whose waits on it fail with MPI_ERR_PROC_FAILED. No process outlives it.
//
// The checker (docs/checking.md): a deadlock is found when it happens
// (repl/view/watch.hpp), reported on stderr and the world stopped; a check
// that fires on a rank (a collective mismatch) is counted. A run in which a
// check fired exits non-zero (1 when nothing else failed); --check turns on
// the full checks on the ranks, --check-report FILE writes the findings as JSON.
#pragma once

#include <string>
#include <vector>

#include "launcher/coordinator/launch.hpp"

namespace lumpi::repl {

struct ExecOptions {
  int size = 1;
  std::string program;            // as the user gave it; found on PATH if it has no '/'
  std::vector<std::string> args;  // the program's arguments
  std::string bind = "none";
  double timeout = 0;  // seconds; 0: MPIEXEC_TIMEOUT if set, else none
  launcher::Placement placement;  // --launcher, --hosts...
  bool check = false;             // --check
  std::string check_report;       // --check-report FILE ("": none)
};

// Runs the world to its end; returns the exit status described above.
int run_exec(const ExecOptions& opts);

}  // namespace lumpi::repl
