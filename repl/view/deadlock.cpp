// repl/view/deadlock.cpp: the wait-for graph of a hung command and the queues' text.
#include "repl/view/deadlock.hpp"

#include <algorithm>
#include <set>

#include "repl/view/collate.hpp"

namespace lumpi::repl {

using launcher::QueueEntry;
using launcher::RankState;
using State = RankView::State;

namespace {

constexpr int kAnySource = -2;  // core/base/constants.hpp's values, which the coordinator does not link
constexpr int kAnyTag = -4;

bool is_collective(const RankView& v) { return !v.wait.group.empty(); }

// A receive or probe from ANY_SOURCE: a message from a rank outside the
// graph's view (in flight) could still match it, so its deadlock is only
// possible. (MPI_Waitany also waits for any one rank, but for given ones.)
bool wildcard(const RankView& v) { return v.wait.any && v.where.find("ANY_SOURCE") != std::string::npos; }

// MPI_Win_lock waits for the lock's holder, not for the target, which
// answers lock requests even while idle (passive target): any other rank
// may hold it, and the lock comes once any one of them lets go.
bool lock_wait(const RankView& v) { return v.wait.call == "MPI_Win_lock"; }

// Any one of the ranks waited for will do (a wildcard, MPI_Waitany, a lock).
bool waits_any(const RankView& v) { return v.wait.any || lock_wait(v); }

// What a lock wait adds to "waits for any of 0,2".
std::string holder_note(const RankView& v) { return lock_wait(v) ? " (whichever holds the lock)" : ""; }

// The ranks `r` waits for: a collective's members that are not in the same
// call on the same communicator (if every member is, the peer it waits on
// now); otherwise the ranks of its wait (a source, a destination).
std::set<int> waits_for(int r, const RankView& v, const std::map<int, RankView>& all) {
  std::set<int> out;
  if (lock_wait(v)) {
    for (const auto& [m, other] : all)
      if (m != r) out.insert(m);
    return out;
  }
  if (is_collective(v)) {
    for (int m : v.wait.group) {
      if (m == r) continue;
      auto it = all.find(m);
      bool same = it != all.end() && it->second.state == State::Blocked && it->second.wait.call == v.wait.call &&
                  it->second.wait.context == v.wait.context;
      if (!same) out.insert(m);
    }
    if (!out.empty()) return out;
  }
  // A wait on the rank itself alone (a receive from itself, a synchronous
  // send to itself) can never be met: blocked, it cannot post the other
  // half. Among others (a wildcard), the rank itself is no peer.
  if (v.wait.waits.size() == 1 && v.wait.waits.front() == r) return {r};
  for (int m : v.wait.waits)
    if (m != r) out.insert(m);
  return out;
}

bool terminal(State s) { return s == State::Idle || s == State::Finishing || s == State::Dead; }

State state_of(const std::map<int, RankView>& all, int r) {
  auto it = all.find(r);
  return it == all.end() ? State::Unknown : it->second.state;
}

// "MPI_Recv(source=0, tag=5) on 'w'" from "waiting in MPI_Recv(source=0, tag=5) on 'w'";
// a call without arguments loses its "()".
std::string call_text(const RankView& v) {
  std::string s = v.where;
  if (s.rfind("waiting in ", 0) == 0) s.erase(0, 11);
  if (auto p = s.find("()"); p != std::string::npos) s.erase(p, 2);
  if (s.empty()) s = v.wait.call;
  return s;
}

std::string ranks_text(const std::set<int>& ranks, bool any) {
  std::string s = format_ranks(std::vector<int>(ranks.begin(), ranks.end()));
  return any && ranks.size() > 1 ? "any of " + s : s;
}

// Why a rank waited for is elsewhere, when it knows: the MPI error it was
// handed last (a bad argument raises before any communication).
std::string error_note(const RankView& v) {
  return v.last_error.empty() ? "" : "; its last MPI error: " + v.last_error.text();
}

std::string state_words(const RankView& v) {
  switch (v.state) {
    case State::Idle: return "idle" + (v.why.empty() ? "" : " (" + v.why + ")");
    case State::Finishing: return "finished (its program ended)";
    case State::Dead: return "dead" + (v.why.empty() ? "" : " (" + v.why + ")");
    case State::Running: return "running";
    case State::Unknown: return "not answering";
    case State::Blocked: return "blocked in " + call_text(v);
  }
  return "";
}

// "idle (finished the command)", with the rank's last MPI error if it had one.
std::string state_text(const std::map<int, RankView>& all, int r) {
  auto it = all.find(r);
  if (it == all.end()) return "not answering";
  return state_words(it->second) + error_note(it->second);
}

// User-lane messages that arrived at `r` on the context `r` waits on but did
// not match it: the usual sign of a wrong tag or source.
std::string unmatched_hint(int r, const RankView& v) {
  bool receives = v.wait.call.find("Recv") != std::string::npos || v.wait.call.find("Probe") != std::string::npos;
  if (is_collective(v) || v.wait.context == 0 || !receives) return "";
  std::string s;
  for (const QueueEntry& e : v.queue) {
    if (e.posted || e.context != v.wait.context * 4) continue;  // lane 0: the user's messages
    s += std::string(s.empty() ? "" : "; ") + "from " + std::to_string(e.source) + " with tag " +
         std::to_string(e.tag);
  }
  if (s.empty()) return "";
  return " (rank " + std::to_string(r) + " has unmatched messages " + s + ")";
}

struct Graph {
  const std::map<int, RankView>& all;
  std::map<int, std::set<int>> edges;  // stuck rank -> the ranks it waits for
  std::set<int> stuck;
};

// Blocked ranks that can never go on: the others are "live" (running, not
// answering, or waiting for at least one live rank), to a fixed point.
// One live rank is enough, also for a collective that needs every member:
// a member that finished or went idle may have done its part already (an
// inner rank of a barrier's tree leaves it once it has passed the release
// on), and the message a blocked member still needs may come from a rank
// that is forwarding it right now. Only a rank every one of whose peers is
// stuck or can never act is stuck.
Graph build(const std::map<int, RankView>& all) {
  Graph g{all, {}, {}};
  std::set<int> live;
  for (const auto& [r, v] : all) {
    if (v.state == State::Running || v.state == State::Unknown) live.insert(r);
    if (v.state == State::Blocked) g.edges[r] = waits_for(r, v, all);
  }
  auto is_live = [&](int r) { return live.count(r) || !all.count(r); };
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [r, w] : g.edges) {
      if (live.count(r)) continue;
      bool go = w.empty() || std::any_of(w.begin(), w.end(), is_live);
      if (go) live.insert(r), changed = true;
    }
  }
  for (const auto& [r, w] : g.edges)
    if (!live.count(r)) g.stuck.insert(r);
  return g;
}

// The shortest cycle through `r` among stuck ranks (breadth first, smaller
// ranks first), empty if none.
std::vector<int> cycle_through(const Graph& g, int r) {
  std::map<int, int> parent;
  std::vector<int> frontier{r};
  while (!frontier.empty()) {
    std::vector<int> next;
    for (int u : frontier)
      for (int t : g.edges.at(u)) {
        if (!g.stuck.count(t)) continue;
        if (t == r) {  // closed: walk back from u to r
          std::vector<int> cyc{u};
          while (cyc.back() != r) cyc.push_back(parent.at(cyc.back()));
          std::reverse(cyc.begin(), cyc.end());
          return cyc;
        }
        if (parent.count(t)) continue;
        parent[t] = u;
        next.push_back(t);
      }
    frontier = std::move(next);
  }
  return {};
}

// Every stuck rank's shortest cycle, each cycle once, from its smallest rank.
std::vector<std::vector<int>> cycles(const Graph& g) {
  std::set<std::vector<int>> found;
  std::set<int> on_cycle;
  for (int r : g.stuck) {
    if (on_cycle.count(r)) continue;
    std::vector<int> cyc = cycle_through(g, r);
    if (cyc.empty()) continue;
    on_cycle.insert(cyc.begin(), cyc.end());
    std::rotate(cyc.begin(), std::min_element(cyc.begin(), cyc.end()), cyc.end());
    found.insert(cyc);
  }
  return {found.begin(), found.end()};
}

std::string cycle_line(const Graph& g, const std::vector<int>& cyc) {
  bool possible = false;
  std::string arrows, parts;
  for (int r : cyc) {
    const RankView& v = g.all.at(r);
    possible = possible || wildcard(v);
    arrows += std::to_string(r) + " -> ";
    parts += std::string(parts.empty() ? "" : ", ") + "rank " + std::to_string(r) + " in " + call_text(v) +
             " waits for " + ranks_text(g.edges.at(r), waits_any(v)) + holder_note(v) + unmatched_hint(r, v) +
             error_note(v);
  }
  arrows += std::to_string(cyc.front());
  return std::string(possible ? "possible deadlock (a wildcard receive; a message in flight could still match it): "
                              : "deadlock: ") +
         arrows + ": " + parts;
}

// Stuck ranks that wait for ranks that will never act (idle, finished,
// dead), grouped by what they wait in and for whom.
std::vector<std::string> terminal_lines(const Graph& g) {
  std::map<std::pair<std::string, std::set<int>>, std::vector<int>> groups;
  std::map<std::pair<std::string, std::set<int>>, bool> possible;
  std::map<std::pair<std::string, std::set<int>>, std::string> hints;
  for (int r : g.stuck) {
    const std::set<int>& w = g.edges.at(r);
    const RankView& v = g.all.at(r);
    auto ended = [&](int t) { return terminal(state_of(g.all, t)); };
    if (std::none_of(w.begin(), w.end(), ended)) continue;
    if (lock_wait(v) && !std::all_of(w.begin(), w.end(), ended)) continue;  // a stuck rank holds it
    auto key = std::make_pair(call_text(v), w);
    groups[key].push_back(r);
    possible[key] = possible[key] || wildcard(v);
    hints[key] += unmatched_hint(r, v);
  }
  std::vector<std::string> out;
  for (const auto& [key, ranks] : groups) {
    const auto& [call, w] = key;
    bool many = ranks.size() > 1;
    std::string states;
    for (int t : w)
      if (terminal(state_of(g.all, t)))
        states += std::string(states.empty() ? "" : ", ") + "rank " + std::to_string(t) + " is " +
                  state_text(g.all, t);
    out.push_back(std::string(possible.at(key) ? "possible deadlock (a wildcard receive): " : "deadlock: ") +
                  (many ? "ranks " : "rank ") + format_ranks(ranks) + " in " + call + (many ? " wait" : " waits") +
                  " for " + ranks_text(w, waits_any(g.all.at(ranks.front()))) + holder_note(g.all.at(ranks.front())) +
                  ": " + states + hints.at(key));
  }
  return out;
}

// The arguments of a call text: "root=2" from "MPI_Reduce(root=2) on 'w'".
std::string args_of(const std::string& where) {
  size_t open = where.find('('), close = where.find(')');
  if (open == std::string::npos || close == std::string::npos || close < open) return "";
  return where.substr(open + 1, close - open - 1);
}

// The ranks of `ranks` blocked in a collective, by (call, context), then by
// the arguments they gave it.
using ArgsByCall = std::map<std::pair<std::string, uint64_t>, std::map<std::string, std::vector<int>>>;
template <class Ranks>
ArgsByCall args_by_call(const Graph& g, const Ranks& ranks) {
  ArgsByCall by_call;
  for (int r : ranks) {
    const RankView& v = g.all.at(r);
    if (v.state == State::Blocked && is_collective(v))
      by_call[{v.wait.call, v.wait.context}][args_of(call_text(v))].push_back(r);
  }
  return by_call;
}

// "root=0 at ranks 0,2, root=2 at rank 2"
std::string args_text(const std::map<std::string, std::vector<int>>& args) {
  std::string parts;
  for (const auto& [a, ranks] : args)
    parts += std::string(parts.empty() ? "" : ", ") + (a.empty() ? "no arguments" : a) + " at rank" +
             (ranks.size() > 1 ? "s " : " ") + format_ranks(ranks);
  return parts;
}

// Ranks blocked in the same collective on the same communicator that gave
// it different arguments (a wrong root), one line per such collective.
std::vector<std::string> mismatch_lines(const Graph& g) {
  std::vector<int> all;
  std::map<std::pair<std::string, uint64_t>, std::string> comm;
  for (const auto& [r, v] : g.all) {
    all.push_back(r);
    if (v.state == State::Blocked && is_collective(v)) comm[{v.wait.call, v.wait.context}] = v.wait.comm;
  }
  std::vector<std::string> out;
  for (const auto& [key, args] : args_by_call(g, all)) {
    if (args.size() < 2) continue;
    std::string parts = args_text(args);
    out.push_back("mismatch: " + key.first + (comm[key].empty() ? "" : " on '" + comm[key] + "'") +
                  " called with different arguments: " + parts);
  }
  return out;
}

// Stuck ranks blocked in collectives that are not one and the same call on
// one communicator: a collective mismatch (swapped calls, or one call on
// different communicators), the real error behind such a cycle.
std::vector<std::string> order_lines(const Graph& g) {
  std::map<std::pair<std::string, uint64_t>, std::vector<int>> by_call;
  std::map<std::pair<std::string, uint64_t>, std::string> comm;
  for (int r : g.stuck) {
    const RankView& v = g.all.at(r);
    if (!is_collective(v)) continue;
    auto key = std::make_pair(v.wait.call, v.wait.context);
    by_call[key].push_back(r);
    comm[key] = v.wait.comm.empty() ? "an unnamed communicator" : "'" + v.wait.comm + "'";
  }
  if (by_call.size() < 2) return {};
  std::string parts;
  for (const auto& [key, ranks] : by_call)
    parts += std::string(parts.empty() ? "" : ", ") + (ranks.size() > 1 ? "ranks " : "rank ") + format_ranks(ranks) +
             " in " + key.first + " on " + comm[key];
  return {"collective mismatch: " + parts +
          ": all processes must call collectives in the same order with matching arguments (MPI-3.1 §5.1, §5.13)"};
}

// General active target (MPI-3.1 §11.5.2): a rank stuck in MPI_Win_start
// waits for the MPI_Win_post of the targets its wait names, one stuck in
// MPI_Win_wait for the MPI_Win_complete of the origins; the line names the
// missing call and where those ranks are instead.
std::vector<std::string> epoch_lines(const Graph& g) {
  std::vector<std::string> out;
  for (int r : g.stuck) {
    const RankView& v = g.all.at(r);
    const char* missing = v.wait.call == "MPI_Win_start" ? "MPI_Win_post"
                          : v.wait.call == "MPI_Win_wait" ? "MPI_Win_complete" : nullptr;
    if (!missing) continue;
    std::string states;
    for (int t : g.edges.at(r))
      states += std::string(states.empty() ? "" : ", ") + "rank " + std::to_string(t) + " is " + state_text(g.all, t);
    out.push_back("missing " + std::string(missing) + ": rank " + std::to_string(r) + " in " + v.wait.call +
                  " waits for " + missing + " by rank" + (g.edges.at(r).size() > 1 ? "s " : " ") +
                  ranks_text(g.edges.at(r), false) + " (" + states + ")");
  }
  return out;
}

}  // namespace

RankView view_of_status(const launcher::ControlMsg& m) {
  RankView v;
  switch (m.state) {
    case RankState::Idle: v.state = State::Idle; break;
    case RankState::Running: v.state = State::Running; break;
    case RankState::Blocked: v.state = State::Blocked; break;
    case RankState::Finishing: v.state = State::Finishing; break;
  }
  v.where = m.text;
  v.wait = m.wait;
  v.queue = m.queue;
  v.serial = m.serial;
  v.counts = m.counts;
  v.last_error = m.error;
  return v;
}

std::set<int> stuck_ranks(const std::map<int, RankView>& ranks) { return build(ranks).stuck; }

// The stuck ranks waiting for a rank that failed their call, with its error.
static void failed_partners(const Graph& g, std::vector<WaitFailure>& out) {
  for (int r : g.stuck) {
    const RankView& v = g.all.at(r);
    for (int t : g.edges.at(r)) {
      auto it = g.all.find(t);
      if (it == g.all.end()) continue;
      const launcher::MpiError& theirs = it->second.last_error;
      if (v.wait.call.empty() || theirs.empty() || theirs.call != v.wait.call) continue;
      out.push_back({r, v.serial,
                     {theirs.error_class, v.wait.call,
                      "rank " + std::to_string(t) + " of COMM_WORLD will not take part (its " + v.wait.call +
                          " raised this error: " + theirs.message + ")"},
                     "the error of rank " + std::to_string(t)});
      break;
    }
  }
}

// The stuck ranks of one collective that gave it different roots.
static void different_roots(const Graph& g, std::vector<WaitFailure>& out) {
  for (const auto& [key, args] : args_by_call(g, g.stuck)) {
    if (args.size() < 2) continue;
    bool roots = true;
    for (const auto& [a, ranks] : args) roots = roots && a.rfind("root=", 0) == 0;
    if (!roots) continue;
    std::string parts = args_text(args);
    for (const auto& [a, ranks] : args)
      for (int r : ranks)
        out.push_back({r, g.all.at(r).serial,
                       {"MPI_ERR_ROOT", key.first,
                        "the ranks gave different roots (" + parts +
                            "); MPI-3.1 §5.1: the root must have identical values on all processes"},
                       "MPI_ERR_ROOT (their roots differ)"});
  }
}

std::vector<WaitFailure> wait_failures(const std::map<int, RankView>& ranks) {
  Graph g = build(ranks);
  std::vector<WaitFailure> out;
  failed_partners(g, out);
  std::set<int> told;
  for (const WaitFailure& f : out) told.insert(f.rank);
  std::vector<WaitFailure> roots;
  different_roots(g, roots);
  for (WaitFailure& f : roots)
    if (!told.count(f.rank)) out.push_back(std::move(f));
  return out;
}

std::vector<std::string> wait_failure_lines(const std::vector<WaitFailure>& failures) {
  std::map<std::string, std::vector<int>> by_why;
  for (const WaitFailure& f : failures) by_why[f.why].push_back(f.rank);
  std::vector<std::string> out;
  for (const auto& [why, ranks] : by_why)
    out.push_back("deadlock: rank" + std::string(ranks.size() > 1 ? "s " : " ") + format_ranks(ranks) + " raise " +
                  why);
  return out;
}

launcher::ControlMsg fail_msg(const WaitFailure& f, uint32_t epoch) {
  launcher::ControlMsg m;
  m.kind = launcher::Kind::Fail;
  m.error = f.error;
  m.epoch = epoch;
  m.serial = f.serial;
  return m;
}

std::vector<std::string> diagnose(const std::map<int, RankView>& ranks) {
  Graph g = build(ranks);
  if (g.stuck.empty()) return {};
  std::vector<std::string> out;
  std::set<int> explained;
  for (const auto& cyc : cycles(g)) {
    out.push_back(cycle_line(g, cyc));
    explained.insert(cyc.begin(), cyc.end());
  }
  for (auto& l : terminal_lines(g)) out.push_back(std::move(l));
  for (auto& l : mismatch_lines(g)) out.push_back(std::move(l));
  for (auto& l : order_lines(g)) out.push_back(std::move(l));
  for (auto& l : epoch_lines(g)) out.push_back(std::move(l));
  for (int r : g.stuck)
    for (int t : g.edges.at(r))
      if (terminal(state_of(g.all, t))) explained.insert(r);
  std::vector<int> behind;  // stuck only because the ranks they wait for are
  for (int r : g.stuck)
    if (!explained.count(r)) behind.push_back(r);
  for (int r : behind) {
    const RankView& v = g.all.at(r);
    out.push_back("also stuck: rank " + std::to_string(r) + " in " + call_text(v) + " waits for " +
                  ranks_text(g.edges.at(r), waits_any(v)) + holder_note(v));
  }
  return out;
}

std::string queue_text(const std::vector<QueueEntry>& queue) {
  if (queue.empty()) return "no posted receives, no unmatched messages";
  std::string s;
  for (const QueueEntry& e : queue) {
    if (!e.one_sided.empty()) {
      s += (s.empty() ? "" : "\n") + std::string("one-sided on '") + (e.comm.empty() ? "window" : e.comm) +
           "': " + e.one_sided;
      continue;
    }
    std::string comm = e.comm.empty() ? "unnamed communicator #" + std::to_string(e.context / 4) : e.comm;
    uint64_t lane = e.context % 4;
    std::string where = " on '" + comm + "'" + (lane == 1 ? " (collective traffic)" : lane == 2 ? " (constructor traffic)" : "");
    std::string tag = e.tag == kAnyTag ? "ANY_TAG" : std::to_string(e.tag);
    if (!s.empty()) s += "\n";
    if (e.posted)
      s += "posted receive: source=" + (e.source == kAnySource ? std::string("ANY_SOURCE") : std::to_string(e.source)) +
           ", tag=" + tag + where;
    else
      s += "unmatched message: from " + std::to_string(e.source) + ", tag=" + tag + where + ", " +
           std::to_string(e.bytes) + (e.bytes == 1 ? " byte" : " bytes");
  }
  return s;
}

}  // namespace lumpi::repl
