// core/comm/comm.cpp: communicator state, argument checks and point-to-point.
#include "core/comm/comm.hpp"

#include <utility>

#include "core/base/constants.hpp"
#include "core/base/error.hpp"

namespace lumpi::core {

// ---- construction -----------------------------------------------------------

Comm::Comm(Engine& e, uint64_t base, group::Members local, group::Members remote, bool inter)
    : engine_(&e), base_(base), local_(std::move(local)), remote_(std::move(remote)),
      inter_(inter) {
  rank_ = group::rank_of(local_, e.world_rank());
}

CommPtr Comm::world(Engine& e) {
  group::Members all(size_t(e.world_size()));
  for (int i = 0; i < e.world_size(); ++i) all[size_t(i)] = i;
  auto c = std::make_shared<Comm>(e, kWorldBase, std::move(all), group::Members{}, false);
  c->set_name("MPI_COMM_WORLD");
  return c;
}

CommPtr Comm::self(Engine& e) {
  auto c = std::make_shared<Comm>(e, kSelfBase, group::Members{e.world_rank()}, group::Members{}, false);
  c->set_name("MPI_COMM_SELF");
  return c;
}

std::string Comm::describe() const {
  std::string s = "comm '" + name_ + "' size=" + std::to_string(size()) +
                  " rank=" + std::to_string(rank_);
  if (inter_) return s + " inter remote_size=" + std::to_string(remote_size());
  s += " intra";
  if (topo_) {
    switch (topo_->kind) {
      case Topology::Kind::Cart: {
        s += " topo=cart ";
        if (topo_->cart.dims.empty()) s += "0-d";
        for (size_t i = 0; i < topo_->cart.dims.size(); ++i)
          s += (i ? "x" : "") + std::to_string(topo_->cart.dims[i]);
        break;
      }
      case Topology::Kind::Graph: s += " topo=graph"; break;
      case Topology::Kind::DistGraph: s += " topo=dist_graph"; break;
    }
  }
  return s;
}

int Comm::peer_rank_of_world(int world) const { return group::rank_of(peer_group(), world); }

Waiting Comm::waiting(std::string call, std::string role, int peer) const {
  Waiting w;
  w.call = std::move(call);
  w.comm = name_;
  w.context = base_;
  w.peer_role = std::move(role);
  w.peer = peer;
  return w;
}

// ---- argument checks ---------------------------------------------------------

void Comm::check_usable(std::string_view func) const {
  if (freed_) fail(ErrClass::Comm, func, "the communicator has been freed");
  if (pending_)
    fail(ErrClass::Comm, func, "the communicator is still being created by MPI_Comm_idup; complete its request first");
}

namespace {
std::string out_of_range(const char* what, int r, int size, bool inter) {
  return std::string(what) + " rank " + std::to_string(r) + " is out of range for " +
         (inter ? "a remote group of size " : "a communicator of size ") + std::to_string(size);
}
}  // namespace

void Comm::check_send(int dest, int tag, std::string_view func) const {
  check_usable(func);
  if (dest != PROC_NULL && (dest < 0 || dest >= int(peer_group().size())))
    fail(ErrClass::Rank, func, out_of_range("destination", dest, int(peer_group().size()), inter_));
  check_send_tag(tag, func);
}

void Comm::check_source(int source, std::string_view func) const {
  check_usable(func);
  if (source == PROC_NULL || source == ANY_SOURCE) return;
  if (source < 0 || source >= int(peer_group().size()))
    fail(ErrClass::Rank, func, out_of_range("source", source, int(peer_group().size()), inter_));
}

void Comm::check_send_tag(int tag, std::string_view func) {
  if (tag < 0 || tag > TAG_UB)
    fail(ErrClass::Tag, func,
         "tag " + std::to_string(tag) + (tag == ANY_TAG ? " (MPI_ANY_TAG)" : "") +
             " is out of range 0.." + std::to_string(TAG_UB));
}

void Comm::check_recv_tag(int tag, std::string_view func) {
  if (tag == ANY_TAG) return;
  check_send_tag(tag, func);
}

void Comm::check_intra(std::string_view func, std::string_view arg) const {
  if (inter_)
    fail(ErrClass::Comm, func, std::string(arg) + " must be an intracommunicator, got an intercommunicator");
}

void Comm::check_root(int root, std::string_view func) const {
  check_usable(func);
  if (inter_) {
    if (root == ROOT || root == PROC_NULL) return;
    if (root < 0 || root >= remote_size())
      fail(ErrClass::Root, func,
           "root " + std::to_string(root) + " must be MPI_ROOT, MPI_PROC_NULL or a rank of the remote group of size " +
               std::to_string(remote_size()));
    return;
  }
  if (root < 0 || root >= size())
    fail(ErrClass::Root, func,
         "root " + std::to_string(root) + " is out of range for a communicator of size " +
             std::to_string(size()));
}

// ---- point-to-point ----------------------------------------------------------

void Comm::lane_send(Lane lane, int dest, int tag, Body body, bool local) {
  Envelope env;
  env.context = context(lane);
  env.source = engine_->world_rank();
  env.tag = tag;
  env.epoch = engine_->epoch();
  engine_->send(local ? local_[size_t(dest)] : world_of(dest), env, std::move(body));
}

RequestPtr Comm::post_recv(Lane lane, int source_world, int tag, Waiting what, bool local) {
  const group::Members* g = local ? &local_ : &peer_group();
  what.needs = source_world == ANY_SOURCE ? *g : std::vector<int>{source_world};
  what.any = source_world == ANY_SOURCE;
  std::function<int(int)> rank_of = [g](int w) { return group::rank_of(*g, w); };
  if (what.any && engine_->checking())  // the race check may keep it past this communicator's life
    rank_of = [copy = *g](int w) { return group::rank_of(copy, w); };
  return Request::recv(*engine_, context(lane), source_world, tag, std::move(rank_of), std::move(what));
}

RequestPtr Comm::lane_irecv(Lane lane, int source, int tag, const Waiting& what, bool local) {
  int w = local ? local_[size_t(source)] : world_of(source);
  Waiting collective = what;  // a death anywhere in the communicator fails it
  collective.group = local_;
  collective.group.insert(collective.group.end(), remote_.begin(), remote_.end());
  return post_recv(lane, w, tag, std::move(collective), local);
}

Body Comm::lane_recv(Lane lane, int source, int tag, const Waiting& what, bool local) {
  auto r = lane_irecv(lane, source, tag, what, local);
  r->wait();
  return std::move(r->body());
}

// send and isend check their arguments once, before post_send sends anything.
RequestPtr Comm::isend(Body body, int dest, int tag, bool synchronous, bool buffered) {
  check_send(dest, tag, synchronous ? "MPI_Issend" : "MPI_Isend");
  const char* call = synchronous ? "MPI_Ssend" : "MPI_Isend";  // what a wait on it shows
  return post_send(std::move(body), dest, tag, synchronous, buffered, call);
}

void Comm::send(Body body, int dest, int tag, bool synchronous, bool buffered) {
  const char* call = synchronous ? "MPI_Ssend" : "MPI_Send";
  check_send(dest, tag, call);
  post_send(std::move(body), dest, tag, synchronous, buffered, call)->wait();
}

// Under --check a standard send waits for its match (MPI-3.1 §3.5 allows an
// implementation to buffer nothing: a program that needs buffering
// deadlocks visibly). Its acknowledgement orders nothing MPI orders, so it
// does not advance the sender's Lamport clock (Engine::unordered_ack): a
// message race the wait would hide is still seen.
RequestPtr Comm::post_send(Body body, int dest, int tag, bool synchronous, bool buffered, const char* call) {
  if (dest == PROC_NULL) return Request::done(Status{PROC_NULL, ANY_TAG, 0, 0});
  const bool unbuffered = !synchronous && !buffered && engine_->checking();
  Envelope env;
  env.context = context(Lane::P2P);
  env.source = engine_->world_rank();
  env.tag = tag;
  env.epoch = engine_->epoch();
  env.seq = engine_->next_seq();  // names the message for MPI_Cancel
  env.wants_ack = synchronous || unbuffered;
  if (unbuffered) engine_->unordered_ack(env.seq);
  env.sig = std::exchange(engine_->call_signatures().send, {});
  Waiting what = waiting(call, "dest", dest);
  what.has_tag = true;
  what.tag = tag;
  what.needs = {world_of(dest)};
  engine_->send(world_of(dest), env, std::move(body));
  return (env.wants_ack ? Request::ssend : Request::send)(*engine_, world_of(dest), env.seq, std::move(what));
}

RequestPtr Comm::irecv(int source, int tag) {
  check_source(source, "MPI_Irecv");
  check_recv_tag(tag, "MPI_Irecv");
  if (source == PROC_NULL) return Request::done(Status{PROC_NULL, ANY_TAG, 0, 0});
  Waiting w = waiting("MPI_Recv", "source", source);
  w.has_tag = true;
  w.tag = tag;
  RequestPtr r = post_recv(Lane::P2P, source == ANY_SOURCE ? ANY_SOURCE : world_of(source), tag, w, false);
  r->expect_signature(std::exchange(engine_->call_signatures().recv, {}));
  return r;
}

Received Comm::recv(int source, int tag) {
  check_source(source, "MPI_Recv");
  check_recv_tag(tag, "MPI_Recv");
  auto r = irecv(source, tag);
  r->wait();
  return Received{std::move(r->body()), r->status(), {}};
}

std::optional<Status> Comm::iprobe(int source, int tag) {
  check_source(source, "MPI_Iprobe");
  check_recv_tag(tag, "MPI_Iprobe");
  if (source == PROC_NULL) return Status{PROC_NULL, ANY_TAG, 0, 0};
  engine_->progress(0);
  int w = source == ANY_SOURCE ? engine_->probe_source() : world_of(source);
  const Message* m = engine_->matcher().probe(context(Lane::P2P), w, tag);
  if (!m) {
    engine_->poll_failed(probe_waiting(w, source, tag, "MPI_Iprobe"));
    return std::nullopt;
  }
  engine_->poll_ended();
  engine_->see_clock(m->env.clock);  // the program knows it was sent
  if (engine_->tracing()) trace_probe("MPI_Iprobe", *m);
  if (source == ANY_SOURCE) note_wildcard_probe(w, m->env, tag, "MPI_Iprobe");
  return Status{peer_rank_of_world(m->env.source), m->env.tag, 0, m->body.size()};
}

Status Comm::probe(int source, int tag) {
  check_source(source, "MPI_Probe");
  check_recv_tag(tag, "MPI_Probe");
  if (source == PROC_NULL) return Status{PROC_NULL, ANY_TAG, 0, 0};
  int w = source == ANY_SOURCE ? engine_->probe_source() : world_of(source);
  const Message* m = wait_probe(w, source, tag, "MPI_Probe");
  return Status{peer_rank_of_world(m->env.source), m->env.tag, 0, m->body.size()};
}

Waiting Comm::probe_waiting(int w, int source, int tag, const char* call) const {
  Waiting what = waiting(call, "source", source);
  what.has_tag = true;
  what.tag = tag;
  what.needs = source == ANY_SOURCE ? peer_group() : std::vector<int>{w};
  what.any = source == ANY_SOURCE;
  return what;
}

const Message* Comm::wait_probe(int w, int source, int tag, const char* call) {
  const Waiting what = probe_waiting(w, source, tag, call);
  const Message* m = nullptr;
  engine_->wait([&] { return (m = engine_->matcher().probe(context(Lane::P2P), w, tag)) != nullptr; }, what);
  engine_->see_clock(m->env.clock);  // the program knows it was sent
  if (engine_->tracing()) trace_probe(call, *m);
  if (source == ANY_SOURCE) note_wildcard_probe(w, m->env, tag, call);
  return m;
}

// `looked`: the source the probe looked for, ANY_SOURCE unless LUMPI_RACE
// fixed it (a replayed probe is counted, not checked: it had no choice).
void Comm::note_wildcard_probe(int looked, const Envelope& found, int tag, const char* call) {
  const uint64_t number = engine_->count_wildcard_probe();
  if (!engine_->checking() || looked != ANY_SOURCE) return;
  Waiting what = waiting(call, "source", ANY_SOURCE);
  what.has_tag = true;
  what.tag = tag;
  WildcardMatch m;
  m.context = context(Lane::P2P);
  m.tag = tag;
  m.source = found.source;
  m.clock = engine_->clock();  // every later send of this process carries a larger one
  m.call = what.describe().substr(std::string_view("waiting in ").size());
  m.rank_of = [g = peer_group()](int w) { return group::rank_of(g, w); };
  m.receiver = engine_->world_rank();
  m.number = number;
  m.probe = true;
  m.taken = found;
  engine_->note_wildcard(std::move(m));
}

std::optional<Received> Comm::take(int w, int tag, const char* call, bool wildcard) {
  std::optional<Message> m = engine_->take(context(Lane::P2P), w, tag);
  if (!m) return std::nullopt;
  if (wildcard) note_wildcard_probe(w, m->env, tag, call);
  else if (engine_->checking()) engine_->note_named_receive(m->env);
  if (engine_->tracing() && std::string_view(call) == "MPI_Improbe") trace_probe(call, *m);
  Status s{peer_rank_of_world(m->env.source), m->env.tag, 0, m->body.size()};
  return Received{std::move(m->body), s, std::move(m->env.sig)};
}

std::optional<Received> Comm::improbe(int source, int tag) {
  check_usable("MPI_Improbe");
  check_source(source, "MPI_Improbe");
  check_recv_tag(tag, "MPI_Improbe");
  if (source == PROC_NULL) return Received{Body(), Status{PROC_NULL, ANY_TAG, 0, 0}, {}};
  engine_->progress(0);
  const int w = source == ANY_SOURCE ? engine_->probe_source() : world_of(source);
  std::optional<Received> m = take(w, tag, "MPI_Improbe", source == ANY_SOURCE);
  if (m) engine_->poll_ended();
  else engine_->poll_failed(probe_waiting(w, source, tag, "MPI_Improbe"));
  return m;
}

Received Comm::mprobe(int source, int tag) {
  check_usable("MPI_Mprobe");
  check_source(source, "MPI_Mprobe");
  check_recv_tag(tag, "MPI_Mprobe");
  if (source == PROC_NULL) return Received{Body(), Status{PROC_NULL, ANY_TAG, 0, 0}, {}};
  int w = source == ANY_SOURCE ? engine_->probe_source() : world_of(source);
  const Message* m = wait_probe(w, source, tag, "MPI_Mprobe");
  return *take(m->env.source, m->env.tag, "MPI_Mprobe", false);
}

void Comm::trace_probe(const char* call, const Message& m) const {
  engine_->trace_arrival(TraceEvent::Kind::Probe, m, base_, call);
}

}  // namespace lumpi::core
