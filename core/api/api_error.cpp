// core/api/api_error.cpp: the C++ API's error shape: lumpi::Exception (wrapping
// core::Error's code, class, function and message), the predefined and
// user-defined error handlers, added error classes/codes/strings, and the
// delivery of an error under a communicator's handler.
#include "core/api/api_detail.hpp"
#include "core/base/constants.hpp"
#include "core/base/hw.hpp"

namespace lumpi {

// The public constants are the core's numbers.
static_assert(PROC_NULL == core::PROC_NULL && ANY_SOURCE == core::ANY_SOURCE &&
              ROOT == core::ROOT && ANY_TAG == core::ANY_TAG && UNDEFINED == core::UNDEFINED &&
              MAX_OBJECT_NAME == core::MAX_OBJECT_NAME && MAX_ERROR_STRING == core::MAX_ERROR_STRING &&
              MAX_PROCESSOR_NAME == core::MAX_PROCESSOR_NAME && MAX_INFO_KEY == core::MAX_INFO_KEY &&
              MAX_INFO_VAL == core::MAX_INFO_VAL && VERSION == core::kMpiVersion &&
              SUBVERSION == core::kMpiSubversion);
static_assert(ERR_RANK == int(core::ErrClass::Rank) && ERR_TOPOLOGY == int(core::ErrClass::Topology) &&
              ERR_KEYVAL == int(core::ErrClass::Keyval) &&
              ERR_INTERRUPTED == int(core::ErrClass::Interrupted) &&
              ERR_LASTCODE == int(core::ErrClass::LastCode));

namespace {
enum : int { kNull = 0, kThrow = 1, kFatal = 2, kReturn = 3 };
}

extern const Errhandler ERRHANDLER_NULL = detail::Access::errhandler(kNull);
extern const Errhandler ERRORS_THROW_EXCEPTIONS = detail::Access::errhandler(kThrow);
extern const Errhandler ERRORS_ARE_FATAL = detail::Access::errhandler(kFatal);
extern const Errhandler ERRORS_RETURN = detail::Access::errhandler(kReturn);

namespace {
// The class of code, or ERR_UNKNOWN for a number that is no code (an
// Exception is never refused: it may describe a bad code itself).
int class_or_unknown(int code) {
  return core::is_error_code(code) ? core::error_class_of(code) : ERR_UNKNOWN;
}
}  // namespace

Exception::Exception(int error_code, std::string function, std::string message)
    : code_(error_code),
      class_(class_or_unknown(error_code)),
      function_(std::move(function)),
      message_(std::move(message)) {
  what_ = std::string(Get_class_name()) + " in " + function_ + ": " + message_;
}

std::string Exception::Get_error_string() const {
  return core::is_error_code(code_) ? core::error_string_of(code_) : core::class_description(core::ErrClass::Unknown);
}

const char* Exception::Get_class_name() const { return core::class_name(core::ErrClass(class_)); }

// ---- error classes, codes and strings ------------------------------------------

int Add_error_class() { return core::add_error_class(); }
int Add_error_code(int errorclass) {
  return detail::guarded([&] { return core::add_error_code(errorclass); });
}
void Add_error_string(int errorcode, const std::string& string) {
  detail::guarded([&] { core::add_error_string(errorcode, string); });
}
int Get_error_class(int errorcode) {
  return detail::guarded([&] { return core::error_class_of(errorcode); });
}
std::string Get_error_string(int errorcode) {
  return detail::guarded([&] { return core::error_string_of(errorcode); });
}
int Get_last_used_code() { return core::last_used_code(); }
void Get_version(int& version, int& subversion) {
  version = VERSION;
  subversion = SUBVERSION;
}
std::string Get_processor_name() { return core::hw::hostname(); }

// ---- error handlers -------------------------------------------------------------

Errhandler Comm::Create_errhandler(Comm_errhandler_function function) {
  if (!function) detail::fail(ERR_ARG, "MPI_Comm_create_errhandler", "function is empty");
  auto u = std::make_shared<detail::UserHandler>(std::move(function));
  u->check_key = detail::note_made(core::check::Kind::Errhandler, "MPI_Comm_create_errhandler");
  return detail::Access::errhandler(std::move(u));
}

void Errhandler::Free() {
  if (!user_) detail::fail(ERR_ARG, "MPI_Errhandler_free", "errhandler is predefined or ERRHANDLER_NULL");
  if (user_->freed) detail::fail(ERR_ARG, "MPI_Errhandler_free", "errhandler was already freed");
  user_->freed = true;
  if (auto u = std::dynamic_pointer_cast<detail::UserHandler>(user_))
    detail::note_gone(core::check::Kind::Errhandler, u->check_key);
  *this = Errhandler();
}

void Comm::Set_errhandler(const Errhandler& handler) {
  const char* f = "MPI_Comm_set_errhandler";
  detail::guarded(*this, f, [&](core::Comm& c) {
    c.set_errhandler(detail::core_handler(handler, core::HandlerObject::Comm, f));
  });
}

Errhandler Comm::Get_errhandler() const {
  return detail::guarded(*this, "MPI_Comm_get_errhandler",
                         [&](core::Comm& c) { return detail::api_handler(c.errhandler()); });
}

void Comm::Call_errhandler(int errorcode) const {
  const char* f = "MPI_Comm_call_errhandler";
  detail::guarded(*this, f, [&](core::Comm&) { core::raise_code(errorcode, f, "called by Comm::Call_errhandler"); });
}

namespace detail {

core::Errhandler core_handler(const Errhandler& h, core::HandlerObject object, std::string_view func) {
  if (const auto& user = Access::user(h)) return core::settable(user, object, func);
  switch (Access::id(h)) {
    case kThrow: return core::Errhandler::Raise;
    case kFatal: return core::Errhandler::Fatal;
    case kReturn:
      fail(ERR_ARG, func,
           "errhandler ERRORS_RETURN has no meaning in the C++ API (calls return "
           "results, not error codes); use ERRORS_THROW_EXCEPTIONS");
    default: fail(ERR_ARG, func, "errhandler is ERRHANDLER_NULL");
  }
}

// Another door's handlers (C's, Lua's ERRORS_RETURN) throw here.
Errhandler api_handler(const core::Errhandler& h) {
  if (h.user_as<UserHandler>()) return Access::errhandler(std::static_pointer_cast<UserHandler>(h.user()));
  return h == core::Errhandler::Fatal ? ERRORS_ARE_FATAL : ERRORS_THROW_EXCEPTIONS;
}

Exception to_exception(const core::Error& e) { return Exception(e.code(), e.func(), e.message()); }

void fail(int cls, std::string_view func, std::string message) {
  throw Exception(cls, std::string(func), std::move(message));
}

// A handler made by another door (C, Lua) is not called here: its door
// calls it when the error reaches it, or nobody does.
void deliver(const core::Comm* c, const Exception& e, const std::shared_ptr<CommHandle>* api) {
  if (!c) throw e;
  deliver(c->errhandler(), e, [&](UserHandler& u) {
    auto call = [&](auto comm) { u.fn(comm, e.Get_error_code()); };
    if (!u.fn || !api || !*api) return;
    if (c->is_inter()) call(Access::wrap<Intercomm>(*api));
    else call(Access::wrap<Intracomm>(*api));
  });
}

core::Comm& core_of(const Comm& c, std::string_view func) {
  const auto& h = Access::handle(c);
  if (!h) fail(ERR_COMM, func, "the communicator is COMM_NULL");
  try {
    h->comm->check_usable(func);
  } catch (const core::Error& e) {
    throw to_exception(e);
  }
  return *h->comm;
}

}  // namespace detail
}  // namespace lumpi
