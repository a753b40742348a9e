// tests/fuzz/fuzz_wire.cpp: the data plane's decoders of a peer's bytes.
//
// - core::decode_header (the envelope of every data message): rejects with
//   a reason, or accepts, and what it accepts encodes back to the same bytes.
// - core::unpack_list and the Unpacker (core/base/pack.hpp: the one internal
//   format, lists inside collective payloads and constructor data) and
//   detail::unpack_partials (partial reduction results, data or an error
//   travelling in its place): a list, or core::Error; and a list survives
//   pack and unpack.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/coll/coll.hpp"
#include "core/base/pack.hpp"
#include "core/coll/coll_detail.hpp"
#include "core/base/error.hpp"
#include "core/transport/wire.hpp"

using namespace lumpi::core;
using namespace lumpi::core::coll;

namespace {

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_wire: %s\n", what);
    std::abort();
  }
}

void header(std::string_view in) {
  std::string why;
  auto env = decode_header(in, &why);
  if (!env) {
    check(!why.empty(), "a rejected header has no reason");
    return;
  }
  check(env->source >= 0, "a negative source was accepted");
  check(encode_header(*env) == in, "an accepted header does not encode back to its bytes");
}

void packed(std::string_view in) {
  try {
    std::vector<Bytes> parts = unpack_list(in, "fuzz");
    check(unpack_list(pack_list(parts), "fuzz") == parts, "an unpacked list does not survive pack and unpack");
  } catch (const Error&) {
  }
  try {
    std::vector<detail::Partial> ps = detail::unpack_partials(in);
    for (const auto& p : ps)
      if (p.err) check(int(p.err->cls()) > 0, "a partial's error has no class");
  } catch (const Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  header(in);
  packed(in);
  return 0;
}
