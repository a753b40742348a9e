// core/api/api_group.cpp: lumpi::Group, the C++ API's process groups (§6.3),
// over the pure group algebra of core/comm/group.hpp. Local: nothing is sent.
#include "core/api/api_detail.hpp"
#include "core/comm/group.hpp"

namespace lumpi {

using detail::Access;

extern const Group GROUP_NULL = Group();
extern const Group GROUP_EMPTY = Access::group({}, UNDEFINED);

namespace {

const std::vector<int>& members(const Group& g, std::string_view func, const char* what = "group") {
  if (g.Is_null()) detail::fail(ERR_GROUP, func, std::string(what) + " is GROUP_NULL");
  return g.World_ranks();
}

std::vector<int> list(int n, const int a[], std::string_view func, const char* what) {
  if (n < 0) detail::fail(ERR_ARG, func, "n " + std::to_string(n) + " is negative");
  if (n > 0 && !a) detail::fail(ERR_ARG, func, std::string(what) + " is null");
  return std::vector<int>(a, a + n);
}

std::vector<core::group::Range> ranges_of(int n, const int r[][3], std::string_view func) {
  if (n < 0) detail::fail(ERR_ARG, func, "n " + std::to_string(n) + " is negative");
  if (n > 0 && !r) detail::fail(ERR_ARG, func, "ranges is null");
  std::vector<core::group::Range> out;
  for (int i = 0; i < n; ++i) out.push_back({r[i][0], r[i][1], r[i][2]});
  return out;
}

}  // namespace

int Group::Get_size() const { return int(members(*this, "MPI_Group_size").size()); }

int Group::Get_rank() const {
  return core::group::rank_of(members(*this, "MPI_Group_rank"), self_);
}

void Group::Translate_ranks(const Group& group1, int n, const int ranks1[], const Group& group2,
                            int ranks2[]) {
  const char* func = "MPI_Group_translate_ranks";
  detail::guarded([&] {
    const auto& a = members(group1, func, "group1");
    const auto& b = members(group2, func, "group2");
    std::vector<int> in = list(n, ranks1, func, "ranks1");
    if (n > 0 && !ranks2) detail::fail(ERR_ARG, func, "ranks2 is null");
    std::vector<int> out = core::group::translate(a, in, b);
    std::copy(out.begin(), out.end(), ranks2);
  });
}

int Group::Compare(const Group& group1, const Group& group2) {
  const char* func = "MPI_Group_compare";
  switch (core::group::compare(members(group1, func, "group1"), members(group2, func, "group2"))) {
    case core::group::Relation::Ident: return IDENT;
    case core::group::Relation::Similar: return SIMILAR;
    case core::group::Relation::Unequal: break;
  }
  return UNEQUAL;
}

Group Group::Union(const Group& group1, const Group& group2) {
  const char* func = "MPI_Group_union";
  return Group(core::group::set_union(members(group1, func, "group1"), members(group2, func, "group2")),
               group1.self_);
}

Group Group::Intersect(const Group& group1, const Group& group2) {
  const char* func = "MPI_Group_intersection";
  return Group(
      core::group::intersection(members(group1, func, "group1"), members(group2, func, "group2")),
      group1.self_);
}

Group Group::Difference(const Group& group1, const Group& group2) {
  const char* func = "MPI_Group_difference";
  return Group(
      core::group::difference(members(group1, func, "group1"), members(group2, func, "group2")),
      group1.self_);
}

Group Group::Incl(int n, const int ranks[]) const {
  const char* func = "MPI_Group_incl";
  return detail::guarded([&] {
    return Group(core::group::incl(members(*this, func), list(n, ranks, func, "ranks")), self_);
  });
}

Group Group::Excl(int n, const int ranks[]) const {
  const char* func = "MPI_Group_excl";
  return detail::guarded([&] {
    return Group(core::group::excl(members(*this, func), list(n, ranks, func, "ranks")), self_);
  });
}

Group Group::Range_incl(int n, const int ranges[][3]) const {
  const char* func = "MPI_Group_range_incl";
  return detail::guarded([&] {
    return Group(core::group::range_incl(members(*this, func), ranges_of(n, ranges, func)), self_);
  });
}

Group Group::Range_excl(int n, const int ranges[][3]) const {
  const char* func = "MPI_Group_range_excl";
  return detail::guarded([&] {
    return Group(core::group::range_excl(members(*this, func), ranges_of(n, ranges, func)), self_);
  });
}

void Group::Free() {
  members(*this, "MPI_Group_free");
  *this = Group();
}

}  // namespace lumpi
