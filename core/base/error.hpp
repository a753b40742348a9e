// core/base/error.hpp: the one error shape of the core layer.
//
// Every failure the core reports is a lumpi::core::Error carrying the MPI
// error class, the MPI function that failed and a one-line message naming the
// bad argument. Bindings (lua/) turn it into their own error shape at their
// boundary; nothing in core catches it except to add context.
#pragma once

#include <stdexcept>
#include <cstddef>
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
  // One-sided communication (seed chapter 11; core/rma/win.hpp).
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
  // The rest of MPI-3.1's classes (§8.4, Table 8.2): files, dynamic
  // processes, names and ports, window memory, and two general ones. lumpi
  // has no MPI-IO and no dynamic processes, but a program may name these
  // classes (handlers comparing codes, MPI_Error_string, mpi4py's tables).
  Access = 37,
  Amode = 38,
  BadFile = 39,
  Conversion = 40,
  DupDatarep = 41,
  File = 42,
  FileExists = 43,
  FileInUse = 44,
  InfoNokey = 45,
  Io = 46,
  Name = 47,
  NotSame = 48,
  NoSpace = 49,
  NoSuchFile = 50,
  Port = 51,
  Quota = 52,
  ReadOnly = 53,
  RmaAttach = 54,
  RmaShared = 55,
  Service = 56,
  Spawn = 57,
  UnsupportedDatarep = 58,
  UnsupportedOperation = 59,
  LastCode = 60,
};

// "MPI_ERR_RANK", "LUMPI_ERR_INTERRUPTED", ...; a class added by
// add_error_class is "LUMPI_ERR_USER_<n>".
const char* class_name(ErrClass c);
// The class whose name is `name`, or Unknown.
ErrClass class_from_name(std::string_view name);
// Human description of a class, as MPI_Error_string gives it.
const char* class_description(ErrClass c);

// A position in a sequence argument, written once for every door: core
// says at("ranks", i) with i 0-based, and the message reads "ranks[0]" in
// MPI's C and C++ terms (Error::message) or "ranks[1]" where sequences
// count from 1 (Lua: Error::message_from(1)).
std::string at(std::string_view array, std::size_t index);

class Error : public std::runtime_error {
 public:
  Error(ErrClass cls, std::string func, std::string message);
  // An error with a code added by add_error_code (or any valid code): its
  // class is error_class_of(code). MPI_ERR_ARG... if code is not valid.
  static Error with_code(int code, std::string func, std::string message);
  ErrClass cls() const { return cls_; }
  // The error code: the class itself unless made by with_code.
  int code() const { return code_; }
  const std::string& func() const { return func_; }
  // The message with positions (at()) counted from 0, as MPI's C and C++ do.
  const std::string& message() const { return message_; }
  // The message with positions counted from `first` (1 for Lua's sequences).
  std::string message_from(int first) const;

 private:
  // raw with its positions counted from 0 as `text`, counted once.
  Error(ErrClass cls, std::string func, std::string raw, std::string text);
  ErrClass cls_;
  int code_;
  std::string func_;
  std::string raw_;      // positions marked (at()), not yet counted
  std::string message_;  // raw_ with positions counted from 0
};

// ---- user-defined error classes, codes and strings (core/base/error_codes.cpp) ----------
// MPI-3.1 §8.5: process-local. Codes 0..LastCode are predefined (each is its
// own class); added classes and codes are numbered from LastCode + 1 up, in
// one sequence, never reused.

inline constexpr int MAX_ERROR_STRING = 512;
// MPI_Add_error_class: a new class (also a valid code, its own class).
int add_error_class();
// MPI_Add_error_code: a new code of error_class (predefined other than
// SUCCESS, or added); MPI_ERR_ARG naming it otherwise.
int add_error_code(int error_class);
// MPI_Add_error_string: the string of an added class or code (replacing an
// earlier one). MPI_ERR_ARG for a predefined or unknown code, or a string of
// MAX_ERROR_STRING characters or more.
void add_error_string(int code, std::string text);
// Is code a predefined or added error code (or class)?
bool is_error_code(int code);
// MPI_Error_class: the class of code; MPI_ERR_ARG naming func if not a code.
int error_class_of(int code, std::string_view func = "MPI_Error_class");
// MPI_Error_string: for a predefined code, the whole message of the last
// error returned to the program with that code (remember_returned), else
// "MPI_ERR_RANK: invalid rank"; the added string for an added one ("" if
// none was added).
std::string error_string_of(int code, std::string_view func = "MPI_Error_string");
// An error the program is being handed back as a code (MPI_ERRORS_RETURN or
// a user handler that returned): its message, what() ("MPI_ERR_ARG in
// MPI_Comm_split: color -2 ..."), becomes the code's string, so the program's
// MPI_Error_string says which argument and why, as MPICH's does. Codes stay
// the classes themselves (`rc == MPI_ERR_RANK` keeps working), so the string
// is that of the latest error of the class. Added codes keep their strings.
void remember_returned(int code, std::string what);
// The value of the MPI_LASTUSEDCODE attribute: the largest code in use.
int last_used_code();

// Throws Error(cls, func, message). For "validate, then act" code paths.
[[noreturn]] void fail(ErrClass cls, std::string_view func, std::string message);

}  // namespace lumpi::core
