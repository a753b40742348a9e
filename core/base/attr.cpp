// core/base/attr.cpp: the attribute store of core/base/attr.hpp, one per kind
// of object, each under its own mutex (released while callbacks run).
#include "core/base/attr.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <string>

#include "core/base/constants.hpp"
#include "core/base/error.hpp"

namespace lumpi::core::attr {
namespace {

struct Keyval {
  Callbacks cb;
  bool freed = false;
  int refs = 0;  // attributes set with it
};

struct Attr {
  Value value;
  std::uint64_t when;  // the order of setting
};

// Keyvals below it are the predefined attributes (attr::Predefined).
constexpr int kFirstUserKeyval = 16;

struct Store {
  const char* name;
  int first, end;  // this kind's keyval numbers
  std::mutex mu;
  std::map<int, Keyval> keyvals;
  std::map<std::uint64_t, std::map<int, Attr>> attrs;  // object serial -> keyval -> attribute
  std::uint64_t clock = 0;
  int next;
  Store(const char* n, int f, int e) : name(n), first(f), end(e), next(f) {}
};

Store& store(Kind k) {
  // Never destroyed: objects in static storage (COMM_WORLD) may outlive it.
  static Store* stores[] = {new Store("communicator", kFirstUserKeyval, 1 << 20), new Store("datatype", 1 << 21, 1 << 22),
                            new Store("window", 1 << 20, 1 << 21)};
  return *stores[int(k)];
}

// The keyval's record under s.mu; MPI_ERR_KEYVAL as check_keyval says.
Keyval& find_keyval(Store& s, int keyval, std::string_view func, bool in_use_ok) {
  if (keyval > 0 && keyval < kFirstUserKeyval)
    fail(ErrClass::Keyval, func,
         "keyval " + std::to_string(keyval) + " is a predefined attribute, which cannot be set, deleted or freed");
  if (keyval < s.first || keyval >= s.end)
    fail(ErrClass::Keyval, func, "keyval " + std::to_string(keyval) + " is not a " + s.name + " keyval");
  auto it = s.keyvals.find(keyval);
  if (it == s.keyvals.end() || (it->second.freed && !(in_use_ok && it->second.refs > 0)))
    fail(ErrClass::Keyval, func, "keyval " + std::to_string(keyval) + " has been freed");
  return it->second;
}

// Drops one attribute's reference to keyval (under s.mu): a freed keyval
// goes with its last attribute.
void release(Store& s, int keyval) {
  auto it = s.keyvals.find(keyval);
  if (it != s.keyvals.end() && --it->second.refs <= 0 && it->second.freed) s.keyvals.erase(it);
}

// A callback's return as the call's error.
void check_callback(int rc, std::string_view func, const char* which, int keyval) {
  if (rc == 0) return;
  int code = rc > 0 && is_error_code(rc) ? rc : int(ErrClass::Other);
  throw Error::with_code(code, std::string(func), std::string("the ") + which + " callback of keyval " +
                                                      std::to_string(keyval) + " returned error " + std::to_string(rc));
}

// Runs the delete callback of (keyval, value) on `on` (a failing one raises).
void run_delete(Store& s, Object on, int keyval, Value value, std::string_view func) {
  decltype(Callbacks::del) del;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    auto it = s.keyvals.find(keyval);
    if (it != s.keyvals.end()) del = it->second.cb.del;
  }
  if (del) check_callback(del(on, keyval, value), func, "delete", keyval);
}

// run_delete, then drops the attribute; a failing callback keeps it.
void delete_one(Store& s, Object on, std::uint64_t serial, int keyval, Value value, std::string_view func) {
  run_delete(s, on, keyval, value, func);
  std::lock_guard<std::mutex> lock(s.mu);
  auto mine = s.attrs.find(serial);
  if (mine != s.attrs.end() && mine->second.erase(keyval)) release(s, keyval);
}

}  // namespace

bool predefined(int keyval, bool on_world, int& value) {
  switch (keyval) {
    case kTagUb: value = TAG_UB; return true;
    case kHost: value = PROC_NULL; return true;
    case kIo: value = ANY_SOURCE; return true;
    case kWtimeIsGlobal: case kAppnum: value = 0; return true;
    case kLastUsedCode: value = last_used_code(); return on_world;
    default: return false;  // UNIVERSE_SIZE, and any other number
  }
}

int create_keyval(Kind k, Callbacks cb) {
  Store& s = store(k);
  std::lock_guard<std::mutex> lock(s.mu);
  int id = s.next++;
  s.keyvals[id] = Keyval{std::move(cb)};
  return id;
}

void check_keyval(Kind k, int keyval, std::string_view func, bool in_use_ok) {
  Store& s = store(k);
  std::lock_guard<std::mutex> lock(s.mu);
  find_keyval(s, keyval, func, in_use_ok);
}

void free_keyval(Kind k, int keyval, std::string_view func) {
  Store& s = store(k);
  std::lock_guard<std::mutex> lock(s.mu);
  Keyval& kv = find_keyval(s, keyval, func, true);
  if (kv.refs == 0) s.keyvals.erase(keyval);
  else kv.freed = true;
}

void set(Kind k, Object on, std::uint64_t serial, int keyval, Value v, std::string_view func) {
  Store& s = store(k);
  Value old = nullptr;
  bool had = false;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    find_keyval(s, keyval, func, false);
    auto& mine = s.attrs[serial];
    auto it = mine.find(keyval);
    if (it != mine.end()) had = true, old = it->second.value;
  }
  if (had) run_delete(s, on, keyval, old, func);  // replacing runs the delete callback
  std::lock_guard<std::mutex> lock(s.mu);
  auto [it, fresh] = s.attrs[serial].insert_or_assign(keyval, Attr{v, ++s.clock});
  if (fresh) ++s.keyvals[keyval].refs;
}

bool get(Kind k, std::uint64_t serial, int keyval, Value& v, std::string_view func) {
  Store& s = store(k);
  std::lock_guard<std::mutex> lock(s.mu);
  find_keyval(s, keyval, func, true);
  auto mine = s.attrs.find(serial);
  if (mine == s.attrs.end()) return false;
  auto it = mine->second.find(keyval);
  if (it == mine->second.end()) return false;
  v = it->second.value;
  return true;
}

void remove(Kind k, Object on, std::uint64_t serial, int keyval, std::string_view func) {
  Store& s = store(k);
  Value value = nullptr;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    find_keyval(s, keyval, func, true);
    auto mine = s.attrs.find(serial);
    if (mine == s.attrs.end()) return;
    auto it = mine->second.find(keyval);
    if (it == mine->second.end()) return;
    value = it->second.value;
  }
  delete_one(s, on, serial, keyval, value, func);
}

Copies copy_all(Kind k, Object from, std::uint64_t serial, std::string_view func) {
  struct Item {
    int keyval;
    Value value;
    decltype(Callbacks::copy) copy;
  };
  std::vector<Item> items;
  Store& s = store(k);
  {
    std::lock_guard<std::mutex> lock(s.mu);
    auto mine = s.attrs.find(serial);
    if (mine == s.attrs.end()) return {};
    for (const auto& [keyval, a] : mine->second) {
      auto kv = s.keyvals.find(keyval);
      if (kv != s.keyvals.end()) items.push_back(Item{keyval, a.value, kv->second.cb.copy});
    }
  }
  Copies out;
  for (const Item& i : items) {
    if (!i.copy) continue;
    Value value = nullptr;
    bool keep = false;
    check_callback(i.copy(from, i.keyval, i.value, value, keep), func, "copy", i.keyval);
    if (keep) out.emplace_back(i.keyval, value);
  }
  return out;
}

void attach(Kind k, std::uint64_t serial, const Copies& copies) {
  if (copies.empty()) return;
  Store& s = store(k);
  std::lock_guard<std::mutex> lock(s.mu);
  auto& mine = s.attrs[serial];
  for (const auto& [keyval, value] : copies) {
    mine[keyval] = Attr{value, ++s.clock};
    ++s.keyvals[keyval].refs;
  }
}

void delete_all(Kind k, Object on, std::uint64_t serial, std::string_view func) {
  Store& s = store(k);
  std::vector<std::pair<std::uint64_t, std::pair<int, Value>>> order;  // (when, (keyval, value))
  {
    std::lock_guard<std::mutex> lock(s.mu);
    auto mine = s.attrs.find(serial);
    if (mine == s.attrs.end()) return;
    for (const auto& [keyval, a] : mine->second) order.push_back({a.when, {keyval, a.value}});
  }
  std::sort(order.rbegin(), order.rend());  // newest first
  for (const auto& [when, kv] : order) delete_one(s, on, serial, kv.first, kv.second, func);
  std::lock_guard<std::mutex> lock(s.mu);
  s.attrs.erase(serial);
}

std::vector<Value> forget(Kind k, std::uint64_t serial) {
  Store& s = store(k);
  std::lock_guard<std::mutex> lock(s.mu);
  auto mine = s.attrs.find(serial);
  if (mine == s.attrs.end()) return {};
  std::vector<Value> dropped;
  for (const auto& [keyval, a] : mine->second) dropped.push_back(a.value), release(s, keyval);
  s.attrs.erase(mine);
  return dropped;
}

}  // namespace lumpi::core::attr
