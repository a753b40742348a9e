// repl/check_report.cpp: the findings of a run and their JSON file.
#include "repl/check_report.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

namespace lumpi::repl {

bool CheckReport::add(CheckFinding f) {
  for (CheckFinding& old : findings_) {
    if (old.check_class != f.check_class || old.text != f.text) continue;
    for (int r : f.ranks)
      if (std::find(old.ranks.begin(), old.ranks.end(), r) == old.ranks.end()) old.ranks.push_back(r);
    std::sort(old.ranks.begin(), old.ranks.end());
    return false;
  }
  findings_.push_back(std::move(f));
  return true;
}

bool CheckReport::write(const std::string& path) const {
  nlohmann::json list = nlohmann::json::array();
  for (const CheckFinding& f : findings_)
    list.push_back({{"class", f.check_class}, {"ranks", f.ranks}, {"text", f.text}});
  std::ofstream out(path);
  out << nlohmann::json{{"findings", list}}.dump(2) << "\n";
  if (out) return true;
  std::fprintf(stderr, "lumpi: cannot write the check report to %s\n", path.c_str());
  return false;
}

}  // namespace lumpi::repl
