// core/coll/coll_typed.cpp: typed-buffer collectives (core/coll/coll_typed.hpp) over
// the byte collectives of core/coll/coll.hpp, with element-wise combines
// instantiated per element type.
#include "core/coll/coll_typed.hpp"

#include <cstring>
#include <numeric>

#include "core/coll/coll.hpp"
#include "core/coll/combine.hpp"
#include "core/coll/layout.hpp"
#include "core/base/constants.hpp"
#include "core/base/error.hpp"

namespace lumpi::core::coll::typed {

namespace {

// Large vectors switch allreduce to reduce_scatter + allgather.
constexpr size_t kRabenseifnerBytes = 64 * 1024;

// The basic type (core/datatype/datatype.hpp) of t.
Basic basic_of(Type t) {
  constexpr Basic kBasics[] = {Basic::Int32, Basic::Int64, Basic::Uint8, Basic::Float, Basic::Double};
  return kBasics[int(t)];
}

// lo op hi over n elements of t (the predefined ops commute).
Bytes combined(Type t, Op op, const char* lo, const char* hi, size_t n) {
  Bytes out(lo, n * type_size(t));
  apply_basic(op, basic_of(t), hi, out.data(), std::int64_t(n));
  return out;
}

Combine combiner(Type t, Op op, std::string func) {
  return [t, op, func](const Bytes& lo, const Bytes& hi) {
    check_same_count(lo, hi, type_size(t), func);
    return combined(t, op, lo.data(), hi.data(), lo.size() / type_size(t));
  };
}

std::vector<Bytes> split(const void* p, const std::vector<size_t>& sizes) {
  std::vector<Bytes> out;
  size_t off = 0;
  for (size_t s : sizes) {
    out.push_back(bytes_of(static_cast<const char*>(p) + off, s));
    off += s;
  }
  return out;
}

// Intercommunicator reduce_scatter: the remote group's blocks joined and
// cut into this group's block sizes.
Regroup byte_regroup(std::vector<size_t> sizes, std::string func) {
  return [sizes, func](std::vector<Bytes> remote) {
    Bytes all;
    for (const Bytes& b : remote) all += b;
    const size_t want = std::accumulate(sizes.begin(), sizes.end(), size_t(0));
    if (all.size() != want)
      fail(ErrClass::Count, func, "the two groups' counts differ (" + std::to_string(all.size()) +
                                      " vs " + std::to_string(want) + " bytes)");
    return split(all.data(), sizes);
  };
}

}  // namespace

void check_count(int count, const char* what, std::string_view func) {
  if (count < 0)
    fail(ErrClass::Count, func, std::string(what) + " " + std::to_string(count) + " is negative");
}

void check_buffer(const void* p, int count, const char* what, std::string_view func) {
  if (!p && count > 0) fail(ErrClass::Buffer, func, std::string(what) + " is null");
}

size_t check_args(const Comm& c, const void* send, void* recv, int count, Type t, std::optional<Op> op,
                  Sides sides, std::string_view func) {
  c.check_usable(func);
  check_count(count, "count", func);
  if (op) check_op_type(*op, t, func);
  if (sides.sends) check_buffer(send, count, "sendbuf", func);
  if (sides.receives) check_buffer(recv, count, "recvbuf", func);
  return size_t(count) * type_size(t);
}

Bytes bytes_of(const void* p, size_t n) {
  return n ? Bytes(static_cast<const char*>(p), n) : Bytes();
}

void put(void* dst, const Bytes& b, size_t want, std::string_view func) {
  if (b.size() != want)
    fail(ErrClass::Truncate, func,
         "received " + std::to_string(b.size()) + " bytes where " + std::to_string(want) +
             " were expected (counts differ between ranks)");
  if (want) std::memcpy(dst, b.data(), want);
}

void put_all(void* dst, const std::vector<Bytes>& parts, size_t each, std::string_view func) {
  for (size_t i = 0; i < parts.size(); ++i) put(static_cast<char*>(dst) + i * each, parts[i], each, func);
}

size_t type_size(Type t) { return basic_info(basic_of(t)).size; }

const char* type_name(Type t) { return basic_info(basic_of(t)).name; }

void check_op_type(Op op, Type t, std::string_view func) {
  check_reduce_op(op, *Datatype::basic(basic_of(t)), func);
}

void reduce_local(const void* in, void* inout, int count, Type t, Op op) {
  const char* func = "MPI_Reduce_local";
  check_count(count, "count", func);
  check_buffer(in, count, "inbuf", func);
  check_buffer(inout, count, "inoutbuf", func);
  check_op_type(op, t, func);
  Bytes out = combined(t, op, static_cast<const char*>(in), static_cast<const char*>(inout), size_t(count));
  if (count > 0) std::memcpy(inout, out.data(), out.size());
}

// ---- data movement -----------------------------------------------------------------

void bcast(Comm& c, void* buf, int count, Type t, int root) {
  const char* func = "MPI_Bcast";
  c.check_root(root, func);
  check_count(count, "count", func);
  check_buffer(buf, count, "buffer", func);
  const size_t n = size_t(count) * type_size(t);
  Bytes out = coll::bcast(c, c.is_root(root) ? bytes_of(buf, n) : Bytes(), root);
  if (c.takes_part(root) && !c.is_root(root)) put(buf, out, n, func);
}

void gather(Comm& c, const void* send, void* recv, int count, Type t, int root) {
  const char* func = "MPI_Gather";
  c.check_root(root, func);
  const bool sends = c.takes_part(root), receives = c.is_root(root);
  const size_t n = check_args(c, send, recv, count, t, {}, {sends, receives}, func);
  std::vector<Bytes> all = coll::gather(c, sends ? bytes_of(send, n) : Bytes(), root);
  if (receives) put_all(recv, all, n, func);
}

void scatter(Comm& c, const void* send, void* recv, int count, Type t, int root) {
  const char* func = "MPI_Scatter";
  c.check_root(root, func);
  const bool sends = c.is_root(root), receives = c.takes_part(root);
  const size_t n = check_args(c, send, recv, count, t, {}, {sends, receives}, func);
  std::vector<Bytes> parts;
  if (sends) parts = split(send, std::vector<size_t>(size_t(c.peer_size()), n));
  Bytes mine = coll::scatter(c, std::move(parts), root);
  if (receives) put(recv, mine, n, func);
}

void allgather(Comm& c, const void* send, void* recv, int count, Type t) {
  const char* func = "MPI_Allgather";
  const size_t n = check_args(c, send, recv, count, t, {}, {}, func);
  put_all(recv, coll::allgather(c, bytes_of(send, n)), n, func);
}

void alltoall(Comm& c, const void* send, void* recv, int count, Type t) {
  const char* func = "MPI_Alltoall";
  const size_t n = check_args(c, send, recv, count, t, {}, {}, func);
  put_all(recv, coll::alltoall(c, split(send, std::vector<size_t>(size_t(c.peer_size()), n))), n, func);
}

// ---- reductions ----------------------------------------------------------------------

void reduce(Comm& c, const void* send, void* recv, int count, Type t, Op op, int root) {
  const char* func = "MPI_Reduce";
  c.check_root(root, func);
  const bool sends = c.takes_part(root), receives = c.is_root(root);
  const size_t n = check_args(c, send, recv, count, t, op, {sends, receives}, func);
  if (sends) send = reduction_input(send, recv, receives && !c.is_inter(), count, func);
  std::optional<Bytes> out =
      coll::reduce(c, sends ? bytes_of(send, n) : Bytes(), combiner(t, op, func), true, root);
  if (receives && out) put(recv, *out, n, func);
}

void allreduce(Comm& c, const void* send, void* recv, int count, Type t, Op op) {
  const char* func = "MPI_Allreduce";
  const size_t es = type_size(t), n = check_args(c, send, recv, count, t, op, {}, func);
  send = reduction_input(send, recv, !c.is_inter(), count, func);
  const int p = c.size();
  if (c.is_inter() || n < kRabenseifnerBytes || p <= 2 || count < p) {
    put(recv, coll::allreduce(c, bytes_of(send, n), combiner(t, op, func)), n, func);
    return;
  }
  // Rabenseifner: reduce block i onto rank i, then gather the blocks.
  std::vector<size_t> sizes(size_t(p), (size_t(count) / size_t(p)) * es);
  sizes.back() += (size_t(count) % size_t(p)) * es;
  Bytes mine = coll::reduce_scatter(c, split(send, sizes), combiner(t, op, func), true);
  std::vector<Bytes> blocks = coll::allgather(c, std::move(mine));
  size_t off = 0;
  for (size_t i = 0; i < blocks.size(); ++i) {
    put(static_cast<char*>(recv) + off, blocks[i], sizes[i], func);
    off += sizes[i];
  }
}

void scan(Comm& c, const void* send, void* recv, int count, Type t, Op op) {
  const char* func = "MPI_Scan";
  const size_t n = check_args(c, send, recv, count, t, op, {}, func);
  send = reduction_input(send, recv, true, count, func);
  put(recv, coll::scan(c, bytes_of(send, n), combiner(t, op, func)), n, func);
}

void exscan(Comm& c, const void* send, void* recv, int count, Type t, Op op) {
  const char* func = "MPI_Exscan";
  // recvbuf is looked at only where a result arrives (not on rank 0).
  const size_t n = check_args(c, send, recv, count, t, op, {true, false}, func);
  send = reduction_input(send, recv, true, count, func);
  std::optional<Bytes> out = coll::exscan(c, bytes_of(send, n), combiner(t, op, func));
  if (out) {
    check_buffer(recv, count, "recvbuf", func);
    put(recv, *out, n, func);
  }
}

namespace {

void reduce_scatter_in(Comm& c, const void* send, void* recv, const std::vector<int>& counts,
                       Type t, Op op, const char* func) {
  std::vector<size_t> sizes = reduce_scatter_sizes(c, send, recv, counts, t, op, func);
  Regroup regroup;
  if (c.is_inter()) regroup = byte_regroup(sizes, func);
  Bytes mine = coll::reduce_scatter(c, split(send, sizes), combiner(t, op, func), true, regroup, counts);
  put(recv, mine, sizes[size_t(c.rank())], func);
}

}  // namespace

std::vector<size_t> reduce_scatter_sizes(const Comm& c, const void*& send, void* recv,
                                         const std::vector<int>& counts, Type t, Op op, std::string_view func) {
  c.check_usable(func);
  check_op_type(op, t, func);
  if (int(counts.size()) != c.size())
    fail(ErrClass::Count, func,
         "counts has " + std::to_string(counts.size()) + " entries; expected " + std::to_string(c.size()));
  std::vector<size_t> sizes;
  size_t total = 0;
  for (int k : counts) {
    check_count(k, "counts entry", func);
    sizes.push_back(size_t(k) * type_size(t));
    total += size_t(k);
  }
  send = reduction_input(send, recv, !c.is_inter(), std::int64_t(total), func);
  check_buffer(send, int(total), "sendbuf", func);
  check_buffer(recv, counts[size_t(c.rank())], "recvbuf", func);
  return sizes;
}

void reduce_scatter(Comm& c, const void* send, void* recv, const std::vector<int>& counts,
                    Type t, Op op) {
  reduce_scatter_in(c, send, recv, counts, t, op, "MPI_Reduce_scatter");
}

void reduce_scatter_block(Comm& c, const void* send, void* recv, int recvcount, Type t, Op op) {
  const char* func = "MPI_Reduce_scatter_block";
  c.check_usable(func);
  check_count(recvcount, "recvcount", func);
  reduce_scatter_in(c, send, recv, std::vector<int>(size_t(c.size()), recvcount), t, op, func);
}

}  // namespace lumpi::core::coll::typed
