// tests/fuzz/fuzz_control.cpp: the control protocol's one decoder
// (launcher/protocol/protocol.hpp decode), fed the frames of a message from the
// coordinator or a rank: it refuses with a reason or accepts, never crashes,
// and what it accepts encodes back to frames that decode to the same message.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "launcher/protocol/protocol.hpp"
#include "tests/fuzz/frames.hpp"

using namespace lumpi::launcher;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Frames frames = lumpi::fuzz::frames_of(data, size);
  std::string why;
  std::optional<ControlMsg> m = decode(frames, &why);
  if (!m) {
    if (why.empty()) {
      std::fprintf(stderr, "decode refused without a reason\n");
      std::abort();
    }
    return 0;
  }
  std::string again;
  std::optional<ControlMsg> back = decode(encode(*m), &again);
  if (!back || !(*back == *m)) {
    std::fprintf(stderr, "an accepted message does not survive encode and decode: %s\n", again.c_str());
    std::abort();
  }
  return 0;
}
