// launcher/protocol/clock.hpp: the one monotonic clock of the launcher and the
// coordinator (deadlines, timeouts, hang reports). Header only; no core.
#pragma once

#include <chrono>
#include <cstdint>

namespace lumpi::launcher {

// Seconds on the steady clock (differences only are meaningful).
inline double now_s() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

// Milliseconds on the same clock.
inline int64_t now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

}  // namespace lumpi::launcher
