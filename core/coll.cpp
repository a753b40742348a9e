// core/coll.cpp: collective operations over point-to-point on the
// communicator's collective lane.
//
// Every algorithm has logarithmic depth: dissemination barrier, binomial-tree
// broadcast. Messages of one collective carry its own tag (plus the round),
// and the collective lane is a context of its own, so user point-to-point
// traffic can never be matched by a collective, nor the reverse.
#include "core/comm.hpp"
#include "core/constants.hpp"
#include "core/error.hpp"

namespace lumpi::core {
namespace {

enum CollTag : int { kBarrier = 1 << 10, kBcast = 2 << 10 };

std::string to_string(const zmq::message_t& m) { return std::string(m.to_string_view()); }

}  // namespace

void Comm::barrier() {
  check_usable("MPI_Barrier");
  if (inter_) fail(ErrClass::Comm, "MPI_Barrier", "intercommunicator barrier is not available yet");
  const int n = size();
  Waiting what = waiting("MPI_Barrier");
  int round = 0;
  for (int k = 1; k < n; k <<= 1, ++round) {
    lane_send(Lane::Coll, (rank_ + k) % n, kBarrier + round, zmq::message_t());
    lane_recv(Lane::Coll, (rank_ - k + n) % n, kBarrier + round, what);
  }
}

std::string Comm::bcast(std::string data, int root) {
  check_root(root, "MPI_Bcast");
  if (inter_) fail(ErrClass::Comm, "MPI_Bcast", "intercommunicator bcast is not available yet");
  const int n = size();
  const int vr = (rank_ - root + n) % n;
  Waiting what = waiting("MPI_Bcast", "root", root);
  int mask = 1;
  for (; mask < n; mask <<= 1) {
    if (vr & mask) {
      data = to_string(lane_recv(Lane::Coll, (vr - mask + root) % n, kBcast, what));
      break;
    }
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (vr + mask < n) lane_send(Lane::Coll, (vr + mask + root) % n, kBcast, body_from(data));
  return data;
}

}  // namespace lumpi::core
