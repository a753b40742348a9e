// core/api/api_check.cpp: the C++ door's part of the checker (issue 25
// items 5 and 6; docs/checking.md "Objects and requests left at
// MPI_Finalize"), under --check only: what a C++ program made through this
// API and still holds at lumpi::Finalize -- communicators, datatypes, ops,
// infos, error handlers, keyvals, windows, requests -- each reported once,
// with the call that made it and the program's source line. The rules and
// their words are core/check/resource.hpp's; the C door keeps the same
// ledger over its own handles (capi/c_check_resource.cpp).
//
// Which door an object belongs to: the C door runs the C++ API, so what is
// made inside a C call (CDoorCall, handles.hpp) is the C door's to account
// for, and this ledger leaves it alone. A Group is a value in this API
// (copying copies the member list; nothing is held in MPI), so there is no
// group to leak.
//
// Keys: a serial per object for the handle objects (a communicator's,
// window's, info's, error handler's, request's), the number for datatypes,
// ops and keyvals, which a table holds until they are freed. An object
// whose last handle went away without its free call is still a leak (the
// program can no longer free it), and is reported as one.
//
// Local concurrency: the buffers of this door's pending requests are
// watched under their ledger key (core/check/buffer_watch.hpp), told by
// api_p2p.cpp's point-to-point calls and request completions.
#include <map>

#include "core/api/api_detail.hpp"
#include "core/base/crash_report.hpp"
#include "core/check/resource.hpp"

namespace lumpi::detail {

thread_local int CDoorCall::depth = 0;

namespace {

using core::check::Kind;

bool g_checking = false;
int64_t g_serial = 0;

core::check::Ledger& ledger() {
  static core::check::Ledger l;
  return l;
}

// The requests noted, by serial: the live handle, or the state it had when
// its last copy went away.
struct Held {
  const RequestHandle* live = nullptr;
  bool persistent = false, active = false;
};
std::map<int64_t, Held>& requests() {
  static std::map<int64_t, Held> r;
  return r;
}

bool noting() { return g_checking && CDoorCall::depth == 0; }

core::check::Origin origin(const char* func) {
  const char* call = core::t_current_call ? core::t_current_call : func;
  return {call ? call : "", "", core::program_frames()};
}

std::string made_by(Kind k, int64_t key) {
  const core::check::Origin* o = ledger().origin(k, key);
  return o ? core::check::describe(*o, core::check::source_line_of) : "a nonblocking call";
}

const core::Comm* g_world = nullptr;  // where buffer findings are reported, from Init to Finalize

core::check::BufferWatch& watch() {
  static core::check::BufferWatch w([](int64_t key) { return made_by(Kind::Request, key); },
                                    [](const std::string& text) {
                                      if (g_world) core::check::report(*g_world, "local-concurrency", text);
                                    });
  return w;
}

}  // namespace

void start_checking(const core::Comm& world) {
  g_checking = core::check::checking(world);
  g_world = &world;
  watch().on = g_checking;
}

core::check::BufferWatch* buffer_watch() { return noting() ? &watch() : nullptr; }

int64_t note_made(Kind k, const char* func) {
  if (!noting()) return 0;
  ledger().created(k, ++g_serial, origin(func));
  return g_serial;
}

void note_made(Kind k, int64_t key, const char* func) {
  if (noting()) ledger().created(k, key, origin(func));
}

void note_gone(Kind k, int64_t key) {
  if (g_checking && key) ledger().freed(k, key);
}

int64_t note_request(const RequestHandle& h, const char* func) {
  int64_t id = note_made(Kind::Request, func);
  if (id) requests()[id] = {&h, false, false};
  return id;
}

void note_request_done(int64_t id) {
  if (!id) return;
  requests().erase(id);
  note_gone(Kind::Request, id);
}

void check_request_free(int64_t id, const core::Comm& comm, bool active) {
  if (!id) return;
  if (active) {
    const core::check::Origin* o = ledger().origin(Kind::Request, id);
    core::check::Finding f = core::check::freed_while_active(made_by(Kind::Request, id), o ? o->call : "");
    if (!f.text.empty()) core::check::report(comm, f.check_class, f.text);
  }
  note_request_done(id);
}

void note_request_dropped(int64_t id, bool persistent, bool active) {
  auto it = requests().find(id);
  if (it != requests().end()) it->second = {nullptr, persistent, active};
}

void check_finalize(const core::Comm& world) {
  g_world = nullptr;
  if (!g_checking) return;
  for (const auto& [id, held] : requests()) {
    bool persistent = held.persistent, active = held.active;
    if (held.live) request_state(*held.live, persistent, active);
    core::check::Finding f = core::check::held_at_finalize(made_by(Kind::Request, id), persistent, active);
    core::check::report(world, f.check_class, f.text);
    ledger().freed(Kind::Request, id);
  }
  requests().clear();
  for (const std::string& text : ledger().leaks(core::check::source_line_of))
    core::check::report(world, "resource-leak", text);
  ledger().clear();
  // Nothing is noted after MPI_Finalize: a handle that goes later (a
  // global's, after main) may outlive these tables.
  g_checking = false;
  watch().on = false;
}

}  // namespace lumpi::detail
