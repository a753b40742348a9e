// capi/c_reduce.cpp: every reduction of the C API (MPI-3.1 §5.9-§5.11 and
// the nonblocking forms of §5.12): MPI_Reduce, MPI_Allreduce, MPI_Scan,
// MPI_Exscan, MPI_Reduce_scatter(_block), MPI_Reduce_local, MPI_Ireduce ...
// MPI_Ireduce_scatter_block, with a predefined op (core/datatype/op.hpp's
// table, MAXLOC and MINLOC on the pair types included) or a user op
// (capi/c_op.cpp), on any committed datatype.
//
// One path for all of them: the input is packed by the datatype
// (core/datatype), the core's byte collectives combine packed operands in
// rank order (core/coll) with core/coll/combine.hpp's Combine (shared with
// the C++ API), and the result is unpacked into recvbuf.
//
// MPI_IN_PLACE is allowed where the text allows it (§5.9.1-§5.11): as the
// root's sendbuf of MPI_Reduce, every process's sendbuf of the all-, scan
// and reduce-scatter forms on an intracommunicator. Anywhere else (a
// non-root of MPI_Reduce, an intercommunicator, MPI_Reduce_local, whose
// §5.9.7 has no in-place form) it is MPI_ERR_ARG, as in the other C
// collectives, raised before anything is sent.
#include <string>
#include <vector>

#include "core/coll/combine.hpp"
#include "core/coll/nbc.hpp"
#include "core/datatype/op.hpp"
#include "capi/c_check.hpp"
#include "capi/c_layout.hpp"

using namespace lumpi;
using namespace lumpi::capi;

namespace {

using core::coll::Bytes;
using core::coll::Combine;

// What a reduction combines with.
struct Reducer {
  core::TypePtr type;
  Combine combine;
  bool commutes = true;
};

// op on count elements of t: the checks of the op against the type, then
// the combine of two packed operands of equal length.
Reducer reducer(MPI_Op op, MPI_Datatype t, const char* f) {
  Reducer r{type_of(t, f), {}, true};
  r.type->check_usable(f);
  if (is_user_op(op)) {
    r.commutes = user_op_commutes(op, f);
    r.combine = core::coll::user_combine(
        [fn = user_fn(op, f), t](void* in, void* inout, int len) {
          MPI_Datatype dt = t;
          fn(in, inout, &len, &dt);
        },
        r.type, f);
    return r;
  }
  r.combine = core::coll::op_combine(predefined_op(op, f), r.type, f);
  return r;
}

// The packed input: count elements at sendbuf, or at recvbuf where sendbuf
// is MPI_IN_PLACE and `in_place` allows it.
Bytes input(const void* send, const void* recv, std::int64_t count, const core::Datatype& t, bool in_place,
            const char* f) {
  send = core::coll::reduction_input(send, recv, in_place, count, f);
  core::check_buffer(send, count, t, f, "sendbuf");
  Bytes out;
  t.pack(send, count, out, f);
  if (dense(t)) note_read_buffer(send, size_t(count * t.size()));
  return out;
}

// The input of MPI_(I)reduce: every process's on an intracommunicator (the
// root's may be in place), the other group's on an intercommunicator.
Bytes rooted_input(const core::Comm& c, const void* send, const void* recv, std::int64_t count,
                   const core::Datatype& t, int root, const char* f) {
  if (!c.is_inter()) return input(send, recv, count, t, c.is_root(root), f);
  return c.takes_part(root) && !c.is_root(root) ? input(send, recv, count, t, false, f) : Bytes();
}

void output(void* recv, std::int64_t count, const core::Datatype& t, const Bytes& b, const char* f) {
  core::check_buffer(recv, count, t, f, "recvbuf");
  if (std::int64_t(b.size()) != count * t.size())
    fail(MPI_ERR_TRUNCATE, f,
         "the result has " + std::to_string(b.size()) + " bytes where " + std::to_string(count * t.size()) +
             " were expected (counts differ between ranks)");
  buffers().landing(recv, b.size(), false);
  t.unpack(b.data(), b.size(), recv, count, f);
  buffers().landing(recv, b.size(), true);
}

core::nbc::Deliver output_later(void* recv, std::int64_t count, core::TypePtr t, const char* f) {
  if (dense(*t)) note_written_buffer(recv, size_t(count * t->size()));
  return [recv, count, t, name = std::string(f)](core::nbc::Out& o) {
    if (o.has_data) output(recv, count, *t, o.data, name.c_str());
  };
}

// ---- reduce-scatter: one input of sum(counts) elements, block i to rank i ----------------

struct Scatter {
  Reducer r;
  Bytes input;
  std::vector<size_t> sizes;  // packed bytes of each rank's block
};

Scatter scatter_args(const core::Comm& c, const void* send, void* recv, const std::vector<int>& counts,
                     MPI_Datatype t, MPI_Op op, const char* f) {
  Scatter s{reducer(op, t, f), {}, {}};
  std::int64_t total = 0;
  for (int k : counts) {
    s.sizes.push_back(size_t(k) * size_t(s.r.type->size()));
    total += k;
  }
  s.input = input(send, recv, total, *s.r.type, !c.is_inter(), f);
  core::check_buffer(recv, counts[size_t(c.rank())], *s.r.type, f, "recvbuf", "recvcounts[rank]");
  return s;
}

void reduce_scatter(const void* send, void* recv, const std::vector<int>& counts, MPI_Datatype t, MPI_Op op,
                    const core::CommPtr& c, const char* f) {
  Scatter s = scatter_args(*c, send, recv, counts, t, op, f);
  check_coll(c, {f, -1, op, side(counts[size_t(c->rank())], t), {}, true});
  Bytes mine = core::coll::reduce_scatter(*c, core::coll::cut(s.input, s.sizes), s.r.combine, s.r.commutes,
                                          c->is_inter() ? core::coll::regroup(s.sizes, f) : core::coll::Regroup(), counts);
  output(recv, counts[size_t(c->rank())], *s.r.type, mine, f);
}

MPI_Request ireduce_scatter(const void* send, void* recv, const std::vector<int>& counts, MPI_Datatype t,
                            MPI_Op op, const core::CommPtr& c, const char* f) {
  Scatter s = scatter_args(*c, send, recv, counts, t, op, f);
  check_coll(c, {f, -1, op, side(counts[size_t(c->rank())], t), {}, true}, true);
  auto into = output_later(recv, counts[size_t(c->rank())], s.r.type, f);
  return started(c, core::nbc::ireduce_scatter(c, std::move(s.input), s.r.combine, s.sizes, into, f), f);
}

int scan_call(const char* f, const void* sendbuf, void* recvbuf, int count, MPI_Datatype t, MPI_Op op,
                MPI_Comm comm, bool exclusive) {
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    intra(comm, f);
    check_count(count, f);
    Reducer r = reducer(op, t, f);
    Bytes in = input(sendbuf, recvbuf, count, *r.type, true, f);
    check_coll(c, {f, -1, op, side(count, t), {}});
    if (!exclusive) return output(recvbuf, count, *r.type, core::coll::scan(*c, std::move(in), r.combine), f);
    auto out = core::coll::exscan(*c, std::move(in), r.combine);
    if (out) output(recvbuf, count, *r.type, *out, f);
  });
}

int iscan_call(const char* f, const void* sendbuf, void* recvbuf, int count, MPI_Datatype t, MPI_Op op,
                 MPI_Comm comm, MPI_Request* req, bool exclusive) {
  return call(comm, f, [&] {
    check_out(req, f, "request");
    core::CommPtr c = core_comm(comm, f);
    intra(comm, f);
    check_count(count, f);
    Reducer r = reducer(op, t, f);
    Bytes in = input(sendbuf, recvbuf, count, *r.type, true, f);
    check_coll(c, {f, -1, op, side(count, t), {}}, true);
    auto into = output_later(recvbuf, count, r.type, f);
    *req = started(c, exclusive ? core::nbc::iexscan(c, std::move(in), r.combine, into)
                                : core::nbc::iscan(c, std::move(in), r.combine, into), f);
  });
}

}  // namespace

extern "C" {

LUMPI_PMPI(Reduce);
int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm) {
  const char* f = "MPI_Reduce";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    c->check_root(root, f);
    check_count(count, f);
    Reducer r = reducer(op, t, f);
    const bool at_root = c->is_root(root);
    Bytes in = rooted_input(*c, sendbuf, recvbuf, count, *r.type, root, f);
    check_coll(c, {f, root, op, side(count, t), {}});
    auto out = core::coll::reduce(*c, std::move(in), r.combine, r.commutes, root);
    if (at_root && out) output(recvbuf, count, *r.type, *out, f);
  });
}

LUMPI_PMPI(Allreduce);
int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  const char* f = "MPI_Allreduce";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    check_count(count, f);
    Reducer r = reducer(op, t, f);
    Bytes in = input(sendbuf, recvbuf, count, *r.type, !c->is_inter(), f);
    check_coll(c, {f, -1, op, side(count, t), {}});
    output(recvbuf, count, *r.type, core::coll::allreduce(*c, std::move(in), r.combine, r.commutes), f);
  });
}

LUMPI_PMPI(Scan);
int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  return scan_call("MPI_Scan", sendbuf, recvbuf, count, t, op, comm, false);
}

LUMPI_PMPI(Exscan);
int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  return scan_call("MPI_Exscan", sendbuf, recvbuf, count, t, op, comm, true);
}

LUMPI_PMPI(Reduce_scatter_block);
int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype t, MPI_Op op,
                             MPI_Comm comm) {
  const char* f = "MPI_Reduce_scatter_block";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    check_count(recvcount, f, "recvcount");
    reduce_scatter(sendbuf, recvbuf, std::vector<int>(size_t(c->size()), recvcount), t, op, c, f);
  });
}

LUMPI_PMPI(Reduce_scatter);
int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype t, MPI_Op op,
                       MPI_Comm comm) {
  const char* f = "MPI_Reduce_scatter";
  return call(comm, f, [&] {
    core::CommPtr c = core_comm(comm, f);
    reduce_scatter(sendbuf, recvbuf, counts_arg(recvcounts, c->size(), f, "recvcounts"), t, op, c, f);
  });
}

LUMPI_PMPI(Reduce_local);
int MPI_Reduce_local(const void* inbuf, void* inoutbuf, int count, MPI_Datatype t, MPI_Op op) {
  const char* f = "MPI_Reduce_local";
  return call(f, [&] {
    check_count(count, f);
    core::coll::check_reduce_local_buffers(inbuf, inoutbuf, f);
    Reducer r = reducer(op, t, f);
    if (count > 0) {
      check_out(inbuf, f, "inbuf");
      check_out(inoutbuf, f, "inoutbuf");
    }
    Bytes in = input(inbuf, nullptr, count, *r.type, false, f);
    Bytes inout = input(inoutbuf, nullptr, count, *r.type, false, f);
    output(inoutbuf, count, *r.type, r.combine(in, inout), f);
  });
}

// ---- nonblocking -----------------------------------------------------------------------

LUMPI_PMPI(Ireduce);
int MPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm,
                MPI_Request* req) {
  const char* f = "MPI_Ireduce";
  return call(comm, f, [&] {
    check_out(req, f, "request");
    core::CommPtr c = core_comm(comm, f);
    c->check_root(root, f);
    check_count(count, f);
    Reducer r = reducer(op, t, f);
    const bool at_root = c->is_root(root);
    Bytes in = rooted_input(*c, sendbuf, recvbuf, count, *r.type, root, f);
    check_coll(c, {f, root, op, side(count, t), {}}, true);
    auto into = at_root ? output_later(recvbuf, count, r.type, f) : core::nbc::Deliver();
    *req = started(c, core::nbc::ireduce(c, std::move(in), r.combine, r.commutes, root, into), f);
  });
}

LUMPI_PMPI(Iallreduce);
int MPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                   MPI_Request* req) {
  const char* f = "MPI_Iallreduce";
  return call(comm, f, [&] {
    check_out(req, f, "request");
    core::CommPtr c = core_comm(comm, f);
    check_count(count, f);
    Reducer r = reducer(op, t, f);
    Bytes in = input(sendbuf, recvbuf, count, *r.type, !c->is_inter(), f);
    check_coll(c, {f, -1, op, side(count, t), {}}, true);
    *req = started(c, core::nbc::iallreduce(c, std::move(in), r.combine, output_later(recvbuf, count, r.type, f)), f);
  });
}

LUMPI_PMPI(Iscan);
int MPI_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
              MPI_Request* req) {
  return iscan_call("MPI_Iscan", sendbuf, recvbuf, count, t, op, comm, req, false);
}

LUMPI_PMPI(Iexscan);
int MPI_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                MPI_Request* req) {
  return iscan_call("MPI_Iexscan", sendbuf, recvbuf, count, t, op, comm, req, true);
}

LUMPI_PMPI(Ireduce_scatter);
int MPI_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype t, MPI_Op op,
                        MPI_Comm comm, MPI_Request* req) {
  const char* f = "MPI_Ireduce_scatter";
  return call(comm, f, [&] {
    check_out(req, f, "request");
    core::CommPtr c = core_comm(comm, f);
    *req = ireduce_scatter(sendbuf, recvbuf, counts_arg(recvcounts, c->size(), f, "recvcounts"), t, op, c, f);
  });
}

LUMPI_PMPI(Ireduce_scatter_block);
int MPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype t, MPI_Op op,
                              MPI_Comm comm, MPI_Request* req) {
  const char* f = "MPI_Ireduce_scatter_block";
  return call(comm, f, [&] {
    check_out(req, f, "request");
    check_count(recvcount, f, "recvcount");
    core::CommPtr c = core_comm(comm, f);
    *req = ireduce_scatter(sendbuf, recvbuf, std::vector<int>(size_t(c->size()), recvcount), t, op, c, f);
  });
}

}  // extern "C"
