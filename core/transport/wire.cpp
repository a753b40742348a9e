// core/transport/wire.cpp: fixed little-endian layout of the envelope header.
//
//   0  u16 magic 0x4C4D ("LM")   2 u8 kind   3 u8 flags (bit 0: wants ack, 1: signature)
//   4  i32 source                8 i32 tag   12 u32 epoch
//   16 u64 context               24 u64 seq
//   32 u64 Lamport clock (causal order of :trace; core/base/trace.hpp)
// and, when flag bit 1 is set (a --check type signature, WireSig):
//   40 u8 kind (1-4)  41 u64 unit  49 i64 repeats  57 the text (the rest)
#include "core/transport/wire.hpp"

#include <cstring>

namespace lumpi::core {
namespace {

constexpr uint16_t kMagic = 0x4C4D;

template <class T>
void put(std::string& out, size_t at, T v) {
  std::memcpy(out.data() + at, &v, sizeof v);  // hosts are little-endian (x86_64, arm64)
}

template <class T>
T get(std::string_view in, size_t at) {
  T v;
  std::memcpy(&v, in.data() + at, sizeof v);
  return v;
}

}  // namespace

std::string encode_header(const Envelope& e) {
  std::string out(kHeaderSize, '\0');
  put<uint16_t>(out, 0, kMagic);
  put<uint8_t>(out, 2, uint8_t(e.kind));
  put<uint8_t>(out, 3, uint8_t((e.wants_ack ? 1 : 0) | (e.sig.kind ? 2 : 0)));
  put<int32_t>(out, 4, e.source);
  put<int32_t>(out, 8, e.tag);
  put<uint32_t>(out, 12, e.epoch);
  put<uint64_t>(out, 16, e.context);
  put<uint64_t>(out, 24, e.seq);
  put<uint64_t>(out, 32, e.clock);
  if (e.sig.kind) {
    out.resize(kHeaderSize + kSigSize);
    put<uint8_t>(out, 40, e.sig.kind);
    put<uint64_t>(out, 41, e.sig.unit);
    put<int64_t>(out, 49, e.sig.reps);
    out += e.sig.text;
  }
  return out;
}

namespace {

// The signature extension after the fixed header (flag bit 1; its size
// was checked).
std::optional<WireSig> decode_sig(std::string_view in, std::string* why) {
  WireSig s;
  s.kind = get<uint8_t>(in, 40);
  if (s.kind < 1 || s.kind > 4) {
    *why = "unknown signature kind " + std::to_string(s.kind);
    return std::nullopt;
  }
  s.unit = get<uint64_t>(in, 41);
  s.reps = get<int64_t>(in, 49);
  s.text = std::string(in.substr(kHeaderSize + kSigSize));
  return s;
}

}  // namespace

std::optional<Envelope> decode_header(std::string_view in, std::string* why) {
  const bool signed_ = in.size() > 3 && (uint8_t(in[3]) & 2);
  const size_t want = signed_ ? kHeaderSize + kSigSize : kHeaderSize;
  if (signed_ ? in.size() < want : in.size() != want) {
    *why = "header of " + std::to_string(in.size()) + " bytes, expected " + (signed_ ? "at least " : "") +
           std::to_string(want);
    return std::nullopt;
  }
  if (get<uint16_t>(in, 0) != kMagic) {
    *why = "bad magic number";
    return std::nullopt;
  }
  uint8_t kind = get<uint8_t>(in, 2);
  if (kind > uint8_t(MsgKind::SendCancelled)) {
    *why = "unknown message kind " + std::to_string(kind);
    return std::nullopt;
  }
  uint8_t flags = get<uint8_t>(in, 3);
  if (flags > 3) {
    *why = "unknown flags " + std::to_string(flags);
    return std::nullopt;
  }
  Envelope e;
  e.kind = MsgKind(kind);
  e.wants_ack = flags & 1;
  e.source = get<int32_t>(in, 4);
  e.tag = get<int32_t>(in, 8);
  e.epoch = get<uint32_t>(in, 12);
  e.context = get<uint64_t>(in, 16);
  e.seq = get<uint64_t>(in, 24);
  e.clock = get<uint64_t>(in, 32);
  if (signed_) {
    auto sig = decode_sig(in, why);
    if (!sig) return std::nullopt;
    e.sig = std::move(*sig);
  }
  if (e.source < 0) {
    *why = "negative source " + std::to_string(e.source);
    return std::nullopt;
  }
  return e;
}

}  // namespace lumpi::core
