// core/datatype/datatype.cpp: MPI datatypes as type maps; see datatype.hpp for the
// model (pieces of repeated blocks) and the bound rules it implements.
// Sections: basic and pair types; layout arithmetic; argument checks;
// constructors; flattening (commit); typed data (pack, unpack, counts).
#include "core/datatype/datatype.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <limits>
#include <map>
#include <span>
#include <utility>

#include "core/base/constants.hpp"
#include "core/base/error.hpp"

namespace lumpi::core {

namespace {

using i64 = std::int64_t;

// More flattened runs than this make commit fail with MPI_ERR_NO_MEM rather
// than eat the rank's memory (24 bytes each: 96 MiB).
constexpr std::size_t kMaxRuns = std::size_t(1) << 22;

std::string num(i64 v) { return std::to_string(v); }

// ---- basic and pair types -----------------------------------------------------------

template <class T>
constexpr BasicInfo info(const char* name) {
  return {name, sizeof(T), alignof(T)};
}

const BasicInfo kBasics[] = {
    info<char>("MPI_CHAR"),
    info<signed char>("MPI_SIGNED_CHAR"),
    info<unsigned char>("MPI_UNSIGNED_CHAR"),
    info<unsigned char>("MPI_BYTE"),
    info<short>("MPI_SHORT"),
    info<unsigned short>("MPI_UNSIGNED_SHORT"),
    info<int>("MPI_INT"),
    info<unsigned>("MPI_UNSIGNED"),
    info<long>("MPI_LONG"),
    info<unsigned long>("MPI_UNSIGNED_LONG"),
    info<long long>("MPI_LONG_LONG"),
    info<unsigned long long>("MPI_UNSIGNED_LONG_LONG"),
    info<float>("MPI_FLOAT"),
    info<double>("MPI_DOUBLE"),
    info<long double>("MPI_LONG_DOUBLE"),
    info<wchar_t>("MPI_WCHAR"),
    info<bool>("MPI_C_BOOL"),
    info<std::int8_t>("MPI_INT8_T"),
    info<std::int16_t>("MPI_INT16_T"),
    info<std::int32_t>("MPI_INT32_T"),
    info<std::int64_t>("MPI_INT64_T"),
    info<std::uint8_t>("MPI_UINT8_T"),
    info<std::uint16_t>("MPI_UINT16_T"),
    info<std::uint32_t>("MPI_UINT32_T"),
    info<std::uint64_t>("MPI_UINT64_T"),
    info<unsigned char>("MPI_PACKED"),
    info<std::int64_t>("MPI_AINT"),
    info<std::int64_t>("MPI_OFFSET"),
    info<std::int64_t>("MPI_COUNT"),
    info<std::complex<float>>("MPI_C_FLOAT_COMPLEX"),
    info<std::complex<double>>("MPI_C_DOUBLE_COMPLEX"),
    info<std::complex<long double>>("MPI_C_LONG_DOUBLE_COMPLEX"),
    info<bool>("MPI_CXX_BOOL"),
    info<std::complex<float>>("MPI_CXX_FLOAT_COMPLEX"),
    info<std::complex<double>>("MPI_CXX_DOUBLE_COMPLEX"),
    info<std::complex<long double>>("MPI_CXX_LONG_DOUBLE_COMPLEX"),
    info<char>("MPI_CHARACTER"),
    info<std::int32_t>("MPI_INTEGER"),
    info<float>("MPI_REAL"),
    info<double>("MPI_DOUBLE_PRECISION"),
    info<std::complex<float>>("MPI_COMPLEX"),
    info<std::complex<double>>("MPI_DOUBLE_COMPLEX"),
    info<std::int32_t>("MPI_LOGICAL"),
    info<std::int8_t>("MPI_INTEGER1"),
    info<std::int16_t>("MPI_INTEGER2"),
    info<std::int32_t>("MPI_INTEGER4"),
    info<std::int64_t>("MPI_INTEGER8"),
    info<float>("MPI_REAL4"),
    info<double>("MPI_REAL8"),
    info<std::complex<float>>("MPI_COMPLEX8"),
    info<std::complex<double>>("MPI_COMPLEX16"),
};
static_assert(sizeof kBasics / sizeof kBasics[0] == std::size_t(Basic::Count_));

// The C structs of the pair types give their index offsets.
template <class V, class I = int>
struct PairOf {
  V value;
  I index;
};
template <class V>
using SamePair = PairOf<V, V>;  // Fortran's: MPI_2REAL

const PairInfo kPairs[] = {
    {"MPI_FLOAT_INT", Basic::Float, Basic::Int, offsetof(PairOf<float>, index)},
    {"MPI_DOUBLE_INT", Basic::Double, Basic::Int, offsetof(PairOf<double>, index)},
    {"MPI_LONG_INT", Basic::Long, Basic::Int, offsetof(PairOf<long>, index)},
    {"MPI_2INT", Basic::Int, Basic::Int, offsetof(PairOf<int>, index)},
    {"MPI_SHORT_INT", Basic::Short, Basic::Int, offsetof(PairOf<short>, index)},
    {"MPI_LONG_DOUBLE_INT", Basic::LongDouble, Basic::Int, offsetof(PairOf<long double>, index)},
    {"MPI_2REAL", Basic::Real, Basic::Real, offsetof(SamePair<float>, index)},
    {"MPI_2DOUBLE_PRECISION", Basic::DoublePrecision, Basic::DoublePrecision, offsetof(SamePair<double>, index)},
    {"MPI_2INTEGER", Basic::Integer, Basic::Integer, offsetof(SamePair<int>, index)},
};
static_assert(sizeof kPairs / sizeof kPairs[0] == std::size_t(Pair::Count_));

// ---- layout arithmetic ---------------------------------------------------------------

// Checked int64 arithmetic: a type whose bounds overflow is an argument error.
i64 mul(i64 a, i64 b, std::string_view func) {
  i64 r;
  if (__builtin_mul_overflow(a, b, &r)) fail(ErrClass::Arg, func, "the datatype's extent overflows 64 bits");
  return r;
}
i64 add(i64 a, i64 b, std::string_view func) {
  i64 r;
  if (__builtin_add_overflow(a, b, &r)) fail(ErrClass::Arg, func, "the datatype's extent overflows 64 bits");
  return r;
}
i64 subtract(i64 a, i64 b, std::string_view func) {
  i64 r;
  if (__builtin_sub_overflow(a, b, &r)) fail(ErrClass::Arg, func, "the datatype's extent overflows 64 bits");
  return r;
}

LayoutPtr basic_layout(Basic b) {
  auto l = std::make_shared<Layout>();
  const BasicInfo& bi = basic_info(b);
  l->is_basic = true;
  l->basic = b;
  l->size = i64(bi.size);
  l->nbasic = 1;
  l->ub = l->true_ub = i64(bi.size);
  l->align = i64(bi.align);
  return l;
}

// A bound computed in 128 bits, which must fit 64 (an argument error
// otherwise, as mul/add/subtract say).
i64 fit(__int128 v, std::string_view func) {
  if (v < std::numeric_limits<i64>::min() || v > std::numeric_limits<i64>::max())
    fail(ErrClass::Arg, func, "the datatype's extent overflows 64 bits");
  return i64(v);
}

// Lowest and highest offsets a piece's repetitions add to one copy's
// bounds, in 128 bits: the spread alone may exceed 64 bits while every
// copy's bounds fit (a displacement far below 0, copies far above it).
void piece_spread(const Piece& p, __int128* lo, __int128* hi) {
  const __int128 in_block = __int128(p.blocklen - 1) * p.child->extent();
  const __int128 across = __int128(p.reps - 1) * p.stride;
  *lo = std::min<__int128>(0, in_block) + std::min<__int128>(0, across);
  *hi = std::max<__int128>(0, in_block) + std::max<__int128>(0, across);
}

// The lowest lb and the highest ub of a piece's copies, lo and hi its
// spread. Every copy's bounds must fit 64 bits, not only these two (a copy's
// markers are entries of the map, §4.1.7), so that one map is accepted or
// refused whichever constructor lists its copies.
std::pair<i64, i64> copy_bounds(const Piece& p, __int128 lo, __int128 hi, std::string_view func) {
  const __int128 first_lb = __int128(p.disp) + p.child->lb, first_ub = __int128(p.disp) + p.child->ub;
  fit(first_lb, func), fit(first_ub, func), fit(first_lb + hi, func), fit(first_ub + lo, func);
  return {fit(first_lb + lo, func), fit(first_ub + hi, func)};
}

// The type map of a list of pieces: size, bounds (markers win, MPI-3.1
// §4.1.7), true bounds (data only), alignment, and the epsilon that rounds an
// extent without an ub marker up to the alignment (§4.1.6).
LayoutPtr make_layout(std::vector<Piece> pieces, std::string_view func) {
  auto l = std::make_shared<Layout>();
  const i64 kMax = std::numeric_limits<i64>::max(), kMin = std::numeric_limits<i64>::min();
  i64 lb = kMax, ub = kMin, slb = kMax, sub = kMin, tlb = kMax, tub = kMin;
  for (const Piece& p : pieces) {
    if (p.blocklen == 0 || p.reps == 0) continue;  // no entries, no bounds (Ballot 4 item 20)
    const Layout& c = *p.child;
    i64 copies = mul(p.blocklen, p.reps, func);
    l->size = add(l->size, mul(copies, c.size, func), func);
    l->nbasic = add(l->nbasic, mul(copies, c.nbasic, func), func);
    l->align = std::max(l->align, c.align);
    __int128 lo, hi;
    piece_spread(p, &lo, &hi);
    auto [c_lb, c_ub] = copy_bounds(p, lo, hi, func);
    lb = std::min(lb, c_lb);
    ub = std::max(ub, c_ub);
    if (c.sticky_lb) slb = std::min(slb, c_lb), l->sticky_lb = true;
    if (c.sticky_ub) sub = std::max(sub, c_ub), l->sticky_ub = true;
    if (c.size > 0) {
      tlb = std::min(tlb, fit(__int128(p.disp) + c.true_lb + lo, func));
      tub = std::max(tub, fit(__int128(p.disp) + c.true_ub + hi, func));
    }
  }
  if (lb == kMax) lb = ub = 0;  // an empty map
  if (tlb == kMax) tlb = tub = 0;
  l->lb = l->sticky_lb ? slb : lb;
  l->ub = l->sticky_ub ? sub : ub;
  l->true_lb = tlb;
  l->true_ub = tub;
  if (!l->sticky_ub) {
    i64 rem = subtract(l->ub, l->lb, func) % l->align;
    if (rem > 0) l->ub = add(l->ub, l->align - rem, func);
  }
  subtract(l->ub, l->lb, func);  // both bounds may fit 64 bits while the distance between them does not
  subtract(tub, tlb, func);
  l->pieces = std::move(pieces);
  return l;
}

// The same map with explicit lb and ub markers (create_resized, subarray).
LayoutPtr with_markers(const LayoutPtr& child, i64 lb, i64 extent, std::string_view func) {
  auto l = std::make_shared<Layout>(*make_layout({{0, 1, 1, 0, child}}, func));
  l->lb = lb;
  l->ub = add(lb, extent, func);
  l->sticky_lb = l->sticky_ub = true;
  return l;
}

// ---- argument checks -------------------------------------------------------------------

void check_type(const TypePtr& t, std::string_view func, std::string_view what) {
  if (!t) fail(ErrClass::Type, func, std::string(what) + " is not a datatype");
  if (t->freed()) fail(ErrClass::Type, func, std::string(what) + " has been freed");
}

void check_count(i64 count, std::string_view func, std::string_view what = "count") {
  if (count < 0) fail(ErrClass::Count, func, std::string(what) + " = " + num(count) + " is negative");
}

void check_blocklength(i64 bl, std::string_view func, std::string_view what) {
  if (bl < 0) fail(ErrClass::Arg, func, std::string(what) + " = " + num(bl) + " is negative");
}

void check_blocklengths(const std::vector<int>& bls, std::string_view func) {
  for (std::size_t i = 0; i < bls.size(); ++i) check_blocklength(bls[i], func, at("blocklengths", i));
}

template <class D>
void check_same_length(const std::vector<int>& bls, const std::vector<D>& displs, std::string_view func) {
  if (bls.size() != displs.size())
    fail(ErrClass::Arg, func,
         "blocklengths has " + num(i64(bls.size())) + " entries but displacements has " +
             num(i64(displs.size())));
}

// ---- flattening ---------------------------------------------------------------------------

// Appends run r to out, merging it into the last run when it continues it.
void push_run(std::vector<Run>& out, Run r, std::string_view func) {
  if (r.count == 0) return;
  if (!out.empty()) {
    Run& last = out.back();
    i64 bsize = i64(basic_info(last.basic).size);
    if (last.basic == r.basic && last.offset + last.count * bsize == r.offset) {
      last.count += r.count;
      return;
    }
  }
  if (out.size() >= kMaxRuns)
    fail(ErrClass::NoMem, func,
         "the type map has more than " + num(i64(kMaxRuns)) + " separate blocks; lumpi does not flatten it");
  out.push_back(r);
}

using Memo = std::map<const Layout*, std::vector<Run>>;

const std::vector<Run>& flat(const Layout& l, Memo& memo, std::string_view func);

// Appends n copies of runs, the k-th shifted by base + k * step. Every
// offset it appends is an entry of the final map, so it fits 64 bits (the
// true bounds were checked when the type was made); the sum is taken in 128
// bits because its partial sums need not fit (a block far above its
// displacement that a negative displacement brings back).
void append_copies(std::vector<Run>& out, const std::vector<Run>& runs, i64 base, i64 n, i64 step,
                   std::string_view func) {
  if (runs.size() == 1 && runs[0].count * i64(basic_info(runs[0].basic).size) == step) {
    push_run(out, {base + runs[0].offset, runs[0].basic, runs[0].count * n}, func);  // dense: one run
    return;
  }
  for (i64 k = 0; k < n; ++k)
    for (const Run& r : runs) {
      i64 offset = i64(__int128(base) + __int128(k) * step + r.offset);
      push_run(out, {offset, r.basic, r.count}, func);
    }
}

const std::vector<Run>& flat(const Layout& l, Memo& memo, std::string_view func) {
  auto it = memo.find(&l);
  if (it != memo.end()) return it->second;
  std::vector<Run> out;
  if (l.is_basic) out.push_back({0, l.basic, 1});
  for (const Piece& p : l.pieces) {
    if (p.blocklen == 0 || p.reps == 0) continue;
    const std::vector<Run>& child = flat(*p.child, memo, func);
    std::vector<Run> block;  // the first repetition: blocklen copies of the child, one extent apart
    append_copies(block, child, p.disp, p.blocklen, p.child->extent(), func);
    append_copies(out, block, 0, p.reps, p.stride, func);
  }
  return memo.emplace(&l, std::move(out)).first->second;
}

std::vector<Block> merge_blocks(const std::vector<Run>& runs) {
  std::vector<Block> out;
  for (const Run& r : runs) {
    i64 len = r.count * i64(basic_info(r.basic).size);
    if (!out.empty() && out.back().offset + out.back().length == r.offset) out.back().length += len;
    else out.push_back({r.offset, len});
  }
  return out;
}

// Folds consecutive blocks of one length at one distance into one Strided,
// keeping the type map's order of the bytes.
std::vector<Strided> fold_blocks(const std::vector<Block>& blocks) {
  std::vector<Strided> out;
  for (const Block& b : blocks) {
    if (b.length == 0) continue;  // moves nothing
    if (!out.empty()) {
      Strided& s = out.back();
      i64 distance = b.offset - (s.offset + (s.count - 1) * s.stride);
      if (s.length == b.length && (s.count == 1 || distance == s.stride)) {
        s.stride = distance;
        ++s.count;
        continue;
      }
    }
    out.push_back({b.offset, b.length, 1, 0});
  }
  return out;
}

TypePtr make(LayoutPtr l, Combiner c, TypeContents contents) {
  return std::make_shared<Datatype>(std::move(l), c, std::move(contents));
}

}  // namespace

const BasicInfo& basic_info(Basic b) { return kBasics[std::size_t(b)]; }

Basic match_size(TypeClass c, int size, std::string_view func) {
  static const std::pair<TypeClass, Basic> kBySize[] = {
      {TypeClass::Integer, Basic::Integer1}, {TypeClass::Integer, Basic::Integer2},
      {TypeClass::Integer, Basic::Integer4}, {TypeClass::Integer, Basic::Integer8},
      {TypeClass::Real, Basic::Real4},       {TypeClass::Real, Basic::Real8},
      {TypeClass::Real, Basic::LongDouble},  {TypeClass::Complex, Basic::Complex8},
      {TypeClass::Complex, Basic::Complex16}, {TypeClass::Complex, Basic::CLongDoubleComplex},
  };
  if (c != TypeClass::Integer && c != TypeClass::Real && c != TypeClass::Complex)
    fail(ErrClass::Arg, func, "typeclass " + num(int(c)) + " is not MPI_TYPECLASS_INTEGER, _REAL or _COMPLEX");
  for (const auto& [k, b] : kBySize)
    if (k == c && i64(basic_info(b).size) == size) return b;
  fail(ErrClass::Arg, func, "no predefined type of this typeclass has size " + num(size));
}

const PairInfo& pair_info(Pair p) { return kPairs[std::size_t(p)]; }

const char* combiner_name(Combiner c) {
  static const char* const names[] = {
      "MPI_COMBINER_NAMED",   "MPI_COMBINER_DUP",           "MPI_COMBINER_CONTIGUOUS",
      "MPI_COMBINER_VECTOR",  "MPI_COMBINER_HVECTOR",       "MPI_COMBINER_INDEXED",
      "MPI_COMBINER_HINDEXED", "MPI_COMBINER_INDEXED_BLOCK", "MPI_COMBINER_HINDEXED_BLOCK",
      "MPI_COMBINER_STRUCT",  "MPI_COMBINER_SUBARRAY",      "MPI_COMBINER_RESIZED",
      "MPI_COMBINER_DARRAY"};
  return names[std::size_t(c)];
}

// ---- objects and predefined types ---------------------------------------------------------

Datatype::Datatype(LayoutPtr layout, Combiner combiner, TypeContents contents)
    : layout_(std::move(layout)), combiner_(combiner), contents_(std::move(contents)) {}

TypePtr Datatype::basic(Basic b) {
  static TypePtr table[std::size_t(Basic::Count_)];
  TypePtr& t = table[std::size_t(b)];
  if (!t) {
    t = make(basic_layout(b), Combiner::Named, {});
    t->name_ = basic_info(b).name;
    t->predefined_ = true;
    t->commit();
  }
  return t;
}

TypePtr Datatype::pair(Pair p) {
  static TypePtr table[std::size_t(Pair::Count_)];
  TypePtr& t = table[std::size_t(p)];
  if (!t) {
    const PairInfo& pi = kPairs[std::size_t(p)];
    LayoutPtr l = make_layout({{0, 1, 1, 0, basic(pi.value)->layout_},
                               {pi.index_offset, 1, 1, 0, basic(pi.index)->layout_}},
                              pi.name);
    t = make(l, Combiner::Named, {});
    t->name_ = pi.name;
    t->predefined_ = true;
    t->pair_ = p;
    t->commit();
  }
  return t;
}

// ---- constructors -------------------------------------------------------------------------

TypePtr Datatype::contiguous(int count, const TypePtr& old) {
  const char* func = "MPI_Type_contiguous";
  check_count(count, func);
  check_type(old, func, "oldtype");
  return make(make_layout({{0, count, 1, 0, old->layout_}}, func), Combiner::Contiguous,
              {{count}, {}, {old}});
}

// vector, indexed and indexed_block scale a stride or displacement by the old
// extent only where it places a block: one that places nothing (a vector of
// one block, a block of length zero) cannot make a type's extent overflow.
TypePtr Datatype::vector(int count, int blocklength, int stride, const TypePtr& old) {
  const char* func = "MPI_Type_vector";
  check_count(count, func);
  check_blocklength(blocklength, func, "blocklength");
  check_type(old, func, "oldtype");
  i64 bytes = count > 1 && blocklength > 0 ? mul(stride, old->extent(), func) : 0;
  return make(make_layout({{0, blocklength, count, bytes, old->layout_}}, func), Combiner::Vector,
              {{count, blocklength, stride}, {}, {old}});
}

TypePtr Datatype::hvector(int count, int blocklength, i64 stride, const TypePtr& old) {
  const char* func = "MPI_Type_create_hvector";
  check_count(count, func);
  check_blocklength(blocklength, func, "blocklength");
  check_type(old, func, "oldtype");
  return make(make_layout({{0, blocklength, count, stride, old->layout_}}, func), Combiner::Hvector,
              {{count, blocklength}, {stride}, {old}});
}

TypePtr Datatype::indexed(const std::vector<int>& bls, const std::vector<int>& displs, const TypePtr& old) {
  const char* func = "MPI_Type_indexed";
  check_same_length(bls, displs, func);
  check_blocklengths(bls, func);
  check_type(old, func, "oldtype");
  std::vector<Piece> pieces;
  for (std::size_t i = 0; i < bls.size(); ++i)
    pieces.push_back({bls[i] > 0 ? mul(displs[i], old->extent(), func) : 0, bls[i], 1, 0, old->layout_});
  TypeContents c{{int(bls.size())}, {}, {old}};
  c.integers.insert(c.integers.end(), bls.begin(), bls.end());
  c.integers.insert(c.integers.end(), displs.begin(), displs.end());
  return make(make_layout(std::move(pieces), func), Combiner::Indexed, std::move(c));
}

TypePtr Datatype::hindexed(const std::vector<int>& bls, const std::vector<i64>& displs, const TypePtr& old) {
  const char* func = "MPI_Type_create_hindexed";
  check_same_length(bls, displs, func);
  check_blocklengths(bls, func);
  check_type(old, func, "oldtype");
  std::vector<Piece> pieces;
  for (std::size_t i = 0; i < bls.size(); ++i) pieces.push_back({displs[i], bls[i], 1, 0, old->layout_});
  TypeContents c{{int(bls.size())}, displs, {old}};
  c.integers.insert(c.integers.end(), bls.begin(), bls.end());
  return make(make_layout(std::move(pieces), func), Combiner::Hindexed, std::move(c));
}

TypePtr Datatype::indexed_block(int blocklength, const std::vector<int>& displs, const TypePtr& old) {
  const char* func = "MPI_Type_create_indexed_block";
  check_blocklength(blocklength, func, "blocklength");
  check_type(old, func, "oldtype");
  std::vector<Piece> pieces;
  for (int d : displs)
    pieces.push_back({blocklength > 0 ? mul(d, old->extent(), func) : 0, blocklength, 1, 0, old->layout_});
  TypeContents c{{int(displs.size()), blocklength}, {}, {old}};
  c.integers.insert(c.integers.end(), displs.begin(), displs.end());
  return make(make_layout(std::move(pieces), func), Combiner::IndexedBlock, std::move(c));
}

TypePtr Datatype::hindexed_block(int blocklength, const std::vector<i64>& displs, const TypePtr& old) {
  const char* func = "MPI_Type_create_hindexed_block";
  check_blocklength(blocklength, func, "blocklength");
  check_type(old, func, "oldtype");
  std::vector<Piece> pieces;
  for (i64 d : displs) pieces.push_back({d, blocklength, 1, 0, old->layout_});
  return make(make_layout(std::move(pieces), func), Combiner::HindexedBlock,
              {{int(displs.size()), blocklength}, displs, {old}});
}

TypePtr Datatype::create_struct(const std::vector<int>& bls, const std::vector<i64>& displs,
                                const std::vector<TypePtr>& types) {
  const char* func = "MPI_Type_create_struct";
  check_same_length(bls, displs, func);
  if (types.size() != bls.size())
    fail(ErrClass::Arg, func,
         "blocklengths has " + num(i64(bls.size())) + " entries but types has " + num(i64(types.size())));
  check_blocklengths(bls, func);
  for (std::size_t i = 0; i < types.size(); ++i) check_type(types[i], func, at("types", i));
  std::vector<Piece> pieces;
  for (std::size_t i = 0; i < bls.size(); ++i) pieces.push_back({displs[i], bls[i], 1, 0, types[i]->layout_});
  TypeContents c{{int(bls.size())}, displs, types};
  c.integers.insert(c.integers.end(), bls.begin(), bls.end());
  return make(make_layout(std::move(pieces), func), Combiner::Struct, std::move(c));
}

TypePtr Datatype::subarray(const std::vector<int>& sizes, const std::vector<int>& subsizes,
                           const std::vector<int>& starts, Order order, const TypePtr& old) {
  const char* func = "MPI_Type_create_subarray";
  const std::size_t n = sizes.size();
  if (n == 0) fail(ErrClass::Arg, func, "sizes is empty: ndims must be positive");
  if (subsizes.size() != n || starts.size() != n)
    fail(ErrClass::Arg, func,
         "sizes, subsizes and starts must have ndims entries each, got " + num(i64(n)) + ", " +
             num(i64(subsizes.size())) + " and " + num(i64(starts.size())));
  for (std::size_t i = 0; i < n; ++i) {
    if (sizes[i] < 1) fail(ErrClass::Arg, func, at("sizes", i) + " = " + num(sizes[i]) + " is not positive");
    if (subsizes[i] < 1 || subsizes[i] > sizes[i])
      fail(ErrClass::Arg, func,
           at("subsizes", i) + " = " + num(subsizes[i]) + " is not in 1.." + num(sizes[i]) + " (sizes)");
    if (starts[i] < 0 || starts[i] > sizes[i] - subsizes[i])
      fail(ErrClass::Arg, func,
           at("starts", i) + " = " + num(starts[i]) + " is not in 0.." + num(sizes[i] - subsizes[i]) +
               " (sizes - subsizes)");
  }
  if (order != Order::C && order != Order::Fortran) fail(ErrClass::Arg, func, "order is neither C nor Fortran");
  check_type(old, func, "oldtype");
  // Dimensions from the fastest-varying one: the last in C order, the first in Fortran.
  i64 ext = old->extent(), stride = ext, offset = 0;
  LayoutPtr nest = old->layout_;
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t i = order == Order::C ? n - 1 - k : k;
    nest = k == 0 ? make_layout({{0, subsizes[i], 1, 0, nest}}, func)
                  : make_layout({{0, 1, subsizes[i], stride, nest}}, func);
    offset = add(offset, mul(starts[i], stride, func), func);
    stride = mul(stride, sizes[i], func);
  }
  LayoutPtr placed = make_layout({{offset, 1, 1, 0, nest}}, func);
  TypeContents c{{int(n)}, {}, {old}};
  for (const auto* v : {&sizes, &subsizes, &starts}) c.integers.insert(c.integers.end(), v->begin(), v->end());
  c.integers.push_back(int(order));
  return make(with_markers(placed, 0, stride, func), Combiner::Subarray, std::move(c));
}

// ---- create_darray (MPI-3.1 §4.1.4) ----
// The processes form a grid of psizes in row-major order whatever `order`
// says (as MPI_Cart_create numbers them). In each dimension a process owns
// the global indices g with (g / darg) mod psize == its coordinate: blocks
// of darg indices dealt round the grid dimension. BLOCK's default darg is
// ceil(gsize / psize) (one block each, and darg * psize must cover gsize);
// CYCLIC's is 1; NONE is BLOCK over a grid dimension of 1. The type holds
// the process's part of the global array in place, and its extent is the
// whole array's (lb 0), as the standard's construction ends with a resize.

namespace {

void check_darray(const DarrayArgs& a, const char* func) {
  const std::size_t n = a.gsizes.size();
  if (a.size < 1) fail(ErrClass::Arg, func, "size " + num(a.size) + " is not positive");
  if (a.rank < 0 || a.rank >= a.size)
    fail(ErrClass::Arg, func, "rank " + num(a.rank) + " is not in 0.." + num(a.size - 1));
  if (n == 0) fail(ErrClass::Arg, func, "gsizes is empty: ndims must be positive");
  if (a.distribs.size() != n || a.dargs.size() != n || a.psizes.size() != n)
    fail(ErrClass::Arg, func, "gsizes, distribs, dargs and psizes must have ndims entries each");
  i64 procs = 1;
  for (std::size_t i = 0; i < n; ++i) {
    if (a.gsizes[i] < 1) fail(ErrClass::Arg, func, at("gsizes", i) + " = " + num(a.gsizes[i]) + " is not positive");
    if (a.psizes[i] < 1) fail(ErrClass::Arg, func, at("psizes", i) + " = " + num(a.psizes[i]) + " is not positive");
    procs = procs * a.psizes[i] > a.size ? i64(a.size) + 1 : procs * a.psizes[i];
    const int d = a.dargs[i];
    if (d != kDefaultDarg && d < 1)
      fail(ErrClass::Arg, func, at("dargs", i) + " = " + num(d) + " is neither positive nor MPI_DISTRIBUTE_DFLT_DARG");
    switch (a.distribs[i]) {
      case Distribution::None:
        if (a.psizes[i] != 1)
          fail(ErrClass::Arg, func, at("psizes", i) + " = " + num(a.psizes[i]) + " must be 1 where " +
                                        at("distribs", i) + " is MPI_DISTRIBUTE_NONE");
        break;
      case Distribution::Block:
        if (d != kDefaultDarg && i64(d) * a.psizes[i] < a.gsizes[i])
          fail(ErrClass::Arg, func, at("dargs", i) + " = " + num(d) + " times " + at("psizes", i) + " = " +
                                        num(a.psizes[i]) + " does not cover " + at("gsizes", i) + " = " +
                                        num(a.gsizes[i]) + " (MPI_DISTRIBUTE_BLOCK)");
        break;
      case Distribution::Cyclic: break;
      default: fail(ErrClass::Arg, func, at("distribs", i) + " is not an MPI_DISTRIBUTE_ value");
    }
  }
  if (procs != a.size)
    fail(ErrClass::Arg, func, "the product of psizes is not size " + num(a.size));
  if (a.order != Order::C && a.order != Order::Fortran) fail(ErrClass::Arg, func, "order is neither C nor Fortran");
}

// The block length darg of dimension i, defaults resolved.
int darg_of(const DarrayArgs& a, std::size_t i) {
  if (a.distribs[i] == Distribution::None) return a.gsizes[i];
  if (a.dargs[i] != kDefaultDarg) return a.dargs[i];
  if (a.distribs[i] == Distribution::Cyclic) return 1;
  return int((i64(a.gsizes[i]) + a.psizes[i] - 1) / a.psizes[i]);
}

// The process's coordinate in each grid dimension (row-major).
std::vector<int> grid_coords(const DarrayArgs& a) {
  std::vector<int> c(a.psizes.size());
  int r = a.rank;
  for (std::size_t k = c.size(); k-- > 0;) {
    c[k] = r % a.psizes[k];
    r /= a.psizes[k];
  }
  return c;
}

TypeContents darray_contents(const DarrayArgs& a, const TypePtr& old) {
  TypeContents c{{a.size, a.rank, int(a.gsizes.size())}, {}, {old}};
  c.integers.insert(c.integers.end(), a.gsizes.begin(), a.gsizes.end());
  for (Distribution d : a.distribs) c.integers.push_back(int(d));
  c.integers.insert(c.integers.end(), a.dargs.begin(), a.dargs.end());
  c.integers.insert(c.integers.end(), a.psizes.begin(), a.psizes.end());
  c.integers.push_back(int(a.order));
  return c;
}

}  // namespace

TypePtr Datatype::darray(const DarrayArgs& a, const TypePtr& old) {
  const char* func = "MPI_Type_create_darray";
  check_darray(a, func);
  check_type(old, func, "oldtype");
  const std::size_t n = a.gsizes.size();
  const std::vector<int> coord = grid_coords(a);
  // A process that owns no index of some dimension holds nothing: its map
  // is empty whatever the other dimensions' blocks would have been, so
  // they are not built (their bounds alone might overflow).
  bool owns_some = true;
  for (std::size_t i = 0; i < n; ++i) owns_some &= i64(coord[i]) * darg_of(a, i) < a.gsizes[i];
  i64 stride = old->extent();
  LayoutPtr nest = owns_some ? old->layout_ : make_layout({}, func);
  for (std::size_t k = 0; k < n; ++k) {  // from the fastest-varying dimension
    const std::size_t i = a.order == Order::C ? n - 1 - k : k;
    const i64 darg = darg_of(a, i), cycle = darg * a.psizes[i];
    if (owns_some) {
      std::vector<Piece> blocks;
      for (i64 g = coord[i] * darg; g < a.gsizes[i]; g += cycle)
        blocks.push_back({mul(g, stride, func), 1, std::min<i64>(darg, a.gsizes[i] - g), stride, nest});
      nest = make_layout(std::move(blocks), func);
    }
    stride = mul(stride, a.gsizes[i], func);
  }
  return make(with_markers(nest, 0, stride, func), Combiner::Darray, darray_contents(a, old));
}

TypePtr Datatype::resized(const TypePtr& old, i64 lb, i64 extent) {
  const char* func = "MPI_Type_create_resized";
  check_type(old, func, "oldtype");
  return make(with_markers(old->layout_, lb, extent, func), Combiner::Resized, {{}, {lb, extent}, {old}});
}

TypePtr Datatype::dup(const TypePtr& old) {
  check_type(old, "MPI_Type_dup", "oldtype");
  TypePtr t = make(old->layout_, Combiner::Dup, {{}, {}, {old}});
  if (old->committed_) t->commit();  // the same committed state (MPI-3.1 §4.1.10)
  return t;
}

// ---- state ---------------------------------------------------------------------------------

void Datatype::commit() {
  if (committed_) return;
  Memo memo;
  runs_ = flat(*layout_, memo, "MPI_Type_commit");
  blocks_ = merge_blocks(runs_);
  strided_ = fold_blocks(blocks_);
  committed_ = true;
}

std::vector<Run> Datatype::typemap() const {
  if (committed_) return runs_;
  Memo memo;
  return flat(*layout_, memo, "MPI_Type_commit");
}

void Datatype::free(std::string_view func) {
  if (predefined_) fail(ErrClass::Type, func, "cannot free the predefined datatype " + name_);
  if (freed_) fail(ErrClass::Type, func, "the datatype has already been freed");
  freed_ = true;  // the map stays: operations in flight complete (MPI-3.1 §4.1.9)
}

void Datatype::check_usable(std::string_view func, std::string_view what) const {
  if (freed_) fail(ErrClass::Type, func, std::string(what) + " has been freed");
  check_committed(func, what);
}

void Datatype::check_committed(std::string_view func, std::string_view what) const {
  if (!committed_)
    fail(ErrClass::Type, func, std::string(what) + " has not been committed (call commit() first)");
}

TypeEnvelope Datatype::envelope() const {
  return {int(contents_.integers.size()), int(contents_.addresses.size()), int(contents_.types.size()),
          combiner_};
}

TypeContents Datatype::contents() const {
  if (combiner_ == Combiner::Named)
    fail(ErrClass::Type, "MPI_Type_get_contents",
         "the predefined datatype " + name_ + " has no contents (its combiner is MPI_COMBINER_NAMED)");
  TypeContents c = contents_;
  for (TypePtr& t : c.types) {
    if (t->predefined_) continue;
    TypePtr copy = make(t->layout_, t->combiner_, t->contents_);
    copy->name_ = t->name_;
    if (t->committed_) copy->commit();
    t = copy;
  }
  return c;
}

// ---- typed data -----------------------------------------------------------------------------

void Datatype::span(i64 count, i64* lo, i64* hi) const {
  *lo = *hi = 0;
  if (count <= 0 || layout_->size == 0) return;
  i64 last = (count - 1) * extent();
  *lo = layout_->true_lb + std::min<i64>(0, last);
  *hi = layout_->true_ub + std::max<i64>(0, last);
}

// Copies `n` blocks of s between packed bytes and the user's memory at
// `user` (s.offset already applied); L, when not 0, is s.length known at
// compile time, which makes each element one load and one store. Each
// block's address is computed on integers, as address() does, and only for
// blocks that exist: a step past the last one may leave the address space.
template <std::size_t L, bool ToPacked>
static void copy_blocks(char* packed, char* user, const Strided& s, i64 n) {
  const std::size_t len = L ? L : std::size_t(s.length);
  const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(user);
  for (i64 k = 0; k < n; ++k, packed += len) {
    char* at = reinterpret_cast<char*>(base + std::uintptr_t(k * s.stride));
    if constexpr (ToPacked) std::memcpy(packed, at, L ? L : len);
    else std::memcpy(at, packed, L ? L : len);
  }
}

template <bool ToPacked>
static void copy_strided(char* packed, char* user, const Strided& s, i64 n) {
  switch (s.length) {
    case 4: return copy_blocks<4, ToPacked>(packed, user, s, n);
    case 8: return copy_blocks<8, ToPacked>(packed, user, s, n);
    case 16: return copy_blocks<16, ToPacked>(packed, user, s, n);
    default: return copy_blocks<0, ToPacked>(packed, user, s, n);
  }
}

// What pack and unpack walk for `count` elements: the type's strided runs
// once per element, or, for a type of one block (a pair type, a resized
// basic type), one run over all the elements at once.
struct Walk {
  Walk(const std::vector<Strided>& strided, i64 count, i64 extent) : all(strided), reps(count) {
    if (strided.size() == 1 && strided[0].count == 1) {
      one = {strided[0].offset, strided[0].length, count, extent};
      reps = count > 0 ? 1 : 0;
    }
  }
  std::span<const Strided> runs() const { return reps == 1 && one.count ? std::span(&one, 1) : std::span(all); }
  const std::vector<Strided>& all;
  i64 reps;
  Strided one{0, 0, 0, 0};
};

// The first n blocks of s at user appended at dst; returns the end.
static char* gather(char* dst, char* user, const Strided& s, i64 n) {
  copy_strided<true>(dst, user, s, n);
  return dst + n * s.length;
}

// n blocks of s from data into user; returns what follows them in data.
static const char* scatter(const char* data, char* user, const Strided& s, i64 n) {
  copy_strided<false>(const_cast<char*>(data), user, s, n);
  return data + n * s.length;
}

// The address buf + off. A buffer may be MPI_BOTTOM (null) with absolute
// addresses as displacements (MPI-3.1 §4.1.12), which C++ pointer
// arithmetic on a null pointer does not allow: the sum is made on integers.
static char* address(const void* buf, i64 off) {
  return reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(buf) + std::uintptr_t(off));
}

void Datatype::pack(const void* buf, i64 count, std::string& out, std::string_view func) const {
  check_committed(func);
  check_count(count, func);
  std::size_t at0 = out.size();
  out.resize(at0 + std::size_t(count * size()));
  pack(buf, count, out.data() + at0, func);
}

void Datatype::pack(const void* buf, i64 count, char* dst, std::string_view func) const {
  check_committed(func);
  check_count(count, func);
  if (blocks_.size() == 1 && blocks_[0].length == extent()) {  // dense: one copy
    std::memcpy(dst, address(buf, blocks_[0].offset), std::size_t(count * size()));
    return;
  }
  Walk w(strided_, count, extent());
  for (i64 i = 0; i < w.reps; ++i)
    for (const Strided& b : w.runs()) dst = gather(dst, address(buf, i * extent() + b.offset), b, b.count);
}

void Datatype::unpack(const char* data, std::size_t n, void* buf, i64 count, std::string_view func) const {
  check_committed(func);
  check_count(count, func);
  if (i64(n) > count * size())
    fail(ErrClass::Truncate, func,
         "message of " + num(i64(n)) + " bytes is longer than " + num(count) + " elements of " +
             num(size()) + " bytes");
  if (blocks_.size() == 1 && blocks_[0].length == extent()) {
    std::memcpy(address(buf, blocks_[0].offset), data, n);
    return;
  }
  Walk w(strided_, count, extent());
  for (i64 i = 0; n > 0; ++i)
    for (const Strided& b : w.runs()) {
      char* at = address(buf, i * extent() + b.offset);
      i64 whole = std::min<i64>(b.count, i64(n) / b.length);  // a short message ends inside b
      data = scatter(data, at, b, whole);
      n -= std::size_t(whole * b.length);
      if (whole < b.count) {
        std::memcpy(at + whole * b.stride, data, n);
        return;
      }
      if (n == 0) return;
    }
}

i64 Datatype::count_of(i64 bytes) const {
  if (size() == 0) return bytes == 0 ? 0 : UNDEFINED;
  return bytes % size() == 0 ? bytes / size() : UNDEFINED;
}

i64 Datatype::elements_of(i64 bytes) const {
  if (size() == 0) return 0;
  i64 elements = (bytes / size()) * layout_->nbasic, rest = bytes % size();
  for (const Run& r : runs_) {
    if (rest == 0) break;
    i64 bsize = i64(basic_info(r.basic).size), run_bytes = r.count * bsize;
    if (rest >= run_bytes) {
      elements += r.count;
      rest -= run_bytes;
    } else {
      if (rest % bsize != 0) return UNDEFINED;
      elements += rest / bsize;
      rest = 0;
    }
  }
  return elements;
}

i64 Datatype::bytes_of_elements(i64 count) const {
  const i64 per = layout_->nbasic;
  if (per == 0) return 0;
  i64 bytes = (count / per) * size(), left = count % per;
  for (const Run& r : runs_) {
    if (left == 0) break;
    const i64 k = left < r.count ? left : r.count;
    bytes += k * i64(basic_info(r.basic).size);
    left -= k;
  }
  return bytes;
}

}  // namespace lumpi::core
