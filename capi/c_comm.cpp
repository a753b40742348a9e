// capi/c_comm.cpp: the C API's groups, communicators (constructors,
// queries, names, info), intercommunicators, attribute caching (with the
// MPI-1 Attr/Keyval forms) and process topologies, each a thin shell over
// the public C++ API (core/api/lumpi.hpp) or, where that has no door yet
// (split_type, create_group, dup_with_info), over core/comm/comm_create.hpp.
#include <unistd.h>

#include "core/base/attr.hpp"
#include "core/comm/comm_create.hpp"
#include "core/base/constants.hpp"
#include "capi/c_api.hpp"

using namespace lumpi;
using namespace lumpi::capi;

namespace {

// A new C handle for a C++ communicator (its error handler its parent's, §6.4.2).
MPI_Comm made(const Comm& c) { return add_comm(Access::handle(c)); }

core::Hints hints_of(MPI_Info i, const char* func) {
  core::Hints h;
  if (i != MPI_INFO_NULL) h = info(i, func).Pairs();
  return h;
}

// The C flags v[0..n) as the bool array the C++ API's topology calls take.
std::unique_ptr<bool[]> bools(int n, const int* v) {
  std::unique_ptr<bool[]> out(new bool[size_t(n) + 1]);
  for (int i = 0; i < n; ++i) out[i] = v[i] != 0;
  return out;
}

// MPI_UNWEIGHTED is null for the C++ API; MPI_WEIGHTS_EMPTY, and NULL for
// no edges, are an empty weight array (a weighted graph); NULL with edges
// is an ERR_ARG naming what.
const int* weights(const int* w, int n, const char* func, const char* what) {
  static const int empty = 0;
  if (w == MPI_UNWEIGHTED) return nullptr;
  if (w == MPI_WEIGHTS_EMPTY || (w == nullptr && n == 0)) return &empty;
  if (!w) fail(MPI_ERR_ARG, func, std::string(what) + " is NULL for " + std::to_string(n) + " edges");
  return w;
}

}  // namespace

extern "C" {

// ---- groups ------------------------------------------------------------------------

LUMPI_PMPI(Group_size);
int MPI_Group_size(MPI_Group g, int* size) {
  return call("MPI_Group_size", [&] {
    check_out(size, "MPI_Group_size", "size");
    *size = group(g, "MPI_Group_size").Get_size();
  });
}

LUMPI_PMPI(Group_rank);
int MPI_Group_rank(MPI_Group g, int* rank) {
  return call("MPI_Group_rank", [&] {
    check_out(rank, "MPI_Group_rank", "rank");
    *rank = group(g, "MPI_Group_rank").Get_rank();
  });
}

LUMPI_PMPI(Group_translate_ranks);
int MPI_Group_translate_ranks(MPI_Group g1, int n, const int ranks1[], MPI_Group g2, int ranks2[]) {
  return call("MPI_Group_translate_ranks", [&] {
    const char* f = "MPI_Group_translate_ranks";
    Group::Translate_ranks(group(g1, f), n, ranks1, group(g2, f), ranks2);
  });
}

LUMPI_PMPI(Group_compare);
int MPI_Group_compare(MPI_Group g1, MPI_Group g2, int* result) {
  return call("MPI_Group_compare", [&] {
    check_out(result, "MPI_Group_compare", "result");
    *result = Group::Compare(group(g1, "MPI_Group_compare"), group(g2, "MPI_Group_compare"));
  });
}

LUMPI_PMPI(Group_union);
int MPI_Group_union(MPI_Group g1, MPI_Group g2, MPI_Group* out) {
  return call("MPI_Group_union", [&] {
    check_out(out, "MPI_Group_union", "newgroup");
    *out = add_group(Group::Union(group(g1, "MPI_Group_union"), group(g2, "MPI_Group_union")));
  });
}

LUMPI_PMPI(Group_intersection);
int MPI_Group_intersection(MPI_Group g1, MPI_Group g2, MPI_Group* out) {
  return call("MPI_Group_intersection", [&] {
    check_out(out, "MPI_Group_intersection", "newgroup");
    const char* f = "MPI_Group_intersection";
    *out = add_group(Group::Intersect(group(g1, f), group(g2, f)));
  });
}

LUMPI_PMPI(Group_difference);
int MPI_Group_difference(MPI_Group g1, MPI_Group g2, MPI_Group* out) {
  return call("MPI_Group_difference", [&] {
    check_out(out, "MPI_Group_difference", "newgroup");
    const char* f = "MPI_Group_difference";
    *out = add_group(Group::Difference(group(g1, f), group(g2, f)));
  });
}

LUMPI_PMPI(Group_incl);
int MPI_Group_incl(MPI_Group g, int n, const int ranks[], MPI_Group* out) {
  return call("MPI_Group_incl", [&] {
    check_out(out, "MPI_Group_incl", "newgroup");
    *out = add_group(group(g, "MPI_Group_incl").Incl(n, ranks));
  });
}

LUMPI_PMPI(Group_excl);
int MPI_Group_excl(MPI_Group g, int n, const int ranks[], MPI_Group* out) {
  return call("MPI_Group_excl", [&] {
    check_out(out, "MPI_Group_excl", "newgroup");
    *out = add_group(group(g, "MPI_Group_excl").Excl(n, ranks));
  });
}

LUMPI_PMPI(Group_range_incl);
int MPI_Group_range_incl(MPI_Group g, int n, int ranges[][3], MPI_Group* out) {
  return call("MPI_Group_range_incl", [&] {
    check_out(out, "MPI_Group_range_incl", "newgroup");
    *out = add_group(group(g, "MPI_Group_range_incl").Range_incl(n, ranges));
  });
}

LUMPI_PMPI(Group_range_excl);
int MPI_Group_range_excl(MPI_Group g, int n, int ranges[][3], MPI_Group* out) {
  return call("MPI_Group_range_excl", [&] {
    check_out(out, "MPI_Group_range_excl", "newgroup");
    *out = add_group(group(g, "MPI_Group_range_excl").Range_excl(n, ranges));
  });
}

LUMPI_PMPI(Group_free);
int MPI_Group_free(MPI_Group* g) {
  return call("MPI_Group_free", [&] {
    check_out(g, "MPI_Group_free", "group");
    group(*g, "MPI_Group_free");
    free_group(*g);
    *g = MPI_GROUP_NULL;
  });
}

// ---- communicators: queries -------------------------------------------------------

LUMPI_PMPI(Comm_size);
int MPI_Comm_size(MPI_Comm comm, int* size) {
  return call(comm, "MPI_Comm_size", [&] {
    check_out(size, "MPI_Comm_size", "size");
    *size = comm_of(comm, "MPI_Comm_size").Get_size();
  });
}

LUMPI_PMPI(Comm_rank);
int MPI_Comm_rank(MPI_Comm comm, int* rank) {
  return call(comm, "MPI_Comm_rank", [&] {
    check_out(rank, "MPI_Comm_rank", "rank");
    *rank = comm_of(comm, "MPI_Comm_rank").Get_rank();
  });
}

LUMPI_PMPI(Comm_group);
int MPI_Comm_group(MPI_Comm comm, MPI_Group* g) {
  return call(comm, "MPI_Comm_group", [&] {
    check_out(g, "MPI_Comm_group", "group");
    *g = add_group(comm_of(comm, "MPI_Comm_group").Get_group());
  });
}

LUMPI_PMPI(Comm_remote_size);
int MPI_Comm_remote_size(MPI_Comm comm, int* size) {
  return call(comm, "MPI_Comm_remote_size", [&] {
    check_out(size, "MPI_Comm_remote_size", "size");
    *size = inter(comm, "MPI_Comm_remote_size").Get_remote_size();
  });
}

LUMPI_PMPI(Comm_remote_group);
int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group* g) {
  return call(comm, "MPI_Comm_remote_group", [&] {
    check_out(g, "MPI_Comm_remote_group", "group");
    *g = add_group(inter(comm, "MPI_Comm_remote_group").Get_remote_group());
  });
}

LUMPI_PMPI(Comm_test_inter);
int MPI_Comm_test_inter(MPI_Comm comm, int* flag) {
  return call(comm, "MPI_Comm_test_inter", [&] {
    check_out(flag, "MPI_Comm_test_inter", "flag");
    *flag = comm_of(comm, "MPI_Comm_test_inter").Is_inter();
  });
}

LUMPI_PMPI(Comm_compare);
int MPI_Comm_compare(MPI_Comm c1, MPI_Comm c2, int* result) {
  return call(c1, "MPI_Comm_compare", [&] {
    check_out(result, "MPI_Comm_compare", "result");
    *result = Comm::Compare(comm_of(c1, "MPI_Comm_compare"), comm_of(c2, "MPI_Comm_compare"));
  });
}

LUMPI_PMPI(Comm_set_name);
int MPI_Comm_set_name(MPI_Comm comm, const char* name) {
  return call(comm, "MPI_Comm_set_name", [&] {
    check_out(name, "MPI_Comm_set_name", "name");
    comm_of(comm, "MPI_Comm_set_name").Set_name(name);
  });
}

LUMPI_PMPI(Comm_get_name);
int MPI_Comm_get_name(MPI_Comm comm, char* name, int* resultlen) {
  return call(comm, "MPI_Comm_get_name", [&] {
    check_out(name, "MPI_Comm_get_name", "name");
    check_out(resultlen, "MPI_Comm_get_name", "resultlen");
    copy_out(comm_of(comm, "MPI_Comm_get_name").Get_name(), name, resultlen, MPI_MAX_OBJECT_NAME);
  });
}

LUMPI_PMPI(Comm_set_info);
int MPI_Comm_set_info(MPI_Comm comm, MPI_Info i) {
  return call(comm, "MPI_Comm_set_info", [&] {
    comm_of(comm, "MPI_Comm_set_info").Set_info(info(i, "MPI_Comm_set_info"));
  });
}

LUMPI_PMPI(Comm_get_info);
int MPI_Comm_get_info(MPI_Comm comm, MPI_Info* i) {
  return call(comm, "MPI_Comm_get_info", [&] {
    check_out(i, "MPI_Comm_get_info", "info");
    *i = add_info(comm_of(comm, "MPI_Comm_get_info").Get_info());
  });
}

// ---- communicators: constructors and free -------------------------------------------

LUMPI_PMPI(Comm_dup);
int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  if (newcomm) *newcomm = MPI_COMM_NULL;  // what a failed constructor leaves
  return call(comm, "MPI_Comm_dup", [&] {
    check_out(newcomm, "MPI_Comm_dup", "newcomm");
    Comm& c = comm_of(comm, "MPI_Comm_dup");
    *newcomm = add_comm(detail::dup_handle(c, "MPI_Comm_dup"));
  });
}

LUMPI_PMPI(Comm_dup_with_info);
int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info i, MPI_Comm* newcomm) {
  if (newcomm) *newcomm = MPI_COMM_NULL;  // what a failed constructor leaves
  const char* f = "MPI_Comm_dup_with_info";
  return call(comm, f, [&] {
    check_out(newcomm, "MPI_Comm_dup_with_info", "newcomm");
    Comm& c = comm_of(comm, f);
    core::Hints hints = hints_of(i, f);
    auto copies = detail::copy_attrs(c);
    auto h = std::make_shared<CommHandle>(core::comm_dup_with_info(detail::core_of(c, f), hints));
    detail::attach_attrs(*h->comm, copies);
    *newcomm = add_comm(std::move(h));
  });
}

// The new communicator exists at once but is pending (MPI_ERR_COMM if used)
// until the request completes; attributes are copied as of the call.
static int idup(MPI_Comm comm, const core::Hints* hints, MPI_Comm* newcomm, MPI_Request* request, const char* f) {
  if (newcomm) *newcomm = MPI_COMM_NULL;
  return call(comm, f, [&] {
    check_out(newcomm, f, "newcomm");
    check_out(request, f, "request");
    Comm& c = comm_of(comm, f);
    detail::core_of(c, f);
    const core::CommPtr& parent = Access::handle(c)->comm;
    auto copies = detail::copy_attrs(c);
    auto attach = [&](const core::CommPtr& n) { detail::attach_attrs(*n, copies); };
    core::Idup r = hints ? core::comm_idup_with_info(parent, *hints, attach) : core::comm_idup(parent, attach);
    *newcomm = add_comm(std::make_shared<CommHandle>(r.comm));
    *request = add_request(detail::request_of(parent, r.request, f));
  });
}

LUMPI_PMPI(Comm_idup);
int MPI_Comm_idup(MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request) {
  return idup(comm, nullptr, newcomm, request, "MPI_Comm_idup");
}

LUMPI_PMPI(Comm_idup_with_info);
int MPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info i, MPI_Comm* newcomm, MPI_Request* request) {
  const char* f = "MPI_Comm_idup_with_info";
  core::Hints hints;
  int rc = call(comm, f, [&] { hints = hints_of(i, f);
});
  return rc != MPI_SUCCESS ? rc : idup(comm, &hints, newcomm, request, f);
}

LUMPI_PMPI(Comm_create);
int MPI_Comm_create(MPI_Comm comm, MPI_Group g, MPI_Comm* newcomm) {
  if (newcomm) *newcomm = MPI_COMM_NULL;  // what a failed constructor leaves
  return call(comm, "MPI_Comm_create", [&] {
    check_out(newcomm, "MPI_Comm_create", "newcomm");
    Comm& c = comm_of(comm, "MPI_Comm_create");
    const Group& gr = group(g, "MPI_Comm_create");
    if (auto* ic = dynamic_cast<Intercomm*>(&c)) *newcomm = made(ic->Create(gr));
    else *newcomm = made(static_cast<Intracomm&>(c).Create(gr));
  });
}

LUMPI_PMPI(Comm_split);
int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  if (newcomm) *newcomm = MPI_COMM_NULL;  // what a failed constructor leaves
  return call(comm, "MPI_Comm_split", [&] {
    check_out(newcomm, "MPI_Comm_split", "newcomm");
    Comm& c = comm_of(comm, "MPI_Comm_split");
    if (auto* ic = dynamic_cast<Intercomm*>(&c)) *newcomm = made(ic->Split(color, key));
    else *newcomm = made(static_cast<Intracomm&>(c).Split(color, key));
  });
}

LUMPI_PMPI(Comm_create_group);
int MPI_Comm_create_group(MPI_Comm comm, MPI_Group g, int tag, MPI_Comm* newcomm) {
  if (newcomm) *newcomm = MPI_COMM_NULL;  // what a failed constructor leaves
  const char* f = "MPI_Comm_create_group";
  return call(comm, f, [&] {
    check_out(newcomm, "MPI_Comm_create_group", "newcomm");
    Intracomm c = intra(comm, f);
    const Group& gr = group(g, f);
    core::CommPtr p = core::comm_create_group(detail::core_of(c, f), gr.World_ranks(), tag);
    *newcomm = p ? add_comm(std::make_shared<CommHandle>(std::move(p))) : MPI_COMM_NULL;
  });
}

static_assert(MPI_COMM_TYPE_SHARED == core::COMM_TYPE_SHARED && MPI_COMM_TYPE_HW_GUIDED == core::COMM_TYPE_HW_GUIDED &&
              MPI_COMM_TYPE_HW_UNGUIDED == core::COMM_TYPE_HW_UNGUIDED &&
              MPI_COMM_TYPE_HW_DOMAIN == core::COMM_TYPE_HW_DOMAIN && MPI_UNDEFINED == core::UNDEFINED);

LUMPI_PMPI(Comm_split_type);
int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info i, MPI_Comm* newcomm) {
  if (newcomm) *newcomm = MPI_COMM_NULL;  // what a failed constructor leaves
  const char* f = "MPI_Comm_split_type";
  return call(comm, f, [&] {
    check_out(newcomm, "MPI_Comm_split_type", "newcomm");
    Intracomm c = intra(comm, f);
    core::CommPtr p = core::comm_split_type(detail::core_of(c, f), split_type, key, hints_of(i, f));
    // UNGUIDED tells the caller which level it split at (as MPICH does).
    if (p && split_type == MPI_COMM_TYPE_HW_UNGUIDED && i != MPI_INFO_NULL) {
      auto it = p->info().find("mpi_hw_resource_type");
      if (it != p->info().end()) info(i, f).Set(it->first, it->second);
    }
    *newcomm = p ? add_comm(std::make_shared<CommHandle>(std::move(p))) : MPI_COMM_NULL;
  });
}

LUMPI_PMPI(Comm_free);
int MPI_Comm_free(MPI_Comm* comm) {
  return call(comm ? *comm : MPI_COMM_NULL, "MPI_Comm_free", [&] {
    check_out(comm, "MPI_Comm_free", "comm");
    if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
      fail(MPI_ERR_COMM, "MPI_Comm_free", "comm is a predefined communicator");
    Comm& c = comm_of(*comm, "MPI_Comm_free");
    c.Free();
    forget_comm(*comm);
    *comm = MPI_COMM_NULL;
  });
}

LUMPI_PMPI(Intercomm_create);
int MPI_Intercomm_create(MPI_Comm local, int local_leader, MPI_Comm peer, int remote_leader, int tag,
                         MPI_Comm* newcomm) {
  const char* f = "MPI_Intercomm_create";
  return call(local, f, [&] {
    check_out(newcomm, "MPI_Intercomm_create", "newintercomm");
    Intracomm c = intra(local, f);
    // The peer matters only at the local leader; elsewhere it may be anything.
    bool leader = c.Get_rank() == local_leader;
    const Intracomm none;
    const Comm* p = leader ? &comm_of(peer, f) : &none;
    if (!leader && peer != MPI_COMM_NULL && peer > 0 && peer < int(comms().size()) && comms()[peer].h)
      p = &comm_of(peer, f);
    *newcomm = made(c.Create_intercomm(local_leader, *p, remote_leader, tag));
  });
}

LUMPI_PMPI(Intercomm_merge);
int MPI_Intercomm_merge(MPI_Comm comm, int high, MPI_Comm* newcomm) {
  return call(comm, "MPI_Intercomm_merge", [&] {
    check_out(newcomm, "MPI_Intercomm_merge", "newintracomm");
    *newcomm = made(inter(comm, "MPI_Intercomm_merge").Merge(high != 0));
  });
}

// ---- attributes --------------------------------------------------------------------

int MPI_COMM_NULL_COPY_FN(MPI_Comm, int, void*, void*, void*, int* flag) {
  *flag = 0;
  return MPI_SUCCESS;
}

int MPI_COMM_DUP_FN(MPI_Comm, int, void*, void* in, void* out, int* flag) {
  *static_cast<void**>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}

int MPI_COMM_NULL_DELETE_FN(MPI_Comm, int, void*, void*) { return MPI_SUCCESS; }

LUMPI_PMPI(Comm_create_keyval);
int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function* copy_fn, MPI_Comm_delete_attr_function* delete_fn,
                           int* keyval, void* extra_state) {
  return call("MPI_Comm_create_keyval", [&] {
    check_out(keyval, "MPI_Comm_create_keyval", "keyval");
    Copy_attr_function copy;
    if (copy_fn)
      copy = [copy_fn](const Comm& old, int k, void* extra, void* in, void*& out, bool& flag) {
        int f = 0;
        int rc = copy_fn(handle_of(old), k, extra, in, &out, &f);
        flag = f != 0;
        return rc;
      };
    Delete_attr_function del;
    if (delete_fn)
      del = [delete_fn](Comm& c, int k, void* value, void* extra) {
        return delete_fn(handle_of(c), k, value, extra);
      };
    *keyval = Comm::Create_keyval(copy ? copy : Copy_attr_function(Comm::NULL_COPY_FN),
                                  del ? del : Delete_attr_function(Comm::NULL_DELETE_FN), extra_state)
                  .Id();
    note_created(core::check::Kind::Keyval, keyval_key(core::attr::Kind::Comm, *keyval));
  });
}

LUMPI_PMPI(Comm_free_keyval);
int MPI_Comm_free_keyval(int* keyval) {
  return call("MPI_Comm_free_keyval", [&] {
    check_out(keyval, "MPI_Comm_free_keyval", "keyval");
    Keyval k = Access::keyval(*keyval);
    Comm::Free_keyval(k);
    note_freed(core::check::Kind::Keyval, keyval_key(core::attr::Kind::Comm, *keyval));
    *keyval = MPI_KEYVAL_INVALID;
  });
}

LUMPI_PMPI(Comm_set_attr);
int MPI_Comm_set_attr(MPI_Comm comm, int keyval, void* value) {
  return call(comm, "MPI_Comm_set_attr", [&] {
    comm_of(comm, "MPI_Comm_set_attr").Set_attr(Access::keyval(keyval), value);
  });
}

// The predefined attributes' values are the core's (core::attr::predefined),
// each in an int of its own whose address the caller gets.
LUMPI_PMPI(Comm_get_attr);
int MPI_Comm_get_attr(MPI_Comm comm, int keyval, void* value, int* flag) {
  return call(comm, "MPI_Comm_get_attr", [&] {
    check_out(value, "MPI_Comm_get_attr", "attribute_val");
    check_out(flag, "MPI_Comm_get_attr", "flag");
    Comm& c = comm_of(comm, "MPI_Comm_get_attr");
    static int predefined[LUMPI_LAST_PREDEFINED_KEYVAL + 1];
    if (keyval >= MPI_TAG_UB && keyval <= LUMPI_LAST_PREDEFINED_KEYVAL) {
      *flag = core::attr::predefined(keyval, comm == MPI_COMM_WORLD, predefined[keyval]);
      if (*flag) *static_cast<void**>(value) = &predefined[keyval];
      return;
    }
    void* v = nullptr;
    *flag = c.Get_attr(Access::keyval(keyval), v);
    if (*flag) *static_cast<void**>(value) = v;
  });
}

LUMPI_PMPI(Comm_delete_attr);
int MPI_Comm_delete_attr(MPI_Comm comm, int keyval) {
  return call(comm, "MPI_Comm_delete_attr", [&] {
    comm_of(comm, "MPI_Comm_delete_attr").Delete_attr(Access::keyval(keyval));
  });
}

LUMPI_PMPI(Keyval_create);
int MPI_Keyval_create(MPI_Copy_function* copy_fn, MPI_Delete_function* delete_fn, int* keyval, void* extra) {
  return MPI_Comm_create_keyval(copy_fn, delete_fn, keyval, extra);
}
LUMPI_PMPI(Keyval_free);
int MPI_Keyval_free(int* keyval) { return MPI_Comm_free_keyval(keyval); }
LUMPI_PMPI(Attr_put);
int MPI_Attr_put(MPI_Comm comm, int keyval, void* value) { return MPI_Comm_set_attr(comm, keyval, value); }
LUMPI_PMPI(Attr_get);
int MPI_Attr_get(MPI_Comm comm, int keyval, void* value, int* flag) {
  return MPI_Comm_get_attr(comm, keyval, value, flag);
}
LUMPI_PMPI(Attr_delete);
int MPI_Attr_delete(MPI_Comm comm, int keyval) { return MPI_Comm_delete_attr(comm, keyval); }

// ---- topologies --------------------------------------------------------------------

LUMPI_PMPI(Dims_create);
int MPI_Dims_create(int nnodes, int ndims, int dims[]) {
  return call("MPI_Dims_create", [&] { Compute_dims(nnodes, ndims, dims);
});
}

LUMPI_PMPI(Cart_create);
int MPI_Cart_create(MPI_Comm old, int ndims, const int dims[], const int periods[], int reorder, MPI_Comm* out) {
  const char* f = "MPI_Cart_create";
  return call(old, f, [&] {
    check_out(out, "MPI_Cart_create", "comm_cart");
    if (ndims < 0) fail(MPI_ERR_DIMS, f, "ndims is negative: " + std::to_string(ndims));
    std::unique_ptr<bool[]> pb = bools(ndims, periods);
    *out = made(intra(old, f).Create_cart(ndims, dims, pb.get(), reorder != 0));
  });
}

LUMPI_PMPI(Cartdim_get);
int MPI_Cartdim_get(MPI_Comm comm, int* ndims) {
  return call(comm, "MPI_Cartdim_get", [&] {
    check_out(ndims, "MPI_Cartdim_get", "ndims");
    *ndims = as<Cartcomm>(comm, "MPI_Cartdim_get").Get_dim();
  });
}

LUMPI_PMPI(Cart_get);
int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]) {
  return call(comm, "MPI_Cart_get", [&] {
    if (maxdims < 0) fail(MPI_ERR_ARG, "MPI_Cart_get", "maxdims is negative");
    std::unique_ptr<bool[]> pb(new bool[size_t(maxdims) + 1]);
    as<Cartcomm>(comm, "MPI_Cart_get").Get_topo(maxdims, dims, pb.get(), coords);
    for (int i = 0; i < maxdims; ++i) periods[i] = pb[i];
  });
}

LUMPI_PMPI(Cart_rank);
int MPI_Cart_rank(MPI_Comm comm, const int coords[], int* rank) {
  return call(comm, "MPI_Cart_rank", [&] {
    check_out(rank, "MPI_Cart_rank", "rank");
    *rank = as<Cartcomm>(comm, "MPI_Cart_rank").Get_cart_rank(coords);
  });
}

LUMPI_PMPI(Cart_coords);
int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]) {
  return call(comm, "MPI_Cart_coords", [&] {
    as<Cartcomm>(comm, "MPI_Cart_coords").Get_coords(rank, maxdims, coords);
  });
}

LUMPI_PMPI(Cart_shift);
int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int* src, int* dst) {
  return call(comm, "MPI_Cart_shift", [&] {
    check_out(src, "MPI_Cart_shift", "rank_source");
    check_out(dst, "MPI_Cart_shift", "rank_dest");
    as<Cartcomm>(comm, "MPI_Cart_shift").Shift(direction, disp, *src, *dst);
  });
}

LUMPI_PMPI(Cart_sub);
int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* out) {
  return call(comm, "MPI_Cart_sub", [&] {
    check_out(out, "MPI_Cart_sub", "newcomm");
    Cartcomm c = as<Cartcomm>(comm, "MPI_Cart_sub");
    *out = made(c.Sub(bools(c.Get_dim(), remain_dims).get()));
  });
}

LUMPI_PMPI(Cart_map);
int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int* newrank) {
  return call(comm, "MPI_Cart_map", [&] {
    check_out(newrank, "MPI_Cart_map", "newrank");
    if (ndims < 0) fail(MPI_ERR_DIMS, "MPI_Cart_map", "ndims is negative");
    std::unique_ptr<bool[]> pb = bools(ndims, periods);
    *newrank = as<Cartcomm>(comm, "MPI_Cart_map").Map(ndims, dims, pb.get());
  });
}

LUMPI_PMPI(Graph_create);
int MPI_Graph_create(MPI_Comm old, int nnodes, const int index[], const int edges[], int reorder, MPI_Comm* out) {
  return call(old, "MPI_Graph_create", [&] {
    check_out(out, "MPI_Graph_create", "comm_graph");
    *out = made(intra(old, "MPI_Graph_create").Create_graph(nnodes, index, edges, reorder != 0));
  });
}

LUMPI_PMPI(Graphdims_get);
int MPI_Graphdims_get(MPI_Comm comm, int* nnodes, int* nedges) {
  return call(comm, "MPI_Graphdims_get", [&] {
    check_out(nnodes, "MPI_Graphdims_get", "nnodes");
    check_out(nedges, "MPI_Graphdims_get", "nedges");
    as<Graphcomm>(comm, "MPI_Graphdims_get").Get_dims(nnodes, nedges);
  });
}

LUMPI_PMPI(Graph_get);
int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]) {
  return call(comm, "MPI_Graph_get", [&] {
    as<Graphcomm>(comm, "MPI_Graph_get").Get_topo(maxindex, maxedges, index, edges);
  });
}

LUMPI_PMPI(Graph_neighbors_count);
int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int* n) {
  return call(comm, "MPI_Graph_neighbors_count", [&] {
    check_out(n, "MPI_Graph_neighbors_count", "nneighbors");
    *n = as<Graphcomm>(comm, "MPI_Graph_neighbors_count").Get_neighbors_count(rank);
  });
}

LUMPI_PMPI(Graph_neighbors);
int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxn, int neighbors[]) {
  return call(comm, "MPI_Graph_neighbors", [&] {
    as<Graphcomm>(comm, "MPI_Graph_neighbors").Get_neighbors(rank, maxn, neighbors);
  });
}

LUMPI_PMPI(Graph_map);
int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int* newrank) {
  return call(comm, "MPI_Graph_map", [&] {
    check_out(newrank, "MPI_Graph_map", "newrank");
    *newrank = as<Graphcomm>(comm, "MPI_Graph_map").Map(nnodes, index, edges);
  });
}

LUMPI_PMPI(Topo_test);
int MPI_Topo_test(MPI_Comm comm, int* status) {
  return call(comm, "MPI_Topo_test", [&] {
    check_out(status, "MPI_Topo_test", "status");
    *status = comm_of(comm, "MPI_Topo_test").Get_topology();
  });
}

LUMPI_PMPI(Dist_graph_create_adjacent);
int MPI_Dist_graph_create_adjacent(MPI_Comm old, int indegree, const int sources[], const int sourceweights[],
                                   int outdegree, const int destinations[], const int destweights[], MPI_Info i,
                                   int reorder, MPI_Comm* out) {
  const char* f = "MPI_Dist_graph_create_adjacent";
  return call(old, f, [&] {
    check_out(out, "MPI_Dist_graph_create_adjacent", "comm_dist_graph");
    const int* sw = weights(sourceweights, indegree, f, "sourceweights");
    const int* dw = weights(destweights, outdegree, f, "destweights");
    *out = made(intra(old, f).Dist_graph_create_adjacent(indegree, sources, sw, outdegree, destinations, dw,
                                                              info_or_null(i, f), reorder != 0));
  });
}

LUMPI_PMPI(Dist_graph_create);
int MPI_Dist_graph_create(MPI_Comm old, int n, const int sources[], const int degrees[], const int destinations[],
                          const int w[], MPI_Info i, int reorder, MPI_Comm* out) {
  const char* f = "MPI_Dist_graph_create";
  return call(old, f, [&] {
    check_out(out, "MPI_Dist_graph_create", "comm_dist_graph");
    long edges = 0;
    for (int k = 0; k < n && degrees; ++k) edges += degrees[k];
    const int* ws = weights(w, int(edges), f, "weights");
    *out = made(intra(old, f).Dist_graph_create(n, sources, degrees, destinations, ws,
                                                     info_or_null(i, f), reorder != 0));
  });
}

LUMPI_PMPI(Dist_graph_neighbors_count);
int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int* indegree, int* outdegree, int* weighted) {
  return call(comm, "MPI_Dist_graph_neighbors_count", [&] {
    check_out(indegree, "MPI_Dist_graph_neighbors_count", "indegree");
    check_out(outdegree, "MPI_Dist_graph_neighbors_count", "outdegree");
    check_out(weighted, "MPI_Dist_graph_neighbors_count", "weighted");
    bool w = false;
    as<Distgraphcomm>(comm, "MPI_Dist_graph_neighbors_count").Get_dist_neighbors_count(*indegree, *outdegree, w);
    *weighted = w;
  });
}

LUMPI_PMPI(Dist_graph_neighbors);
int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxin, int sources[], int sourceweights[], int maxout,
                             int destinations[], int destweights[]) {
  return call(comm, "MPI_Dist_graph_neighbors", [&] {
    int* sw = sourceweights == MPI_UNWEIGHTED ? nullptr : sourceweights;
    int* dw = destweights == MPI_UNWEIGHTED ? nullptr : destweights;
    as<Distgraphcomm>(comm, "MPI_Dist_graph_neighbors")
        .Get_dist_neighbors(maxin, sources, sw, maxout, destinations, dw);
  });
}

}  // extern "C"
