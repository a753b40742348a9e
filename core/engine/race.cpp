// core/engine/race.cpp: message races (core/engine/race.hpp).
#include "core/engine/race.hpp"

#include <algorithm>
#include <cstdio>

#include "core/base/constants.hpp"

namespace lumpi::core {

void RaceCheck::suspect(const WildcardMatch& k, const Envelope& e) {
  if (e.source == k.source || e.clock > k.clock || !matches(k.context, ANY_SOURCE, k.tag, e)) return;
  if (suspects_.size() >= 4 * kKeep)
    suspects_.erase(std::min_element(suspects_.begin(), suspects_.end(), [](const auto& a, const auto& b) {
      return a.second.added < b.second.added;
    }));
  Suspect s{{"", k.call, e.source, e.clock, e.tag, k.context}, k.taken, k.number, k.rank_of(k.source),
            k.rank_of(e.source), k.probe, {}, ++suspected_};
  if (k.number)
    s.replay = " (to run it with the other order: LUMPI_RACE=" + std::to_string(k.receiver) + ":" +
               std::to_string(k.number) + ":" + std::to_string(e.source) + ")";
  suspects_.emplace(std::pair{e.source, e.seq}, std::move(s));
}

std::optional<Race> RaceCheck::settle(const Envelope& e, const WildcardMatch* by, bool stranded) {
  auto it = suspects_.find({e.source, e.seq});
  if (it == suspects_.end()) return std::nullopt;
  Suspect s = std::move(it->second);
  suspects_.erase(it);
  if (by && by->context == s.race.context && s.first && matches(s.race.context, ANY_SOURCE, by->tag, *s.first))
    return std::nullopt;  // interchangeable: either could have taken either message
  if (s.number ? !said_receives_.insert(s.number).second : !said_.insert(s.race.call + std::to_string(s.other)).second)
    return std::nullopt;  // once per wildcard receive
  const std::string what = s.probe ? "probe" : "receive", mine = std::to_string(s.mine),
                    other = std::to_string(s.other);
  s.race.text = s.race.call + (s.probe ? " found" : " received") + " the message rank " + mine +
                " sent, and the one rank " + other + " sent could have matched it as well (neither send comes after the " +
                what + " matched), " +
                (stranded ? "and rank " + other + "'s is still unreceived where the run stopped"
                          : "and a receive that could not have had rank " + mine + "'s took rank " + other + "'s") +
                ": which receive gets which message depends on timing (MPI-3.1 §3.5: MPI makes no guarantee of "
                "fairness); name the source, or use tags that tell the messages apart" + s.replay;
  return s.race;
}

std::vector<Race> RaceCheck::stranded(const std::list<Message>& waiting) {
  std::vector<Race> out;
  for (const Message& w : waiting)
    if (auto r = settle(w.env, nullptr, true)) out.push_back(std::move(*r));
  return out;
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
  for (const Message& w : waiting) suspect(m, w.env);
  std::optional<Race> out;
  if (m.taken) {
    for (const WildcardMatch& k : kept_) suspect(k, *m.taken);
    out = settle(*m.taken, &m, false);
  }
  if (kept_.size() == kKeep) kept_.pop_front();
  kept_.push_back(std::move(m));
  return out;
}

void RaceCheck::arrived(const Envelope& e) {
  for (const WildcardMatch& k : kept_) suspect(k, e);
}

std::optional<Race> RaceCheck::taken_by_name(const Envelope& e) {
  for (const WildcardMatch& k : kept_) suspect(k, e);  // matched on arrival, before k was noted complete
  return settle(e, nullptr, false);
}

}  // namespace lumpi::core
