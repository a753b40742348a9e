// core/engine/engine.hpp: one rank's progress engine over the data plane.
//
// Owns the rank's Transport (core/transport/transport.hpp: the sockets), the Matcher,
// and the blocking loop every MPI wait runs. While blocked it also serves
// the transport's watched socket (the launcher's control channel), so that
// an interrupt or the death of a peer ends the wait with
// LUMPI_ERR_INTERRUPTED or MPI_ERR_PROC_FAILED instead of a hang. Knows
// nothing of Lua, of ZeroMQ or of the control protocol's contents.
#pragma once

#include <atomic>
#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/base/call_lock.hpp"
#include "core/base/error.hpp"
#include "core/transport/curve_keys.hpp"
#include "core/engine/match.hpp"
#include "core/engine/race.hpp"
#include "core/base/trace.hpp"

namespace lumpi::core {

// What a blocked call is waiting for, for :status and hang reports.
struct Waiting {
  std::string call;        // "MPI_Recv"
  std::string comm;        // communicator name ("" if unnamed)
  uint64_t context = 0;    // the communicator's context base, its identity in the job (0: none)
  std::string peer_role;   // "source", "dest", "root" or ""
  int peer = 0;            // rank in the communicator (may be ANY_SOURCE)
  int tag = 0;
  bool has_tag = false;
  std::vector<int> needs;  // world ranks whose death fails the wait
  bool any = false;        // any one of needs will do (ANY_SOURCE), not each
  // For collectives and constructors: every member of the communicator. A
  // member's death fails the wait even when this rank waits for a live one,
  // which may itself have given up (so no survivor hangs).
  std::vector<int> group;
  bool polling = false;    // a loop of tests or probes (poll.hpp), not a blocked call
  std::string describe() const;
};

class Transport;
class PollStreak;

class Engine {
 public:
  // Binds the data endpoint (e.g. "ipc:///tmp/lumpi-x/3" or "tcp://127.0.0.1:*").
  Engine(int world_rank, int world_size, const std::string& bind_endpoint,
         std::optional<CurveKeys> curve = std::nullopt);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  int world_rank() const { return rank_; }
  int world_size() const { return size_; }
  const std::string& endpoint() const;
  // The sockets; the launcher makes its control socket on the transport's
  // context and has it watched there.
  Transport& transport() { return *transport_; }
  void set_peer_endpoints(std::vector<std::string> endpoints);

  // Queues a message for `dest` (world rank). Never blocks: queues are
  // unbounded. Tracing, a user point-to-point message is recorded as sent,
  // and so is any message given the call it carries out (`traced`: a
  // one-sided operation's "MPI_Put", core/rma).
  // The message carries this rank's Lamport clock, one tick on, unless
  // env.clock is set: an untraced message that orders its receiver after
  // that older event only (a shared lock's grant, core/rma/win.cpp).
  void send(int dest, const Envelope& env, Body body, std::string_view traced = {});
  uint64_t next_seq() { return ++seq_; }
  // True once the synchronous send `seq` was matched by its receiver.
  bool take_ack(uint64_t seq);
  // The acknowledgement of send `seq` will not advance the Lamport clock: a
  // standard send that --check made wait for its match (Comm::post_send).
  void unordered_ack(uint64_t seq);
  // MPI_Cancel of the send `seq` to world rank `dest` (MPI-3.1 §3.8.4):
  // asks dest to withdraw the message if no receive has matched it. Its
  // answer comes after the message's own ack (one ordered channel per
  // pair); take_cancel_answer gives it once it came: true when withdrawn.
  void cancel_send(int dest, uint64_t seq);
  std::optional<bool> take_cancel_answer(uint64_t seq);

  Matcher& matcher() { return matcher_; }
  // Posts a receive; true if it matched at once (acking a synchronous send).
  bool post(PostedRecv* r);
  // Takes the oldest matching unexpected message out of the queue (matched
  // probe), acking a synchronous send as a matching receive would.
  std::optional<Message> take(uint64_t context, int source, int tag);

  // Delivers whatever has arrived, waiting at most timeout_ms for something.
  void progress(int timeout_ms);
  // Runs progress until done() is true. Throws Error(Interrupted) after
  // interrupt(), Error(ProcFailed) if a rank in what.needs died.
  void wait(const std::function<bool()>& done, const Waiting& what);
  // Background work (nonblocking collectives, core/coll/nbc.*, freed
  // requests, Request::let_go): step() runs after each delivery round of
  // progress() and wait(), whichever call is blocked, and after a message
  // to oneself is delivered, until it returns true (finished or failed). It must not block
  // nor call progress/wait itself.
  void add_background(std::function<bool()> step);
  // The call currently blocked in wait(), if any, or the polling loop the
  // current call continues (poll.hpp).
  const Waiting* blocked() const;
  // A test or probe of the program found nothing (what: what it waits
  // for), or found its operation complete: the polling watch (poll.hpp),
  // which tells on_long_wait's notice of a loop that polls in vain.
  void poll_failed(const Waiting& what);
  void poll_ended();
  // The number of the current (or last) wait(): a wait that ended and
  // another that began have different serials.
  uint64_t wait_serial() const { return wait_serial_; }
  // Messages of every kind sent to and delivered from each world rank (to
  // and from itself included): what is in flight between two ranks is the
  // difference of the sender's and the receiver's counts.
  const std::vector<uint64_t>& sent_counts() const { return sent_to_; }
  const std::vector<uint64_t>& received_counts() const { return received_from_; }
  // Called when one wait() has been blocked for notice_ms with that wait,
  // and again with nullptr when a wait so announced ends: the live deadlock detection (the rank host tells the
  // coordinator). Waits shorter than notice_ms call nothing.
  using WaitNotice = std::function<void(const Waiting*)>;
  void on_long_wait(int notice_ms, WaitNotice notice) {
    notice_ms_ = notice_ms;
    notice_ = std::move(notice);
  }

  // Command epochs: messages carry the sender's current epoch; after an
  // interrupt the epoch's leftovers are dropped, now and when they arrive.
  void begin_command(uint32_t epoch) {
    epoch_ = epoch;
    interrupted_ = deadlocked_ = false;
    failed_wait_.reset();
  }
  uint32_t epoch() const { return epoch_; }
  // The coordinator stops the command. deadlocked: this rank is in a
  // deadlock the coordinator confirmed, so the messages waiting here will
  // never be received (under --check, the races they stranded are said,
  // RaceCheck::stranded); else (Ctrl-C, a timeout) nothing is said of them.
  void interrupt(bool deadlocked);
  // Under --check, reports the message races that the messages waiting
  // here stranded (RaceCheck::stranded): only for a rank in a confirmed
  // deadlock, whose unreceived messages never will be received.
  void say_stranded_races();
  bool interrupted() const { return interrupted_; }
  // The wait numbered `serial` (wait_serial()) can never be met (the
  // coordinator's deadlock watch: repl/view/deadlock.hpp wait_failures).
  // That wait raises `e`, named after its call; nothing happens if the rank
  // is in another wait by now.
  void fail_wait(uint64_t serial, Error e);
  void discard_epoch(uint32_t epoch);
  void mark_dead(int world_rank);
  bool is_dead(int world_rank) const { return dead_.count(world_rank) != 0; }
  // Throws Error(ProcFailed) if a rank in what.needs or what.group has died
  // (wait() checks it each round; Request::test() too, so polling fails alike).
  void check_peers(const Waiting& what) const;

  // ---- checking (docs/checking.md) ----
  // --check: the full checks, which may cost messages of their own.
  bool checking() const { return checking_; }
  void set_checking(bool on) { checking_ = on; }
  // A check fired: its class ("collective-mismatch") and message go to the
  // sink the rank host sets (the coordinator counts and reports them); the
  // caller then raises its MPI error as usual.
  using CheckSink = std::function<void(const std::string& check_class, const std::string& text)>;
  void on_check_report(CheckSink sink) { check_sink_ = std::move(sink); }
  // A report made while the passive thread serves a window (a conflict it
  // saw) waits for the application thread's next progress: the sink writes
  // to the host's control channel, which only that thread touches.
  void report_check(const std::string& check_class, const std::string& text) {
    if (serving_passive_) deferred_reports_.push_back({check_class, text});
    else if (check_sink_) check_sink_(check_class, text);
  }
  // --check: the type signatures (MPI-3.1 §3.3.1) of the point-to-point
  // call under way, set by the C API (the only door that knows them): the
  // next point-to-point send carries `send` with its message
  // (Comm::post_send takes it), the next point-to-point receive posted
  // compares `recv` with the message it gets (Comm::irecv takes it). The
  // setter clears both when its call returns (CallSignatures::Scope).
  struct CallSignatures {
    WireSig send, recv;
    struct Scope {
      Engine& e;
      ~Scope() { e.call_signatures() = {}; }
    };
  };
  CallSignatures& call_signatures() { return call_sigs_; }
  // --check: a receive from ANY_SOURCE on the point-to-point lane completed
  // (Request), or a receive that names its source took e; a message race
  // either settles as real is reported (core/engine/race.hpp).
  void note_wildcard(WildcardMatch m);
  void note_named_receive(const Envelope& e);
  // A probe from ANY_SOURCE of the user's point-to-point lane is numbered
  // with the wildcard receives when it finds a message (one that finds
  // nothing is not counted, so polling does not shift the numbers):
  // probe_source is the source LUMPI_RACE fixes for the next number
  // (ANY_SOURCE: none), count_wildcard_probe takes that number.
  int probe_source() const;
  uint64_t count_wildcard_probe() { return ++wildcard_posts_; }

  // ---- tracing (core/base/trace.hpp) ----
  // The Lamport clock: every send carries it (Envelope::clock); every
  // arrival advances it past the sender's.
  uint64_t clock() const { return clock_; }
  // The largest clock among the messages this rank's program has been
  // shown: those a receive or probe matched, and the acknowledgements of
  // its synchronous sends; not a message that merely arrived, nor the
  // one-sided traffic a target serves on its program's behalf (core/rma
  // adds the synchronizations among it with see_clock: a lock's grant, a
  // post, a complete). An event that MPI orders after another rank's
  // event of clock C has seen more than C (core/rma/win_check.hpp).
  uint64_t seen_clock() const { return seen_; }
  void see_clock(uint64_t clock) { seen_ = std::max(seen_, clock); }
  Tracer& tracer() { return tracer_; }
  // True while events are recorded; one test of a bool when off.
  bool tracing() const { return tracer_.on(); }
  // Records an event at a fresh clock tick (call only when tracing()).
  void trace(TraceEvent e);
  // The same for a message that arrived (Recv, Probe): its sender, tag,
  // send clock and size, on `context` (a context base), under `call`.
  void trace_arrival(TraceEvent::Kind k, const Message& m, uint64_t context, std::string call);

  // One-sided communication (core/rma/win.cpp): messages of kind Rma whose
  // context is `id` go to `service`, from whichever loop progresses the
  // engine: a blocked wait, or the rank host's idle loop (so a passive
  // target answers while its user sits at the prompt). They bypass the
  // Matcher and the interrupt epochs (a lock must be released even after
  // the command that took it was interrupted). Rma messages for an id
  // with no service are dropped with a note on stderr.
  // While a service exists and passive progress is enabled, a second
  // thread serves Rma messages whenever the application thread is outside
  // MPI (core/engine/passive.cpp).
  using RmaService = std::function<void(Message&)>;
  void serve_rma(uint64_t id, RmaService service);
  void stop_rma(uint64_t id);  // (its description too)
  // :queue's one-sided lines: what each window's operations still wait for,
  // as the window describes it (core/rma; peer: a world rank).
  struct PendingRma {
    uint64_t id;  // the window's
    int peer;
    std::string what;
  };
  void describe_rma(uint64_t id, std::function<std::vector<PendingRma>()> describe);
  std::vector<PendingRma> pending_rma() const;

  // Passive-target progress (core/engine/passive.cpp): the calling thread
  // (the application's, which enters MPI through the doors' InMpi) takes
  // this engine's CallLock at every entry, and windows then get a thread
  // that serves their messages while that thread computes outside MPI;
  // messages of other kinds it reads wait for the application thread's
  // next progress, in order. disable (finalize, on that same thread) stops
  // the thread, and the calling thread's doors take no lock any more: the
  // handles a program drops at its exit, after the engine is gone, find
  // nothing to take.
  void enable_passive_progress();
  void disable_passive_progress();

  // A fresh context base, unique in the job: creator's rank and a counter.
  uint64_t propose_context();
  // Communicator names by context base, for the message-queue display
  // (Comm::set_name records them; "" if none was given or the communicator
  // is gone). Held weakly, so a freed communicator's name goes with it.
  void name_context(uint64_t base, std::shared_ptr<const std::string> name);
  std::string context_name(uint64_t base) const;

 private:
  void found_race(const Race& r);
  void send_deferred_reports();
  void deliver(Message m);
  void acknowledge(int source, uint64_t seq);
  // A control message about point-to-point send `seq` (an ack, a cancel and
  // its answer; `tag` carries the answer), with no body.
  void send_control(int dest, MsgKind kind, uint64_t seq, int32_t tag = 0);
  void answer_cancel(int source, uint64_t seq);
  void receive_available();
  // The next data message from the socket, or nullopt when none waits
  // (malformed ones are dropped with a note).
  std::optional<Message> next_message();
  // Delivers what the passive thread set aside, in arrival order.
  void deliver_deferred();
  void start_passive_thread();
  void stop_passive_thread();
  void passive_loop();
  void serve_passive();
  // Asks the transport for data input for up to budget_us, yielding
  // between asks; true as soon as data input is ready (see wait()).
  bool spin_for_input(int budget_us);
  void block_until(const std::function<bool()>& done, const Waiting& what);
  void check_abort(const Waiting& what);
  void run_background();

  int rank_, size_;
  std::unique_ptr<Transport> transport_;
  Matcher matcher_;
  RaceCheck races_;
  uint64_t wildcard_posts_ = 0;      // the user's receives from ANY_SOURCE posted so far
  std::map<uint64_t, int> replay_;    // LUMPI_RACE's choices for this rank (race.hpp's replay)
  std::set<uint64_t> acks_;
  std::set<uint64_t> unordered_acks_;  // unordered_ack
  std::map<uint64_t, bool> cancel_answers_;
  std::set<uint32_t> discarded_epochs_;
  std::set<int> dead_;
  std::map<uint64_t, std::weak_ptr<const std::string>> context_names_;
  std::map<uint64_t, RmaService> rma_services_;
  std::map<uint64_t, std::function<std::vector<PendingRma>()>> rma_describers_;
  size_t prune_names_at_ = 64;
  uint64_t seq_ = 0;
  uint64_t clock_ = 0;
  uint64_t seen_ = 0;  // seen_clock
  Tracer tracer_;
  uint64_t context_counter_ = 0;
  uint32_t epoch_ = 0;
  bool interrupted_ = false;
  bool deadlocked_ = false;  // with interrupted_: a deadlock's interrupt
  std::optional<std::pair<uint64_t, Error>> failed_wait_;  // fail_wait's serial and error
  const Waiting* blocked_ = nullptr;
  std::unique_ptr<PollStreak> poll_;
  uint64_t wait_serial_ = 0;
  std::vector<uint64_t> sent_to_, received_from_;
  int notice_ms_ = 0;
  WaitNotice notice_;
  bool checking_ = false;
  CallSignatures call_sigs_;
  CheckSink check_sink_;
  std::vector<std::function<bool()>> background_;
  bool in_background_ = false;

  // ---- passive-target progress (passive.cpp) ----
  std::shared_ptr<CallLock> call_lock_ = std::make_shared<CallLock>();
  bool passive_enabled_ = false;
  std::thread passive_;
  std::atomic<bool> passive_stop_{false};
  int passive_wake_fd_ = -1;           // an eventfd that ends the thread's sleep
  std::deque<Message> deferred_;       // read by the passive thread, not its to serve
  bool serving_passive_ = false;       // the passive thread serves (under the call lock)
  std::vector<std::pair<std::string, std::string>> deferred_reports_;  // its check reports
};

}  // namespace lumpi::core
