// tests/fuzz/frames.hpp: turns one fuzz input into ZeroMQ-style messages.
//
// A fuzz input is a list of messages separated by kMessageSep, each a list of
// frames separated by kFrameSep (see dict: libFuzzer learns both). Targets
// whose decoder takes "a vector of frames" call frames_of() on the whole
// input; targets that feed a socket use messages_of().
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lumpi::fuzz {

inline constexpr std::string_view kFrameSep = "@@FR@@";
inline constexpr std::string_view kMessageSep = "@@MSG@@";

inline std::vector<std::string> split(std::string_view in, std::string_view sep) {
  std::vector<std::string> out;
  for (;;) {
    size_t at = in.find(sep);
    if (at == std::string_view::npos) break;
    out.emplace_back(in.substr(0, at));
    in.remove_prefix(at + sep.size());
  }
  out.emplace_back(in);
  return out;
}

// The whole input as one message's frames.
inline std::vector<std::string> frames_of(const uint8_t* data, size_t size) {
  return split(std::string_view(reinterpret_cast<const char*>(data), size), kFrameSep);
}

// The input as a list of messages, each a list of frames.
inline std::vector<std::vector<std::string>> messages_of(const uint8_t* data, size_t size) {
  std::vector<std::vector<std::string>> out;
  for (const std::string& m :
       split(std::string_view(reinterpret_cast<const char*>(data), size), kMessageSep))
    out.push_back(split(m, kFrameSep));
  return out;
}

}  // namespace lumpi::fuzz
