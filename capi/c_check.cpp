// capi/c_check.cpp: the C API's collectives described for --check
// (capi/c_check.hpp, core/check/coll_check.hpp).
#include "capi/c_check.hpp"

#include "core/check/coll_check.hpp"

namespace lumpi::capi {
namespace {

core::check::Side core_side(const Side& s, const char* f) {
  if (!s.present || s.type == MPI_DATATYPE_NULL) return {};
  if (s.per_rank) return core::check::v_side(s.counts, s.n, type_of(s.type, f));
  return {s.count, type_of(s.type, f)};
}

std::string op_text(MPI_Op op, const char* f) {
  if (op == MPI_OP_NULL) return "";
  return is_user_op(op) ? core::check::user_op_text() : core::op_name(predefined_op(op, f));
}

}  // namespace

Side side_v(const int* counts, int n, MPI_Datatype t, bool present) {
  int any = 0;
  for (int i = 0; present && counts && i < n; ++i) any = any || counts[i] > 0;
  return {any, t, present, true, present ? counts : nullptr, n};
}

void check_coll(MPI_Comm comm, const CollDescription& d, bool nonblocking) {
  check_coll(core_comm(comm, d.func), d, nonblocking);
}

void check_coll(const core::CommPtr& c, const CollDescription& d, bool nonblocking) {
  if (!core::check::applies(*c)) return;
  core::check::CollCall call = core::check::describe(d.func, d.root, op_text(d.op, d.func), core_side(d.send, d.func),
                                                     core_side(d.recv, d.func), d.per_pair);
  if (nonblocking) core::check::collective_started(c, call);
  else core::check::collective(*c, call);
}

core::WireSig p2p_signature(MPI_Comm comm, const char* f, Side side, bool receive) {
  if (!checking()) return {};
  return core::check::p2p_signature(*core_comm(comm, f), f, core_side(side, f), receive);
}

P2PSignatures::P2PSignatures(MPI_Comm comm, const char* f, Side send, Side recv) {
  if (checking()) sigs_.emplace(*core_comm(comm, f), f, core_side(send, f), core_side(recv, f));
}

}  // namespace lumpi::capi
