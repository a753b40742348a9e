// repl/meta.cpp: the meta-commands of the REPL and the kernel (docs/repl.md,
// docs/notebook.md): their handlers, the table kMeta, and ":help".
//
// Sections: building results; running code on the ranks; the handlers, one
// per command (drawing, tracing and help have helpers of their own); the
// table; ":help"; dispatch. A handler checks its arguments before it does
// anything and answers with a MetaResult; it never prints. Running commands
// belongs to the Session (repl/session.cpp), drawing to repl/view/draw.cpp,
// the trace's pictures to repl/view/trace_view.cpp, the text of ":help NAME"
// to the ranks (lua/lumpi/help.lua).
#include "repl/meta.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <sstream>

#include "repl/chunk.hpp"
#include "repl/complete.hpp"
#include "repl/view/collate.hpp"
#include "repl/view/draw.hpp"
#include "repl/view/trace_view.hpp"

namespace lumpi::repl {
namespace {

const char* kIntro = "lumpi REPL: each chunk of Lua runs on every target rank; results are collated.";
const char* kOutro =
    "Ctrl-C interrupts the running command on every rank; Tab completes names.\n"
    "In Lua, help(x) explains x on the ranks (a name, or a function or object of mpi).";

// ---- building results ------------------------------------------------------------------------

// printf into a string.
__attribute__((format(printf, 1, 2))) std::string strprintf(const char* fmt, ...) {
  va_list ap, again;
  va_start(ap, fmt);
  va_copy(again, ap);
  int n = std::vsnprintf(nullptr, 0, fmt, ap);
  va_end(ap);
  std::string out(size_t(std::max(n, 0)) + 1, '\0');
  std::vsnprintf(out.data(), out.size(), fmt, again);
  va_end(again);
  out.pop_back();
  return out;
}

// A result that shows `text` (whole lines), or one line.
MetaResult shown(const std::string& text) {
  MetaResult r;
  r.text = text;
  return r;
}
MetaResult said(const std::string& line) { return shown(line + "\n"); }
MetaResult failed(MetaError e, const std::string& line) {
  MetaResult r = said(line);
  r.error = e;
  return r;
}
MetaResult usage(const std::string& line) { return failed(MetaError::Usage, line); }
MetaResult world_stopped() { return failed(MetaError::WorldStopped, kWorldStopped); }

std::string lines_text(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

// ---- running code on the ranks ---------------------------------------------------------------

// A "text" command's answers: rank -> text of those that answered, rank ->
// error message of those that raised one (dead ranks are in neither).
struct Answers {
  std::map<int, std::string> texts, errors;
};

Answers gather_text(Session& s, const std::vector<int>& ranks, const std::string& code) {
  Answers a;
  for (const auto& [r, ro] : s.run(ranks, "text", code).ranks) {
    if (ro.state == RankOutcome::State::Ok) a.texts[r] = ro.text;
    else if (ro.state == RankOutcome::State::Error) a.errors[r] = ro.text;
  }
  return a;
}

// A result that carries the ranks' errors, if any, as error Ranks.
MetaResult with_errors_of(const Answers& a) {
  MetaResult r;
  r.rank_errors = a.errors;
  if (!a.errors.empty()) r.error = MetaError::Ranks;
  return r;
}

// `code` run on `ranks` as a command (mode "repl" or "script"), its answers in the result.
MetaResult run_code(Session& s, const std::vector<int>& ranks, const std::string& mode, const std::string& code) {
  if (!s.usable()) return world_stopped();
  MetaResult r;
  r.outcome = s.run(ranks, mode, code);
  return r;
}

std::vector<int> alive_ranks(Session& s) {
  std::vector<int> alive;
  for (int r = 0; r < s.size(); ++r)
    if (s.world().alive(r)) alive.push_back(r);
  return alive;
}

// A live rank to ask: the first of the target, else the first alive; -1 if none.
int live_rank(MetaContext& c) {
  for (int r : c.target)
    if (r < c.s.size() && c.s.world().alive(r)) return r;
  std::vector<int> alive = alive_ranks(c.s);
  return alive.empty() ? -1 : alive.front();
}

// ---- the handlers ----------------------------------------------------------------------------

MetaResult meta_help(MetaContext& c, const std::string& args);  // with ":help" below

// ":on RANKS CODE". CODE may begin on the next line: a notebook's ":on
// RANKS" alone on its line takes the rest of the cell (repl/kernel/kernel.cpp).
MetaResult meta_on(MetaContext& c, const std::string& args) {
  std::string err;
  size_t sp = args.find_first_of(" \t\n");
  auto ranks = parse_ranks(args.substr(0, sp), c.s.size(), &err);
  if (!ranks) return usage(err);
  if (sp == std::string::npos) return usage("usage: :on RANKS CODE");
  return run_code(c.s, *ranks, "repl", args.substr(sp + 1));
}

MetaResult meta_target(MetaContext& c, const std::string& args) {
  std::string err;
  auto ranks = parse_ranks(args.empty() ? "all" : args, c.s.size(), &err);
  if (!ranks) return usage(err);
  c.target = *ranks;
  return {};
}

MetaResult meta_timeout(MetaContext& c, const std::string& args) {
  double t = std::atof(args.c_str());
  if (args == "off" || args == "0") t = 0;
  else if (t <= 0) return usage("usage: :timeout SECONDS|off");
  c.s.set_timeout(t);
  return said(t > 0 ? "timeout " + seconds_text(t) + " s" : "no timeout");
}

MetaResult meta_status(MetaContext& c, const std::string&) { return shown(lines_text(c.s.status_lines())); }

MetaResult meta_queue(MetaContext& c, const std::string&) { return shown(lines_text(c.s.queue_lines())); }

// rank, host, pid and binding (as the rank's hwloc sees it) of every rank.
MetaResult meta_ranks(MetaContext& c, const std::string&) {
  Session& s = c.s;
  Answers a;
  if (s.world().alive_count() > 0)
    a = gather_text(s, alive_ranks(s),
                    "(function() local i = mpi.hw.info() return i.cpuset .. "
                    "(i.bound and ' (' .. i.bound.level .. ' ' .. i.bound.index .. ')' or "
                    "' (not bound)') end)()");
  MetaResult r = with_errors_of(a);
  r.text = strprintf("%-5s %-16s %-8s %s\n", "rank", "host", "pid", "binding (PUs)");
  for (int rank = 0; rank < s.size(); ++rank) {
    const auto& info = s.world().rank(rank);
    std::string binding = info.alive ? (a.texts.count(rank) ? a.texts[rank] : "?") : "dead";
    r.text += strprintf("%-5d %-16s %-8d %s\n", rank, info.host.c_str(), int(info.pid), binding.c_str());
  }
  return r;
}

MetaResult meta_hw(MetaContext& c, const std::string&) {
  std::vector<int> alive = alive_ranks(c.s);
  Answers a;
  if (!alive.empty()) a = gather_text(c.s, alive, "mpi.hw.info().cpuset");
  MetaResult r = with_errors_of(a);
  r.text = c.s.hw_tree(a.texts) +
           "(a rank is shown at the smallest object containing its binding; --bind LEVEL binds)\n";
  return r;
}

// ---- :draw and :dot ----

// What the target's ranks say about `expr`, drawn: DOT in `dot`, and in
// `text` the same DOT (`as_dot`) or the text drawing. Nothing drawn when no
// rank answered.
MetaResult drawing(MetaContext& c, const std::string& expr, bool as_dot) {
  if (!c.s.usable()) return world_stopped();
  Answers a = gather_text(c.s, c.target, "require('lumpi.draw').describe((" + expr + "))");
  MetaResult r = with_errors_of(a);
  if (a.texts.empty()) return r;
  std::map<int, Description> per_rank;
  for (const auto& [rank, text] : a.texts) per_rank[rank] = parse_description(text);
  r.dot = draw_dot(per_rank);
  r.text = as_dot ? r.dot : draw_text(per_rank, c.width);
  return r;
}

MetaResult meta_draw(MetaContext& c, const std::string& expr) {
  if (expr.empty()) return usage("usage: :draw EXPR   (e.g. :draw mpi.COMM_WORLD:split(mpi.rank() % 2))");
  return drawing(c, expr, false);
}

// ":dot EXPR [FILE]" -> {EXPR, FILE}. The file name, if any, is the last
// word after an expression: when it ends in .dot or .gv, looks like a path
// ("/tmp/x", "./x", "~/x"; not a division), or the whole does not compile
// as an expression (a rank is asked).
std::pair<std::string, std::string> dot_arguments(Session& s, const std::string& args) {
  size_t sp = args.find_last_of(" \t");
  if (sp == std::string::npos) return {args, ""};
  std::string last = args.substr(sp + 1), before = trim(args.substr(0, sp));
  bool dot_name = last.size() > 3 && (last.ends_with(".dot") || last.ends_with(".gv"));
  bool path = last.find_first_of("/.~") == 0;
  if (is_expression(s, before) && (dot_name || path || !is_expression(s, args))) return {before, last};
  return {args, ""};
}

MetaResult meta_dot(MetaContext& c, const std::string& args) {
  auto [expr, file] = dot_arguments(c.s, args);
  if (expr.empty()) return usage("usage: :dot EXPR [FILE]");
  MetaResult r = drawing(c, expr, true);
  if (file.empty() || r.dot.empty()) return r;
  std::ofstream f(file);
  f << r.dot;
  r.dot.clear();  // written, not shown
  if (!f) r.error = MetaError::Failed;
  r.text = f ? strprintf("wrote %s (render with: dot -Tpng %s -o out.png)\n", file.c_str(), file.c_str())
             : "cannot write " + file + "\n";
  return r;
}

// ---- :trace ----

MetaResult trace_switch(Session& s, const std::string& what) {
  s.trace_action(what);
  if (what == "on") return said("tracing on: each command's MPI events are kept; :trace draws the last command's");
  return said(what == "off" ? "tracing off" : "trace cleared");
}

// The last command's diagram, as text and SVG.
MetaResult trace_draw(MetaContext& c, const TraceModel& m) {
  if (!c.s.tracing() && m.rows.empty()) return said("tracing is off: :trace on, run a command, then :trace");
  MetaResult r = shown(trace_text(m, std::min(c.width, 80)));
  r.svg = trace_svg(m);
  return r;
}

// ":trace svg FILE", ":trace json FILE".
MetaResult trace_write(const TraceModel& m, const std::string& what, const std::string& file) {
  std::ofstream f(file);
  f << (what == "svg" ? trace_svg(m) : trace_json(m));
  if (!f) return failed(MetaError::Failed, "cannot write " + file);
  return said(strprintf("wrote %s: %zu events on %d ranks%s", file.c_str(), m.events, m.size,
                     what == "json" ? " (open in ui.perfetto.dev or chrome://tracing)" : ""));
}

// ":trace on|off|clear", ":trace" (draw), ":trace svg FILE", ":trace json FILE".
MetaResult meta_trace(MetaContext& c, const std::string& args) {
  std::istringstream in(args);
  std::string what, file, extra;
  in >> what >> file >> extra;
  bool to_file = what == "svg" || what == "json";
  bool switch_ = what == "on" || what == "off" || what == "clear";
  if (!extra.empty() || to_file == file.empty() || !(what.empty() || to_file || switch_))
    return usage("usage: :trace [on|off|clear|svg FILE|json FILE]");
  if (switch_) return trace_switch(c.s, what);
  if (!c.s.usable()) return world_stopped();
  TraceModel m = build_trace(c.s.size(), c.s.collect_trace());
  return to_file ? trace_write(m, what, file) : trace_draw(c, m);
}

// ":check on|off", ":check" (the setting and what the checks found so far).
MetaResult meta_check(MetaContext& c, const std::string& args) {
  if (args == "on" || args == "off") {
    c.s.set_check(args == "on");
    return said(std::string("--check is ") + (args == "on" ? "on" : "off"));
  }
  if (!args.empty()) return usage("usage: :check [on|off]");
  std::string text = std::string("--check is ") + (c.s.checking() ? "on" : "off") + "; ";
  const auto& found = c.s.check_report().findings();
  text += found.empty() ? "no check has fired" : strprintf("%zu finding(s):", found.size());
  for (const auto& f : found) text += "\n" + f.check_class + ": " + f.text;
  return said(text);
}

// ---- the rest ----

MetaResult meta_load(MetaContext& c, const std::string& file) {
  if (file.empty()) return usage("usage: :load FILE");
  if (!std::ifstream(file)) return usage("cannot open " + file);
  return run_code(c.s, c.target, "script", file);
}

// ":restart [N]": a fresh world of N ranks (default: the same size).
MetaResult meta_restart(MetaContext& c, const std::string& args) {
  char* end = nullptr;
  long n = args.empty() ? 0 : std::strtol(args.c_str(), &end, 10);
  if (!args.empty() && (*end || n < 1 || n > 1024))
    return usage("usage: :restart [N]   (N from 1 to 1024; default: the same size)");
  try {
    c.s.restart(int(n));
  } catch (const std::exception& e) {
    return failed(MetaError::Failed, std::string("restart failed: ") + e.what());
  }
  c.target = c.s.all_ranks();
  return said(strprintf("started a world of %d ranks", c.s.size()));
}

// Leaves an attached world running (lumpi attach); elsewhere there is nothing to detach from.
MetaResult meta_detach(MetaContext& c, const std::string&) {
  if (!c.s.world().attached())
    return usage("not attached: :detach leaves a world started by `lumpi world` (see lumpi attach)");
  c.s.world().detach();
  MetaResult r = said("detached; the world keeps running (lumpi attach FILE attaches again)");
  r.leave = true;
  return r;
}

MetaResult meta_quit(MetaContext&, const std::string&) {
  MetaResult r;
  r.leave = true;
  return r;
}

// ---- the table ---------------------------------------------------------------------------------

const MetaCommand kMeta[] = {
    {"help", "h ?", "[NAME|:CMD]", "this list; help on an mpi NAME; help on a meta-command",
     "NAME is a function, method, constant or class of the mpi module, written as in Lua "
     "(split, comm:split, Comm.split, mpi.dims_create, SUM), as in C++ (Cartcomm.shift) or as "
     "in MPI (MPI_Cart_shift); the text (Lua call and results, MPI function, what it does, "
     "errors, MPI section) comes from a live rank, the same as help(\"NAME\") in Lua. "
     ":help :draw explains the meta-command :draw.",
     meta_help},
    {"on", "", "RANKS CODE", "run CODE on RANKS only (e.g. :on 0,2-3 x = 1)",
     "RANKS is a list of ranks and ranges (0,2-3) or all; the target stays as it is.", meta_on},
    {"target", "", "RANKS|all", "run the following commands on RANKS",
     "The prompt shows the target. :target alone is :target all.", meta_target},
    {"timeout", "", "S|off", "interrupt commands that run longer than S seconds",
     "S may be a fraction (0.5). A command that runs longer is interrupted as by Ctrl-C. "
     ":timeout off (or 0) removes the limit. The command line's --timeout sets it at start.",
     meta_timeout},
    {"status", "", "", "what every rank is doing (also while a command runs)",
     "idle, running Lua code, or blocked in an MPI call with its communicator's name, peer or "
     "root and tag; dead ranks with their exit status. Typed while a command runs, it is "
     "answered at once, with the deadlock diagnosis when blocked ranks can never go on: "
     "the ranks that wait for each other in a cycle, or for ranks that are idle, finished "
     "or dead (the hang report after 2 s says the same).",
     meta_status},
    {"queue", "", "", "every rank's posted receives and unmatched messages",
     "Per rank, the receives posted and not yet matched (source, tag, communicator) and the "
     "messages that arrived but match no receive yet (source, tag, communicator, size), as "
     "a debugger's message-queue window shows them; ranks are COMM_WORLD ranks, and ranks "
     "with the same queues are collated. Typed while a command runs, it is answered at once.",
     meta_queue},
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
     meta_trace},
    {"check", "", "[on|off]", "the full checks of MPI usage (docs/checking.md); what they found",
     ":check on turns on the checks that cost messages of their own (as --check does); deadlocks "
     "are found whatever the setting, within milliseconds of happening, and shown with the ranks "
     "that wait for each other. :check alone says the setting and lists what the checks found.",
     meta_check},
    {"ranks", "", "", "rank, host, pid and binding of every rank",
     "The binding is the set of PUs the rank may run on, with the hwloc object it is bound "
     "to (see --bind).",
     meta_ranks},
    {"hw", "", "", "each host's hardware tree with its ranks placed on it",
     "The hwloc tree (packages, NUMA nodes, caches, cores, PUs) of every host, as that host sees it "
     "(with several hosts, each under a 'host NAME (ranks ...):' line); each rank is shown at the "
     "smallest object that contains its binding.",
     meta_hw},
    {"draw", "", "EXPR", "draw the communicator (or group) EXPR of every rank",
     "EXPR is evaluated on every target rank. A communicator that differs between ranks (a "
     "split) is drawn as the partition of COMM_WORLD with each member's new rank; a Cartesian "
     "communicator as its grid (world rank, cart rank, coordinates, ~ on periodic edges); "
     "graph and distributed-graph communicators as adjacency with weights; an "
     "intercommunicator as its two groups; a group as its members; a datatype as its type "
     "map; a window as each rank's window memory, element by element.",
     meta_draw},
    {"dot", "", "EXPR [FILE]", "the same as Graphviz DOT, to FILE or the screen",
     "The last word is taken as FILE when it ends in .dot or .gv, starts with /, . or ~, or "
     "the whole is not an expression. Render with dot -Tpng FILE -o out.png.",
     meta_dot},
    {"load", "", "FILE", "run a Lua file on the target ranks",
     "The file runs as a chunk on every target rank; the globals it sets stay.", meta_load},
    {"restart", "", "[N]", "stop the world and start a fresh one (of N ranks)",
     "N from 1 to 1024; default: the same size. Globals and communicators are gone; the "
     "target becomes every rank.",
     meta_restart},
    {"detach", "", "", "leave an attached world running (lumpi attach)",
     "Only in a REPL attached to a world that waits for one (lumpi world, then lumpi attach "
     "FILE): the REPL ends, the ranks keep running with their globals, and lumpi attach FILE "
     "attaches again. :quit (or Ctrl-D) instead ends that world.",
     meta_detach},
    {"quit", "q exit", "", "leave (also Ctrl-D)",
     "lumpi's exit status is then that of the ranks: 0 when every rank is alive and well. "
     "In an attached REPL this also ends the world (:detach leaves it running).",
     meta_quit},
};

// ---- :help -------------------------------------------------------------------------------------

// ":name ARGS", as the listing and usage show it.
std::string meta_usage(const MetaCommand& m) {
  std::string u = std::string(":") + m.name;
  if (*m.args) u += std::string(" ") + m.args;
  return u;
}

std::string meta_list() {
  std::string out = std::string(kIntro) + "\n";
  for (const auto& m : kMeta) out += strprintf("  %-21s %s\n", meta_usage(m).c_str(), m.summary);
  return out + kOutro + "\n";
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

// ":help :draw": usage, summary, the details wrapped, the aliases.
std::string meta_help_text(const MetaCommand& m) {
  std::string out = meta_usage(m) + "   " + m.summary + "\n" + wrap78(m.detail);
  std::istringstream aliases(m.aliases);
  std::string also;
  for (std::string a; aliases >> a;) also += (also.empty() ? "  Also: :" : ", :") + a;
  return also.empty() ? out : out + also + "\n";
}

// Levenshtein distance between two short words.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// What an unknown meta-command may have meant: the commands (by their
// names) whose name or an alias (of three letters or more: ":h" is too
// short to guess from) is within two edits of `word` (one for words of
// three letters or less), or starts with it.
std::string near_misses(const std::string& word) {
  std::string out;
  for (const auto& m : kMeta) {
    std::istringstream names(std::string(m.name) + " " + m.aliases);
    for (std::string n; names >> n;) {
      if (n.size() < 3) continue;
      const size_t limit = word.size() <= 3 ? 1 : 2;
      if (edit_distance(word, n) <= limit || (word.size() >= 2 && n.starts_with(word))) {
        out += (out.empty() ? ":" : ", :") + std::string(m.name);
        break;
      }
    }
  }
  return out;
}

// "unknown command :hlep; did you mean :help? (...)".
std::string unknown_meta(const std::string& what, const std::string& word, const char* hint) {
  std::string near = near_misses(word);
  return what + (near.empty() ? "" : "; did you mean " + near + "?") + " (" + hint + ")";
}

// ":help NAME": the text of lumpi.help, asked of a live rank.
MetaResult help_on_name(MetaContext& c, const std::string& name) {
  int r = live_rank(c);
  if (r < 0) return failed(MetaError::WorldStopped, std::string(kWorldStopped) + " (help needs a live rank)");
  auto text = ask_rank(c.s, r, "require('lumpi.help').text(" + lua_quote(name) + ")");
  if (!text) return failed(MetaError::Failed, strprintf("rank %d did not answer the help request", r));
  return said(*text);
}

// ":help", ":help :CMD", ":help NAME". A NAME that is a meta-command's
// (":help trace") explains the meta-command: the mpi module has no such names.
MetaResult meta_help(MetaContext& c, const std::string& args) {
  if (args.empty()) return shown(meta_list());
  if (args[0] != ':') {
    if (const MetaCommand* m = find_meta(args)) return shown(meta_help_text(*m));
    return help_on_name(c, args);
  }
  if (const MetaCommand* m = find_meta(args.substr(1))) return shown(meta_help_text(*m));
  return usage(unknown_meta("no meta-command " + args, args.substr(1), ":help lists them"));
}

}  // namespace

// ---- dispatch ------------------------------------------------------------------------------------

std::span<const MetaCommand> meta_commands() { return kMeta; }

const MetaCommand* find_meta(const std::string& word) {
  for (const auto& m : kMeta) {
    if (word == m.name) return &m;
    std::istringstream aliases(m.aliases);
    for (std::string a; aliases >> a;)
      if (a == word) return &m;
  }
  return nullptr;
}

MetaLine split_meta(const std::string& line) {
  const char* blanks = " \t\r\n\v\f";
  size_t a = line.find_first_not_of(blanks, line.starts_with(":") ? 1 : 0);
  if (a == std::string::npos) return {};
  size_t b = line.find_first_of(blanks, a);
  if (b == std::string::npos) return {line.substr(a), ""};
  return {line.substr(a, b - a), trim(line.substr(b))};
}

MetaResult run_meta(MetaContext& c, const std::string& line) {
  MetaLine ml = split_meta(line);
  if (const MetaCommand* m = find_meta(ml.name)) return m->run(c, ml.args);
  return usage(unknown_meta("unknown command :" + ml.name, ml.name, "try :help"));
}

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t\r\n") - a + 1);
}

}  // namespace lumpi::repl
