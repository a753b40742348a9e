// launcher/protocol/protocol.cpp: the control messages' frames, from one table.
//
// kSpecs lists, per Kind, its name on the wire and its fields in frame
// order; encode() and decode() both walk it, so they cannot disagree.
#include "launcher/protocol/protocol.hpp"

#include <charconv>
#include <cstdio>

#include "launcher/protocol/signals.hpp"

namespace lumpi::launcher {
namespace {

enum class Field : uint8_t {
  Rank, Pid, Epoch, Code, Ok, Values, Mode, Text, Endpoint, List,
  // Status: the state and the structured wait; Queue, like List, takes the remaining frames
  State, Serial, Sent, Received, ErrorClass, ErrorCall, ErrorMessage, Call, Comm, Context, Tag, Any, Waits, Group, Queue,
  // Report's class; Check's action
  Class, CheckAction,
  // Trace: Events, like Queue, takes the remaining frames; TraceQuery's Action
  Dropped, Events, Action,
};

struct Spec {
  Kind kind;
  const char* name;
  std::vector<Field> fields;  // List, Queue or Events, when present, is last and takes the remaining frames
  const char* doc;            // the fields' names, one word each (launcher/README.md's table)
};

const std::vector<Field> kStatusFields = {
    Field::Text,         Field::State, Field::Serial, Field::Sent,    Field::Received, Field::ErrorClass,
    Field::ErrorCall,    Field::ErrorMessage, Field::Call, Field::Comm, Field::Context, Field::Tag,
    Field::Any,          Field::Waits, Field::Group,  Field::Queue};
constexpr const char* kStatusDoc =
    "text state serial sent received error_class error_call error call comm context tag any waits group queue...";

const std::vector<Spec>& specs() {
  using F = Field;
  static const std::vector<Spec> s = {
      {Kind::Hello, "hello", {F::Rank, F::Pid, F::Text, F::Endpoint}, "rank pid host endpoint"},
      {Kind::Result, "result", {F::Epoch, F::Ok, F::Text, F::Values}, "epoch ok text values"},
      {Kind::Output, "output", {F::Text}, "text"},
      {Kind::Status, "status", kStatusFields, kStatusDoc},
      {Kind::Wait, "wait", kStatusFields, kStatusDoc},
      {Kind::Report, "report", {F::Class, F::Text}, "class text"},
      {Kind::Tree, "tree", {F::Text}, "text"},
      {Kind::Event, "event", {F::List}, "fields..."},
      {Kind::Trace, "trace", {F::Dropped, F::Events}, "dropped events..."},
      {Kind::Abort, "abort", {F::Code, F::Text}, "code text"},
      {Kind::Finished, "finished", {F::Code}, "code"},
      {Kind::Bye, "bye", {F::Code}, "code"},
      {Kind::Start, "start", {F::List}, "endpoints..."},
      {Kind::Exec, "exec", {F::Epoch, F::Mode, F::Text, F::List}, "epoch mode payload args..."},
      {Kind::Interrupt, "interrupt", {F::Epoch, F::Code}, "epoch code"},
      {Kind::StatusQuery, "status?", {}, ""},
      {Kind::RaceQuery, "races?", {}, ""},
      {Kind::TreeQuery, "tree?", {F::List}, "rank=cpuset..."},
      {Kind::TraceQuery, "trace?", {F::Action}, "action"},
      {Kind::Check, "check", {F::CheckAction}, "action"},
      {Kind::Dead, "dead", {F::Rank}, "rank"},
      {Kind::Fail, "fail", {F::Epoch, F::Serial, F::ErrorClass, F::ErrorCall, F::ErrorMessage},
       "epoch serial error_class error_call error"},
      {Kind::Quit, "quit", {}, ""},
      {Kind::Attach, "attach", {}, ""},
      {Kind::Detach, "detach", {}, ""},
      {Kind::Kill, "kill", {F::Rank}, "rank"},
      {Kind::Refused, "refused", {F::Text}, "text"},
      {Kind::Died, "died", {F::Rank, F::Code}, "rank code"},
      {Kind::Ping, "ping", {}, ""},
  };
  return s;
}

const Spec* spec_of(Kind k) {
  for (const auto& s : specs())
    if (s.kind == k) return &s;
  return nullptr;
}

const Spec* spec_named(std::string_view name) {
  for (const auto& s : specs())
    if (name == s.name) return &s;
  return nullptr;
}

constexpr const char* kModes[] = {"repl", "script", "text", "check"};
constexpr const char* kStates[] = {"idle", "running", "blocked", "finishing"};
constexpr size_t kQueueFrames = 7;  // posted|arrived|rma source tag context bytes comm one_sided
constexpr size_t kTraceFrames = 10;  // kind clock wall_ns peer tag context msg bytes call comm
constexpr const char* kTraceKinds[] = {"send", "recv", "probe", "begin", "end", "mark", "race"};
constexpr const char* kTraceActions[] = {"on", "off", "clear", "get"};

// A decimal number of type T, the whole frame and nothing else (on
// failure *out may hold anything: the message is dropped).
template <class T>
bool parse_number(const std::string& f, T* out) {
  if (f.empty() || f.size() > 20) return false;
  auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), *out);
  return ec == std::errc() && end == f.data() + f.size();
}

// A decimal integer in [lo, hi].
bool parse_int(const std::string& f, long long lo, long long hi, long long* out) {
  return parse_number(f, out) && *out >= lo && *out <= hi;
}

// "0,2,5" (or "" for none): ranks from 0 to 2^24.
bool parse_ranks(const std::string& f, std::vector<int>* out) {
  out->clear();
  if (f.empty()) return true;
  size_t start = 0;
  for (;;) {
    size_t comma = f.find(',', start);
    long long v = 0;
    if (!parse_int(f.substr(start, comma - start), 0, 1 << 24, &v)) return false;
    out->push_back(int(v));
    if (comma == std::string::npos) return true;
    start = comma + 1;
  }
}

// "3,0,5" (or "" for none): message counts.
bool parse_counts(const std::string& f, std::vector<uint64_t>* out) {
  out->clear();
  if (f.empty()) return true;
  size_t start = 0;
  for (;;) {
    size_t comma = f.find(',', start);
    uint64_t v = 0;
    if (!parse_number(f.substr(start, comma - start), &v)) return false;
    out->push_back(v);
    if (comma == std::string::npos) return true;
    start = comma + 1;
  }
}

std::string write_counts(const std::vector<uint64_t>& counts) {
  std::string s;
  for (uint64_t c : counts) s += (s.empty() ? "" : ",") + std::to_string(c);
  return s;
}

std::string write_ranks(const std::vector<int>& ranks) {
  std::string s;
  for (int r : ranks) s += (s.empty() ? "" : ",") + std::to_string(r);
  return s;
}

// Tags on the wire: "-" for none, else any int: a user's tag, ANY_TAG (-4),
// or the negative tag of collective and constructor traffic, which a status
// report carries in its queue and in a constructor's wait.
bool parse_tag(const std::string& f, bool* has, int* tag) {
  long long v = 0;
  if (f == "-") return *has = false, *tag = 0, true;
  if (!parse_int(f, INT32_MIN, INT32_MAX, &v)) return false;
  *has = true;
  *tag = int(v);
  return true;
}

bool fail(std::string* why, std::string text);
// fail() with "bad <what> '<the frame's first 40 bytes>'".
bool bad(std::string* why, const char* what, const std::string& frame) {
  return fail(why, std::string("bad ") + what + " '" + frame.substr(0, 40) + "'");
}

// One queue entry from its kQueueFrames frames.
bool read_queue_entry(const std::string* f, QueueEntry* e, std::string* why) {
  if (f[0] != "posted" && f[0] != "arrived" && f[0] != "rma")
    return fail(why, "queue entry is neither posted, arrived nor rma");
  e->posted = f[0] == "posted";
  e->one_sided = f[6];
  if ((f[0] == "rma") != !e->one_sided.empty()) return fail(why, "queue entry: rma goes with its description");
  long long v = 0;
  if (!parse_int(f[1], -2, 1 << 24, &v)) return bad(why, "queue source", f[1]);
  e->source = int(v);
  bool has = false;
  if (!parse_tag(f[2], &has, &e->tag) || !has) return bad(why, "queue tag", f[2]);
  if (!parse_number(f[3], &e->context)) return bad(why, "queue context", f[3]);
  if (!parse_int(f[4], -1, 1LL << 50, &e->bytes)) return bad(why, "queue size", f[4]);
  e->comm = f[5];
  return true;
}

// One trace event from its kTraceFrames frames.
bool read_trace_entry(const std::string* f, TraceEntry* e, std::string* why) {
  bool known = false;
  for (const char* k : kTraceKinds) known = known || f[0] == k;
  if (!known) return fail(why, "unknown trace event '" + f[0].substr(0, 40) + "'");
  e->kind = f[0];
  long long v = 0;
  if (!parse_number(f[1], &e->clock)) return bad(why, "trace clock", f[1]);
  if (!parse_int(f[2], -(1LL << 62), 1LL << 62, &e->wall_ns)) return bad(why, "trace time", f[2]);
  if (!parse_int(f[3], -2, 1 << 24, &v)) return bad(why, "trace peer", f[3]);
  e->peer = int(v);
  if (!parse_int(f[4], -4, INT32_MAX, &v)) return bad(why, "trace tag", f[4]);
  e->tag = int(v);
  if (!parse_number(f[5], &e->context)) return bad(why, "trace context", f[5]);
  if (!parse_number(f[6], &e->msg)) return bad(why, "trace message", f[6]);
  if (!parse_int(f[7], -1, 1LL << 50, &e->bytes)) return bad(why, "trace size", f[7]);
  e->call = f[8];
  e->comm = f[9];
  return true;
}

bool fail(std::string* why, std::string text) {
  if (why) *why = std::move(text);
  return false;
}

// Appends the entries of frames[first..], `width` frames each, read by
// read_entry; false (with *why naming the message) if one is malformed.
template <class Entry>
bool read_groups(const Frames& frames, size_t first, size_t width, const char* what,
                 bool (*read_entry)(const std::string*, Entry*, std::string*), std::vector<Entry>* out,
                 std::string* why) {
  const std::string name = frames[0];
  if ((frames.size() - first) % width != 0)
    return fail(why, name + ": " + what + " frames come in groups of " + std::to_string(width) + ", got " +
                         std::to_string(frames.size() - first));
  for (size_t i = first; i < frames.size(); i += width) {
    Entry e;
    if (!read_entry(&frames[i], &e, why)) {
      if (why) *why = name + ": " + *why;
      return false;
    }
    out->push_back(std::move(e));
  }
  return true;
}

// Reads field `f` from `frame` into m; false (with *why) if malformed.
bool read_field(Field f, const std::string& frame, ControlMsg& m, std::string* why) {
  long long v = 0;
  switch (f) {
    case Field::Rank:
      if (!parse_int(frame, 0, 1 << 24, &v)) return bad(why, "rank", frame);
      m.rank = int(v);
      return true;
    case Field::Pid:
      if (!parse_int(frame, 1, 1LL << 40, &v)) return bad(why, "pid", frame);
      m.pid = long(v);
      return true;
    case Field::Epoch:
      if (!parse_int(frame, 0, UINT32_MAX, &v)) return bad(why, "epoch", frame);
      m.epoch = uint32_t(v);
      return true;
    case Field::Code:
      if (!parse_int(frame, -(1LL << 31), (1LL << 31) - 1, &v)) return bad(why, "exit code", frame);
      m.code = int(v);
      return true;
    case Field::Ok:
      if (frame != "ok" && frame != "error" && frame != "incomplete")
        return fail(why, "result is neither ok, error nor incomplete");
      m.ok = frame == "ok";
      m.incomplete = frame == "incomplete";
      return true;
    case Field::Values:
      if (frame != "0" && frame != "1") return fail(why, "values flag is neither 0 nor 1");
      m.values = frame == "1";
      return true;
    case Field::Mode: {
      auto mode = parse_mode(frame);
      if (!mode) return fail(why, "unknown exec mode '" + frame.substr(0, 40) + "'");
      m.mode = *mode;
      return true;
    }
    case Field::Text:
      m.text = frame;
      return true;
    case Field::Endpoint:
      m.endpoint = frame;
      return true;
    case Field::State: {
      for (size_t i = 0; i < std::size(kStates); ++i)
        if (frame == kStates[i]) return m.state = RankState(i), true;
      return fail(why, "unknown state '" + frame.substr(0, 40) + "'");
    }
    case Field::Serial:
      if (!parse_number(frame, &m.serial)) return bad(why, "wait serial", frame);
      return true;
    case Field::Sent:
      if (!parse_counts(frame, &m.counts.sent)) return bad(why, "message counts", frame);
      return true;
    case Field::Received:
      if (!parse_counts(frame, &m.counts.received)) return bad(why, "message counts", frame);
      return true;
    case Field::ErrorClass:
      m.error.error_class = frame;
      return true;
    case Field::ErrorCall:
      m.error.call = frame;
      return true;
    case Field::ErrorMessage:
      m.error.message = frame;
      return true;
    case Field::Class:
      m.check_class = frame;
      return true;
    case Field::CheckAction:
      if (frame != "on" && frame != "off") return fail(why, "check action is neither on nor off");
      m.text = frame;
      return true;
    case Field::Call:
      m.wait.call = frame;
      return true;
    case Field::Comm:
      m.wait.comm = frame;
      return true;
    case Field::Context:
      if (!parse_number(frame, &m.wait.context)) return bad(why, "context", frame);
      return true;
    case Field::Tag:
      if (!parse_tag(frame, &m.wait.has_tag, &m.wait.tag)) return bad(why, "tag", frame);
      return true;
    case Field::Any:
      if (frame != "0" && frame != "1") return fail(why, "any flag is neither 0 nor 1");
      m.wait.any = frame == "1";
      return true;
    case Field::Waits:
      if (!parse_ranks(frame, &m.wait.waits)) return bad(why, "rank list", frame);
      return true;
    case Field::Group:
      if (!parse_ranks(frame, &m.wait.group)) return bad(why, "rank list", frame);
      return true;
    case Field::Dropped:
      if (!parse_number(frame, &m.dropped)) return bad(why, "dropped count", frame);
      return true;
    case Field::Action:
      for (const char* a : kTraceActions)
        if (frame == a) return m.text = frame, true;
      return fail(why, "unknown trace action '" + frame.substr(0, 40) + "'");
    case Field::List:
    case Field::Queue:
    case Field::Events:
      return true;  // handled by decode()
  }
  return fail(why, "unknown field");
}

std::string write_field(Field f, const ControlMsg& m) {
  switch (f) {
    case Field::Rank: return std::to_string(m.rank);
    case Field::Pid: return std::to_string(m.pid);
    case Field::Epoch: return std::to_string(m.epoch);
    case Field::Code: return std::to_string(m.code);
    case Field::Ok: return m.incomplete ? "incomplete" : m.ok ? "ok" : "error";
    case Field::Values: return m.values ? "1" : "0";
    case Field::Mode: return mode_name(m.mode);
    case Field::Text: return m.text;
    case Field::Endpoint: return m.endpoint;
    case Field::State: return state_name(m.state);
    case Field::Serial: return std::to_string(m.serial);
    case Field::Sent: return write_counts(m.counts.sent);
    case Field::Received: return write_counts(m.counts.received);
    case Field::ErrorClass: return m.error.error_class;
    case Field::ErrorCall: return m.error.call;
    case Field::ErrorMessage: return m.error.message;
    case Field::Class: return m.check_class;
    case Field::CheckAction: return m.text;
    case Field::Call: return m.wait.call;
    case Field::Comm: return m.wait.comm;
    case Field::Context: return std::to_string(m.wait.context);
    case Field::Tag: return m.wait.has_tag ? std::to_string(m.wait.tag) : "-";
    case Field::Any: return m.wait.any ? "1" : "0";
    case Field::Waits: return write_ranks(m.wait.waits);
    case Field::Group: return write_ranks(m.wait.group);
    case Field::Dropped: return std::to_string(m.dropped);
    case Field::Action: return m.text;
    case Field::List:
    case Field::Queue:
    case Field::Events: return "";
  }
  return "";
}

}  // namespace

std::string MpiError::text() const {
  return empty() ? "" : error_class + " in " + call + ": " + message;
}

std::string field_doc(Kind k) {
  const Spec* s = spec_of(k);
  return s ? s->doc : "";
}

const char* kind_name(Kind k) {
  const Spec* s = spec_of(k);
  return s ? s->name : "?";
}

const char* mode_name(Mode m) {
  size_t i = size_t(m);
  return i < std::size(kModes) ? kModes[i] : "?";
}

const char* state_name(RankState s) {
  size_t i = size_t(s);
  return i < std::size(kStates) ? kStates[i] : "?";
}

std::optional<Mode> parse_mode(std::string_view name) {
  for (size_t i = 0; i < std::size(kModes); ++i)
    if (name == kModes[i]) return Mode(i);
  return std::nullopt;
}

Frames encode(const ControlMsg& m, Frames head) {
  const Spec* s = spec_of(m.kind);
  if (!s) return head;
  Frames out = std::move(head);
  out.push_back(s->name);
  for (Field f : s->fields) {
    if (f == Field::List) out.insert(out.end(), m.list.begin(), m.list.end());
    else if (f == Field::Queue)
      for (const QueueEntry& e : m.queue)
        out.insert(out.end(), {e.posted ? "posted" : !e.one_sided.empty() ? "rma" : "arrived",
                               std::to_string(e.source), std::to_string(e.tag), std::to_string(e.context),
                               std::to_string(e.bytes), e.comm, e.one_sided});
    else if (f == Field::Events)
      for (const TraceEntry& e : m.trace)
        out.insert(out.end(), {e.kind, std::to_string(e.clock), std::to_string(e.wall_ns), std::to_string(e.peer),
                               std::to_string(e.tag), std::to_string(e.context), std::to_string(e.msg),
                               std::to_string(e.bytes), e.call, e.comm});
    else out.push_back(write_field(f, m));
  }
  return out;
}

std::optional<ControlMsg> decode(const Frames& frames, std::string* why) {
  if (frames.empty()) return fail(why, "empty message"), std::nullopt;
  const Spec* s = spec_named(frames[0]);
  if (!s) return fail(why, "unknown kind '" + frames[0].substr(0, 40) + "'"), std::nullopt;
  bool has_list = !s->fields.empty() && (s->fields.back() == Field::List || s->fields.back() == Field::Queue ||
                                         s->fields.back() == Field::Events);
  size_t fixed = s->fields.size() - (has_list ? 1 : 0);
  size_t got = frames.size() - 1;
  if (got < fixed || (!has_list && got != fixed)) {
    fail(why, std::string(s->name) + " needs " + (has_list ? "at least " : "") + std::to_string(fixed) +
                  " field(s), got " + std::to_string(got));
    return std::nullopt;
  }
  ControlMsg m;
  m.kind = s->kind;
  for (size_t i = 0; i < fixed; ++i)
    if (!read_field(s->fields[i], frames[i + 1], m, why)) {
      if (why) *why = std::string(s->name) + ": " + *why;
      return std::nullopt;
    }
  if (has_list && s->fields.back() == Field::List) m.list.assign(frames.begin() + 1 + long(fixed), frames.end());
  if (has_list && s->fields.back() == Field::Queue &&
      !read_groups(frames, 1 + fixed, kQueueFrames, "queue", read_queue_entry, &m.queue, why))
    return std::nullopt;
  if (has_list && s->fields.back() == Field::Events &&
      !read_groups(frames, 1 + fixed, kTraceFrames, "trace", read_trace_entry, &m.trace, why))
    return std::nullopt;
  return m;
}

ControlMsg msg(Kind k) {
  ControlMsg m;
  m.kind = k;
  return m;
}

ControlMsg text_msg(Kind k, std::string text) {
  ControlMsg m = msg(k);
  m.text = std::move(text);
  return m;
}

void send_frames(zmq::socket_ref s, const Frames& frames) {
  for (size_t i = 0; i < frames.size(); ++i)
    again_on_eintr([&] {
      return s.send(zmq::buffer(frames[i]), i + 1 < frames.size() ? zmq::send_flags::sndmore : zmq::send_flags::none);
    });
}

Frames recv_frames(zmq::socket_ref s, bool wait) {
  Frames out;
  zmq::message_t m;
  auto flags = wait ? zmq::recv_flags::none : zmq::recv_flags::dontwait;
  if (!again_on_eintr([&] { return s.recv(m, flags); })) return out;
  out.emplace_back(m.to_string());
  while (m.more()) {
    (void)again_on_eintr([&] { return s.recv(m, zmq::recv_flags::none); });
    out.emplace_back(m.to_string());
  }
  return out;
}

void log_dropped(std::string_view who, std::string_view why) {
  std::fprintf(stderr, "%.*s: dropped malformed control message: %.*s\n", int(who.size()), who.data(),
               int(why.size()), why.data());
}

}  // namespace lumpi::launcher
