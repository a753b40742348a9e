// repl/complete.cpp: splitting the text before the cursor and asking a rank
// for completions (see complete.hpp).
#include "repl/complete.hpp"

#include <cctype>
#include <sstream>

namespace lumpi::repl {
namespace {

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

std::string lua_quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::optional<std::string> ask_rank(Session& s, int rank, const std::string& code) {
  if (s.size() == 0 || rank < 0 || rank >= s.size() || !s.world().alive(rank)) return std::nullopt;
  double saved_hang = s.hang_after;
  auto saved_poll = std::move(s.poll_input);
  s.hang_after = 1e9;
  s.poll_input = nullptr;
  Outcome o = s.run({rank}, "text", code);
  s.hang_after = saved_hang;
  s.poll_input = std::move(saved_poll);
  auto it = o.ranks.find(rank);
  if (it == o.ranks.end() || it->second.state != RankOutcome::State::Ok || !it->second.has_value)
    return std::nullopt;
  return it->second.text;
}

bool parse_completion(const std::string& before, CompletionQuery* q) {
  size_t i = before.size();
  while (i > 0 && name_char(before[i - 1])) --i;
  q->partial = before.substr(i);
  q->sep = 0;
  q->base.clear();
  if (i > 0 && (before[i - 1] == '.' || before[i - 1] == ':')) {
    q->sep = before[i - 1];
    size_t end = i - 1, j = end;
    while (j > 0 && (name_char(before[j - 1]) || before[j - 1] == '.')) --j;
    q->base = before.substr(j, end - j);
    if (q->base.empty() || !(std::isalpha(static_cast<unsigned char>(q->base[0])) || q->base[0] == '_'))
      return false;
    if (q->base.back() == '.') return false;
  }
  if (!q->partial.empty() && std::isdigit(static_cast<unsigned char>(q->partial[0]))) return false;
  return true;
}

std::vector<std::string> complete(Session& s, int rank, const CompletionQuery& q) {
  std::string code = "require('lumpi.complete').candidates(" + lua_quote(q.base) + ", " +
                     lua_quote(q.sep ? std::string(1, q.sep) : "") + ", " + lua_quote(q.partial) + ")";
  // Readline is mid-line: ask_rank keeps the hang report and type-ahead away.
  std::vector<std::string> out;
  std::optional<std::string> text = ask_rank(s, rank, code);
  if (!text) return out;
  std::istringstream in(*text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

}  // namespace lumpi::repl
