// repl/exec.cpp: the supervision loop of `lumpi exec` (see exec.hpp).
#include "repl/exec.hpp"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

#include "launcher/protocol/clock.hpp"
#include "launcher/coordinator/world.hpp"
#include "repl/view/collate.hpp"
#include "repl/check_report.hpp"
#include "repl/view/deadlock.hpp"
#include "repl/view/watch.hpp"
#include "repl/session.hpp"

namespace lumpi::repl {
namespace {

using launcher::ControlMsg;
using launcher::Kind;
using launcher::now_s;
using launcher::World;

constexpr int kExitTimeout = 124;
constexpr int kExitInterrupted = 130;
constexpr int kExitCheck = 1;  // a check fired and nothing else failed

// `program` itself when it names a path, else the first executable of that
// name on PATH (as execvp would find it); "" if none.
std::string find_program(const std::string& program) {
  if (program.find('/') != std::string::npos) return program;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t pos = 0;
  for (;;) {
    size_t colon = dirs.find(':', pos);
    std::string dir = dirs.substr(pos, colon == std::string::npos ? std::string::npos : colon - pos);
    std::string full = (dir.empty() ? "." : dir) + "/" + program;
    if (access(full.c_str(), X_OK) == 0) return full;
    if (colon == std::string::npos) return "";
    pos = colon + 1;
  }
}

// --timeout, else MPIEXEC_TIMEOUT (whole seconds, as MPICH reads it).
double timeout_of(const ExecOptions& o) {
  if (o.timeout > 0) return o.timeout;
  const char* env = std::getenv("MPIEXEC_TIMEOUT");
  if (!env || !*env) return 0;
  char* end = nullptr;
  double t = std::strtod(env, &end);
  if (*end || t < 0) throw std::runtime_error(std::string("MPIEXEC_TIMEOUT is not a number of seconds: ") + env);
  return t;
}

void say(const std::string& line) {
  std::fprintf(stderr, "lumpi exec: %s\n", line.c_str());
  std::fflush(stderr);
}

class Exec {
 public:
  Exec(const ExecOptions& o, const std::string& exe)
      : world_(world_options(o, exe)), killed_(size_t(o.size)), aborted_(size_t(o.size)), unanswered_(size_t(o.size)),
        check_(o.check) {}

  int run(double timeout) {
    int code = supervise(timeout);
    say_findings();
    if (!report_.empty() && code == 0) code = kExitCheck;
    return code;
  }

  const CheckReport& report() const { return report_; }

 private:
  int supervise(double timeout) {
    int sigints = sigint_count();
    double t0 = now_s();
    while (world_.alive_count() > 0 || world_.deaths_pending()) {
      auto ev = world_.next(confirming_ ? 5 : 100);
      if (ev) on_event(*ev);
      abandon_unwired();
      if (!world_.join_error().empty()) return stop(world_.join_error(), 1);
      if (sigint_count() != sigints) return stop("interrupted (Ctrl-C)", kExitInterrupted);
      if (watch_deadlock() && !fail_stuck_waits()) return stop_for_deadlock();
      if (!stopping_finding_.empty()) return stop_for_finding();
      if (timeout > 0 && now_s() - t0 > timeout)
        return stop("timeout after " + seconds_text(timeout) + " s", kExitTimeout);
    }
    return worst_exit();
  }

  // The live deadlock watch: asks every rank once the notices show stuck
  // ranks, and confirms from the answers; true once confirmed.
  bool watch_deadlock() {
    double now = now_s();
    if (confirming_) {
      if (!no_question_open()) return false;
      confirming_ = false;
      found_ = watch_.confirm(views(true, true), now);
      return !found_.empty();
    }
    if (!world_.wired() || !no_question_open() || !watch_.should_ask(views(true, false), now)) return false;
    statuses_.clear();
    for (int r = 0; r < world_.size(); ++r)
      if (world_.alive(r) && world_.rank(r).joined) ask(r);
    confirming_ = true;
    return false;
  }

  // What the ranks' checks found (leaks, request lifecycle ...), once each
  // with the ranks that found it, after the run; what stopped the run
  // (a deadlock, a collective mismatch) was said when it was found.
  void say_findings() {
    for (const CheckFinding& f : report_.findings()) {
      if (said_.count(f.text) || f.text.rfind("deadlock: ", 0) == 0) continue;
      std::string ranks;
      for (int r : f.ranks) ranks += (ranks.empty() ? "" : ",") + std::to_string(r);
      say(f.check_class + " (rank" + (f.ranks.size() > 1 ? "s " : " ") + ranks + "): " + f.text);
    }
  }

  int stop_for_deadlock() {
    say_deadlock();
    if (check_) ask_stranded_races();
    for (int r = 0; r < world_.size(); ++r) killed_[size_t(r)] = true, world_.kill(r);
    while (world_.alive_count() > 0) world_.next(20);
    return kExitCheck;
  }

  // Under --check, the message races the deadlock stranded (messages its
  // ranks will never receive): each of its ranks reports them, then
  // answers (races?); one second at most. They are said after the run.
  void ask_stranded_races() {
    for (int r : watch_.reported()) {
      if (!world_.alive(r)) continue;
      world_.send(r, launcher::msg(Kind::RaceQuery));
      ++unanswered_[size_t(r)];
    }
    serve_until([this] { return no_question_open(); });
  }

  // A deadlock whose stuck ranks wait for a rank that failed their call, or
  // gave a collective different roots (repl/view/deadlock.hpp): their waits
  // raise that error, under their own error handlers, and the run goes on.
  // False for any other deadlock.
  bool fail_stuck_waits() {
    if (watch_.failures().empty()) return false;
    for (const std::string& line : wait_failure_lines(watch_.failures())) found_.push_back(line);
    say_deadlock();
    for (const WaitFailure& f : watch_.failures()) world_.send(f.rank, fail_msg(f, 0));  // a program's epoch is 0
    return true;
  }

  // Says the confirmed deadlock (found_) and records it.
  void say_deadlock() {
    say("deadlock found (" + std::to_string(int((now_s() - watch_.first_notice()) * 1000 + launcher::kWaitNoticeMs)) +
        " ms after the first of its ranks blocked):");
    if (check_ && blocked_in_standard_send()) found_.push_back(kStandardSendsSynchronous);
    std::string text;
    for (const auto& line : found_) {
      std::fprintf(stderr, "%s\n", line.c_str());
      text += (text.empty() ? "" : "\n") + line;
    }
    std::fflush(stderr);
    bool mismatch = text.find("collective mismatch: ") != std::string::npos;
    said_.insert(text);
    report_.add({mismatch ? "collective-mismatch" : "deadlock", std::vector<int>(watch_.reported().begin(), watch_.reported().end()), text});
  }

  // Under --check standard sends wait for their receive (core/comm/comm.hpp).
  static constexpr const char* kStandardSendsSynchronous =
      "under --check standard sends (MPI_Send, MPI_Isend) are synchronous: MPI-3.1 §3.5 allows an "
      "implementation to buffer nothing, so this program works only where sends are buffered";

  bool blocked_in_standard_send() const {
    for (const auto& line : found_)
      if (line.find(" in MPI_Send(") != std::string::npos || line.find(" in MPI_Isend(") != std::string::npos)
        return true;
    return false;
  }

  // A finding after which the ranks cannot go on meaningfully (a
  // collective mismatch: its ranks wait in the call) stops the world, as a
  // deadlock does.
  int stop_for_finding() {
    say("collective mismatch found:");
    std::fprintf(stderr, "%s\n", stopping_finding_.c_str());
    said_.insert(stopping_finding_);
    std::fflush(stderr);
    for (int r = 0; r < world_.size(); ++r) killed_[size_t(r)] = true, world_.kill(r);
    while (world_.alive_count() > 0) world_.next(20);
    return kExitCheck;
  }

  void on_report(int rank, const ControlMsg& m) {
    report_.add({m.check_class, {rank}, m.text});
    if (m.check_class == "collective-mismatch" && stopping_finding_.empty()) stopping_finding_ = m.text;
  }

  static World::Options world_options(const ExecOptions& o, const std::string& exe) {
    World::Options w;
    w.size = o.size;
    w.exe = exe;
    w.args = o.args;
    w.bind = o.bind;
    w.stdin_rank = 0;
    w.placement = o.placement;
    w.check = o.check;
    return w;
  }

  void on_event(const World::Event& ev) {
    if (ev.kind == World::Event::Kind::Death) return on_death(ev.rank);
    const ControlMsg& m = ev.msg;
    if (m.kind == Kind::Status) {
      if (unanswered_[size_t(ev.rank)] > 0) --unanswered_[size_t(ev.rank)];
      statuses_[ev.rank] = m;
    }
    else if (m.kind == Kind::Wait) watch_.notice(ev.rank, m, now_s());
    else if (m.kind == Kind::Report) on_report(ev.rank, m);
    else if (m.kind == Kind::Output) std::printf("%s\n", m.text.c_str());
    else if (m.kind == Kind::Abort) on_abort(ev.rank, m);
  }

  void ask(int r) {
    world_.send(r, launcher::msg(Kind::StatusQuery));
    ++unanswered_[size_t(r)];
  }

  // Every live rank has answered every status question: the next answers
  // are to the next question (a late one must not pass for a new one).
  bool no_question_open() const {
    for (int r = 0; r < world_.size(); ++r)
      if (world_.alive(r) && unanswered_[size_t(r)] > 0) return false;
    return true;
  }

  // A rank that ends without finishing fails the waits that need it; one
  // killed by a signal (not by us) is said, on stderr. Under --check, one
  // that called MPI_Init and exited without MPI_Finalize is a finding.
  void on_death(int rank) {
    watch_.touch();
    unanswered_[size_t(rank)] = 0;
    if (world_.rank(rank).finished || killed_[size_t(rank)]) return;
    world_.announce_death(rank);
    const int status = world_.rank(rank).wait_status;
    if (WIFSIGNALED(status)) say("rank " + std::to_string(rank) + " died: " + launcher::describe_wait_status(status));
    else if (check_ && world_.rank(rank).joined && !aborted_[size_t(rank)] && WIFEXITED(status))
      report_.add({"call-ordering", {rank},
                   "the program ended (" + launcher::describe_wait_status(status) +
                       ") without calling MPI_Finalize (MPI-3.1 §8.7: a process that ends normally calls "
                       "MPI_Finalize before it exits)"});
  }

  // MPI_Abort: the other ranks are stopped; the job's status is the code.
  // A rank already stopped for an earlier abort lost the race (its own
  // abort crossed the kill): ignored, so the first abort's rank keeps its
  // status (MPICH's errors/comm/subcomm_abort2 aborts on two ranks at once).
  void on_abort(int rank, const ControlMsg& m) {
    if (killed_[size_t(rank)]) return;
    say("rank " + std::to_string(rank) + " called MPI_Abort(" + std::to_string(m.code) + "): " + m.text);
    aborted_[size_t(rank)] = true;
    for (int r = 0; r < world_.size(); ++r) {
      if (r == rank || !world_.alive(r)) continue;
      killed_[size_t(r)] = true;
      world_.kill(r);
    }
  }

  // A rank that ends before joining can never give the others their
  // endpoint table: the ranks already waiting for it are stopped. (Ranks
  // that never join, such as `lumpi exec -n 2 hostname`, just run.)
  void abandon_unwired() {
    if (world_.wired()) return;
    int gone = -1;
    for (int r = 0; r < world_.size(); ++r)
      if (!world_.alive(r) && !world_.rank(r).joined) gone = r;
    if (gone < 0) return;
    for (int r = 0; r < world_.size(); ++r) {
      if (!world_.alive(r) || !world_.rank(r).joined) continue;
      say("rank " + std::to_string(gone) + " ended before joining the world; stopping rank " + std::to_string(r) +
          ", which waits for it");
      killed_[size_t(r)] = true;
      world_.kill(r);
    }
  }

  // Ctrl-C or timeout: where every rank waits, then the world stops.
  int stop(const std::string& why, int code) {
    say(why + "; where every rank waits:");
    std::vector<std::string> lines = collate(where_ranks_wait());
    for (auto& l : diagnose(views())) lines.push_back(std::move(l));
    for (const auto& line : lines) std::fprintf(stderr, "%s\n", line.c_str());
    std::fflush(stderr);
    for (int r = 0; r < world_.size(); ++r) killed_[size_t(r)] = true, world_.kill(r);
    while (world_.alive_count() > 0) world_.next(20);
    return code;
  }

  // Asks every joined rank; one second at most (a second Ctrl-C cuts it short).
  std::map<int, std::string> where_ranks_wait() {
    statuses_.clear();
    for (int r = 0; r < world_.size(); ++r)
      if (world_.alive(r) && world_.rank(r).joined) ask(r);
    serve_until([this] { return all_answered(); });
    std::map<int, std::string> shown;
    for (int r = 0; r < world_.size(); ++r) shown[r] = where(r);
    return shown;
  }

  // The ranks' messages, until done() or a second passed (a Ctrl-C cuts it short).
  template <typename Done>
  void serve_until(Done done) {
    int sigints = sigint_count();
    double t0 = now_s();
    while (now_s() - t0 < 1.0 && sigint_count() == sigints && !done())
      if (auto ev = world_.next(50)) on_event(*ev);
  }

  bool all_answered() const {
    for (int r = 0; r < world_.size(); ++r)
      if (world_.alive(r) && world_.rank(r).joined && !statuses_.count(r)) return false;
    return true;
  }

  std::string where(int r) const {
    const auto& info = world_.rank(r);
    if (!info.alive)
      return std::string(info.finished ? "finished (" : "ended (") + launcher::describe_wait_status(info.wait_status) + ")";
    if (!info.joined) return "has not joined the world (MPI_Init)";
    auto it = statuses_.find(r);
    return it != statuses_.end() ? it->second.text : "not answering";
  }

  // Every rank as the deadlock diagnosis sees it (repl/view/deadlock.hpp).
  // For the live watch (`live`), a rank that died unfinished is unknown: its
  // death, announced, fails the waits that need it, which are no deadlock.
  // Without `answers`, the status answers are left out (the watch's base).
  std::map<int, RankView> views(bool live = false, bool answers = true) const {
    std::map<int, RankView> v;
    for (int r = 0; r < world_.size(); ++r) {
      const auto& info = world_.rank(r);
      auto it = answers ? statuses_.find(r) : statuses_.end();
      if (live && info.finished && it == statuses_.end()) {
        v[r].state = RankView::State::Finishing;
      } else if (live && !info.alive) {
        v[r].state = RankView::State::Unknown;
      } else if (!info.alive) {
        v[r].state = info.finished ? RankView::State::Finishing : RankView::State::Dead;
        v[r].why = launcher::describe_wait_status(info.wait_status);
      } else if (!info.joined) {
        v[r].state = RankView::State::Running;
      } else if (it != statuses_.end()) {
        v[r] = view_of_status(it->second);
      }
    }
    return v;
  }

  int worst_exit() const {
    int worst = 0;
    for (int r = 0; r < world_.size(); ++r)
      if (!killed_[size_t(r)]) worst = std::max(worst, launcher::exit_code_of(world_.rank(r).wait_status));
    return worst;
  }

  World world_;
  std::vector<bool> killed_;  // by us (MPI_Abort of another rank): not the job's status
  std::vector<bool> aborted_;  // called MPI_Abort: its exit is the abort's
  std::map<int, ControlMsg> statuses_;
  DeadlockWatch watch_;
  bool confirming_ = false;  // the watch's question is out
  std::vector<int> unanswered_;  // per rank: status questions not answered yet
  std::vector<std::string> found_;  // the confirmed deadlock's report
  std::string stopping_finding_;    // a reported finding that stops the world
  std::set<std::string> said_;      // findings already shown (what stopped the run)
  bool check_ = false;              // --check
  CheckReport report_;
};

}  // namespace

int run_exec(const ExecOptions& opts) {
  std::string exe = find_program(opts.program);
  if (exe.empty()) {
    say("program not found: " + opts.program);
    return 127;
  }
  double timeout = timeout_of(opts);
  install_sigint_handler();
  reset_sigint();
  Exec e(opts, exe);
  int code = e.run(timeout);
  if (!opts.check_report.empty() && !e.report().write(opts.check_report) && code == 0) code = 1;
  return code;
}

}  // namespace lumpi::repl
