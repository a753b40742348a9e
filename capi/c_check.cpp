// capi/c_check.cpp: the C API's collectives described for --check
// (capi/c_check.hpp, core/check/coll_check.hpp).
#include "capi/c_check.hpp"

#include "core/check/coll_check.hpp"

namespace lumpi::capi {
namespace {

core::check::Sig sig_of(const Side& s, const char* f) {
  if (!s.present || s.type == MPI_DATATYPE_NULL) return {};
  return core::check::signature(*type_of(s.type, f), s.count);
}

std::string type_name(MPI_Datatype t, const char* f) {
  const std::string& n = type_of(t, f)->name();
  return n.empty() ? "a derived datatype" : n;
}

std::string op_text(MPI_Op op, const char* f) {
  if (op == MPI_OP_NULL) return "";
  return is_user_op(op) ? "a user op" : core::op_name(predefined_op(op, f));
}

// "sendcount=1, sendtype=MPI_INT, root=0, op=MPI_SUM" (what is significant here).
std::string args_text(const CollDescription& d, const std::string& op) {
  std::string s;
  auto add = [&](const std::string& part) { s += (s.empty() ? "" : ", ") + part; };
  const bool both = d.send.present && d.recv.present;
  if (d.send.present)
    add(std::string(both ? "sendcount" : "count") + (d.send.per_rank ? "s=..." : "=" + std::to_string(d.send.count)) +
        (both ? ", sendtype=" : ", datatype=") + type_name(d.send.type, d.func));
  if (d.recv.present)
    add(std::string(both ? "recvcount" : "count") + (d.recv.per_rank ? "s=..." : "=" + std::to_string(d.recv.count)) +
        (both ? ", recvtype=" : ", datatype=") + type_name(d.recv.type, d.func));
  if (d.root >= 0) add("root=" + std::to_string(d.root));
  if (!op.empty()) add("op=" + op);
  return s;
}

}  // namespace

Side side_v(const int* counts, int n, MPI_Datatype t, bool present) {
  int any = 0;
  for (int i = 0; counts && i < n; ++i) any = any || counts[i] > 0;
  return {any, t, present, true};
}

void check_coll(MPI_Comm comm, const CollDescription& d, bool nonblocking) {
  check_coll(core_comm(comm, d.func), d, nonblocking);
}

void check_coll(const core::CommPtr& c, const CollDescription& d, bool nonblocking) {
  if (!core::check::applies(*c)) return;
  core::check::CollCall call;
  call.call = d.func;
  call.root = d.root;
  call.op = op_text(d.op, d.func);
  call.args = args_text(d, call.op);
  call.send = sig_of(d.send, d.func);
  call.recv = sig_of(d.recv, d.func);
  call.per_pair = d.per_pair;
  if (nonblocking) core::check::collective_started(c, call);
  else core::check::collective(*c, call);
}

core::WireSig p2p_signature(MPI_Comm comm, const char* f, Side side, bool receive) {
  if (!checking() || !side.present) return {};
  std::string call = f;
  if (receive) call = "rank " + std::to_string(core_comm(comm, f)->rank()) + "'s " + call;
  return core::check::wire(sig_of(side, f), call);
}

P2PSignatures::P2PSignatures(MPI_Comm comm, const char* f, Side send, Side recv) {
  if (!checking()) return;
  engine_ = &core_comm(comm, f)->engine();
  engine_->call_signatures() = {p2p_signature(comm, f, send, false), p2p_signature(comm, f, recv, true)};
}

P2PSignatures::~P2PSignatures() {
  if (engine_) engine_->call_signatures() = {};
}

}  // namespace lumpi::capi
