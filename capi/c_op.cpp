// capi/c_op.cpp: user-defined reduction ops in the C API (MPI-3.1
// §5.9.5: MPI_Op_create, MPI_Op_free, MPI_Op_commutative) and every
// reduction run with one (MPI_Reduce_local, MPI_Reduce, MPI_Allreduce,
// MPI_Scan, MPI_Exscan, MPI_Reduce_scatter(_block) and their nonblocking
// forms dispatch here): the core's byte collectives (core/coll/coll.hpp,
// core/coll/nbc.hpp) with a Combine that calls the user's C function. The core
// keeps rank order, so a non-commutative op sees x0 op x1 op ... as MPI
// requires. Handles of user ops start at kFirstUserOp, above the
// predefined ops.
#include <cstring>
#include <vector>

#include "core/coll/nbc.hpp"
#include "capi/c_api.hpp"
#include "capi/c_user_reduce.hpp"

using namespace lumpi;
using namespace lumpi::capi;
using core::coll::Bytes;

namespace {

constexpr int kFirstUserOp = 64;

struct UserOp {
  MPI_User_function* fn = nullptr;
  bool commute = true;
};

std::vector<UserOp>& user_ops() {  // index = handle - kFirstUserOp; fn null: freed
  static std::vector<UserOp> t;
  return t;
}

const UserOp& user_op(MPI_Op op, const char* func) {
  auto& t = user_ops();
  size_t i = size_t(op - kFirstUserOp);
  if (op < kFirstUserOp || i >= t.size() || !t[i].fn)
    fail(MPI_ERR_OP, func, "op " + std::to_string(op) + " is not an op (or was freed)");
  return t[i];
}

Bytes bytes_of(const void* p, size_t n) { return n ? Bytes(static_cast<const char*>(p), n) : Bytes(); }

void put(void* dst, const Bytes& b, size_t want, const char* func) {
  if (b.size() != want)
    fail(MPI_ERR_TRUNCATE, func,
         "received " + std::to_string(b.size()) + " bytes where " + std::to_string(want) + " were expected");
  if (want) std::memcpy(dst, b.data(), want);
}

}  // namespace

namespace lumpi::capi {

bool is_user_op(MPI_Op op) { return op >= kFirstUserOp; }

bool user_op_commutes(MPI_Op op, const char* func) { return user_op(op, func).commute; }

core::coll::Combine user_combine(MPI_Op op, MPI_Datatype t, const char* func) {
  MPI_User_function* fn = user_op(op, func).fn;
  const size_t size = size_t(type_size(t, func));
  std::string name = func;
  return [fn, t, size, name](const Bytes& lower, const Bytes& higher) {
    if (lower.size() != higher.size())
      core::fail(core::ErrClass::Count, name,
                 "ranks passed different counts (" + std::to_string(lower.size() / size) + " vs " +
                     std::to_string(higher.size() / size) + " elements)");
    Bytes in = lower, out = higher;
    int len = int(lower.size() / size);
    MPI_Datatype dt = t;
    if (len > 0) fn(in.data(), out.data(), &len, &dt);
    return out;
  };
}

// ---- the reductions with a user op ---------------------------------------------------

void user_reduce_local(const void* in, void* inout, int count, MPI_Datatype t, MPI_Op op) {
  const char* f = "MPI_Reduce_local";
  check_count(count, f);
  MPI_User_function* fn = user_op(op, f).fn;
  if (count > 0) {
    check_out(in, f, "inbuf");
    check_out(inout, f, "inoutbuf");
  }
  type_size(t, f);
  int len = count;
  MPI_Datatype dt = t;
  if (len > 0) fn(const_cast<void*>(in), inout, &len, &dt);
}

void user_reduce(const void* send, void* recv, int count, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm) {
  const char* f = "MPI_Reduce";
  core::CommPtr c = core_comm(comm, f);
  c->check_root(root, f);
  check_count(count, f);
  const size_t n = size_t(count) * size_t(type_size(t, f));
  const bool sends = !c->is_inter() || root >= 0;
  if (send == MPI_IN_PLACE) send = recv;
  auto out = core::coll::reduce(*c, sends ? bytes_of(send, n) : Bytes(), user_combine(op, t, f),
                                user_op_commutes(op, f), root);
  if (out && c->is_root(root)) put(recv, *out, n, f);
}

void user_allreduce(const void* send, void* recv, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  const char* f = "MPI_Allreduce";
  core::CommPtr c = core_comm(comm, f);
  check_count(count, f);
  const size_t n = size_t(count) * size_t(type_size(t, f));
  if (send == MPI_IN_PLACE) send = recv;
  put(recv, core::coll::allreduce(*c, bytes_of(send, n), user_combine(op, t, f), user_op_commutes(op, f)), n, f);
}

void user_scan(const void* send, void* recv, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm, bool exclusive) {
  const char* f = exclusive ? "MPI_Exscan" : "MPI_Scan";
  core::CommPtr c = core_comm(comm, f);
  check_count(count, f);
  const size_t n = size_t(count) * size_t(type_size(t, f));
  if (send == MPI_IN_PLACE) send = recv;
  Bytes mine = bytes_of(send, n);
  if (!exclusive) return put(recv, core::coll::scan(*c, std::move(mine), user_combine(op, t, f)), n, f);
  auto out = core::coll::exscan(*c, std::move(mine), user_combine(op, t, f));
  if (out) put(recv, *out, n, f);
}

// counts: one per rank of the local group (the blocks this group gets).
void user_reduce_scatter(const void* send, void* recv, const std::vector<int>& counts, MPI_Datatype t, MPI_Op op,
                         MPI_Comm comm, const char* f) {
  core::CommPtr c = core_comm(comm, f);
  const size_t es = size_t(type_size(t, f));
  std::vector<size_t> sizes;
  for (int k : counts) {
    if (k < 0) fail(MPI_ERR_COUNT, f, "a count is negative (" + std::to_string(k) + ")");
    sizes.push_back(size_t(k) * es);
  }
  if (send == MPI_IN_PLACE) send = recv;
  // The input has one block per rank of the group that reduces it: this one
  // on an intracommunicator; on an intercommunicator the blocks are cut the
  // same way here, and regroup recuts the remote group's result.
  std::vector<Bytes> parts;
  size_t off = 0;
  for (size_t s : sizes) {
    parts.push_back(bytes_of(static_cast<const char*>(send) + off, s));
    off += s;
  }
  core::coll::Regroup regroup = [sizes, f](std::vector<Bytes> remote) {
    Bytes all;
    for (const Bytes& b : remote) all += b;
    std::vector<Bytes> out;
    size_t at = 0;
    for (size_t s : sizes) {
      if (at + s > all.size()) fail(MPI_ERR_COUNT, f, "the two groups' counts differ");
      out.push_back(all.substr(at, s));
      at += s;
    }
    return out;
  };
  Bytes mine = core::coll::reduce_scatter(*c, std::move(parts), user_combine(op, t, f), user_op_commutes(op, f),
                                          regroup);
  put(recv, mine, sizes[size_t(c->rank())], f);
}

Request user_nonblocking(const char* f, const void* send, void* recv, int count, MPI_Datatype t, MPI_Op op,
                         int root, MPI_Comm comm) {
  core::CommPtr c = core_comm(comm, f);
  check_count(count, f);
  const size_t n = size_t(count) * size_t(type_size(t, f));
  if (send == MPI_IN_PLACE) send = recv;
  const std::string name = f;
  core::nbc::Deliver into = [recv, n, name](core::nbc::Out& o) {
    if (o.has_data) put(recv, o.data, n, name.c_str());
  };
  core::coll::Combine comb = user_combine(op, t, f);
  core::nbc::Started s;
  if (name == "MPI_Ireduce") {
    c->check_root(root, f);
    const bool sends = !c->is_inter() || root >= 0;
    s = core::nbc::ireduce(c, sends ? bytes_of(send, n) : Bytes(), comb, user_op_commutes(op, f), root, into);
  } else if (name == "MPI_Iallreduce") {
    s = core::nbc::iallreduce(c, bytes_of(send, n), comb, into);
  } else if (name == "MPI_Iscan") {
    s = core::nbc::iscan(c, bytes_of(send, n), comb, into);
  } else {
    s = core::nbc::iexscan(c, bytes_of(send, n), comb, into);
  }
  return detail::request_of(c, s.request, f);
}

}  // namespace lumpi::capi

extern "C" {

int MPI_Op_create(MPI_User_function* user_fn, int commute, MPI_Op* op) {
  const char* f = "MPI_Op_create";
  return call(f, [&] {
    check_out(op, f, "op");
    if (!user_fn) fail(MPI_ERR_ARG, f, "user_fn is NULL");
    auto& t = user_ops();
    for (size_t i = 0; i < t.size(); ++i)
      if (!t[i].fn) {
        t[i] = UserOp{user_fn, commute != 0};
        *op = kFirstUserOp + int(i);
        return;
      }
    t.push_back(UserOp{user_fn, commute != 0});
    *op = kFirstUserOp + int(t.size()) - 1;
  });
}

int MPI_Op_free(MPI_Op* op) {
  const char* f = "MPI_Op_free";
  return call(f, [&] {
    check_out(op, f, "op");
    if (!is_user_op(*op)) fail(MPI_ERR_OP, f, "op " + std::to_string(*op) + " is predefined or null: it cannot be freed");
    user_op(*op, f);
    user_ops()[size_t(*op - kFirstUserOp)] = UserOp{};
    *op = MPI_OP_NULL;
  });
}

int MPI_Op_commutative(MPI_Op op, int* commute) {
  const char* f = "MPI_Op_commutative";
  return call(f, [&] {
    check_out(commute, f, "commute");
    if (is_user_op(op)) {
      *commute = user_op_commutes(op, f);
      return;
    }
    op_of(op, f);  // ERR_OP for MPI_OP_NULL or a number that is no op
    *commute = 1;  // every predefined op commutes
  });
}

}  // extern "C"
