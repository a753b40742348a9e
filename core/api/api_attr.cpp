// core/api/api_attr.cpp: attribute caching on communicators for the C++ API
// (§6.7): keyvals with C++ copy/delete callbacks over the core's one
// attribute store (core/base/attr.hpp, which states the rules). This file
// only wraps the callbacks, passing the Comm as the object they get back,
// and answers the predefined TAG_UB: it can be read on every communicator
// but not set, deleted or freed (ERR_KEYVAL). An empty std::function given as
// a callback acts as NULL_COPY_FN / NULL_DELETE_FN.
#include "core/api/api_detail.hpp"
#include "core/base/attr.hpp"
#include "core/base/constants.hpp"

namespace lumpi {

using detail::Access;
namespace attr = core::attr;

namespace {

constexpr int kTagUbId = 1;
const int kTagUbValue = core::TAG_UB;

// A user keyval's id, after the checks the core cannot make (INVALID, the
// predefined TAG_UB); attr:: checks the rest.
int user_keyval(const Keyval& k, std::string_view func) {
  if (k.Is_null()) detail::fail(ERR_KEYVAL, func, "keyval is KEYVAL_INVALID");
  if (k.Id() == kTagUbId)
    detail::fail(ERR_KEYVAL, func, "keyval TAG_UB is predefined and cannot be set, deleted or freed");
  return k.Id();
}

}  // namespace

extern const Keyval KEYVAL_INVALID = Keyval();
extern const Keyval TAG_UB = Access::keyval(kTagUbId);

// ---- keyvals --------------------------------------------------------------------

Keyval Comm::Create_keyval(Copy_attr_function copy, Delete_attr_function del, void* extra_state) {
  auto cb = detail::attr_callbacks<Comm>(std::move(copy), std::move(del), extra_state);
  Keyval k = Access::keyval(attr::create_keyval(attr::Kind::Comm, std::move(cb)));
  detail::note_made(core::check::Kind::Keyval, core::check::keyval_key(attr::Kind::Comm, k.Id()),
                    "MPI_Comm_create_keyval");
  return k;
}

void Comm::Free_keyval(Keyval& keyval) {
  detail::guarded([&] {
    const char* func = "MPI_Comm_free_keyval";
    attr::free_keyval(attr::Kind::Comm, user_keyval(keyval, func), func);
  });
  detail::note_gone(core::check::Kind::Keyval, core::check::keyval_key(attr::Kind::Comm, keyval.Id()));
  Access::reset(keyval);
}

void Keyval::Free() { Comm::Free_keyval(*this); }

int Comm::NULL_COPY_FN(const Comm&, int, void*, void*, void*&, bool& flag) {
  flag = false;
  return SUCCESS;
}

int Comm::DUP_FN(const Comm&, int, void*, void* in, void*& out, bool& flag) {
  out = in;
  flag = true;
  return SUCCESS;
}

int Comm::NULL_DELETE_FN(Comm&, int, void*, void*) { return SUCCESS; }

// ---- attributes -------------------------------------------------------------------

void Comm::Set_attr(const Keyval& keyval, void* value) {
  const char* func = "MPI_Comm_set_attr";
  detail::guarded(*this, func, [&](core::Comm& c) {
    attr::set(attr::Kind::Comm, this, c.serial(), user_keyval(keyval, func), value, func);
  });
}

bool Comm::Get_attr(const Keyval& keyval, void*& value) const {
  const char* func = "MPI_Comm_get_attr";
  return detail::guarded(*this, func, [&](core::Comm& c) {
    if (keyval.Id() == kTagUbId) {
      value = const_cast<int*>(&kTagUbValue);
      return true;
    }
    if (keyval.Is_null()) detail::fail(ERR_KEYVAL, func, "keyval is KEYVAL_INVALID");
    return attr::get(attr::Kind::Comm, c.serial(), keyval.Id(), value, func);
  });
}

void Comm::Delete_attr(const Keyval& keyval) {
  const char* func = "MPI_Comm_delete_attr";
  detail::guarded(*this, func, [&](core::Comm& c) {
    attr::remove(attr::Kind::Comm, this, c.serial(), user_keyval(keyval, func), func);
  });
}

// ---- hooks for Dup and Free ------------------------------------------------------

namespace detail {

AttrCopies copy_attrs(const Comm& oldcomm) {
  const char* func = "MPI_Comm_dup";
  return attr::copy_all(attr::Kind::Comm, const_cast<Comm*>(&oldcomm), core_of(oldcomm, func).serial(), func);
}

void attach_attrs(const core::Comm& newcomm, const AttrCopies& copies) {
  attr::attach(attr::Kind::Comm, newcomm.serial(), copies);
}

void delete_all_attrs(Comm& c, const char* func) {
  attr::delete_all(attr::Kind::Comm, &c, core_of(c, func).serial(), func);
}

void forget_attrs(uint64_t serial) { attr::forget(attr::Kind::Comm, serial); }

}  // namespace detail
}  // namespace lumpi
