// core/api/api_datatype.cpp: lumpi::Datatype (MPI-3.1 chapter 4 in the shape
// of §16's MPI::Datatype) over the core's type maps (core/datatype): the
// handle table, the predefined constants, the constructors, commit and free,
// the queries and names. Packing is api_pack.cpp's, attributes
// api_type_attr.cpp's.
//
// A handle is a number: the predefined basic types are 1 + their
// core::Basic, the pair types follow, derived types take numbers after
// them. The C API's MPI_Datatype is the same number (one table for both
// doors, capi/mpi.h). The C++ door never reuses a number, so a copy of a
// freed handle is known as freed rather than taken for a newer type; the
// C door reuses the lowest free one, as MPICH and Open MPI do, because C
// programs come to rely on it (MPICH's datatype/indexed_misc frees a type
// and goes on using a copy of its handle for the next type it creates).
// The table is shared by the process's ranks (the unit tests run ranks as
// threads) and locked.
#include <mutex>

#include "core/api/api_detail.hpp"
#include "core/base/constants.hpp"

namespace lumpi {

using detail::Access;
using core::Basic;
using core::Pair;

namespace {

constexpr int basic_id(Basic b) { return 1 + int(b); }
constexpr int pair_id(Pair p) { return 1 + int(Basic::Count_) + int(p); }
constexpr int kFirstDerived = pair_id(Pair::Count_);

struct Table {
  std::mutex lock;
  std::vector<core::TypePtr> types;  // index = id; null: DATATYPE_NULL or freed
};

Table& table() {
  static Table* t = [] {
    auto* v = new Table;
    v->types.resize(size_t(kFirstDerived));
    for (int b = 0; b < int(Basic::Count_); ++b) v->types[size_t(basic_id(Basic(b)))] = core::Datatype::basic(Basic(b));
    for (int p = 0; p < int(Pair::Count_); ++p) v->types[size_t(pair_id(Pair(p)))] = core::Datatype::pair(Pair(p));
    return v;
  }();
  return *t;
}

constexpr Datatype basic(Basic b) { return Access::datatype(basic_id(b)); }
constexpr Datatype pair(Pair p) { return Access::datatype(pair_id(p)); }

// Runs make() (which validates and builds) as the call func, with errors
// as Exceptions.
template <class F>
Datatype made(const char* func, F&& make) {
  detail::ApiCall in(func);
  return detail::guarded([&] { return detail::add_type(make()); });
}

}  // namespace

extern const Datatype DATATYPE_NULL = Datatype();
extern const Datatype CHAR = basic(Basic::Char), SIGNED_CHAR = basic(Basic::SignedChar),
                      UNSIGNED_CHAR = basic(Basic::UnsignedChar), BYTE = basic(Basic::Byte),
                      SHORT = basic(Basic::Short), UNSIGNED_SHORT = basic(Basic::UnsignedShort),
                      INT = basic(Basic::Int), UNSIGNED = basic(Basic::Unsigned), LONG = basic(Basic::Long),
                      UNSIGNED_LONG = basic(Basic::UnsignedLong), LONG_LONG = basic(Basic::LongLong),
                      UNSIGNED_LONG_LONG = basic(Basic::UnsignedLongLong), FLOAT = basic(Basic::Float),
                      DOUBLE = basic(Basic::Double), LONG_DOUBLE = basic(Basic::LongDouble),
                      WCHAR = basic(Basic::Wchar), PACKED = basic(Basic::Packed);
extern const Datatype BOOL = basic(Basic::CxxBool), COMPLEX = basic(Basic::CxxFloatComplex),
                      DOUBLE_COMPLEX = basic(Basic::CxxDoubleComplex),
                      LONG_DOUBLE_COMPLEX = basic(Basic::CxxLongDoubleComplex);
extern const Datatype INT8_T = basic(Basic::Int8), INT16_T = basic(Basic::Int16), INT32_T = basic(Basic::Int32),
                      INT64_T = basic(Basic::Int64), UINT8_T = basic(Basic::Uint8),
                      UINT16_T = basic(Basic::Uint16), UINT32_T = basic(Basic::Uint32),
                      UINT64_T = basic(Basic::Uint64);
extern const Datatype AINT = basic(Basic::Aint), OFFSET = basic(Basic::Offset), COUNT = basic(Basic::Count);
extern const Datatype FLOAT_INT = pair(Pair::FloatInt), DOUBLE_INT = pair(Pair::DoubleInt),
                      LONG_INT = pair(Pair::LongInt), TWOINT = pair(Pair::TwoInt), SHORT_INT = pair(Pair::ShortInt),
                      LONG_DOUBLE_INT = pair(Pair::LongDoubleInt), TWOREAL = pair(Pair::TwoReal),
                      TWODOUBLE_PRECISION = pair(Pair::TwoDoublePrecision), TWOINTEGER = pair(Pair::TwoInteger);

namespace detail {

core::TypePtr type_of(const Datatype& t, std::string_view func, std::string_view what) {
  if (t.Is_null()) fail(ERR_TYPE, func, std::string(what) + " is DATATYPE_NULL");
  Table& tab = table();
  std::lock_guard<std::mutex> g(tab.lock);
  if (t.Id() < 0 || size_t(t.Id()) >= tab.types.size())
    fail(ERR_TYPE, func, std::string(what) + " " + std::to_string(t.Id()) + " is not a datatype");
  if (!tab.types[size_t(t.Id())]) fail(ERR_TYPE, func, std::string(what) + " has been freed");
  return tab.types[size_t(t.Id())];
}

core::TypePtr usable_type(const Datatype& t, std::string_view func, std::string_view what) {
  core::TypePtr p = type_of(t, func, what);
  p->check_usable(func, what);
  return p;
}

Datatype add_type(core::TypePtr t, bool reuse) {
  Table& tab = table();
  std::lock_guard<std::mutex> g(tab.lock);
  size_t id = reuse ? size_t(kFirstDerived) : tab.types.size();
  while (id < tab.types.size() && tab.types[id]) ++id;
  if (id == tab.types.size()) tab.types.emplace_back();
  tab.types[id] = std::move(t);
  note_made(core::check::Kind::Datatype, int64_t(id), "a datatype constructor");
  return Access::datatype(int(id));
}

Datatype handle_of(const core::TypePtr& t) {
  if (t->predefined()) {
    Table& tab = table();
    std::lock_guard<std::mutex> g(tab.lock);
    for (int id = 1; id < kFirstDerived; ++id)
      if (tab.types[size_t(id)] == t) return Access::datatype(id);
  }
  return add_type(t);
}

void forget_type(const Datatype& t) {
  note_gone(core::check::Kind::Datatype, t.Id());
  Table& tab = table();
  std::lock_guard<std::mutex> g(tab.lock);
  if (t.Id() >= kFirstDerived && size_t(t.Id()) < tab.types.size()) tab.types[size_t(t.Id())].reset();
}

}  // namespace detail

using detail::type_of;

// ---- constructors ---------------------------------------------------------------------

namespace {

// n entries of a (ERR_ARG naming what when n > 0 and a is null).
template <class T, class U = T>
std::vector<U> array(int n, const T* a, std::string_view func, const char* what) {
  if (n > 0 && !a) detail::fail(ERR_ARG, func, std::string(what) + " is null");
  return n > 0 ? std::vector<U>(a, a + n) : std::vector<U>{};
}

void check_n(int n, std::string_view func, const char* what = "count") {
  if (n < 0) detail::fail(ERR_COUNT, func, std::string(what) + " " + std::to_string(n) + " is negative");
}

}  // namespace

Datatype Datatype::Create_contiguous(int count) const {
  const char* f = "MPI_Type_contiguous";
  return made(f, [&] { return core::Datatype::contiguous(count, type_of(*this, f, "oldtype")); });
}

Datatype Datatype::Create_vector(int count, int blocklength, int stride) const {
  const char* f = "MPI_Type_vector";
  return made(f, [&] {
    return core::Datatype::vector(count, blocklength, stride, type_of(*this, f, "oldtype"));
  });
}

Datatype Datatype::Create_hvector(int count, int blocklength, Aint stride) const {
  const char* f = "MPI_Type_create_hvector";
  return made(f, [&] { return core::Datatype::hvector(count, blocklength, stride, type_of(*this, f, "oldtype")); });
}

Datatype Datatype::Create_indexed(int count, const int blocklengths[], const int displacements[]) const {
  const char* f = "MPI_Type_indexed";
  return made(f, [&] {
    check_n(count, f);
    return core::Datatype::indexed(array(count, blocklengths, f, "array_of_blocklengths"),
                                   array(count, displacements, f, "array_of_displacements"), type_of(*this, f, "oldtype"));
  });
}

Datatype Datatype::Create_hindexed(int count, const int blocklengths[], const Aint displacements[]) const {
  const char* f = "MPI_Type_create_hindexed";
  return made(f, [&] {
    check_n(count, f);
    return core::Datatype::hindexed(array(count, blocklengths, f, "array_of_blocklengths"),
                                    array(count, displacements, f, "array_of_displacements"),
                                    type_of(*this, f, "oldtype"));
  });
}

Datatype Datatype::Create_indexed_block(int count, int blocklength, const int displacements[]) const {
  const char* f = "MPI_Type_create_indexed_block";
  return made(f, [&] {
    check_n(count, f);
    return core::Datatype::indexed_block(blocklength, array(count, displacements, f, "array_of_displacements"),
                                         type_of(*this, f, "oldtype"));
  });
}

Datatype Datatype::Create_hindexed_block(int count, int blocklength, const Aint displacements[]) const {
  const char* f = "MPI_Type_create_hindexed_block";
  return made(f, [&] {
    check_n(count, f);
    return core::Datatype::hindexed_block(blocklength, array(count, displacements, f, "array_of_displacements"),
                                          type_of(*this, f, "oldtype"));
  });
}

Datatype Datatype::Create_struct(int count, const int blocklengths[], const Aint displacements[],
                                 const Datatype types[]) {
  const char* f = "MPI_Type_create_struct";
  return made(f, [&] {
    check_n(count, f);
    std::vector<core::TypePtr> ts;
    for (const Datatype& t : array(count, types, f, "array_of_types"))
      ts.push_back(type_of(t, f, "array_of_types[" + std::to_string(ts.size()) + "]"));
    return core::Datatype::create_struct(array(count, blocklengths, f, "array_of_blocklengths"),
                                         array(count, displacements, f, "array_of_displacements"), ts);
  });
}

Datatype Datatype::Create_subarray(int ndims, const int sizes[], const int subsizes[], const int starts[],
                                   int order) const {
  const char* f = "MPI_Type_create_subarray";
  return made(f, [&] {
    if (ndims <= 0) detail::fail(ERR_ARG, f, "ndims must be positive, got " + std::to_string(ndims));
    if (order != ORDER_C && order != ORDER_FORTRAN)
      detail::fail(ERR_ARG, f, "order must be ORDER_C or ORDER_FORTRAN, got " + std::to_string(order));
    return core::Datatype::subarray(array(ndims, sizes, f, "array_of_sizes"),
                                    array(ndims, subsizes, f, "array_of_subsizes"),
                                    array(ndims, starts, f, "array_of_starts"), core::Order(order),
                                    type_of(*this, f, "oldtype"));
  });
}

Datatype Datatype::Create_darray(int size, int rank, int ndims, const int gsizes[], const int distribs[],
                                 const int dargs[], const int psizes[], int order) const {
  const char* f = "MPI_Type_create_darray";
  return made(f, [&] {
    if (ndims <= 0) detail::fail(ERR_ARG, f, "ndims must be positive, got " + std::to_string(ndims));
    core::DarrayArgs a{size, rank, array(ndims, gsizes, f, "array_of_gsizes"), {},
                       array(ndims, dargs, f, "array_of_dargs"), array(ndims, psizes, f, "array_of_psizes"),
                       core::Order(order)};
    for (int d : array(ndims, distribs, f, "array_of_distribs")) a.distribs.push_back(core::Distribution(d));
    return core::Datatype::darray(a, type_of(*this, f, "oldtype"));
  });
}

Datatype Datatype::Create_resized(Aint lb, Aint extent) const {
  const char* f = "MPI_Type_create_resized";
  return made(f, [&] { return core::Datatype::resized(type_of(*this, f, "oldtype"), lb, extent); });
}

// The copy callbacks of this type's attributes run (api_type_attr.cpp); if
// one fails, the new type is dropped.
Datatype Datatype::Dup() const {
  const char* f = "MPI_Type_dup";
  detail::ApiCall in(f);
  return detail::guarded([&] {
    Datatype d = detail::add_type(core::Datatype::dup(type_of(*this, f, "oldtype")));
    try {
      detail::type_copy_attrs(*this, d, f);
    } catch (...) {
      detail::forget_type(d);
      throw;
    }
    return d;
  });
}

// ---- state ----------------------------------------------------------------------------

void Datatype::Commit() {
  detail::guarded([&] { type_of(*this, "MPI_Type_commit")->commit(); });
}

void Datatype::Free() {
  const char* f = "MPI_Type_free";
  detail::guarded([&] {
    core::TypePtr p = type_of(*this, f);
    if (p->predefined()) detail::fail(ERR_TYPE, f, "cannot free the predefined datatype " + p->name());
    detail::type_delete_attrs(*this, f);
    p->free(f);
    detail::forget_type(*this);
    *this = DATATYPE_NULL;
  });
}

// ---- queries --------------------------------------------------------------------------

int Datatype::Get_size() const {
  return detail::guarded([&] {
    std::int64_t s = type_of(*this, "MPI_Type_size")->size();
    return s > INT32_MAX ? UNDEFINED : int(s);
  });
}

void Datatype::Get_extent(Aint& lb, Aint& extent) const {
  detail::guarded([&] {
    core::TypePtr p = type_of(*this, "MPI_Type_get_extent");
    lb = p->lb();
    extent = p->extent();
  });
}

void Datatype::Get_true_extent(Aint& true_lb, Aint& true_extent) const {
  detail::guarded([&] {
    core::TypePtr p = type_of(*this, "MPI_Type_get_true_extent");
    true_lb = p->true_lb();
    true_extent = p->true_extent();
  });
}

void Datatype::Get_envelope(int& num_integers, int& num_addresses, int& num_datatypes, int& combiner) const {
  detail::guarded([&] {
    core::TypeEnvelope e = type_of(*this, "MPI_Type_get_envelope")->envelope();
    num_integers = e.num_integers;
    num_addresses = e.num_addresses;
    num_datatypes = e.num_datatypes;
    combiner = int(e.combiner) + COMBINER_NAMED;  // the core's order
  });
}

void Datatype::Get_contents(int max_integers, int max_addresses, int max_datatypes, int integers[],
                            Aint addresses[], Datatype datatypes[]) const {
  const char* f = "MPI_Type_get_contents";
  detail::ApiCall in(f);
  detail::guarded([&] {
    core::TypePtr p = type_of(*this, f);
    if (p->predefined()) detail::fail(ERR_TYPE, f, "datatype is predefined (COMBINER_NAMED): it has no contents");
    core::TypeContents c = p->contents();
    if (max_integers < int(c.integers.size()) || max_addresses < int(c.addresses.size()) ||
        max_datatypes < int(c.types.size()))
      detail::fail(ERR_ARG, f,
                   "the arrays are too small: the type has " + std::to_string(c.integers.size()) + " integers, " +
                       std::to_string(c.addresses.size()) + " addresses and " + std::to_string(c.types.size()) +
                       " datatypes");
    std::copy(c.integers.begin(), c.integers.end(), integers);
    std::copy(c.addresses.begin(), c.addresses.end(), addresses);
    for (size_t i = 0; i < c.types.size(); ++i) datatypes[i] = detail::handle_of(c.types[i]);
  });
}

Datatype Datatype::Match_size(int typeclass, int size) {
  const char* f = "MPI_Type_match_size";
  return detail::guarded([&] {
    return basic(core::match_size(core::TypeClass(typeclass), size, f));
  });
}

void Datatype::Set_name(const std::string& name) {
  detail::guarded([&] { type_of(*this, "MPI_Type_set_name")->set_name(core::object_name(name)); });
}

std::string Datatype::Get_name() const {
  if (Is_null()) return "MPI_DATATYPE_NULL";
  return detail::guarded([&] { return type_of(*this, "MPI_Type_get_name")->name(); });
}

int Status::Get_elements(const Datatype& type) const {
  const char* f = "MPI_Get_elements";
  return detail::guarded([&] {
    core::TypePtr p = type_of(type, f);
    p->check_committed(f);
    std::int64_t n = p->size() == 0 ? 0 : p->elements_of(std::int64_t(Bytes()));
    return n > INT32_MAX ? UNDEFINED : int(n);
  });
}

}  // namespace lumpi
