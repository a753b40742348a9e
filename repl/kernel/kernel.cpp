// repl/kernel/kernel.cpp: the Jupyter kernel's message handling: one world, one
// Session, every cell run on the target ranks as a REPL command is.
//
// One thread (the heartbeat has its own, in kernel_wire.cpp). The main loop
// waits on control, shell and stdin; while a cell runs, the Session's poll
// hook serves the control channel (interrupt_request raises SIGINT, which
// the Session counts exactly as the REPL's Ctrl-C: interrupt, interrupt
// again, then kill the ranks still running) and flushes streamed output.
// Sections: text helpers; streams and displays; cells (Lua, meta-commands:
// the REPL's table in repl/meta.cpp, whose results become the cell's output
// and error); requests; the loop.
#include "repl/kernel/kernel.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fnmatch.h>
#include <unistd.h>
#include <utility>

#include "repl/complete.hpp"
#include "repl/kernel/kernel_wire.hpp"
#include "repl/meta.hpp"
#include "repl/view/collate.hpp"

namespace lumpi::repl {
namespace {

using kernel::json;
using kernel::Message;
using kernel::Wire;

const char* kVersion = "0.1";

volatile sig_atomic_t g_terminate = 0;  // SIGTERM: leave as after a shutdown request
void on_sigterm(int) { g_terminate = 1; }

// The notebook's own lines under ":help".
const char* kNotebookHelp =
    "In a notebook: a cell's leading ':' lines are meta-commands, the rest is Lua for the target ranks;\n"
    "':on RANKS' alone on its line runs the rest of the cell on RANKS. Kernel > Interrupt is Ctrl-C.\n";

// ---- text helpers ------------------------------------------------------------------------

double now_s() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

std::string join(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += (out.empty() ? "" : "\n") + l;
  return out;
}

std::string html_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

// Jupyter counts cursor positions in Unicode code points; we index bytes.
size_t byte_offset(const std::string& s, long code_points) {
  size_t i = 0;
  for (long n = 0; i < s.size() && n < code_points; ++n) {
    ++i;
    while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) ++i;
  }
  return i;
}
long code_points(const std::string& s) {
  long n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// "MPI_ERR_RANK in MPI_Send: ..." -> "MPI_ERR_RANK"; a dead rank ->
// "RankDied"; a Lua error -> "LuaError".
std::string ename_of(const std::string& text) {
  if (text.rfind("died: ", 0) == 0 || text.rfind("not running", 0) == 0) return "RankDied";
  size_t sp = text.find(' ');
  std::string word = text.substr(0, sp);
  bool upper = !word.empty() && word.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == std::string::npos;
  if (upper && word.find("ERR") != std::string::npos) return word;
  return "LuaError";
}

// Graphviz's rendering of DOT text as SVG, or "" when `dot` is not installed
// or fails (the text drawing is shown alone then).
std::string svg_of_dot(const std::string& dot_text) {
  static const bool have_dot = std::system("command -v dot >/dev/null 2>&1") == 0;
  if (!have_dot) return "";
  char path[] = "/tmp/lumpi-dot-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return "";
  bool wrote = write(fd, dot_text.data(), dot_text.size()) == ssize_t(dot_text.size());
  close(fd);
  std::string svg;
  if (wrote) {
    std::string cmd = std::string("timeout 20 dot -Tsvg ") + path + " 2>/dev/null";
    if (FILE* p = popen(cmd.c_str(), "r")) {
      char buf[4096];
      for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) svg.append(buf, n);
      if (pclose(p) != 0) svg.clear();
    }
  }
  unlink(path);
  size_t at = svg.find("<svg");
  return at == std::string::npos ? "" : svg.substr(at);
}

// Results as an HTML table: a row per distinct value, by its first rank,
// with the value's rank set (`by_value`), else a row per rank.
std::string result_html(const std::map<int, std::string>& values, bool by_value) {
  std::string html = "<table class=\"lumpi-result\"><thead><tr><th>ranks</th><th>value</th></tr></thead><tbody>";
  for (const auto& [text, ranks] : group_by_text(values, by_value))
    html += "<tr><td style=\"text-align:left\">" + format_ranks(ranks) +
            "</td><td style=\"text-align:left\"><pre style=\"margin:0\">" + html_escape(text) + "</pre></td></tr>";
  return html + "</tbody></table>";
}

struct CellResult {
  bool ok = true;
  std::string ename, evalue;
  std::vector<std::string> traceback;
};

CellResult failure(const std::string& ename, const std::string& evalue) {
  return {false, ename, evalue, {ename + ": " + evalue}};
}

// Errors of the ranks (rank -> message): one line per message with its rank
// set; the first rank's error names the cell's error.
CellResult rank_failure(const std::map<int, std::string>& errors) {
  std::vector<std::string> lines = collate(errors);
  return {false, ename_of(errors.begin()->second), join(lines), lines};
}

// The cell's error for a meta-command that failed (`m` is null for an
// unknown one): its words, named after the kind of failure.
CellResult meta_failure(const MetaCommand* m, const MetaResult& r) {
  std::string name = m ? m->name : "";
  if (!name.empty()) name[0] = char(std::toupper(static_cast<unsigned char>(name[0])));
  switch (r.error) {
    case MetaError::None: return {};
    case MetaError::Usage: return failure("UsageError", trim(r.text));
    case MetaError::WorldStopped: return failure("WorldStopped", trim(r.text));
    case MetaError::Ranks: return rank_failure(r.rank_errors);
    case MetaError::Failed: return failure(name + "Failed", trim(r.text));  // RestartFailed ...
  }
  return {};
}

// ---- the kernel ----------------------------------------------------------------------------

class Kernel {
 public:
  Kernel(Wire& w, Session& s) : w_(w), s_(s), target_(s.all_ranks()) {
    s_.on_output = [this](int rank, const std::string& text) {
      if (capture_) return (void)(*capture_ += text + "\n");
      if (rank >= 0) stream("stdout", "[" + std::to_string(rank) + "] " + text + "\n");
      else if (text.rfind("^C", 0) == 0) stream("stderr", "Kernel interrupt:" + text.substr(2) + "\n");
      else stream("stderr", text + "\n");
    };
    s_.on_hang = [this](const std::vector<std::string>& lines) { show_hang(lines); };
    s_.hang_repeat = 2.0;
    s_.poll_input = [this] { return poll_during_run(); };
  }

  int serve();

 private:
  // The client is gone (our parent died) or SIGTERM came: stop like a shutdown.
  bool orphaned() const { return g_terminate || getppid() != parent_pid_; }
  // streams and displays
  void stream(const std::string& name, const std::string& text);
  void flush_streams();
  void show_hang(const std::vector<std::string>& lines);
  void display(const json& data, bool silent);
  bool poll_during_run();
  // cells
  void before_run();
  void after_run();
  Outcome run(const std::vector<int>& ranks, const std::string& mode, const std::string& code);
  CellResult run_cell(const std::string& code, bool silent);
  CellResult run_lua(const std::vector<int>& ranks, const std::string& code, bool silent);
  CellResult show_outcome(const Outcome& o, bool silent);
  void publish_result(const std::map<int, std::string>& values);
  CellResult meta(std::string line, std::string& rest_of_cell, bool silent);
  CellResult show_meta(const MetaCommand* m, MetaResult r, bool silent);
  // requests
  void handle(zmq::socket_ref sock, const Message& m);
  void execute(zmq::socket_ref sock, const Message& m);
  void complete_request(zmq::socket_ref sock, const Message& m);
  void inspect(zmq::socket_ref sock, const Message& m);
  std::optional<std::string> describe(const std::string& expr);
  void is_complete(zmq::socket_ref sock, const Message& m);
  void history(zmq::socket_ref sock, const Message& m);
  void shutdown(zmq::socket_ref sock, const Message& m);
  void abort_queued();
  json kernel_info() const;

  Wire& w_;
  Session& s_;
  std::vector<int> target_;
  Message parent_;  // the request whose output is being streamed
  int count_ = 0;   // execution_count
  std::vector<std::string> history_;  // inputs, history_[i] is line i + 1
  bool stop_ = false;
  std::deque<Message> queued_;  // a cell failed: the requests queued behind it (abort_queued)
  // streamed output waiting to be sent (one stream name at a time)
  std::string buf_name_, buf_;
  double buf_since_ = 0;
  std::string* capture_ = nullptr;  // when set, rank output goes here (inspect)
  // the live hang report of the running command
  std::string hang_id_;
  std::vector<std::string> hang_lines_;
  double run_t0_ = 0;
  const pid_t parent_pid_ = getppid();
};

// ---- streams and displays ------------------------------------------------------------------

void Kernel::stream(const std::string& name, const std::string& text) {
  if (buf_name_ != name) flush_streams();
  if (buf_.empty()) buf_since_ = now_s();
  buf_name_ = name;
  buf_ += text;
  if (buf_.size() > 64 * 1024) flush_streams();
}

void Kernel::flush_streams() {
  if (!buf_.empty()) w_.publish(parent_, "stream", {{"name", buf_name_}, {"text", buf_}});
  buf_.clear();
}

void Kernel::display(const json& data, bool silent) {
  if (silent) return;
  flush_streams();
  w_.publish(parent_, "display_data", {{"data", data}, {"metadata", json::object()}, {"transient", json::object()}});
}

// The Session's hang report, every 2 s while the command is blocked: one
// display, updated in place.
void Kernel::show_hang(const std::vector<std::string>& lines) {
  flush_streams();
  hang_lines_ = lines;
  char head[128];
  std::snprintf(head, sizeof head, "still running after %.0f s (Kernel > Interrupt interrupts every rank):\n",
                now_s() - run_t0_);
  json content = {{"data", {{"text/plain", head + join(lines)}}},
                  {"metadata", json::object()},
                  {"transient", {{"display_id", hang_id_.empty() ? kernel::new_uuid() : hang_id_}}}};
  bool first = hang_id_.empty();
  hang_id_ = content["transient"]["display_id"];
  w_.publish(parent_, first ? "display_data" : "update_display_data", content);
}

// Polled by the Session every 50 ms at most while a command runs.
bool Kernel::poll_during_run() {
  if (!buf_.empty() && now_s() - buf_since_ > 0.05) flush_streams();
  if (!stop_ && orphaned()) {
    stop_ = true;
    for (int i = 0; i < 3; ++i) raise(SIGINT);  // the third kills the ranks still running
  }
  while (auto m = w_.recv(w_.control)) {
    const std::string type = m->type();
    w_.publish(*m, "status", {{"execution_state", "busy"}});
    if (type == "interrupt_request") {
      raise(SIGINT);  // counted by the Session as a Ctrl-C
      w_.send(w_.control, *m, "interrupt_reply", {{"status", "ok"}});
    } else if (type == "shutdown_request") {
      w_.send(w_.control, *m, "shutdown_reply", {{"status", "ok"}, {"restart", m->content.value("restart", false)}});
      stop_ = true;
      for (int i = 0; i < 3; ++i) raise(SIGINT);  // the third kills the ranks still running
    } else if (type == "kernel_info_request") {
      w_.send(w_.control, *m, "kernel_info_reply", kernel_info());
    } else {
      std::fprintf(stderr, "lumpi kernel: ignored %s on the control channel while a cell runs\n", type.c_str());
    }
    w_.publish(*m, "status", {{"execution_state", "idle"}});
  }
  return false;
}

// ---- cells -----------------------------------------------------------------------------------

// Before a command (a cell's Lua, a meta-command): a fresh interrupt count and hang report.
void Kernel::before_run() {
  reset_sigint();
  hang_id_.clear();
  run_t0_ = now_s();
}

// After it: its output sent; a hang report shown meanwhile stays, saying that the command has finished.
void Kernel::after_run() {
  flush_streams();
  if (hang_id_.empty()) return;
  char head[128];
  std::snprintf(head, sizeof head, "finished after %.1f s; the last report was:\n", now_s() - run_t0_);
  w_.publish(parent_, "update_display_data",
             {{"data", {{"text/plain", head + join(hang_lines_)}}},
              {"metadata", json::object()},
              {"transient", {{"display_id", hang_id_}}}});
  hang_id_.clear();
}

Outcome Kernel::run(const std::vector<int>& ranks, const std::string& mode, const std::string& code) {
  before_run();
  Outcome o = s_.run(ranks, mode, code);
  after_run();
  return o;
}

// Leading lines that start with ':' are meta-commands, run in order; the
// rest of the cell is Lua for the target ranks.
CellResult Kernel::run_cell(const std::string& code, bool silent) {
  std::string rest = code;
  while (!stop_) {
    size_t a = rest.find_first_not_of(" \t\r\n");
    if (a == std::string::npos || rest[a] != ':') break;
    size_t nl = rest.find('\n', a);
    std::string line = trim(rest.substr(a, nl == std::string::npos ? std::string::npos : nl - a));
    rest = nl == std::string::npos ? "" : rest.substr(nl + 1);
    CellResult r = meta(line, rest, silent);
    if (!r.ok) return r;
  }
  if (stop_ || trim(rest).empty()) return {};
  return run_lua(target_, rest, silent);
}

CellResult Kernel::run_lua(const std::vector<int>& ranks, const std::string& code, bool silent) {
  if (!s_.usable()) return failure("WorldStopped", kWorldStopped);
  return show_outcome(run(ranks, "repl", code), silent);
}

// Results collated by rank set as text/plain and as an HTML table; errors per
// rank set make the cell's error.
CellResult Kernel::show_outcome(const Outcome& o, bool silent) {
  using State = RankOutcome::State;
  std::map<int, std::string> values, errors;
  for (const auto& [r, ro] : o.ranks) {
    if (ro.state == State::Ok && ro.has_value) values[r] = ro.text;
    if (ro.state == State::Error) errors[r] = ro.text;
    if (ro.state == State::Died && ro.text == "not running")
      errors[r] = "not running (dead); :restart starts a fresh world";
    else if (ro.state == State::Died && ro.exit_code != 0)
      errors[r] = ro.text;
  }
  if (!values.empty() && !silent) publish_result(values);
  if (!errors.empty()) return rank_failure(errors);
  if (o.interrupted) return failure("Interrupted", "the command was interrupted");
  return {};
}

// The cell's execute_result: one line per distinct value with its rank set
// (per rank with --no-collate), and the same as an HTML table.
void Kernel::publish_result(const std::map<int, std::string>& values) {
  std::vector<std::string> lines = collate(values, s_.options().collate);
  w_.publish(parent_, "execute_result",
             {{"execution_count", count_},
              {"data", {{"text/plain", join(lines)}, {"text/html", result_html(values, s_.options().collate)}}},
              {"metadata", json::object()}});
}

// One meta-command line, run by the REPL's table (repl/meta.cpp). ":on
// RANKS" alone on its line takes the rest of the cell as its code.
CellResult Kernel::meta(std::string line, std::string& rest_of_cell, bool silent) {
  MetaLine ml = split_meta(line);
  const MetaCommand* m = find_meta(ml.name);
  if (m == find_meta("on") && !ml.args.empty() && ml.args.find_first_of(" \t") == std::string::npos)
    line += "\n" + std::exchange(rest_of_cell, "");
  MetaContext c{s_, target_, 100};
  before_run();
  MetaResult r = run_meta(c, line);
  after_run();
  return show_meta(m, std::move(r), silent);
}

// What a meta-command did, as the cell's output (its text as a stream, or a
// picture with the text beside it, or the results of the code it ran) and,
// when it failed, as the cell's error.
CellResult Kernel::show_meta(const MetaCommand* m, MetaResult r, bool silent) {
  if (r.leave) return failure("UsageError", "a kernel is stopped by its notebook (Kernel > Shut Down)");
  if (m == find_meta("help") && r.error == MetaError::None) r.text += kNotebookHelp;
  CellResult cell = r.outcome ? show_outcome(*r.outcome, silent) : CellResult{};
  bool text_is_error = r.error != MetaError::None && r.error != MetaError::Ranks;
  if (!r.dot.empty() || !r.svg.empty()) {
    json data = {{"text/plain", r.text}};
    if (std::string svg = r.svg.empty() ? svg_of_dot(r.dot) : r.svg; !svg.empty()) data["image/svg+xml"] = svg;
    display(data, silent);
  } else if (!r.text.empty() && !text_is_error) {
    stream("stdout", r.text);
  }
  return r.error == MetaError::None ? cell : meta_failure(m, r);
}

// ---- requests ------------------------------------------------------------------------------

json Kernel::kernel_info() const {
  return {{"status", "ok"},
          {"protocol_version", "5.3"},
          {"implementation", "lumpi"},
          {"implementation_version", kVersion},
          {"language_info",
           {{"name", "lua"},
            {"version", "5.4"},
            {"mimetype", "text/x-lua"},
            {"file_extension", ".lua"},
            {"pygments_lexer", "lua"},
            {"codemirror_mode", "lua"}}},
          {"banner", "lumpi: Lua 5.4 on " + std::to_string(s_.size()) +
                         " MPI ranks; every cell runs on every target rank (:help lists the meta-commands)"},
          {"help_links", json::array()}};
}

void Kernel::execute(zmq::socket_ref sock, const Message& m) {
  std::string code = m.content.value("code", "");
  bool silent = m.content.value("silent", false);
  bool store = m.content.value("store_history", !silent) && !silent;
  if (store) {
    ++count_;
    history_.push_back(code);
  }
  if (!silent) w_.publish(m, "execute_input", {{"code", code}, {"execution_count", count_}});
  CellResult r;
  try {
    r = run_cell(code, silent);
  } catch (const std::exception& e) {
    r = failure("KernelError", e.what());
  }
  flush_streams();
  json reply = {{"execution_count", count_}};
  if (r.ok) {
    reply["status"] = "ok";
    reply["payload"] = json::array();
    reply["user_expressions"] = json::object();
  } else {
    json err = {{"ename", r.ename}, {"evalue", r.evalue}, {"traceback", r.traceback}};
    if (!silent) w_.publish(m, "error", err);
    reply.update(err);
    reply["status"] = "error";
    if (m.content.value("stop_on_error", true))  // taken before the reply: only those sent before it
      while (auto q = w_.recv(w_.shell)) queued_.push_back(std::move(*q));
  }
  w_.send(sock, m, "execute_reply", reply);
}

void Kernel::complete_request(zmq::socket_ref sock, const Message& m) {
  std::string code = m.content.value("code", "");
  long cursor = m.content.value("cursor_pos", code_points(code));
  std::string before = code.substr(0, byte_offset(code, cursor));
  std::string line = before.substr(before.rfind('\n') == std::string::npos ? 0 : before.rfind('\n') + 1);
  std::vector<std::string> matches;
  long start = cursor;
  CompletionQuery q;
  if (!line.empty() && line[0] == ':' && line.find_first_of(" \t") == std::string::npos) {
    for (const auto& meta : meta_commands())
      if (std::string name = std::string(":") + meta.name; name.starts_with(line)) matches.push_back(name);
    start = cursor - code_points(line);
  } else if (parse_completion(before, &q) && s_.usable() && !target_.empty()) {
    matches = complete(s_, target_.front(), q);
    start = cursor - code_points(q.partial);
  }
  w_.send(sock, m, "complete_reply",
          {{"status", "ok"},
           {"matches", matches},
           {"cursor_start", start},
           {"cursor_end", cursor},
           {"metadata", json::object()}});
}

// The name at byte `b` of `code` with what leads to it ("mpi.COMM_WORLD:al"
// -> "mpi.COMM_WORLD.al"; ':' read as '.'), or "" when there is none.
std::string name_at(const std::string& code, size_t b) {
  size_t e = b, a = b;
  while (e < code.size() && name_char(code[e])) ++e;
  while (a > 0 && (name_char(code[a - 1]) || code[a - 1] == '.' || code[a - 1] == ':')) --a;
  std::string expr = code.substr(a, e - a);
  while (!expr.empty() && (expr[0] == '.' || expr[0] == ':')) expr.erase(0, 1);
  for (char& c : expr)
    if (c == ':') c = '.';
  bool valid = !expr.empty() && !std::isdigit(static_cast<unsigned char>(expr[0])) && expr.back() != '.';
  return valid ? expr : "";
}

// Lua for a rank: "=" and the value's type and tostring, then help's answer
// if the rank has a global help that knows the value; "?" and the same when
// help returned nothing (what it printed follows); nil: no value of that name.
std::string inspect_query(const std::string& expr) {
  return "(function() local ok, v = pcall(function() return " + expr + " end) "
         "if not ok or v == nil then return nil end "
         "local plain = type(v) .. ': ' .. tostring(v) "
         "if type(help) == 'function' then local hok, h = pcall(help, v) "
         "if hok and type(h) == 'string' and h ~= '' and not h:find('^no help') then return '=' .. plain .. "
         "'\\n\\n' .. h end "
         "if hok and h == nil then return '?' .. plain end end "
         "return '=' .. plain end)()";
}

// What the target's first rank says about `expr` (inspect_query's answer,
// with what help printed), quietly; nullopt when it knows no such value.
std::optional<std::string> Kernel::describe(const std::string& expr) {
  std::string printed;
  capture_ = &printed;
  double saved_hang = s_.hang_after;
  s_.hang_after = 1e9;
  Outcome o = run({target_.front()}, "text", inspect_query(expr));
  s_.hang_after = saved_hang;
  capture_ = nullptr;
  auto it = o.ranks.find(target_.front());
  if (it == o.ranks.end() || it->second.state != RankOutcome::State::Ok) return std::nullopt;
  const std::string& answer = it->second.text;
  if (answer.empty() || (answer[0] != '=' && answer[0] != '?')) return std::nullopt;
  if (answer[0] == '?' && !trim(printed).empty()) return answer.substr(1) + "\n\n" + printed;
  return answer.substr(1);
}

// What the target's first rank says about the name at the cursor: its
// `help` when a global help function exists, else type and tostring.
void Kernel::inspect(zmq::socket_ref sock, const Message& m) {
  std::string code = m.content.value("code", "");
  std::string expr = name_at(code, byte_offset(code, m.content.value("cursor_pos", code_points(code))));
  json reply = {{"status", "ok"}, {"found", false}, {"data", json::object()}, {"metadata", json::object()}};
  std::optional<std::string> text;
  if (!expr.empty() && s_.usable() && !target_.empty()) text = describe(expr);
  if (text) {
    reply["found"] = true;
    reply["data"] = {{"text/plain", expr + "  [rank " + std::to_string(target_.front()) + "]\n" + *text}};
  }
  w_.send(sock, m, "inspect_reply", reply);
}

void Kernel::is_complete(zmq::socket_ref sock, const Message& m) {
  std::string code = m.content.value("code", "");
  // leading meta-command lines are complete by themselves
  std::string rest = code;
  for (;;) {
    size_t a = rest.find_first_not_of(" \t\r\n");
    if (a == std::string::npos || rest[a] != ':') break;
    size_t nl = rest.find('\n', a);
    if (nl == std::string::npos) {
      rest.clear();
      break;
    }
    rest = rest.substr(nl + 1);
  }
  bool incomplete = !trim(rest).empty() && s_.usable() && s_.check(rest) == "incomplete";  // asked of a rank
  json reply = {{"status", incomplete ? "incomplete" : "complete"}};
  if (incomplete) reply["indent"] = "";
  w_.send(sock, m, "is_complete_reply", reply);
}

void Kernel::history(zmq::socket_ref sock, const Message& m) {
  std::string access = m.content.value("hist_access_type", "tail");
  bool output = m.content.value("output", false);
  json items = json::array();
  auto add = [&](size_t i) {
    json input = history_[i];
    items.push_back({1, int(i) + 1, output ? json::array({input, nullptr}) : input});
  };
  if (access == "tail") {
    size_t n = size_t(std::max(0, m.content.value("n", 10)));
    for (size_t i = history_.size() > n ? history_.size() - n : 0; i < history_.size(); ++i) add(i);
  } else if (access == "range") {
    int start = std::max(1, m.content.value("start", 1)), stop = m.content.value("stop", int(history_.size()) + 1);
    for (int l = start; l < stop && l <= int(history_.size()); ++l) add(size_t(l - 1));
  } else if (access == "search") {
    std::string pattern = m.content.value("pattern", "*");
    bool unique = m.content.value("unique", false);
    int n = m.content.value("n", 0);
    std::vector<size_t> hits;
    for (size_t i = history_.size(); i-- > 0;) {
      if (fnmatch(pattern.c_str(), history_[i].c_str(), 0) != 0) continue;
      bool dup = unique && std::any_of(hits.begin(), hits.end(), [&](size_t h) { return history_[h] == history_[i]; });
      if (!dup) hits.push_back(i);
      if (n > 0 && int(hits.size()) >= n) break;
    }
    for (auto it = hits.rbegin(); it != hits.rend(); ++it) add(*it);
  }
  w_.send(sock, m, "history_reply", {{"status", "ok"}, {"history", items}});
}

// A restart is the client's: it starts a new kernel process after this one exits.
void Kernel::shutdown(zmq::socket_ref sock, const Message& m) {
  json reply = {{"status", "ok"}, {"restart", m.content.value("restart", false)}};
  w_.send(sock, m, "shutdown_reply", reply);
  w_.publish(m, "shutdown_reply", reply);
  stop_ = true;
}

void Kernel::handle(zmq::socket_ref sock, const Message& m) {
  const std::string type = m.type();
  parent_ = m;
  reset_sigint();  // an interrupt is for the command running when it comes, never for a later one
  w_.publish(m, "status", {{"execution_state", "busy"}});
  try {
    if (type == "kernel_info_request") w_.send(sock, m, "kernel_info_reply", kernel_info());
    else if (type == "execute_request") execute(sock, m);
    else if (type == "complete_request") complete_request(sock, m);
    else if (type == "inspect_request") inspect(sock, m);
    else if (type == "is_complete_request") is_complete(sock, m);
    else if (type == "history_request") history(sock, m);
    else if (type == "comm_info_request") w_.send(sock, m, "comm_info_reply", {{"status", "ok"}, {"comms", json::object()}});
    else if (type == "comm_open")  // no comm targets: closed at once, as the protocol asks
      w_.publish(m, "comm_close", {{"comm_id", m.content.value("comm_id", "")}, {"data", json::object()}});
    else if (type == "interrupt_request") w_.send(sock, m, "interrupt_reply", {{"status", "ok"}});  // nothing runs
    else if (type == "shutdown_request") shutdown(sock, m);
    else if (type != "comm_msg" && type != "comm_close")
      std::fprintf(stderr, "lumpi kernel: ignored unknown message type %s\n", type.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lumpi kernel: %s failed: %s\n", type.c_str(), e.what());
  }
  flush_streams();
  w_.publish(m, "status", {{"execution_state", "idle"}});
}

// After a failed cell (stop_on_error), the execute requests that had
// arrived before its reply went out ("Run All") are answered "aborted"
// instead of run; other requests among them are served as usual. Requests
// sent after the reply run normally.
void Kernel::abort_queued() {
  std::deque<Message> queued = std::move(queued_);
  queued_.clear();
  for (const Message& m : queued) {
    if (m.type() != "execute_request") {
      handle(w_.shell, m);
      continue;
    }
    w_.publish(m, "status", {{"execution_state", "busy"}});
    w_.send(w_.shell, m, "execute_reply", {{"status", "aborted"}, {"execution_count", count_}});
    w_.publish(m, "status", {{"execution_state", "idle"}});
  }
}

// ---- the loop ------------------------------------------------------------------------------

int Kernel::serve() {
  w_.publish(Message{}, "status", {{"execution_state", "starting"}});
  while (!stop_ && !orphaned()) {
    zmq::pollitem_t items[] = {{w_.control.handle(), 0, ZMQ_POLLIN, 0},
                               {w_.shell.handle(), 0, ZMQ_POLLIN, 0},
                               {w_.stdin_.handle(), 0, ZMQ_POLLIN, 0},
                               {w_.iopub.handle(), 0, ZMQ_POLLIN, 0}};
    try {
      zmq::poll(items, 4, std::chrono::milliseconds(100));
    } catch (const zmq::error_t& e) {
      if (e.num() != EINTR) throw;
      continue;  // SIGINT while idle: nothing to interrupt
    }
    if (items[0].revents & ZMQ_POLLIN) {
      while (auto m = w_.recv(w_.control)) handle(w_.control, *m);
    } else if (items[1].revents & ZMQ_POLLIN) {
      w_.await_first_subscriber(std::chrono::seconds(3));
      if (auto m = w_.recv(w_.shell)) handle(w_.shell, *m);
      if (!queued_.empty()) abort_queued();
    }
    if (items[2].revents & ZMQ_POLLIN) w_.recv(w_.stdin_);  // no input_request is ever sent
    if (items[3].revents & ZMQ_POLLIN) w_.read_subscriptions();
    s_.drain();  // deaths and late output while idle
    flush_streams();
  }
  return 0;
}

}  // namespace

int run_kernel(const std::string& connection_file, const Session::Options& o) {
  kernel::Connection c = kernel::read_connection_file(connection_file);
  install_sigint_handler();  // SIGINT (interrupt_mode "signal") is counted, never fatal
  struct sigaction sa {};
  sa.sa_handler = on_sigterm;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, nullptr);
  Wire w(c);
  Session s(o);
  Kernel k(w, s);
  k.serve();
  s.on_output = nullptr;
  s.shutdown();
  return 0;
}

}  // namespace lumpi::repl
