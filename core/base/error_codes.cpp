// core/base/error_codes.cpp: the error classes, codes and strings a program adds
// (MPI-3.1 §8.5, MPI_Add_error_class/code/string): one process-local table.
//
// Codes 0..LastCode are the predefined classes. Added classes and codes share
// one sequence above LastCode (so a class is also a code, of its own class),
// and LASTUSEDCODE is the top of it. The table is guarded by a mutex: the
// unit tests run several ranks as threads of one process.
#include <deque>
#include <map>
#include <mutex>

#include "core/base/error.hpp"

namespace lumpi::core {
namespace {

struct Added {
  int cls;           // the class of this code (itself for a class)
  std::string text;  // MPI_Add_error_string
};

struct Table {
  std::mutex mu;
  std::map<int, Added> codes;
  std::deque<std::string> names;  // stable storage for class_name()
  std::map<int, const char*> name_of;
  std::map<int, std::string> returned;  // remember_returned, predefined codes
  int last = int(ErrClass::LastCode);
};

Table& table() {
  static Table* t = new Table;  // never destroyed: errors may be built at exit
  return *t;
}

bool predefined(int code) { return code >= 0 && code <= int(ErrClass::LastCode); }

}  // namespace

const char* user_class_name(int cls) {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  auto it = t.name_of.find(cls);
  return it == t.name_of.end() ? class_name(ErrClass::Unknown) : it->second;
}

int add_error_class() {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  int cls = ++t.last;
  t.codes[cls] = Added{cls, ""};
  t.names.push_back("LUMPI_ERR_USER_" + std::to_string(cls));
  t.name_of[cls] = t.names.back().c_str();
  return cls;
}

int add_error_code(int error_class) {
  const char* func = "MPI_Add_error_code";
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  bool ok = (predefined(error_class) && error_class != int(ErrClass::Success) &&
             error_class != int(ErrClass::LastCode)) ||
            (t.codes.count(error_class) && t.codes[error_class].cls == error_class);
  if (!ok)
    fail(ErrClass::Arg, func,
         "errorclass " + std::to_string(error_class) + " is not an error class other than MPI_SUCCESS");
  int code = ++t.last;
  t.codes[code] = Added{error_class, ""};
  return code;
}

void add_error_string(int code, std::string text) {
  const char* func = "MPI_Add_error_string";
  if (predefined(code))
    fail(ErrClass::Arg, func,
         "errorcode " + std::to_string(code) + " is predefined (at most MPI_ERR_LASTCODE); only added codes take a string");
  if (text.size() >= size_t(MAX_ERROR_STRING))
    fail(ErrClass::Arg, func,
         "string has " + std::to_string(text.size()) + " characters; at most MPI_MAX_ERROR_STRING - 1 = " +
             std::to_string(MAX_ERROR_STRING - 1) + " are allowed");
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  auto it = t.codes.find(code);
  if (it == t.codes.end())
    fail(ErrClass::Arg, func, "errorcode " + std::to_string(code) + " was not added by MPI_Add_error_class/code");
  it->second.text = std::move(text);
}

bool is_error_code(int code) {
  if (predefined(code)) return true;
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  return t.codes.count(code) != 0;
}

int error_class_of(int code, std::string_view func) {
  if (predefined(code)) return code;
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  auto it = t.codes.find(code);
  if (it == t.codes.end()) fail(ErrClass::Arg, func, "errorcode " + std::to_string(code) + " is not an error code");
  return it->second.cls;
}

std::string error_string_of(int code, std::string_view func) {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  if (predefined(code)) {
    auto c = ErrClass(code);
    auto it = t.returned.find(code);
    return it != t.returned.end() ? it->second : std::string(class_name(c)) + ": " + class_description(c);
  }
  auto it = t.codes.find(code);
  if (it == t.codes.end()) fail(ErrClass::Arg, func, "errorcode " + std::to_string(code) + " is not an error code");
  return it->second.text;
}

void remember_returned(int code, std::string what) {
  if (!predefined(code) || code == 0) return;
  if (what.size() >= MAX_ERROR_STRING) what.resize(MAX_ERROR_STRING - 1);
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  t.returned[code] = std::move(what);
}

int last_used_code() {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  return t.last;
}

}  // namespace lumpi::core
