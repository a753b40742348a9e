// tests/fuzz/fuzz_datatype.cpp: the one pack engine (core/datatype) against an
// independent reference. The input's first bytes decode into a tree of
// datatype constructors with their arguments, valid or not
// (tests/fuzz/datatype_model.hpp: every constructor of MPI-3.1 §4.1,
// negative strides and displacements, zero counts, holes, moved bounds,
// nested four deep); the next ones choose a count, the buffer's bytes and
// partial message lengths. What must hold:
//   - a constructor refuses exactly the arguments the reference refuses,
//     with the reference's error class (MPI_ERR_COUNT, MPI_ERR_ARG,
//     MPI_ERR_TYPE), and never crashes;
//   - size, lb, extent, true lb and true extent, the number of basic
//     elements and the flattened map (typemap()) equal the reference's;
//   - span(count) is the bytes the reference's `count` elements touch, and
//     the buffers are allocated exactly that big, so AddressSanitizer sees
//     any stray access;
//   - pack gives the reference's bytes in type-map order; unpack of the whole
//     message, and of a shorter one, into a poisoned buffer writes exactly
//     the bytes the reference writes and touches nothing else (bytes that
//     two entries of the map share are not compared: a receive type with
//     overlapping entries is erroneous, MPI-3.1 §4.1.1); a longer message
//     is MPI_ERR_TRUNCATE and writes nothing;
//   - count_of and elements_of (MPI_Get_count, MPI_Get_elements) agree with
//     the reference for every message length up to count elements;
//   - external32 (MPI-3.1 §13.5.2) has the size of its Table 13.2, writes
//     each element big-endian, refuses an MPI_LONG that does not fit 4 bytes
//     with MPI_ERR_CONVERSION naming the element, and reads back what it
//     wrote (a long double's padding zeroed and its explicit integer bit
//     made what binary128's implied one says).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/base/constants.hpp"
#include "core/base/error.hpp"
#include "core/datatype/datatype.hpp"
#include "core/datatype/external32.hpp"
#include "tests/fuzz/datatype_model.hpp"

using namespace lumpi::core;
using namespace lumpi::fuzz::dt;

namespace {

[[noreturn]] void broken(const std::string& what) {
  std::fprintf(stderr, "fuzz_datatype: %s\n", what.c_str());
  std::abort();
}

// (Loops over bytes test first and build the message only on failure.)
void expect(bool ok, const std::string& what) {
  if (!ok) broken(what);
}

std::string str(i128 v) { return std::to_string(i64(v)); }

// ---- building the type through core -----------------------------------------------------

TypePtr leaf_type(int leaf) {
  if (leaf < kNBasics) {
    for (int b = 0; b < int(Basic::Count_); ++b)
      if (std::strcmp(basic_info(Basic(b)).name, kBasics[leaf].name) == 0) return Datatype::basic(Basic(b));
  } else {
    for (int p = 0; p < int(Pair::Count_); ++p)
      if (Datatype::pair(Pair(p))->name() == kPairs[leaf - kNBasics].name) return Datatype::pair(Pair(p));
  }
  broken("no core type for the model's leaf " + std::to_string(leaf));
}

DarrayArgs darray_args(const Spec& s) {
  DarrayArgs a{s.nprocs, s.rank, s.sizes, {}, s.dargs, s.psizes, Order(s.order)};
  for (int d : s.distribs) a.distribs.push_back(Distribution(d));
  return a;
}

TypePtr call(const Spec& s, const std::vector<TypePtr>& olds) {
  const TypePtr& old = olds.empty() ? nullptr : olds[0];
  switch (s.op) {
    case Op::Contiguous: return Datatype::contiguous(s.count, old);
    case Op::Vector: return Datatype::vector(s.count, s.blocklength, s.stride, old);
    case Op::Hvector: return Datatype::hvector(s.count, s.blocklength, s.hstride, old);
    case Op::Indexed: return Datatype::indexed(s.blocklengths, s.displs, old);
    case Op::Hindexed: return Datatype::hindexed(s.blocklengths, s.hdispls, old);
    case Op::IndexedBlock: return Datatype::indexed_block(s.blocklength, s.displs, old);
    case Op::HindexedBlock: return Datatype::hindexed_block(s.blocklength, s.hdispls, old);
    case Op::Struct: return Datatype::create_struct(s.blocklengths, s.hdispls, olds);
    case Op::Subarray: return Datatype::subarray(s.sizes, s.subsizes, s.starts, Order(s.order), old);
    case Op::Darray: return Datatype::darray(darray_args(s), old);
    case Op::Resized: return Datatype::resized(old, s.lb, s.extent);
    case Op::Dup: return Datatype::dup(old);
    default: return leaf_type(s.leaf);
  }
}

// Builds the old types first, frees those marked freed, then calls the constructor.
TypePtr build(const Spec& s) {
  if (s.op == Op::Leaf) return s.null ? nullptr : leaf_type(s.leaf);
  std::vector<TypePtr> olds;
  for (const Spec& k : s.kids) olds.push_back(build(k));
  for (std::size_t i = 0; i < olds.size(); ++i)
    if (s.kids[i].freed) olds[i]->free();
  return call(s, olds);
}

ErrClass class_of(Refusal r) {
  switch (r) {
    case Refusal::Count: return ErrClass::Count;
    case Refusal::Type: return ErrClass::Type;
    default: return ErrClass::Arg;
  }
}

// The type, or null when the reference says its construction fails (and it did, rightly).
TypePtr construct(const Spec& s, const Result& want) {
  try {
    TypePtr t = build(s);
    expect(want.refusal == Refusal::None, "a constructor accepted arguments the reference refuses (class " +
                                              std::to_string(int(class_of(want.refusal))) + ")");
    return t;
  } catch (const Error& e) {
    expect(want.refusal != Refusal::None, std::string("a valid type was refused: ") + e.what());
    expect(e.cls() == class_of(want.refusal) || (want.also != Refusal::None && e.cls() == class_of(want.also)),
           std::string("refused with the wrong class: ") + e.what() + " (want class " +
               std::to_string(int(class_of(want.refusal))) + ")");
    expect(!e.message().empty(), "a refusal without a message");
    return nullptr;
  }
}

// ---- the map ------------------------------------------------------------------------

void check_queries(const Datatype& t, const Map& m) {
  expect(t.size() == m.size(), "size " + std::to_string(t.size()) + ", reference " + std::to_string(m.size()));
  expect(t.lb() == m.lb, "lb " + std::to_string(t.lb()) + ", reference " + str(m.lb));
  expect(t.extent() == m.extent(), "extent " + std::to_string(t.extent()) + ", reference " + str(m.extent()));
  expect(t.true_lb() == m.true_lb, "true lb " + std::to_string(t.true_lb()) + ", reference " + str(m.true_lb));
  expect(t.true_extent() == m.true_ub - m.true_lb,
         "true extent " + std::to_string(t.true_extent()) + ", reference " + str(m.true_ub - m.true_lb));
  expect(t.layout().nbasic == i64(m.entries.size()), "number of basic elements differs");
  std::size_t k = 0;  // the flattened runs, entry by entry
  for (const Run& r : t.runs())
    for (i64 j = 0; j < r.count; ++j, ++k) {
      expect(k < m.entries.size(), "the flattened map has more entries than the reference");
      const Entry& e = m.entries[k];
      if (std::strcmp(basic_info(r.basic).name, kBasics[e.basic].name) != 0 ||
          r.offset + j * i64(basic_info(r.basic).size) != e.disp)
        broken("flattened entry " + std::to_string(k) + " differs from the reference");
    }
  expect(k == m.entries.size(), "the flattened map has fewer entries than the reference");
}

// ---- buffers ----------------------------------------------------------------------------

constexpr unsigned char kPoison = 0xA5;

// The bytes [lo, hi) relative to a buffer's address, allocated exactly.
struct Buffer {
  i64 lo, hi;
  std::vector<unsigned char> mem;
  Buffer(i64 l, i64 h, unsigned char fill) : lo(l), hi(h), mem(std::size_t(h - l) + 1, fill) { mem.pop_back(); }
  void* base() {
    return reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(mem.data()) - std::uintptr_t(lo));
  }
  unsigned char* at(i64 disp) { return mem.data() + (disp - lo); }
};

// Byte values that differ from place to place; MPI_LONG elements made to fit
// external32's 4 bytes when `fit_longs`.
void fill(Buffer& b, const std::vector<Element>& els, unsigned seed, bool fit_longs) {
  for (std::size_t i = 0; i < b.mem.size(); ++i)
    b.mem[i] = (unsigned char)((i * 167 + seed * 13 + (i >> 8)) ^ seed);
  if (!fit_longs) return;
  for (const Element& e : els)
    if (kBasics[e.basic].ext == Ext::Long) {
      std::int32_t small;
      std::memcpy(&small, b.at(e.disp), 4);
      i64 v = std::strcmp(kBasics[e.basic].name, "MPI_LONG") == 0 ? i64(small) : i64(std::uint32_t(small));
      std::memcpy(b.at(e.disp), &v, 8);
    }
}

std::string reference_pack(Buffer& src, const std::vector<Element>& els) {
  std::string out;
  for (const Element& e : els)
    out.append(reinterpret_cast<const char*>(src.at(e.disp)), std::size_t(kBasics[e.basic].size));
  return out;
}

// Unpacks the first n bytes of packed into a poisoned buffer and compares it
// with what the reference writes.
void check_unpack(const Datatype& t, i64 count, const std::vector<Element>& els, const std::string& packed,
                  std::size_t n, i64 lo, i64 hi) {
  Buffer got(lo, hi, kPoison);
  t.unpack(packed.data(), n, got.base(), count, "fuzz");
  std::vector<int> writers(std::size_t(hi - lo), 0);
  std::vector<unsigned char> want(std::size_t(hi - lo), kPoison);
  for (const Element& e : els)
    for (i64 j = 0; j < kBasics[e.basic].size && e.packed + j < i64(n); ++j) {
      std::size_t i = std::size_t(e.disp + j - lo);
      ++writers[i];
      want[i] = (unsigned char)packed[std::size_t(e.packed + j)];
    }
  for (std::size_t i = 0; i < want.size(); ++i)
    if (writers[i] <= 1 && got.mem[i] != want[i])
      broken("unpack of " + std::to_string(n) + " bytes: byte at " + std::to_string(i64(i) + lo) +
             (writers[i] ? " differs from the reference" : " was written outside the map"));
}

void check_truncation(const Datatype& t, i64 count, const std::string& packed, i64 lo, i64 hi) {
  std::string longer = packed + "x";
  Buffer got(lo, hi, kPoison);
  try {
    t.unpack(longer.data(), longer.size(), got.base(), count, "fuzz");
    broken("a message longer than count elements was accepted");
  } catch (const Error& e) {
    expect(e.cls() == ErrClass::Truncate, std::string("a longer message: ") + e.what());
  }
  for (unsigned char c : got.mem)
    if (c != kPoison) broken("a truncated receive wrote into the buffer");
}

// ---- counts ----------------------------------------------------------------------------

void check_counts(const Datatype& t, const Map& m, const std::vector<Element>& els) {
  const i64 size = m.size(), total = els.empty() ? 0 : els.back().packed + kBasics[els.back().basic].size;
  const i64 step = total > 512 ? total / 256 : 1;
  std::size_t whole = 0;  // elements entirely inside the first b bytes
  for (i64 b = 0; b <= total; b += step) {
    while (whole < els.size() && els[whole].packed + kBasics[els[whole].basic].size <= b) ++whole;
    bool cut = whole < els.size() && els[whole].packed < b;
    i64 want_elements = cut ? UNDEFINED : i64(whole);
    i64 want_count = size == 0 ? (b == 0 ? 0 : UNDEFINED) : (b % size == 0 ? b / size : UNDEFINED);
    if (t.elements_of(b) != want_elements)
      broken("elements_of(" + std::to_string(b) + ") = " + std::to_string(t.elements_of(b)) + ", reference " +
             std::to_string(want_elements));
    if (t.count_of(b) != want_count) broken("count_of(" + std::to_string(b) + ") differs from the reference");
  }
}

// ---- external32 --------------------------------------------------------------------------

// What a long double is after binary128 and back: padding zero, integer bit = exponent != 0.
void normalize_long_double(char* x) {
  std::uint64_t mant;
  std::uint16_t se;
  std::memcpy(&mant, x, 8);
  std::memcpy(&se, x + 8, 2);
  mant = (mant & ~(std::uint64_t(1) << 63)) | (std::uint64_t((se & 0x7fff) != 0) << 63);
  std::memcpy(x, &mant, 8);
  std::memset(x + 10, 0, 6);
}

// The index of the first MPI_LONG that does not fit 4 bytes, or -1.
i64 first_unfit_long(const std::vector<Element>& els, const std::string& packed) {
  for (std::size_t k = 0; k < els.size(); ++k) {
    if (kBasics[els[k].basic].ext != Ext::Long) continue;
    i64 v;
    std::memcpy(&v, packed.data() + els[k].packed, 8);
    bool is_signed = std::strcmp(kBasics[els[k].basic].name, "MPI_LONG") == 0;
    if (is_signed ? (v < INT32_MIN || v > INT32_MAX) : std::uint64_t(v) > UINT32_MAX) return i64(k);
  }
  return -1;
}

// Element k's external32 bytes for the types whose form is plain byte reversal.
void check_external_element(const Element& e, const char* native, const char* ext, std::size_t k) {
  const BasicDesc& b = kBasics[e.basic];
  int parts = b.ext == Ext::Complex ? 2 : 1, len = b.ext == Ext::Long ? 4 : b.size / parts;
  if (b.ext == Ext::LongDouble || b.ext == Ext::LongDoubleComplex) return;
  for (int p = 0; p < parts; ++p)
    for (int j = 0; j < len; ++j)
      if (ext[p * len + j] != native[p * len + (len - 1 - j)])
        broken("external32 element " + std::to_string(k) + " (" + b.name + ") is not big-endian");
}

void check_external32(const Datatype& t, i64 count, const std::vector<Element>& els, const std::string& packed) {
  i64 want_size = 0;
  for (const Element& e : els) want_size += external_size(kBasics[e.basic]);
  expect(external32_size(t, count) == want_size, "external32_size differs from Table 13.2's sizes");
  const i64 unfit = first_unfit_long(els, packed);
  std::string ext;
  try {
    ext = to_external32(t, count, packed, "fuzz");
    expect(unfit < 0, "an MPI_LONG beyond 32 bits went into external32");
  } catch (const Error& e) {
    expect(unfit >= 0 && e.cls() == ErrClass::Conversion, std::string("external32: ") + e.what());
    expect(e.message().find("element " + std::to_string(unfit) + " ") != std::string::npos,
           "the conversion error names another element: " + e.message());
    return;
  }
  expect(i64(ext.size()) == want_size, "to_external32 wrote another size than external32_size");
  std::string want = packed;
  i64 at = 0;
  for (std::size_t k = 0; k < els.size(); ++k) {
    const Element& e = els[k];
    check_external_element(e, packed.data() + e.packed, ext.data() + at, k);
    at += external_size(kBasics[e.basic]);
    for (int h = 0; h < kBasics[e.basic].size; h += 16)
      if (kBasics[e.basic].ext == Ext::LongDouble || kBasics[e.basic].ext == Ext::LongDoubleComplex)
        normalize_long_double(want.data() + e.packed + h);
  }
  expect(from_external32(t, count, ext, "fuzz") == want, "external32 does not read back what it wrote");
}

// ---- one input -----------------------------------------------------------------------------

void check_data(const Datatype& t, const Map& m, i64 count, Reader& r) {
  i128 lo, hi;
  touched(m, count, &lo, &hi);
  if (hi - lo > (1 << 16) || !fits64(lo) || !fits64(hi)) return;  // huge: the queries were checked, not the data
  const std::vector<Element> els = stream(m, count);
  i64 span_lo, span_hi;
  t.span(count, &span_lo, &span_hi);
  expect(span_lo == lo && span_hi == hi, "span(" + std::to_string(count) + ") = [" + std::to_string(span_lo) +
                                             ", " + std::to_string(span_hi) + "), reference [" + str(lo) + ", " +
                                             str(hi) + ")");
  const int seed = r.byte();
  Buffer src(i64(lo), i64(hi), 0);
  fill(src, els, unsigned(seed), (seed & 1) == 0);
  const std::string want = reference_pack(src, els);
  std::string packed;
  t.pack(src.base(), count, packed, "fuzz");
  expect(packed == want, "pack differs from the reference's bytes");
  check_unpack(t, count, els, packed, packed.size(), i64(lo), i64(hi));
  if (!packed.empty())
    check_unpack(t, count, els, packed, std::size_t(r.byte()) % packed.size(), i64(lo), i64(hi));
  check_truncation(t, count, packed, i64(lo), i64(hi));
  check_counts(t, m, els);
  check_external32(t, count, els, packed);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader r{data, size};
  const Spec spec = decode(r, 0);
  if (spec.op == Op::Leaf && spec.null) return 0;  // MPI_DATATYPE_NULL alone: nothing is called
  Result want;
  try {
    want = ref_map(spec);
  } catch (const TooBig&) {
    return 0;  // more entries than the reference lists
  }
  TypePtr t = construct(spec, want);
  if (!t) return 0;
  t->commit();
  check_queries(*t, want.map);
  check_data(*t, want.map, r.byte() % 4, r);
  return 0;
}
