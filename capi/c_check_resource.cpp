// capi/c_check_resource.cpp: the C door's part of the checker (issue 25 items 5 and
// 6; docs/checking.md), under --check only: MPICH's tests leak on purpose
// and compare their output, so nothing here runs without it.
//
// The rules:
// - Each object a program creates it frees before MPI_Finalize (§8.7; the
//   free call's own section): what is left is reported as a leak
//   ("resource-leak"), with the call that created it and its source line
//   when the program was built with -g (addr2line, as c_crash.cpp).
// - Each nonblocking operation is completed by MPI_Wait, MPI_Test or one
//   of their forms (§3.7.3; §8.7: a process completes the operations it
//   started before MPI_Finalize): a request still held at MPI_Finalize is
//   reported ("request-lifecycle"); a persistent request is also freed
//   (§3.9). A receive request freed before it was completed is reported at
//   MPI_Request_free: "an active receive request should never be freed",
//   the receiver cannot know when its buffer holds the message (§3.7.3,
//   advice to users). An active send request may be freed: the operation
//   still completes, and the program may know by other means (a reply)
//   when the buffer is free again; a change of that buffer before the
//   send completed is local concurrency's finding, not this one's.
// A report is not an error: the program runs on, the run exits non-zero.
#include <cstdio>
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

}  // namespace

// "ring.c:12 (main)": the innermost frame of the program's own code that
// addr2line can place (lumpi's functions, for a static libmpi, passed over).
std::string source_line_of(const std::vector<uintptr_t>& frames) {
  std::string cmd = std::string("addr2line -f -C -p -e '") + core::program_path() + "'";
  char hex[24];
  for (uintptr_t a : frames) {
    std::snprintf(hex, sizeof hex, " %#lx", static_cast<unsigned long>(a));
    cmd += hex;
  }
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return "";
  std::string found;
  char line[1024];
  while (found.empty() && std::fgets(line, sizeof line, p)) {
    std::string l(line);
    size_t at = l.find(" at ");
    if (at == std::string::npos || l.find("??") != std::string::npos) continue;
    std::string fn = l.substr(0, at), pos = l.substr(at + 4);
    if (fn.rfind("lumpi::", 0) == 0 || fn.rfind("MPI_", 0) == 0 || fn.rfind("PMPI_", 0) == 0 ||
        fn.find("std::") != std::string::npos)
      continue;
    pos = pos.substr(0, pos.find_first_of(" \n"));
    found = pos.substr(pos.rfind('/') + 1) + " (" + fn + ")";
  }
  pclose(p);
  return found;
}

const core::check::Origin* request_origin(MPI_Request r) { return ledger().origin(core::check::Kind::Request, r); }

namespace {

std::string created_by(core::check::Kind k, MPI_Request r) {
  const core::check::Origin* o = ledger().origin(k, r);
  return o ? core::check::describe(*o, source_line_of) : "a nonblocking call";
}

}  // namespace

void start_checking() { g_checking = core::check::checking(*core_comm(MPI_COMM_WORLD, "MPI_Init")); }
bool checking() { return g_checking; }

void note_created(core::check::Kind k, int64_t handle) {
  if (!g_checking) return;
  if (k == core::check::Kind::Request) g_settled.erase(MPI_Request(handle));  // a handle used again
  ledger().created(k, handle, {core::t_current_call ? core::t_current_call : "", "", core::program_frames()});
}

void note_freed(core::check::Kind k, int64_t handle) {
  if (g_checking) ledger().freed(k, handle);
}

namespace {

bool is_one_of(const std::string& call, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (call == n) return true;
  return false;
}

}  // namespace

void note_settled(MPI_Request r) {
  if (g_checking) g_settled.insert(r);
}

// A send's request may be freed while active, and so may a generalized
// request (§12.2: before MPI_Grequest_complete is how it is meant to be).
void check_request_free(MPI_Request r) {
  if (!g_checking) return;
  request(r, "MPI_Request_free");  // not a request: the call's own error, no finding
  if (g_settled.count(r) || (is_persistent(r) && !prequest(r, "MPI_Request_free").Is_active())) return;
  const core::check::Origin* o = ledger().origin(core::check::Kind::Request, r);
  const std::string call = o ? o->call : "";
  if (is_one_of(call, {"MPI_Isend", "MPI_Ibsend", "MPI_Issend", "MPI_Irsend", "MPI_Send_init", "MPI_Bsend_init",
                       "MPI_Ssend_init", "MPI_Rsend_init", "MPI_Grequest_start"}))
    return;
  const std::string what = "MPI_Request_free: the request of " + created_by(core::check::Kind::Request, r) +
                           " was freed before its operation was completed by MPI_Wait, MPI_Test or their forms: ";
  if (is_one_of(call, {"MPI_Irecv", "MPI_Imrecv", "MPI_Recv_init"}))
    report("request-lifecycle", what + "the receiver can no longer know when its buffer holds the message "
                                       "(MPI-3.1 §3.7.3: an active receive request should never be freed)");
  else
    report("request-lifecycle", what + "the program can no longer know when the operation's buffers may be "
                                       "used again (MPI-3.1 §3.7.3)");
}

namespace {

// A request still held at MPI_Finalize: an operation never completed, or a
// persistent request never freed.
void report_held(MPI_Request r) {
  const std::string made = created_by(core::check::Kind::Request, r);
  if (!is_persistent(r)) {
    report("request-lifecycle", "MPI_Finalize: the operation of " + made +
                                    " was never completed by MPI_Wait, MPI_Test or their forms (MPI-3.1 §3.7.3; "
                                    "§8.7: a process completes the operations it started before MPI_Finalize)");
  } else if (prequest(r, "MPI_Finalize").Is_active()) {
    report("request-lifecycle", "MPI_Finalize: the persistent request made by " + made +
                                    " was started and never completed by MPI_Wait, MPI_Test or their forms "
                                    "(MPI-3.1 §3.9, §3.7.3; §8.7)");
  } else {
    report("resource-leak", "MPI_Finalize: the persistent request made by " + made +
                                " was never freed (MPI_Request_free, MPI-3.1 §3.9, §3.7.3; §8.7: a program frees "
                                "what it created before MPI_Finalize)");
  }
  ledger().freed(core::check::Kind::Request, r);
}

}  // namespace

void check_finalize() {
  if (!g_checking) return;
  for (MPI_Request r : live_requests()) report_held(r);
  for (const std::string& text : ledger().leaks(source_line_of)) report("resource-leak", text);
  ledger().clear();
  g_settled.clear();
}

}  // namespace lumpi::capi
