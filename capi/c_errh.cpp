// capi/c_errh.cpp: errors in the C API (MPI-3.1 §8.3-8.5): delivery under
// the core object's handler (core::deliver), the error handler calls, and
// error classes, codes and strings (the core's table, core/base/error.hpp).
//
// Handles: 0 MPI_ERRHANDLER_NULL, 1 MPI_ERRORS_ARE_FATAL, 2 MPI_ERRORS_RETURN,
// then the core's handlers around C functions, slots reused. A handler
// counts the handles the program holds (create and get add one, free drops
// one); at none its slot goes and it is marked freed: objects using it keep
// it (§8.3.4), and a get on one of them makes a new handle.
#include "core/base/error.hpp"
#include "capi/c_api.hpp"

namespace lumpi::capi {
namespace {

// MPI_Comm_errhandler_function and MPI_Win_errhandler_function are one C
// type; `object` says which the handler was made for.
struct CErrhandler : core::UserErrhandler {
  CErrhandler(core::HandlerObject o, MPI_Comm_errhandler_function* f) : UserErrhandler(o), fn(f) {}
  MPI_Comm_errhandler_function* fn;
  int handles = 1;  // held by the program
};

std::vector<std::shared_ptr<CErrhandler>>& handlers() {
  static std::vector<std::shared_ptr<CErrhandler>> t(3);  // slots 0..2: the predefined handles
  return t;
}

// The user handler of handle h, ERR_ARG naming func unless the program holds it.
std::shared_ptr<CErrhandler>& user(MPI_Errhandler h, const char* func) {
  auto& t = handlers();
  if (h <= MPI_ERRORS_RETURN || h >= int(t.size()) || !t[size_t(h)])
    fail(MPI_ERR_ARG, func, "errhandler " + std::to_string(h) + " is not an error handler (or was freed)");
  return t[size_t(h)];
}

int create(core::HandlerObject object, MPI_Comm_errhandler_function* fn, MPI_Errhandler* errhandler,
           const char* f) {
  return call(f, [&] {
    check_out(errhandler, f, "errhandler");
    if (!fn) fail(MPI_ERR_ARG, f, "function is NULL");
    *errhandler = put_in_free_slot(handlers(), 3, std::make_shared<CErrhandler>(object, fn),
                                   [](const auto& u) { return !u; });
    note_created(core::check::Kind::Errhandler, *errhandler);
  });
}

}  // namespace

int deliver(core::Errhandler h, int handle, const core::DeliveredError& e) {
  if (core::deliver(h, e) == core::HandlerKind::User)
    if (auto* u = h.user_as<CErrhandler>()) {
      int c = e.code;
      u->fn(&handle, &c);
    }
  return e.code;
}

int deliver(MPI_Comm comm, const core::DeliveredError& e) {
  auto& t = comms();
  MPI_Comm on = comm > 0 && comm < int(t.size()) && t[comm].h ? comm : MPI_COMM_WORLD;
  return deliver(t[on].h ? t[on].h->comm->errhandler() : core::Errhandler(core::Errhandler::Fatal), on, e);
}

core::Errhandler settable(MPI_Errhandler h, core::HandlerObject object, const char* func) {
  if (h == MPI_ERRORS_ARE_FATAL) return core::Errhandler::Fatal;
  if (h == MPI_ERRORS_RETURN) return core::Errhandler::Return;
  if (h == MPI_ERRHANDLER_NULL) fail(MPI_ERR_ARG, func, "errhandler is MPI_ERRHANDLER_NULL");
  return core::settable(user(h, func), object, func);
}

// A predefined handler's own handle (the C++ and Lua default, raising,
// returns the code here); a user one's slot, or a new one.
MPI_Errhandler errhandler_handle(const core::Errhandler& h, const char* func) {
  if (h.kind() != core::HandlerKind::User) return h == core::HandlerKind::Fatal ? MPI_ERRORS_ARE_FATAL : MPI_ERRORS_RETURN;
  auto u = std::dynamic_pointer_cast<CErrhandler>(h.user());
  if (!u) fail(MPI_ERR_OTHER, func, "the errhandler was made by the C++ or Lua API, not the C API");
  auto& t = handlers();
  for (size_t i = 3; i < t.size(); ++i)
    if (t[i] == u) return ++u->handles, MPI_Errhandler(i);
  u->handles = 1;
  u->freed = false;
  return put_in_free_slot(t, 3, u, [](const auto& x) { return !x; });
}

}  // namespace lumpi::capi

using namespace lumpi;
using namespace lumpi::capi;

extern "C" {

// ---- error classes, codes and strings --------------------------------------------------

LUMPI_PMPI(Error_string);
int MPI_Error_string(int errorcode, char* string, int* resultlen) {
  const char* f = "MPI_Error_string";
  return call(f, [&] {
    check_out(string, f, "string");
    copy_out(core::error_string_of(errorcode, f), string, resultlen, MPI_MAX_ERROR_STRING);
  });
}

LUMPI_PMPI(Error_class);
int MPI_Error_class(int errorcode, int* errorclass) {
  const char* f = "MPI_Error_class";
  return call(f, [&] {
    check_out(errorclass, f, "errorclass");
    *errorclass = core::error_class_of(errorcode, f);
  });
}

LUMPI_PMPI(Add_error_class);
int MPI_Add_error_class(int* errorclass) {
  const char* f = "MPI_Add_error_class";
  return call(f, [&] {
    check_out(errorclass, f, "errorclass");
    *errorclass = core::add_error_class();
  });
}

LUMPI_PMPI(Add_error_code);
int MPI_Add_error_code(int errorclass, int* errorcode) {
  const char* f = "MPI_Add_error_code";
  return call(f, [&] {
    check_out(errorcode, f, "errorcode");
    *errorcode = core::add_error_code(errorclass);
  });
}

LUMPI_PMPI(Add_error_string);
int MPI_Add_error_string(int errorcode, const char* string) {
  const char* f = "MPI_Add_error_string";
  return call(f, [&] {
    check_out(string, f, "string");
    core::add_error_string(errorcode, string);
  });
}

// ---- error handlers -------------------------------------------------------------------

LUMPI_PMPI(Comm_create_errhandler);
int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function* function, MPI_Errhandler* errhandler) {
  return create(core::HandlerObject::Comm, function, errhandler, "MPI_Comm_create_errhandler");
}

// MPI_Win_create_errhandler (§8.3.2): set only on windows (MPI_ERR_ARG on a
// communicator, and a communicator's handler on a window, as MPICH does).
LUMPI_PMPI(Win_create_errhandler);
int MPI_Win_create_errhandler(MPI_Win_errhandler_function* function, MPI_Errhandler* errhandler) {
  return create(core::HandlerObject::Win, function, errhandler, "MPI_Win_create_errhandler");
}

LUMPI_PMPI(Errhandler_create);
int MPI_Errhandler_create(MPI_Handler_function* function, MPI_Errhandler* errhandler) {
  return MPI_Comm_create_errhandler(function, errhandler);
}

LUMPI_PMPI(Comm_set_errhandler);
int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler) {
  const char* f = "MPI_Comm_set_errhandler";
  return call(comm, f, [&] { entry(comm, f).h->comm->set_errhandler(settable(errhandler, core::HandlerObject::Comm, f)); });
}

// A user handler's handle is a new reference the program frees (§8.3.1).
LUMPI_PMPI(Comm_get_errhandler);
int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler* errhandler) {
  const char* f = "MPI_Comm_get_errhandler";
  return call(comm, f, [&] {
    check_out(errhandler, f, "errhandler");
    *errhandler = errhandler_handle(entry(comm, f).h->comm->errhandler(), f);
  });
}

LUMPI_PMPI(Errhandler_set);
int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler e) { return MPI_Comm_set_errhandler(comm, e); }
LUMPI_PMPI(Errhandler_get);
int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler* e) { return MPI_Comm_get_errhandler(comm, e); }

// The predefined handlers are never deallocated: the handle becomes null.
LUMPI_PMPI(Errhandler_free);
int MPI_Errhandler_free(MPI_Errhandler* errhandler) {
  const char* f = "MPI_Errhandler_free";
  return call(f, [&] {
    check_out(errhandler, f, "errhandler");
    if (*errhandler != MPI_ERRORS_ARE_FATAL && *errhandler != MPI_ERRORS_RETURN) {
      auto& u = user(*errhandler, f);
      note_freed(core::check::Kind::Errhandler, *errhandler);
      if (--u->handles == 0) {
        u->freed = true;  // objects using it keep it; the slot goes
        u.reset();
      }
    }
    *errhandler = MPI_ERRHANDLER_NULL;
  });
}

// Delivers errorcode under comm's handler (§8.3.6). A user handler is
// called and MPI_SUCCESS returned; under MPI_ERRORS_RETURN the code is
// returned, as MPICH and Open MPI do; MPI_ERRORS_ARE_FATAL aborts.
LUMPI_PMPI(Comm_call_errhandler);
int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode) {
  const char* f = "MPI_Comm_call_errhandler";
  int rc = call(comm, f, [&] {
    entry(comm, f);
    core::raise_code(errorcode, f, "error code " + std::to_string(errorcode));
  });
  // §8.3.6: MPI_SUCCESS once the handler was called and returned
  // (ERRORS_RETURN's included); a bad errorcode's MPI_ERR_ARG stays.
  return rc == errorcode ? MPI_SUCCESS : rc;
}

}  // extern "C"
