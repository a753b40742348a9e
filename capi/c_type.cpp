// capi/c_type.cpp: the C API's datatypes (MPI-3.1 chapter 4) over the
// core's type maps (core/datatype/datatype.hpp): the handles (the C++
// API's table, core/api/handles.hpp), the constructors, commit and free,
// size/extent/envelope/contents queries, names, MPI_Get_count and
// MPI_Get_elements, and the bytes a typed buffer moves as (TypeBytes).
// Datatype attributes are in capi/c_type_attr.cpp.
#include <cstring>

#include "core/datatype/datatype.hpp"
#include "capi/c_api.hpp"

namespace lumpi::capi {
namespace {

using core::Basic;

// The C handles are lumpi::Datatype's numbers (1 + core::Basic, then
// core::Pair; derived types after them), so both doors share
// api_datatype.cpp's one table.
static_assert(MPI_CHAR == 1 + int(Basic::Char) && MPI_INT == 1 + int(Basic::Int) &&
              MPI_DOUBLE == 1 + int(Basic::Double) && MPI_PACKED == 1 + int(Basic::Packed) &&
              MPI_CXX_LONG_DOUBLE_COMPLEX == 1 + int(Basic::CxxLongDoubleComplex) &&
              MPI_COMPLEX16 == 1 + int(Basic::Complex16) && MPI_FLOAT_INT == 1 + int(Basic::Count_) &&
              LUMPI_LAST_PREDEFINED_TYPE == int(Basic::Count_) + int(core::Pair::Count_));
static_assert(sizeof(long) == 8 && sizeof(wchar_t) == 4 && sizeof(MPI_Aint) == 8);

bool is_named(MPI_Datatype t) { return t > 0 && t <= LUMPI_LAST_PREDEFINED_TYPE; }

}  // namespace

core::TypePtr type_of(MPI_Datatype t, const char* func, const char* what) {
  if (t == MPI_DATATYPE_NULL) fail(MPI_ERR_TYPE, func, std::string(what) + " is MPI_DATATYPE_NULL");
  return detail::type_of(Access::datatype(t), func, what);
}

MPI_Datatype add_type(core::TypePtr t) {
  MPI_Datatype id = detail::add_type(std::move(t), true).Id();
  note_created(core::check::Kind::Datatype, id);
  return id;
}

void forget_type(MPI_Datatype t) {
  if (is_named(t)) return;
  detail::forget_type(Access::datatype(t));
  note_freed(core::check::Kind::Datatype, t);
}

// ---- typed buffers as bytes ----------------------------------------------------------

namespace {
core::TypePtr checked(int count, MPI_Datatype t, const char* func, const char* what) {
  check_count(count, func, what);
  return type_of(t, func);
}
}  // namespace

TypeBytes::TypeBytes(const void* buf, int count, MPI_Datatype t, const char* func, const char* what)
    : buf_(buf), bytes_(buf, count, checked(count, t, func, what), func, what) {}

// The user's memory a send reads, a receive writes (core/check/buffer_watch.hpp).
core::TypedBuffer& TypeBytes::sent() {
  if (buf_ != MPI_IN_PLACE) buffers().note(bytes_, false);
  return bytes_;
}

core::TypedBuffer& TypeBytes::room() {
  if (buf_ != MPI_IN_PLACE) buffers().note(bytes_, true);
  return bytes_;
}

void* TypeBytes::pack(const char* func) { return const_cast<char*>(sent().pack(func)); }

}  // namespace lumpi::capi

using namespace lumpi;
using namespace lumpi::capi;

namespace {

// MPI_Type_get_(true_)extent(_x): t's bounds (its true ones when
// true_bounds) as MPI_Aint or MPI_Count.
template <class T>
int get_bounds(MPI_Datatype t, T* lb, T* extent, bool true_bounds, const char* f) {
  return call(f, [&] {
    check_out(lb, f, true_bounds ? "true_lb" : "lb");
    check_out(extent, f, true_bounds ? "true_extent" : "extent");
    const core::TypePtr& p = type_of(t, f);
    *lb = true_bounds ? p->true_lb() : p->lb();
    *extent = true_bounds ? p->true_extent() : p->extent();
  });
}

// Runs make() and stores its type as *newtype (checked first).
template <class F>
int construct(const char* func, MPI_Datatype* newtype, F&& make) {
  return call(func, [&] {
    check_out(newtype, func, "newtype");
    *newtype = add_type(make());
  });
}

std::vector<int> ints(int n, const int* a, const char* func, const char* what) {
  if (n > 0) check_out(a, func, what);
  return n > 0 ? std::vector<int>(a, a + n) : std::vector<int>{};
}

std::vector<std::int64_t> addrs(int n, const MPI_Aint* a, const char* func, const char* what) {
  if (n > 0) check_out(a, func, what);
  return n > 0 ? std::vector<std::int64_t>(a, a + n) : std::vector<std::int64_t>{};
}

void check_n(int n, const char* func) { check_count(n, func, "count"); }

int combiner_of(core::Combiner c) { return int(c) + 1; }  // MPI_COMBINER_NAMED is 1, in core order

}  // namespace

extern "C" {

// ---- constructors -----------------------------------------------------------------------

LUMPI_PMPI(Type_contiguous);
int MPI_Type_contiguous(int count, MPI_Datatype old, MPI_Datatype* newtype) {
  const char* f = "MPI_Type_contiguous";
  return construct(f, newtype, [&] { return core::Datatype::contiguous(count, type_of(old, f, "oldtype")); });
}

LUMPI_PMPI(Type_vector);
int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype old, MPI_Datatype* newtype) {
  const char* f = "MPI_Type_vector";
  return construct(f, newtype,
                   [&] { return core::Datatype::vector(count, blocklength, stride, type_of(old, f, "oldtype")); });
}

LUMPI_PMPI(Type_create_hvector);
int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype old, MPI_Datatype* newtype) {
  const char* f = "MPI_Type_create_hvector";
  return construct(f, newtype,
                   [&] { return core::Datatype::hvector(count, blocklength, stride, type_of(old, f, "oldtype")); });
}

LUMPI_PMPI(Type_indexed);
int MPI_Type_indexed(int count, const int blocklengths[], const int displacements[], MPI_Datatype old,
                     MPI_Datatype* newtype) {
  const char* f = "MPI_Type_indexed";
  return construct(f, newtype, [&] {
    check_n(count, f);
    return core::Datatype::indexed(ints(count, blocklengths, f, "array_of_blocklengths"),
                                   ints(count, displacements, f, "array_of_displacements"),
                                   type_of(old, f, "oldtype"));
  });
}

LUMPI_PMPI(Type_create_hindexed);
int MPI_Type_create_hindexed(int count, const int blocklengths[], const MPI_Aint displacements[],
                             MPI_Datatype old, MPI_Datatype* newtype) {
  const char* f = "MPI_Type_create_hindexed";
  return construct(f, newtype, [&] {
    check_n(count, f);
    return core::Datatype::hindexed(ints(count, blocklengths, f, "array_of_blocklengths"),
                                    addrs(count, displacements, f, "array_of_displacements"),
                                    type_of(old, f, "oldtype"));
  });
}

LUMPI_PMPI(Type_create_indexed_block);
int MPI_Type_create_indexed_block(int count, int blocklength, const int displacements[], MPI_Datatype old,
                                  MPI_Datatype* newtype) {
  const char* f = "MPI_Type_create_indexed_block";
  return construct(f, newtype, [&] {
    check_n(count, f);
    return core::Datatype::indexed_block(blocklength, ints(count, displacements, f, "array_of_displacements"),
                                         type_of(old, f, "oldtype"));
  });
}

LUMPI_PMPI(Type_create_hindexed_block);
int MPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint displacements[], MPI_Datatype old,
                                   MPI_Datatype* newtype) {
  const char* f = "MPI_Type_create_hindexed_block";
  return construct(f, newtype, [&] {
    check_n(count, f);
    return core::Datatype::hindexed_block(blocklength, addrs(count, displacements, f, "array_of_displacements"),
                                          type_of(old, f, "oldtype"));
  });
}

LUMPI_PMPI(Type_create_struct);
int MPI_Type_create_struct(int count, const int blocklengths[], const MPI_Aint displacements[],
                           const MPI_Datatype types[], MPI_Datatype* newtype) {
  const char* f = "MPI_Type_create_struct";
  return construct(f, newtype, [&] {
    check_n(count, f);
    if (count > 0) check_out(types, f, "array_of_types");
    std::vector<core::TypePtr> ts;
    for (int i = 0; i < count; ++i)
      ts.push_back(type_of(types[i], f, ("array_of_types[" + std::to_string(i) + "]").c_str()));
    return core::Datatype::create_struct(ints(count, blocklengths, f, "array_of_blocklengths"),
                                         addrs(count, displacements, f, "array_of_displacements"), ts);
  });
}

LUMPI_PMPI(Type_create_subarray);
int MPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[], const int starts[], int order,
                             MPI_Datatype old, MPI_Datatype* newtype) {
  const char* f = "MPI_Type_create_subarray";
  return construct(f, newtype, [&] {
    if (ndims <= 0) fail(MPI_ERR_ARG, f, "ndims must be positive, got " + std::to_string(ndims));
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
      fail(MPI_ERR_ARG, f, "order must be MPI_ORDER_C or MPI_ORDER_FORTRAN, got " + std::to_string(order));
    return core::Datatype::subarray(ints(ndims, sizes, f, "array_of_sizes"), ints(ndims, subsizes, f, "array_of_subsizes"),
                                    ints(ndims, starts, f, "array_of_starts"),
                                    order == MPI_ORDER_C ? core::Order::C : core::Order::Fortran,
                                    type_of(old, f, "oldtype"));
  });
}

LUMPI_PMPI(Type_match_size);
int MPI_Type_match_size(int typeclass, int size, MPI_Datatype* datatype) {
  const char* f = "MPI_Type_match_size";
  return call(f, [&] {
    check_out(datatype, f, "datatype");
    *datatype = 1 + int(core::match_size(core::TypeClass(typeclass), size, f));
  });
}

// The C constants are the core's numbers (contents report them as given).
static_assert(MPI_DISTRIBUTE_NONE == int(core::Distribution::None) &&
              MPI_DISTRIBUTE_BLOCK == int(core::Distribution::Block) &&
              MPI_DISTRIBUTE_CYCLIC == int(core::Distribution::Cyclic) &&
              MPI_DISTRIBUTE_DFLT_DARG == core::kDefaultDarg && MPI_ORDER_C == int(core::Order::C) &&
              MPI_ORDER_FORTRAN == int(core::Order::Fortran) &&
              MPI_TYPECLASS_INTEGER == int(core::TypeClass::Integer) &&
              MPI_TYPECLASS_REAL == int(core::TypeClass::Real) &&
              MPI_TYPECLASS_COMPLEX == int(core::TypeClass::Complex));

LUMPI_PMPI(Type_create_darray);
int MPI_Type_create_darray(int size, int rank, int ndims, const int gsizes[], const int distribs[],
                           const int dargs[], const int psizes[], int order, MPI_Datatype old,
                           MPI_Datatype* newtype) {
  const char* f = "MPI_Type_create_darray";
  return construct(f, newtype, [&] {
    if (ndims <= 0) fail(MPI_ERR_ARG, f, "ndims must be positive, got " + std::to_string(ndims));
    core::DarrayArgs a{size, rank, ints(ndims, gsizes, f, "array_of_gsizes"), {},
                       ints(ndims, dargs, f, "array_of_dargs"), ints(ndims, psizes, f, "array_of_psizes"),
                       core::Order(order)};
    for (int d : ints(ndims, distribs, f, "array_of_distribs")) a.distribs.push_back(core::Distribution(d));
    return core::Datatype::darray(a, type_of(old, f, "oldtype"));
  });
}

LUMPI_PMPI(Type_create_resized);
int MPI_Type_create_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent, MPI_Datatype* newtype) {
  const char* f = "MPI_Type_create_resized";
  return construct(f, newtype, [&] { return core::Datatype::resized(type_of(old, f, "oldtype"), lb, extent); });
}

// The copy callbacks of old's attributes run (c_type_attr.cpp); if one
// fails, the new type is dropped and *newtype is MPI_DATATYPE_NULL.
LUMPI_PMPI(Type_dup);
int MPI_Type_dup(MPI_Datatype old, MPI_Datatype* newtype) {
  const char* f = "MPI_Type_dup";
  if (newtype) *newtype = MPI_DATATYPE_NULL;
  return call(f, [&] {
    check_out(newtype, f, "newtype");
    const core::TypePtr& o = type_of(old, f, "oldtype");
    MPI_Datatype h = add_type(core::Datatype::dup(o));
    try {
      type_copy_attrs(old, h, f);
    } catch (...) {
      forget_type(h);
      throw;
    }
    *newtype = h;
  });
}

// ---- state --------------------------------------------------------------------------------

LUMPI_PMPI(Type_commit);
int MPI_Type_commit(MPI_Datatype* t) {
  const char* f = "MPI_Type_commit";
  return call(f, [&] {
    check_out(t, f, "datatype");
    const core::TypePtr& p = type_of(*t, f);
    if (p->freed()) fail(MPI_ERR_TYPE, f, "datatype has been freed");
    p->commit();
  });
}

// Attributes go first (their delete callbacks run; a failing one stops the
// free), then the handle becomes MPI_DATATYPE_NULL.
LUMPI_PMPI(Type_free);
int MPI_Type_free(MPI_Datatype* t) {
  const char* f = "MPI_Type_free";
  return call(f, [&] {
    check_out(t, f, "datatype");
    const core::TypePtr& p = type_of(*t, f);
    if (is_named(*t) || p->predefined())
      fail(MPI_ERR_TYPE, f, "cannot free the predefined datatype " + p->name());
    if (p->freed()) fail(MPI_ERR_TYPE, f, "datatype has already been freed");
    type_delete_attrs(*t, f);
    p->free(f);
    forget_type(*t);
    *t = MPI_DATATYPE_NULL;
  });
}

// ---- queries --------------------------------------------------------------------------------

LUMPI_PMPI(Type_size);
int MPI_Type_size(MPI_Datatype t, int* size) {
  const char* f = "MPI_Type_size";
  return call(f, [&] {
    check_out(size, f, "size");
    std::int64_t s = type_of(t, f)->size();
    *size = s > INT32_MAX ? MPI_UNDEFINED : int(s);
  });
}

LUMPI_PMPI(Type_get_extent);
int MPI_Type_get_extent(MPI_Datatype t, MPI_Aint* lb, MPI_Aint* extent) {
  return get_bounds(t, lb, extent, false, "MPI_Type_get_extent");
}
LUMPI_PMPI(Type_get_extent_x);
int MPI_Type_get_extent_x(MPI_Datatype t, MPI_Count* lb, MPI_Count* extent) {
  return get_bounds(t, lb, extent, false, "MPI_Type_get_extent_x");
}
LUMPI_PMPI(Type_get_true_extent);
int MPI_Type_get_true_extent(MPI_Datatype t, MPI_Aint* true_lb, MPI_Aint* true_extent) {
  return get_bounds(t, true_lb, true_extent, true, "MPI_Type_get_true_extent");
}
LUMPI_PMPI(Type_get_true_extent_x);
int MPI_Type_get_true_extent_x(MPI_Datatype t, MPI_Count* true_lb, MPI_Count* true_extent) {
  return get_bounds(t, true_lb, true_extent, true, "MPI_Type_get_true_extent_x");
}

LUMPI_PMPI(Type_get_envelope);
int MPI_Type_get_envelope(MPI_Datatype t, int* ni, int* na, int* nd, int* combiner) {
  const char* f = "MPI_Type_get_envelope";
  return call(f, [&] {
    check_out(ni, f, "num_integers");
    check_out(na, f, "num_addresses");
    check_out(nd, f, "num_datatypes");
    check_out(combiner, f, "combiner");
    const core::TypePtr& p = type_of(t, f);
    if (is_named(t)) {
      *ni = *na = *nd = 0;
      *combiner = MPI_COMBINER_NAMED;
      return;
    }
    core::TypeEnvelope e = p->envelope();
    *ni = e.num_integers;
    *na = e.num_addresses;
    *nd = e.num_datatypes;
    *combiner = combiner_of(e.combiner);
  });
}

// Predefined types in the contents are their own handles; derived ones are
// new handles the caller frees (MPI-3.1 §4.1.13).
LUMPI_PMPI(Type_get_contents);
int MPI_Type_get_contents(MPI_Datatype t, int max_integers, int max_addresses, int max_datatypes, int integers[],
                          MPI_Aint addresses[], MPI_Datatype datatypes[]) {
  const char* f = "MPI_Type_get_contents";
  return call(f, [&] {
    const core::TypePtr& p = type_of(t, f);
    if (is_named(t)) fail(MPI_ERR_TYPE, f, "datatype is predefined (combiner MPI_COMBINER_NAMED): it has no contents");
    core::TypeContents c = p->contents();
    if (max_integers < int(c.integers.size()) || max_addresses < int(c.addresses.size()) ||
        max_datatypes < int(c.types.size()))
      fail(MPI_ERR_ARG, f,
           "the arrays are too small: the type has " + std::to_string(c.integers.size()) + " integers, " +
               std::to_string(c.addresses.size()) + " addresses and " + std::to_string(c.types.size()) + " datatypes");
    for (size_t i = 0; i < c.integers.size(); ++i) integers[i] = c.integers[i];
    for (size_t i = 0; i < c.addresses.size(); ++i) addresses[i] = MPI_Aint(c.addresses[i]);
    for (size_t i = 0; i < c.types.size(); ++i)
      datatypes[i] = c.types[i]->predefined() ? detail::handle_of(c.types[i]).Id() : add_type(c.types[i]);
  });
}

LUMPI_PMPI(Type_set_name);
int MPI_Type_set_name(MPI_Datatype t, const char* name) {
  const char* f = "MPI_Type_set_name";
  return call(f, [&] {
    check_out(name, f, "type_name");
    type_of(t, f)->set_name(core::object_name(name));
  });
}

LUMPI_PMPI(Type_get_name);
int MPI_Type_get_name(MPI_Datatype t, char* name, int* resultlen) {
  const char* f = "MPI_Type_get_name";
  return call(f, [&] {
    check_out(name, f, "type_name");
    check_out(resultlen, f, "resultlen");
    copy_out(type_of(t, f)->name(), name, resultlen, MPI_MAX_OBJECT_NAME);
  });
}

LUMPI_PMPI(Get_count);
int MPI_Get_count(const MPI_Status* status, MPI_Datatype t, int* count) {
  const char* f = "MPI_Get_count";
  return call(f, [&] {
    if (!status) fail(MPI_ERR_ARG, f, "status is MPI_STATUS_IGNORE");
    check_out(count, f, "count");
    const core::TypePtr& p = type_of(t, f);
    std::int64_t n = p->size() == 0 ? 0 : p->count_of(status->lumpi_bytes);
    *count = n > INT32_MAX ? MPI_UNDEFINED : int(n);
  });
}

LUMPI_PMPI(Get_elements);
int MPI_Get_elements(const MPI_Status* status, MPI_Datatype t, int* count) {
  const char* f = "MPI_Get_elements";
  return call(f, [&] {
    if (!status) fail(MPI_ERR_ARG, f, "status is MPI_STATUS_IGNORE");
    check_out(count, f, "count");
    const core::TypePtr& p = type_of(t, f);
    p->check_committed(f);
    std::int64_t n = p->size() == 0 ? 0 : p->elements_of(status->lumpi_bytes);
    *count = n > INT32_MAX ? MPI_UNDEFINED : int(n);
  });
}

}  // extern "C"
