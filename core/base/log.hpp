// core/base/log.hpp: how the core says that something went wrong which no
// MPI call can answer (a malformed message from a peer, an RMA message for
// a window that is not open here). The core says what happened; the process
// that hosts it says who it is: the rank host sets a sink that prefixes
// "lumpi-rank N: " (launcher/host/host.cpp). Without a sink (unit tests, the
// fuzzers) the line goes to stderr as "lumpi: <line>".
#pragma once

#include <string>

namespace lumpi::core {

using LogSink = void (*)(const std::string& line);
void set_log_sink(LogSink sink);  // nullptr: back to stderr
void log(const std::string& line);

}  // namespace lumpi::core
