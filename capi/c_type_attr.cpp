// capi/c_type_attr.cpp: attribute caching on datatypes in the C API
// (MPI-3.1 §6.7.4): type keyvals with C copy/delete callbacks, the
// attributes of each type, and the hooks MPI_Type_dup (copy callbacks) and
// MPI_Type_free (delete callbacks) call (capi/c_type.cpp).
//
// Attributes are keyed by the core object's serial (never reused), so a
// handle slot reused after a free never shows a stale attribute; the
// predefined types carry attributes too. Type keyvals are numbered from
// kFirstTypeKeyval, apart from communicator keyvals, so passing one kind
// to the other's calls is MPI_ERR_KEYVAL. As for communicators (§6.7.2), a
// keyval freed while attributes use it lives on until the last one is
// deleted; freeing it again meanwhile does nothing (MPICH does the same;
// MPICH's attr/keyval_double_free_type frees it from a delete callback),
// and a keyval entirely gone is MPI_ERR_KEYVAL. A callback's non-zero
// return fails the call with that code (MPI_ERR_OTHER if it is no code):
// set_attr and delete_attr then keep the attribute, dup returns
// MPI_DATATYPE_NULL, free keeps the type.
#include <algorithm>
#include <map>

#include "core/base/error.hpp"
#include "capi/c_api.hpp"

namespace lumpi::capi {
namespace {

// Apart from communicator keyvals (16 up) and window keyvals (1 << 20 up,
// core/api/api_win.cpp), so a keyval of one kind is never taken for another's.
constexpr int kFirstTypeKeyval = 2 << 20;

struct TypeKeyval {
  MPI_Type_copy_attr_function* copy;
  MPI_Type_delete_attr_function* del;
  void* extra;
  bool freed = false;
  int refs = 0;  // attributes set with it
};

struct Attr {
  void* value;
  uint64_t when;  // the order of setting
};

struct Store {
  std::map<int, TypeKeyval> keyvals;
  std::map<uint64_t, std::map<int, Attr>> attrs;  // type serial -> keyval -> attribute
  uint64_t clock = 0;
  int next = kFirstTypeKeyval;
};

Store& store() {
  static Store* s = new Store;
  return *s;
}

// The keyval record; ERR_KEYVAL unless it is a live type keyval (a freed
// one still attached passes when in_use_ok).
TypeKeyval& keyval(int k, const char* func, bool in_use_ok = false) {
  if (k == MPI_KEYVAL_INVALID) fail(MPI_ERR_KEYVAL, func, "keyval is MPI_KEYVAL_INVALID");
  auto it = store().keyvals.find(k);
  if (it == store().keyvals.end())
    fail(MPI_ERR_KEYVAL, func, "keyval " + std::to_string(k) + " is not a datatype keyval (or was freed)");
  if (it->second.freed && !(in_use_ok && it->second.refs > 0))
    fail(MPI_ERR_KEYVAL, func, "keyval " + std::to_string(k) + " has been freed");
  return it->second;
}

void release(int k) {
  auto it = store().keyvals.find(k);
  if (it != store().keyvals.end() && --it->second.refs <= 0 && it->second.freed) store().keyvals.erase(it);
}

// Runs the delete callback of attribute k of type t (handle h) and drops it;
// a failing callback keeps it.
void delete_one(MPI_Datatype h, uint64_t serial, int k, const char* func) {
  auto& mine = store().attrs[serial];
  auto it = mine.find(k);
  if (it == mine.end()) return;
  TypeKeyval kv = keyval(k, func, true);  // a copy: the callback may free the keyval
  if (kv.del) detail::check_callback(kv.del(h, k, it->second.value, kv.extra), func, "delete", k);
  store().attrs[serial].erase(k);
  release(k);
}

uint64_t serial_of(MPI_Datatype t, const char* func) { return type_of(t, func)->serial(); }

}  // namespace

void type_copy_attrs(MPI_Datatype old, MPI_Datatype newtype, const char* func) {
  uint64_t from = serial_of(old, func), to = serial_of(newtype, func);
  auto found = store().attrs.find(from);
  if (found == store().attrs.end()) return;
  std::vector<std::pair<int, void*>> items;
  for (const auto& [k, a] : found->second) items.emplace_back(k, a.value);
  for (const auto& [k, value] : items) {
    TypeKeyval kv = keyval(k, func, true);
    if (!kv.copy) continue;
    void* out = nullptr;
    int flag = 0;
    int rc = kv.copy(old, k, kv.extra, value, &out, &flag);
    if (rc != MPI_SUCCESS) {
      // Undo the copies made so far without their callbacks: the new type
      // never reaches the program.
      for (const auto& [done, a] : store().attrs[to]) release(done);
      store().attrs.erase(to);
      detail::check_callback(rc, func, "copy", k);
    }
    if (!flag) continue;
    store().attrs[to][k] = Attr{out, ++store().clock};
    ++store().keyvals[k].refs;
  }
}

void type_delete_attrs(MPI_Datatype t, const char* func) {
  uint64_t serial = serial_of(t, func);
  auto found = store().attrs.find(serial);
  if (found == store().attrs.end()) return;
  std::vector<std::pair<uint64_t, int>> order;
  for (const auto& [k, a] : found->second) order.emplace_back(a.when, k);
  std::sort(order.rbegin(), order.rend());  // newest first
  for (const auto& [when, k] : order) delete_one(t, serial, k, func);
  store().attrs.erase(serial);
}

}  // namespace lumpi::capi

using namespace lumpi;
using namespace lumpi::capi;

extern "C" {

int MPI_TYPE_NULL_COPY_FN(MPI_Datatype, int, void*, void*, void*, int* flag) {
  *flag = 0;
  return MPI_SUCCESS;
}

int MPI_TYPE_DUP_FN(MPI_Datatype, int, void*, void* in, void* out, int* flag) {
  *static_cast<void**>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}

int MPI_TYPE_NULL_DELETE_FN(MPI_Datatype, int, void*, void*) { return MPI_SUCCESS; }

int MPI_Type_create_keyval(MPI_Type_copy_attr_function* copy_fn, MPI_Type_delete_attr_function* delete_fn,
                           int* type_keyval, void* extra_state) {
  const char* f = "MPI_Type_create_keyval";
  return call(f, [&] {
    check_out(type_keyval, f, "type_keyval");
    int k = store().next++;
    store().keyvals[k] = TypeKeyval{copy_fn, delete_fn, extra_state};
    *type_keyval = k;
  });
}

int MPI_Type_free_keyval(int* type_keyval) {
  const char* f = "MPI_Type_free_keyval";
  return call(f, [&] {
    check_out(type_keyval, f, "type_keyval");
    TypeKeyval& kv = keyval(*type_keyval, f, true);
    if (kv.refs == 0) store().keyvals.erase(*type_keyval);
    else kv.freed = true;
    *type_keyval = MPI_KEYVAL_INVALID;
  });
}

// Replacing a value runs the old value's delete callback first.
int MPI_Type_set_attr(MPI_Datatype t, int type_keyval, void* value) {
  const char* f = "MPI_Type_set_attr";
  return call(f, [&] {
    uint64_t serial = serial_of(t, f);
    keyval(type_keyval, f);
    delete_one(t, serial, type_keyval, f);
    store().attrs[serial][type_keyval] = Attr{value, ++store().clock};
    ++store().keyvals[type_keyval].refs;
  });
}

int MPI_Type_get_attr(MPI_Datatype t, int type_keyval, void* value, int* flag) {
  const char* f = "MPI_Type_get_attr";
  return call(f, [&] {
    check_out(value, f, "attribute_val");
    check_out(flag, f, "flag");
    uint64_t serial = serial_of(t, f);
    keyval(type_keyval, f, true);
    *flag = 0;
    auto found = store().attrs.find(serial);
    if (found == store().attrs.end()) return;
    auto it = found->second.find(type_keyval);
    if (it == found->second.end()) return;
    *static_cast<void**>(value) = it->second.value;
    *flag = 1;
  });
}

int MPI_Type_delete_attr(MPI_Datatype t, int type_keyval) {
  const char* f = "MPI_Type_delete_attr";
  return call(f, [&] {
    uint64_t serial = serial_of(t, f);
    keyval(type_keyval, f, true);
    delete_one(t, serial, type_keyval, f);
  });
}

}  // extern "C"
