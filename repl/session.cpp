// repl/session.cpp: the command loop between the coordinator and its world.
#include "repl/session.hpp"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <utility>

#include "repl/collate.hpp"
#include "repl/color.hpp"

namespace lumpi::repl {
namespace {

volatile sig_atomic_t g_sigints = 0;

void on_sigint(int) { g_sigints = g_sigints + 1; }

double now_s() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

}  // namespace

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

void install_sigint_handler() {
  struct sigaction sa {};
  sa.sa_handler = on_sigint;
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

Session::Session(Options opts) : opts_(std::move(opts)) {
  on_hang = [this](const std::vector<std::string>& lines) {
    print_line("still running after " + seconds_text(hang_after) + " s (Ctrl-C interrupts):");
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
  w.rank_exe = opts_.rank_exe;
  w.bind = opts_.bind;
  world_ = std::make_unique<launcher::World>(w);
  killed_for_abort_.assign(size_t(opts_.size), false);
}

void Session::restart(int size) {
  if (world_) world_->shutdown(500);
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

void Session::report_death(int rank) {
  int status = world_->rank(rank).wait_status;
  if (!killed_for_abort_[size_t(rank)]) worst_exit_ = std::max(worst_exit_, launcher::exit_code_of(status));
  print_line("rank " + std::to_string(rank) + " died: " + launcher::describe_wait_status(status));
  for (int r = 0; r < world_->size(); ++r) world_->send(r, {"dead", std::to_string(rank)});
}

// MPI_Abort: the other ranks are stopped; the job's exit status is the
// aborting rank's error code (MPI text: "return errorcode" from main).
void Session::abort_world(int rank, const std::string& message) {
  print_line("rank " + std::to_string(rank) + " called MPI_Abort: " + message);
  for (int q = 0; q < world_->size(); ++q) {
    if (q == rank || !world_->alive(q)) continue;
    killed_for_abort_[size_t(q)] = true;
    kill(world_->rank(q).pid, SIGKILL);
  }
}

Outcome Session::run(const std::vector<int>& ranks, const std::string& mode,
                     const std::string& payload, const std::vector<std::string>& args) {
  using State = RankOutcome::State;
  Outcome o;
  const uint32_t e = ++epoch_;
  const std::string es = std::to_string(e);
  launcher::Frames exec{"exec", es, mode, payload};
  exec.insert(exec.end(), args.begin(), args.end());
  int running = 0;
  for (int r : ranks) {
    if (world_ && r < world_->size() && world_->alive(r)) {
      world_->send(r, exec);
      o.ranks[r] = {State::Running, "", false};
      ++running;
    } else {
      int code = world_ && r < world_->size() ? launcher::exit_code_of(world_->rank(r).wait_status) : 1;
      o.ranks[r] = {State::Died, "not running", false, code};  // shown by print_outcome
    }
  }

  const double t0 = now_s();
  int sigints_seen = sigint_count();
  // Status polls: the automatic hang report, ":status" typed meanwhile, and
  // the picture taken when a deadline strikes, just before the interrupt.
  enum class Poll { None, Hang, User, Deadline };
  double next_hang = hang_after;
  Poll poll = Poll::None;
  double poll_asked_at = 0;
  std::map<int, std::string> statuses;
  std::string deadline_why;
  auto ask_status = [&](Poll kind, double elapsed) {
    statuses.clear();
    poll = kind;
    poll_asked_at = elapsed;
    for (const auto& [r, ro] : o.ranks)
      if (ro.state == State::Running) world_->send(r, {"status?"});
  };
  auto interrupt = [&](const std::string& why) {
    print_line(why);
    o.interrupted = true;
    for (int r = 0; r < world_->size(); ++r) world_->send(r, {"interrupt", es});
  };

  while (running > 0) {
    auto ev = world_->next(50);
    double elapsed = now_s() - t0;
    if (sigint_count() != sigints_seen) {
      sigints_seen = sigint_count();
      if (sigints_seen >= 3) {  // ranks that ignore interrupts are stopped for good
        print_line("^C again: killing the ranks still running");
        for (const auto& [r, ro] : o.ranks)
          if (ro.state == State::Running) kill(world_->rank(r).pid, SIGKILL);
      } else {
        interrupt(sigints_seen == 1 ? "^C interrupting" : "^C still interrupting (once more kills the ranks still running)");
      }
    }
    if (opts_.timeout > 0 && elapsed > opts_.timeout && !o.interrupted)
      interrupt("timeout after " + seconds_text(opts_.timeout) + " s: interrupting");
    if (check_deadline && !o.interrupted && deadline_why.empty()) {
      deadline_why = check_deadline();  // interrupts once every rank's status is in
      if (!deadline_why.empty()) ask_status(Poll::Deadline, elapsed);
    }
    if (elapsed > next_hang && poll == Poll::None) {
      next_hang = hang_repeat > 0 ? elapsed + hang_repeat : 1e300;
      ask_status(Poll::Hang, elapsed);
    }
    if (poll_input && poll_input() && poll == Poll::None) ask_status(Poll::User, elapsed);  // ":status" typed
    if (poll != Poll::None) {
      size_t still = 0, answered = 0;
      for (const auto& [r, ro] : o.ranks)
        if (ro.state == State::Running) ++still, answered += statuses.count(r);
      if (still == 0 || answered == still || elapsed - poll_asked_at > 1.0) {
        std::map<int, std::string> shown;
        for (const auto& [r, ro] : o.ranks)
          if (ro.state == State::Running) shown[r] = statuses.count(r) ? statuses[r] : "not answering";
        for (const auto& [r, ro] : o.ranks)  // finished ranks, for a complete picture
          if (poll != Poll::Hang && ro.state != State::Running)
            shown[r] = ro.state == State::Died ? ro.text : poll == Poll::User ? "finished this command" : "idle";
        Poll done = std::exchange(poll, Poll::None);
        if (done == Poll::Hang && still > 0 && on_hang) on_hang(collate(shown));
        if (done == Poll::User && still > 0) print_lines(collate(shown), stdout);
        if (done == Poll::Deadline) {
          if (on_deadline_status) on_deadline_status(collate(shown));
          interrupt(deadline_why);
        }
      }
    }
    if (!ev) continue;
    int r = ev->rank;
    if (ev->kind == launcher::World::Event::Kind::Death) {
      report_death(r);
      if (o.ranks.count(r) && o.ranks[r].state == State::Running) {
        int status = world_->rank(r).wait_status;
        o.ranks[r] = {State::Died, "died: " + launcher::describe_wait_status(status), false,
                      launcher::exit_code_of(status)};
        --running;
      }
      continue;
    }
    const launcher::Frames& f = ev->frames;
    const std::string& type = f[0];
    if (type == "output" && f.size() == 2) {
      print_output(r, f[1]);
    } else if (type == "result" && f.size() >= 4 && f[1] == es && o.ranks.count(r) &&
               o.ranks[r].state == State::Running) {
      o.ranks[r] = {f[2] == "ok" ? State::Ok : State::Error, f[3], f.size() > 4 && f[4] == "1"};
      --running;
    } else if (type == "status" && f.size() == 2) {
      statuses[r] = f[1];
    } else if (type == "event") {
      if (on_event) on_event(r, f);
    } else if (type == "abort" && f.size() == 3) {
      abort_world(r, f[2]);
    }
  }
  return o;
}

void Session::print_outcome(const Outcome& o, FILE* err_stream) const {
  using State = RankOutcome::State;
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
    std::vector<std::string> lines;
    if (opts_.collate) lines = collate(m);
    else
      for (const auto& [r, text] : m)
        for (auto& l : collate({{r, text}})) lines.push_back(std::move(l));
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
  for (int r = 0; r < world_->size(); ++r) {
    if (world_->alive(r)) world_->send(r, {"status?"});
    else st[r] = "dead (" + launcher::describe_wait_status(world_->rank(r).wait_status) + ")";
  }
  double t0 = now_s();
  while (int(st.size()) < world_->size() && now_s() - t0 < 1.0) {
    auto ev = world_->next(50);
    if (!ev) continue;
    if (ev->kind == launcher::World::Event::Kind::Death) {
      report_death(ev->rank);
      st[ev->rank] = "dead (" + launcher::describe_wait_status(world_->rank(ev->rank).wait_status) + ")";
    } else if (ev->frames[0] == "status" && ev->frames.size() == 2) {
      st[ev->rank] = ev->frames[1];
    } else if (ev->frames[0] == "output" && ev->frames.size() == 2) {
      print_output(ev->rank, ev->frames[1]);
    }
  }
  for (int r = 0; r < world_->size(); ++r)
    if (!st.count(r)) st[r] = "not answering";
  return collate(st);
}

void Session::drain() {
  if (!world_) return;
  while (auto ev = world_->next(0)) {
    if (ev->kind == launcher::World::Event::Kind::Death) report_death(ev->rank);
    else if (ev->frames[0] == "output" && ev->frames.size() == 2)
      print_output(ev->rank, ev->frames[1]);
  }
}

int Session::shutdown() {
  if (!world_) return worst_exit_;
  world_->shutdown(2000);
  int worst = worst_exit_;
  for (int r = 0; r < world_->size(); ++r)
    if (!killed_for_abort_[size_t(r)])
      worst = std::max(worst, launcher::exit_code_of(world_->rank(r).wait_status));
  world_.reset();
  return worst;
}

}  // namespace lumpi::repl
