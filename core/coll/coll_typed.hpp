// core/coll/coll_typed.hpp: the collectives on typed buffers: `count` elements of
// a predefined element type, combined with a predefined op, as MPI's C API
// has them. For benchmarks and C++ users: no Lua, no codec; buffers travel
// as raw bytes (the job's ranks share one architecture).
//
// The algorithms are those of core/coll/coll.hpp (these functions wrap them),
// except that allreduce on large vectors uses reduce_scatter + allgather
// (Rabenseifner), which sends about 2·N bytes per rank instead of N·lg p.
// On an intercommunicator, receive buffers that hold one block per rank
// hold one per *remote* rank, as in MPI. Every function checks count,
// buffers, type/op pair and root before sending anything. The reductions
// take MPI_IN_PLACE as send where MPI allows it (core/coll/layout.hpp's
// reduction_input): the input is then recv's.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "core/coll/coll.hpp"
#include "core/comm/comm.hpp"
#include "core/datatype/op.hpp"

namespace lumpi::core::coll::typed {

enum class Type { Int32, Int64, UInt8, Float, Double };
using core::Op;  // core/datatype/op.hpp: Sum..Bxor here

size_t type_size(Type t);
const char* type_name(Type t);  // "MPI_INT64_T"
// Raises MPI_ERR_OP unless op is defined on t (core/datatype/op.hpp's table).
void check_op_type(Op op, Type t, std::string_view func);

// inout[i] = in[i] op inout[i], i < count. Local.
void reduce_local(const void* in, void* inout, int count, Type t, Op op);

void bcast(Comm& c, void* buf, int count, Type t, int root);
// recv (at root) holds count elements per rank, in rank order.
void gather(Comm& c, const void* send, void* recv, int count, Type t, int root);
// send (at root) holds count elements per rank.
void scatter(Comm& c, const void* send, void* recv, int count, Type t, int root);
void allgather(Comm& c, const void* send, void* recv, int count, Type t);
// send and recv hold count elements per rank.
void alltoall(Comm& c, const void* send, void* recv, int count, Type t);

void reduce(Comm& c, const void* send, void* recv, int count, Type t, Op op, int root);
void allreduce(Comm& c, const void* send, void* recv, int count, Type t, Op op);
void scan(Comm& c, const void* send, void* recv, int count, Type t, Op op);
// recv is left untouched on rank 0.
void exscan(Comm& c, const void* send, void* recv, int count, Type t, Op op);
// send holds size()·recvcount elements; recv gets this rank's block.
void reduce_scatter_block(Comm& c, const void* send, void* recv, int recvcount, Type t, Op op);
// send holds sum(counts) elements; recv gets counts[rank()] of them.
void reduce_scatter(Comm& c, const void* send, void* recv, const std::vector<int>& counts,
                    Type t, Op op);

// ---- the checks and copies of every typed collective ------------------------------------

// Count must not be negative: "<what> -3 is negative".
void check_count(int count, const char* what, std::string_view func);
// The buffers one process of a collective reads or writes.
struct Sides {
  bool sends = true;
  bool receives = true;
};
// The checks of a typed collective before it sends, in this order: the
// communicator, count, the type/op pair (a reduction passes op), then
// sendbuf and recvbuf where `sides` uses them. Returns the bytes of count
// elements.
size_t check_args(const Comm& c, const void* send, void* recv, int count, Type t, std::optional<Op> op,
                  Sides sides, std::string_view func);
// A null buffer is an error only when it would be read or written.
void check_buffer(const void* p, int count, const char* what, std::string_view func);
Bytes bytes_of(const void* p, size_t n);
// The checks of a reduce-scatter: the
// communicator, the op on t, counts (one per rank, none negative), the
// buffers (send: sum(counts) elements, or recv's in place, which *send
// then names). Returns each rank's block in bytes.
std::vector<size_t> reduce_scatter_sizes(const Comm& c, const void*& send, void* recv,
                                         const std::vector<int>& counts, Type t, Op op, std::string_view func);
// Copies b into dst, which must hold exactly `want` bytes (MPI_ERR_TRUNCATE otherwise).
void put(void* dst, const Bytes& b, size_t want, std::string_view func);
// parts[i] into dst + i * each.
void put_all(void* dst, const std::vector<Bytes>& parts, size_t each, std::string_view func);

}  // namespace lumpi::core::coll::typed
