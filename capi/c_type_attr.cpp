// capi/c_type_attr.cpp: attribute caching on datatypes in the C API
// (MPI-3.1 §6.7.4) over the core's one attribute store (core/base/attr.hpp,
// which states the rules: datatype keyvals are their own kind, a freed
// keyval lives while attributes use it, a failing callback fails the call
// with its code). This file wraps the C callbacks, passing the type's handle
// as the object they get back, and gives MPI_Type_dup (copy callbacks) and
// MPI_Type_free (delete callbacks) their hooks (capi/c_type.cpp). Attributes
// are keyed by the core type's serial, so a reused handle slot never shows
// a stale one; the predefined types carry attributes too.
#include "capi/c_api.hpp"
#include "core/base/attr.hpp"

namespace lumpi::capi {
namespace {
namespace attr = core::attr;
constexpr attr::Kind kType = attr::Kind::Type;

uint64_t serial_of(MPI_Datatype t, const char* func) { return type_of(t, func)->serial(); }
}  // namespace

// A failing copy callback leaves the new type without attributes.
void type_copy_attrs(MPI_Datatype old, MPI_Datatype newtype, const char* func) {
  attr::Copies copies = attr::copy_all(kType, &old, serial_of(old, func), func);
  attr::attach(kType, serial_of(newtype, func), copies);
}

void type_delete_attrs(MPI_Datatype t, const char* func) { attr::delete_all(kType, &t, serial_of(t, func), func); }

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

LUMPI_PMPI(Type_create_keyval);
int MPI_Type_create_keyval(MPI_Type_copy_attr_function* copy_fn, MPI_Type_delete_attr_function* delete_fn,
                           int* type_keyval, void* extra_state) {
  const char* f = "MPI_Type_create_keyval";
  return call(f, [&] {
    check_out(type_keyval, f, "type_keyval");
    attr::Callbacks cb;
    if (copy_fn)
      cb.copy = [copy_fn, extra_state](attr::Object from, int k, void* in, void*& out, bool& keep) {
        int flag = 0;
        int rc = copy_fn(*static_cast<MPI_Datatype*>(from), k, extra_state, in, &out, &flag);
        keep = flag != 0;
        return rc;
      };
    if (delete_fn)
      cb.del = [delete_fn, extra_state](attr::Object on, int k, void* value) {
        return delete_fn(*static_cast<MPI_Datatype*>(on), k, value, extra_state);
      };
    *type_keyval = attr::create_keyval(kType, std::move(cb));
    note_created(core::check::Kind::Keyval, keyval_key(kType, *type_keyval));
  });
}

LUMPI_PMPI(Type_free_keyval);
int MPI_Type_free_keyval(int* type_keyval) {
  const char* f = "MPI_Type_free_keyval";
  return call(f, [&] {
    check_out(type_keyval, f, "type_keyval");
    if (*type_keyval == MPI_KEYVAL_INVALID) fail(MPI_ERR_KEYVAL, f, "keyval is MPI_KEYVAL_INVALID");
    attr::free_keyval(kType, *type_keyval, f);
    note_freed(core::check::Kind::Keyval, keyval_key(kType, *type_keyval));
    *type_keyval = MPI_KEYVAL_INVALID;
  });
}

// Replacing a value runs the old value's delete callback first.
LUMPI_PMPI(Type_set_attr);
int MPI_Type_set_attr(MPI_Datatype t, int type_keyval, void* value) {
  const char* f = "MPI_Type_set_attr";
  return call(f, [&] { attr::set(kType, &t, serial_of(t, f), type_keyval, value, f); });
}

LUMPI_PMPI(Type_get_attr);
int MPI_Type_get_attr(MPI_Datatype t, int type_keyval, void* value, int* flag) {
  const char* f = "MPI_Type_get_attr";
  return call(f, [&] {
    check_out(value, f, "attribute_val");
    check_out(flag, f, "flag");
    *flag = attr::get(kType, serial_of(t, f), type_keyval, *static_cast<void**>(value), f);
  });
}

LUMPI_PMPI(Type_delete_attr);
int MPI_Type_delete_attr(MPI_Datatype t, int type_keyval) {
  const char* f = "MPI_Type_delete_attr";
  return call(f, [&] { attr::remove(kType, &t, serial_of(t, f), type_keyval, f); });
}

}  // extern "C"
