// core/base/errhandler.cpp: what an error does under a handler (deliver),
// the last error delivered, the fatal end of the job, and the names of the
// kinds of object.
#include "core/base/errhandler.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "core/base/error.hpp"

namespace lumpi::core {
namespace {
std::atomic<FatalSink> g_fatal{nullptr};

// last_delivered's error: written by the program's threads, read by the rank
// host's status answer. Never destroyed: errors may be delivered at exit.
struct LastDelivered {
  std::mutex mu;
  DeliveredError error;
};

LastDelivered& last() {
  static auto* l = new LastDelivered;
  return *l;
}
}  // namespace

HandlerKind deliver(const Errhandler& h, const DeliveredError& e) {
  {
    std::lock_guard<std::mutex> lock(last().mu);
    last().error = e;
  }
  if (h == HandlerKind::Fatal) fatal(e.code, e.text());
  if (h != HandlerKind::Raise) remember_returned(e.code, e.text());
  return h.kind();
}

DeliveredError delivered(const Error& e) { return {e.code(), class_name(e.cls()), e.func(), e.message()}; }

DeliveredError last_delivered() {
  std::lock_guard<std::mutex> lock(last().mu);
  return last().error;
}

void forget_delivered() {
  std::lock_guard<std::mutex> lock(last().mu);
  last().error = DeliveredError();
}

Errhandler settable(std::shared_ptr<UserErrhandler> user, HandlerObject object, std::string_view func) {
  if (user->freed) fail(ErrClass::Arg, func, "errhandler has been freed");
  if (user->object != object)
    fail(ErrClass::Arg, func, std::string("errhandler was made for a ") + handler_object_name(user->object) +
                                  ", not a " + handler_object_name(object));
  return Errhandler(std::move(user));
}

void raise_code(int code, std::string_view func, const std::string& message) {
  if (!is_error_code(code) || code == int(ErrClass::Success))
    fail(ErrClass::Arg, func, "errorcode " + std::to_string(code) + " is not an error code other than MPI_SUCCESS");
  throw Error::with_code(code, std::string(func), message);
}

void set_fatal_sink(FatalSink sink) { g_fatal = sink; }

void fatal(int code, const std::string& what) {
  int cls = is_error_code(code) ? error_class_of(code) : code;
  std::string why = what + " (MPI_ERRORS_ARE_FATAL)";
  if (FatalSink sink = g_fatal.load()) sink(cls, why);
  std::fprintf(stderr, "lumpi: %s\n", why.c_str());
  std::fflush(nullptr);
  std::_Exit(1);
}

const char* handler_object_name(HandlerObject o) {
  switch (o) {
    case HandlerObject::Comm: return "communicator";
    case HandlerObject::Win: return "window";
    case HandlerObject::File: return "file";
  }
  return "object";
}


}  // namespace lumpi::core
