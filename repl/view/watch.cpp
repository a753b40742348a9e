// repl/view/watch.cpp: the live deadlock watch (watch.hpp).
#include "repl/view/watch.hpp"

#include <algorithm>

namespace lumpi::repl {

using State = RankView::State;

void DeadlockWatch::notice(int r, const launcher::ControlMsg& m, double now) {
  RankView v = view_of_status(m);
  if (v.state == State::Blocked && (!since_.count(r) || since_[r].first != v.serial)) since_[r] = {v.serial, now};
  if (v.state == State::Blocked || v.state == State::Finishing) seen_[r] = std::move(v);
  else seen_.erase(r);
  dirty_ = true;
}

// `base` with the notices over the ranks it does not know better (running
// or unknown there); a finished rank's notice brings its counts.
std::map<int, RankView> DeadlockWatch::merged(const std::map<int, RankView>& base) const {
  std::map<int, RankView> views = base;
  for (const auto& [r, v] : seen_) {
    auto it = views.find(r);
    if (it == views.end() || it->second.state == State::Running || it->second.state == State::Unknown)
      views[r] = v;
    else if (it->second.counts.sent.empty())
      it->second.counts = v.counts;
  }
  return views;
}

bool DeadlockWatch::should_ask(const std::map<int, RankView>& base, double now) {
  bool due = dirty_ || (retry_at_ >= 0 && now >= retry_at_);
  if (asking_ || !due) return false;
  dirty_ = false;
  retry_at_ = -1;
  std::set<int> stuck = stuck_ranks(merged(base));
  if (stuck.empty() || stuck == reported_) return false;
  asking_ = true;
  asked_ = seen_;  // rule 1: only what came before the question
  return true;
}

// Rule 1: r answered blocked in the wait it told of before the question,
// having received and sent nothing since.
bool DeadlockWatch::unchanged(int r, const RankView& now) const {
  auto it = asked_.find(r);
  if (it == asked_.end()) return false;
  const RankView& was = it->second;
  return was.state == State::Blocked && now.state == State::Blocked && was.serial == now.serial &&
         was.wait == now.wait && was.counts == now.counts;
}

// Rule 2 (and 3's unknown counts): a message between r and some rank, either
// way, that its receiver has not received, or counts unknown where needed.
bool DeadlockWatch::in_flight(int r, const std::map<int, RankView>& views) {
  const launcher::Counts& mine = views.at(r).counts;
  if (mine.received.empty() || mine.sent.empty()) return true;
  for (const auto& [a, v] : views) {
    bool ended = v.state == State::Idle || v.state == State::Finishing;
    if (v.counts.sent.empty()) {
      if (ended) return true;  // what it sent before it ended is unknown
      continue;
    }
    if (on_its_way(v.counts, a, mine, r) || on_its_way(mine, r, v.counts, a)) return true;
  }
  return false;
}

std::vector<std::string> DeadlockWatch::confirm(const std::map<int, RankView>& answers, double now) {
  asking_ = false;
  // The answers alone (a rank that did not answer counts as running), with
  // the counts a finished rank told before it went.
  std::map<int, RankView> views = answers;
  for (auto& [r, v] : views) {  // rule 3: a finished rank's counts are those of its "finishing" notice
    auto it = seen_.find(r);
    if (v.state == State::Finishing && v.counts.sent.empty() && it != seen_.end() &&
        it->second.state == State::Finishing) {
      v.counts = it->second.counts;
      v.last_error = it->second.last_error;  // and so is its last MPI error
    }
  }
  std::set<int> stuck = stuck_ranks(views);
  bool ok = !stuck.empty();
  for (int r : stuck) ok = ok && unchanged(r, views.at(r)) && !in_flight(r, views);
  for (const auto& [r, v] : answers) {
    if (v.state == State::Blocked || (v.state == State::Finishing && !v.counts.sent.empty())) seen_[r] = v;
    else if (v.state == State::Running) seen_.erase(r);
  }
  if (!ok) {
    if (!stuck.empty()) retry_at_ = now + 0.02;
    return {};
  }
  std::map<int, uint64_t> waits;  // a deadlock is its stuck ranks in their waits: once each
  for (int r : stuck) {
    waits[r] = views.at(r).serial;
    auto f = failed_.find(r);
    if (f != failed_.end() && f->second == waits[r]) return {};  // told to raise, it is leaving that wait
  }
  if (waits == reported_waits_) return {};
  reported_waits_ = waits;
  reported_ = stuck;
  failures_ = wait_failures(views);
  for (const WaitFailure& f : failures_) failed_[f.rank] = f.serial;
  std::vector<std::string> lines = diagnose(views);
  lines.push_back(deadlock_section(views, stuck));
  return lines;
}

double DeadlockWatch::first_notice() const {
  double first = 1e300;
  for (int r : reported_)
    if (auto it = since_.find(r); it != since_.end()) first = std::min(first, it->second.second);
  return first;
}

std::string deadlock_section(const std::map<int, RankView>& views, const std::set<int>& stuck) {
  bool collective = false, p2p = false, epoch = false, finalize = false;
  for (int r : stuck) {
    const std::string& call = views.at(r).wait.call;
    bool e = call == "MPI_Win_start" || call == "MPI_Win_wait";
    bool f = call == "MPI_Finalize";
    bool c = !e && !f && !views.at(r).wait.group.empty();
    epoch = epoch || e;
    finalize = finalize || f;
    collective = collective || c;
    p2p = p2p || (!c && !e && !f);
  }
  std::vector<std::string> parts;
  if (epoch)
    parts.push_back("§11.5.2: MPI_Win_start waits for an MPI_Win_post by each target of its group, MPI_Win_wait for "
                    "an MPI_Win_complete by each origin of its group");
  if (p2p) parts.push_back("§3.5: a blocking call returns only once its matching operation is posted, and here none "
                           "ever will be");
  if (collective)
    parts.push_back("§5.13: every process of a communicator must call its collectives, in the same order, for none "
                    "to block for ever");
  if (finalize)
    parts.push_back("§8.7: MPI_Finalize is collective over all connected processes, and a process completes the "
                    "communication it takes part in before it calls MPI_Finalize");
  std::string s = "MPI-3.1 ";
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? "; " : "") + parts[i];
  return s;
}

}  // namespace lumpi::repl
