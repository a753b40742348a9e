// repl/session.cpp: the command loop between the coordinator and its world:
// Exec out, output/status/results/deaths/aborts in (launcher/protocol/protocol.hpp).
#include "repl/session.hpp"

#include <csignal>
#include <set>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <utility>

#include "launcher/protocol/clock.hpp"
#include "repl/view/collate.hpp"
#include "repl/view/color.hpp"
#include "repl/view/deadlock.hpp"
#include "repl/view/watch.hpp"

namespace lumpi::repl {

using launcher::ControlMsg;
using launcher::Kind;
using launcher::now_s;
using Event = launcher::World::Event;
using State = RankOutcome::State;

namespace {

// A world started by a launcher may take longer (ssh, mpirun's daemons):
// 60 s, or LUMPI_START_TIMEOUT seconds.
int remote_start_ms() {
  const char* env = std::getenv("LUMPI_START_TIMEOUT");
  double s = env && *env ? std::atof(env) : 0;
  return s > 0 ? int(s * 1000) : 60000;
}

volatile sig_atomic_t g_sigints = 0;

void count_sigint(int) { g_sigints = g_sigints + 1; }

}  // namespace

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

void install_sigint_handler() {
  struct sigaction sa {};
  sa.sa_handler = count_sigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocking read returns EINTR
  sigaction(SIGINT, &sa, nullptr);
}
int sigint_count() { return g_sigints; }
void reset_sigint() { g_sigints = 0; }

bool Outcome::ok() const {
  for (const auto& [r, o] : ranks) {
    bool exited_cleanly = o.state == RankOutcome::State::Died && o.exit_code == 0;
    if (o.state != RankOutcome::State::Ok && !exited_cleanly) return false;
  }
  return true;
}

bool Outcome::incomplete() const {
  for (const auto& [r, o] : ranks)
    if (o.incomplete) return true;
  return false;
}

Session::Session(Options opts) : opts_(std::move(opts)) {
  on_hang = [this](const std::vector<std::string>& lines) {
    print_line(std::exchange(hang_shown_, true) ? "still running; now (Ctrl-C interrupts):"
                                                : "still running after " + seconds_text(hang_after) +
                                                      " s (Ctrl-C interrupts):");
    print_lines(lines, stdout);
  };
  start();
}

Session::~Session() {
  if (world_) world_->shutdown(500);
}

void Session::start() {
  launcher::World::Options w;
  w.size = opts_.size;
  w.exe = opts_.rank_exe;
  w.bind = opts_.bind;
  w.placement = opts_.placement;
  w.attach = opts_.attach;
  w.check = opts_.check;
  world_ = std::make_unique<launcher::World>(w);
  world_->wait_wired(opts_.placement.remote() ? remote_start_ms() : 15000);
  opts_.size = world_->size();  // an attached world's size is in its connection file
  killed_for_abort_.assign(size_t(opts_.size), false);
  unanswered_.assign(size_t(opts_.size), 0);
  if (tracing_) trace_action("on");
  if (opts_.check && !opts_.attach.empty()) set_check(true);  // an attached world started without it
}

void Session::set_check(bool on) {
  opts_.check = on;
  if (!world_) return;
  ControlMsg m = launcher::text_msg(Kind::Check, on ? "on" : "off");
  for (int r = 0; r < world_->size(); ++r)
    if (world_->alive(r)) world_->send(r, m);
}

std::vector<int> Session::all_ranks() const {
  std::vector<int> all;
  for (int r = 0; r < size(); ++r) all.push_back(r);
  return all;
}

// What the old world's ranks print while they quit (COMM_SELF's delete
// callbacks) is shown before the new world starts, as at :quit.
void Session::restart(int size) {
  if (!opts_.attach.empty())
    throw std::runtime_error("an attached world cannot be restarted here: :quit ends it, and `lumpi world` starts a new one");
  if (world_) world_->shutdown(2000, [this](const launcher::World::Event& ev) { show_background(ev); });
  world_.reset();
  if (size > 0) opts_.size = size;
  start();
}

void Session::print_line(const std::string& line) const {
  if (on_output) return on_output(-1, line);
  std::fputs(line.c_str(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

void Session::print_output(int rank, const std::string& text) const {
  if (on_output) return on_output(rank, text);
  print_line("[" + std::to_string(rank) + "] " + text);
}

void Session::print_lines(const std::vector<std::string>& lines, FILE* f) const {
  if (on_output && f == stdout) {
    for (const auto& l : lines) on_output(-1, l);
    return;
  }
  for (const auto& l : lines) {
    std::fputs(l.c_str(), f);
    std::fputc('\n', f);
  }
  std::fflush(f);
}

void Session::ask_rank_status(int r) {
  world_->send(r, launcher::msg(Kind::StatusQuery));
  ++unanswered_[size_t(r)];
}

// Every event of the world passes here, so every status answer is counted,
// whoever asked and whenever it comes (a late answer, between commands, too).
std::optional<Event> Session::next_event(int timeout_ms) {
  auto ev = world_->next(timeout_ms);
  if (!ev) return ev;
  size_t r = size_t(ev->rank);
  if (r >= unanswered_.size()) return ev;
  if (ev->kind == Event::Kind::Death) unanswered_[r] = 0;
  else if (ev->msg.kind == Kind::Status && unanswered_[r] > 0) --unanswered_[r];
  return ev;
}

// No status question of ours is unanswered: the next answers are to the next question.
bool Session::all_answered() const {
  for (int r = 0; r < world_->size(); ++r)
    if (world_->alive(r) && unanswered_[size_t(r)] > 0) return false;
  return true;
}

void Session::report_death(int rank) {
  int status = world_->rank(rank).wait_status;
  if (!killed_for_abort_[size_t(rank)]) worst_exit_ = std::max(worst_exit_, launcher::exit_code_of(status));
  print_line("rank " + std::to_string(rank) + " died: " + launcher::describe_wait_status(status));
  world_->announce_death(rank);
}

// MPI_Abort: the other ranks are stopped; the job's exit status is the
// aborting rank's error code (MPI text: "return errorcode" from main).
void Session::abort_world(int rank, const std::string& message) {
  if (killed_for_abort_[size_t(rank)]) return;  // stopped for an earlier abort: that one's code stands
  print_line("rank " + std::to_string(rank) + " called MPI_Abort: " + message);
  for (int q = 0; q < world_->size(); ++q) {
    if (q == rank || !world_->alive(q)) continue;
    killed_for_abort_[size_t(q)] = true;
    world_->kill(q);
  }
}

bool Session::show_background(const Event& ev) {
  if (ev.kind == Event::Kind::Death) {
    report_death(ev.rank);
    return true;
  }
  if (ev.msg.kind != Kind::Output) return false;
  print_output(ev.rank, ev.msg.text);
  return true;
}

int Session::first_alive() const {
  for (int r = 0; world_ && r < world_->size(); ++r)
    if (world_->alive(r)) return r;
  return -1;
}

// ---- running one command --------------------------------------------------------------

// Status polls: the automatic hang report, ":status" typed meanwhile, and
// the picture taken when a deadline strikes, just before the interrupt.
struct Session::Run {
  Outcome o;
  uint32_t epoch = 0;
  int running = 0;  // ranks that have not answered yet
  double t0 = now_s();
  int sigints_seen = sigint_count();
  double next_hang = 0;  // when the (next) hang report is due
  Poll poll = Poll::None;
  double poll_asked_at = 0;
  std::map<int, ControlMsg> statuses;  // the status replies of this poll
  std::vector<std::string> last_hang;  // the hang report shown last (repeated only when it changed)
  std::map<int, RankView> last_views;  // every rank as the previous poll saw it (empty before the first)
  bool confirming = false;             // this hang poll is the second look at stuck ranks
  std::string deadline_why;
  DeadlockWatch watch;                 // deadlock found when it happens (repl/view/watch.hpp)
};

Outcome Session::run(const std::vector<int>& ranks, const std::string& mode, const std::string& payload,
                     const std::vector<std::string>& args) {
  auto m = launcher::parse_mode(mode);
  if (!m) throw std::logic_error("Session::run: unknown mode " + mode);
  ControlMsg exec = launcher::text_msg(Kind::Exec, payload);
  exec.epoch = ++epoch_;
  exec.mode = *m;
  exec.list = args;
  Run run;
  hang_shown_ = false;
  run.epoch = exec.epoch;
  run.next_hang = hang_after;
  run.running = send_command(run, ranks, exec);
  while (run.running > 0) {
    auto ev = next_event(50);
    if (ev) on_event_during(run, *ev);  // first: an answer counted by next_event is stored before polls look
    double elapsed = now_s() - run.t0;
    on_sigint(run);
    check_limits(run, elapsed);
    watch_deadlock(run, elapsed);
    if (run.poll != Poll::None) finish_poll(run, elapsed);
  }
  drop_leftovers_after_error(run);
  return std::move(run.o);
}

// A command that ended in an error on some rank may have left messages that
// no one will receive: a rank that raised before it communicated (a bad MPI
// argument: docs/errors.md) skipped a collective its partners went through,
// and what they sent it would match its next call of the same kind (a
// broadcast's stale value). Every rank drops the command's unreceived
// messages, as after an interrupt, so the next command starts clean.
void Session::drop_leftovers_after_error(const Run& run) {
  bool failed = false;
  for (const auto& [r, ro] : run.o.ranks) failed = failed || (ro.state == State::Error && !ro.incomplete);
  if (!failed || run.o.interrupted) return;  // an interrupt already dropped them
  send_interrupt(run.epoch, {});
}

// Every rank stops command `epoch` (a rank no longer running it drops its
// leftovers); the ranks of a confirmed deadlock are told so (their
// unreceived messages never will be: the races those stranded are real).
void Session::send_interrupt(uint32_t epoch, const std::set<int>& deadlocked) {
  ControlMsg m = launcher::msg(Kind::Interrupt);
  m.epoch = epoch;
  for (int r = 0; r < world_->size(); ++r) {
    m.code = deadlocked.count(r) ? 1 : 0;
    world_->send(r, m);
  }
}

// Sends exec to the live ranks of `ranks`; the others are "not running".
int Session::send_command(Run& run, const std::vector<int>& ranks, const ControlMsg& exec) {
  int sent = 0;
  for (int r : ranks) {
    if (world_ && r < world_->size() && world_->alive(r)) {
      world_->send(r, exec);
      run.o.ranks[r] = {State::Running, "", false};
      ++sent;
    } else {
      int code = world_ && r < world_->size() ? launcher::exit_code_of(world_->rank(r).wait_status) : 1;
      run.o.ranks[r] = {State::Died, "not running", false, code};  // shown by print_outcome
    }
  }
  return sent;
}

// Ctrl-C: the first two interrupt; the third kills the ranks still running,
// for ranks that ignore interrupts.
void Session::on_sigint(Run& run) {
  if (sigint_count() == run.sigints_seen) return;
  run.sigints_seen = sigint_count();
  if (run.sigints_seen >= 3) {
    print_line("^C again: killing the ranks still running");
    for (const auto& [r, ro] : run.o.ranks)
      if (ro.state == State::Running) world_->kill(r);
  } else {
    interrupt(run, run.sigints_seen == 1 ? "^C interrupting"
                                         : "^C still interrupting (once more kills the ranks still running)");
  }
}

// The timeout, lumpi test's deadline, the hang report and ":status" typed meanwhile.
void Session::check_limits(Run& run, double elapsed) {
  if (opts_.timeout > 0 && elapsed > opts_.timeout && !run.o.interrupted)
    interrupt(run, "timeout after " + seconds_text(opts_.timeout) + " s: interrupting");
  if (check_deadline && !run.o.interrupted && run.deadline_why.empty()) {
    run.deadline_why = check_deadline();  // interrupts once every rank's status is in
    if (!run.deadline_why.empty()) ask_status(run, Poll::Deadline, elapsed);
  }
  if (elapsed > run.next_hang && run.poll == Poll::None) {
    run.next_hang = hang_repeat > 0 ? elapsed + hang_repeat : 1e300;
    ask_status(run, Poll::Hang, elapsed);
  }
  if (poll_input && poll_input() && run.poll == Poll::None) ask_status(run, Poll::User, elapsed);
  if (poll_queue && poll_queue() && run.poll == Poll::None) ask_status(run, Poll::Queue, elapsed);
}

void Session::ask_status(Run& run, Poll kind, double elapsed) {
  run.statuses.clear();
  run.poll = kind;
  run.poll_asked_at = elapsed;
  if (kind != Poll::Queue) {  // every live rank: the idle ones' counts tell messages in flight
    for (int r = 0; r < world_->size(); ++r)
      if (world_->alive(r)) ask_rank_status(r);
    return;
  }
  for (const auto& [r, ro] : run.o.ranks)
    if (ro.state == State::Running) ask_rank_status(r);
}

// The live deadlock watch: asks every rank once the notices show stuck
// ranks (when no other poll is out).
void Session::watch_deadlock(Run& run, double elapsed) {
  if (run.poll != Poll::None || !all_answered()) return;  // a late answer must not pass for a new one
  std::map<int, RankView> base = views_of(run, false);
  for (auto& [r, v] : base)  // a dead rank's death fails the waits on it: no deadlock
    if (v.state == RankView::State::Dead) v.state = RankView::State::Unknown;
  // Once the command is interrupted the ranks unwind it: what blocks then is
  // not the program's, and a deadlock already found is reported once.
  if (!run.o.interrupted && run.watch.should_ask(base, elapsed)) ask_status(run, Poll::Deadlock, elapsed);
}

// The answers, every live rank's (however long they take): a confirmed
// deadlock is shown once, like the hang report (Ctrl-C still interrupts),
// and recorded; scripts and lumpi test stop the command.
void Session::finish_deadlock_poll(Run& run, double elapsed) {
  if (!all_answered()) return;
  run.poll = Poll::None;
  if (run.o.interrupted) return;  // unwinding an interrupt (above)
  std::map<int, RankView> views = views_of(run);
  for (auto& [r, v] : views)
    if (v.state == RankView::State::Dead) v.state = RankView::State::Unknown;
  std::vector<std::string> lines = run.watch.confirm(views, elapsed);
  if (lines.empty()) return;
  std::string text;
  for (const auto& l : lines) text += (text.empty() ? "" : "\n") + l;
  bool mismatch = text.find("collective mismatch: ") != std::string::npos;
  report_.add({mismatch ? "collective-mismatch" : "deadlock",
               std::vector<int>(run.watch.reported().begin(), run.watch.reported().end()), text});
  bool stops = opts_.stop_on_deadlock || !run.watch.failures().empty();
  print_line(stops ? "deadlock found:" : "deadlock found (Ctrl-C interrupts):");
  print_lines(lines, stdout);
  run.next_hang = 1e300;  // the hang report would only repeat it
  if (!run.watch.failures().empty()) return fail_stuck_waits(run);
  if (!opts_.stop_on_deadlock) return;
  if (on_deadlock) on_deadlock(lines);
  interrupt(run, "deadlock: interrupting");
}

// Once every running rank answered (or a second passed), shows the picture:
// the collated statuses and the deadlock diagnosis, or the message queues.
void Session::finish_poll(Run& run, double elapsed) {
  if (run.poll == Poll::Deadlock) return finish_deadlock_poll(run, elapsed);
  size_t still = 0, answered = 0;
  for (const auto& [r, ro] : run.o.ranks)
    if (ro.state == State::Running) ++still, answered += run.statuses.count(r);
  if (still != 0 && (answered != still || !all_answered()) && elapsed - run.poll_asked_at <= 1.0) return;
  Poll done = std::exchange(run.poll, Poll::None);
  if (done == Poll::Queue) {
    if (still > 0) print_lines(queue_collated(run.statuses), stdout);
    return;
  }
  std::map<int, std::string> shown;
  for (const auto& [r, ro] : run.o.ranks)
    if (ro.state == State::Running) shown[r] = run.statuses.count(r) ? run.statuses[r].text : "not answering";
  for (const auto& [r, ro] : run.o.ranks)  // finished ranks, for a complete picture
    if (done != Poll::Hang && ro.state != State::Running)
      shown[r] = ro.state == State::Died ? ro.text : done == Poll::User ? "finished this command" : "idle";
  std::vector<std::string> lines = collate(shown);
  std::map<int, RankView> views = views_of(run);
  std::vector<std::string> verdict = diagnose(confirmed(views, run, done != Poll::Hang));
  bool suspect = verdict.empty() && done == Poll::Hang && !run.confirming && !diagnose(views).empty();
  run.last_views = std::move(views);
  run.confirming = suspect;
  if (suspect) {  // stuck ranks seen once: look again soon, and report only what stays
    run.next_hang = elapsed + 0.3;
    return;
  }
  for (auto& l : verdict) lines.push_back(std::move(l));
  if (done == Poll::Hang && still > 0 && on_hang && lines != run.last_hang) {
    on_hang(lines);
    run.last_hang = lines;
  }
  if (done == Poll::User && still > 0) print_lines(lines, stdout);
  if (done == Poll::Deadline) {
    if (on_deadline_status) on_deadline_status(lines);
    interrupt(run, run.deadline_why);
  }
}

namespace {

// A message known to be on its way to r (both ends answered): it may release r.
bool message_to(int r, const std::map<int, RankView>& views) {
  for (const auto& [a, v] : views)
    if (on_its_way(v.counts, a, views.at(r).counts, r)) return true;
  return false;
}

}  // namespace

// The views with every blocked rank whose wait changed since the previous
// poll counted as running: a status reply is a snapshot taken at a different
// moment on each rank, and a rank that already left a call its peer is still
// finishing (a message in flight) looks, once, like a cycle. A deadlock is
// what stays exactly the same, wait and queues, over two polls. With no
// earlier poll, a deadline or ":status" (snapshot_ok) takes the snapshot as
// it is; the hang report waits for a second look. A blocked rank that a
// message is on its way to counts as running in every case: a polling loop
// stays in the same wait over two polls while the message it waits for,
// already sent by a rank now idle, has yet to reach it (every poll but
// :queue's asks the idle ranks too, for their counts).
std::map<int, RankView> Session::confirmed(std::map<int, RankView> views, const Run& run, bool snapshot_ok) {
  const std::map<int, RankView> answered = views;
  for (auto& [r, v] : views) {
    if (v.state != RankView::State::Blocked) continue;
    if (message_to(r, answered)) {
      v.state = RankView::State::Running;
      continue;
    }
    if (run.last_views.empty() && snapshot_ok) continue;
    auto it = run.last_views.find(r);
    const RankView* was = it == run.last_views.end() ? nullptr : &it->second;
    if (!was || was->state != v.state || was->where != v.where || !(was->wait == v.wait) || was->queue != v.queue)
      v.state = RankView::State::Running;
  }
  return views;
}

// Every rank of the world as the deadlock diagnosis sees it: the command's
// running ranks by their answers, the others idle (finished the command or
// not in it; with the last MPI error an answer told) or dead.
std::map<int, RankView> Session::views_of(const Run& run, bool answers) const {
  std::map<int, RankView> views;
  for (int r = 0; r < world_->size(); ++r) {
    RankView v;
    auto it = run.o.ranks.find(r);
    auto st = answers ? run.statuses.find(r) : run.statuses.end();
    if (!world_->alive(r) || (it != run.o.ranks.end() && it->second.state == State::Died)) {
      v.state = RankView::State::Dead;
      v.why = launcher::describe_wait_status(world_->rank(r).wait_status);
    } else if (it != run.o.ranks.end() && it->second.state == State::Running) {
      if (st != run.statuses.end()) v = view_of_status(st->second);
    } else {
      v.state = RankView::State::Idle;
      v.why = it != run.o.ranks.end() ? "finished the command" : "not running this command";
      // an error of an earlier command is not this one's
      if (st != run.statuses.end() && it != run.o.ranks.end()) v.last_error = st->second.error;
      // its counts from an answer it gave idle: final until its next command
      if (st != run.statuses.end() && st->second.state == launcher::RankState::Idle) v.counts = st->second.counts;
    }
    views[r] = std::move(v);
  }
  return views;
}

// The queues of the ranks that answered, collated ("[0,2] no posted receives, ...").
std::vector<std::string> Session::queue_collated(const std::map<int, ControlMsg>& statuses) const {
  std::map<int, std::string> shown;
  for (const auto& [r, m] : statuses) shown[r] = queue_text(m.queue);
  return collate(shown);
}

// Stuck ranks whose partner failed their call, or that gave a collective
// different roots (wait_failures), raise that error instead of waiting for
// ever: every rank of the call ends it with an MPI error of the same class,
// and no one hangs (docs/errors.md). What they sent in the failed call is
// dropped when the command ends (drop_leftovers_after_error).
void Session::fail_stuck_waits(Run& run) {
  for (const std::string& line : wait_failure_lines(run.watch.failures())) print_line(line);
  for (const WaitFailure& f : run.watch.failures()) world_->send(f.rank, fail_msg(f, run.epoch));
}

// Ctrl-C, a timeout or a deadlock. The ranks of a confirmed deadlock are
// still in it, unless the watch made their waits fail (they went on).
void Session::interrupt(Run& run, const std::string& why) {
  print_line(why);
  run.o.interrupted = true;
  send_interrupt(run.epoch, run.watch.failures().empty() ? run.watch.reported() : std::set<int>{});
}

// A check fired (docs/checking.md): shown once, as it happens. Every
// member of a mismatched collective reports it, in no set order, and its
// text names the ranks: shown without a rank.
void Session::show_report(int r, const ControlMsg& m) {
  const bool every_member = m.check_class == "collective-mismatch";
  if (report_.add({m.check_class, {r}, m.text}))
    print_line(color::yellow((every_member ? "" : "[" + std::to_string(r) + "] ") + m.check_class + ": " + m.text));
}

void Session::on_event_during(Run& run, const Event& ev) {
  int r = ev.rank;
  auto it = run.o.ranks.find(r);
  bool waited = it != run.o.ranks.end() && it->second.state == State::Running;
  run.watch.touch();
  if (ev.kind == Event::Kind::Death) {
    report_death(r);
    if (!waited) return;
    int status = world_->rank(r).wait_status;
    it->second = {State::Died, "died: " + launcher::describe_wait_status(status), false,
                  launcher::exit_code_of(status)};
    --run.running;
    return;
  }
  const ControlMsg& m = ev.msg;
  switch (m.kind) {
    case Kind::Output: print_output(r, m.text); break;
    case Kind::Status:
      run.statuses[r] = m;
      break;
    case Kind::Wait: run.watch.notice(r, m, now_s() - run.t0); break;
    case Kind::Report: show_report(r, m); break;
    case Kind::Event:
      if (on_event) on_event(r, m.list);
      break;
    case Kind::Abort: abort_world(r, m.text); break;
    case Kind::Result:
      if (m.epoch != run.epoch || !waited) break;
      it->second = {m.ok ? State::Ok : State::Error, m.text, m.values, 0, m.incomplete};
      --run.running;
      break;
    default: break;
  }
}

std::string Session::check(const std::string& code) {
  int r = first_alive();
  if (r < 0) return "";
  Outcome o = run({r}, "check", code);
  const RankOutcome& ro = o.ranks[r];
  return ro.state == State::Ok ? ro.text : "";
}

std::string Session::hw_tree(const std::map<int, std::string>& cpusets) {
  // One tree per host, drawn by the first alive rank there, with that host's ranks on it.
  std::vector<std::string> hosts;  // in the order of their first rank
  std::map<std::string, int> asker;
  std::map<std::string, std::vector<int>> ranks_on;
  for (int r = 0; r < size(); ++r) {
    if (!world_->alive(r)) continue;
    const std::string& h = world_->rank(r).host;
    if (!asker.count(h)) hosts.push_back(h), asker[h] = r;
    ranks_on[h].push_back(r);
  }
  if (hosts.empty()) return "no rank is alive to describe the machine (:restart starts a new world)\n";
  std::map<int, std::string> trees;  // asker -> its tree
  for (const auto& h : hosts) {
    ControlMsg q = launcher::msg(Kind::TreeQuery);
    for (int r : ranks_on[h])
      if (auto it = cpusets.find(r); it != cpusets.end()) q.list.push_back(std::to_string(r) + "=" + it->second);
    world_->send(asker[h], q);
  }
  double t0 = now_s();
  while (trees.size() < hosts.size() && now_s() - t0 < 5.0) {
    auto ev = next_event(50);
    if (!ev || show_background(*ev)) continue;
    if (ev->msg.kind == Kind::Tree) trees[ev->rank] = ev->msg.text;
  }
  std::string out;
  for (const auto& h : hosts) {
    int r = asker[h];
    std::string tree = trees.count(r) ? trees[r] : "rank " + std::to_string(r) + " did not describe the machine\n";
    if (hosts.size() > 1) out += "host " + h + " (ranks " + format_ranks(ranks_on[h]) + "):\n";
    out += tree;
  }
  return out;
}

void Session::print_outcome(const Outcome& o, FILE* err_stream) const {
  std::map<int, std::string> values, errors;
  std::vector<int> not_running;  // dead before the command (deaths during it were reported)
  for (const auto& [r, ro] : o.ranks) {
    if (ro.state == State::Ok && ro.has_value) values[r] = ro.text;
    if (ro.state == State::Error) errors[r] = "error: " + ro.text;
    if (ro.state == State::Died && ro.text == "not running") not_running.push_back(r);
  }
  if (!not_running.empty())
    print_line(color::yellow("[" + format_ranks(not_running) +
                             "] not running (dead); :restart starts a fresh world"));
  auto show = [&](const std::map<int, std::string>& m, FILE* f, bool red) {
    std::vector<std::string> lines = collate(m, opts_.collate);
    if (red && f == stdout)  // colours only reach a terminal (color::enabled)
      for (auto& l : lines) l = color::red(l);
    print_lines(lines, f);
  };
  show(values, stdout, false);
  show(errors, err_stream ? err_stream : stdout, true);
}

std::vector<std::string> Session::status_lines() {
  std::map<int, std::string> st;
  if (!world_) return {"no world is running"};
  auto dead_text = [&](int r) { return "dead (" + launcher::describe_wait_status(world_->rank(r).wait_status) + ")"; };
  for (int r = 0; r < world_->size(); ++r) {
    if (world_->alive(r)) ask_rank_status(r);
    else st[r] = dead_text(r);
  }
  double t0 = now_s();
  while (int(st.size()) < world_->size() && now_s() - t0 < 1.0) {
    auto ev = next_event(50);
    if (!ev) continue;
    if (ev->kind == Event::Kind::Death) st[ev->rank] = dead_text(ev->rank);
    if (show_background(*ev)) continue;
    if (ev->msg.kind == Kind::Status) st[ev->rank] = ev->msg.text;
  }
  for (int r = 0; r < world_->size(); ++r)
    if (!st.count(r)) st[r] = "not answering";
  return collate(st);
}

std::vector<std::string> Session::queue_lines() {
  if (!world_) return {"no world is running"};
  std::map<int, ControlMsg> st;
  std::map<int, std::string> missing;
  for (int r = 0; r < world_->size(); ++r) {
    if (world_->alive(r)) ask_rank_status(r);
    else missing[r] = "dead";
  }
  double t0 = now_s();
  while (int(st.size() + missing.size()) < world_->size() && now_s() - t0 < 1.0) {
    auto ev = next_event(50);
    if (!ev) continue;
    if (ev->kind == Event::Kind::Death) missing[ev->rank] = "dead";
    if (show_background(*ev)) continue;
    if (ev->msg.kind == Kind::Status) st[ev->rank] = ev->msg;
  }
  std::map<int, std::string> shown;
  for (int r = 0; r < world_->size(); ++r)
    shown[r] = st.count(r) ? queue_text(st[r].queue) : missing.count(r) ? missing[r] : "not answering";
  return collate(shown);
}

void Session::trace_action(const std::string& action) {
  if (action == "on" || action == "off") tracing_ = action == "on";
  if (!world_) return;
  ControlMsg m = launcher::text_msg(Kind::TraceQuery, action);
  for (int r = 0; r < world_->size(); ++r)
    if (world_->alive(r)) world_->send(r, m);
}

std::map<int, ControlMsg> Session::collect_trace() {
  std::map<int, ControlMsg> got;
  if (!world_) return got;
  std::set<int> asked;
  for (int r = 0; r < world_->size(); ++r)
    if (world_->alive(r)) world_->send(r, launcher::text_msg(Kind::TraceQuery, "get")), asked.insert(r);
  double t0 = now_s();
  while (got.size() < asked.size() && now_s() - t0 < 5.0) {
    auto ev = next_event(50);
    if (!ev) continue;
    if (ev->kind == Event::Kind::Death) asked.erase(ev->rank);
    if (show_background(*ev)) continue;
    if (ev->msg.kind == Kind::Trace && asked.count(ev->rank)) got[ev->rank] = ev->msg;
  }
  return got;
}

void Session::drain() {
  if (!world_) return;
  while (auto ev = next_event(0)) show_background(*ev);
}

// The ranks get 10 s to quit: delete callbacks on COMM_SELF run then, and a
// sanitized rank checks for leaks. One that takes longer is killed and said so.
int Session::shutdown() {
  if (!world_) return worst_exit_;
  std::vector<int> killed = world_->shutdown(10000, [this](const launcher::World::Event& ev) { show_background(ev); });
  for (int r : killed)
    std::fprintf(stderr, "lumpi: rank %d did not quit within 10 s and was killed\n", r);
  int worst = worst_exit_;
  for (int r = 0; r < world_->size(); ++r)
    if (!killed_for_abort_[size_t(r)])
      worst = std::max(worst, launcher::exit_code_of(world_->rank(r).wait_status));
  world_.reset();
  return worst;
}

}  // namespace lumpi::repl
