// core/api/api_info.cpp: lumpi::Info, (key, value) string pairs (§9)
// handed to communicator and topology constructors as hints.
#include "core/api/api_detail.hpp"

namespace lumpi {

extern const Info INFO_NULL = Info();

// The pairs, and the keys in the order they were first set (Get_nthkey).
struct Info::Store {
  std::map<std::string, std::string> pairs;
  std::vector<std::string> keys;
  int64_t check_key = 0;  // the checker's (api_check.cpp), under --check
};

namespace {

constexpr size_t kMaxKey = 255, kMaxValue = 1023;  // MPI_MAX_INFO_KEY, MPI_MAX_INFO_VAL

void check_info(const Info& i, std::string_view func) {
  if (i.Is_null()) detail::fail(ERR_INFO, func, "info is INFO_NULL");
}

void check_key(const std::string& key, std::string_view func) {
  if (key.empty() || key.size() > kMaxKey)
    detail::fail(ERR_INFO_KEY, func,
                 "key must have 1 to " + std::to_string(kMaxKey) + " characters, got " +
                     std::to_string(key.size()));
}

}  // namespace

Info Info::Create() {
  Info i;
  i.store_ = std::make_shared<Store>();
  i.store_->check_key = detail::note_made(core::check::Kind::Info, "MPI_Info_create");
  return i;
}

void Info::Set(const std::string& key, const std::string& value) {
  check_info(*this, "MPI_Info_set");
  check_key(key, "MPI_Info_set");
  if (value.empty() || value.size() > kMaxValue)
    detail::fail(ERR_INFO_VALUE, "MPI_Info_set",
                 "value must have 1 to " + std::to_string(kMaxValue) + " characters, got " +
                     std::to_string(value.size()));
  if (store_->pairs.insert_or_assign(key, value).second) store_->keys.push_back(key);
}

bool Info::Get(const std::string& key, std::string& value) const {
  check_info(*this, "MPI_Info_get");
  check_key(key, "MPI_Info_get");
  auto it = store_->pairs.find(key);
  if (it == store_->pairs.end()) return false;
  value = it->second;
  return true;
}

void Info::Delete(const std::string& key) {
  check_info(*this, "MPI_Info_delete");
  check_key(key, "MPI_Info_delete");
  // §9: a key not in the object is MPI_ERR_INFO_NOKEY.
  if (!store_->pairs.erase(key)) detail::fail(ERR_INFO_NOKEY, "MPI_Info_delete", "key '" + key + "' is not set");
  std::erase(store_->keys, key);
}

int Info::Get_nkeys() const {
  check_info(*this, "MPI_Info_get_nkeys");
  return int(store_->keys.size());
}

std::string Info::Get_nthkey(int n) const {
  check_info(*this, "MPI_Info_get_nthkey");
  if (n < 0 || n >= Get_nkeys())
    detail::fail(ERR_ARG, "MPI_Info_get_nthkey",
                 "n " + std::to_string(n) + " is out of range for " + std::to_string(Get_nkeys()) + " keys");
  return store_->keys[size_t(n)];
}

Info Info::Dup() const {
  check_info(*this, "MPI_Info_dup");
  Info i;
  i.store_ = std::make_shared<Store>(*store_);
  i.store_->check_key = detail::note_made(core::check::Kind::Info, "MPI_Info_dup");
  return i;
}

void Info::Free() {
  check_info(*this, "MPI_Info_free");
  detail::note_gone(core::check::Kind::Info, store_->check_key);
  store_.reset();
}

const std::map<std::string, std::string>& Info::Pairs() const {
  check_info(*this, "MPI_Info");
  return store_->pairs;
}

}  // namespace lumpi
