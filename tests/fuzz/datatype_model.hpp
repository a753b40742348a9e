// tests/fuzz/datatype_model.hpp: random datatype constructors from a
// fuzzer's bytes, and an independent reference for their type maps. Shared
// by tests/fuzz/fuzz_datatype.cpp (against core/datatype) and
// tests/exec/capi_datatype_replay.cpp (against the C API, across ranks).
// Standard C++ only: it knows nothing of lumpi, so it cannot share a
// mistake with the engine it judges.
//
// A Spec is a tree of constructor calls with their arguments as decoded,
// valid or not. The reference (ref_map) computes the type map the way
// MPI-3.1 §4.1 defines each constructor: every copy of the old type's map
// listed entry by entry, in type-map order, at the displacement the
// constructor's formula gives; subarray and darray by enumerating the
// array indices they select. Bounds follow the rules core/datatype
// documents (datatype.hpp), computed here from the list of copies rather
// than from formulas:
//   - each copy of the old type contributes its [lb, ub] at its displacement
//     (a copy of an empty map contributes the point lb = ub = 0 there);
//     zero-length blocks contribute no copy (MPI-2.1 Ballot 4 item 20);
//   - explicit lb/ub markers (resized, subarray, darray, MPI-3.1 §4.1.7)
//     win over everything else in every type built on them;
//   - without markers, the extent is rounded up to the largest alignment of
//     the basic types in the map (the epsilon of §4.1.6).
// Displacements are computed in 128 bits: a type whose map does not fit 64
// bits must be refused with MPI_ERR_ARG: a data entry, a copy's lb or ub
// (markers are entries too, §4.1.7), the type's bounds, its extent or its
// true extent. So must a byte displacement or stride that vector, indexed
// and indexed_block scale by the old extent where it places a block: each is
// defined as its h-form with those bytes (§4.1.2-4.1.3), whose displacements
// and strides are MPI_Aint, even when every copy placed there would fit.
#pragma once

#include <algorithm>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lumpi::fuzz::dt {

using i64 = std::int64_t;
using i128 = __int128;

// ---- the basic types the model uses -----------------------------------------------

// How external32 (MPI-3.1 §13.5.2) writes a basic type: big-endian; complex
// as two reals; MPI_LONG in 4 bytes; long double as IEEE binary128.
enum class Ext { Plain, Complex, Long, LongDouble, LongDoubleComplex };

struct BasicDesc {
  const char* name;
  int size, align;
  Ext ext;
};

template <class T>
constexpr BasicDesc desc(const char* name, Ext e = Ext::Plain) {
  return {name, int(sizeof(T)), int(alignof(T)), e};
}

inline const BasicDesc kBasics[] = {
    desc<char>("MPI_CHAR"),
    desc<unsigned char>("MPI_BYTE"),
    desc<short>("MPI_SHORT"),
    desc<int>("MPI_INT"),
    desc<long>("MPI_LONG", Ext::Long),
    desc<unsigned long>("MPI_UNSIGNED_LONG", Ext::Long),
    desc<float>("MPI_FLOAT"),
    desc<double>("MPI_DOUBLE"),
    desc<long double>("MPI_LONG_DOUBLE", Ext::LongDouble),
    desc<bool>("MPI_C_BOOL"),
    desc<std::int64_t>("MPI_INT64_T"),
    desc<wchar_t>("MPI_WCHAR"),
    desc<std::complex<float>>("MPI_C_FLOAT_COMPLEX", Ext::Complex),
    desc<std::complex<double>>("MPI_C_DOUBLE_COMPLEX", Ext::Complex),
    desc<std::complex<long double>>("MPI_C_LONG_DOUBLE_COMPLEX", Ext::LongDoubleComplex),
};
inline constexpr int kNBasics = int(sizeof kBasics / sizeof kBasics[0]);
inline constexpr int kInt = 3, kLongDouble = 8;  // indexes in kBasics

inline int external_size(const BasicDesc& b) {
  switch (b.ext) {
    case Ext::Long: return 4;
    case Ext::LongDouble: return 16;
    case Ext::LongDoubleComplex: return 32;
    default: return b.size;
  }
}

// The MINLOC/MAXLOC pair types: the C struct {value; int index;}.
template <class V>
struct PairOf {
  V value;
  int index;
};
struct PairDesc {
  const char* name;
  int value;  // index in kBasics
  int index_offset;
};
inline const PairDesc kPairs[] = {
    {"MPI_FLOAT_INT", 6, int(offsetof(PairOf<float>, index))},
    {"MPI_DOUBLE_INT", 7, int(offsetof(PairOf<double>, index))},
    {"MPI_LONG_INT", 4, int(offsetof(PairOf<long>, index))},
    {"MPI_2INT", kInt, int(offsetof(PairOf<int>, index))},
    {"MPI_SHORT_INT", 2, int(offsetof(PairOf<short>, index))},
    {"MPI_LONG_DOUBLE_INT", kLongDouble, int(offsetof(PairOf<long double>, index))},
};
inline constexpr int kNPairs = int(sizeof kPairs / sizeof kPairs[0]);

// ---- the constructor tree -------------------------------------------------------------

enum class Op {
  Leaf,
  Contiguous,
  Vector,
  Hvector,
  Indexed,
  Hindexed,
  IndexedBlock,
  HindexedBlock,
  Struct,
  Subarray,
  Darray,
  Resized,
  Dup,
  Count_
};

struct Spec {
  Op op = Op::Leaf;
  int leaf = 0;                                // Leaf: kBasics[leaf], or kPairs[leaf - kNBasics]
  bool null = false;                           // Leaf: MPI_DATATYPE_NULL instead
  bool freed = false;                          // freed by the caller before its parent is built
  int count = 0, blocklength = 0, stride = 0;  // contiguous, vector, *_block
  i64 hstride = 0;                             // hvector
  std::vector<int> blocklengths, displs;       // indexed, struct, *_block (displs)
  std::vector<i64> hdispls;                    // hindexed, hindexed_block, struct
  std::vector<int> sizes, subsizes, starts;    // subarray; darray's gsizes are `sizes`
  std::vector<int> distribs, dargs, psizes;    // darray (distribs: 0 none, 1 block, 2 cyclic)
  int nprocs = 1, rank = 0, order = 0;         // darray; order also subarray (0 C, 1 Fortran)
  i64 lb = 0, extent = 0;                      // resized
  std::vector<Spec> kids;                      // the old type(s)
};

// Reads arguments off the front of the input: small values mostly, and now
// and then one that is invalid or huge.
struct Reader {
  const std::uint8_t* p;
  std::size_t n;
  int byte() {
    if (n == 0) return 0;
    --n;
    return *p++;
  }
  int count() {  // 0..4, or -1 (0xFF)
    int b = byte();
    return b == 0xFF ? -1 : b % 5;
  }
  int disp() { return int(std::int8_t(byte())) / 8; }  // -16..15 (elements)
  i64 hdisp() {                                        // -32..31 bytes, or +-2^62
    int b = byte();
    if (b == 0x7F) return i64(1) << 62;
    if (b == 0x80) return -(i64(1) << 62);
    return int(std::int8_t(b)) / 4;
  }
};

Spec decode(Reader& r, int depth);

inline Spec decode_leaf(Reader& r) {
  Spec s;
  int b = r.byte();
  if (b == 0xFE) s.null = true;
  s.leaf = b % (kNBasics + kNPairs);
  return s;
}

inline void decode_lists(Reader& r, Spec& s, int k) {
  for (int i = 0; i < k; ++i) {
    s.blocklengths.push_back(r.count());
    s.displs.push_back(r.disp());
    s.hdispls.push_back(r.hdisp());
  }
  if (r.byte() == 0xEE) s.displs.push_back(0), s.hdispls.push_back(0);  // lengths disagree
}

inline void decode_subarray(Reader& r, Spec& s) {
  int nd = r.byte() % 4;  // 0: invalid
  for (int i = 0; i < nd; ++i) {
    int b = r.byte();
    s.sizes.push_back(b % 4 + (b == 0xFF ? -1 : 1));  // 1..4, or a bad 0..3
    s.subsizes.push_back(r.count());
    s.starts.push_back(r.count());
  }
  s.order = r.byte() % 3 == 2 ? 7 : r.byte() & 1;  // 7: neither C nor Fortran
}

inline void decode_darray(Reader& r, Spec& s) {
  int nd = r.byte() % 4;
  s.nprocs = 1;
  for (int i = 0; i < nd; ++i) {
    s.sizes.push_back(r.count() + 1);
    int d = r.byte();
    s.distribs.push_back(d % 3);
    s.dargs.push_back((d >> 2) % 4 == 0 ? -1 : (d >> 2) % 4 - (d >> 6 == 3 ? 2 : 0));  // -1: default
    s.psizes.push_back(r.byte() % 3 + 1);
    s.nprocs *= s.psizes.back();
  }
  if (r.byte() == 0xDD) s.nprocs += 1;  // not the grid's product
  int k = r.byte();
  s.rank = s.nprocs > 0 ? k % s.nprocs : 0;
  s.order = (k >> 4) & 1;
}

inline void decode_args(Reader& r, Spec& s) {
  switch (s.op) {
    case Op::Contiguous: s.count = r.count(); break;
    case Op::Vector:
    case Op::Hvector:
      s.count = r.count(), s.blocklength = r.count(), s.stride = r.disp(), s.hstride = r.hdisp();
      break;
    case Op::Indexed:
    case Op::Hindexed:
    case Op::Struct: decode_lists(r, s, r.byte() % 4); break;
    case Op::IndexedBlock:
    case Op::HindexedBlock:
      s.blocklength = r.count();
      for (int i = r.byte() % 4; i > 0; --i) s.displs.push_back(r.disp()), s.hdispls.push_back(r.hdisp());
      break;
    case Op::Subarray: decode_subarray(r, s); break;
    case Op::Darray: decode_darray(r, s); break;
    case Op::Resized: s.lb = r.hdisp(), s.extent = r.hdisp(); break;
    default: break;
  }
}

// One byte picks the constructor (0: a leaf; the top bit marks the type as
// freed before use), then its arguments, then its old type(s).
inline Spec decode(Reader& r, int depth) {
  int b = r.byte();
  Op op = depth >= 4 ? Op::Leaf : Op(b % int(Op::Count_));
  if (op == Op::Leaf) return decode_leaf(r);
  Spec s;
  s.op = op;
  decode_args(r, s);
  std::size_t kids = op == Op::Struct ? s.blocklengths.size() : 1;
  if (op == Op::Struct && r.byte() == 0xCC) kids += 1;  // types disagree with blocklengths
  for (std::size_t i = 0; i < kids; ++i) s.kids.push_back(decode(r, depth + 1));
  s.freed = b == 0xF0;
  return s;
}

// ---- the reference type map -----------------------------------------------------------

struct Entry {
  int basic;  // kBasics index
  i128 disp;
};

struct Map {
  std::vector<Entry> entries;  // in type-map order
  i128 lb = 0, ub = 0;
  bool markers = false;    // lb and ub are explicit markers
  bool copies_fit = true;  // every copy's lb and ub fit 64 bits (they are entries of the map, §4.1.7)
  i128 true_lb = 0, true_ub = 0;
  i128 extent() const { return ub - lb; }
  i64 size() const {
    i64 s = 0;
    for (const Entry& e : entries) s += kBasics[e.basic].size;
    return s;
  }
};

// Why a constructor must fail: the MPI error class it must raise.
enum class Refusal { None, Count, Arg, Type };

// The map is larger than the fuzzer wants to list (not an error).
struct TooBig {};
inline constexpr std::size_t kMaxEntries = 1 << 13;

inline bool fits64(i128 v) { return v >= INT64_MIN && v <= INT64_MAX; }

// Collects copies of old maps at displacements, then the new bounds.
class Copies {
 public:
  void place(const Map& old, i128 disp) {
    if (out_.entries.size() + old.entries.size() > kMaxEntries) throw TooBig{};
    for (const Entry& e : old.entries) out_.entries.push_back({e.basic, e.disp + disp});
    widen(&lb_, &ub_, any_, disp + old.lb, disp + old.ub);
    any_ = true;
    out_.copies_fit &= fits64(disp + old.lb) && fits64(disp + old.ub);
    if (old.markers) widen(&mlb_, &mub_, out_.markers, disp + old.lb, disp + old.ub), out_.markers = true;
  }
  // The map with bounds: markers if any copy has them, else the copies'
  // bounds with the extent rounded up to the alignment.
  Map finish() {
    Map m = std::move(out_);
    int align = 1;
    bool data = false;
    for (const Entry& e : m.entries) {
      const BasicDesc& b = kBasics[e.basic];
      align = std::max(align, b.align);
      widen(&m.true_lb, &m.true_ub, data, e.disp, e.disp + b.size);
      data = true;
    }
    if (m.markers) {
      m.lb = mlb_, m.ub = mub_;
    } else if (any_) {
      m.lb = lb_, m.ub = ub_;
      i128 rem = (m.ub - m.lb) % align;
      if (rem > 0) m.ub += align - rem;
    }
    return m;
  }

 private:
  static void widen(i128* lo, i128* hi, bool have, i128 l, i128 h) {
    *lo = have ? std::min(*lo, l) : l;
    *hi = have ? std::max(*hi, h) : h;
  }
  Map out_;
  bool any_ = false;
  i128 lb_ = 0, ub_ = 0, mlb_ = 0, mub_ = 0;
};

inline Map basic_map(int b) {
  Copies c;
  Map one;
  one.entries.push_back({b, 0});
  one.ub = one.true_ub = kBasics[b].size;
  c.place(one, 0);
  return c.finish();
}

inline Map leaf_map(int leaf) {
  if (leaf < kNBasics) return basic_map(leaf);
  const PairDesc& p = kPairs[leaf - kNBasics];
  Copies c;
  c.place(basic_map(p.value), 0);
  c.place(basic_map(kInt), p.index_offset);
  return c.finish();
}

// The same entries with new explicit markers (resized; the last step of
// subarray and darray): earlier markers are erased (MPI-3.1 §4.1.7).
inline Map with_markers(Map m, i128 lb, i128 ub) {
  m.lb = lb, m.ub = ub, m.markers = true;
  return m;
}

// Row-major (C) or column-major (Fortran) linear index of idx in dims.
inline i128 linear(const std::vector<int>& idx, const std::vector<int>& dims, int order) {
  i128 v = 0;
  const std::size_t n = dims.size();
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t i = order == 0 ? k : n - 1 - k;
    v = v * dims[i] + idx[i];
  }
  return v;
}

// Calls f(idx) for every combination of idx[i] in choices[i], the fastest
// varying index last in C order and first in Fortran order.
template <class F>
void each_index(const std::vector<std::vector<int>>& choices, int order, F&& f) {
  const std::size_t n = choices.size();
  for (const auto& c : choices)
    if (c.empty()) return;
  std::vector<std::size_t> at(n, 0);
  std::vector<int> idx(n);
  for (;;) {
    for (std::size_t i = 0; i < n; ++i) idx[i] = choices[i][at[i]];
    f(idx);
    std::size_t k = 0;
    for (; k < n; ++k) {  // advance the fastest index first
      std::size_t i = order == 0 ? n - 1 - k : k;
      if (++at[i] < choices[i].size()) break;
      at[i] = 0;
    }
    if (k == n) return;
  }
}

// ---- argument rules (each constructor's, in the order core checks them) ----

inline bool any_negative(const std::vector<int>& v) {
  return std::any_of(v.begin(), v.end(), [](int x) { return x < 0; });
}

inline Refusal subarray_refusal(const Spec& s) {
  const std::size_t n = s.sizes.size();
  if (n == 0) return Refusal::Arg;
  for (std::size_t i = 0; i < n; ++i)
    if (s.sizes[i] < 1 || s.subsizes[i] < 1 || s.subsizes[i] > s.sizes[i] || s.starts[i] < 0 ||
        s.starts[i] > s.sizes[i] - s.subsizes[i])
      return Refusal::Arg;
  return s.order == 0 || s.order == 1 ? Refusal::None : Refusal::Arg;
}

inline Refusal darray_refusal(const Spec& s) {
  const std::size_t n = s.sizes.size();
  if (n == 0 || s.rank < 0 || s.rank >= s.nprocs) return Refusal::Arg;
  int procs = 1;
  for (std::size_t i = 0; i < n; ++i) {
    procs *= s.psizes[i];
    int d = s.dargs[i];
    if (s.sizes[i] < 1 || (d != -1 && d < 1)) return Refusal::Arg;
    if (s.distribs[i] == 0 && s.psizes[i] != 1) return Refusal::Arg;
    if (s.distribs[i] == 1 && d != -1 && d * s.psizes[i] < s.sizes[i]) return Refusal::Arg;
  }
  return procs == s.nprocs ? Refusal::None : Refusal::Arg;
}

// The refusal of the call itself, its old types being valid.
inline Refusal own_refusal(const Spec& s) {
  switch (s.op) {
    case Op::Contiguous: return s.count < 0 ? Refusal::Count : Refusal::None;
    case Op::Vector:
    case Op::Hvector:
      if (s.count < 0) return Refusal::Count;
      return s.blocklength < 0 ? Refusal::Arg : Refusal::None;
    case Op::Indexed:
    case Op::Hindexed:
      return s.displs.size() != s.blocklengths.size() || any_negative(s.blocklengths) ? Refusal::Arg
                                                                                      : Refusal::None;
    case Op::Struct:
      return s.displs.size() != s.blocklengths.size() || s.kids.size() != s.blocklengths.size() ||
                     any_negative(s.blocklengths)
                 ? Refusal::Arg
                 : Refusal::None;
    case Op::IndexedBlock:
    case Op::HindexedBlock: return s.blocklength < 0 ? Refusal::Arg : Refusal::None;
    case Op::Subarray: return subarray_refusal(s);
    case Op::Darray: return darray_refusal(s);
    default: return Refusal::None;
  }
}

// ---- the maps of the constructors (MPI-3.1 §4.1.2-4.1.7) ----

// Block i of blocklens[i] copies of old, one extent apart, from byte displacement at(i).
template <class At>
Map blocks(const Map& old, std::size_t n, const std::vector<int>& blocklens, At&& at) {
  Copies c;
  for (std::size_t i = 0; i < n; ++i)
    for (int j = 0; j < blocklens[i]; ++j) c.place(old, at(i) + i128(j) * old.extent());
  return c.finish();
}

inline Map subarray_map(const Spec& s, const Map& old) {
  std::vector<std::vector<int>> choices(s.sizes.size());
  for (std::size_t i = 0; i < choices.size(); ++i)
    for (int k = 0; k < s.subsizes[i]; ++k) choices[i].push_back(s.starts[i] + k);
  Copies c;
  each_index(choices, s.order,
             [&](const std::vector<int>& idx) { c.place(old, linear(idx, s.sizes, s.order) * old.extent()); });
  i128 whole = 1;
  for (int n : s.sizes) whole *= n;
  return with_markers(c.finish(), 0, whole * old.extent());
}

// The global indices of dimension i that this rank owns (MPI-3.1 §4.1.4):
// blocks of darg indices dealt round the grid dimension.
inline std::vector<int> darray_owned(const Spec& s, std::size_t i, int coord) {
  const int g = s.sizes[i], p = s.psizes[i];
  int darg = s.dargs[i];
  if (s.distribs[i] == 0)
    darg = g;
  else if (darg == -1)
    darg = s.distribs[i] == 2 ? 1 : (g + p - 1) / p;
  std::vector<int> owned;
  for (int x = 0; x < g; ++x)
    if ((x / darg) % p == coord) owned.push_back(x);
  return owned;
}

inline Map darray_map(const Spec& s, const Map& old) {
  const std::size_t n = s.sizes.size();
  std::vector<std::vector<int>> choices(n);
  int r = s.rank;
  for (std::size_t k = n; k-- > 0;) {  // the process grid is row-major whatever the order
    choices[k] = darray_owned(s, k, r % s.psizes[k]);
    r /= s.psizes[k];
  }
  Copies c;
  each_index(choices, s.order,
             [&](const std::vector<int>& idx) { c.place(old, linear(idx, s.sizes, s.order) * old.extent()); });
  i128 whole = 1;
  for (int g : s.sizes) whole *= g;
  return with_markers(c.finish(), 0, whole * old.extent());
}

inline Map struct_map(const Spec& s, const std::vector<Map>& olds) {
  Copies c;
  for (std::size_t i = 0; i < olds.size(); ++i)
    for (int j = 0; j < s.blocklengths[i]; ++j) c.place(olds[i], s.hdispls[i] + i128(j) * olds[i].extent());
  return c.finish();
}

inline Map constructed_map(const Spec& s, const std::vector<Map>& olds) {
  if (s.op == Op::Struct) return struct_map(s, olds);
  const Map& old = olds[0];
  const i128 ext = old.extent();
  switch (s.op) {
    case Op::Contiguous: return blocks(old, 1, {s.count}, [](std::size_t) { return i128(0); });
    case Op::Vector:
    case Op::Hvector: {
      i128 step = s.op == Op::Vector ? i128(s.stride) * ext : i128(s.hstride);
      return blocks(old, std::size_t(s.count), std::vector<int>(std::size_t(s.count), s.blocklength),
                    [&](std::size_t i) { return i128(i) * step; });
    }
    case Op::Indexed:
      return blocks(old, s.displs.size(), s.blocklengths, [&](std::size_t i) { return s.displs[i] * ext; });
    case Op::Hindexed:
      return blocks(old, s.hdispls.size(), s.blocklengths, [&](std::size_t i) { return i128(s.hdispls[i]); });
    case Op::IndexedBlock:
      return blocks(old, s.displs.size(), std::vector<int>(s.displs.size(), s.blocklength),
                    [&](std::size_t i) { return s.displs[i] * ext; });
    case Op::HindexedBlock:
      return blocks(old, s.hdispls.size(), std::vector<int>(s.hdispls.size(), s.blocklength),
                    [&](std::size_t i) { return i128(s.hdispls[i]); });
    case Op::Subarray: return subarray_map(s, old);
    case Op::Darray: return darray_map(s, old);
    case Op::Resized: return with_markers(old, s.lb, i128(s.lb) + s.extent);
    default: return old;  // dup
  }
}

// Whether the bytes vector, indexed and indexed_block scale by the old extent fit 64 bits.
inline bool scaled_fit(const Spec& s, const Map& old) {
  const i128 ext = old.extent();
  switch (s.op) {
    case Op::Vector: return s.count <= 1 || s.blocklength == 0 || fits64(s.stride * ext);
    case Op::Indexed:
      for (std::size_t i = 0; i < s.displs.size(); ++i)
        if (s.blocklengths[i] > 0 && !fits64(s.displs[i] * ext)) return false;
      return true;
    case Op::IndexedBlock:
      return s.blocklength == 0 || std::all_of(s.displs.begin(), s.displs.end(),
                                               [&](int d) { return fits64(d * ext); });
    default: return true;
  }
}

inline bool map_fits(const Map& m) {
  if (!m.copies_fit || !fits64(m.lb) || !fits64(m.ub) || !fits64(m.extent()) || !fits64(m.true_ub - m.true_lb))
    return false;
  return std::all_of(m.entries.begin(), m.entries.end(),
                     [](const Entry& e) { return fits64(e.disp) && fits64(e.disp + kBasics[e.basic].size); });
}

// The map of s, or the refusal its construction must meet first (its old
// types are built first, in order). Throws TooBig.
// When the call's own arguments are wrong and an old type is null or freed
// as well, MPI does not say which error comes first: either class will do.
struct Result {
  Refusal refusal = Refusal::None;
  Map map;
  Refusal also = Refusal::None;  // the other acceptable class
};

inline Result ref_map(const Spec& s) {
  if (s.op == Op::Leaf) return s.null ? Result{Refusal::Type, {}} : Result{Refusal::None, leaf_map(s.leaf)};
  std::vector<Map> olds;
  bool bad_old = false;  // MPI_DATATYPE_NULL or freed: the constructor's own check, after the others
  for (const Spec& k : s.kids) {
    if (k.op == Op::Leaf && k.null) {
      bad_old = true;
      olds.emplace_back();
      continue;
    }
    Result r = ref_map(k);
    if (r.refusal != Refusal::None) return r;
    bad_old |= k.freed;
    olds.push_back(std::move(r.map));
  }
  if (Refusal own = own_refusal(s); own != Refusal::None)
    return {own, {}, bad_old ? Refusal::Type : Refusal::None};
  if (bad_old) return {Refusal::Type, {}};
  if (s.op != Op::Struct && !scaled_fit(s, olds[0])) return {Refusal::Arg, {}};
  Map m = constructed_map(s, olds);
  if (!map_fits(m)) return {Refusal::Arg, {}};
  return {Refusal::None, std::move(m)};
}

// ---- the elements of `count` copies, as a message carries them ---------------------------

// The bytes [lo, hi) that count elements touch, relative to the buffer.
inline void touched(const Map& m, i64 count, i128* lo, i128* hi) {
  *lo = *hi = 0;
  bool any = false;
  for (i64 k = 0; k < count; ++k)
    for (const Entry& e : m.entries) {
      i128 at = e.disp + k * m.extent(), end = at + kBasics[e.basic].size;
      *lo = any ? std::min(*lo, at) : at;
      *hi = any ? std::max(*hi, end) : end;
      any = true;
    }
}

// Entry k of the stream: displacement in the buffer and offset in the packed bytes.
struct Element {
  int basic;
  i64 disp, packed;
};

inline std::vector<Element> stream(const Map& m, i64 count) {
  std::vector<Element> out;
  i64 at = 0;
  for (i64 k = 0; k < count; ++k)
    for (const Entry& e : m.entries) {
      out.push_back({e.basic, i64(e.disp + i128(k) * m.extent()), at});
      at += kBasics[e.basic].size;
    }
  return out;
}

}  // namespace lumpi::fuzz::dt
