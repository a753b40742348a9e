// core/comm/comm_split_type.cpp: MPI_Comm_split_type (seed §6.4.2; MPI-4.0's
// MPI_COMM_TYPE_HW_GUIDED and HW_UNGUIDED, and the draft's hw_domain): groups
// the processes that share a host or a piece of hardware (core/base/hw.hpp).
#include <algorithm>

#include "core/comm/comm_build.hpp"
#include "core/comm/comm_create.hpp"
#include "core/base/constants.hpp"
#include "core/base/error.hpp"
#include "core/base/hw.hpp"

namespace lumpi::core {
namespace {

using namespace build;

// Split kinds as exchanged between processes (all must agree, but UNDEFINED).
enum SplitKind : int64_t { kUndefined = 0, kShared = 1, kHwGuided = 2, kHwDomain = 3, kHwUnguided = 4 };

SplitKind parse_split_kind(bool is_undefined, const std::string& type, const char* func) {
  if (is_undefined) return kUndefined;
  if (type == "shared") return kShared;
  if (type == "hw_guided") return kHwGuided;
  if (type == "hw_domain") return kHwDomain;
  if (type == "hw_unguided") return kHwUnguided;
  fail(ErrClass::Arg, func,
       "split_type '" + type +
           "' is unknown (expected \"shared\", \"hw_guided\", \"hw_unguided\", \"hw_domain\" or MPI_UNDEFINED)");
}

// Levels searched by an unguided hw_domain split, coarse to fine.
const hw::Level kDomainLevels[] = {hw::Level::Package, hw::Level::NUMA,    hw::Level::L3Cache,
                                   hw::Level::L2Cache, hw::Level::Core,    hw::Level::PU};
constexpr int64_t kNoDomain = -1;

// This process's domain index at each level (kNoDomain where its binding
// spans several objects), preceded by a number for the host.
std::vector<int> my_domains(const std::string& host) {
  std::vector<int> v{int(std::hash<std::string>{}(host) & 0x7fffffff)};
  for (hw::Level l : kDomainLevels) {
    auto i = hw::locality(l);
    v.push_back(i ? *i : int(kNoDomain));
  }
  return v;
}

// Column of the level within my_domains' vector (0 is the host).
int column_of(hw::Level l) {
  for (int i = 0; i < int(std::size(kDomainLevels)); ++i)
    if (kDomainLevels[i] == l) return i + 1;
  return 0;
}

struct TypeRow {
  int64_t kind, key;
  uint64_t proposal;
  std::vector<int> domains;
};

// Members whose domain at `col` (host prefix included) equals mine, by
// (key, rank); empty when mine is undefined.
std::vector<Row> same_domain(const std::vector<TypeRow>& rows, int me, int col) {
  std::vector<Row> out;
  auto domain = [&](const TypeRow& r) { return std::make_pair(r.domains[0], r.domains[size_t(col)]); };
  if (rows[size_t(me)].domains[size_t(col)] == kNoDomain) return out;
  for (int r = 0; r < int(rows.size()); ++r)
    if (rows[size_t(r)].kind != kUndefined && domain(rows[size_t(r)]) == domain(rows[size_t(me)]))
      out.push_back({0, rows[size_t(r)].key, rows[size_t(r)].proposal, r});
  std::stable_sort(out.begin(), out.end(), [](const Row& a, const Row& b) { return a.key < b.key; });
  return out;
}

// True when every participating process has the same defined domain at col:
// the split would not give a strict subset.
bool all_same(const std::vector<TypeRow>& rows, int col) {
  const TypeRow* first = nullptr;
  for (const TypeRow& r : rows) {
    if (r.kind == kUndefined) continue;
    if (r.domains[size_t(col)] == kNoDomain) return false;
    if (!first) first = &r;
    else if (r.domains[0] != first->domains[0] || r.domains[size_t(col)] != first->domains[size_t(col)])
      return false;
  }
  return true;
}

// The column a hardware split uses, or -1 for "nobody gets a communicator".
int hw_column(SplitKind kind, const Hints& hints, const std::vector<TypeRow>& rows, bool* as_shared) {
  const char* key = kind == kHwGuided ? "mpi_hw_resource_type" : "mpi_hw_domain_type";
  auto it = hints.find(key);
  if (it != hints.end()) {
    if (it->second == "mpi_shared_memory") {
      *as_shared = true;
      return 0;
    }
    auto level = hw::parse_level(it->second);
    if (!level || *level == hw::Level::Machine) return -1;
    int col = column_of(*level);
    // MPI-4.0's HW_GUIDED groups the processes on each instance, even when
    // that is all of them; the draft HW_DOMAIN asks for strict subsets.
    return kind == kHwGuided || !all_same(rows, col) ? col : -1;
  }
  if (kind == kHwGuided) return -1;  // guided needs a resource type
  for (hw::Level l : kDomainLevels)   // unguided: the coarsest level that splits
    if (!all_same(rows, column_of(l))) return column_of(l);
  return -1;
}

// MPI-4.0's HW_UNGUIDED: the coarsest level, the host first, whose
// instances split the processes into strict subsets; -1 when none does.
// *name is that level as the value of "mpi_hw_resource_type".
int unguided_column(const std::vector<TypeRow>& rows, std::string* name) {
  if (!all_same(rows, 0)) {
    *name = "mpi_shared_memory";
    return 0;
  }
  for (hw::Level l : kDomainLevels)
    if (!all_same(rows, column_of(l))) {
      *name = hw::resource_name(l);
      return column_of(l);
    }
  return -1;
}

// Every process's (kind, key, proposal, domains), checked for agreement.
std::vector<TypeRow> gather_rows(Comm& parent, SplitKind kind, int key, const char* func) {
  Team t = whole(parent, func);
  std::string mine = Packer().i64(kind).i64(key).u64(parent.engine().propose_context())
                         .ints(my_domains(hw::info().host)).take();
  std::vector<TypeRow> rows;
  for (const std::string& b : team_allgather(t, mine, kSplitType)) {
    Unpacker u(b, func);
    TypeRow row{u.i64(), u.i64(), u.u64(), u.ints()};
    u.end();
    if (row.domains.size() != std::size(kDomainLevels) + 1)
      fail(ErrClass::Intern, func, "malformed split_type data from a peer");
    rows.push_back(std::move(row));
  }
  for (int r = 0; r < int(rows.size()); ++r)
    if (rows[size_t(r)].kind != kUndefined && kind != kUndefined && rows[size_t(r)].kind != kind)
      fail(ErrClass::Arg, func,
           "split_type differs between processes (rank " + std::to_string(r) + " passed another type)");
  return rows;
}

}  // namespace

CommPtr comm_split_type(Comm& parent, bool is_undefined, const std::string& type, int key,
                        const Hints& hints) {
  const char* func = "MPI_Comm_split_type";
  parent.check_usable(func);
  parent.check_intra(func);
  SplitKind kind = parse_split_kind(is_undefined, type, func);
  std::vector<TypeRow> rows = gather_rows(parent, kind, key, func);
  if (kind == kUndefined) return nullptr;
  bool as_shared = kind == kShared;
  std::string resource;
  int col = kind == kHwUnguided ? unguided_column(rows, &resource)
            : as_shared         ? 0
                                : hw_column(kind, hints, rows, &as_shared);
  if (col < 0) return nullptr;
  auto members = same_domain(rows, parent.rank(), col);
  if (members.empty()) return nullptr;
  CommPtr c = make_intra(parent, min_proposal(members), world_ranks(parent.local_group(), members));
  set_hints(*c, hints);
  if (!resource.empty()) c->info()["mpi_hw_resource_type"] = resource;  // which level split (MPI-4.0 §7.4.2)
  return c;
}

CommPtr comm_split_type(Comm& parent, int split_type, int key, const Hints& hints) {
  const char* type = split_type == COMM_TYPE_SHARED        ? "shared"
                     : split_type == COMM_TYPE_HW_GUIDED   ? "hw_guided"
                     : split_type == COMM_TYPE_HW_UNGUIDED ? "hw_unguided"
                     : split_type == COMM_TYPE_HW_DOMAIN   ? "hw_domain"
                                                           : nullptr;
  if (split_type != UNDEFINED && !type)
    fail(ErrClass::Arg, "MPI_Comm_split_type",
         "split_type " + std::to_string(split_type) +
             " is not MPI_COMM_TYPE_SHARED, MPI_COMM_TYPE_HW_GUIDED, MPI_COMM_TYPE_HW_UNGUIDED, "
             "MPI_COMM_TYPE_HW_DOMAIN or MPI_UNDEFINED");
  return comm_split_type(parent, split_type == UNDEFINED, type ? type : "shared", key, hints);
}

}  // namespace lumpi::core
