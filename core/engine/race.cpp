// core/engine/race.cpp: message races (core/engine/race.hpp).
#include "core/engine/race.hpp"

#include "core/base/constants.hpp"

namespace lumpi::core {

std::optional<std::string> RaceCheck::race(WildcardMatch& m, const Envelope& e) {
  if (m.call.empty() || e.source == m.source || e.clock > m.clock || !matches(m.context, ANY_SOURCE, m.tag, e))
    return std::nullopt;
  std::string text = m.call + " received the message rank " + std::to_string(m.rank_of(m.source)) +
                     " sent, and the one rank " + std::to_string(m.rank_of(e.source)) +
                     " sent could have matched it as well (neither send comes after the receive matched): "
                     "which one a receive from MPI_ANY_SOURCE gets depends on timing, and so may the result "
                     "(MPI-3.1 §3.5: MPI makes no guarantee of fairness); name the source, or use tags that "
                     "tell the messages apart";
  m.call.clear();  // reported: once per receive
  if (!said_.insert(text).second) return std::nullopt;
  return text;
}

std::optional<std::string> RaceCheck::completed(WildcardMatch m, const std::list<Message>& waiting) {
  std::optional<std::string> out;
  for (const Message& w : waiting)
    if ((out = race(m, w.env))) break;
  if (kept_.size() == kKeep) kept_.pop_front();
  kept_.push_back(std::move(m));
  return out;
}

std::optional<std::string> RaceCheck::arrived(const Envelope& e) {
  for (WildcardMatch& m : kept_)
    if (auto out = race(m, e)) return out;
  return std::nullopt;
}

}  // namespace lumpi::core
