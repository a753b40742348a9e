// tests/fuzz/fuzz_unpack.cpp: the decoder of a received message into a
// derived datatype (core/datatype/datatype.cpp Datatype::unpack, which the C API's
// MPI_Recv family and Lua's typed receives call on a peer's bytes), and the
// counts read from a message's length (count_of, elements_of: MPI_Get_count,
// MPI_Get_elements). The input's first bytes build a datatype (nested
// constructors with small, possibly negative, arguments) and a count; the
// rest is the message. What must hold:
//   - unpack writes only inside the bytes `count` elements touch (span);
//     the buffer is exactly that big, so AddressSanitizer sees any stray byte;
//   - a message longer than count * size raises MPI_ERR_TRUNCATE, any other
//     raises nothing;
//   - a whole message survives pack and unpack again (same buffer bytes);
//   - count_of gives a count whose elements hold exactly the message, or
//     UNDEFINED; elements_of is never negative unless UNDEFINED.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/base/constants.hpp"
#include "core/datatype/datatype.hpp"
#include "core/base/error.hpp"

using namespace lumpi::core;

namespace {

[[noreturn]] void broken(const char* what) {
  std::fprintf(stderr, "fuzz_unpack: %s\n", what);
  std::abort();
}

// Reads the type description off the front of the input.
struct Reader {
  const uint8_t* p;
  size_t n;
  int byte() {
    if (n == 0) return 0;
    --n;
    return *p++;
  }
  int small() { return byte() % 5; }                        // counts, block lengths
  int signed_small() { return int(int8_t(byte())) / 8; }  // displacements, strides: -16..15
};

TypePtr build(Reader& r, int depth) {
  int op = depth >= 3 ? 0 : r.byte() % 11;
  switch (op) {
    case 0: {
      int b = r.byte();
      if (b & 0x80) return Datatype::pair(Pair(b % int(Pair::Count_)));
      return Datatype::basic(Basic(b % int(Basic::Count_)));
    }
    case 1: return Datatype::contiguous(r.small(), build(r, depth + 1));
    case 2: {
      int c = r.small(), bl = r.small(), s = r.signed_small();
      return Datatype::vector(c, bl, s, build(r, depth + 1));
    }
    case 3: {
      int c = r.small(), bl = r.small(), s = r.signed_small();
      return Datatype::hvector(c, bl, s, build(r, depth + 1));
    }
    case 4:
    case 5: {
      int k = r.small();
      std::vector<int> bls, ds;
      std::vector<std::int64_t> hds;
      for (int i = 0; i < k; ++i) {
        bls.push_back(r.small());
        ds.push_back(r.signed_small());
        hds.push_back(ds.back() * 3);
      }
      TypePtr old = build(r, depth + 1);
      return op == 4 ? Datatype::indexed(bls, ds, old) : Datatype::hindexed(bls, hds, old);
    }
    case 6: {
      int bl = r.small(), k = r.small();
      std::vector<int> ds;
      for (int i = 0; i < k; ++i) ds.push_back(r.signed_small());
      return Datatype::indexed_block(bl, ds, build(r, depth + 1));
    }
    case 7: {
      int k = r.small() % 3 + 1;
      std::vector<int> bls;
      std::vector<std::int64_t> ds;
      std::vector<TypePtr> ts;
      for (int i = 0; i < k; ++i) {
        bls.push_back(r.small());
        ds.push_back(r.signed_small());
        ts.push_back(build(r, depth + 1));
      }
      return Datatype::create_struct(bls, ds, ts);
    }
    case 8: {
      int nd = r.small() % 3 + 1;
      std::vector<int> sizes, subs, starts;
      for (int i = 0; i < nd; ++i) {
        sizes.push_back(r.small());
        subs.push_back(r.small());
        starts.push_back(r.small());
      }
      Order o = r.byte() & 1 ? Order::Fortran : Order::C;
      return Datatype::subarray(sizes, subs, starts, o, build(r, depth + 1));
    }
    case 9: {
      std::int64_t lb = r.signed_small(), extent = r.signed_small();
      return Datatype::resized(build(r, depth + 1), lb, extent);
    }
    default: return Datatype::dup(build(r, depth + 1));
  }
}

// `bytes` of span [lo, hi) as one exact allocation; base() is where the
// elements start (offset -lo inside it).
struct Buffer {
  std::int64_t lo, hi;
  char* mem;
  Buffer(std::int64_t l, std::int64_t h) : lo(l), hi(h), mem(new char[size_t(h - l) + 1]) {
    std::memset(mem, 0xA5, size_t(h - l));
  }
  ~Buffer() { delete[] mem; }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  char* base() { return mem - lo; }
  bool same(const Buffer& o) const { return std::memcmp(mem, o.mem, size_t(hi - lo)) == 0; }
};

void check(const Datatype& t, std::int64_t count, const char* data, size_t n) {
  std::int64_t lo, hi;
  t.span(count, &lo, &hi);
  Buffer got(lo, hi);
  bool longer = std::int64_t(n) > count * t.size();
  try {
    t.unpack(data, n, got.base(), count, "fuzz");
    if (longer) broken("a message longer than count elements was accepted");
  } catch (const Error& e) {
    if (!longer || e.cls() != ErrClass::Truncate) broken(e.what());
    return;
  }
  if (std::int64_t(n) == count * t.size()) {  // whole: pack and unpack again
    std::string packed;
    t.pack(got.base(), count, packed, "fuzz");
    if (packed.size() != n) broken("pack gave another length than unpack took");
    Buffer again(lo, hi);
    t.unpack(packed.data(), packed.size(), again.base(), count, "fuzz");
    if (!again.same(got)) broken("unpack(pack(unpack(m))) differs from unpack(m)");
  }
  std::int64_t k = t.count_of(std::int64_t(n));
  if (k != UNDEFINED && k * t.size() != std::int64_t(n)) broken("count_of does not hold the message");
  std::int64_t e = t.elements_of(std::int64_t(n));
  if (e != UNDEFINED && e < 0) broken("elements_of is negative");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader r{data, size};
  TypePtr t;
  try {
    t = build(r, 0);
    t->commit();
  } catch (const Error&) {
    return 0;  // refused arguments or a map too large: the constructors' job, not this target's
  }
  std::int64_t count = r.small();
  std::int64_t lo, hi;
  t->span(count, &lo, &hi);
  if (hi - lo > (1 << 20) || count * t->size() > (1 << 20)) return 0;
  check(*t, count, reinterpret_cast<const char*>(r.p), r.n);
  return 0;
}
