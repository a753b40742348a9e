// core/base/errhandler.hpp: error handlers (MPI-3.1 §8.3), predefined and
// user-defined, as a value every object with a handler holds (communicators,
// windows), and deliver(), the one rule of what an error does under one.
// Each door delivers at its boundary (lua/binding.hpp wrap, api_detail.hpp
// guarded, capi/c_api.hpp call) through deliver(); only the door can call a
// function in its language, so a user-defined handler is an opaque object
// made by a door (UserErrhandler), tagged with the kind of object it was created for
// (MPI_Comm_create_errhandler: Comm; MPI_Win_create_errhandler: Win) so that
// attaching it to another kind is refused with MPI_ERR_ARG. New objects
// inherit their parent's handler (core/comm/comm_build.cpp,
// core/comm/comm_dup.cpp; MPI-3.1 §6.4.2, §6.6.2), shared, not copied.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace lumpi::core {

class Error;

enum class HandlerKind { Raise, Return, Fatal, User };
// The kinds of object a handler can be created for.
enum class HandlerObject { Comm, Win, File };
const char* handler_object_name(HandlerObject o);  // "communicator", "window", "file"

// A user-defined handler: a binding's subclass holds the function.
struct UserErrhandler {
  explicit UserErrhandler(HandlerObject o) : object(o) {}
  virtual ~UserErrhandler() = default;
  HandlerObject object;  // what it was created for
  bool freed = false;    // MPI_Errhandler_free was called (objects using it keep it)
};

class Errhandler {
 public:
  static constexpr HandlerKind Raise = HandlerKind::Raise;    // the Lua/C++ default: raise/throw
  static constexpr HandlerKind Return = HandlerKind::Return;  // MPI_ERRORS_RETURN
  static constexpr HandlerKind Fatal = HandlerKind::Fatal;    // MPI_ERRORS_ARE_FATAL

  Errhandler(HandlerKind k = HandlerKind::Raise) : kind_(k) {}  // implicit: a predefined one
  explicit Errhandler(std::shared_ptr<UserErrhandler> user)
      : kind_(HandlerKind::User), user_(std::move(user)) {}

  HandlerKind kind() const { return kind_; }
  // The user-defined handler (null for a predefined one).
  const std::shared_ptr<UserErrhandler>& user() const { return user_; }
  // As T (a binding's own subclass), or null for a predefined handler or
  // one made by another binding.
  template <class T>
  T* user_as() const {
    return dynamic_cast<T*>(user_.get());
  }
  bool operator==(HandlerKind k) const { return kind_ == k; }
  bool operator==(const Errhandler& o) const { return kind_ == o.kind_ && user_ == o.user_; }

 private:
  HandlerKind kind_;
  std::shared_ptr<UserErrhandler> user_;
};

// user to set on an object of kind `object`; MPI_ERR_ARG if freed or made for another kind.
Errhandler settable(std::shared_ptr<UserErrhandler> user, HandlerObject object, std::string_view func);
// MPI_Comm/Win_call_errhandler: throws the error of code as func's, with
// message; MPI_ERR_ARG if code is no error code other than MPI_SUCCESS.
[[noreturn]] void raise_code(int code, std::string_view func, const std::string& message);

// An error as a door hands it to its program, in parts: the code, its
// class's name, the call that raised it and why, as the door phrases it.
struct DeliveredError {
  int code = 0;            // 0 (MPI_SUCCESS): none
  std::string class_name;  // "MPI_ERR_OP"
  std::string call;        // "MPI_Allreduce"
  std::string message;
  // "MPI_ERR_OP in MPI_Allreduce: unknown op", as the door's exceptions say it.
  std::string text() const { return class_name + " in " + call + ": " + message; }
};

// What the error e (`what`: e.text()) does under h (§8.3): Fatal ends the
// job (fatal) and does not return; User: the door calls the function with
// its handle of the object and the code, then returns as under Return
// (C++, with no code to return, throws);
// Return: the door's call returns the code (Lua: nil, err), which then
// has `what` as its MPI_Error_string (remember_returned); Raise (the Lua
// and C++ default): the door raises the error.
// Under every handler, `what` also becomes the process's last delivered error.
HandlerKind deliver(const Errhandler& h, const DeliveredError& e);
// A core error's parts (its message with positions counted from 0).
DeliveredError delivered(const Error& e);

// The last error deliver() handed to this process's program, under any
// handler (code 0 if none since forget_delivered): the rank host sends
// it with its status, so that a deadlock report can say why a rank is not
// where its partners wait (a bad argument made it raise before it
// communicated). One per process, like remember_returned's strings.
DeliveredError last_delivered();
// A new command begins (the REPL's, a script): an older error is not its.
void forget_delivered();

// The end of the job under ERRORS_ARE_FATAL: the sink the rank host set (MPI_Abort's
// path), else `what` on stderr and exit status 1 (unit tests).
using FatalSink = void (*)(int error_class, const std::string& why);
void set_fatal_sink(FatalSink sink);
[[noreturn]] void fatal(int code, const std::string& what);

}  // namespace lumpi::core
