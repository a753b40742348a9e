// core/comm/comm_dup.cpp: MPI_Comm_dup, MPI_Comm_dup_with_info, MPI_Comm_idup and
// MPI_Comm_idup_with_info (seed §6.4.2). A duplicate keeps the group(s),
// topology and error handler of its parent, with a new context.
#include <algorithm>

#include "core/comm/comm_build.hpp"
#include "core/comm/comm_create.hpp"
#include "core/base/error.hpp"

namespace lumpi::core {
namespace {

using namespace build;

// Intra: rank 0 proposes and broadcasts. Inter: both leaders propose and
// the smaller proposal wins on both sides.
uint64_t agree_dup_base(Comm& parent, const char* func) {
  Team t = whole(parent, func);
  std::string mine = parent.rank() == 0 ? Packer().u64(parent.engine().propose_context()).take() : "";
  if (!parent.is_inter()) {
    std::string got = team_bcast(t, mine, 0, kDup);
    return Unpacker(got, func).u64();
  }
  Exchanged x = exchange_across(t, mine, kDup);
  return std::min(Unpacker(x.own, func).u64(), Unpacker(x.theirs, func).u64());
}

CommPtr dup_on(Comm& parent, uint64_t base) {
  auto c = std::make_shared<Comm>(parent.engine(), base, parent.local_group(), parent.remote_group(),
                                  parent.is_inter());
  c->set_topology(parent.topology());
  c->set_errhandler(parent.errhandler());
  return c;
}

}  // namespace

CommPtr comm_dup(Comm& parent) {
  parent.check_usable("MPI_Comm_dup");
  return dup_on(parent, agree_dup_base(parent, "MPI_Comm_dup"));
}

CommPtr comm_dup_with_info(Comm& parent, const Hints& hints) {
  parent.check_usable("MPI_Comm_dup_with_info");
  CommPtr c = dup_on(parent, agree_dup_base(parent, "MPI_Comm_dup_with_info"));
  set_hints(*c, hints);
  return c;
}

// ---- idup -----------------------------------------------------------------------------

namespace {

// The agreed base, arriving as one internal-lane message. done() raises
// LUMPI_ERR_INTERRUPTED if an interrupt abandoned the receive, so the idup
// fails instead of staying pending forever.
struct BaseRecv {
  RequestPtr recv;
  const char* func;
  bool done() const { return recv->complete(); }
  uint64_t value() const { return Unpacker(recv->body().view(), func).u64(); }
};

// Nothing blocks at call time. Intra: rank 0 proposes and sends its proposal
// to every member. Inter: the leaders send each other their proposals; each
// leader, once it has the other's, forwards the smaller to its group. The
// new communicator completes when its process's request completes (a wait
// or test that returns it complete), never before, on every process.
Idup start_idup(const CommPtr& parent_ptr, const IdupHook& before_start, const char* func) {
  Comm& parent = *parent_ptr;
  parent.check_usable(func);
  CommPtr c = dup_on(parent, 0);
  c->set_pending();
  if (before_start) before_start(c);
  Engine& e = parent.engine();
  Waiting what = parent.waiting(func);
  // A span of the trace from the call to the completion of this process's
  // part (ended by the request's test; never ended if it never completes).
  auto span = std::shared_ptr<TeamSpan>(new TeamSpan(e, what), [](TeamSpan* s) {
    s->forget();
    delete s;
  });
  auto forward = [parent_ptr](uint64_t base) {
    for (int r = 1; r < parent_ptr->size(); ++r)
      parent_ptr->lane_send(Lane::Internal, r, kIdup, Body(Packer().u64(base).take()), true);
  };
  auto expect = [&](int source_world, int tag) {
    return BaseRecv{Request::recv(e, parent.context(Lane::Internal), source_world, tag,
                                  [](int w) { return w; }, what),
                    func};
  };
  if (parent.rank() != 0) {
    BaseRecv base = expect(parent.local_group()[0], kIdup);
    auto test = [c, base, span] {
      if (!c->pending()) return true;
      if (!base.done()) return false;
      c->complete_pending(base.value());
      span->end();
      return true;
    };
    return {c, Request::generic(e, test, what)};
  }
  uint64_t proposal = e.propose_context();
  if (!parent.is_inter()) {
    // Rank 0 knows the base at once, but its communicator stays pending
    // until its request completes, as on every other rank: using it before
    // is MPI_ERR_COMM everywhere, not a race.
    forward(proposal);
    auto test = [c, proposal, span] {
      if (c->pending()) c->complete_pending(proposal), span->end();
      return true;
    };
    return {c, Request::generic(e, test, what)};
  }
  parent.lane_send(Lane::Internal, 0, kIdupLeaders, Body(Packer().u64(proposal).take()));
  BaseRecv theirs = expect(parent.remote_group()[0], kIdupLeaders);
  auto test = [c, theirs, proposal, forward, span] {
    if (!c->pending()) return true;
    if (!theirs.done()) return false;
    uint64_t base = std::min(proposal, theirs.value());
    forward(base);
    c->complete_pending(base);
    span->end();
    return true;
  };
  return {c, Request::generic(e, test, what)};
}

}  // namespace

Idup comm_idup(const CommPtr& parent, const IdupHook& before_start) {
  return start_idup(parent, before_start, "MPI_Comm_idup");
}

Idup comm_idup_with_info(const CommPtr& parent, const Hints& hints, const IdupHook& before_start) {
  auto with_hints = [&hints, &before_start](const CommPtr& c) {
    set_hints(*c, hints);
    if (before_start) before_start(c);
  };
  return start_idup(parent, with_hints, "MPI_Comm_idup_with_info");
}

}  // namespace lumpi::core
