// core/check/resource.hpp: what a program still holds at MPI_Finalize
// (issue 25 item 5, docs/checking.md "Resource leaks"), under --check.
//
// The rule (MPI-3.1 §8.7, and each object's free call): every object a
// program creates -- communicator, group, datatype, op, info, error
// handler, attribute keyval, window, request -- it frees before
// MPI_Finalize. MPI does not make a leak an error class, so a leak is a
// report (class "resource-leak"), not an error: the program runs on, the
// run exits non-zero. A door (capi/, and the C++ API for C++ programs:
// core/api/api_check.cpp) tells a ledger what it created, under which
// handle and where, and what was freed; at MPI_Finalize it asks what is
// left and reports each once.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace lumpi::core {
class Comm;
}

namespace lumpi::core::check {

// The objects a program must free, each with its free call.
enum class Kind { Comm, Group, Datatype, Op, Info, Errhandler, Keyval, Win, Request };
// "communicator", "MPI_Comm_free", "§6.4.3" ...
const char* noun(Kind k);
const char* free_call(Kind k);
const char* section(Kind k);

// Where an object was created: the call ("MPI_Comm_split", as the user
// wrote it) and the source position, given as text ("ring.c:12", a Lua
// chunk and line) or as the program's return addresses on the stack,
// innermost first, that a door's `WhereOf` turns into text at report time
// (addr2line is slow: only what is reported pays).
struct Origin {
  std::string call;
  std::string where;
  std::vector<uintptr_t> frames;
};
using WhereOf = std::function<std::string(const std::vector<uintptr_t>&)>;

class Ledger {
 public:
  // Remembers (k, handle); a handle created again replaces the old entry.
  void created(Kind k, int64_t handle, Origin o) { live_[{k, handle}] = std::move(o); }
  void freed(Kind k, int64_t handle) { live_.erase({k, handle}); }
  const Origin* origin(Kind k, int64_t handle) const;
  bool empty() const { return live_.empty(); }
  // One line per object still held, in creation-kind then handle order:
  // "MPI_Finalize: a communicator created by MPI_Comm_split at ring.c:12
  // was never freed (MPI_Comm_free, MPI-3.1 §6.4.3, §8.7)".
  std::vector<std::string> leaks(const WhereOf& where_of) const;
  void clear() { live_.clear(); }

 private:
  std::map<std::pair<Kind, int64_t>, Origin> live_;
};

// The ledger's handle of keyval id of attribute kind k (core/base/attr.hpp):
// communicator, datatype and window keyvals are numbered apart.
template <class AttrKind>
int64_t keyval_key(AttrKind k, int id) {
  return int64_t(k) << 32 | int64_t(uint32_t(id));
}

// "MPI_Comm_split at ring.c:12", "MPI_Comm_split" when the place is unknown.
std::string describe(const Origin& o, const WhereOf& where_of);
// Every door's WhereOf for frames of a compiled program: "ring.c:12 (main)",
// the innermost frame of the program's own code that addr2line can place
// (lumpi's functions, for a static libmpi, passed over); "" when none can.
std::string source_line_of(const std::vector<uintptr_t>& frames);

// The request-lifecycle rule's findings (issue 25 item 6), in every door's
// words, `made` being describe() of the request's origin:
// - a request still held at MPI_Finalize: a nonblocking operation never
//   completed (§3.7.3; §8.7: a process completes the operations it started
//   before MPI_Finalize), a persistent request started and never completed,
//   or one never freed (§3.9) -- the last is a "resource-leak";
// - a request freed before its operation completed (§3.7.3, advice to
//   users): the program can no longer learn when it completes, nor of an
//   error in it; "an active receive request should never be freed", the
//   receiver cannot know when its buffer holds the message. MPI lets a
//   send's request go so, but nothing then tells the program that its
//   buffer is free again (MPI checkers, and the MPI Bugs Initiative's
//   benchmark, count it as a missing wait); it is reported too. A
//   generalized request is exempt (§12.2: freed before it completes is how
//   it is meant to be).
struct Finding {
  const char* check_class;
  std::string text;
};
Finding held_at_finalize(const std::string& made, bool persistent, bool active);
// Empty text when the free is allowed (a generalized request's).
Finding freed_while_active(const std::string& made, const std::string& call);

// The checks' switch and sink for a door, which may not see the engine:
// --check on this rank (Engine::checking) and Engine::report_check,
// reached through any communicator of the rank.
bool checking(const Comm& any);
void report(const Comm& any, const std::string& check_class, const std::string& text);

}  // namespace lumpi::core::check
