// repl/view/trace_view.hpp: every rank's trace (launcher::TraceEntry, from
// core/base/trace.hpp) joined into one causal picture, and its three drawings:
// an ASCII space-time diagram that fits 80 columns (:trace), SVG with arrows
// between lanes (:trace svg FILE) and Chrome/Perfetto trace-event JSON
// (:trace json FILE).
//
// Order is the Lamport clocks' (ties by rank), never the hosts' clocks: a
// receive's clock is larger than its send's, so every arrow points forward.
// Messages are joined by (sender, the clock it was sent at); collectives and
// constructors by (communicator, call, how many spans that rank had begun
// on that communicator before), their lane set being the ranks that took
// part. Pure functions of the replies: unit-tested without a world.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "launcher/protocol/protocol.hpp"

namespace lumpi::repl {

struct TraceRow {
  // Epoch: one rank's side of a one-sided epoch, a band on its lane from
  // `clock` to `end_clock` (0: still open when the trace was taken).
  // Race (--check): on the receiver's lane, where it found that message
  // `msg` from `peer` could have matched its wildcard receive or probe
  // (`call`) as well as the one it took.
  enum class Kind { Send, Recv, Span, Wait, Probe, Epoch, Race };
  Kind kind = Kind::Send;
  uint64_t clock = 0;  // where the row sits in causal order
  int rank = 0;        // the lane: sender (Send), receiver (Recv), the waiting or probing rank
  int peer = -1;       // Send: destination; Recv, Probe, Race: source; Span: root or -1
  int msg = 0;         // Send, Recv, Probe, Race: the message's number (#1, #2 ... in send order); 0 unknown
  bool matched = true; // Send: received within the trace; Recv: its send is in the trace
  int tag = 0;
  long long bytes = -1;
  std::string call, comm;
  std::vector<int> ranks;        // Span: the ranks that took part
  uint64_t end_clock = 0;        // Span, Wait, Epoch: the latest end
  std::map<int, std::pair<uint64_t, uint64_t>> per_rank;  // Span: rank -> (begin, end) clocks
};

struct TraceModel {
  int size = 0;                  // lanes (the world's size)
  std::vector<TraceRow> rows;    // in causal order
  uint64_t dropped = 0;          // events the ranks' full buffers overwrote
  std::vector<int> missing;      // ranks that sent no trace (dead, not answering)
  size_t events = 0;
};

// Joins the ranks' events. `only_case`: keep only the events after the
// "case KEY" mark (lumpi test --trace), up to the next mark; "" keeps all.
TraceModel build_trace(int size, const std::map<int, launcher::ControlMsg>& replies,
                       const std::string& only_case = "");

// The space-time diagram, at most `width` columns (lanes side by side, time
// flowing down, one row per event).
std::string trace_text(const TraceModel& m, int width = 80);
// The same as SVG (lanes across, time to the right, arrows between lanes).
std::string trace_svg(const TraceModel& m);
// Chrome/Perfetto trace-event JSON: slices per rank, flow events per message;
// timestamps are Lamport clocks (1 tick shown as 1 µs).
std::string trace_json(const TraceModel& m);

}  // namespace lumpi::repl
