// core/engine/race.cpp: message races (core/engine/race.hpp).
#include "core/engine/race.hpp"

#include <algorithm>
#include <cstdio>

#include "core/base/constants.hpp"

namespace lumpi::core {

std::optional<Race> RaceCheck::race(WildcardMatch& m, const Envelope& e) {
  if (m.call.empty() || e.source == m.source || e.clock > m.clock || !matches(m.context, ANY_SOURCE, m.tag, e))
    return std::nullopt;
  const std::string what = m.probe ? "probe" : "receive";
  std::string text = m.call + (m.probe ? " found" : " received") + " the message rank " +
                     std::to_string(m.rank_of(m.source)) + " sent, and the one rank " +
                     std::to_string(m.rank_of(e.source)) + " sent could have matched it as well (neither send comes after the " +
                     what + " matched): which one a " + what +
                     " from MPI_ANY_SOURCE gets depends on timing, and so may the result "
                     "(MPI-3.1 §3.5: MPI makes no guarantee of fairness); name the source, or use tags that "
                     "tell the messages apart";
  if (m.number)
    text += " (to run it with the other order: LUMPI_RACE=" + std::to_string(m.receiver) + ":" +
            std::to_string(m.number) + ":" + std::to_string(e.source) + ")";
  Race found{text, m.call, e.source, e.clock, e.tag, m.context};
  m.call.clear();  // reported: once per receive
  if (!said_.insert(text).second) return std::nullopt;
  return found;
}

std::map<uint64_t, int> parse_replay(const char* text, int rank) {
  std::map<uint64_t, int> out;
  std::string s = text ? text : "";
  for (size_t at = 0; at < s.size();) {
    size_t end = std::min(s.find(',', at), s.size());
    long long r = -1, n = 0, src = -1;
    char tail = 0;
    if (std::sscanf(s.substr(at, end - at).c_str(), "%lld:%lld:%lld%c", &r, &n, &src, &tail) == 3 && r == rank &&
        n > 0 && src >= 0 && src < (1 << 30))
      out[uint64_t(n)] = int(src);
    at = end + 1;
  }
  return out;
}

std::optional<Race> RaceCheck::completed(WildcardMatch m, const std::list<Message>& waiting) {
  std::optional<Race> out;
  for (const Message& w : waiting)
    if ((out = race(m, w.env))) break;
  if (m.taken)
    for (WildcardMatch& k : kept_)
      if (!out && (out = race(k, *m.taken))) break;
  if (kept_.size() == kKeep) kept_.pop_front();
  kept_.push_back(std::move(m));
  return out;
}

std::optional<Race> RaceCheck::arrived(const Envelope& e) {
  for (WildcardMatch& m : kept_)
    if (auto out = race(m, e)) return out;
  return std::nullopt;
}

}  // namespace lumpi::core
