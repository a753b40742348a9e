// core/base/trace.cpp: the Tracer's ring buffer.
#include "core/base/trace.hpp"

namespace lumpi::core {

const char* trace_kind_name(TraceEvent::Kind k) {
  switch (k) {
    case TraceEvent::Kind::Send: return "send";
    case TraceEvent::Kind::Recv: return "recv";
    case TraceEvent::Kind::Probe: return "probe";
    case TraceEvent::Kind::Begin: return "begin";
    case TraceEvent::Kind::End: return "end";
    case TraceEvent::Kind::Mark: return "mark";
    case TraceEvent::Kind::Race: return "race";
  }
  return "?";
}

void Tracer::record(TraceEvent e) {
  if (events_.size() < kCapacity) {
    events_.push_back(std::move(e));
    return;
  }
  events_[head_] = std::move(e);
  head_ = (head_ + 1) % kCapacity;
  ++dropped_;
}

std::vector<TraceEvent> Tracer::events() const {
  std::vector<TraceEvent> out;
  out.reserve(events_.size());
  for (size_t i = 0; i < events_.size(); ++i) out.push_back(events_[(head_ + i) % events_.size()]);
  return out;
}

}  // namespace lumpi::core
