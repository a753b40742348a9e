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
inline Lane lane_of(uint64_t context) { return Lane(context % 4); }
inline uint64_t base_of(uint64_t context) { return context / 4; }

// A point-to-point message's type signature (MPI-3.1 §3.3.1), carried only
// under --check and only by the C API's sends (core/check/signature.hpp
// makes it; the kinds are check::Sig's): the receive compares its own with
// it. kind 0: the message carries none and is never compared.
struct WireSig {
  uint8_t kind = 0;   // 0 none, 1 empty, 2 matches anything, 3 known, 4 known, of one basic type
  uint64_t unit = 0;  // hash of the basic-type period (known)
  int64_t reps = 0;   // repeats of it (known)
  std::string text;   // "MPI_Send of 2 x MPI_INT", for the report
};

struct Envelope {
  uint64_t context = 0;  // matching context (base * 4 + lane)
  int32_t source = 0;    // sender's COMM_WORLD rank
  int32_t tag = 0;
  uint32_t epoch = 0;    // command number the sender was running (interrupt cleanup)
  MsgKind kind = MsgKind::Data;
  bool wants_ack = false;  // synchronous send: the receiver acks on match
  uint64_t seq = 0;        // sender-local id of a point-to-point send, echoed by the ack
  uint64_t clock = 0;      // the sender's Lamport clock at the send (Engine::send sets it)
  WireSig sig;             // --check: the send's type signature (kind 0: none)
};

// A header is kHeaderSize bytes, plus a signature extension (flag bit 1)
// of kSigSize bytes and its text when the message carries one.
inline constexpr size_t kHeaderSize = 40;
inline constexpr size_t kSigSize = 17;

std::string encode_header(const Envelope& e);
// The envelope, or nullopt with `why` set when the bytes are not a header.
std::optional<Envelope> decode_header(std::string_view bytes, std::string* why);

}  // namespace lumpi::core
