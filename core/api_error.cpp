// core/api_error.cpp: the C++ API's error shape: lumpi::Exception (wrapping
// core::Error's class, function and message), the predefined error handlers,
// and the delivery of an error under a communicator's handler.
#include <cstdio>
#include <cstdlib>

#include "core/api_detail.hpp"
#include "core/constants.hpp"

namespace lumpi {

// The public constants are the core's numbers.
static_assert(PROC_NULL == core::PROC_NULL && ANY_SOURCE == core::ANY_SOURCE &&
              ROOT == core::ROOT && ANY_TAG == core::ANY_TAG && UNDEFINED == core::UNDEFINED &&
              MAX_OBJECT_NAME == core::MAX_OBJECT_NAME);
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

Exception::Exception(int error_class, std::string function, std::string message)
    : class_(error_class), function_(std::move(function)), message_(std::move(message)) {
  what_ = std::string(Get_class_name()) + " in " + function_ + ": " + message_;
}

const char* Exception::Get_error_string() const {
  return core::class_description(core::ErrClass(class_));
}

const char* Exception::Get_class_name() const { return core::class_name(core::ErrClass(class_)); }

void Comm::Set_errhandler(const Errhandler& handler) {
  detail::guarded(*this, "MPI_Comm_set_errhandler", [&](core::Comm& c) {
    switch (detail::Access::id(handler)) {
      case kThrow: return c.set_errhandler(core::Errhandler::Raise);
      case kFatal: return c.set_errhandler(core::Errhandler::Fatal);
      case kReturn:
        detail::fail(ERR_ARG, "MPI_Comm_set_errhandler",
                     "errhandler ERRORS_RETURN has no meaning in the C++ API (calls return "
                     "results, not error codes); use ERRORS_THROW_EXCEPTIONS");
      default:
        detail::fail(ERR_ARG, "MPI_Comm_set_errhandler", "errhandler is ERRHANDLER_NULL");
    }
  });
}

Errhandler Comm::Get_errhandler() const {
  return detail::guarded(*this, "MPI_Comm_get_errhandler", [&](core::Comm& c) {
    return c.errhandler() == core::Errhandler::Fatal ? ERRORS_ARE_FATAL : ERRORS_THROW_EXCEPTIONS;
  });
}

namespace detail {

Exception to_exception(const core::Error& e) {
  return Exception(int(e.cls()), e.func(), e.message());
}

void fail(int cls, std::string_view func, std::string message) {
  throw Exception(cls, std::string(func), std::move(message));
}

// The Lua binding's Return handler has no C++ meaning (Set_errhandler refuses
// it), so a communicator set to it from elsewhere throws, as Raise does.
void deliver(const core::Comm* c, const Exception& e) {
  if (c && c->errhandler() == core::Errhandler::Fatal) {
    std::fprintf(stderr, "lumpi: rank %d: %s (ERRORS_ARE_FATAL)\n", c->engine().world_rank(),
                 e.what());
    std::fflush(nullptr);
    std::_Exit(1);
  }
  throw e;
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
