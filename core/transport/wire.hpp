// core/transport/wire.hpp: the data-plane envelope and its byte encoding.
//
// Every data message is two ZeroMQ frames: a fixed-size header (this file)
// and the body (opaque bytes, usually an encoded Lua value). Decoding never
// trusts the peer: a header of the wrong size or with a bad magic number is
// rejected with a reason, never asserted on.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lumpi::core {

// What a data message is for. Acks answer synchronous sends. Rma messages
// are one-sided communication on a window (core/rma/win.cpp): the context is
// the window's id, the tag the RMA operation; the engine hands them to the
// window's service whenever it progresses, never to the Matcher. A
// SendCancel asks the receiver to withdraw the sender's message `seq` if no
// receive has matched it yet; the SendCancelled answer says in its tag
// whether it did (1) or not (0) (MPI_Cancel of a send, MPI-3.1 §3.8.4).
enum class MsgKind : uint8_t { Data = 0, SsendAck = 1, Rma = 2, SendCancel = 3, SendCancelled = 4 };

// Context ids: a communicator owns one base id; each kind of traffic on it
// gets its own matching context (base * 4 + lane), so a user's wildcard
// receive can never match collective or internal traffic. Nonblocking
// collectives (core/coll/nbc.*) have a lane of their own, so they never match a
// blocking collective's messages (MPI-3.1 §5.12: the two never match).
enum class Lane : uint8_t { P2P = 0, Coll = 1, Internal = 2, Nbc = 3 };
inline uint64_t context_of(uint64_t base, Lane lane) { return base * 4 + uint64_t(lane); }

struct Envelope {
  uint64_t context = 0;  // matching context (base * 4 + lane)
  int32_t source = 0;    // sender's COMM_WORLD rank
  int32_t tag = 0;
  uint32_t epoch = 0;    // command number the sender was running (interrupt cleanup)
  MsgKind kind = MsgKind::Data;
  bool wants_ack = false;  // synchronous send: the receiver acks on match
  uint64_t seq = 0;        // sender-local id of a point-to-point send, echoed by the ack
  uint64_t clock = 0;      // the sender's Lamport clock at the send (Engine::send sets it)
};

inline constexpr size_t kHeaderSize = 40;

std::string encode_header(const Envelope& e);
// The envelope, or nullopt with `why` set when the bytes are not a header.
std::optional<Envelope> decode_header(std::string_view bytes, std::string* why);

}  // namespace lumpi::core
