// capi/c_errh.cpp: errors in the C API (MPI-3.1 §8.3-8.5): error
// delivery under a communicator's or a window's handler (the predefined ones
// and user-defined MPI_Comm_errhandler_function / MPI_Win_errhandler_function
// handlers; c_win.cpp keeps each window's handler), the error handler
// calls, and error classes, codes and strings (the core's table,
// core/base/error.hpp, so Lua, C++ and C agree on them).
//
// Handler handles: 0 MPI_ERRHANDLER_NULL, 1 MPI_ERRORS_ARE_FATAL,
// 2 MPI_ERRORS_RETURN, then one slot per MPI_Comm/Win_create_errhandler, never
// reused, so a communicator that inherited a handler (dup, split, create ...,
// MPI-3.1 §6.4.2; c_comm.cpp passes the parent's) always finds it. A slot
// counts the handles the program holds (create and MPI_Comm_get_errhandler
// add one, MPI_Errhandler_free drops one); with none left it cannot be set
// on a communicator any more, while communicators using it keep it.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/base/error.hpp"
#include "capi/c_api.hpp"

namespace lumpi::capi {
namespace {

struct UserEntry {
  MPI_Comm_errhandler_function* fn = nullptr;     // made by MPI_Comm_create_errhandler
  MPI_Win_errhandler_function* win_fn = nullptr;  // made by MPI_Win_create_errhandler
  int handles = 0;  // held by the program
};

std::vector<UserEntry>& users() {
  static std::vector<UserEntry> t(3);  // slots 0..2: the predefined handles
  return t;
}

bool is_user(MPI_Errhandler h) { return h > MPI_ERRORS_RETURN && h < int(users().size()); }

// The user handler entry of h, ERR_ARG naming func unless it is one the
// program still holds.
UserEntry& user(MPI_Errhandler h, const char* func) {
  if (!is_user(h) || users()[size_t(h)].handles <= 0)
    fail(MPI_ERR_ARG, func, "errhandler " + std::to_string(h) + " is not an error handler (or was freed)");
  return users()[size_t(h)];
}

// MPI_ERRORS_ARE_FATAL: ends the world with the class of code.
[[noreturn]] void abort_world(int code, const std::string& what) {
  Abort(core::is_error_code(code) ? core::error_class_of(code) : code, what + " (MPI_ERRORS_ARE_FATAL)");
}

}  // namespace

int handler_of(MPI_Comm comm) {
  auto& t = comms();
  if (comm > 0 && comm < int(t.size()) && t[comm].h) return t[comm].errhandler;
  return t[MPI_COMM_WORLD].errhandler;
}

int deliver(MPI_Comm comm, int handler, int code, const std::string& what) {
  if (handler != MPI_ERRORS_ARE_FATAL) core::remember_returned(code, what);
  if (handler == MPI_ERRORS_RETURN) return code;
  if (is_user(handler) && users()[size_t(handler)].fn) {
    auto& t = comms();
    MPI_Comm target = comm > 0 && comm < int(t.size()) && t[comm].h ? comm : MPI_COMM_WORLD;
    int c = code;
    users()[size_t(handler)].fn(&target, &c);
    return code;  // the handler returned: so does the call, with the code
  }
  abort_world(code, what);
}

int deliver_win(MPI_Win win, int handler, int code, const std::string& what) {
  if (handler != MPI_ERRORS_ARE_FATAL) core::remember_returned(code, what);
  if (handler == MPI_ERRORS_RETURN) return code;
  if (is_user(handler) && users()[size_t(handler)].win_fn) {
    MPI_Win target = win;
    int c = code;
    users()[size_t(handler)].win_fn(&target, &c);
    return code;
  }
  abort_world(code, what);
}

void check_settable(MPI_Errhandler h, bool for_win, const char* func) {
  if (h == MPI_ERRORS_ARE_FATAL || h == MPI_ERRORS_RETURN) return;
  if (h == MPI_ERRHANDLER_NULL) fail(MPI_ERR_ARG, func, "errhandler is MPI_ERRHANDLER_NULL");
  UserEntry& u = user(h, func);
  if (for_win && !u.win_fn) fail(MPI_ERR_ARG, func, "errhandler was made for a communicator, not a window");
  if (!for_win && !u.fn) fail(MPI_ERR_ARG, func, "errhandler was made for a window, not a communicator");
}

MPI_Errhandler retain_errhandler(MPI_Errhandler h) {
  if (is_user(h)) ++users()[size_t(h)].handles;
  return h;
}

}  // namespace lumpi::capi

using namespace lumpi;
using namespace lumpi::capi;

extern "C" {

// ---- error classes, codes and strings --------------------------------------------------

int MPI_Error_string(int errorcode, char* string, int* resultlen) {
  const char* f = "MPI_Error_string";
  return call(f, [&] {
    check_out(string, f, "string");
    copy_out(core::error_string_of(errorcode, f), string, resultlen, MPI_MAX_ERROR_STRING);
  });
}

int MPI_Error_class(int errorcode, int* errorclass) {
  const char* f = "MPI_Error_class";
  return call(f, [&] {
    check_out(errorclass, f, "errorclass");
    *errorclass = core::error_class_of(errorcode, f);
  });
}

int MPI_Add_error_class(int* errorclass) {
  const char* f = "MPI_Add_error_class";
  return call(f, [&] {
    check_out(errorclass, f, "errorclass");
    *errorclass = core::add_error_class();
  });
}

int MPI_Add_error_code(int errorclass, int* errorcode) {
  const char* f = "MPI_Add_error_code";
  return call(f, [&] {
    check_out(errorcode, f, "errorcode");
    *errorcode = core::add_error_code(errorclass);
  });
}

int MPI_Add_error_string(int errorcode, const char* string) {
  const char* f = "MPI_Add_error_string";
  return call(f, [&] {
    check_out(string, f, "string");
    core::add_error_string(errorcode, string);
  });
}

// ---- error handlers -------------------------------------------------------------------

int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function* function, MPI_Errhandler* errhandler) {
  const char* f = "MPI_Comm_create_errhandler";
  return call(f, [&] {
    check_out(errhandler, f, "errhandler");
    if (!function) fail(MPI_ERR_ARG, f, "function is NULL");
    users().push_back(UserEntry{function, nullptr, 1});
    *errhandler = int(users().size()) - 1;
  });
}

// MPI_Win_create_errhandler (§8.3.2): set only on windows (MPI_ERR_ARG on a
// communicator, and a communicator's handler on a window, as MPICH does).
int MPI_Win_create_errhandler(MPI_Win_errhandler_function* function, MPI_Errhandler* errhandler) {
  const char* f = "MPI_Win_create_errhandler";
  return call(f, [&] {
    check_out(errhandler, f, "errhandler");
    if (!function) fail(MPI_ERR_ARG, f, "function is NULL");
    users().push_back(UserEntry{nullptr, function, 1});
    *errhandler = int(users().size()) - 1;
  });
}

int MPI_Errhandler_create(MPI_Handler_function* function, MPI_Errhandler* errhandler) {
  return MPI_Comm_create_errhandler(function, errhandler);
}

int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler) {
  const char* f = "MPI_Comm_set_errhandler";
  return call(comm, f, [&] {
    CommEntry& e = entry(comm, f);
    check_settable(errhandler, false, f);
    e.errhandler = errhandler;
  });
}

// A user handler's handle is a new reference the program frees (§8.3.1).
int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler* errhandler) {
  const char* f = "MPI_Comm_get_errhandler";
  return call(comm, f, [&] {
    check_out(errhandler, f, "errhandler");
    *errhandler = retain_errhandler(entry(comm, f).errhandler);
  });
}

int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler e) { return MPI_Comm_set_errhandler(comm, e); }
int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler* e) { return MPI_Comm_get_errhandler(comm, e); }

// The predefined handlers are never deallocated: the handle becomes null.
int MPI_Errhandler_free(MPI_Errhandler* errhandler) {
  const char* f = "MPI_Errhandler_free";
  return call(f, [&] {
    check_out(errhandler, f, "errhandler");
    if (*errhandler != MPI_ERRORS_ARE_FATAL && *errhandler != MPI_ERRORS_RETURN) --user(*errhandler, f).handles;
    *errhandler = MPI_ERRHANDLER_NULL;
  });
}

// Delivers errorcode under comm's handler. A user handler is called and
// MPI_SUCCESS returned; under MPI_ERRORS_RETURN the code is returned, as
// MPICH and Open MPI do; MPI_ERRORS_ARE_FATAL aborts.
int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode) {
  const char* f = "MPI_Comm_call_errhandler";
  int handler = MPI_ERRORS_ARE_FATAL;
  int rc = call(comm, f, [&] {
    handler = entry(comm, f).errhandler;
    if (!core::is_error_code(errorcode) || errorcode == MPI_SUCCESS)
      fail(MPI_ERR_ARG, f, "errorcode " + std::to_string(errorcode) + " is not an error code other than MPI_SUCCESS");
  });
  if (rc != MPI_SUCCESS) return rc;
  int code = deliver(comm, handler, errorcode,
                     std::string(core::class_name(core::ErrClass(core::error_class_of(errorcode)))) +
                         " in MPI_Comm_call_errhandler: error code " + std::to_string(errorcode));
  return is_user(handler) ? MPI_SUCCESS : code;
}

}  // extern "C"
