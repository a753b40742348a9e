// core/coll.cpp: collective algorithms over the collective lane.
//
// Messages of one collective carry its own tag (plus the round where a pair
// can meet twice), so consecutive collectives cannot confuse each other and
// the non-overtaking rule keeps each pair's messages in order.
#include "core/coll.hpp"

#include <cstring>

#include "core/constants.hpp"
#include "core/error.hpp"

namespace lumpi::core::coll {
namespace {

enum CollTag : int { kBarrier = 1 << 10, kBcast = 2 << 10, kGather = 3 << 10 };

Bytes to_bytes(const zmq::message_t& m) { return Bytes(m.to_string_view()); }

void put_varint(Bytes& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(char(v | 0x80));
    v >>= 7;
  }
  out.push_back(char(v));
}

bool get_varint(std::string_view in, size_t& pos, uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64 && pos < in.size(); shift += 7) {
    uint8_t b = uint8_t(in[pos++]);
    v |= uint64_t(b & 0x7f) << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}

void check_intra(const Comm& c, const char* func) {
  if (c.is_inter())
    fail(ErrClass::Comm, func, "is not defined on an intercommunicator here");
}

}  // namespace

Bytes pack(const std::vector<Bytes>& parts) {
  Bytes out;
  put_varint(out, parts.size());
  for (const auto& p : parts) {
    put_varint(out, p.size());
    out += p;
  }
  return out;
}

std::vector<Bytes> unpack(std::string_view in) {
  size_t pos = 0;
  uint64_t n;
  auto bad = [] { fail(ErrClass::Other, "collective", "malformed packed collective data"); };
  if (!get_varint(in, pos, n) || n > in.size()) bad();
  std::vector<Bytes> out;
  out.reserve(n);
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t len;
    if (!get_varint(in, pos, len) || len > in.size() - pos) bad();
    out.emplace_back(in.substr(pos, len));
    pos += len;
  }
  if (pos != in.size()) bad();
  return out;
}

// Dissemination: round k talks to rank ± 2^k, so log2(n) rounds.
void barrier(Comm& c) {
  c.check_usable("MPI_Barrier");
  check_intra(c, "MPI_Barrier");
  const int n = c.size(), me = c.rank();
  Waiting what = c.waiting("MPI_Barrier");
  int round = 0;
  for (int k = 1; k < n; k <<= 1, ++round) {
    c.lane_send(Lane::Coll, (me + k) % n, kBarrier + round, zmq::message_t());
    c.lane_recv(Lane::Coll, (me - k + n) % n, kBarrier + round, what);
  }
}

// Binomial tree rooted at root, in ranks relative to it.
Bytes bcast(Comm& c, Bytes data, int root) {
  c.check_root(root, "MPI_Bcast");
  check_intra(c, "MPI_Bcast");
  const int n = c.size();
  const int vr = (c.rank() - root + n) % n;
  Waiting what = c.waiting("MPI_Bcast", "root", root);
  int mask = 1;
  for (; mask < n; mask <<= 1) {
    if (vr & mask) {
      data = to_bytes(c.lane_recv(Lane::Coll, (vr - mask + root) % n, kBcast, what));
      break;
    }
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (vr + mask < n) c.lane_send(Lane::Coll, (vr + mask + root) % n, kBcast, body_from(data));
  return data;
}

// Binomial tree: each process forwards its subtree's parts (in relative
// rank order, which is contiguous) to its parent.
std::vector<Bytes> gather(Comm& c, Bytes mine, int root) {
  c.check_root(root, "MPI_Gather");
  check_intra(c, "MPI_Gather");
  const int n = c.size();
  const int vr = (c.rank() - root + n) % n;
  Waiting what = c.waiting("MPI_Gather", "root", root);
  std::vector<Bytes> subtree{std::move(mine)};  // relative ranks vr, vr+1, ...
  for (int mask = 1; mask < n; mask <<= 1) {
    if (vr & mask) {
      c.lane_send(Lane::Coll, (vr - mask + root) % n, kGather, body_from(pack(subtree)));
      return {};
    }
    if (vr + mask < n) {
      zmq::message_t m = c.lane_recv(Lane::Coll, (vr + mask + root) % n, kGather, what);
      for (auto& part : unpack(m.to_string_view())) subtree.push_back(std::move(part));
    }
  }
  if (int(subtree.size()) != n) fail(ErrClass::Intern, "MPI_Gather", "gathered the wrong number of parts");
  std::vector<Bytes> out(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) out[size_t((i + root) % n)] = std::move(subtree[size_t(i)]);
  return out;
}

// Gather to rank 0, then broadcast the packed list: 2 log2(n) rounds.
std::vector<Bytes> allgather(Comm& c, Bytes mine) {
  c.check_usable("MPI_Allgather");
  check_intra(c, "MPI_Allgather");
  std::vector<Bytes> all = gather(c, std::move(mine), 0);
  return unpack(bcast(c, c.rank() == 0 ? pack(all) : Bytes(), 0));
}

}  // namespace lumpi::core::coll
