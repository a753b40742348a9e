// core/api/api_attr.cpp: attribute caching on communicators for the C++ API
// (§6.7): keyvals with C++ copy/delete callbacks and a small store of
// attributes per communicator.
//
// The core keeps no attributes (core/comm/comm_create.hpp: "attributes are the
// binding's business"), and the Lua binding keeps its own, as Lua values, in
// lua/bind_attr.cpp. This is the C++ side's store: one process-wide table
// keyed by core::Comm::serial(), a number never reused, so a new communicator
// never sees a stale attribute (§6.7, CACHE-2). It is guarded by a mutex, and
// callbacks run with the mutex released, so a callback may itself use
// attributes. A communicator whose last handle goes away without Free drops
// its attributes without callbacks (detail::CommHandle's destructor), as the
// Lua binding does on garbage collection.
//
// Choices the text leaves open, as in the Lua binding: deleting an attribute
// that is not set does nothing; callbacks run in keyval creation order; the
// predefined TAG_UB can be read on every communicator but not set, deleted
// or freed (ERR_KEYVAL). A keyval freed while attributes use it stays valid
// for them until the last one is deleted (§6.7.2: "the actual free does not
// transpire until after all references ... have been freed"); freeing it
// again meanwhile is allowed and changes nothing, the same rule for
// communicator, datatype and window keyvals, and in the Lua binding. An empty std::function given as a
// callback acts as NULL_COPY_FN / NULL_DELETE_FN.
#include <algorithm>
#include <map>
#include <mutex>

#include "core/api/api_detail.hpp"
#include "core/base/constants.hpp"

namespace lumpi {

using detail::Access;

namespace {

constexpr int kTagUbId = 1;
constexpr int kFirstUserKeyval = 16;
const int kTagUbValue = core::TAG_UB;

using Keyvals = detail::KeyvalTable<Copy_attr_function, Delete_attr_function>;

struct Store {
  Keyvals keyvals{kFirstUserKeyval};  // locked by itself, after mu where both are
  std::mutex mu;
  std::map<uint64_t, std::map<int, void*>> attrs;  // comm serial -> keyval id -> value
  // (comm serial, keyval id) -> when the attribute was last set: Free and
  // Finalize delete in the reverse order of setting (MPI-3.1 §8.7.1).
  std::map<std::pair<uint64_t, int>, uint64_t> when;
  uint64_t clock = 0;
};

// Never destroyed: handles in static storage (COMM_WORLD) may outlive it.
Store& store() {
  static Store* s = new Store;
  return *s;
}

// The record of a usable user keyval (copied out: callbacks run unlocked).
// A freed keyval still attached somewhere stays usable for reading and
// deleting those attributes when in_use_ok (MPI-3.1 §6.7.2: the free does
// not transpire until every reference is gone).
Keyvals::Rec user_keyval(const Keyval& k, std::string_view func, bool in_use_ok = false) {
  if (k.Is_null()) detail::fail(ERR_KEYVAL, func, "keyval is KEYVAL_INVALID");
  if (k.Id() == kTagUbId)
    detail::fail(ERR_KEYVAL, func, "keyval TAG_UB is predefined and cannot be set, deleted or freed");
  return store().keyvals.at(k.Id(), func, in_use_ok);
}

// Runs the delete callback of (id, value) on c, unlocked.
void run_delete(Comm& c, int id, void* value, std::string_view func) {
  Keyvals::Rec k = store().keyvals.find(id);
  if (k.del) detail::check_callback(k.del(c, id, value, k.extra), func, "delete", id);
}

}  // namespace

extern const Keyval KEYVAL_INVALID = Keyval();
extern const Keyval TAG_UB = Access::keyval(kTagUbId);

// ---- keyvals --------------------------------------------------------------------

Keyval Comm::Create_keyval(Copy_attr_function copy, Delete_attr_function del, void* extra_state) {
  return store().keyvals.create(std::move(copy), std::move(del), extra_state);
}

// Freeing a keyval that is already freed but still attached somewhere does
// nothing more (its delete callback may free it, MPICH's keyval_double_free);
// once its last attribute is gone it no longer exists (ERR_KEYVAL).
void Comm::Free_keyval(Keyval& keyval) {
  user_keyval(keyval, "MPI_Comm_free_keyval", true);
  store().keyvals.free(keyval);
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
    user_keyval(keyval, func);
    Store& s = store();
    void* old = nullptr;
    bool had = false;
    {
      std::lock_guard<std::mutex> lock(s.mu);
      auto& mine = s.attrs[c.serial()];
      auto it = mine.find(keyval.Id());
      if (it != mine.end()) had = true, old = it->second;
    }
    if (had) run_delete(*this, keyval.Id(), old, func);  // replacing runs the delete callback
    std::lock_guard<std::mutex> lock(s.mu);
    auto [it, fresh] = s.attrs[c.serial()].insert_or_assign(keyval.Id(), value);
    s.when[{c.serial(), keyval.Id()}] = ++s.clock;
    if (fresh) s.keyvals.attach(keyval.Id());
  });
}

bool Comm::Get_attr(const Keyval& keyval, void*& value) const {
  const char* func = "MPI_Comm_get_attr";
  return detail::guarded(*this, func, [&](core::Comm& c) {
    if (keyval.Id() == kTagUbId) {
      value = const_cast<int*>(&kTagUbValue);
      return true;
    }
    user_keyval(keyval, func, true);
    Store& s = store();
    std::lock_guard<std::mutex> lock(s.mu);
    auto mine = s.attrs.find(c.serial());
    if (mine == s.attrs.end()) return false;
    auto it = mine->second.find(keyval.Id());
    if (it == mine->second.end()) return false;
    value = it->second;
    return true;
  });
}

void Comm::Delete_attr(const Keyval& keyval) {
  const char* func = "MPI_Comm_delete_attr";
  detail::guarded(*this, func, [&](core::Comm& c) {
    user_keyval(keyval, func, true);
    Store& s = store();
    void* old = nullptr;
    {
      std::lock_guard<std::mutex> lock(s.mu);
      auto mine = s.attrs.find(c.serial());
      if (mine == s.attrs.end()) return;
      auto it = mine->second.find(keyval.Id());
      if (it == mine->second.end()) return;
      old = it->second;
    }
    run_delete(*this, keyval.Id(), old, func);  // a failing callback keeps the attribute
    std::lock_guard<std::mutex> lock(s.mu);
    if (s.attrs[c.serial()].erase(keyval.Id())) s.keyvals.release(keyval.Id());
    s.when.erase({c.serial(), keyval.Id()});
  });
}

// ---- hooks for Dup and Free ------------------------------------------------------

namespace detail {

// A callback's non-zero return as an Exception of that class.
void check_callback(int rc, std::string_view func, const char* which, int id) {
  if (rc == SUCCESS) return;
  // An added code (MPI_Add_error_code) stays what it is (MPICH's errors/comm/userdup).
  int code = rc > 0 && core::is_error_code(rc) ? rc : ERR_OTHER;
  detail::fail(code, func, std::string("the ") + which + " callback of keyval " + std::to_string(id) +
                              " returned error " + std::to_string(rc));
}

AttrCopies copy_attrs(const Comm& oldcomm) {
  struct Item {
    int id;
    void* value;
    Copy_attr_function copy;
    void* extra;
  };
  std::vector<Item> items;
  {
    Store& s = store();
    std::lock_guard<std::mutex> lock(s.mu);
    auto mine = s.attrs.find(core_of(oldcomm, "MPI_Comm_dup").serial());
    if (mine == s.attrs.end()) return {};
    for (const auto& [id, value] : mine->second) {
      Keyvals::Rec k = s.keyvals.find(id);
      items.push_back(Item{id, value, k.copy, k.extra});
    }
  }
  AttrCopies out;
  for (const Item& i : items) {
    if (!i.copy) continue;
    void* value = nullptr;
    bool flag = false;
    detail::check_callback(i.copy(oldcomm, i.id, i.extra, i.value, value, flag), "MPI_Comm_dup", "copy", i.id);
    if (flag) out.emplace_back(i.id, value);
  }
  return out;
}

void attach_attrs(const core::Comm& newcomm, const AttrCopies& copies) {
  if (copies.empty()) return;
  Store& s = store();
  std::lock_guard<std::mutex> lock(s.mu);
  auto& mine = s.attrs[newcomm.serial()];
  for (const auto& [id, value] : copies) {
    mine[id] = value;
    s.keyvals.attach(id);
    s.when[{newcomm.serial(), id}] = ++s.clock;
  }
}

void delete_all_attrs(Comm& c) {
  uint64_t serial = core_of(c, "MPI_Comm_free").serial();
  std::vector<std::pair<int, void*>> items;
  {
    Store& s = store();
    std::lock_guard<std::mutex> lock(s.mu);
    auto mine = s.attrs.find(serial);
    if (mine == s.attrs.end()) return;
    items.assign(mine->second.begin(), mine->second.end());
    auto at = [&](int id) {
      auto w = s.when.find({serial, id});
      return w == s.when.end() ? 0 : w->second;
    };
    std::stable_sort(items.begin(), items.end(),
                     [&](const auto& a, const auto& b) { return at(a.first) > at(b.first); });
  }
  for (const auto& [id, value] : items) {
    run_delete(c, id, value, "MPI_Comm_free");  // a failing one stops the free here
    Store& s = store();
    std::lock_guard<std::mutex> lock(s.mu);
    if (s.attrs[serial].erase(id)) s.keyvals.release(id);
    s.when.erase({serial, id});
  }
  Store& s = store();
  std::lock_guard<std::mutex> lock(s.mu);
  s.attrs.erase(serial);
}

void forget_attrs(uint64_t serial) {
  Store& s = store();
  std::lock_guard<std::mutex> lock(s.mu);
  auto mine = s.attrs.find(serial);
  if (mine == s.attrs.end()) return;
  for (const auto& [id, value] : mine->second) {
    s.keyvals.release(id);
    s.when.erase({serial, id});
  }
  s.attrs.erase(mine);
}

}  // namespace detail
}  // namespace lumpi
