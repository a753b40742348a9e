// core/api/api_comm.cpp: the communicator classes' shared part (lumpi::Comm's
// local queries, names, hints, Free) and the constructors of Intracomm and
// Intercomm (Dup, Create, Split, Create_intercomm, Merge), over
// core/comm/comm_create.hpp. Topology classes are in api_topo.cpp.
#include "core/api/api_detail.hpp"
#include "core/comm/comm_create.hpp"
#include "core/base/constants.hpp"

namespace lumpi {

using detail::Access;
using detail::guarded;

Intracomm COMM_WORLD;
Intracomm COMM_SELF;

namespace detail {

CommHandle::CommHandle(core::CommPtr c) : comm(std::move(c)) {
  check_key = note_made(core::check::Kind::Comm, "a communicator constructor");
}

CommHandle::~CommHandle() {
  core::InMpi in_mpi;  // handles.hpp: the core communicator goes inside MPI
  if (comm) forget_attrs(comm->serial());
  comm.reset();
}

std::shared_ptr<CommHandle> dup_handle(const Comm& c, const char* func) {
  return guarded(c, func, [&](core::Comm& cc) {
    AttrCopies copies = copy_attrs(c);  // callbacks first: a failing one stops the dup here
    auto out = std::make_shared<CommHandle>(core::comm_dup(cc));
    attach_attrs(*out->comm, copies);
    return out;
  });
}

Intracomm world_of(core::Engine& e) { return Access::make<Intracomm>(core::Comm::world(e)); }
Intracomm self_of(core::Engine& e) { return Access::make<Intracomm>(core::Comm::self(e)); }

}  // namespace detail

// ---- Comm: local ------------------------------------------------------------------

Comm::~Comm() = default;

int Comm::Get_size() const {
  return guarded(*this, "MPI_Comm_size", [](core::Comm& c) { return c.size(); });
}

int Comm::Get_rank() const {
  return guarded(*this, "MPI_Comm_rank", [](core::Comm& c) { return c.rank(); });
}

Group Comm::Get_group() const {
  return guarded(*this, "MPI_Comm_group", [](core::Comm& c) {
    return Access::group(c.local_group(), c.engine().world_rank());
  });
}

bool Comm::Is_inter() const {
  return guarded(*this, "MPI_Comm_test_inter", [](core::Comm& c) { return c.is_inter(); });
}

int Comm::Get_topology() const {
  return guarded(*this, "MPI_Topo_test", [](core::Comm& c) {
    if (!c.topology()) return UNDEFINED;
    switch (c.topology()->kind) {
      case core::Topology::Kind::Cart: return CART;
      case core::Topology::Kind::Graph: return GRAPH;
      case core::Topology::Kind::DistGraph: return DIST_GRAPH;
    }
    return UNDEFINED;
  });
}

int Comm::Compare(const Comm& comm1, const Comm& comm2) {
  return guarded(comm1, "MPI_Comm_compare", [&](core::Comm& a) {
    switch (core::comm_compare(a, detail::core_of(comm2, "MPI_Comm_compare"))) {
      case core::CommRelation::Ident: return IDENT;
      case core::CommRelation::Congruent: return CONGRUENT;
      case core::CommRelation::Similar: return SIMILAR;
      case core::CommRelation::Unequal: break;
    }
    return UNEQUAL;
  });
}

// The name as core::object_name keeps it (§6.8), as in the Lua binding.
void Comm::Set_name(const std::string& name) {
  guarded(*this, "MPI_Comm_set_name", [&](core::Comm& c) {
    c.set_name(core::object_name(name));
  });
}

std::string Comm::Get_name() const {
  return guarded(*this, "MPI_Comm_get_name", [](core::Comm& c) { return c.name(); });
}

void Comm::Set_info(const Info& info) {
  guarded(*this, "MPI_Comm_set_info", [&](core::Comm& c) {
    if (info.Is_null()) detail::fail(ERR_INFO, "MPI_Comm_set_info", "info is INFO_NULL");
    core::set_hints(c, info.Pairs());
  });
}

Info Comm::Get_info() const {
  return guarded(*this, "MPI_Comm_get_info", [](core::Comm& c) {
    Info out = Info::Create();
    for (const auto& [k, v] : core::hints_used(c)) out.Set(k, v);
    return out;
  });
}

void Comm::Free() {
  guarded(*this, "MPI_Comm_free", [&](core::Comm& c) {
    core::check_freeable(c);
    detail::delete_all_attrs(*this, "MPI_Comm_free");
    core::comm_free(c);
  });
  detail::note_gone(core::check::Kind::Comm, Access::handle(*this)->check_key);
  Access::reset(*this);
}

// ---- Intracomm ---------------------------------------------------------------------

Intracomm Intracomm::Dup() const {
  return Access::wrap<Intracomm>(detail::dup_handle(*this, "MPI_Comm_dup"));
}

std::unique_ptr<Comm> Intracomm::Clone() const { return std::make_unique<Intracomm>(Dup()); }

Intracomm Intracomm::Create(const Group& group) const {
  return guarded(*this, "MPI_Comm_create", [&](core::Comm& c) {
    if (group.Is_null()) detail::fail(ERR_GROUP, "MPI_Comm_create", "group is GROUP_NULL");
    return Access::make<Intracomm>(core::comm_create(c, group.World_ranks()));
  });
}

Intracomm Intracomm::Split(int color, int key) const {
  return guarded(*this, "MPI_Comm_split", [&](core::Comm& c) {
    return Access::make<Intracomm>(core::comm_split(c, color, key));
  });
}

static_assert(COMM_TYPE_SHARED == core::COMM_TYPE_SHARED && COMM_TYPE_HW_GUIDED == core::COMM_TYPE_HW_GUIDED &&
              COMM_TYPE_HW_UNGUIDED == core::COMM_TYPE_HW_UNGUIDED && COMM_TYPE_HW_DOMAIN == core::COMM_TYPE_HW_DOMAIN);

Intracomm Intracomm::Split_type(int split_type, int key, const Info& info) const {
  return guarded(*this, "MPI_Comm_split_type", [&](core::Comm& c) {
    core::CommPtr p = core::comm_split_type(c, split_type, key, info.Is_null() ? core::Hints() : info.Pairs());
    if (p && split_type == COMM_TYPE_HW_UNGUIDED && !info.Is_null()) {
      auto level = p->info().find("mpi_hw_resource_type");
      Info shared = info;  // a copy of the handle: the same info object
      if (level != p->info().end()) shared.Set(level->first, level->second);
    }
    return Access::make<Intracomm>(std::move(p));
  });
}

Intercomm Intracomm::Create_intercomm(int local_leader, const Comm& peer_comm,
                                      int remote_leader, int tag) const {
  const char* func = "MPI_Intercomm_create";
  return guarded(*this, func, [&](core::Comm& c) {
    // peer_comm matters only at the local leader; elsewhere it may be COMM_NULL.
    core::Comm* peer = peer_comm.Is_null() ? nullptr : &detail::core_of(peer_comm, func);
    return Access::make<Intercomm>(core::intercomm_create(c, local_leader, peer, remote_leader, tag));
  });
}

// ---- Intercomm ---------------------------------------------------------------------

Intercomm Intercomm::Dup() const {
  return Access::wrap<Intercomm>(detail::dup_handle(*this, "MPI_Comm_dup"));
}

std::unique_ptr<Comm> Intercomm::Clone() const { return std::make_unique<Intercomm>(Dup()); }

int Intercomm::Get_remote_size() const {
  return guarded(*this, "MPI_Comm_remote_size", [](core::Comm& c) { return c.remote_size(); });
}

Group Intercomm::Get_remote_group() const {
  return guarded(*this, "MPI_Comm_remote_group", [](core::Comm& c) {
    return Access::group(c.remote_group(), c.engine().world_rank());
  });
}

Intercomm Intercomm::Create(const Group& group) const {
  return guarded(*this, "MPI_Comm_create", [&](core::Comm& c) {
    if (group.Is_null()) detail::fail(ERR_GROUP, "MPI_Comm_create", "group is GROUP_NULL");
    return Access::make<Intercomm>(core::comm_create(c, group.World_ranks()));
  });
}

Intercomm Intercomm::Split(int color, int key) const {
  return guarded(*this, "MPI_Comm_split", [&](core::Comm& c) {
    return Access::make<Intercomm>(core::comm_split(c, color, key));
  });
}

Intracomm Intercomm::Merge(bool high) const {
  return guarded(*this, "MPI_Intercomm_merge", [&](core::Comm& c) {
    return Access::make<Intracomm>(core::intercomm_merge(c, high));
  });
}

}  // namespace lumpi
