// core/coll/combine.hpp: how a reduction of any door combines two packed
// operands (the Combine of core/coll/coll.hpp) for a datatype and an op,
// and how reduce-scatter cuts its packed vector into blocks.
//
// The rules: both operands hold the same number of elements of the type
// in its packed form (MPI_ERR_COUNT naming the two counts otherwise: the
// ranks passed different counts); a predefined op is applied by
// core/datatype/op.hpp on the packed elements (checked on the type first:
// MPI_ERR_OP, MPI_ERR_TYPE); a user function (§5.9.5) is called on the
// packed bytes where the type is dense, else on copies laid out as the
// type says (the function's contract is the memory layout), as
// inoutvec = invec op inoutvec, invec the lower ranks'.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "core/coll/coll.hpp"
#include "core/datatype/datatype.hpp"
#include "core/datatype/op.hpp"

namespace lumpi::core::coll {

// A user's function: inout[i] = in[i] op inout[i] for `len` elements.
using UserFunction = std::function<void(void* in, void* inout, int len)>;

// The Combine of predefined op on t; raises at once when op is not defined on t.
Combine op_combine(Op op, TypePtr t, const std::string& func);
Combine user_combine(UserFunction fn, TypePtr t, const std::string& func);
// MPI_ERR_COUNT naming func unless two packed operands of elements of
// `each` bytes hold as many elements: the ranks passed different counts.
void check_same_count(const Bytes& lower, const Bytes& higher, size_t each, std::string_view func);

// Reduce-scatter's blocks: `all` cut into consecutive parts of sizes[i] bytes.
std::vector<Bytes> cut(const Bytes& all, const std::vector<size_t>& sizes);
// Intercommunicator reduce-scatter (§5.10.1): the remote group's reduced
// blocks joined and cut into this group's sizes; MPI_ERR_COUNT when the two
// groups' totals differ.
Regroup regroup(std::vector<size_t> sizes, const std::string& func);

}  // namespace lumpi::core::coll
