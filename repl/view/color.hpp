// repl/view/color.hpp: ANSI colours for the REPL, only when stdout is a terminal
// (never in stdin mode, never into a pipe or file).
#pragma once

#include <cstdlib>
#include <string>
#include <unistd.h>

namespace lumpi::repl::color {

// Decided once: colours are on when stdout is a terminal and TERM is not "dumb".
inline bool enabled() {
  static const bool on = [] {
    const char* term = std::getenv("TERM");
    return isatty(1) && !(term && std::string(term) == "dumb") && !std::getenv("NO_COLOR");
  }();
  return on;
}

inline std::string paint(const char* code, const std::string& s) {
  return enabled() ? std::string("\x1b[") + code + "m" + s + "\x1b[0m" : s;
}
inline std::string red(const std::string& s) { return paint("31", s); }
inline std::string yellow(const std::string& s) { return paint("33", s); }
inline std::string dim(const std::string& s) { return paint("2", s); }
inline std::string bold(const std::string& s) { return paint("1", s); }

}  // namespace lumpi::repl::color
