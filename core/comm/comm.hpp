// core/comm/comm.hpp: communicators: groups plus contexts, and what runs on them.
//
// A Comm is an intra- or intercommunicator: the local group (and the remote
// group of an intercommunicator) as COMM_WORLD ranks, one context base unique
// in the job, a name, info hints, an optional topology. Point-to-point
// operations live here; collectives in core/coll/coll.hpp, constructors in
// core/comm/comm_create.hpp. Every public operation validates all its arguments
// first (raising core::Error naming the bad one) and only then communicates.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/base/constants.hpp"
#include "core/engine/engine.hpp"
#include "core/base/errhandler.hpp"
#include "core/comm/group.hpp"
#include "core/engine/request.hpp"
#include "core/topo/topo.hpp"

namespace lumpi::core {

struct Topology {
  enum class Kind { Cart, Graph, DistGraph } kind;
  topo::Cart cart;
  topo::Graph graph;
  topo::DistGraph dist;
};

// A received message: its body bytes and status; a matched one (MPI_Mprobe)
// also the sender's type signature under --check, for its MPI_Mrecv.
struct Received {
  Body body;
  Status status;
  WireSig sig;
};

class Comm;
using CommPtr = std::shared_ptr<Comm>;

// The context bases of the two predefined communicators; every other base
// is agreed by a constructor from Engine::propose_context (above 2^32).
inline constexpr uint64_t kWorldBase = 1;
inline constexpr uint64_t kSelfBase = 2;

class Comm {
 public:
  Comm(Engine& e, uint64_t base, group::Members local, group::Members remote, bool inter);
  Comm(const Comm&) = delete;
  Comm& operator=(const Comm&) = delete;

  static CommPtr world(Engine& e);
  static CommPtr self(Engine& e);

  // ---- accessors (local) ----
  Engine& engine() const { return *engine_; }
  uint64_t base() const { return base_; }
  uint64_t context(Lane lane) const { return context_of(base_, lane); }
  int size() const { return int(local_.size()); }
  int rank() const { return rank_; }
  bool is_inter() const { return inter_; }
  int remote_size() const { return int(remote_.size()); }
  // The number of ranks point-to-point reaches: remote_size() on an
  // intercommunicator, else size(); one block each in scatter or alltoall.
  int peer_size() const { return int(peer_group().size()); }
  const group::Members& local_group() const { return local_; }
  const group::Members& remote_group() const { return remote_; }
  // The group point-to-point ranks refer to: remote for inter, local for intra.
  const group::Members& peer_group() const { return inter_ ? remote_ : local_; }
  const std::string& name() const { return name_; }
  void set_name(std::string n) {
    name_ = std::move(n);
    shared_name_ = std::make_shared<const std::string>(name_);
    engine_->name_context(base_, shared_name_);
  }
  std::map<std::string, std::string>& info() { return info_; }
  const std::map<std::string, std::string>& info() const { return info_; }
  const Errhandler& errhandler() const { return errhandler_; }
  void set_errhandler(Errhandler h) { errhandler_ = std::move(h); }
  const std::shared_ptr<const Topology>& topology() const { return topo_; }
  void set_topology(std::shared_ptr<const Topology> t) { topo_ = std::move(t); }
  bool freed() const { return freed_; }
  void mark_freed() { freed_ = true; }
  // A number unique to this object in the process, never reused: the key of
  // per-communicator caches (attributes) that must never see a stale entry.
  uint64_t serial() const { return serial_; }
  // MPI_Comm_idup: the communicator exists before its context is agreed; it
  // is pending (unusable, check_usable raises) until complete_pending().
  bool pending() const { return pending_; }
  void set_pending() { pending_ = true; }
  void complete_pending(uint64_t base) {
    base_ = base, pending_ = false;
    if (shared_name_) engine_->name_context(base_, shared_name_);
  }
  // "comm 'name' size=4 rank=1 intra"
  std::string describe() const;

  // ---- argument checks: raise core::Error naming the argument ----
  void check_usable(std::string_view func) const;
  // A send's arguments: usable, dest a rank or PROC_NULL, tag in 0..TAG_UB.
  void check_send(int dest, int tag, std::string_view func) const;
  void check_source(int source, std::string_view func) const;  // also ANY_SOURCE
  static void check_send_tag(int tag, std::string_view func);
  static void check_recv_tag(int tag, std::string_view func);  // also ANY_TAG
  void check_root(int root, std::string_view func) const;      // ROOT/PROC_NULL on inter
  // MPI_ERR_COMM naming the argument `arg` if this is an intercommunicator.
  void check_intra(std::string_view func, std::string_view arg = "comm") const;
  // For rooted collectives (root already checked): true on the process
  // whose data is the root's, the root of an intracommunicator or the
  // process passing MPI_ROOT on an intercommunicator.
  bool is_root(int root) const { return inter_ ? root == ROOT : root == rank_; }
  // For rooted collectives (root already checked): true on every process
  // with a part of its own to give to or get from the root: every member of
  // an intracommunicator (the root too), the remote group's members of an
  // intercommunicator (the root's group passes ROOT or PROC_NULL).
  bool takes_part(int root) const { return !inter_ || root >= 0; }
  // World rank of peer-group rank r, and back (UNDEFINED if absent).
  int world_of(int r) const { return peer_group()[size_t(r)]; }
  int peer_rank_of_world(int world) const;

  // ---- point-to-point (user lane) ----
  // Under --check a standard send (neither synchronous nor `buffered`, as
  // MPI_Bsend is) is synchronous: MPI allows no buffering at all (MPI-3.1
  // §3.5), so a program that works only because sends are eager deadlocks
  // visibly instead of passing (docs/checking.md).
  void send(Body body, int dest, int tag, bool synchronous = false, bool buffered = false);
  RequestPtr isend(Body body, int dest, int tag, bool synchronous = false, bool buffered = false);
  Received recv(int source, int tag);
  RequestPtr irecv(int source, int tag);
  std::optional<Status> iprobe(int source, int tag);
  Status probe(int source, int tag);
  // MPI_Improbe / MPI_Mprobe (MPI-3.1 §3.8.2): the oldest matching message,
  // taken out of the queue so that only the matched receive (MPI_Mrecv,
  // MPI_Imrecv) gets it. A PROC_NULL source gives an empty message from
  // PROC_NULL (MPI_MESSAGE_NO_PROC).
  std::optional<Received> improbe(int source, int tag);
  Received mprobe(int source, int tag);

  // ---- lanes for collectives and constructors (no argument checks) ----
  // `dest`/`source` are peer-group ranks; `local` selects the local group
  // (for the intra-group phases of intercommunicator algorithms).
  void lane_send(Lane lane, int dest, int tag, Body body, bool local = false);
  Body lane_recv(Lane lane, int source, int tag, const Waiting& what, bool local = false);
  // The same receive, posted without waiting (nonblocking collectives).
  RequestPtr lane_irecv(Lane lane, int source, int tag, const Waiting& what, bool local = false);
  // The number of the next nonblocking collective started on this
  // communicator: every member starts them in the same order (MPI-3.1
  // §5.12), so the number identifies one collective on every member.
  uint32_t next_nbc() { return nbc_count_++; }
  // The number of the next collective the --check exchange compares on
  // this communicator (core/check/coll_check.hpp), blocking or not.
  uint32_t next_checked() { return checked_count_++; }
  // --check: the verdict gate of the nonblocking collective about to start
  // here (core/check/coll_check.cpp's collective_started leaves it, for
  // that collective's number; core/coll/nbc.cpp takes it): true once the
  // verdict is in, raising a mismatch. take_check_gate returns it only to
  // the collective of that number, so a gate left by a call that failed
  // before it started is never taken by another.
  using CheckGate = std::function<bool()>;
  void set_check_gate(CheckGate g) { gate_ = {nbc_count_, std::move(g)}; }
  CheckGate take_check_gate(uint32_t nbc) {
    if (!gate_.second || gate_.first != nbc) return {};
    return std::exchange(gate_, {}).second;
  }
  Waiting waiting(std::string call, std::string role = "", int peer = 0) const;

 private:
  RequestPtr post_send(Body body, int dest, int tag, bool synchronous, bool buffered,
                       const char* call);  // arguments checked
  RequestPtr post_recv(Lane lane, int source_world, int tag, Waiting what, bool local);
  void trace_probe(const char* call, const Message& m) const;
  // What a probe from `source` (world rank source_world) waits for.
  Waiting probe_waiting(int source_world, int source, int tag, const char* call) const;
  // Blocks until a message matches (MPI_Probe, MPI_Mprobe: `call`).
  const Message* wait_probe(int source_world, int source, int tag, const char* call);
  // A probe from ANY_SOURCE that looked for `looked` (ANY_SOURCE, or the
  // source LUMPI_RACE fixed) found the message `found`: it takes its
  // wildcard number, and under --check a message race it is part of is
  // reported (core/engine/race.hpp).
  void note_wildcard_probe(int looked, const Envelope& found, int tag, const char* call);
  // The matched probe's message (wildcard: the user's source was ANY_SOURCE).
  std::optional<Received> take(int source_world, int tag, const char* call, bool wildcard);

  Engine* engine_;
  uint64_t base_;
  group::Members local_, remote_;
  bool inter_;
  int rank_;
  std::string name_;
  std::shared_ptr<const std::string> shared_name_;  // what the engine's name table holds weakly
  std::map<std::string, std::string> info_;
  Errhandler errhandler_;  // Raise
  std::shared_ptr<const Topology> topo_;
  bool freed_ = false;
  bool pending_ = false;
  uint32_t nbc_count_ = 0;
  uint32_t checked_count_ = 0;
  std::pair<uint32_t, CheckGate> gate_;
  static inline std::atomic<uint64_t> serial_counter_{0};
  uint64_t serial_ = ++serial_counter_;
};

}  // namespace lumpi::core
