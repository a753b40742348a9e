// tests/fuzz/fuzz_kernel.cpp: the Jupyter kernel's decoder of a client's
// messages (repl/kernel/kernel_wire.hpp decode): frames signed with the wrong key,
// malformed or with JSON parts that are not objects are refused with a
// reason, never a crash. Every fourth input is signed correctly first, so
// the fuzzer also reaches the JSON checks behind the signature.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "repl/kernel/kernel_wire.hpp"
#include "tests/fuzz/frames.hpp"

using namespace lumpi::repl::kernel;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string key = "fuzz-key";
  std::vector<std::string> frames = lumpi::fuzz::frames_of(data, size);
  if (size % 4 == 0) {  // sign what follows the delimiter, as a client with the key would
    for (size_t d = 0; d + 6 <= frames.size(); ++d) {
      if (frames[d] != "<IDS|MSG>") continue;
      frames[d + 1] = sign(key, {frames[d + 2], frames[d + 3], frames[d + 4], frames[d + 5]});
      break;
    }
  }
  std::string why;
  std::optional<Message> m = decode(frames, key, &why);
  if (!m && why.empty()) {
    std::fprintf(stderr, "decode refused without a reason\n");
    std::abort();
  }
  if (m && (!m->header.is_object() || !m->content.is_object())) {
    std::fprintf(stderr, "decode accepted a header or content that is not an object\n");
    std::abort();
  }
  return 0;
}
