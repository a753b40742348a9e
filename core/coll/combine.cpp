// core/coll/combine.cpp: the Combine of a reduction for a type and an op
// (core/coll/combine.hpp states the rules).
#include "core/coll/combine.hpp"

#include "core/base/error.hpp"
#include "core/datatype/typed_buffer.hpp"

namespace lumpi::core::coll {
namespace {

// fn on two packed operands, laid out in memory as t says where t has holes.
Bytes apply_user(const UserFunction& fn, const Datatype& t, const Bytes& lower, Bytes higher, const std::string& f) {
  int len = t.size() > 0 ? int(higher.size() / size_t(t.size())) : 0;
  if (len == 0) return higher;
  Bytes in = lower;
  if (dense(t)) {
    fn(in.data(), higher.data(), len);
    return higher;
  }
  std::int64_t lo = 0, hi = 0;
  t.span(len, &lo, &hi);
  std::string a(size_t(hi - lo), '\0'), b(size_t(hi - lo), '\0');
  char* pa = a.data() - lo;  // the element layout's origin: bytes [lo, hi) are the copies
  char* pb = b.data() - lo;
  t.unpack(in.data(), in.size(), pa, len, f);
  t.unpack(higher.data(), higher.size(), pb, len, f);
  fn(pa, pb, len);
  Bytes out;
  t.pack(pb, len, out, f);
  return out;
}

}  // namespace

void check_same_count(const Bytes& lower, const Bytes& higher, size_t each, std::string_view func) {
  if (lower.size() == higher.size()) return;
  each = each > 0 ? each : 1;
  fail(ErrClass::Count, func,
       "ranks passed different counts (" + std::to_string(lower.size() / each) + " vs " +
           std::to_string(higher.size() / each) + " elements)");
}

Combine op_combine(Op op, TypePtr t, const std::string& func) {
  check_reduce_op(op, *t, func);
  return [op, t = std::move(t), func](const Bytes& lower, const Bytes& higher) {
    check_same_count(lower, higher, size_t(t->size()), func);
    Bytes out = higher;
    if (t->size() > 0) apply_packed(op, *t, lower.data(), out.data(), std::int64_t(out.size()) / t->size());
    return out;
  };
}

Combine user_combine(UserFunction fn, TypePtr t, const std::string& func) {
  return [fn = std::move(fn), t = std::move(t), func](const Bytes& lower, const Bytes& higher) {
    check_same_count(lower, higher, size_t(t->size()), func);
    return apply_user(fn, *t, lower, higher, func);
  };
}

std::vector<Bytes> cut(const Bytes& all, const std::vector<size_t>& sizes) {
  std::vector<Bytes> parts;
  size_t at = 0;
  for (size_t s : sizes) {
    parts.push_back(all.substr(at, s));
    at += s;
  }
  return parts;
}

Regroup regroup(std::vector<size_t> sizes, const std::string& func) {
  return [sizes = std::move(sizes), func](std::vector<Bytes> remote) {
    Bytes all;
    for (const Bytes& b : remote) all += b;
    size_t want = 0;
    for (size_t s : sizes) want += s;
    if (all.size() != want)
      fail(ErrClass::Count, func,
           "the two groups' counts differ (" + std::to_string(all.size()) + " vs " + std::to_string(want) + " bytes)");
    return cut(all, sizes);
  };
}

}  // namespace lumpi::core::coll
