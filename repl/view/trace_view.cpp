// repl/view/trace_view.cpp: joining the ranks' traces, and drawing them as text,
// SVG and trace-event JSON.
#include "repl/view/trace_view.hpp"

#include <algorithm>
#include <cstdio>
#include <set>
#include <tuple>

#include "repl/view/collate.hpp"

namespace lumpi::repl {
namespace {

using launcher::ControlMsg;
using launcher::TraceEntry;
using Kind = TraceRow::Kind;

// Waits of one rank: on requests, and a window's lock, unlock and flush,
// which wait for the target's answer (peer: the target).
bool is_wait(const std::string& call) {
  return call.starts_with("MPI_Wait") || call == "MPI_Win_lock" || call == "MPI_Win_unlock" ||
         call.starts_with("MPI_Win_flush");
}

// A window's epoch (core/rma: "epoch MPI_Win_lock", "epoch MPI_Win_fence" ...).
bool is_epoch(const std::string& call) { return call.starts_with("epoch "); }

// A one-sided operation's message, named by its origin's call or by the
// target (core/rma's op_call): "MPI_Put", "MPI_Rget", "MPI_Get (answer)" ...
bool is_rma(const std::string& call) {
  for (const char* c : {"MPI_Put", "MPI_Get", "MPI_Accumulate", "MPI_Compare_and_swap", "MPI_Fetch_and_op", "MPI_Rput",
                        "MPI_Rget", "MPI_Raccumulate"})
    if (call.starts_with(c)) return true;
  return false;
}

// The events of one rank, or only those of one scenario case.
std::vector<TraceEntry> events_of(const ControlMsg& reply, const std::string& only_case) {
  if (only_case.empty()) return reply.trace;
  std::vector<TraceEntry> out;
  bool in = false;
  for (const TraceEntry& e : reply.trace) {
    if (e.kind == "mark") in = e.call == "case " + only_case;
    else if (in) out.push_back(e);
  }
  return out;
}

struct Builder {
  TraceModel m;
  std::map<std::pair<int, uint64_t>, size_t> send_row;  // (sender, send clock) -> row
  std::vector<std::pair<size_t, std::pair<int, uint64_t>>> refs;  // recv/probe rows and their message
  std::map<std::tuple<uint64_t, std::string, int>, size_t> span_row;  // (context, call, ordinal) -> row
  std::map<std::pair<int, uint64_t>, int> ordinal;                    // (rank, context) -> spans begun

  TraceRow& add(Kind k, int rank, const TraceEntry& e) {
    TraceRow row;
    row.kind = k;
    row.clock = e.clock;
    row.rank = rank;
    row.peer = e.peer;
    row.tag = e.tag;
    row.bytes = e.bytes;
    row.call = e.call;
    row.comm = e.comm;
    m.rows.push_back(std::move(row));
    return m.rows.back();
  }

  void rank_events(int r, const std::vector<TraceEntry>& events) {
    struct Open {
      std::string call;
      uint64_t id;  // the span's number on this rank (0: none, pair by call)
      size_t row;
    };
    std::vector<Open> open;  // begun, not ended
    for (const TraceEntry& e : events) {
      ++m.events;
      if (e.kind == "send") {
        add(Kind::Send, r, e);
        send_row[{r, e.msg}] = m.rows.size() - 1;
      } else if (e.kind == "recv" || e.kind == "probe" || e.kind == "race") {
        add(e.kind == "recv" ? Kind::Recv : e.kind == "probe" ? Kind::Probe : Kind::Race, r, e);
        refs.push_back({m.rows.size() - 1, {e.peer, e.msg}});
      } else if (e.kind == "begin") {
        open.push_back({e.call, e.msg, begin(r, e)});
      } else if (e.kind == "end") {
        for (auto it = open.rbegin(); it != open.rend(); ++it) {
          if (it->call != e.call || it->id != e.msg) continue;
          TraceRow& row = m.rows[it->row];
          row.end_clock = std::max(row.end_clock, e.clock);
          if (row.kind == Kind::Span) row.per_rank[r].second = e.clock;
          open.erase(std::next(it).base());
          break;
        }
      }
    }
  }

  // A wait gets its own row; a collective's begin joins the row of the same
  // call on the same communicator that the other ranks began as often before.
  size_t begin(int r, const TraceEntry& e) {
    if (is_wait(e.call) || is_epoch(e.call)) {
      add(is_epoch(e.call) ? Kind::Epoch : Kind::Wait, r, e);
      return m.rows.size() - 1;
    }
    int n = ordinal[{r, e.context}]++;
    auto key = std::make_tuple(e.context, e.call, n);
    auto it = span_row.find(key);
    if (it == span_row.end()) {
      add(Kind::Span, r, e);
      it = span_row.emplace(key, m.rows.size() - 1).first;
    }
    TraceRow& row = m.rows[it->second];
    row.per_rank[r] = {e.clock, 0};
    row.clock = std::max(row.clock, e.clock);  // the row sits where every member has entered
    if (row.comm.empty()) row.comm = e.comm;
    return it->second;
  }

  // Numbers the messages in causal order of their sends and joins receives to them.
  void join() {
    std::vector<size_t> sends;
    for (const auto& [key, row] : send_row) sends.push_back(row);
    std::sort(sends.begin(), sends.end(), [&](size_t a, size_t b) {
      return std::tie(m.rows[a].clock, m.rows[a].rank) < std::tie(m.rows[b].clock, m.rows[b].rank);
    });
    for (size_t i = 0; i < sends.size(); ++i) m.rows[sends[i]].msg = int(i + 1), m.rows[sends[i]].matched = false;
    int unknown = int(sends.size());
    std::map<std::pair<int, uint64_t>, int> numbers_of_unsent;  // receives whose send is not in the trace
    for (const auto& [row, key] : refs) {
      auto it = send_row.find(key);
      TraceRow& r = m.rows[row];
      if (it != send_row.end()) {
        r.msg = m.rows[it->second].msg;
        if (is_rma(r.call)) r.call = m.rows[it->second].call;  // the origin's call ("MPI_Fetch_and_op")
        if (r.kind == Kind::Recv) m.rows[it->second].matched = true;
      } else {
        auto [n, fresh] = numbers_of_unsent.emplace(key, 0);
        if (fresh) n->second = ++unknown;
        r.msg = n->second;
        r.matched = false;
      }
    }
    for (TraceRow& r : m.rows)
      if (r.kind == Kind::Span)
        for (const auto& [rank, be] : r.per_rank) r.ranks.push_back(rank), r.end_clock = std::max(r.end_clock, be.second);
    std::stable_sort(m.rows.begin(), m.rows.end(), [](const TraceRow& a, const TraceRow& b) {
      return std::tie(a.clock, a.rank) < std::tie(b.clock, b.rank);
    });
  }
};

std::string ranks_text(const std::vector<int>& ranks) { return format_ranks(ranks); }

std::string comm_text(const std::string& comm) { return comm.empty() ? "(unnamed)" : "'" + comm + "'"; }

std::string tag_text(int tag) { return "tag " + std::to_string(tag); }

// What a row says in words (the text diagram's right column, SVG titles).
std::string describe(const TraceRow& r) {
  std::string n = r.msg ? "#" + std::to_string(r.msg) + " " : "";
  switch (r.kind) {
    case Kind::Send:
      if (is_rma(r.call))
        return n + r.call + " " + std::to_string(r.rank) + "->" + std::to_string(r.peer) + " " + comm_text(r.comm) +
               (r.matched ? "" : " (not served)");  // (its size counts the target's address: not shown)
      return n + (r.call == "MPI_Ssend" ? "ssend " : "send ") + std::to_string(r.rank) + "->" + std::to_string(r.peer) + " " + tag_text(r.tag) +
             " " + comm_text(r.comm) + (r.matched ? "" : " (not received)");
    case Kind::Recv:
      if (is_rma(r.call))
        return n + r.call + " " + std::to_string(r.peer) + "->" + std::to_string(r.rank) +
               (r.call.ends_with("(answer)") ? " arrives " : " served ") + comm_text(r.comm);
      return n + "recv " + std::to_string(r.peer) + "->" + std::to_string(r.rank) + " " + tag_text(r.tag) + " " +
             comm_text(r.comm) + " " + std::to_string(r.bytes) + " B";
    case Kind::Probe:
      return n + r.call + " on " + std::to_string(r.rank) + " sees " + std::to_string(r.peer) + "->" +
             std::to_string(r.rank) + " " + tag_text(r.tag);
    case Kind::Wait:
      return r.call + " on " + std::to_string(r.rank) + (r.peer >= 0 ? " target " + std::to_string(r.peer) : "");
    case Kind::Span:
      return r.call + " " + comm_text(r.comm) + (r.peer >= 0 ? " root " + std::to_string(r.peer) : "") + " [" +
             ranks_text(r.ranks) + "]";
    case Kind::Epoch:
      return r.call + " on " + std::to_string(r.rank) + (r.peer >= 0 ? " with " + std::to_string(r.peer) : "") +
             " " + comm_text(r.comm) + (r.end_clock ? "" : " (open)");
    case Kind::Race:
      return "race: " + n + std::to_string(r.peer) + "->" + std::to_string(r.rank) + " could have matched " +
             r.call.substr(0, r.call.find('(')) + "(ANY_SOURCE) instead";
  }
  return "";
}

std::string svg_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if ((unsigned char)c < 0x20) out += ' ';
        else out += c;
    }
  }
  return out;
}

std::string json_escape(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += char(c);
    else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else out += char(c);
  }
  return out;
}

}  // namespace

TraceModel build_trace(int size, const std::map<int, ControlMsg>& replies, const std::string& only_case) {
  Builder b;
  b.m.size = size;
  for (int r = 0; r < size; ++r) {
    auto it = replies.find(r);
    if (it == replies.end()) {
      b.m.missing.push_back(r);
      continue;
    }
    b.m.dropped += it->second.dropped;
    b.rank_events(r, events_of(it->second, only_case));
  }
  b.join();
  return std::move(b.m);
}

// ---- text ------------------------------------------------------------------------------------

namespace {

// The text diagram's columns: the clock's margin, then `shown` lanes of `w`
// columns each (as many as fit in the width), up to `end`.
struct Lanes {
  static constexpr int margin = 6;  // "%4llu  "
  int w, shown, end;

  Lanes(int size, int width) {
    const int n = std::max(size, 1);
    w = std::clamp((width - margin - 40) / n, 3, 8);
    shown = std::min(n, std::max(1, (width - margin - 2) / w));
    end = margin + shown * w;
  }
  int center(int lane) const { return margin + lane * w + w / 2; }
  // Draws `c` at column `col` of `line`, unless it falls outside the lanes.
  void put(std::string& line, int col, char c) const {
    if (col >= 0 && col < end) line[size_t(col)] = c;
  }
  // The rank numbers above the lanes.
  std::string header() const {
    std::string head(size_t(end), ' ');
    for (int i = 0; i < shown; ++i) {
      std::string num = std::to_string(i);
      int at = center(i) - int(num.size() - 1) / 2;
      if (at + int(num.size()) <= end) head.replace(size_t(at), num.size(), num);
    }
    return head + "\n";
  }
};

// Row `r`'s mark on its lane: S, R with an arrow from the sender's lane, W,
// P, or *==* across a collective's ranks.
void draw_mark(std::string& line, const TraceRow& r, int size, const Lanes& lanes) {
  int me = lanes.center(r.rank);
  switch (r.kind) {
    case Kind::Send: lanes.put(line, me, 'S'); break;
    case Kind::Probe: lanes.put(line, me, 'P'); break;
    case Kind::Wait: lanes.put(line, me, 'W'); break;
    case Kind::Epoch: lanes.put(line, me, 'E'); break;
    case Kind::Race: {  // the other message's way, dotted
      if (r.peer >= 0 && r.peer != r.rank && r.peer < size) {
        int from = lanes.center(r.peer), step = from < me ? 1 : -1;
        for (int c = from; c != me; c += step) lanes.put(line, c, '.');
        lanes.put(line, from, '?');
      }
      lanes.put(line, me, '!');
      break;
    }
    case Kind::Recv: {
      if (r.peer >= 0 && r.peer != r.rank && r.peer < size) {
        int from = lanes.center(r.peer), step = from < me ? 1 : -1;
        for (int c = from; c != me; c += step) lanes.put(line, c, '-');
        lanes.put(line, from, '+');
        lanes.put(line, me - step, step > 0 ? '>' : '<');
      }
      lanes.put(line, me, 'R');
      break;
    }
    case Kind::Span: {
      if (r.ranks.empty()) break;
      int lo = lanes.center(r.ranks.front()), hi = lanes.center(r.ranks.back());
      for (int c = lo; c <= hi; ++c) lanes.put(line, c, '=');
      for (int k : r.ranks) lanes.put(line, lanes.center(k), '*');
      break;
    }
  }
}

// One row: its clock, every lane (':' where the rank is inside an epoch:
// `in_epoch`), its mark, and what it was on the right (cut to the width).
std::string text_row(const TraceRow& r, int size, const Lanes& lanes, int width, const std::set<int>& in_epoch) {
  std::string line(size_t(lanes.end), ' ');
  char clock[16];
  std::snprintf(clock, sizeof clock, "%4llu", (unsigned long long)r.clock);
  line.replace(0, 4, std::string(clock).substr(0, 4));
  for (int i = 0; i < lanes.shown; ++i) lanes.put(line, lanes.center(i), in_epoch.count(i) ? ':' : '|');
  draw_mark(line, r, size, lanes);
  std::string note = describe(r);
  int room = width - lanes.end - 1;
  if (room > 3 && int(note.size()) > room) note = note.substr(0, size_t(room - 3)) + "...";
  return line + (room > 3 ? " " + note : "") + "\n";
}

// The lines under the rows: an empty trace, lanes that did not fit, the
// legend, overwritten events, ranks without a trace.
std::string text_notes(const TraceModel& m, int shown, int width) {
  std::string out;
  if (m.rows.empty()) out += "(no MPI events: :trace on, then run a command)\n";
  if (shown < m.size)
    out += "(ranks " + std::to_string(shown) + "-" + std::to_string(m.size - 1) +
           " do not fit in " + std::to_string(width) + " columns: :trace svg FILE shows every lane)\n";
  out += "S send  R receive  +--> from the sender  *==* collective  W wait  P probe\n";
  if (std::any_of(m.rows.begin(), m.rows.end(), [](const TraceRow& r) { return r.kind == Kind::Epoch; }))
    out += "E a one-sided epoch begins; its lane is : until it ends\n";
  if (std::any_of(m.rows.begin(), m.rows.end(), [](const TraceRow& r) { return r.kind == Kind::Race; }))
    out += "! a message race: ?...! the message that could have matched that wildcard receive instead\n";
  if (m.dropped) out += "(" + std::to_string(m.dropped) + " older events were overwritten: the buffers are full)\n";
  if (!m.missing.empty()) out += "(no trace from rank(s) " + ranks_text(m.missing) + ")\n";
  return out;
}

}  // namespace

std::string trace_text(const TraceModel& m, int width) {
  Lanes lanes(m.size, width);
  std::string out = "trace: " + std::to_string(m.events) + " events on " + std::to_string(m.size) +
                    " ranks; time flows down in causal order (Lamport clocks)\n";
  if (out.size() > size_t(width) + 1) out = "trace: " + std::to_string(m.events) + " events, causal order\n";
  out += lanes.header();
  std::multimap<int, std::pair<uint64_t, uint64_t>> epochs;  // rank -> (begin, end; 0: open)
  for (const TraceRow& r : m.rows) {
    std::set<int> in_epoch;
    for (const auto& [rank, be] : epochs)
      if (be.first < r.clock && (be.second == 0 || r.clock <= be.second)) in_epoch.insert(rank);
    out += text_row(r, m.size, lanes, width, in_epoch);
    if (r.kind == Kind::Epoch) epochs.insert({r.rank, {r.clock, r.end_clock}});
  }
  return out + text_notes(m, lanes.shown, width);
}

// ---- SVG -------------------------------------------------------------------------------------

namespace {

// The SVG picture's geometry: lanes across, one column per row, time to the right.
struct Svg {
  static constexpr int left = 70, top = 40, lane_h = 32, dx = 36;
  int width, height;

  explicit Svg(const TraceModel& m)
      : width(left + int(m.rows.size() + 1) * dx + 20), height(top + std::max(m.size, 1) * lane_h + 30) {}
  static int x(size_t row) { return left + int(row + 1) * dx; }
  static int y(int rank) { return top + rank * lane_h + lane_h / 2; }
};

std::string svg_head(const TraceModel& m, const Svg& g) {
  std::string s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(g.width) +
                  "\" height=\"" + std::to_string(g.height) + "\" font-family=\"monospace\" font-size=\"11\">\n";
  s += "<defs><marker id=\"head\" markerWidth=\"8\" markerHeight=\"8\" refX=\"7\" refY=\"4\" orient=\"auto\">"
       "<path d=\"M0,0 L8,4 L0,8 z\" fill=\"#1f5fbf\"/></marker></defs>\n";
  s += "<text x=\"8\" y=\"18\" font-size=\"13\">trace: " + std::to_string(m.events) + " events on " +
       std::to_string(m.size) + " ranks; time runs right in causal order (Lamport clocks)</text>\n";
  for (int r = 0; r < m.size; ++r) {
    int y = Svg::y(r);
    s += "<g class=\"lane\" data-rank=\"" + std::to_string(r) + "\"><line x1=\"" + std::to_string(Svg::left) +
         "\" y1=\"" + std::to_string(y) + "\" x2=\"" + std::to_string(g.width - 10) + "\" y2=\"" + std::to_string(y) +
         "\" stroke=\"#999\"/><text x=\"8\" y=\"" + std::to_string(y + 4) + "\">rank " + std::to_string(r) +
         "</text></g>\n";
  }
  return s;
}

// Where the line to row `i` from message r.msg starts: its send's column
// (`send_at`, else half a column back) on the sender's lane.
std::pair<int, int> svg_from(const TraceRow& r, size_t i, int size, const std::map<int, size_t>& send_at) {
  auto it = send_at.find(r.msg);
  return {it != send_at.end() ? Svg::x(it->second) : Svg::x(i) - Svg::dx / 2,
          r.peer >= 0 && r.peer < size ? Svg::y(r.peer) : Svg::y(r.rank)};
}

// A receive (row `i`): the arrow from its message's send, labelled with number, tag, communicator.
std::string svg_recv(const TraceRow& r, size_t i, int size, const std::map<int, size_t>& send_at,
                     const std::string& title) {
  auto [x1, y1] = svg_from(r, i, size, send_at);
  std::string x = std::to_string(Svg::x(i)), y = std::to_string(Svg::y(r.rank));
  return "<g class=\"message\" data-from=\"" + std::to_string(r.peer) + "\" data-to=\"" + std::to_string(r.rank) +
         "\"><line x1=\"" + std::to_string(x1) + "\" y1=\"" + std::to_string(y1) + "\" x2=\"" + x + "\" y2=\"" +
         y + "\" stroke=\"#1f5fbf\" marker-end=\"url(#head)\"/><text x=\"" +
         std::to_string((x1 + Svg::x(i)) / 2 + 3) + "\" y=\"" + std::to_string((y1 + Svg::y(r.rank)) / 2 - 3) +
         "\" fill=\"#1f5fbf\">" + svg_escape("#" + std::to_string(r.msg) + " t" + std::to_string(r.tag) + " " +
                                             r.comm) +
         "</text>" + title + "</g>\n";
}

// A collective (row `i`): a box across its ranks' lanes, a dot on each, the call's name above.
std::string svg_span(const TraceRow& r, size_t i, const std::string& title) {
  if (r.ranks.empty()) return "";
  int y0 = Svg::y(r.ranks.front()) - 10, y1 = Svg::y(r.ranks.back()) + 10;
  std::string s = "<g class=\"span\"><rect x=\"" + std::to_string(Svg::x(i) - Svg::dx / 3) + "\" y=\"" +
                  std::to_string(y0) + "\" width=\"" + std::to_string(2 * Svg::dx / 3) + "\" height=\"" +
                  std::to_string(y1 - y0) + "\" fill=\"#c8d8f0\" fill-opacity=\"0.6\" stroke=\"#5070a0\"/>";
  for (int k : r.ranks)
    s += "<circle cx=\"" + std::to_string(Svg::x(i)) + "\" cy=\"" + std::to_string(Svg::y(k)) +
         "\" r=\"3\" fill=\"#5070a0\"/>";
  return s + "<text x=\"" + std::to_string(Svg::x(i) - Svg::dx / 3) + "\" y=\"" + std::to_string(y0 - 2) + "\">" +
         svg_escape(r.call.starts_with("MPI_") ? r.call.substr(4) : r.call) + "</text>" + title + "</g>\n";
}

// An epoch (row `i`): a band along its rank's lane to its end (the picture's end if open).
std::string svg_epoch(const TraceRow& r, size_t i, size_t end_row, const std::string& title) {
  int x0 = Svg::x(i), x1 = Svg::x(end_row), y = Svg::y(r.rank);
  return "<rect class=\"epoch\" x=\"" + std::to_string(x0) + "\" y=\"" + std::to_string(y - 9) + "\" width=\"" +
         std::to_string(std::max(x1 - x0, 6)) + "\" height=\"18\" fill=\"#f0d070\" fill-opacity=\"0.35\" " +
         "stroke=\"#b09020\">" + title + "</rect>\n";
}

// A race (row `i`): a dashed red line from the other message's send to the
// receiver's lane, where a red cross marks the finding.
std::string svg_race(const TraceRow& r, size_t i, int size, const std::map<int, size_t>& send_at,
                     const std::string& title) {
  auto [x1, y1] = svg_from(r, i, size, send_at);
  std::string x = std::to_string(Svg::x(i)), y = std::to_string(Svg::y(r.rank));
  return "<g class=\"race\" data-from=\"" + std::to_string(r.peer) + "\" data-to=\"" + std::to_string(r.rank) +
         "\"><line x1=\"" + std::to_string(x1) + "\" y1=\"" + std::to_string(y1) + "\" x2=\"" + x + "\" y2=\"" + y +
         "\" stroke=\"#c02020\" stroke-dasharray=\"4 3\"/><text x=\"" + std::to_string(Svg::x(i) - 4) + "\" y=\"" +
         std::to_string(Svg::y(r.rank) + 4) + "\" fill=\"#c02020\" font-size=\"13\">x</text>" + title + "</g>\n";
}

// Row `i` as SVG: a dot (send), an arrow (receive), a square (wait, probe), a box (collective) or a band (epoch).
std::string svg_row(const TraceRow& r, size_t i, int size, const std::map<int, size_t>& send_at, size_t end_row) {
  std::string x = std::to_string(Svg::x(i)), y = std::to_string(Svg::y(r.rank));
  std::string title = "<title>" + svg_escape(describe(r)) + " (clock " + std::to_string(r.clock) + ")</title>";
  switch (r.kind) {
    case Kind::Send:
      return "<circle class=\"send\" cx=\"" + x + "\" cy=\"" + y + "\" r=\"4\" fill=\"#1f5fbf\">" + title +
             "</circle>\n";
    case Kind::Recv: return svg_recv(r, i, size, send_at, title);
    case Kind::Probe:
    case Kind::Wait:
      return "<rect class=\"" + std::string(r.kind == Kind::Wait ? "wait" : "probe") + "\" x=\"" +
             std::to_string(Svg::x(i) - 6) + "\" y=\"" + std::to_string(Svg::y(r.rank) - 6) +
             "\" width=\"12\" height=\"12\" fill=\"" + (r.kind == Kind::Wait ? "#e0a030" : "#60a060") + "\">" +
             title + "</rect>\n";
    case Kind::Span: return svg_span(r, i, title);
    case Kind::Epoch: return svg_epoch(r, i, end_row, title);
    case Kind::Race: return svg_race(r, i, size, send_at, title);
  }
  return "";
}

}  // namespace

std::string trace_svg(const TraceModel& m) {
  Svg g(m);
  std::string s = svg_head(m, g);
  std::map<int, size_t> send_at;  // message number -> row index
  for (size_t i = 0; i < m.rows.size(); ++i)
    if (m.rows[i].kind == Kind::Send) send_at[m.rows[i].msg] = i;
  for (size_t i = 0; i < m.rows.size(); ++i) {
    size_t end_row = i;  // an epoch's: the last row up to its end (the last of all when open)
    if (m.rows[i].kind == Kind::Epoch)
      while (end_row + 1 < m.rows.size() && (!m.rows[i].end_clock || m.rows[end_row + 1].clock <= m.rows[i].end_clock))
        ++end_row;
    s += svg_row(m.rows[i], i, m.size, send_at, end_row);
  }
  return s + "</svg>\n";
}

// ---- JSON ------------------------------------------------------------------------------------

namespace {

// A complete event ("ph":"X"): `dur` ticks of `name` on rank `tid` from `ts`.
std::string json_slice(const std::string& name, const std::string& cat, int tid, uint64_t ts, double dur,
                       const std::string& args) {
  char d[32];
  std::snprintf(d, sizeof d, "%g", dur);
  return "{\"name\":\"" + json_escape(name) + "\",\"cat\":\"" + cat + "\",\"ph\":\"X\",\"pid\":0,\"tid\":" +
         std::to_string(tid) + ",\"ts\":" + std::to_string(ts) + ",\"dur\":" + d + ",\"args\":{" + args + "}}";
}

// A flow event: the start ("s") or end ("f") of message `id`'s arrow.
std::string json_flow(const char* ph, int id, int tid, uint64_t ts) {
  return std::string("{\"name\":\"message\",\"cat\":\"p2p\",\"ph\":\"") + ph + "\"," +
         (ph[0] == 'f' ? "\"bp\":\"e\"," : "") + "\"id\":" + std::to_string(id) + ",\"pid\":0,\"tid\":" +
         std::to_string(tid) + ",\"ts\":" + std::to_string(ts) + "}";
}

// Row `r`'s events: a slice per rank it happened on, and a flow end for a
// message whose other end is in the trace (`received`: messages received).
void json_row(std::vector<std::string>& ev, const TraceRow& r, const std::set<int>& received) {
  std::string common = "\"comm\":\"" + json_escape(r.comm) + "\",\"tag\":" + std::to_string(r.tag) +
                       ",\"bytes\":" + std::to_string(r.bytes) + ",\"message\":" + std::to_string(r.msg) +
                       ",\"clock\":" + std::to_string(r.clock);
  switch (r.kind) {
    case Kind::Send:
      ev.push_back(json_slice(r.call, "p2p", r.rank, r.clock, 0.8, common + ",\"to\":" + std::to_string(r.peer)));
      if (received.count(r.msg)) ev.push_back(json_flow("s", r.msg, r.rank, r.clock));
      break;
    case Kind::Recv:
      ev.push_back(json_slice(is_rma(r.call) ? r.call : "MPI_Recv", is_rma(r.call) ? "rma" : "p2p", r.rank, r.clock, 0.8,
                              common + ",\"from\":" + std::to_string(r.peer)));
      if (r.matched) ev.push_back(json_flow("f", r.msg, r.rank, r.clock));
      break;
    case Kind::Probe:
      ev.push_back(json_slice(r.call, "p2p", r.rank, r.clock, 0.8, common + ",\"from\":" + std::to_string(r.peer)));
      break;
    case Kind::Wait:
      ev.push_back(json_slice(r.call, "wait", r.rank, r.clock, double(std::max(r.end_clock, r.clock + 1) - r.clock), ""));
      break;
    case Kind::Epoch:
      ev.push_back(json_slice(r.call, "rma", r.rank, r.clock,
                              double(std::max(r.end_clock ? r.end_clock : r.clock + 1, r.clock + 1) - r.clock),
                              "\"with\":" + std::to_string(r.peer)));
      break;
    case Kind::Race:
      ev.push_back("{\"name\":\"" + json_escape(describe(r)) + "\",\"cat\":\"race\",\"ph\":\"i\",\"s\":\"t\","
                   "\"pid\":0,\"tid\":" + std::to_string(r.rank) + ",\"ts\":" + std::to_string(r.clock) + ",\"args\":{" +
                   common + ",\"from\":" + std::to_string(r.peer) + "}}");
      break;
    case Kind::Span:
      for (const auto& [rank, be] : r.per_rank)
        ev.push_back(json_slice(r.call, "collective", rank, be.first, double(std::max(be.second, be.first + 1) - be.first),
                                "\"comm\":\"" + json_escape(r.comm) + "\",\"ranks\":\"" + ranks_text(r.ranks) +
                                    "\",\"root\":" + std::to_string(r.peer)));
      break;
  }
}

}  // namespace

std::string trace_json(const TraceModel& m) {
  std::vector<std::string> ev;
  for (int r = 0; r < m.size; ++r)
    ev.push_back("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":" + std::to_string(r) +
                 ",\"args\":{\"name\":\"rank " + std::to_string(r) + "\"}}");
  std::set<int> received;
  for (const TraceRow& r : m.rows)
    if (r.kind == Kind::Recv) received.insert(r.msg);
  for (const TraceRow& r : m.rows) json_row(ev, r, received);
  std::string out = "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"clock\":\"Lamport (1 tick = 1 us)\",\"ranks\":" +
                    std::to_string(m.size) + ",\"dropped\":" + std::to_string(m.dropped) + "},\"traceEvents\":[\n";
  for (size_t i = 0; i < ev.size(); ++i) out += ev[i] + (i + 1 < ev.size() ? ",\n" : "\n");
  return out + "]}\n";
}

}  // namespace lumpi::repl
