// core/base/errhandler.hpp: error handlers (MPI-3.1 §8.3): the predefined ones and
// user-defined ones, as a value any object that carries a handler holds
// (communicators now; windows and files attach the same value).
//
// The core never calls a handler: each binding applies the handler of the
// object a failing call was on at its own boundary (lua/binding.hpp wrap,
// core/api/api_error.cpp deliver, capi/c_api.hpp call), because only the
// binding knows how to call a function written in its language and how the
// call then returns. A user-defined handler is therefore an opaque object
// made by a binding (UserErrhandler), tagged with the kind of object it was
// created for (MPI_Comm_create_errhandler: Comm; MPI_Win_create_errhandler:
// Win) so that attaching it to another kind is refused with MPI_ERR_ARG.
// New objects inherit their parent's handler (core/comm/comm_build.cpp,
// core/comm/comm_dup.cpp; MPI-3.1 §6.4.2, §6.6.2), shared, not copied.
#pragma once

#include <memory>
#include <string>

namespace lumpi::core {

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

}  // namespace lumpi::core
