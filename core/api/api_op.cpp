// core/api/api_op.cpp: lumpi::Op, the reduction operations of the C++ API
// (MPI-3.1 §5.9; §16's MPI::Op): the predefined ops (core/datatype/op.hpp
// applies them, with its table of which op takes which type), user-defined
// ops (Init, Free: §5.9.5), Reduce_local, and the Combine every reduction of
// this API uses (core/coll/combine.hpp, shared with the C API).
//
// An op is a number: the predefined ones are 1 + their core::Op (OP_NULL is
// 0), user ops take numbers from kFirstUserOp on, never reused, so a copy
// of a freed op's handle is known as freed. The table of user functions is
// shared by the process's ranks (threads in the unit tests) and locked.
#include <mutex>

#include "core/api/api_detail.hpp"

namespace lumpi {

using detail::Access;

namespace {

constexpr int kFirstUserOp = 128;
static_assert(int(core::Op::Count_) < kFirstUserOp);

constexpr Op predefined(core::Op o) { return Access::op(1 + int(o)); }

struct UserOp {
  User_function fn;  // empty: freed
  bool commute = true;
};

struct UserOps {
  std::mutex lock;
  std::vector<UserOp> ops;  // index = id - kFirstUserOp
};

UserOps& user_ops() {
  static UserOps* t = new UserOps;
  return *t;
}

UserOp user_op(const Op& op, std::string_view func) {
  UserOps& t = user_ops();
  std::lock_guard<std::mutex> g(t.lock);
  const size_t i = size_t(op.Id() - kFirstUserOp);
  if (op.Id() < kFirstUserOp || i >= t.ops.size())
    detail::fail(ERR_OP, func, "op " + std::to_string(op.Id()) + " is not an op");
  if (!t.ops[i].fn) detail::fail(ERR_OP, func, "op has been freed");
  return t.ops[i];
}

}  // namespace

extern const Op OP_NULL = Op();
extern const Op SUM = predefined(core::Op::Sum), PROD = predefined(core::Op::Prod), MAX = predefined(core::Op::Max),
                MIN = predefined(core::Op::Min), LAND = predefined(core::Op::Land), LOR = predefined(core::Op::Lor),
                LXOR = predefined(core::Op::Lxor), BAND = predefined(core::Op::Band), BOR = predefined(core::Op::Bor),
                BXOR = predefined(core::Op::Bxor), MAXLOC = predefined(core::Op::Maxloc),
                MINLOC = predefined(core::Op::Minloc), REPLACE = predefined(core::Op::Replace),
                NO_OP = predefined(core::Op::NoOp);

namespace detail {

std::optional<core::Op> predefined_op(const Op& op, std::string_view func) {
  if (op.Is_null()) fail(ERR_OP, func, "op is OP_NULL");
  if (op.Id() > 0 && op.Id() <= int(core::Op::Count_)) return core::Op(op.Id() - 1);
  user_op(op, func);  // ERR_OP unless a live user op
  return std::nullopt;
}

Reducer reducer(const Op& op, const Datatype& t, std::string_view func) {
  Reducer r{usable_type(t, func), {}, true};
  const std::string f(func);
  if (auto o = predefined_op(op, func)) {
    if (*o == core::Op::Replace || *o == core::Op::NoOp)
      fail(ERR_OP, func, op.Get_name() + " is for the accumulate family only, not reductions");
    r.combine = guarded([&] { return core::coll::op_combine(*o, r.type, f); });
    return r;
  }
  UserOp u = user_op(op, func);
  r.commutes = u.commute;
  r.combine = core::coll::user_combine([fn = u.fn, t](void* in, void* inout, int len) { fn(in, inout, len, t); },
                                       r.type, f);
  return r;
}

}  // namespace detail

void Op::Init(User_function function, bool commute) {
  const char* f = "MPI_Op_create";
  if (!function) detail::fail(ERR_ARG, f, "function is empty");
  UserOps& t = user_ops();
  std::lock_guard<std::mutex> g(t.lock);
  t.ops.push_back(UserOp{std::move(function), commute});
  *this = Access::op(kFirstUserOp + int(t.ops.size()) - 1);
  detail::note_made(core::check::Kind::Op, id_, f);
}

void Op::Free() {
  const char* f = "MPI_Op_free";
  if (detail::predefined_op(*this, f)) detail::fail(ERR_OP, f, "cannot free the predefined op " + Get_name());
  UserOps& t = user_ops();
  {
    std::lock_guard<std::mutex> g(t.lock);
    t.ops[size_t(id_ - kFirstUserOp)].fn = nullptr;
  }
  detail::note_gone(core::check::Kind::Op, id_);
  *this = OP_NULL;
}

bool Op::Is_commutative() const {
  const char* f = "MPI_Op_commutative";
  return detail::predefined_op(*this, f) ? true : user_op(*this, f).commute;
}

std::string Op::Get_name() const {
  if (id_ == 0) return "MPI_OP_NULL";
  if (id_ <= int(core::Op::Count_)) return core::op_name(core::Op(id_ - 1));
  return "user op " + std::to_string(id_ - kFirstUserOp);
}

// The typed collectives' reduce_local where they take the type and op, else
// the reduction's Combine on the packed operands. Neither buffer may be
// IN_PLACE (§5.9.7), as in MPI_Reduce_local.
void Op::Reduce_local(const void* inbuf, void* inoutbuf, int count, const Datatype& type) const {
  const char* func = "MPI_Reduce_local";
  namespace typed = core::coll::typed;
  detail::guarded([&] {
    core::coll::check_reduce_local_buffers(inbuf, inoutbuf, func);
    auto o = detail::predefined_op(*this, func);
    if (detail::typed_type(type) && o && *o <= core::Op::Bxor) {
      typed::Op op = detail::typed_op(*this, type, func);
      return typed::reduce_local(inbuf, inoutbuf, count, detail::typed_type(type, func), op);
    }
    detail::Reducer r = detail::reducer(*this, type, func);
    core::TypedBuffer in = detail::typed_bytes(inbuf, count, type, func, "inbuf");
    core::TypedBuffer inout = detail::typed_bytes(inoutbuf, count, type, func, "inoutbuf");
    core::coll::Bytes lower(in.pack(func), in.size());
    core::coll::Bytes out = r.combine(lower, core::coll::Bytes(inout.pack(func), inout.size()));
    r.type->unpack(out.data(), out.size(), inoutbuf, count, func);
  });
}

}  // namespace lumpi
