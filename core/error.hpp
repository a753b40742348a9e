// core/error.hpp: the one error shape of the core layer.
//
// Every failure the core reports is a lumpi::core::Error carrying the MPI
// error class, the MPI function that failed and a one-line message naming the
// bad argument. Bindings (lua/) turn it into their own error shape at their
// boundary; nothing in core catches it except to add context.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace lumpi::core {

enum class ErrClass : int {
  Success = 0,
  Buffer = 1,
  Count = 2,
  Type = 3,
  Tag = 4,
  Comm = 5,
  Rank = 6,
  Request = 7,
  Root = 8,
  Group = 9,
  Op = 10,
  Topology = 11,
  Dims = 12,
  Arg = 13,
  Unknown = 14,
  Truncate = 15,
  Other = 16,
  Intern = 17,
  InStatus = 18,
  Pending = 19,
  Keyval = 20,
  Info = 21,
  InfoKey = 22,
  InfoValue = 23,
  NoMem = 24,
  ProcFailed = 25,
  Interrupted = 26,
  // One-sided communication (seed chapter 11; core/win.hpp).
  Win = 27,
  Base = 28,
  Size = 29,
  Disp = 30,
  Locktype = 31,
  Assert = 32,
  RmaConflict = 33,
  RmaSync = 34,
  RmaRange = 35,
  RmaFlavor = 36,
  LastCode = 37,
};

// "MPI_ERR_RANK", "LUMPI_ERR_INTERRUPTED", ...
const char* class_name(ErrClass c);
// The class whose name is `name`, or Unknown.
ErrClass class_from_name(std::string_view name);
// Human description of a class, as MPI_Error_string gives it.
const char* class_description(ErrClass c);

class Error : public std::runtime_error {
 public:
  Error(ErrClass cls, std::string func, std::string message);
  ErrClass cls() const { return cls_; }
  const std::string& func() const { return func_; }
  const std::string& message() const { return message_; }

 private:
  ErrClass cls_;
  std::string func_;
  std::string message_;
};

// Throws Error(cls, func, message). For "validate, then act" code paths.
[[noreturn]] void fail(ErrClass cls, std::string_view func, std::string message);

}  // namespace lumpi::core
