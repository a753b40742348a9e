// capi/c_complete.cpp: completing the C API's requests: MPI_Wait and
// MPI_Test and their all, any and some forms (MPI-3.1 §3.7.3, §3.7.5,
// §3.9), over the public C++ API's Request.
//
// Every handle is checked before any request completes. An operation that
// ends in an error is over: its request is freed (a persistent one turns
// inactive), and the error goes to the handler of the communicator the
// request was started on (§8.3), not MPI_COMM_WORLD's. The all and some
// forms go on completing the others, put each request's class in its
// status's MPI_ERROR (MPI_ERR_PENDING for one MPI_Testall left pending) and
// return MPI_ERR_IN_STATUS (§3.7.5); with MPI_STATUSES_IGNORE, like MPICH,
// they return the failed operation's own class instead, the only place it
// can still be seen. MPI_Wait, MPI_Test and the any forms return it too,
// with index naming the request.
#include <algorithm>
#include <optional>
#include <vector>

#include "capi/c_api.hpp"

using namespace lumpi;
using namespace lumpi::capi;

namespace {

void empty_status(MPI_Status* s) {
  if (!s) return;
  s->MPI_SOURCE = MPI_ANY_SOURCE;
  s->MPI_TAG = MPI_ANY_TAG;
  s->MPI_ERROR = MPI_SUCCESS;
  s->lumpi_cancelled = 0;
  s->lumpi_bytes = 0;
}

MPI_Status* at(MPI_Status ss[], int i) { return ss ? &ss[i] : nullptr; }

// Each of the count handles is MPI_REQUEST_NULL or a request.
void check_requests(int count, const MPI_Request rs[], const char* func, const char* what = "count") {
  check_count(count, func, what);
  if (count > 0) check_out(rs, func, "array_of_requests");
  for (int i = 0; i < count; ++i)
    if (rs[i] != MPI_REQUEST_NULL) request(rs[i], func);
}

// The first error an operation ended in, and the communicator whose handler
// hears of it: the one that operation was started on.
struct Failure {
  MPI_Comm comm = MPI_COMM_WORLD;
  std::optional<Exception> error;
  int index = 0;

  // Raises it: as MPI_ERR_IN_STATUS when the statuses say which failed.
  void raise(bool in_status, const char* func) const {
    if (!error) return;
    if (!in_status) throw *error;
    fail(MPI_ERR_IN_STATUS, func,
         "request " + std::to_string(index) + " failed (its status says so): " + error->what());
  }
};

// Completes *r (waiting for it if block) into status; true when it
// completed. An operation that ended in an error has completed too: the
// first such error goes into f. MPI_ERROR is written only when several
// statuses are returned (index >= 0: MPI_SUCCESS or the error's class, as
// §3.7.5 wants after MPI_ERR_IN_STATUS); a call that returns one status
// leaves it alone (index < 0, §3.2.5). keep: leave the request allocated
// and active (MPI_Request_get_status).
constexpr int kOneStatus = -1;
bool settle(MPI_Request* r, MPI_Status* status, bool block, int index, Failure& f, const char* func,
            bool keep = false) {
  MPI_Status* several = index >= 0 ? status : nullptr;
  if (*r == MPI_REQUEST_NULL) {
    empty_status(status);
    return true;
  }
  MPI_Comm comm = comm_of_request(*r);
  try {
    Status s;
    Request& req = request(*r, func);
    buffers().unlanded(*r);
    if (keep) {
      if (!req.Get_status(s)) return false;
    } else if (block) {
      req.Wait(s);
    } else if (!req.Test(s)) {
      return false;
    }
    buffers().landed(*r);
    to_c(s, status);
    if (several) several->MPI_ERROR = MPI_SUCCESS;
    grequest_completed(*r, status, !keep, func);
  } catch (const Exception& e) {
    int before = status ? status->MPI_ERROR : 0;
    empty_status(status);
    if (status) status->MPI_ERROR = several ? e.Get_error_code() : before;
    if (!f.error) f = {comm, e, std::max(index, 0)};
  }
  if (!keep) completed(r);
  return true;
}

// One round over rs: true when a request completed (its index in *index) or
// none is active (index MPI_UNDEFINED, an empty status).
bool test_any(int count, MPI_Request rs[], int* index, MPI_Status* status, Failure& f, const char* func) {
  bool any = false;
  for (int i = 0; i < count; ++i) {
    if (ignored(rs[i])) continue;  // null or inactive (§3.7.5)
    any = true;
    if (settle(&rs[i], status, false, kOneStatus, f, func)) {
      *index = i;
      return true;
    }
  }
  *index = MPI_UNDEFINED;
  if (!any) empty_status(status);
  return !any;
}

// One round over rs: how many completed (their indices and statuses in
// order), MPI_UNDEFINED when none is active.
int test_some(int count, MPI_Request rs[], int indices[], MPI_Status ss[], Failure& f, const char* func) {
  bool any = false;
  int n = 0;
  for (int i = 0; i < count; ++i) {
    if (ignored(rs[i])) continue;
    any = true;
    if (settle(&rs[i], at(ss, n), false, i, f, func)) indices[n++] = i;
  }
  return any ? n : MPI_UNDEFINED;
}

// Sleeps until one of the active requests among rs can complete: what
// MPI_Waitany and MPI_Waitsome do between two rounds that found none.
void await_any(int count, const MPI_Request rs[], const char* func) {
  std::vector<const Request*> active;
  for (int i = 0; i < count; ++i)
    if (!ignored(rs[i])) active.push_back(&request(rs[i], func));
  detail::await_any(active, func);
}

}  // namespace

extern "C" {

LUMPI_PMPI(Wait);
int MPI_Wait(MPI_Request* r, MPI_Status* status) {
  Failure f;
  return call(f.comm, "MPI_Wait", [&] {
    check_out(r, "MPI_Wait", "request");
    check_requests(1, r, "MPI_Wait");
    settle(r, status, true, kOneStatus, f, "MPI_Wait");
    f.raise(false, "MPI_Wait");
  });
}

LUMPI_PMPI(Test);
int MPI_Test(MPI_Request* r, int* flag, MPI_Status* status) {
  Failure f;
  return call(f.comm, "MPI_Test", [&] {
    check_out(r, "MPI_Test", "request");
    check_out(flag, "MPI_Test", "flag");
    check_requests(1, r, "MPI_Test");
    *flag = settle(r, status, false, kOneStatus, f, "MPI_Test");
    f.raise(false, "MPI_Test");
  });
}

// MPI_Request_get_status (§3.7.3): MPI_Test without freeing or
// deactivating the request, which a later completing call still completes.
LUMPI_PMPI(Request_get_status);
int MPI_Request_get_status(MPI_Request r, int* flag, MPI_Status* status) {
  const char* func = "MPI_Request_get_status";
  Failure f;
  return call(f.comm, func, [&] {
    check_out(flag, func, "flag");
    if (ignored(r)) {
      empty_status(status);
      *flag = 1;
      return;
    }
    check_requests(1, &r, func);
    *flag = settle(&r, status, false, kOneStatus, f, func, true);
    if (*flag) note_settled(r);
    f.raise(false, func);
  });
}

LUMPI_PMPI(Waitall);
int MPI_Waitall(int count, MPI_Request rs[], MPI_Status ss[]) {
  const char* func = "MPI_Waitall";
  Failure f;
  return call(f.comm, func, [&] {
    check_requests(count, rs, func);
    for (int i = 0; i < count; ++i) settle(&rs[i], at(ss, i), true, i, f, func);
    f.raise(ss != MPI_STATUSES_IGNORE, func);
  });
}

// All complete: each is completed and flag is true. Otherwise none is
// changed, unless one has ended in an error: then every request that is
// complete is completed, the rest are MPI_ERR_PENDING.
// --check: the receives among rs that completed inside Request::Testall
// (all, or some when flag is false) have landed their messages: their
// buffers' sums are taken again, as settle does, so lumpi's own landing is
// not taken for the program's write (core/check/buffer_watch.hpp).
static void landed_all(int count, const MPI_Request rs[], const std::vector<Request>& copies) {
  if (!checking()) return;
  Status s;
  for (int i = 0; i < count; ++i)
    if (rs[i] != MPI_REQUEST_NULL && copies[size_t(i)].Get_status(s)) buffers().landed(rs[i]);
}

LUMPI_PMPI(Testall);
int MPI_Testall(int count, MPI_Request rs[], int* flag, MPI_Status ss[]) {
  const char* func = "MPI_Testall";
  Failure f;
  return call(f.comm, func, [&] {
    check_requests(count, rs, func);
    check_out(flag, func, "flag");
    std::vector<Request> copies;
    for (int i = 0; i < count; ++i) copies.push_back(rs[i] == MPI_REQUEST_NULL ? Request() : request(rs[i], func));
    std::vector<Status> st(size_t(count) + 1);
    for (int i = 0; i < count; ++i)
      if (rs[i] != MPI_REQUEST_NULL) buffers().unlanded(rs[i]);  // --check, as settle does
    try {
      *flag = Request::Testall(count, copies.data(), st.data());
      landed_all(count, rs, copies);
    } catch (const Exception&) {  // which one, and what the others are, is settle's to say
      *flag = 1;
      for (int i = 0; i < count; ++i) {
        if (settle(&rs[i], at(ss, i), false, i, f, func)) continue;
        *flag = 0;
        if (ss) ss[i].MPI_ERROR = MPI_ERR_PENDING;
      }
      return f.raise(ss != MPI_STATUSES_IGNORE, func);
    }
    if (!*flag) return;
    for (int i = 0; i < count; ++i) {
      if (rs[i] == MPI_REQUEST_NULL) {
        empty_status(at(ss, i));
        continue;
      }
      to_c(st[size_t(i)], at(ss, i));
      completed(&rs[i]);
    }
  });
}

LUMPI_PMPI(Waitany);
int MPI_Waitany(int count, MPI_Request rs[], int* index, MPI_Status* status) {
  const char* func = "MPI_Waitany";
  Failure f;
  return call(f.comm, func, [&] {
    check_requests(count, rs, func);
    check_out(index, func, "index");
    while (!test_any(count, rs, index, status, f, func)) await_any(count, rs, func);
    f.raise(false, func);
  });
}

LUMPI_PMPI(Testany);
int MPI_Testany(int count, MPI_Request rs[], int* index, int* flag, MPI_Status* status) {
  const char* func = "MPI_Testany";
  Failure f;
  return call(f.comm, func, [&] {
    check_requests(count, rs, func);
    check_out(index, func, "index");
    check_out(flag, func, "flag");
    *flag = test_any(count, rs, index, status, f, func);
    f.raise(false, func);
  });
}

LUMPI_PMPI(Waitsome);
int MPI_Waitsome(int incount, MPI_Request rs[], int* outcount, int indices[], MPI_Status ss[]) {
  const char* func = "MPI_Waitsome";
  Failure f;
  return call(f.comm, func, [&] {
    check_requests(incount, rs, func, "incount");
    check_out(outcount, func, "outcount");
    if (incount > 0) check_out(indices, func, "array_of_indices");
    while ((*outcount = test_some(incount, rs, indices, ss, f, func)) == 0) await_any(incount, rs, func);
    f.raise(ss != MPI_STATUSES_IGNORE, func);
  });
}

// Every request that is complete now (one progress round); MPI_UNDEFINED
// when none is active.
LUMPI_PMPI(Testsome);
int MPI_Testsome(int incount, MPI_Request rs[], int* outcount, int indices[], MPI_Status ss[]) {
  const char* func = "MPI_Testsome";
  Failure f;
  return call(f.comm, func, [&] {
    check_requests(incount, rs, func, "incount");
    check_out(outcount, func, "outcount");
    if (incount > 0) check_out(indices, func, "array_of_indices");
    *outcount = test_some(incount, rs, indices, ss, f, func);
    f.raise(ss != MPI_STATUSES_IGNORE, func);
  });
}

}  // extern "C"
