// tests/unit/external32_test.cpp: the external32 representation
// (core/datatype/external32.hpp) against bytes written out by hand from
// MPI-3.1 §13.5.2 (big-endian, IEEE 754, Table 13.2's sizes).
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/base/error.hpp"
#include "core/datatype/external32.hpp"

using namespace lumpi::core;

namespace {

std::string hex(const std::string& s) {
  static const char* d = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) out += {d[c >> 4], d[c & 15]};
  return out;
}

// The external32 bytes of `values`, read as elements of b (a complex
// element is two values).
template <class T>
std::string external(Basic b, std::vector<T> values) {
  TypePtr t = Datatype::basic(b);
  const auto count = std::int64_t(values.size() * sizeof(T) / basic_info(b).size);
  std::string native;
  t->pack(values.data(), count, native, "test");
  return hex(to_external32(*t, count, native, "test"));
}

}  // namespace

TEST_CASE("external32 is big-endian with Table 13.2's sizes") {
  CHECK(external<int>(Basic::Int, {1, -2}) == "00000001fffffffe");
  CHECK(external<short>(Basic::Short, {0x1234}) == "1234");
  CHECK(external<long>(Basic::Long, {-2, 7}) == "fffffffe00000007");  // 4 bytes, not 8
  CHECK(external<unsigned long>(Basic::UnsignedLong, {0xfffffffful}) == "ffffffff");
  CHECK(external<double>(Basic::Double, {1.0}) == "3ff0000000000000");
  CHECK(external<float>(Basic::Float, {-2.0f}) == "c0000000");
  CHECK(external<char>(Basic::Char, {'A'}) == "41");
  // long double as IEEE binary128: 1.0 = 0x3fff << 112; -2.5 = -1.01b x 2^1.
  CHECK(external<long double>(Basic::LongDouble, {1.0L}) == "3fff0000000000000000000000000000");
  CHECK(external<long double>(Basic::LongDouble, {-2.5L}) == "c0004000000000000000000000000000");
  CHECK(external<long double>(Basic::LongDouble, {0.0L}) == "00000000000000000000000000000000");
  // A complex value is two reals, each big-endian.
  CHECK(external<float>(Basic::CFloatComplex, {1.0f, -2.0f}) == "3f800000c0000000");
  CHECK(external32_size(*Datatype::basic(Basic::Long), 3) == 12);
  CHECK(external32_size(*Datatype::basic(Basic::CLongDoubleComplex), 1) == 32);
}

TEST_CASE("external32 round-trips every value of a struct, and long beyond 32 bits is MPI_ERR_CONVERSION") {
  struct S {
    double d;
    long l;
    long double x;
    int i;
  };
  TypePtr t = Datatype::create_struct(
      {1, 1, 1, 1}, {offsetof(S, d), offsetof(S, l), offsetof(S, x), offsetof(S, i)},
      {Datatype::basic(Basic::Double), Datatype::basic(Basic::Long), Datatype::basic(Basic::LongDouble),
       Datatype::basic(Basic::Int)});
  t->commit();
  CHECK(external32_size(*t, 2) == 2 * (8 + 4 + 16 + 4));
  S in[2] = {{1.5, -40000, 3.25L, 7}, {-0.0, 2147483647, -1e300L, -1}};
  std::string native;
  t->pack(in, 2, native, "test");
  const std::string ext = to_external32(*t, 2, native, "test");
  const std::string back = from_external32(*t, 2, ext, "test");
  S out[2];
  std::memset(out, 0, sizeof out);
  t->unpack(back.data(), back.size(), out, 2, "test");
  for (int k = 0; k < 2; ++k) {
    CHECK(out[k].d == in[k].d);
    CHECK(out[k].l == in[k].l);
    CHECK(out[k].x == in[k].x);
    CHECK(out[k].i == in[k].i);
  }
  std::vector<long> big = {1, 1L << 40};
  std::string nat;
  Datatype::basic(Basic::Long)->pack(big.data(), 2, nat, "test");
  try {
    to_external32(*Datatype::basic(Basic::Long), 2, nat, "MPI_Pack_external");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.cls() == ErrClass::Conversion);
    CHECK(e.message().find("element 1") != std::string::npos);
  }
}
