// core/comm/comm_local.cpp: the local communicator operations: MPI_Comm_compare
// (§6.4.1, §6.6.1), MPI_Comm_free (§6.4.3) and info hints (§6.4.4). None
// of them sends anything.
#include <algorithm>

#include "core/comm/comm_create.hpp"
#include "core/base/error.hpp"

namespace lumpi::core {

CommRelation comm_compare(const Comm& a, const Comm& b) {
  if (&a == &b) return CommRelation::Ident;
  if (a.is_inter() != b.is_inter()) return CommRelation::Unequal;
  group::Relation local = group::compare(a.local_group(), b.local_group());
  group::Relation remote =
      a.is_inter() ? group::compare(a.remote_group(), b.remote_group()) : group::Relation::Ident;
  if (local == group::Relation::Unequal || remote == group::Relation::Unequal)
    return CommRelation::Unequal;
  if (local == group::Relation::Ident && remote == group::Relation::Ident) return CommRelation::Congruent;
  return CommRelation::Similar;
}

const char* relation_name(CommRelation r) {
  switch (r) {
    case CommRelation::Ident: return "ident";
    case CommRelation::Congruent: return "congruent";
    case CommRelation::Similar: return "similar";
    case CommRelation::Unequal: return "unequal";
  }
  return "unequal";
}

namespace {
// The boolean hints of §6.4.4, all defaulting to false.
const char* const kBoolHints[] = {"mpi_assert_no_any_tag", "mpi_assert_no_any_source",
                                  "mpi_assert_exact_length", "mpi_assert_allow_overtaking"};
}  // namespace

void set_hints(Comm& c, const Hints& given) {
  for (const char* key : kBoolHints) {
    auto it = given.find(key);
    if (it == given.end()) continue;
    std::string v = it->second;
    std::transform(v.begin(), v.end(), v.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
    if (v == "true" || v == "false") c.info()[key] = v;  // other values are ignored
  }
}

Hints hints_used(const Comm& c) {
  Hints out;
  for (const char* key : kBoolHints) out[key] = "false";
  for (const auto& [k, v] : c.info()) out[k] = v;
  return out;
}

void check_freeable(const Comm& c) {
  c.check_usable("MPI_Comm_free");
  if (c.base() == kWorldBase || c.base() == kSelfBase)
    fail(ErrClass::Comm, "MPI_Comm_free",
         std::string("comm is ") + (c.base() == kWorldBase ? "MPI_COMM_WORLD" : "MPI_COMM_SELF") +
             ", which cannot be freed");
}

void comm_free(Comm& c) {
  check_freeable(c);
  c.mark_freed();
}

}  // namespace lumpi::core
