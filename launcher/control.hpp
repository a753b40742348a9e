// launcher/control.hpp: the control-plane protocol between the coordinator
// (ROUTER) and its ranks (DEALER).
//
// A control message is a multipart message whose first frame is its type and
// whose other frames are its string fields, in the order listed here. The
// ROUTER side sees an extra leading identity frame ("rank-N").
//
//   rank -> coordinator                      coordinator -> rank
//   hello   rank pid host endpoint           start      endpoint table ('\n'-joined)
//   result  epoch ok|error text              exec       epoch mode payload [args...]
//   output  text                             interrupt  epoch
//   status  text                             status?
//   event   kind fields...                   dead       rank how
//                                            quit
//
// `exec` modes: "repl" (payload is a chunk; an expression's values are
// returned), "script" (payload is a file name, args follow), "call"
// (payload is a chunk run without the expression rule), "text" (like
// "repl", but the result is the first value as tostring gives it, unrendered:
// the REPL's structured queries for :draw, :hw and completion).
#pragma once

#include <string>
#include <string_view>
#include <vector>
#include <zmq.hpp>

namespace lumpi::launcher {

using Frames = std::vector<std::string>;

// Sends frames as one multipart message (never blocks: queues are unbounded).
void send_frames(zmq::socket_ref s, const Frames& frames);
// Receives one multipart message; empty if none is waiting.
Frames recv_frames(zmq::socket_ref s, bool wait);

// Job-wide environment names passed from the coordinator to its ranks.
inline constexpr const char* kEnvControl = "LUMPI_CONTROL";  // coordinator endpoint
inline constexpr const char* kEnvRank = "LUMPI_RANK";
inline constexpr const char* kEnvSize = "LUMPI_SIZE";
inline constexpr const char* kEnvDir = "LUMPI_DIR";          // private ipc directory

}  // namespace lumpi::launcher
