// core/coll/nbc_typed.cpp: the nonblocking collectives on typed buffers
// (core/coll/nbc.hpp, namespace typed): checks and copies in at the start, and a
// Deliver that copies the result out at completion, over the byte-level
// collectives of core/coll/nbc.cpp.

#include "core/coll/coll_typed.hpp"
#include "core/base/error.hpp"
#include "core/coll/layout.hpp"
#include "core/coll/nbc.hpp"

namespace lumpi::core::nbc::typed {

namespace {

using coll::typed::bytes_of;
using coll::typed::check_args;
using coll::typed::put;
using coll::typed::put_all;

std::vector<Bytes> blocks(const void* p, int k, size_t each) {
  std::vector<Bytes> out;
  for (int i = 0; i < k; ++i) out.push_back(bytes_of(static_cast<const char*>(p) + size_t(i) * each, each));
  return out;
}

// Copies the one result into buf (n bytes) where there is one.
Deliver one_into(void* buf, size_t n, std::string func) {
  return [buf, n, func](Out& o) {
    if (o.has_data) put(buf, o.data, n, func);
  };
}

Deliver all_into(void* buf, size_t each, std::string func) {
  return [buf, each, func](Out& o) {
    if (o.has_data) put_all(buf, o.parts, each, func);
  };
}

}  // namespace

RequestPtr ibcast(const CommPtr& c, void* buf, int count, Type t, int root) {
  const char* func = "MPI_Ibcast";
  c->check_root(root, func);
  coll::typed::check_count(count, "count", func);
  coll::typed::check_buffer(buf, count, "buffer", func);
  const size_t n = size_t(count) * coll::typed::type_size(t);
  const bool sends = c->is_root(root);
  const bool receives = c->takes_part(root) && !sends;
  return nbc::ibcast(c, sends ? bytes_of(buf, n) : Bytes(), root,
                     receives ? one_into(buf, n, func) : Deliver())
      .request;
}

RequestPtr igather(const CommPtr& c, const void* send, void* recv, int count, Type t, int root) {
  const char* func = "MPI_Igather";
  c->check_root(root, func);
  const bool sends = c->takes_part(root), receives = c->is_root(root);
  const size_t n = check_args(*c, send, recv, count, t, {}, {sends, receives}, func);
  return nbc::igather(c, sends ? bytes_of(send, n) : Bytes(), root, all_into(recv, n, func)).request;
}

RequestPtr iscatter(const CommPtr& c, const void* send, void* recv, int count, Type t, int root) {
  const char* func = "MPI_Iscatter";
  c->check_root(root, func);
  const bool sends = c->is_root(root), receives = c->takes_part(root);
  const size_t n = check_args(*c, send, recv, count, t, {}, {sends, receives}, func);
  std::vector<Bytes> parts;
  if (sends) parts = blocks(send, c->peer_size(), n);
  return nbc::iscatter(c, std::move(parts), root, one_into(recv, n, func)).request;
}

RequestPtr iallgather(const CommPtr& c, const void* send, void* recv, int count, Type t) {
  const char* func = "MPI_Iallgather";
  const size_t n = check_args(*c, send, recv, count, t, {}, {}, func);
  return nbc::iallgather(c, bytes_of(send, n), all_into(recv, n, func)).request;
}

RequestPtr ialltoall(const CommPtr& c, const void* send, void* recv, int count, Type t) {
  const char* func = "MPI_Ialltoall";
  const size_t n = check_args(*c, send, recv, count, t, {}, {}, func);
  return nbc::ialltoall(c, blocks(send, c->peer_size(), n), all_into(recv, n, func)).request;
}

RequestPtr ireduce(const CommPtr& c, const void* send, void* recv, int count, Type t, Op op, int root) {
  const char* func = "MPI_Ireduce";
  c->check_root(root, func);
  const bool sends = c->takes_part(root), receives = c->is_root(root);
  const size_t n = check_args(*c, send, recv, count, t, op, {sends, receives}, func);
  if (sends) send = coll::reduction_input(send, recv, receives && !c->is_inter(), func);
  return nbc::ireduce(c, sends ? bytes_of(send, n) : Bytes(), coll::typed::make_combiner(t, op, func),
                      true, root, receives ? one_into(recv, n, func) : Deliver())
      .request;
}

RequestPtr iallreduce(const CommPtr& c, const void* send, void* recv, int count, Type t, Op op) {
  const char* func = "MPI_Iallreduce";
  const size_t n = check_args(*c, send, recv, count, t, op, {}, func);
  send = coll::reduction_input(send, recv, !c->is_inter(), func);
  return nbc::iallreduce(c, bytes_of(send, n), coll::typed::make_combiner(t, op, func),
                         one_into(recv, n, func))
      .request;
}

RequestPtr iscan(const CommPtr& c, const void* send, void* recv, int count, Type t, Op op) {
  const char* func = "MPI_Iscan";
  const size_t n = check_args(*c, send, recv, count, t, op, {}, func);
  send = coll::reduction_input(send, recv, true, func);
  return nbc::iscan(c, bytes_of(send, n), coll::typed::make_combiner(t, op, func), one_into(recv, n, func))
      .request;
}

RequestPtr iexscan(const CommPtr& c, const void* send, void* recv, int count, Type t, Op op) {
  const char* func = "MPI_Iexscan";
  const size_t n = check_args(*c, send, recv, count, t, op, {true, c->rank() != 0}, func);
  send = coll::reduction_input(send, recv, true, func);
  return nbc::iexscan(c, bytes_of(send, n), coll::typed::make_combiner(t, op, func), one_into(recv, n, func))
      .request;
}

namespace {

RequestPtr ireduce_scatter_in(const CommPtr& c, const void* send, void* recv, const std::vector<int>& counts,
                              Type t, Op op, const char* func) {
  std::vector<size_t> sizes = coll::typed::reduce_scatter_sizes(*c, send, recv, counts, t, op, func);
  size_t total = 0;
  for (size_t s : sizes) total += s;
  const size_t mine = sizes[size_t(c->rank())];
  return nbc::ireduce_scatter(c, bytes_of(send, total), coll::typed::make_combiner(t, op, func), std::move(sizes),
                              one_into(recv, mine, func), func)
      .request;
}

}  // namespace

RequestPtr ireduce_scatter(const CommPtr& c, const void* send, void* recv, const std::vector<int>& counts, Type t,
                           Op op) {
  return ireduce_scatter_in(c, send, recv, counts, t, op, "MPI_Ireduce_scatter");
}

RequestPtr ireduce_scatter_block(const CommPtr& c, const void* send, void* recv, int recvcount, Type t, Op op) {
  const char* func = "MPI_Ireduce_scatter_block";
  c->check_usable(func);
  coll::typed::check_count(recvcount, "recvcount", func);
  return ireduce_scatter_in(c, send, recv, std::vector<int>(size_t(c->size()), recvcount), t, op, func);
}

}  // namespace lumpi::core::nbc::typed
