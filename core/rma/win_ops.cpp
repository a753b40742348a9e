// core/rma/win_ops.cpp: the origin's end of put and get (MPI-3.1 §11.3.1-2)
// and of their request-based forms (§11.3.5), and the checks every
// operation shares: the target's arguments, and data whose type signature
// must match the target's. The accumulate family is win_acc.cpp's; the
// target's end is win.cpp's.
#include <algorithm>
#include <typeinfo>
#include <vector>

#include "core/base/constants.hpp"
#include "core/base/error.hpp"
#include "core/rma/win_check.hpp"
#include "core/rma/win_state.hpp"

namespace lumpi::core {

using namespace rma;

namespace {

// A basic type's identity in a type signature: 1 + the first basic type
// with its C representation, so MPI_INT matches MPI_INT32_T; 0 for
// MPI_BYTE and MPI_PACKED, which match anything (as programs use them).
std::size_t sig_key(Basic b) {
  if (b == Basic::Byte || b == Basic::Packed) return 0;
  auto type_of = [](Basic x) {
    const std::type_info* t = nullptr;
    with_basic(x, [&]<class T>() { t = &typeid(T); });
    return t;
  };
  static const std::vector<std::size_t> keys = [&] {
    std::vector<std::size_t> k(static_cast<size_t>(Basic::Count_));
    for (size_t i = 0; i < k.size(); ++i) {
      k[i] = i + 1;
      for (size_t j = 0; j < i; ++j)
        if (*type_of(Basic(j)) == *type_of(Basic(i))) {
          k[i] = k[j];
          break;
        }
    }
    return k;
  }();
  return keys[size_t(b)];
}

// The one key of all of t's runs: kMixed when they differ, kNone without data.
constexpr std::size_t kNone = 1000, kMixed = 1001;
std::size_t uniform_key(const Datatype& t) {
  std::size_t key = kNone;
  for (const Run& r : t.runs()) {
    if (r.count == 0) continue;
    std::size_t k = sig_key(r.basic);
    if (key != kNone && key != k) return kMixed;
    key = k;
  }
  return key;
}

// The basic elements of count elements of a type, one run after another,
// measured in bytes.
class Signature {
 public:
  Signature(const Datatype& t, std::int64_t count) : runs_(t.runs()), count_(count) { next(); }
  bool done() const { return left_ == 0; }
  std::size_t key() const { return key_; }
  std::int64_t left() const { return left_; }
  void take(std::int64_t bytes) {
    left_ -= bytes;
    if (left_ == 0) next();
  }

 private:
  void next() {
    while (elem_ < count_) {
      if (i_ == runs_.size()) {
        i_ = 0;
        ++elem_;
        continue;
      }
      const Run& r = runs_[i_++];
      if (r.count == 0) continue;
      key_ = sig_key(r.basic);
      left_ = r.count * std::int64_t(basic_info(r.basic).size);
      return;
    }
  }
  const std::vector<Run>& runs_;
  std::int64_t count_, elem_ = 0, left_ = 0;
  std::size_t i_ = 0, key_ = 0;
};

bool same_signature(const Datatype& a, std::int64_t na, const Datatype& b, std::int64_t nb) {
  if (na * a.size() == 0) return true;  // (the sizes are equal: nothing moves)
  std::size_t ka = uniform_key(a), kb = uniform_key(b);
  if (ka == 0 || kb == 0 || ka == kNone || kb == kNone) return true;  // bytes (or no data) match anything
  if (ka != kMixed && kb != kMixed) return ka == kb;
  Signature sa(a, na), sb(b, nb);
  while (!sa.done() && !sb.done()) {
    if (sa.key() && sb.key() && sa.key() != sb.key()) return false;
    std::int64_t n = std::min(sa.left(), sb.left());
    sa.take(n);
    sb.take(n);
  }
  return sa.done() && sb.done();
}

}  // namespace

void Win::check_rank(int rank, std::string_view func) const {
  if (rank == PROC_NULL) return;
  if (rank < 0 || rank >= group_size())
    fail(ErrClass::Rank, func,
         "target rank " + std::to_string(rank) + " is out of range for a window of " + std::to_string(group_size()) +
             " ranks");
}

void Win::check_data(std::int64_t count, const TypePtr& type, std::int64_t tcount, const TypePtr& ttype,
                     std::string_view func, const char* count_name, const char* type_name) const {
  if (count < 0) fail(ErrClass::Count, func, std::string(count_name) + " = " + std::to_string(count) + " must not be negative");
  if (tcount < 0) fail(ErrClass::Count, func, "target_count = " + std::to_string(tcount) + " must not be negative");
  if (!type) fail(ErrClass::Type, func, std::string(type_name) + " is null");
  if (!ttype) fail(ErrClass::Type, func, "target_datatype is null");
  type->check_usable(func, type_name);
  ttype->check_usable(func, "target_datatype");
  if (type->size() * count != ttype->size() * tcount)
    fail(ErrClass::Type, func,
         std::string(type_name) + " carries " + std::to_string(type->size() * count) + " bytes, target_datatype " +
             std::to_string(ttype->size() * tcount) + " (the type signatures must match)");
  if (!same_signature(*type, count, *ttype, tcount))
    fail(ErrClass::Type, func,
         "the type signatures of " + std::string(type_name) + " and target_datatype differ (other basic types)");
}

bool Win::check_target(int target, std::int64_t disp, std::int64_t tcount, const TypePtr& ttype,
                       std::string_view func) const {
  check_rank(target, func);
  if (disp < 0) fail(ErrClass::Disp, func, "target_disp = " + std::to_string(disp) + " must not be negative");
  if (!state_->in_access_epoch(target))
    fail(ErrClass::RmaSync, func,
         target == PROC_NULL
             ? std::string("no access epoch: an operation on MPI_PROC_NULL needs one too (MPI-3.1 §11.3)")
             : "no access epoch to rank " + std::to_string(target) + ": call fence, lock it, or start a group holding it");
  if (target == PROC_NULL) return false;
  std::int64_t lo = 0, hi = 0;
  ttype->span(tcount, &lo, &hi);
  if (lo == hi || flavor_ == WIN_FLAVOR_DYNAMIC) return true;  // (a dynamic target checks itself)
  std::int64_t at = disp * std::int64_t(units_[size_t(target)]);
  if (at + lo < 0 || at + hi > sizes_[size_t(target)])
    fail(ErrClass::RmaRange, func,
         "target bytes [" + std::to_string(at + lo) + ", " + std::to_string(at + hi) + ") are outside rank " +
             std::to_string(target) + "'s window of " + std::to_string(sizes_[size_t(target)]) + " bytes");
  return true;
}

void Win::check_passive(int target, std::string_view func) const {
  check_usable(func);
  const bool none = target == PROC_NULL ? state_->locks.empty() && state_->null_locks == 0  // any passive epoch
                                        : target >= 0 && target < group_size() && !state_->locks.count(target);
  if (none)
    fail(ErrClass::RmaSync, func,
         target == PROC_NULL
             ? std::string("request-based operations need a passive-target epoch: lock a rank first "
                           "(an operation on MPI_PROC_NULL needs one too)")
             : "request-based operations need a passive-target epoch: lock rank " + std::to_string(target) + " first");
}

std::string Win::op_header(std::int64_t disp, int target, std::int64_t tcount, const TypePtr& ttype) const {
  Packer p;
  pack_shape(p, shape_of(disp * std::int64_t(units_[size_t(target)]), tcount, *ttype));
  if (state_->buffers) p.u64(state_->engine->seen_clock());  // --check: what the origin has seen (win_check.hpp)
  return p.take();
}

// Under --check the tag carries the epoch the operation belongs to (win_check.hpp).
void Win::send_op(int op, int target, std::string body, std::uint64_t seq, std::string_view func) {
  State& st = *state_;
  if (st.buffers) op = stamp_tag(op, st.epoch_of(target), st.fences);
  st.reply(comm_->world_of(target), op, seq, std::move(body), func);
  st.touched.insert(target);
  auto& calls = st.issued[comm_->world_of(target)];
  if (auto it = calls.find(func); it != calls.end()) ++it->second;
  else calls.emplace(func, 1);
  if (seq) st.last_answered[target] = seq;
  else st.last_answered.erase(target);
  if (st.fence == State::Fence::Issued) st.fence = State::Fence::Active;
}

// Appends count elements of type at data as a byte string (length, then
// the packed data straight into the message).
void Win::append_data(std::string& body, const void* data, std::int64_t count, const TypePtr& type,
                      std::string_view func) const {
  std::string len = Packer().u64(uint64_t(type->size() * count)).take();
  body.reserve(body.size() + len.size() + size_t(type->size() * count));  // one allocation for the data
  body += len;
  if (count > 0) type->pack(data, count, body, func);
}

std::uint64_t Win::expect(void* buf, std::int64_t count, const TypePtr& type) {
  State& st = *state_;
  std::uint64_t seq = st.engine->next_seq();
  st.awaiting.insert(seq);
  st.gets[seq] = State::PendingGet{buf, count, type};
  return seq;
}

RequestPtr Win::answered(std::uint64_t seq, std::string_view func) {
  std::shared_ptr<State> st = state_;
  Waiting w = comm_->waiting(std::string(func));
  w.group = comm_->local_group();
  std::string name(func);
  return Request::generic(*st->engine, [st, seq, name] {
    if (st->awaiting.count(seq)) return false;
    if (!st->async_error.empty()) {
      std::string why = std::move(st->async_error);
      st->async_error.clear();
      fail(st->async_class, name, why);
    }
    return true;
  }, w);
}

EpochKind Win::State::epoch_of(int target) const {
  return locks.count(target) ? EpochKind::Passive : access_open ? EpochKind::Exposure : EpochKind::Fence;
}

void Win::note_buffer(const void* buf, std::int64_t count, const TypePtr& type, int target, bool written,
                      const char* func, std::uint64_t seq) {
  State& st = *state_;
  if (!st.buffers || st.request_based) return;
  st.buffers->issued(buf, count, *type, target, written, func, seq);
  if (st.conflicts) st.conflicts->local(buf, count, *type, written, target, st.epoch_of(target), func);
}

void Win::put(const void* origin, std::int64_t count, const TypePtr& otype, int target, std::int64_t disp,
              std::int64_t tcount, const TypePtr& ttype) {
  const char* func = "MPI_Put";
  check_usable(func);
  check_data(count, otype, tcount, ttype, func, "origin_count", "origin_datatype");
  if (!check_target(target, disp, tcount, ttype, func)) return;
  note_buffer(origin, count, otype, target, false, func);
  std::string body = op_header(disp, target, tcount, ttype);
  append_data(body, origin, count, otype, func);
  send_op(kPut, target, std::move(body), 0, func);
}

void Win::get(void* origin, std::int64_t count, const TypePtr& otype, int target, std::int64_t disp,
              std::int64_t tcount, const TypePtr& ttype) {
  const char* func = "MPI_Get";
  check_usable(func);
  check_data(count, otype, tcount, ttype, func, "origin_count", "origin_datatype");
  if (!check_target(target, disp, tcount, ttype, func)) return;
  std::uint64_t seq = expect(origin, count, otype);
  note_buffer(origin, count, otype, target, true, func, seq);
  send_op(kGet, target, op_header(disp, target, tcount, ttype), seq, func);
}

RequestPtr Win::rput(const void* origin, std::int64_t count, const TypePtr& otype, int target, std::int64_t disp,
                     std::int64_t tcount, const TypePtr& ttype) {
  check_passive(target, "MPI_Rput");
  state_->request_based = true;  // (its request frees the buffer: not the epoch's to watch)
  try {
    put(origin, count, otype, target, disp, tcount, ttype);
  } catch (...) {
    state_->request_based = false;
    throw;
  }
  state_->request_based = false;
  return Request::done();  // the data is in the message: the origin buffer is free
}

RequestPtr Win::rget(void* origin, std::int64_t count, const TypePtr& otype, int target, std::int64_t disp,
                     std::int64_t tcount, const TypePtr& ttype) {
  const char* func = "MPI_Rget";
  check_passive(target, func);
  check_usable(func);
  check_data(count, otype, tcount, ttype, func, "origin_count", "origin_datatype");
  if (!check_target(target, disp, tcount, ttype, func)) return Request::done();
  std::uint64_t seq = expect(origin, count, otype);
  send_op(kGet, target, op_header(disp, target, tcount, ttype), seq, func);
  return answered(seq, func);
}

}  // namespace lumpi::core
