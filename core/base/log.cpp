// core/base/log.cpp: the sink of core/base/log.hpp.
#include "core/base/log.hpp"

#include <atomic>
#include <cstdio>

namespace lumpi::core {
namespace {
std::atomic<LogSink> g_sink{nullptr};
}  // namespace

void set_log_sink(LogSink sink) { g_sink = sink; }

void log(const std::string& line) {
  if (LogSink sink = g_sink.load()) return sink(line);
  std::fprintf(stderr, "lumpi: %s\n", line.c_str());
}

}  // namespace lumpi::core
