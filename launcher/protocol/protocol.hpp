// launcher/protocol/protocol.hpp: the control protocol between the coordinator
// (one ZeroMQ ROUTER) and its rank hosts (one DEALER each), defined once.
//
// Every control message is a ControlMsg: a Kind and the fields that kind
// uses (listed at each Kind). On the wire it is one multipart message: the
// kind's name, then its fields as text frames in the order listed; the
// ROUTER side also sees the DEALER's identity frame ("rank-N") in front,
// which World strips. encode() and decode() are the only code that knows
// the frames; decode() trusts nothing (a peer, a bug or a fuzzer may send
// anything) and answers nullopt with the reason for any malformed message,
// which the receiver drops with one line on stderr. launcher/README.md
// holds the same table; tests/unit/protocol_test.cpp checks both agree.
//
// This header needs only cppzmq: the coordinator links it without the core.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>
#include <zmq.hpp>

namespace lumpi::launcher {

using Frames = std::vector<std::string>;

enum class Kind : uint8_t {
  // rank host -> coordinator
  Hello,     // rank pid host endpoint: joined, data endpoint bound
  Result,    // epoch ok text values: a command's end; ok = no error ("ok", "error", or
             //   "incomplete": a Repl chunk whose syntax error is at <eof>, not run);
             //   text = rendered values or the error message; values = it returned any
  Output,    // text: what the program printed (one line, or the rest before a result)
  Status,    // text state serial sent received error call comm context tag any waits group queue...:
             //   answer to StatusQuery: the text ("idle", "waiting in MPI_Recv(...)"), the state,
             //   the wait's serial number and the rank's message counts (Counts), its last MPI
             //   error ("" if none), the blocked call's structured wait (WaitInfo) and the rank's
             //   message queues (QueueEntry, 6 frames each)
  Wait,      // (the fields of Status): unasked, a rank blocked for kWaitNoticeMs in one wait (state
             //   blocked), or leaving a wait it announced (state running): the live deadlock detection
  Report,    // class text: a check fired on this rank (docs/checking.md): its class
             //   ("collective-mismatch") and the message its MPI error carries
  Tree,      // text: answer to TreeQuery, the machine's tree with ranks placed on it
  Event,     // list: fields of a structured event (lumpi test's case reports)
  Trace,     // dropped events...: answer to TraceQuery "get": the rank's trace (TraceEntry,
             //   10 frames each) and how many older events the full ring buffer overwrote
  Abort,     // code text: MPI_Abort was called; the rank exits with code
  Finished,  // code: the program finished normally (Host::finish); it exits next
  Bye,       // code: (worlds over tcp) the process exits now with code: its exit status,
             //   which the coordinator cannot waitpid for
  // coordinator -> rank host
  Start,        // list: the data endpoint of every rank, in rank order
  Exec,         // epoch mode text list: run a command; text = payload, list = args
  Interrupt,    // epoch code: stop that command (or drop it if not started); code 1: the
                //   rank is in a confirmed deadlock, so its unreceived messages never will be
  StatusQuery,  // (no fields): answer with Status
  RaceQuery,    // (no fields): the rank is in a confirmed deadlock (`lumpi exec --check`): report
                //   the message races its unreceived messages stranded (Report), then answer with Status
  TreeQuery,    // list: "rank=cpuset" of each rank to place; answer with Tree
  TraceQuery,   // action: "on", "off", "clear" (tracing, core/base/trace.hpp) or "get" (answer with Trace)
  Check,        // action: "on" or "off": the full checks of --check (docs/checking.md)
  Dead,         // rank: that rank died; waits that need it fail
  Fail,         // epoch serial text: the wait numbered serial, in that command, will never be
                //   met (a partner failed the same call, or the ranks gave different roots):
                //   raise the MPI error `text` ("MPI_ERR_OP in MPI_Allreduce: rank 2 ...") there
  Quit,         // (no fields): finish and exit; from a REPL to a waiting world (`lumpi world`,
                //   launcher/world_serve.hpp): end the world
  // REPL (`lumpi attach`) <-> a waiting world, on its attach socket; every message there has one
  // more frame in front: the rank it is for or from, or "-" for the world itself
  Attach,   // (no fields): REPL -> world: take the world; answered by a Hello for each joined rank,
            //   a Died for each dead one, then Start (the table is complete), or by Refused
  Detach,   // (no fields): REPL -> world: the REPL leaves, the world goes on waiting
  Kill,     // rank: REPL -> world: kill that rank (World::kill)
  Refused,  // text: world -> REPL: why it cannot attach (another REPL holds the world)
  Died,     // rank code: world -> REPL: that rank ended; code is its wait status (World::describe)
  Ping,     // (no fields): world -> REPL, every kBeatMs: the world lives (and the REPL's connection too)
};
inline constexpr int kKindCount = int(Kind::Ping) + 1;

// Exec modes: how the program treats the payload.
enum class Mode : uint8_t {
  Repl,    // a chunk; `return` is tried first so an expression's values come back rendered;
           //   a chunk that ends too early (lua.c's rule) is answered "incomplete", not run
  Script,  // payload is a file name; list holds the script's arguments
  Text,    // like Repl, but the result is the first value as tostring gives it (REPL queries)
  Check,   // compile only, run nothing: result text is "incomplete", "expression" or "statement",
           //   or the syntax error (:dot's parse)
};

// Status: what a rank is doing. Blocked: inside an MPI wait (WaitInfo says
// which); Running: computing outside MPI; Finishing: its program ended
// (lumpi exec) and it waits for quit.
enum class RankState : uint8_t { Idle, Running, Blocked, Finishing };

// Status, when blocked: the structured form of core::Waiting, for the
// coordinator's wait-for graph (repl/view/deadlock.hpp). Ranks are COMM_WORLD ranks.
struct WaitInfo {
  std::string call;         // "MPI_Recv", "MPI_Barrier"
  std::string comm;         // the communicator's name ("" if unnamed)
  uint64_t context = 0;     // the communicator's context base: its identity in the job (0: none)
  bool has_tag = false;
  int tag = 0;              // when has_tag (may be ANY_TAG, -4)
  bool any = false;         // waits for any one of `waits` (ANY_SOURCE), else for each
  std::vector<int> waits;   // the ranks this wait needs
  std::vector<int> group;   // collectives and constructors: every member of the communicator
  bool operator==(const WaitInfo&) const = default;
};

// Status: one entry of a rank's message queues (core::Matcher).
struct QueueEntry {
  bool posted = false;    // a posted receive (else a message arrived but not matched, or one-sided)
  int source = 0;         // COMM_WORLD rank, or ANY_SOURCE (-2) for a posted receive
  int tag = 0;            // may be ANY_TAG (-4) for a posted receive
  uint64_t context = 0;   // matching context: base * 4 + lane (0 user, 1 collective, 2 internal)
  long long bytes = -1;   // arrived: the body's size; posted: -1
  std::string comm;       // the communicator's name, "" if unknown or unnamed
  std::string one_sided;  // a window's pending operations or lock request, as core/rma says it ("" for
                          //   the matching queues: then source is the peer, context the window's base)
  bool operator==(const QueueEntry&) const = default;
};

// Trace: one event of a rank's trace (core::TraceEvent). Ranks are COMM_WORLD ranks.
struct TraceEntry {
  std::string kind;       // "send", "recv", "probe", "begin", "end", "mark" (call: "case KEY" of lumpi test), "race"
  uint64_t clock = 0;     // the rank's Lamport clock at the event
  long long wall_ns = 0;  // the rank's steady clock
  int peer = -1;          // send: destination; recv, probe: source; begin: a rooted collective's root
  int tag = 0;
  uint64_t context = 0;   // the communicator's context base
  uint64_t msg = 0;       // send: its clock; recv, probe: the clock the message was sent at
  long long bytes = -1;
  std::string call;       // "MPI_Send", "MPI_Barrier", "MPI_Wait" ...
  std::string comm;       // the communicator's name, "" if unnamed
  bool operator==(const TraceEntry&) const = default;
};

// Status and Wait: how many data messages (acks and one-sided included) this
// rank has sent to and received from each rank, indexed by COMM_WORLD rank.
// A message in flight is one counted as sent but not yet as received: the
// coordinator confirms a deadlock only when none goes to a stuck rank.
struct Counts {
  std::vector<uint64_t> sent, received;
  bool operator==(const Counts&) const = default;
};

// An MPI error in its parts, as a rank's program was handed it (Status,
// Wait) or as a wait must raise it (Fail). Nobody parses the joined form;
// text() writes it for people.
struct MpiError {
  std::string error_class;  // "MPI_ERR_OP" ("" for none)
  std::string call;         // "MPI_Allreduce"
  std::string message;      // why, in the caller's terms
  bool empty() const { return error_class.empty(); }
  // "MPI_ERR_OP in MPI_Allreduce: unknown op", "" when empty.
  std::string text() const;
  bool operator==(const MpiError&) const = default;
};

// A rank that stays blocked this long in one wait tells the coordinator (Wait);
// faster waits send nothing.
inline constexpr int kWaitNoticeMs = 5;

struct ControlMsg {
  Kind kind = Kind::Quit;
  int rank = 0;                 // Hello: the sender's world rank; Dead, Died: the rank that died;
                                //   Kill: the rank to kill
  long pid = 0;                 // Hello
  uint32_t epoch = 0;           // Result, Exec, Interrupt, Fail
  int code = 0;                 // Abort, Finished, Bye: the exit code; Died: the wait status;
                                //   Interrupt: 1 for a rank in a confirmed deadlock, else 0
  bool ok = false;              // Result
  bool incomplete = false;      // Result: an error that more input may cure (never with ok)
  bool values = false;          // Result
  Mode mode = Mode::Repl;       // Exec
  std::string text;             // Hello: host name; Exec: payload; Result, Output, Status, Tree, Abort, Refused,
                                //   Report; TraceQuery, Check: the action
  std::string check_class;      // Report
  std::string endpoint;         // Hello
  std::vector<std::string> list;  // Start, Exec, Event, TreeQuery
  RankState state = RankState::Idle;  // Status
  uint64_t serial = 0;                // Status, Wait: the number of the rank's current (or last) wait
  Counts counts;                      // Status, Wait
  MpiError error;                     // Status, Wait: the last MPI error the rank's program was handed in
                                      //   this command (core::last_delivered), empty if none; Fail: the
                                      //   error the wait raises
  WaitInfo wait;                      // Status, Wait (when state is Blocked)
  std::vector<QueueEntry> queue;      // Status
  uint64_t dropped = 0;               // Trace
  std::vector<TraceEntry> trace;      // Trace

  bool operator==(const ControlMsg&) const = default;
};

const char* kind_name(Kind k);
// The kind's fields in frame order, one word each ("rank pid host endpoint";
// "args..." takes the remaining frames): the table of launcher/README.md.
std::string field_doc(Kind k);
const char* mode_name(Mode m);
const char* state_name(RankState s);
std::optional<Mode> parse_mode(std::string_view name);

// The message as frames after `head` (routing frames, if any): the kind's
// name first. Fields a kind does not use are not sent.
Frames encode(const ControlMsg& m, Frames head = {});
// The message the frames encode, or nullopt with the reason in *why (when
// why is not null): unknown kind, wrong number of frames, a number that is
// not one or out of range, an unknown mode or flag. Never throws on any input
// other than std::bad_alloc.
std::optional<ControlMsg> decode(const Frames& frames, std::string* why);

// Short constructors for the common messages.
ControlMsg msg(Kind k);
ControlMsg text_msg(Kind k, std::string text);

// Sends frames as one multipart message (never blocks: queues are unbounded).
void send_frames(zmq::socket_ref s, const Frames& frames);
// Receives one multipart message; empty if none is waiting.
Frames recv_frames(zmq::socket_ref s, bool wait);
// The one line a receiver writes to stderr before dropping a malformed message.
void log_dropped(std::string_view who, std::string_view why);

// Environment a rank host reads (set by World for each process it starts).
inline constexpr const char* kEnvControl = "LUMPI_CONTROL";  // coordinator endpoint
inline constexpr const char* kEnvRank = "LUMPI_RANK";
inline constexpr const char* kEnvSize = "LUMPI_SIZE";
inline constexpr const char* kEnvDir = "LUMPI_DIR";        // private ipc directory
inline constexpr const char* kEnvParent = "LUMPI_PARENT";  // coordinator pid
inline constexpr const char* kEnvBind = "LUMPI_BIND";      // --bind level
inline constexpr const char* kEnvCheck = "LUMPI_CHECK";    // "1": --check (docs/checking.md)
// Worlds started by a launcher (launcher/coordinator/launch.hpp) instead of World's fork:
inline constexpr const char* kEnvJoin = "LUMPI_JOIN";        // path of the 0600 job file
inline constexpr const char* kEnvLocalRank = "LUMPI_LOCAL_RANK";  // rank on its host (ssh launcher)
inline constexpr const char* kEnvAddress = "LUMPI_ADDRESS";  // address to bind the data endpoint on

}  // namespace lumpi::launcher
