// repl/check_report.hpp: what the checker found in a run (docs/checking.md):
// each finding once, counted for the exit status, written as JSON with
// --check-report FILE.
#pragma once

#include <string>
#include <vector>

namespace lumpi::repl {

struct CheckFinding {
  std::string check_class;  // "deadlock", "collective-mismatch"
  std::vector<int> ranks;   // the ranks involved (COMM_WORLD)
  std::string text;         // the report as shown, lines joined by '\n'
};

class CheckReport {
 public:
  // Records a finding; a rank's report of a finding another rank already
  // reported (the same class and text) is merged into it. True if it is new.
  bool add(CheckFinding f);
  bool empty() const { return findings_.empty(); }
  const std::vector<CheckFinding>& findings() const { return findings_; }
  // {"findings": [{"class": ..., "ranks": [...], "text": ...}, ...]}; an
  // empty list when nothing fired. False (with a line on stderr) if the
  // file cannot be written.
  bool write(const std::string& path) const;

 private:
  std::vector<CheckFinding> findings_;
};

}  // namespace lumpi::repl
