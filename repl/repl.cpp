// repl/repl.cpp: the interactive loop (docs/repl.md): reading chunks with line
// editing, history and completion, the target, and printing what the
// meta-commands did.
//
// Sections: reading lines (readline's callback interface, so that Ctrl-C at
// the prompt ends the line at once, and type-ahead while a command runs);
// completion; the REPL; the loop. The meta-commands and their table are in
// repl/meta.cpp (shared with the Jupyter kernel); running commands,
// interrupts and hang reports belong to Session (repl/session.cpp).
#include "repl/repl.hpp"

#include <cerrno>
#include <csignal>
#include <poll.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <iostream>
#include <sstream>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include <utility>

#include "repl/complete.hpp"
#include "repl/meta.hpp"
#include "repl/view/collate.hpp"
#include "repl/view/color.hpp"

#ifdef LUMPI_HAVE_READLINE
#include <readline/history.h>
#include <readline/readline.h>
#endif

namespace lumpi::repl {
namespace {

int terminal_width() {
  struct winsize ws {};
  if (ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40) return ws.ws_col;
  return 80;
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

// The names of the meta-commands that start with `text`.
std::vector<std::string> meta_names(const std::string& text) {
  std::vector<std::string> out;
  for (const auto& m : meta_commands())
    if (std::string(m.name).starts_with(text)) out.push_back(m.name);
  return out;
}

// Completes the name after ':' from the table; after ":help " an mpi name
// (from a live rank: lumpi.help's names) or ":" and a meta-command.
std::vector<std::string> meta_candidates(const std::string& before, const std::string& text) {
  size_t sp = before.find(' ');
  if (sp == std::string::npos) return meta_names(text);  // ":dr" -> draw
  if (find_meta(before.substr(1, sp - 1)) != find_meta("help")) return {};
  size_t at = before.find_first_not_of(' ', sp);
  std::string arg = at == std::string::npos ? "" : before.substr(at);
  if (!arg.empty() && arg[0] == ':') return meta_names(text);
  std::vector<std::string> out;
  if (!g_session || !g_target || g_target->empty() || arg.size() < text.size()) return out;
  auto names = ask_rank(*g_session, g_target->front(),
                        "require('lumpi.help').complete(" + lua_quote(arg) + ")");
  std::istringstream in(names ? *names : "");
  for (std::string n; std::getline(in, n);)
    if (n.size() >= arg.size()) out.push_back(n.substr(arg.size() - text.size()));
  return out;
}

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

// Prints what a meta-command did: the ranks' errors (red), the answers to
// the code it ran, then its text.
void print_result(const Session& s, const MetaResult& r) {
  std::map<int, std::string> errors;
  for (const auto& [rank, text] : r.rank_errors) errors[rank] = color::red("error: " + text);
  for (const auto& l : collate(errors)) std::puts(l.c_str());
  if (r.outcome) s.print_outcome(*r.outcome);
  std::fputs(r.text.c_str(), stdout);
  std::fflush(stdout);
}

// The loop's state: the world, the target the prompt shows, and whether a
// terminal is there (prompts, readline, history). Meta-commands go to the
// table (run_meta), typed chunks to the Session.
struct Repl {
  Session& s;
  std::vector<int> target;
  bool interactive;
  std::string history_file;

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
    target = s.all_ranks();
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

  // Runs the meta-command `line` (":name rest") and prints what it did; false to quit.
  bool meta(const std::string& line) {
    MetaContext c{s, target, terminal_width()};
    MetaResult r = run_meta(c, line);
    print_result(s, r);
    return !r.leave;
  }

  // Runs a typed chunk, reading "...> " lines while the ranks find it
  // incomplete (lua.c's rule: they answer so without running it). Returns
  // false when input ended.
  bool run_typed(std::string chunk) {
    for (;;) {
      if (chunk.find_first_not_of(" \t\n") == std::string::npos) return true;
      if (!s.usable()) {
        std::puts(kWorldStopped);
        return true;
      }
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

// ---- the loop ----------------------------------------------------------------------------------

#ifdef LUMPI_HAVE_READLINE
Repl* g_repl = nullptr;  // for the prompt's notices

// readline as the REPL wants it: our Ctrl-C, completion, word breaks, the history file.
void start_readline(Repl& r) {
  g_repl = &r;
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

void stop_readline(Repl& r) {
  g_at_prompt = nullptr;
  set_echo(true);
  if (!r.history_file.empty()) {
    write_history(r.history_file.c_str());
    history_truncate_file(r.history_file.c_str(), 1000);
  }
}
#endif

}  // namespace

void run_repl(Session& s) {
  Repl r{s, {}, bool(isatty(0)), {}};
  install_sigint_handler();
  g_session = &s;
  g_target = &r.target;
  if (r.interactive) {
    s.poll_input = poll_typeahead;
    s.poll_queue = [] { return std::exchange(g_queue_asked, false); };
#ifdef LUMPI_HAVE_READLINE
    start_readline(r);
#endif
  }
  r.loop();
#ifdef LUMPI_HAVE_READLINE
  if (r.interactive) stop_readline(r);
#endif
  s.poll_input = nullptr;
  s.poll_queue = nullptr;
  g_session = nullptr;
  g_target = nullptr;
  if (r.interactive) std::puts("");
}

}  // namespace lumpi::repl
