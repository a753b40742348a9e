// repl/test_runner.hpp: `lumpi test`, the scenario runner (API.md §13).
#pragma once

#include <string>
#include <vector>

#include "repl/session.hpp"

namespace lumpi::repl {

// Runs every scenario file under `paths` (files, or directories searched for
// *.lua) at the world sizes each declares in t.np (default: opts.size).
// Prints one line per case and "N passed, N failed[, N skipped]"; returns
// the exit status (0 when nothing failed). Writes JUnit XML if `junit` is set,
// and with `trace_dir` the trace diagram of every failing case into that
// directory (FILE-npN-KEY-NAME.txt; repl/view/trace_view.hpp). What the
// checks found (docs/checking.md) fails the run and, with `check_report`,
// is written there as JSON.
int run_tests(const Session::Options& opts, const std::vector<std::string>& paths, const std::string& junit,
              const std::string& trace_dir = "", const std::string& check_report = "");

}  // namespace lumpi::repl
