// core/base/trace.hpp: a rank's record of what it did in MPI, for :trace.
//
// A Tracer is a ring buffer of TraceEvents kept by the Engine. Recording
// happens only while tracing is on (`Engine::tracing()` is one test of a
// bool, so off costs nothing measurable); when the buffer is full the
// oldest events are overwritten and counted as dropped. Events carry the
// rank's Lamport clock (core/transport/wire.hpp's Envelope::clock), so the
// coordinator can order every rank's events causally whatever the hosts'
// clocks say: a message's receive always has a larger clock than its send.
// What is recorded: user point-to-point sends and receives (the P2P lane;
// a message is named by its sender and the clock it was sent at), probes
// that found a message, waits on requests, and collectives and
// communicator constructors as begin/end pairs (core/comm/team.*).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace lumpi::core {

struct TraceEvent {
  // Mark: a scenario case began (call). Race (--check): a wildcard receive
  // or probe (call) could have matched another message as well (peer: its
  // sender, msg: the clock it was sent at; docs/checking.md "Message races").
  enum class Kind : uint8_t { Send, Recv, Probe, Begin, End, Mark, Race };
  Kind kind = Kind::Send;
  uint64_t clock = 0;     // this rank's Lamport clock at the event
  int64_t wall_ns = 0;    // this rank's steady clock (not comparable across hosts)
  int peer = -1;          // Send: destination, Recv/Probe: source (COMM_WORLD ranks)
  int tag = 0;
  uint64_t context = 0;   // the communicator's context base
  uint64_t msg = 0;       // Send: its clock; Recv: the clock the message was sent at
  long long bytes = -1;   // Send/Recv/Probe: the body's size
  std::string call;       // "MPI_Send", "MPI_Barrier", "MPI_Wait" ...
  std::string comm;       // the communicator's name ("" if unnamed)
};

const char* trace_kind_name(TraceEvent::Kind k);

class Tracer {
 public:
  static constexpr size_t kCapacity = 1 << 16;

  bool on() const { return on_ && !paused_; }
  void set_on(bool on) { on_ = on; }
  bool enabled() const { return on_; }
  // REPL queries (completion, :draw) run with recording paused.
  void set_paused(bool p) { paused_ = p; }
  void clear() {
    events_.clear();
    head_ = 0;
    dropped_ = 0;
  }
  void record(TraceEvent e);
  // The events, oldest first.
  std::vector<TraceEvent> events() const;
  size_t dropped() const { return dropped_; }

 private:
  std::vector<TraceEvent> events_;
  size_t head_ = 0;  // once full: the oldest event's index
  size_t dropped_ = 0;
  bool on_ = false;
  bool paused_ = false;
};

}  // namespace lumpi::core
