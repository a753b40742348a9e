// repl/view/collate.cpp: rank-set formatting and parsing, result grouping.
#include "repl/view/collate.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace lumpi::repl {

std::string format_ranks(const std::vector<int>& ranks_in) {
  std::vector<int> ranks(ranks_in);
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  std::string out;
  for (size_t i = 0; i < ranks.size();) {
    size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    if (!out.empty()) out += ",";
    out += std::to_string(ranks[i]);
    if (j > i) out += "-" + std::to_string(ranks[j]);
    i = j + 1;
  }
  return out;
}

namespace {
bool parse_int(const std::string& s, int* out) {
  if (s.empty() || s.size() > 9) return false;
  for (char c : s)
    if (!std::isdigit((unsigned char)c)) return false;
  *out = std::stoi(s);
  return true;
}
}  // namespace

std::optional<std::vector<int>> parse_ranks(const std::string& text, int size, std::string* error) {
  std::set<int> out;
  if (text == "all" || text == "*") {
    for (int r = 0; r < size; ++r) out.insert(r);
    return std::vector<int>(out.begin(), out.end());
  }
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = text.find(',', pos);
    std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    size_t dash = item.find('-');
    int a, b;
    bool ok = dash == std::string::npos
                  ? parse_int(item, &a) && (b = a, true)
                  : parse_int(item.substr(0, dash), &a) && parse_int(item.substr(dash + 1), &b);
    if (!ok || a > b) {
      *error = "bad rank set '" + text + "' (expected e.g. 0,2-3 or all)";
      return std::nullopt;
    }
    if (b >= size) {
      *error = "rank " + std::to_string(b) + " is out of range for a world of size " + std::to_string(size);
      return std::nullopt;
    }
    for (int r = a; r <= b; ++r) out.insert(r);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return std::vector<int>(out.begin(), out.end());
}

std::vector<std::pair<std::string, std::vector<int>>> group_by_text(const std::map<int, std::string>& by_rank,
                                                                    bool by_value) {
  std::vector<std::pair<std::string, std::vector<int>>> groups;  // in first-rank order
  for (const auto& [rank, text] : by_rank) {
    const std::string& t = text;  // clang 14 cannot capture a structured binding
    auto it = by_value ? std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == t; })
                       : groups.end();
    if (it == groups.end()) groups.push_back({text, {rank}});
    else it->second.push_back(rank);
  }
  return groups;
}

std::vector<std::string> collate(const std::map<int, std::string>& by_rank, bool by_value) {
  std::vector<std::string> lines;
  for (const auto& [text, ranks] : group_by_text(by_rank, by_value)) {
    std::string prefix = "[" + format_ranks(ranks) + "] ";
    size_t pos = 0;
    for (;;) {
      size_t nl = text.find('\n', pos);
      lines.push_back(prefix + text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos));
      if (nl == std::string::npos) break;
      pos = nl + 1;
      prefix = std::string(prefix.size(), ' ');
    }
  }
  return lines;
}

}  // namespace lumpi::repl
