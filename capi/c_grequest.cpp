// capi/c_grequest.cpp: generalized requests (MPI-3.1 §12.2): a request the
// program completes itself with MPI_Grequest_complete, whose status comes
// from its query function when a completing call (MPI_Wait, MPI_Test and
// their forms) completes it, after which its free function runs;
// MPI_Cancel calls its cancel function. In the core it is a generic request
// (core/engine/request.hpp) on MPI_COMM_SELF that is complete once
// MPI_Grequest_complete has been called, so it waits, tests and shows in
// hang reports like any other.
#include <map>
#include <memory>

#include "capi/c_api.hpp"

using namespace lumpi;
using namespace lumpi::capi;

namespace {

struct Grequest {
  MPI_Grequest_query_function* query;
  MPI_Grequest_free_function* free;
  MPI_Grequest_cancel_function* cancel;
  void* extra;
  std::shared_ptr<bool> done;
};

std::map<int, Grequest>& grequests() {
  static std::map<int, Grequest> t;
  return t;
}

// A callback's non-zero return is the calling function's error.
void check_callback(int rc, const char* f, const char* which) {
  if (rc != MPI_SUCCESS) fail(rc, f, std::string("the generalized request's ") + which + " function failed");
}

}  // namespace

namespace lumpi::capi {

bool grequest_completed(MPI_Request r, MPI_Status* status, bool release, const char* f) {
  auto it = grequests().find(r);
  if (it == grequests().end()) return false;
  Grequest g = it->second;
  MPI_Status s{};
  s.MPI_SOURCE = MPI_UNDEFINED, s.MPI_TAG = MPI_UNDEFINED;
  check_callback(g.query(g.extra, &s), f, "query");
  if (status) *status = s;
  if (!release) return true;
  grequests().erase(it);
  check_callback(g.free(g.extra), f, "free");
  return true;
}

void grequest_dropped(MPI_Request r) {
  auto it = grequests().find(r);
  if (it == grequests().end()) return;
  Grequest g = it->second;
  grequests().erase(it);
  g.free(g.extra);  // freed before a completing call ran it (MPI_Request_free); its code has no caller
}

bool grequest_cancel(MPI_Request r, const char* f) {
  auto it = grequests().find(r);
  if (it == grequests().end()) return false;
  check_callback(it->second.cancel(it->second.extra, *it->second.done), f, "cancel");
  return true;
}

}  // namespace lumpi::capi

extern "C" {

LUMPI_PMPI(Grequest_start);
int MPI_Grequest_start(MPI_Grequest_query_function* query_fn, MPI_Grequest_free_function* free_fn,
                       MPI_Grequest_cancel_function* cancel_fn, void* extra_state, MPI_Request* request) {
  const char* f = "MPI_Grequest_start";
  return call(f, [&] {
    check_out(request, f, "request");
    if (!query_fn) fail(MPI_ERR_ARG, f, "query_fn is NULL");
    if (!free_fn) fail(MPI_ERR_ARG, f, "free_fn is NULL");
    if (!cancel_fn) fail(MPI_ERR_ARG, f, "cancel_fn is NULL");
    core::CommPtr self = core_comm(MPI_COMM_SELF, f);
    auto done = std::make_shared<bool>(false);
    auto req = core::Request::generic(self->engine(), [done] { return *done; },
                                      self->waiting("MPI_Wait", "a generalized request"));
    *request = add_request(detail::request_of(self, req, f));
    grequests()[*request] = Grequest{query_fn, free_fn, cancel_fn, extra_state, done};
  });
}

LUMPI_PMPI(Grequest_complete);
int MPI_Grequest_complete(MPI_Request request) {
  const char* f = "MPI_Grequest_complete";
  return call(f, [&] {
    auto it = grequests().find(request);
    if (it == grequests().end())
      fail(MPI_ERR_REQUEST, f, "request " + std::to_string(request) + " is not a generalized request");
    *it->second.done = true;
  });
}

}  // extern "C"
