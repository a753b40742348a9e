// core/api/api_type_attr.cpp: attribute caching on datatypes for the C++ API
// (MPI-3.1 §6.7.4; Annex A.4's Datatype::Create_keyval ...) over the core's
// one attribute store (core/base/attr.hpp, which states the rules: datatype
// keyvals are their own kind, a freed keyval lives while attributes use it,
// a failing callback fails the call with its code). This file wraps the C++
// callbacks, passing the Datatype as the object they get back, and gives
// Dup (copy callbacks) and Free (delete callbacks) their hooks
// (api_datatype.cpp). Attributes are keyed by the core type's serial; the
// predefined types carry attributes too.
#include "core/api/api_detail.hpp"
#include "core/base/attr.hpp"

namespace lumpi {

using detail::Access;
namespace attr = core::attr;

namespace {
constexpr attr::Kind kType = attr::Kind::Type;

std::uint64_t serial_of(const Datatype& t, std::string_view func) { return detail::type_of(t, func)->serial(); }

int keyval_of(const Keyval& k, std::string_view func) {
  if (k.Is_null()) detail::fail(ERR_KEYVAL, func, "keyval is KEYVAL_INVALID");
  return k.Id();
}
}  // namespace

namespace detail {

// A failing copy callback leaves the new type without attributes.
void type_copy_attrs(const Datatype& old, const Datatype& newtype, std::string_view func) {
  attr::Copies copies = attr::copy_all(kType, const_cast<Datatype*>(&old), serial_of(old, func), func);
  attr::attach(kType, serial_of(newtype, func), copies);
}

void type_delete_attrs(Datatype& t, std::string_view func) { attr::delete_all(kType, &t, serial_of(t, func), func); }

}  // namespace detail

Keyval Datatype::Create_keyval(Type_copy_attr_function copy, Type_delete_attr_function del, void* extra_state) {
  auto cb = detail::attr_callbacks<Datatype>(std::move(copy), std::move(del), extra_state);
  Keyval k = Access::keyval(attr::create_keyval(kType, std::move(cb)));
  detail::note_made(core::check::Kind::Keyval, core::check::keyval_key(kType, k.Id()), "MPI_Type_create_keyval");
  return k;
}

void Datatype::Free_keyval(Keyval& keyval) {
  const char* f = "MPI_Type_free_keyval";
  detail::guarded([&] { attr::free_keyval(kType, keyval_of(keyval, f), f); });
  detail::note_gone(core::check::Kind::Keyval, core::check::keyval_key(kType, keyval.Id()));
  Access::reset(keyval);
}

void Datatype::Set_attr(const Keyval& keyval, void* value) {
  const char* f = "MPI_Type_set_attr";
  detail::guarded([&] { attr::set(kType, this, serial_of(*this, f), keyval_of(keyval, f), value, f); });
}

bool Datatype::Get_attr(const Keyval& keyval, void*& value) const {
  const char* f = "MPI_Type_get_attr";
  return detail::guarded([&] { return attr::get(kType, serial_of(*this, f), keyval_of(keyval, f), value, f); });
}

void Datatype::Delete_attr(const Keyval& keyval) {
  const char* f = "MPI_Type_delete_attr";
  detail::guarded([&] { attr::remove(kType, this, serial_of(*this, f), keyval_of(keyval, f), f); });
}

int Datatype::NULL_COPY_FN(const Datatype&, int, void*, void*, void*&, bool& flag) {
  flag = false;
  return SUCCESS;
}

int Datatype::DUP_FN(const Datatype&, int, void*, void* in, void*& out, bool& flag) {
  out = in;
  flag = true;
  return SUCCESS;
}

int Datatype::NULL_DELETE_FN(Datatype&, int, void*, void*) { return SUCCESS; }

}  // namespace lumpi
