// capi/c_check_resource.cpp: the C door's part of the checker (issue 25 items 5 and
// 6; docs/checking.md), under --check only: MPICH's tests leak on purpose
// and compare their output, so nothing here runs without it.
//
// The rules and their words are core/check/resource.hpp's: this file keeps
// the C handles' ledger, and the C door's watch over the buffers of its
// pending requests (core/check/buffer_watch.hpp: local concurrency).
#include <set>
#include <string>

#include "capi/c_api.hpp"

namespace lumpi::capi {

namespace {

bool g_checking = false;
std::set<MPI_Request> g_settled;  // see note_settled

core::check::Ledger& ledger() {
  static core::check::Ledger l;
  return l;
}

void report(const char* check_class, const std::string& text) {
  core::check::report(*core_comm(MPI_COMM_WORLD, "MPI_Finalize"), check_class, text);
}

// Where the request r was made (null if not noted).
const core::check::Origin* request_origin(MPI_Request r) { return ledger().origin(core::check::Kind::Request, r); }

std::string created_by(core::check::Kind k, MPI_Request r) {
  const core::check::Origin* o = ledger().origin(k, r);
  return o ? core::check::describe(*o, core::check::source_line_of) : "a nonblocking call";
}

}  // namespace

core::check::BufferWatch& buffers() {
  static core::check::BufferWatch w(
      [](core::check::BufferWatch::Key r) {
        const core::check::Origin* o = request_origin(MPI_Request(r));
        return o ? core::check::describe(*o, core::check::source_line_of) : std::string();
      },
      [](const std::string& text) { report("local-concurrency", text); });
  return w;
}

// MPI_IN_PLACE is no buffer of its own.
void note_read_buffer(const void* buf, size_t bytes) {
  if (buf != MPI_IN_PLACE) buffers().note(buf, bytes, false);
}
void note_written_buffer(const void* buf, size_t bytes) {
  if (buf != MPI_IN_PLACE) buffers().note(buf, bytes, true);
}

void start_checking() {
  g_checking = core::check::checking(*core_comm(MPI_COMM_WORLD, "MPI_Init"));
  buffers().on = g_checking;
}
bool checking() { return g_checking; }

void note_created(core::check::Kind k, int64_t handle) {
  if (!g_checking) return;
  if (k == core::check::Kind::Request) g_settled.erase(MPI_Request(handle));  // a handle used again
  ledger().created(k, handle, {core::t_current_call ? core::t_current_call : "", "", core::program_frames()});
}

void note_freed(core::check::Kind k, int64_t handle) {
  if (g_checking) ledger().freed(k, handle);
}

void note_settled(MPI_Request r) {
  if (g_checking) g_settled.insert(r);
}

void check_request_free(MPI_Request r) {
  if (!g_checking) return;
  request(r, "MPI_Request_free");  // not a request: the call's own error, no finding
  if (g_settled.count(r) || (is_persistent(r) && !prequest(r, "MPI_Request_free").Is_active())) return;
  const core::check::Origin* o = ledger().origin(core::check::Kind::Request, r);
  core::check::Finding f = core::check::freed_while_active(created_by(core::check::Kind::Request, r), o ? o->call : "");
  if (!f.text.empty()) report(f.check_class, f.text);
}

namespace {

// A request still held at MPI_Finalize: an operation never completed, or a
// persistent request never freed.
void report_held(MPI_Request r) {
  const bool persistent = is_persistent(r);
  core::check::Finding f = core::check::held_at_finalize(created_by(core::check::Kind::Request, r), persistent,
                                                         persistent && prequest(r, "MPI_Finalize").Is_active());
  report(f.check_class, f.text);
  ledger().freed(core::check::Kind::Request, r);
}

}  // namespace

void check_finalize() {
  if (!g_checking) return;
  for (MPI_Request r : live_requests()) report_held(r);
  for (const std::string& text : ledger().leaks(core::check::source_line_of)) report("resource-leak", text);
  ledger().clear();
  g_settled.clear();
}

}  // namespace lumpi::capi
