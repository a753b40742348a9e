// capi/c_op.cpp: user-defined reduction ops in the C API (MPI-3.1
// §5.9.5: MPI_Op_create, MPI_Op_free, MPI_Op_commutative): the table of
// the user's functions, which the reductions (capi/c_reduce.cpp) call.
// Handles of user ops start at kFirstUserOp, above the predefined ops.
#include <vector>

#include "capi/c_api.hpp"

using namespace lumpi;
using namespace lumpi::capi;

namespace {

constexpr int kFirstUserOp = 128;  // above every predefined op, MPI_NO_OP included
static_assert(MPI_REPLACE < kFirstUserOp && MPI_NO_OP < kFirstUserOp);

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

}  // namespace

namespace lumpi::capi {

bool is_user_op(MPI_Op op) { return op >= kFirstUserOp; }

bool user_op_commutes(MPI_Op op, const char* func) { return user_op(op, func).commute; }

MPI_User_function* user_fn(MPI_Op op, const char* func) { return user_op(op, func).fn; }


}  // namespace lumpi::capi

extern "C" {

LUMPI_PMPI(Op_create);
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
        note_created(core::check::Kind::Op, *op);
        return;
      }
    t.push_back(UserOp{user_fn, commute != 0});
    *op = kFirstUserOp + int(t.size()) - 1;
    note_created(core::check::Kind::Op, *op);
  });
}

LUMPI_PMPI(Op_free);
int MPI_Op_free(MPI_Op* op) {
  const char* f = "MPI_Op_free";
  return call(f, [&] {
    check_out(op, f, "op");
    if (!is_user_op(*op)) fail(MPI_ERR_OP, f, "op " + std::to_string(*op) + " is predefined or null: it cannot be freed");
    user_op(*op, f);
    user_ops()[size_t(*op - kFirstUserOp)] = UserOp{};
    note_freed(core::check::Kind::Op, *op);
    *op = MPI_OP_NULL;
  });
}

LUMPI_PMPI(Op_commutative);
int MPI_Op_commutative(MPI_Op op, int* commute) {
  const char* f = "MPI_Op_commutative";
  return call(f, [&] {
    check_out(commute, f, "commute");
    if (is_user_op(op)) {
      *commute = user_op_commutes(op, f);
      return;
    }
    if (op == MPI_OP_NULL) fail(MPI_ERR_OP, f, "op is MPI_OP_NULL");
    if ((op < MPI_SUM || op > MPI_MINLOC) && op != MPI_REPLACE && op != MPI_NO_OP)
      fail(MPI_ERR_OP, f, "op " + std::to_string(op) + " is not an op");
    *commute = 1;  // every predefined op commutes
  });
}

}  // extern "C"
