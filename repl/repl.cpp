// repl/repl.cpp: the interactive loop (docs/repl.md): reading chunks with line
// editing, history and completion, meta-commands, targets, drawings.
//
// Sections: reading lines (readline's callback interface, so that Ctrl-C at
// the prompt ends the line at once, and type-ahead while a command runs);
// completion; the REPL with its meta-command handlers; the meta-command
// table (kMeta: name, aliases, arguments, one-line help, details, handler),
// which both dispatches ":name ..." and writes ":help" and ":help :name";
// the loop. Running commands, interrupts and hang reports belong to Session
// (repl/session.cpp); drawing to repl/view/draw.cpp; the text of ":help NAME" to
// the ranks (lua/lumpi/help.lua).
#include "repl/repl.hpp"

#include <cerrno>
#include <csignal>
#include <poll.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <sstream>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include <utility>

#include "repl/chunk.hpp"
#include "repl/view/collate.hpp"
#include "repl/view/color.hpp"
#include "repl/complete.hpp"
#include "repl/view/draw.hpp"
#include "repl/view/trace_view.hpp"

#ifdef LUMPI_HAVE_READLINE
#include <readline/history.h>
#include <readline/readline.h>
#endif

namespace lumpi::repl {
namespace {

const char* kIntro = "lumpi REPL: each chunk of Lua runs on every target rank; results are collated.";
const char* kOutro =
    "Ctrl-C interrupts the running command on every rank; Tab completes names.\n"
    "In Lua, help(x) explains x on the ranks (a name, or a function or object of mpi).";

int terminal_width() {
  struct winsize ws {};
  if (ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40) return ws.ws_col;
  return 80;
}

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  size_t b = s.find_last_not_of(" \t\r\n");
  return s.substr(a, b - a + 1);
}

// ---- reading lines --------------------------------------------------------------------

// The terminal, opened a second time without blocking. A Ctrl-C makes the
// terminal flush what was typed ahead, so input that poll() had just
// reported can be gone when read() comes; a blocking read would then wait
// for the next key with the interrupt unseen. Our own file description
// keeps O_NONBLOCK away from the stdin we share with the shell. Falls back
// to fd 0 where /proc is missing.
int terminal_in() {
  static const int fd = [] {
    int f = open("/proc/self/fd/0", O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    return f >= 0 ? f : 0;
  }();
  return fd;
}

// Lines typed while a command ran (the terminal was in cooked mode then).
std::deque<std::string> g_typeahead;
std::string g_partial_typeahead;

// ":queue" typed while a command ran, not yet answered (Session::poll_queue).
bool g_queue_asked = false;

// Reads what the user typed while a command runs, without blocking. Returns
// true if one of the lines was ":status" (answered at once by the Session;
// ":queue" likewise, through g_queue_asked); other lines wait their turn in
// g_typeahead.
bool poll_typeahead() {
  bool status = false;
  for (;;) {
    pollfd p{terminal_in(), POLLIN, 0};
    if (poll(&p, 1, 0) <= 0) break;
    char buf[512];
    ssize_t n = read(p.fd, buf, sizeof buf);
    if (n <= 0) break;
    g_partial_typeahead.append(buf, size_t(n));
  }
  size_t nl;
  while ((nl = g_partial_typeahead.find('\n')) != std::string::npos) {
    std::string line = g_partial_typeahead.substr(0, nl);
    g_partial_typeahead.erase(0, nl + 1);
    if (trim(line) == ":status") status = true;
    else if (trim(line) == ":queue") g_queue_asked = true;
    else g_typeahead.push_back(line);
  }
  return status;
}

#ifdef LUMPI_HAVE_READLINE
bool g_ctrl_c = false;

// readline's getc: a Ctrl-C (our handler counts it; rl_catch_signals is 0)
// shows "^C" and ends the line, which is dropped. SIGINT stays blocked while
// readline runs and is let in only inside ppoll, atomically, so a Ctrl-C
// that comes while readline is busy is seen at the next wait, never lost.
sigset_t g_sigint_unblocked;

// Called every 200 ms while readline waits for a key: shows what happened
// meanwhile (a rank's death) above the prompt and redraws it.
void (*g_at_prompt)() = nullptr;

int getc_or_ctrl_c(FILE* f) {
  for (;;) {
    if (sigint_count() > 0) {
      g_ctrl_c = true;
      rl_point = rl_end;
      rl_redisplay();
      std::fputs("^C", rl_outstream);
      return '\n';
    }
    pollfd p{fileno(f) == 0 ? terminal_in() : fileno(f), POLLIN, 0};
    timespec tick{0, 200 * 1000 * 1000};
    int ready = ppoll(&p, 1, &tick, &g_sigint_unblocked);
    if (ready < 0) {
      if (errno == EINTR) continue;
      return EOF;
    }
    if (ready == 0) {
      if (g_at_prompt) g_at_prompt();
      continue;
    }
    unsigned char c;
    ssize_t n = read(p.fd, &c, 1);
    if (n == 1) return c;
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;  // flushed by a Ctrl-C
    return EOF;
  }
}

// One line with editing. nullopt at end of input; "\x03" for Ctrl-C.
std::optional<std::string> readline_line(const std::string& prompt) {
  g_ctrl_c = false;
  reset_sigint();
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigprocmask(SIG_BLOCK, &block, &old);
  g_sigint_unblocked = old;
  sigdelset(&g_sigint_unblocked, SIGINT);
  char* l = readline(prompt.c_str());
  sigprocmask(SIG_SETMASK, &old, nullptr);
  if (!l) return std::nullopt;
  std::string line(l);
  std::free(l);
  if (g_ctrl_c) {
    reset_sigint();
    return std::string("\x03");
  }
  return line;
}
#endif

// The terminal's echo: off while a command runs, so that a line typed
// ahead is shown once, with its prompt, when its turn comes (readline saves
// and restores the mode it finds, so it is switched on before reading).
void set_echo(bool on) {
  termios t{};
  if (tcgetattr(0, &t) != 0) return;
  bool is_on = t.c_lflag & ECHO;
  if (is_on == on) return;
  if (on) t.c_lflag |= ECHO;
  else t.c_lflag &= ~tcflag_t(ECHO);
  tcsetattr(0, TCSANOW, &t);
}

// ---- completion ----------------------------------------------------------------------------

Session* g_session = nullptr;
std::vector<int>* g_target = nullptr;

#ifdef LUMPI_HAVE_READLINE
std::vector<std::string> g_candidates;

// Completions of a line that starts with ':' (defined with the table below).
std::vector<std::string> meta_candidates(const std::string& before, const std::string& text);

char* next_candidate(const char*, int state) {
  static size_t i;
  if (state == 0) i = 0;
  return i < g_candidates.size() ? strdup(g_candidates[i++].c_str()) : nullptr;
}

char** on_complete(const char* text, int start, int) {
  rl_attempted_completion_over = 1;  // never fall back to file names
  CompletionQuery q;
  std::string before(rl_line_buffer, size_t(start));
  before += text;
  g_candidates.clear();
  if (!before.empty() && before[0] == ':')
    g_candidates = meta_candidates(before, text);
  else if (g_session && g_target && !g_target->empty() && parse_completion(before, &q))
    g_candidates = complete(*g_session, g_target->front(), q);
  rl_completion_append_character = '\0';
  return rl_completion_matches(text, next_candidate);
}
#endif

// ---- the REPL ------------------------------------------------------------------------------

struct Repl {
  Session& s;
  std::vector<int> target;
  bool interactive;
  std::string history_file;

  void set_all() {
    target.clear();
    for (int r = 0; r < s.size(); ++r) target.push_back(r);
  }
  // The target's live ranks; all of them while every one lives.
  std::vector<int> live_target() const {
    std::vector<int> live;
    for (int r : target)
      if (r < s.size() && s.world().alive(r)) live.push_back(r);
    return live;
  }
  std::string prompt() const {
    std::vector<int> live = s.size() > 0 ? live_target() : target;
    std::string p = "lumpi[" + (live.empty() && !target.empty() ? std::string("none alive") : format_ranks(live)) + "]> ";
#ifdef LUMPI_HAVE_READLINE
    // \001 \002 tell readline that the colour codes take no room
    if (color::enabled()) return "\001\x1b[1;32m\002" + p + "\001\x1b[0m\002";
#endif
    return p;
  }

  bool world_usable() {
    if (s.size() == 0 || s.world().alive_count() == 0) {
      std::puts("the world has stopped; :restart starts a new one");
      return false;
    }
    return true;
  }

  void run_code(const std::vector<int>& ranks, const std::string& mode, const std::string& code,
                const std::vector<std::string>& args = {}) {
    if (!world_usable()) return;
    Outcome o = s.run(ranks, mode, code, args);
    s.print_outcome(o);
  }

  // Runs `code` in "text" mode on `ranks`; rank -> text of those that answered.
  std::map<int, std::string> gather_text(const std::vector<int>& ranks, const std::string& code) {
    std::map<int, std::string> out;
    if (!world_usable()) return out;
    Outcome o = s.run(ranks, "text", code);
    std::map<int, std::string> errors;
    for (const auto& [r, ro] : o.ranks) {
      if (ro.state == RankOutcome::State::Ok) out[r] = ro.text;
      else if (ro.state == RankOutcome::State::Error) errors[r] = color::red("error: " + ro.text);
    }
    for (const auto& l : collate(errors)) std::puts(l.c_str());
    return out;
  }

  std::map<int, Description> describe(const std::string& expr) {
    std::map<int, Description> per_rank;
    for (const auto& [r, text] : gather_text(target, "require('lumpi.draw').describe((" + expr + "))"))
      per_rank[r] = parse_description(text);
    return per_rank;
  }

  void draw(const std::string& expr) {
    if (expr.empty()) return (void)std::puts("usage: :draw EXPR   (e.g. :draw mpi.COMM_WORLD:split(mpi.rank() % 2))");
    auto per_rank = describe(expr);
    if (!per_rank.empty()) std::fputs(draw_text(per_rank, terminal_width()).c_str(), stdout);
  }

  void dot(const std::string& rest) {
    // The file name, if any, is the last word after an expression: when it
    // ends in .dot or .gv, looks like a path ("/tmp/x", "./x", "~/x"; not a
    // division), or the whole does not compile as an expression.
    std::string expr = rest, file;
    size_t sp = rest.find_last_of(" \t");
    if (sp != std::string::npos) {
      std::string last = rest.substr(sp + 1), before = trim(rest.substr(0, sp));
      bool dot_name = last.size() > 3 && (last.ends_with(".dot") || last.ends_with(".gv"));
      bool path = last.find_first_of("/.~") == 0;
      if (is_expression(s, before) && (dot_name || path || !is_expression(s, rest))) {
        file = last;
        expr = before;
      }
    }
    if (expr.empty()) return (void)std::puts("usage: :dot EXPR [FILE]");
    auto per_rank = describe(expr);
    if (per_rank.empty()) return;
    std::string text = draw_dot(per_rank);
    if (file.empty()) return (void)std::fputs(text.c_str(), stdout);
    std::ofstream f(file);
    f << text;
    std::printf(f ? "wrote %s (render with: dot -Tpng %s -o out.png)\n" : "cannot write %s\n", file.c_str(),
                file.c_str());
  }

  void ranks(const std::string&) {
    std::map<int, std::string> cpusets;
    if (s.world().alive_count() > 0) {
      std::vector<int> alive;
      for (int r = 0; r < s.size(); ++r)
        if (s.world().alive(r)) alive.push_back(r);
      cpusets = gather_text(alive, "(function() local i = mpi.hw.info() return i.cpuset .. "
                                   "(i.bound and ' (' .. i.bound.level .. ' ' .. i.bound.index .. ')' or "
                                   "' (not bound)') end)()");
    }
    std::printf("%-5s %-16s %-8s %s\n", "rank", "host", "pid", "binding (PUs)");
    for (int r = 0; r < s.size(); ++r) {
      const auto& info = s.world().rank(r);
      std::string binding = info.alive ? (cpusets.count(r) ? cpusets[r] : "?") : "dead";
      std::printf("%-5d %-16s %-8d %s\n", r, info.host.c_str(), int(info.pid), binding.c_str());
    }
  }

  void hw(const std::string&) {
    std::map<int, std::string> cpusets;
    std::vector<int> alive;
    for (int r = 0; r < s.size(); ++r)
      if (s.world().alive(r)) alive.push_back(r);
    if (!alive.empty()) cpusets = gather_text(alive, "mpi.hw.info().cpuset");
    std::fputs(s.hw_tree(cpusets).c_str(), stdout);
    std::puts("(a rank is shown at the smallest object containing its binding; --bind LEVEL binds)");
  }

  // ":restart [N]": a fresh world of N ranks (default: the same size).
  void restart(const std::string& rest) {
    char* end = nullptr;
    long n = rest.empty() ? 0 : std::strtol(rest.c_str(), &end, 10);
    if (!rest.empty() && (*end || n < 1 || n > 1024))
      return (void)std::puts("usage: :restart [N]   (N from 1 to 1024; default: the same size)");
    try {
      s.restart(int(n));
      set_all();
      std::printf("started a world of %d ranks\n", s.size());
    } catch (const std::exception& e) {
      std::printf("restart failed: %s\n", e.what());
    }
  }

  // ---- meta-command handlers (see kMeta below) ----

  bool quit = false;

  void on(const std::string& rest) {
    std::string err;
    size_t sp = rest.find_first_of(" \t");
    auto ranks = parse_ranks(rest.substr(0, sp), s.size(), &err);
    if (!ranks) std::printf("%s\n", err.c_str());
    else if (sp == std::string::npos) std::puts("usage: :on RANKS CODE");
    else run_code(*ranks, "repl", rest.substr(sp + 1));
  }

  void set_target(const std::string& rest) {
    std::string err;
    auto ranks = parse_ranks(rest.empty() ? "all" : rest, s.size(), &err);
    if (!ranks) std::printf("%s\n", err.c_str());
    else target = *ranks;
  }

  void timeout(const std::string& rest) {
    if (rest == "off" || rest == "0") s.set_timeout(0), std::puts("no timeout");
    else if (double t = std::atof(rest.c_str()); t > 0) s.set_timeout(t), std::printf("timeout %g s\n", t);
    else std::puts("usage: :timeout SECONDS|off");
  }

  void status(const std::string&) {
    for (const auto& l : s.status_lines()) std::puts(l.c_str());
  }

  void queue(const std::string&) {
    for (const auto& l : s.queue_lines()) std::puts(l.c_str());
  }

  // ":trace on|off|clear", ":trace" (draw), ":trace svg FILE", ":trace json FILE".
  void trace(const std::string& rest) {
    std::istringstream in(rest);
    std::string what, file, extra;
    in >> what >> file >> extra;
    const char* usage = "usage: :trace [on|off|clear|svg FILE|json FILE]";
    if (!extra.empty() || ((what == "svg" || what == "json") == file.empty())) return (void)std::puts(usage);
    if (what == "on" || what == "off" || what == "clear") {
      s.trace_action(what);
      if (what == "on") std::puts("tracing on: each command's MPI events are kept; :trace draws the last command's");
      if (what == "off") std::puts("tracing off");
      if (what == "clear") std::puts("trace cleared");
      return;
    }
    if (!what.empty() && what != "svg" && what != "json") return (void)std::puts(usage);
    if (!world_usable()) return;
    TraceModel m = build_trace(s.size(), s.collect_trace());
    if (what.empty()) {
      if (!s.tracing() && m.rows.empty()) return (void)std::puts("tracing is off: :trace on, run a command, then :trace");
      return (void)std::fputs(trace_text(m, std::min(terminal_width(), 80)).c_str(), stdout);
    }
    std::ofstream f(file);
    f << (what == "svg" ? trace_svg(m) : trace_json(m));
    if (!f) return (void)std::printf("cannot write %s\n", file.c_str());
    std::printf("wrote %s: %zu events on %d ranks%s\n", file.c_str(), m.events, m.size,
                what == "json" ? " (open in ui.perfetto.dev or chrome://tracing)" : "");
  }

  void load(const std::string& rest) {
    if (rest.empty()) std::puts("usage: :load FILE");
    else if (!std::ifstream(rest)) std::printf("cannot open %s\n", rest.c_str());
    else run_code(target, "script", rest);
  }

  void leave(const std::string&) { quit = true; }

  // Leaves an attached world running (lumpi attach); elsewhere there is nothing to detach from.
  void detach(const std::string&) {
    if (!s.world().attached())
      return (void)std::puts("not attached: :detach leaves a world started by `lumpi world` (see lumpi attach)");
    s.world().detach();
    std::puts("detached; the world keeps running (lumpi attach FILE attaches again)");
    quit = true;
  }

  // ":help", ":help :CMD", ":help NAME" (the last asked of a live rank).
  void help(const std::string& rest);

  // A live rank to ask: the first of the target, else the first alive; -1 if none.
  int live_rank() const {
    for (int r : target)
      if (r < s.size() && s.world().alive(r)) return r;
    for (int r = 0; r < s.size(); ++r)
      if (s.world().alive(r)) return r;
    return -1;
  }

  void help_on_name(const std::string& name) {
    int r = live_rank();
    if (r < 0) return (void)std::puts("the world has stopped; :restart starts a new one (help needs a live rank)");
    auto text = ask_rank(s, r, "require('lumpi.help').text(" + lua_quote(name) + ")");
    if (text) std::puts(text->c_str());
    else std::printf("rank %d did not answer the help request\n", r);
  }

  // Runs the meta-command `line` (":name rest"); false to quit.
  bool meta(const std::string& line);

  // One line of input; nullopt at end of input; "\x03" for Ctrl-C.
  std::optional<std::string> read_line(const std::string& p) {
    if (interactive && !g_typeahead.empty()) {  // typed while the last command ran: shown once, here
      std::string line = g_typeahead.front();
      g_typeahead.pop_front();
      std::printf("%s%s\n", p.c_str(), line.c_str());
      return line;
    }
#ifdef LUMPI_HAVE_READLINE
    if (interactive) {
      set_echo(true);
      auto line = readline_line(p);
      set_echo(false);  // the command runs: type-ahead is echoed when it is read
      return line;
    }
#endif
    if (interactive) {
      std::fputs(p.c_str(), stdout);
      std::fflush(stdout);
    }
    std::string line;
    if (!std::getline(std::cin, line)) return std::nullopt;
    return line;
  }

  void loop() {
    set_all();
    for (;;) {
      s.drain();
      std::optional<std::string> line = read_line(prompt());
      if (!line) break;
      if (*line == "\x03") continue;  // readline ended the line after "^C"
      if (!line->empty() && (*line)[0] == ':') {
        add_history_line(*line);
        if (!meta(*line)) break;
        continue;
      }
      if (!run_typed(*line)) break;
    }
  }

  // Runs a typed chunk, reading "...> " lines while the ranks find it
  // incomplete (lua.c's rule: they answer so without running it). Returns
  // false when input ended.
  bool run_typed(std::string chunk) {
    for (;;) {
      if (chunk.find_first_not_of(" \t\n") == std::string::npos || !world_usable()) return true;
      std::vector<int> live = live_target();  // the prompt's ranks: dead ones are not asked
      Outcome o = s.run(live.empty() ? target : live, "repl", chunk);
      std::optional<std::string> more;
      if (o.incomplete()) more = read_line("...> ");
      if (!o.incomplete() || !more) {  // complete, or input ended inside it: show the answers
        add_history_line(chunk);
        s.print_outcome(o);
        return !o.incomplete();
      }
      if (*more == "\x03") return true;  // Ctrl-C drops the chunk
      chunk += "\n" + *more;
    }
  }

#ifdef LUMPI_HAVE_READLINE
  // While readline waits: deaths and late output, printed above the prompt,
  // which is redrawn (with the live ranks) and keeps what was typed.
  void notices_at_prompt() {
    std::vector<std::string> lines;
    auto saved = std::move(s.on_output);
    s.on_output = [&](int r, const std::string& t) {
      lines.push_back(r < 0 ? t : "[" + std::to_string(r) + "] " + t);
    };
    s.drain();
    s.on_output = std::move(saved);
    if (lines.empty()) return;
    std::fputs("\r\x1b[K", rl_outstream);
    for (const auto& l : lines) std::fprintf(rl_outstream, "%s\n", l.c_str());
    std::fflush(rl_outstream);
    rl_set_prompt(prompt().c_str());
    rl_on_new_line();
    rl_redisplay();
  }
#endif

  void add_history_line(const std::string& l) {
#ifdef LUMPI_HAVE_READLINE
    if (interactive) add_history(l.c_str());
#else
    (void)l;
#endif
  }
};

// ---- the meta-commands ----------------------------------------------------------------------

struct MetaCommand {
  const char* name;     // "draw": typed as ":draw"
  const char* aliases;  // other names, space-separated ("q exit"), or ""
  const char* args;     // "EXPR [FILE]", for the listing and usage
  const char* summary;  // one line for ":help"
  const char* detail;   // more for ":help :draw"
  void (Repl::*run)(const std::string& rest);
};

const MetaCommand kMeta[] = {
    {"help", "h ?", "[NAME|:CMD]", "this list; help on an mpi NAME; help on a meta-command",
     "NAME is a function, method, constant or class of the mpi module, written as in Lua "
     "(split, comm:split, Comm.split, mpi.dims_create, SUM), as in C++ (Cartcomm.shift) or as "
     "in MPI (MPI_Cart_shift); the text (Lua call and results, MPI function, what it does, "
     "errors, MPI section) comes from a live rank, the same as help(\"NAME\") in Lua. "
     ":help :draw explains the meta-command :draw.",
     &Repl::help},
    {"on", "", "RANKS CODE", "run CODE on RANKS only (e.g. :on 0,2-3 x = 1)",
     "RANKS is a list of ranks and ranges (0,2-3) or all; the target stays as it is.", &Repl::on},
    {"target", "", "RANKS|all", "run the following commands on RANKS",
     "The prompt shows the target. :target alone is :target all.", &Repl::set_target},
    {"timeout", "", "S|off", "interrupt commands that run longer than S seconds",
     "S may be a fraction (0.5). A command that runs longer is interrupted as by Ctrl-C. "
     ":timeout off (or 0) removes the limit. The command line's --timeout sets it at start.",
     &Repl::timeout},
    {"status", "", "", "what every rank is doing (also while a command runs)",
     "idle, running Lua code, or blocked in an MPI call with its communicator's name, peer or "
     "root and tag; dead ranks with their exit status. Typed while a command runs, it is "
     "answered at once, with the deadlock diagnosis when blocked ranks can never go on: "
     "the ranks that wait for each other in a cycle, or for ranks that are idle, finished "
     "or dead (the hang report after 2 s says the same).",
     &Repl::status},
    {"queue", "", "", "every rank's posted receives and unmatched messages",
     "Per rank, the receives posted and not yet matched (source, tag, communicator) and the "
     "messages that arrived but match no receive yet (source, tag, communicator, size), as "
     "a debugger's message-queue window shows them; ranks are COMM_WORLD ranks, and ranks "
     "with the same queues are collated. Typed while a command runs, it is answered at once.",
     &Repl::queue},
    {"trace", "", "[on|off|clear|svg FILE|json FILE]", "record MPI events; draw the last command's",
     ":trace on records every rank's MPI events (sends, receives, probes, waits, collectives "
     "and communicator constructors) from the next command on; each command starts a fresh "
     "trace. :trace draws the last command's as a space-time diagram: one lane per rank, time "
     "flowing down in causal order (Lamport clocks carried on every message, so a receive is "
     "always below its send), S a send, R its receive with an arrow from the sender's lane, "
     "the message's number, tag and communicator on the right, *==* a collective over the "
     "ranks that took part, W a wait, P a probe. :trace svg FILE draws the same as SVG (lanes "
     "across, arrows between them); :trace json FILE writes Chrome/Perfetto trace-event JSON "
     "(timestamps are the logical clocks). :trace off stops recording; :trace clear forgets.",
     &Repl::trace},
    {"ranks", "", "", "rank, host, pid and binding of every rank",
     "The binding is the set of PUs the rank may run on, with the hwloc object it is bound "
     "to (see --bind).",
     &Repl::ranks},
    {"hw", "", "", "each host's hardware tree with its ranks placed on it",
     "The hwloc tree (packages, NUMA nodes, caches, cores, PUs) of every host, as that host sees it "
     "(with several hosts, each under a 'host NAME (ranks ...):' line); each rank is shown at the "
     "smallest object that contains its binding.",
     &Repl::hw},
    {"draw", "", "EXPR", "draw the communicator (or group) EXPR of every rank",
     "EXPR is evaluated on every target rank. A communicator that differs between ranks (a "
     "split) is drawn as the partition of COMM_WORLD with each member's new rank; a Cartesian "
     "communicator as its grid (world rank, cart rank, coordinates, ~ on periodic edges); "
     "graph and distributed-graph communicators as adjacency with weights; an "
     "intercommunicator as its two groups; a group as its members; a datatype as its type "
     "map; a window as each rank's window memory, element by element.",
     &Repl::draw},
    {"dot", "", "EXPR [FILE]", "the same as Graphviz DOT, to FILE or the screen",
     "The last word is taken as FILE when it ends in .dot or .gv, starts with /, . or ~, or "
     "the whole is not an expression. Render with dot -Tpng FILE -o out.png.",
     &Repl::dot},
    {"load", "", "FILE", "run a Lua file on the target ranks",
     "The file runs as a chunk on every target rank; the globals it sets stay.", &Repl::load},
    {"restart", "", "[N]", "stop the world and start a fresh one (of N ranks)",
     "N from 1 to 1024; default: the same size. Globals and communicators are gone; the "
     "target becomes every rank.",
     &Repl::restart},
    {"detach", "", "", "leave an attached world running (lumpi attach)",
     "Only in a REPL attached to a world that waits for one (lumpi world, then lumpi attach "
     "FILE): the REPL ends, the ranks keep running with their globals, and lumpi attach FILE "
     "attaches again. :quit (or Ctrl-D) instead ends that world.",
     &Repl::detach},
    {"quit", "q exit", "", "leave (also Ctrl-D)",
     "lumpi's exit status is then that of the ranks: 0 when every rank is alive and well. "
     "In an attached REPL this also ends the world (:detach leaves it running).",
     &Repl::leave},
};

// The command whose name or alias is `word`, or nullptr.
const MetaCommand* find_meta(const std::string& word) {
  for (const auto& m : kMeta) {
    if (word == m.name) return &m;
    std::istringstream aliases(m.aliases);
    for (std::string a; aliases >> a;)
      if (a == word) return &m;
  }
  return nullptr;
}

// ":name ARGS", as the listing and usage show it.
std::string meta_usage(const MetaCommand& m) {
  std::string u = std::string(":") + m.name;
  if (*m.args) u += std::string(" ") + m.args;
  return u;
}

void print_meta_list() {
  std::puts(kIntro);
  for (const auto& m : kMeta) std::printf("  %-21s %s\n", meta_usage(m).c_str(), m.summary);
  std::puts(kOutro);
}

// Wraps text to 78 columns, each line indented by two spaces.
std::string wrap78(const std::string& text) {
  std::istringstream in(text);
  std::string out, line = "  ";
  for (std::string w; in >> w;) {
    if (line.size() > 2 && line.size() + 1 + w.size() > 78) {
      out += line + "\n";
      line = "  ";
    }
    line += (line.size() > 2 ? " " : "") + w;
  }
  return out + line + "\n";
}

void print_meta_help(const MetaCommand& m) {
  std::printf("%s   %s\n", meta_usage(m).c_str(), m.summary);
  std::fputs(wrap78(m.detail).c_str(), stdout);
  std::istringstream aliases(m.aliases);
  std::string also;
  for (std::string a; aliases >> a;) also += (also.empty() ? "  Also: :" : ", :") + a;
  if (!also.empty()) std::puts(also.c_str());
}

void Repl::help(const std::string& rest) {
  if (rest.empty()) return print_meta_list();
  if (rest[0] != ':') return help_on_name(rest);
  if (const MetaCommand* m = find_meta(rest.substr(1))) return print_meta_help(*m);
  std::printf("no meta-command %s (:help lists them)\n", rest.c_str());
}

bool Repl::meta(const std::string& line) {
  std::istringstream in(line.substr(1));
  std::string cmd, rest;
  in >> cmd;
  std::getline(in, rest);
  if (const MetaCommand* m = find_meta(cmd)) (this->*(m->run))(trim(rest));
  else std::printf("unknown command :%s (try :help)\n", cmd.c_str());
  std::fflush(stdout);
  return !quit;
}

#ifdef LUMPI_HAVE_READLINE
// Completes the name after ':' from the table; after ":help " an mpi name
// (from a live rank: lumpi.help's names) or ":" and a meta-command.
std::vector<std::string> meta_candidates(const std::string& before, const std::string& text) {
  std::vector<std::string> out;
  size_t sp = before.find(' ');
  if (sp == std::string::npos) {  // ":dr" -> draw
    for (const auto& m : kMeta)
      if (std::string(m.name).starts_with(text)) out.push_back(m.name);
    return out;
  }
  const MetaCommand* m = find_meta(before.substr(1, sp - 1));
  if (!m || m->run != &Repl::help) return out;
  size_t at = before.find_first_not_of(' ', sp);
  std::string arg = at == std::string::npos ? "" : before.substr(at);
  if (!arg.empty() && arg[0] == ':') {
    for (const auto& c : kMeta)
      if (std::string(c.name).starts_with(text)) out.push_back(c.name);
    return out;
  }
  if (!g_session || !g_target || g_target->empty() || arg.size() < text.size()) return out;
  auto names = ask_rank(*g_session, g_target->front(),
                        "require('lumpi.help').complete(" + lua_quote(arg) + ")");
  std::istringstream in(names ? *names : "");
  for (std::string n; std::getline(in, n);)
    if (n.size() >= arg.size()) out.push_back(n.substr(arg.size() - text.size()));
  return out;
}
#endif

}  // namespace

bool run_meta_command(Session& s, std::vector<int>& target, const std::string& line) {
  Repl r{s, target, false, {}};
  bool go_on = r.meta(line);
  target = r.target;
  return go_on;
}

void run_repl(Session& s) {
  Repl r{s, {}, bool(isatty(0)), {}};
  install_sigint_handler();
  g_session = &s;
  g_target = &r.target;
  if (r.interactive) {
    s.poll_input = poll_typeahead;
    s.poll_queue = [] { return std::exchange(g_queue_asked, false); };
  }
#ifdef LUMPI_HAVE_READLINE
  static Repl* g_repl = nullptr;
  g_repl = &r;
  if (r.interactive) {
    g_at_prompt = [] { g_repl->notices_at_prompt(); };
    rl_catch_signals = 0;  // Ctrl-C is ours: getc_or_ctrl_c sees read() interrupted
    rl_getc_function = getc_or_ctrl_c;
    rl_readline_name = "lumpi";
    rl_attempted_completion_function = on_complete;
    rl_basic_word_break_characters = const_cast<char*>(" \t\n\"\\'`@$><=;|&{(,.:[+-*/%^~#)]}");
    if (const char* home = std::getenv("HOME")) {
      r.history_file = std::string(home) + "/.lumpi_history";
      read_history(r.history_file.c_str());
    }
  }
#endif
  r.loop();
#ifdef LUMPI_HAVE_READLINE
  g_at_prompt = nullptr;
  if (r.interactive) set_echo(true);
  if (r.interactive && !r.history_file.empty()) {
    write_history(r.history_file.c_str());
    history_truncate_file(r.history_file.c_str(), 1000);
  }
#endif
  s.poll_input = nullptr;
  s.poll_queue = nullptr;
  g_session = nullptr;
  g_target = nullptr;
  if (r.interactive) std::puts("");
}

}  // namespace lumpi::repl
