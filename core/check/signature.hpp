// core/check/signature.hpp: type signatures as the checker compares them
// (MPI-3.1 §3.3.1, §5.1): the sequence of basic types `count` elements of
// a datatype send or receive, reduced to a short canonical form.
//
// The rule: two signatures are equal when their sequences of basic types
// are. Basic types that share one C representation (MPI_INT, MPI_INT32_T,
// MPI_INTEGER) count as one, so no alias is ever reported. A sequence is
// kept as its primitive period (the shortest run list it repeats) and the
// number of repeats, so 2 x MPI_INT equals 1 x contiguous(2, MPI_INT).
// MPI_BYTE and MPI_PACKED match any type (untyped data, §3.3.1; a type
// holding one is not compared), and so does a sequence whose repeats
// merge at their ends (the period is then not found cheaply): the checker
// never reports what it cannot prove.
#pragma once

#include <cstdint>
#include <string>

#include "core/comm/comm.hpp"
#include "core/datatype/datatype.hpp"
#include "core/transport/wire.hpp"

namespace lumpi::core::check {

struct Sig {
  enum class Kind : std::uint8_t { None, Empty, Any, Known };
  Kind kind = Kind::None;  // None: this side moves no data (MPI_IN_PLACE, not significant)
  std::uint64_t unit = 0;  // hash of the primitive period (Known)
  std::int64_t reps = 0;   // repeats of it (Known)
  bool one_basic = false;  // Known, of one basic type (its period is one element)
  std::string text;        // "2 x MPI_INT", as the call gave it
};

// The signature of count elements of t (committed, as the call checked).
Sig signature(const Datatype& t, std::int64_t count);

// Equal (same sequence), or one of them matches anything. With
// `units_only`, only the basic types are compared, not how many (the v
// forms, where each pair has counts of its own): both must move data.
bool compatible(const Sig& a, const Sig& b, bool units_only = false);

// The signature as a point-to-point message or receive carries it under
// --check (core::WireSig), described as `call` made it: "MPI_Send of 2 x MPI_INT".
WireSig wire(const Sig& s, const std::string& call);

// What one block sent or received holds on this process, as a door gives
// it: count elements of type, or nothing (a null type: MPI_IN_PLACE, a
// buffer MPI says is not significant here, a Lua value).
struct Side {
  std::int64_t count = 0;
  TypePtr type;
  bool per_rank = false;  // a v form's counts (count is 1 if any moves data)
  std::vector<std::int64_t> counts = {};  // a v form's counts, one per peer, where the door gives them
};

// A v form's side as every door describes it: its type and the n counts
// (count 1 if any of them moves data); an empty side for a null type (the
// side is not significant here: the door resolves the type only where it is).
Side v_side(const int* counts, int n, TypePtr t);

// --check: a point-to-point call's side as its message (a send) or its
// receive (named "rank R's MPI_Recv") carries it; none without --check or
// without a type. For persistent requests (core::Persistent::set_signature).
WireSig p2p_signature(const Comm& c, const char* call, const Side& side, bool receive);

// --check: the receive of m, a message a probe matched before the
// receive's type was known (MPI_Mrecv, MPI_Imrecv), into `side`: a
// mismatch is reported as a receive's completion reports it
// (core::p2p_mismatch, engine/request.hpp).
void check_matched(const Comm& c, const char* call, const Side& side, const Received& m);

// --check: the type signatures of a point-to-point call (MPI-3.1 §3.3.1),
// handed to the engine for the call's duration (Engine::call_signatures):
// its send carries `send` with the message, its receive compares `recv`
// with the message it gets and reports a mismatch. Made once the call's
// arguments are checked, by every door; without --check it costs one test.
class CallSignatures {
 public:
  CallSignatures(const Comm& c, const char* call, const Side& send, const Side& recv);
  ~CallSignatures();
  CallSignatures(const CallSignatures&) = delete;
  CallSignatures& operator=(const CallSignatures&) = delete;

 private:
  Engine* engine_ = nullptr;
};

}  // namespace lumpi::core::check
