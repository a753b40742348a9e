// tests/unit/attr_test.cpp: the one attribute store of every door
// (core/base/attr.hpp), rule by rule: kinds apart, replacing and deleting
// run the delete callback, a failing callback keeps the attribute, a freed
// keyval lives while attributes use it, copies on duplication, newest first
// on free, and an object that goes without free keeps nothing.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/base/attr.hpp"
#include "core/base/error.hpp"

using namespace lumpi::core;
namespace attr = lumpi::core::attr;

namespace {

// Serials no other test uses (stores are process-wide).
std::uint64_t fresh_serial() {
  static std::uint64_t next = 1'000'000'000;
  return ++next;
}

ErrClass class_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const Error& e) {
    return e.cls();
  }
  return ErrClass::Success;
}

// A keyval whose delete callback logs "<object>:<value>" and returns rc.
int logging_keyval(attr::Kind k, std::vector<std::string>& log, const int& rc) {
  attr::Callbacks cb;
  cb.del = [&log, &rc](attr::Object on, int, attr::Value v) {
    log.push_back(std::string(static_cast<const char*>(on)) + ":" + static_cast<const char*>(v));
    return rc;
  };
  cb.copy = [](attr::Object, int, attr::Value in, attr::Value& out, bool& keep) {
    out = in;
    keep = true;
    return 0;
  };
  return attr::create_keyval(k, std::move(cb));
}

char kObj[] = "obj", kA[] = "a", kB[] = "b";

}  // namespace

TEST_CASE("a keyval serves its own kind of object only") {
  int kv = attr::create_keyval(attr::Kind::Type, {});
  std::uint64_t s = fresh_serial();
  attr::set(attr::Kind::Type, kObj, s, kv, kA, "MPI_Type_set_attr");
  CHECK(class_of([&] { attr::set(attr::Kind::Comm, kObj, s, kv, kA, "MPI_Comm_set_attr"); }) == ErrClass::Keyval);
  CHECK(class_of([&] { attr::check_keyval(attr::Kind::Win, kv, "MPI_Win_get_attr"); }) == ErrClass::Keyval);
  CHECK(class_of([&] { attr::check_keyval(attr::Kind::Type, 12345, "MPI_Type_get_attr"); }) == ErrClass::Keyval);
  attr::delete_all(attr::Kind::Type, kObj, s, "MPI_Type_free");
  attr::free_keyval(attr::Kind::Type, kv, "MPI_Type_free_keyval");
}

TEST_CASE("replacing and deleting run the delete callback; a failing one keeps the value") {
  std::vector<std::string> log;
  int rc = 0;
  int kv = logging_keyval(attr::Kind::Comm, log, rc);
  std::uint64_t s = fresh_serial();
  attr::set(attr::Kind::Comm, kObj, s, kv, kA, "MPI_Comm_set_attr");
  attr::set(attr::Kind::Comm, kObj, s, kv, kB, "MPI_Comm_set_attr");
  CHECK(log == std::vector<std::string>{"obj:a"});
  rc = int(ErrClass::Other);
  CHECK(class_of([&] { attr::remove(attr::Kind::Comm, kObj, s, kv, "MPI_Comm_delete_attr"); }) == ErrClass::Other);
  attr::Value v = nullptr;
  CHECK(attr::get(attr::Kind::Comm, s, kv, v, "MPI_Comm_get_attr"));
  CHECK(v == kB);
  rc = 0;
  attr::remove(attr::Kind::Comm, kObj, s, kv, "MPI_Comm_delete_attr");
  CHECK_FALSE(attr::get(attr::Kind::Comm, s, kv, v, "MPI_Comm_get_attr"));
  attr::remove(attr::Kind::Comm, kObj, s, kv, "MPI_Comm_delete_attr");  // not set: nothing
  CHECK(log.size() == 3);
  attr::free_keyval(attr::Kind::Comm, kv, "MPI_Comm_free_keyval");
}

TEST_CASE("a freed keyval lives while attributes use it, then is gone") {
  std::vector<std::string> log;
  int rc = 0;
  int kv = logging_keyval(attr::Kind::Win, log, rc);
  std::uint64_t s = fresh_serial();
  attr::set(attr::Kind::Win, kObj, s, kv, kA, "MPI_Win_set_attr");
  attr::free_keyval(attr::Kind::Win, kv, "MPI_Win_free_keyval");
  attr::free_keyval(attr::Kind::Win, kv, "MPI_Win_free_keyval");  // again: allowed while attached
  attr::Value v = nullptr;
  CHECK(attr::get(attr::Kind::Win, s, kv, v, "MPI_Win_get_attr"));
  CHECK(class_of([&] { attr::set(attr::Kind::Win, kObj, s, kv, kB, "MPI_Win_set_attr"); }) == ErrClass::Keyval);
  attr::remove(attr::Kind::Win, kObj, s, kv, "MPI_Win_delete_attr");
  CHECK(log == std::vector<std::string>{"obj:a"});
  CHECK(class_of([&] { attr::check_keyval(attr::Kind::Win, kv, "MPI_Win_get_attr", true); }) == ErrClass::Keyval);
}

TEST_CASE("a duplicate gets the kept copies; a free deletes newest first and stops at a failure") {
  std::vector<std::string> log;
  int rc = 0;
  int k1 = logging_keyval(attr::Kind::Comm, log, rc), k2 = logging_keyval(attr::Kind::Comm, log, rc);
  attr::Callbacks drop;
  drop.copy = [](attr::Object, int, attr::Value, attr::Value&, bool& keep) {
    keep = false;
    return 0;
  };
  int k3 = attr::create_keyval(attr::Kind::Comm, std::move(drop));
  std::uint64_t old = fresh_serial(), dup = fresh_serial();
  attr::set(attr::Kind::Comm, kObj, old, k2, kB, "MPI_Comm_set_attr");
  attr::set(attr::Kind::Comm, kObj, old, k1, kA, "MPI_Comm_set_attr");
  attr::set(attr::Kind::Comm, kObj, old, k3, kA, "MPI_Comm_set_attr");
  attr::Copies copies = attr::copy_all(attr::Kind::Comm, kObj, old, "MPI_Comm_dup");
  CHECK(copies.size() == 2);
  attr::attach(attr::Kind::Comm, dup, copies);
  attr::Value v = nullptr;
  CHECK((attr::get(attr::Kind::Comm, dup, k1, v, "MPI_Comm_get_attr") && v == kA));
  CHECK_FALSE(attr::get(attr::Kind::Comm, dup, k3, v, "MPI_Comm_get_attr"));
  rc = int(ErrClass::Other);  // the newest (k1's) fails: nothing deleted
  CHECK(class_of([&] { attr::delete_all(attr::Kind::Comm, kObj, old, "MPI_Comm_free"); }) == ErrClass::Other);
  CHECK(attr::get(attr::Kind::Comm, old, k2, v, "MPI_Comm_get_attr"));
  rc = 0;
  log.clear();
  attr::delete_all(attr::Kind::Comm, kObj, old, "MPI_Comm_free");
  CHECK(log == std::vector<std::string>{"obj:a", "obj:b"});  // k1 (set later), then k2
  attr::forget(attr::Kind::Comm, dup);  // gone without free: no callbacks
  CHECK(log.size() == 2);
  CHECK_FALSE(attr::get(attr::Kind::Comm, dup, k1, v, "MPI_Comm_get_attr"));
}

TEST_CASE("a callback's added error code stays itself, any other failure is MPI_ERR_OTHER") {
  int added_class = add_error_class();
  int added = add_error_code(added_class);
  int rc = added;
  std::vector<std::string> log;
  int kv = logging_keyval(attr::Kind::Type, log, rc);
  std::uint64_t s = fresh_serial();
  attr::set(attr::Kind::Type, kObj, s, kv, kA, "MPI_Type_set_attr");
  try {
    attr::remove(attr::Kind::Type, kObj, s, kv, "MPI_Type_delete_attr");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == added);
  }
  rc = 12345;
  CHECK(class_of([&] { attr::remove(attr::Kind::Type, kObj, s, kv, "MPI_Type_delete_attr"); }) == ErrClass::Other);
  rc = 0;
  attr::delete_all(attr::Kind::Type, kObj, s, "MPI_Type_free");
}
