// repl/repl.cpp: reading input, meta-commands and the prompt.
#include "repl/repl.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

#include "repl/chunk.hpp"
#include "repl/collate.hpp"

#ifdef LUMPI_HAVE_READLINE
#include <readline/history.h>
#include <readline/readline.h>
#endif

namespace lumpi::repl {
namespace {

const char* kHelp = R"(lumpi REPL: each chunk of Lua runs on every target rank; results are collated.
  :help                 this text
  :on RANKS CODE        run CODE on RANKS only (e.g. :on 0,2-3 x = 1)
  :target RANKS|all     run the following commands on RANKS
  :timeout S|off        interrupt commands that run longer than S seconds
  :status               what every rank is doing now
  :ranks                rank, host and pid of every rank
  :load FILE            run a Lua file on the target ranks
  :restart [N]          stop the world and start a fresh one (of N ranks)
  :quit                 leave (also Ctrl-D)
Ctrl-C interrupts the running command on every rank.)";

struct Repl {
  Session& s;
  std::vector<int> target;
  bool interactive;
  std::string history_file;

  void set_all() {
    target.clear();
    for (int r = 0; r < s.size(); ++r) target.push_back(r);
  }
  std::string prompt() const { return "lumpi[" + format_ranks(target) + "]> "; }

  void run_code(const std::vector<int>& ranks, const std::string& mode, const std::string& code,
                const std::vector<std::string>& args = {}) {
    if (s.size() == 0 || s.world().alive_count() == 0) {
      std::puts("the world has stopped; :restart starts a new one");
      return;
    }
    Outcome o = s.run(ranks, mode, code, args);
    s.print_outcome(o);
  }

  // Returns false to quit.
  bool meta(const std::string& line) {
    std::istringstream in(line.substr(1));
    std::string cmd;
    in >> cmd;
    std::string rest;
    std::getline(in, rest);
    rest.erase(0, rest.find_first_not_of(" \t"));
    std::string err;
    if (cmd == "quit" || cmd == "q" || cmd == "exit") return false;
    if (cmd == "help" || cmd == "h" || cmd == "?") {
      std::puts(kHelp);
    } else if (cmd == "on") {
      size_t sp = rest.find_first_of(" \t");
      auto ranks = parse_ranks(rest.substr(0, sp), s.size(), &err);
      if (!ranks) std::printf("%s\n", err.c_str());
      else if (sp == std::string::npos) std::puts("usage: :on RANKS CODE");
      else run_code(*ranks, "repl", rest.substr(sp + 1));
    } else if (cmd == "target") {
      auto ranks = parse_ranks(rest.empty() ? "all" : rest, s.size(), &err);
      if (!ranks) std::printf("%s\n", err.c_str());
      else target = *ranks;
    } else if (cmd == "timeout") {
      if (rest == "off" || rest == "0") s.set_timeout(0);
      else if (double t = std::atof(rest.c_str()); t > 0) s.set_timeout(t);
      else std::puts("usage: :timeout SECONDS|off");
    } else if (cmd == "status") {
      for (const auto& l : s.status_lines()) std::puts(l.c_str());
    } else if (cmd == "ranks") {
      for (int r = 0; r < s.size(); ++r) {
        const auto& info = s.world().rank(r);
        std::printf("[%d] host=%s pid=%d %s\n", r, info.host.c_str(), int(info.pid),
                    info.alive ? "alive" : "dead");
      }
    } else if (cmd == "load") {
      if (rest.empty()) std::puts("usage: :load FILE");
      else if (!std::ifstream(rest)) std::printf("cannot open %s\n", rest.c_str());
      else run_code(target, "script", rest);
    } else if (cmd == "restart") {
      int n = rest.empty() ? 0 : std::atoi(rest.c_str());
      try {
        s.restart(n);
        set_all();
        std::printf("started a world of %d ranks\n", s.size());
      } catch (const std::exception& e) {
        std::printf("restart failed: %s\n", e.what());
      }
    } else {
      std::printf("unknown command :%s (try :help)\n", cmd.c_str());
    }
    std::fflush(stdout);
    return true;
  }

  // One line of input; nullopt at end of input.
  std::optional<std::string> read_line(const std::string& p) {
#ifdef LUMPI_HAVE_READLINE
    if (interactive) {
      reset_sigint();
      char* l = readline(p.c_str());
      if (!l) return std::nullopt;
      std::string line(l);
      std::free(l);
      if (sigint_count()) return std::string("\x03");  // Ctrl-C: drop the pending input
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
      std::string chunk;
      std::optional<std::string> line = read_line(prompt());
      if (!line) break;
      if (*line == "\x03") {
        std::puts("");
        continue;
      }
      if (chunk.empty() && !line->empty() && (*line)[0] == ':') {
        add_history_line(*line);
        if (!meta(*line)) break;
        continue;
      }
      chunk = *line;
      bool eof = false;
      while (chunk_incomplete(chunk)) {
        std::optional<std::string> more = read_line("...> ");
        if (!more) {
          eof = true;
          break;
        }
        if (*more == "\x03") {
          chunk.clear();
          break;
        }
        chunk += "\n" + *more;
      }
      if (chunk.find_first_not_of(" \t\n") == std::string::npos) {
        if (eof) break;
        continue;
      }
      add_history_line(chunk);
      run_code(target, "repl", chunk);
      if (eof) break;
    }
  }

  void add_history_line(const std::string& l) {
#ifdef LUMPI_HAVE_READLINE
    if (interactive) add_history(l.c_str());
#else
    (void)l;
#endif
  }
};

#ifdef LUMPI_HAVE_READLINE
// Ctrl-C at the prompt ends the line being edited (readline calls this hook
// after its own SIGINT handling).
int on_readline_signal() {
  if (sigint_count()) {
    rl_replace_line("", 0);
    rl_done = 1;
  }
  return 0;
}
#endif

}  // namespace

void run_repl(Session& s) {
  Repl r{s, {}, bool(isatty(0)), {}};
  install_sigint_handler();
#ifdef LUMPI_HAVE_READLINE
  if (r.interactive) {
    rl_signal_event_hook = on_readline_signal;
    if (const char* home = std::getenv("HOME")) {
      r.history_file = std::string(home) + "/.lumpi_history";
      read_history(r.history_file.c_str());
    }
  }
#endif
  r.loop();
#ifdef LUMPI_HAVE_READLINE
  if (r.interactive && !r.history_file.empty()) {
    write_history(r.history_file.c_str());
    history_truncate_file(r.history_file.c_str(), 1000);
  }
#endif
  if (r.interactive) std::puts("");
}

}  // namespace lumpi::repl
