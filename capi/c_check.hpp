// capi/c_check.hpp: the --check descriptions of the C API's collectives,
// handed to core's collective-mismatch check (core/check/coll_check.hpp).
// Each collective calls check_coll once its arguments are checked and
// before it sends anything; without --check it costs one test.
#pragma once

#include <optional>

#include "capi/c_api.hpp"
#include "core/check/signature.hpp"

namespace lumpi::capi {

// What one block sent or received holds: count elements of type; `present`
// false where that side moves nothing on this process (MPI_IN_PLACE, a
// buffer MPI says is not significant here).
struct Side {
  int count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  bool present = false;
  bool per_rank = false;  // a v form's counts array (side_v)
  const int* counts = nullptr;  // that array, of n entries (read only where present)
  int n = 0;
};
inline Side side(int count, MPI_Datatype t, bool present = true) { return {count, t, present, false}; }
// A v form's side: its type, with 1 if any of the n counts moves data.
Side side_v(const int* counts, int n, MPI_Datatype t, bool present = true);

struct CollDescription {
  const char* func;
  int root = -1;  // -1: none
  MPI_Op op = MPI_OP_NULL;
  Side send, recv;
  bool per_pair = false;  // v forms
};

// Runs the check (blocking collectives wait for its verdict; nonblocking
// ones leave it to the background). Intracommunicators only.
void check_coll(const core::CommPtr& c, const CollDescription& d, bool nonblocking = false);
void check_coll(MPI_Comm comm, const CollDescription& d, bool nonblocking = false);

// --check: the type signatures of a point-to-point call, from the C API's
// sides (core::check::CallSignatures); without --check it costs one test.
class P2PSignatures {
 public:
  P2PSignatures(MPI_Comm comm, const char* f, Side send, Side recv);

 private:
  std::optional<core::check::CallSignatures> sigs_;
};
// A send's or a receive's signature as a persistent request keeps it
// (core::Persistent::set_signature); none without --check.
core::WireSig p2p_signature(MPI_Comm comm, const char* f, Side side, bool receive);

}  // namespace lumpi::capi
