// core/base/error.cpp: names and descriptions of the error classes.
#include "core/base/error.hpp"

#include <algorithm>

namespace lumpi::core {
namespace {

struct ClassInfo {
  const char* name;
  const char* description;
};

constexpr ClassInfo kClasses[] = {
    {"MPI_SUCCESS", "no error"},
    {"MPI_ERR_BUFFER", "invalid buffer"},
    {"MPI_ERR_COUNT", "invalid count argument"},
    {"MPI_ERR_TYPE", "invalid datatype or value that cannot be sent"},
    {"MPI_ERR_TAG", "invalid tag argument"},
    {"MPI_ERR_COMM", "invalid communicator"},
    {"MPI_ERR_RANK", "invalid rank"},
    {"MPI_ERR_REQUEST", "invalid request"},
    {"MPI_ERR_ROOT", "invalid root"},
    {"MPI_ERR_GROUP", "invalid group"},
    {"MPI_ERR_OP", "invalid reduce operation"},
    {"MPI_ERR_TOPOLOGY", "invalid topology"},
    {"MPI_ERR_DIMS", "invalid dimension argument"},
    {"MPI_ERR_ARG", "invalid argument"},
    {"MPI_ERR_UNKNOWN", "unknown error"},
    {"MPI_ERR_TRUNCATE", "message truncated"},
    {"MPI_ERR_OTHER", "other error"},
    {"MPI_ERR_INTERN", "internal error"},
    {"MPI_ERR_IN_STATUS", "error code is in status"},
    {"MPI_ERR_PENDING", "pending request"},
    {"MPI_ERR_KEYVAL", "invalid keyval"},
    {"MPI_ERR_INFO", "invalid info object"},
    {"MPI_ERR_INFO_KEY", "invalid info key"},
    {"MPI_ERR_INFO_VALUE", "invalid info value"},
    {"MPI_ERR_NO_MEM", "out of memory"},
    {"MPI_ERR_PROC_FAILED", "a process needed by this call has failed"},
    {"LUMPI_ERR_INTERRUPTED", "the call was interrupted by the user"},
    {"MPI_ERR_WIN", "invalid window"},
    {"MPI_ERR_BASE", "invalid base address"},
    {"MPI_ERR_SIZE", "invalid size argument"},
    {"MPI_ERR_DISP", "invalid displacement argument"},
    {"MPI_ERR_LOCKTYPE", "invalid lock type"},
    {"MPI_ERR_ASSERT", "invalid assert argument"},
    {"MPI_ERR_RMA_CONFLICT", "conflicting accesses to a window"},
    {"MPI_ERR_RMA_SYNC", "wrong synchronization of RMA calls"},
    {"MPI_ERR_RMA_RANGE", "target memory is not part of the window"},
    {"MPI_ERR_RMA_FLAVOR", "passed window has the wrong flavor for the called function"},
    {"MPI_ERR_ACCESS", "permission denied"},
    {"MPI_ERR_AMODE", "error related to the amode passed to MPI_File_open"},
    {"MPI_ERR_BAD_FILE", "invalid file name"},
    {"MPI_ERR_CONVERSION", "an error occurred in a user supplied data conversion function"},
    {"MPI_ERR_DUP_DATAREP", "data representation identifier already registered"},
    {"MPI_ERR_FILE", "invalid file handle"},
    {"MPI_ERR_FILE_EXISTS", "file exists"},
    {"MPI_ERR_FILE_IN_USE", "file is currently open by some process"},
    {"MPI_ERR_INFO_NOKEY", "key not defined in the info object"},
    {"MPI_ERR_IO", "other I/O error"},
    {"MPI_ERR_NAME", "invalid service name"},
    {"MPI_ERR_NOT_SAME", "collective argument not identical on all processes, or collectives called in a "
                         "different order"},
    {"MPI_ERR_NO_SPACE", "not enough space"},
    {"MPI_ERR_NO_SUCH_FILE", "file does not exist"},
    {"MPI_ERR_PORT", "invalid port name"},
    {"MPI_ERR_QUOTA", "quota exceeded"},
    {"MPI_ERR_READ_ONLY", "read-only file or file system"},
    {"MPI_ERR_RMA_ATTACH", "memory cannot be attached"},
    {"MPI_ERR_RMA_SHARED", "memory cannot be shared"},
    {"MPI_ERR_SERVICE", "invalid service name passed to MPI_Unpublish_name"},
    {"MPI_ERR_SPAWN", "error in spawning processes"},
    {"MPI_ERR_UNSUPPORTED_DATAREP", "unsupported data representation"},
    {"MPI_ERR_UNSUPPORTED_OPERATION", "unsupported operation"},
};
static_assert(sizeof kClasses / sizeof kClasses[0] == int(ErrClass::LastCode));

const ClassInfo& info(ErrClass c) {
  int i = int(c);
  if (i < 0 || i >= int(ErrClass::LastCode)) i = int(ErrClass::Unknown);
  return kClasses[i];
}

}  // namespace

const char* user_class_name(int cls);  // error_codes.cpp

const char* class_name(ErrClass c) {
  if (int(c) > int(ErrClass::LastCode)) return user_class_name(int(c));
  return info(c).name;
}
const char* class_description(ErrClass c) { return info(c).description; }

ErrClass class_from_name(std::string_view name) {
  for (int i = 0; i < int(ErrClass::LastCode); ++i)
    if (name == kClasses[i].name) return ErrClass(i);
  constexpr std::string_view user = "LUMPI_ERR_USER_";
  if (name.starts_with(user)) {
    int n = 0;
    for (char ch : name.substr(user.size())) {
      if (ch < '0' || ch > '9' || n > 100000000) return ErrClass::Unknown;
      n = n * 10 + (ch - '0');
    }
    if (is_error_code(n) && error_class_of(n) == n && n > int(ErrClass::LastCode)) return ErrClass(n);
  }
  return ErrClass::Unknown;
}

// at() writes the index after a mark; counting renders it from `first`.
constexpr char kIndexMark = '\x1e';

std::string at(std::string_view array, std::size_t index) {
  return std::string(array) + "[" + kIndexMark + std::to_string(index) + "]";
}

namespace {
// A mark not followed by 1 to 18 digits is not at()'s (a message may quote
// a peer's bytes): it stays as it is.
std::string count_positions(const std::string& raw, int first) {
  std::string out;
  std::size_t i = 0;
  for (std::size_t mark; (mark = raw.find(kIndexMark, i)) != std::string::npos;) {
    out.append(raw, i, mark - i);
    std::size_t end = std::min(raw.find_first_not_of("0123456789", mark + 1), raw.size());
    if (end == mark + 1 || end - mark - 1 > 18) {
      out += kIndexMark;
      i = mark + 1;
      continue;
    }
    std::size_t index = 0;
    for (std::size_t k = mark + 1; k < end; ++k) index = index * 10 + std::size_t(raw[k] - '0');
    out += std::to_string(index + std::size_t(first));
    i = end;
  }
  return out.append(raw, i, std::string::npos);
}
}  // namespace

Error::Error(ErrClass cls, std::string func, std::string message)
    : Error(cls, std::move(func), message, count_positions(message, 0)) {}

Error::Error(ErrClass cls, std::string func, std::string raw, std::string text)
    : std::runtime_error(std::string(class_name(cls)) + " in " + func + ": " + text),
      cls_(cls),
      code_(int(cls)),
      func_(std::move(func)),
      raw_(std::move(raw)),
      message_(std::move(text)) {}

std::string Error::message_from(int first) const { return count_positions(raw_, first); }

Error Error::with_code(int code, std::string func, std::string message) {
  Error e(ErrClass(error_class_of(code, func)), std::move(func), std::move(message));
  e.code_ = code;
  return e;
}

void fail(ErrClass cls, std::string_view func, std::string message) {
  throw Error(cls, std::string(func), std::move(message));
}

}  // namespace lumpi::core
