// lua/bind_datatype.cpp: datatypes in Lua (API.md §14, MPI-3.1 chapter 4,
// seed §6.7.4 and §6.8): the predefined handles (mpi.INT ... mpi.TWO_INT),
// the constructors, commit/free, the queries, names, and attribute caching
// through the shared machinery of lua/attr.hpp. The type maps themselves are
// core/datatype's.
//
// Naming (API.md §1, §14): a call whose first MPI argument is the type is a
// method (MPI_Type_commit -> t:commit(), MPI_Type_create_resized ->
// t:create_resized(lb, extent)); the others are mpi.type_* functions with
// MPI's arguments in MPI's order, counts implied by the sequences
// (mpi.type_indexed(blocklengths, displacements, t)).
//
// A datatype object has one Lua userdata: pushing it again (get_contents of
// a predefined type) finds it in a weak registry table, so == and rawequal
// both hold. Every check raises (MPI_ERR_TYPE, _COUNT, _ARG, _KEYVAL) before
// anything changes.
#include <cctype>
#include <string>
#include <vector>

#include "core/base/constants.hpp"
#include "core/datatype/datatype.hpp"
#include "lua/attr.hpp"
#include "lua/binding.hpp"
#include "lua/typed.hpp"

namespace lumpi::lua {

using core::ErrClass;
using core::fail;
using core::TypePtr;

namespace {

constexpr const char* kTypeMeta = "lumpi.Datatype";
constexpr const char* kHandlesKey = "lumpi.type_handles";  // serial -> userdata, weak values

struct TypeBox {
  TypePtr type;
};

// ---- handles ------------------------------------------------------------------------

// Pushes the weak table of handles, creating it on first use.
void push_handles(lua_State* L) {
  if (luaL_getsubtable(L, LUA_REGISTRYINDEX, kHandlesKey)) return;  // it existed
  lua_createtable(L, 0, 1);  // its metatable
  lua_pushliteral(L, "v");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
}

// Pushes the handle of t: the existing userdata if there is one; returns 1.
int push_type(lua_State* L, const TypePtr& t) {
  push_handles(L);
  lua_Integer key = lua_Integer(t->serial());
  if (lua_rawgeti(L, -1, key) == LUA_TUSERDATA) {  // push handles[serial]
    lua_remove(L, -2);                            // drop the table
    return 1;
  }
  lua_pop(L, 1);
  push_userdata(L, kTypeMeta, TypeBox{t});
  lua_pushvalue(L, -1);
  lua_rawseti(L, -3, key);  // handles[serial] = ud, pops the copy
  lua_remove(L, -2);        // drop the table
  return 1;
}

TypeBox* test_type_box(lua_State* L, int idx) { return test_userdata<TypeBox>(L, idx, kTypeMeta); }

// The datatype at idx, even if freed elsewhere (the core checks that where it
// matters); a handle t:free() emptied raises MPI_ERR_TYPE here.
TypePtr check_type_any(lua_State* L, int idx, std::string_view what, std::string_view func) {
  TypeBox* box = test_type_box(L, idx);
  if (!box) fail(ErrClass::Type, func, std::string(what) + " must be a datatype, got " + luaL_typename(L, idx));
  if (!box->type) fail(ErrClass::Type, func, std::string(what) + " has been freed");
  return box->type;
}

// The datatype at idx, not freed.
core::Datatype& check_type(lua_State* L, int idx, std::string_view func) {
  TypePtr t = check_type_any(L, idx, "datatype", func);
  if (t->freed()) fail(ErrClass::Type, func, "the datatype has been freed");
  return *t;
}

AttrObj attr_obj(const core::Datatype& t) { return {AttrKind::Type, t.serial()}; }

// ---- argument sequences ----------------------------------------------------------------

std::vector<TypePtr> check_type_sequence(lua_State* L, int idx, std::string_view func) {
  if (!lua_istable(L, idx))
    fail(ErrClass::Arg, func, std::string("types must be a sequence of datatypes, got ") + luaL_typename(L, idx));
  lua_Integer n = lua_Integer(lua_rawlen(L, idx));
  std::vector<TypePtr> out;
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, idx, i);  // push types[i]
    out.push_back(check_type_any(L, -1, "types[" + std::to_string(i) + "]", func));
    lua_pop(L, 1);
  }
  return out;
}

core::Order check_order(lua_State* L, int idx, std::string_view func) {
  const char* s = lua_tostring(L, idx);
  if (lua_type(L, idx) == LUA_TSTRING && std::string(s) == "c") return core::Order::C;
  if (lua_type(L, idx) == LUA_TSTRING && std::string(s) == "fortran") return core::Order::Fortran;
  fail(ErrClass::Arg, func,
       std::string("order must be mpi.ORDER_C or mpi.ORDER_FORTRAN, got ") +
           (lua_type(L, idx) == LUA_TSTRING ? std::string("'") + s + "'" : luaL_typename(L, idx)));
}

// ---- constructors (mpi.type_*) ------------------------------------------------------------

int l_contiguous(lua_State* L) {
  const char* f = "MPI_Type_contiguous";
  int count = check_int(L, 1, "count", f, ErrClass::Count);
  return push_type(L, core::Datatype::contiguous(count, check_type_any(L, 2, "oldtype", f)));
}

int l_vector(lua_State* L) {
  const char* f = "MPI_Type_vector";
  int count = check_int(L, 1, "count", f, ErrClass::Count);
  int bl = check_int(L, 2, "blocklength", f);
  int stride = check_int(L, 3, "stride", f);
  return push_type(L, core::Datatype::vector(count, bl, stride, check_type_any(L, 4, "oldtype", f)));
}

int l_hvector(lua_State* L) {
  const char* f = "MPI_Type_create_hvector";
  int count = check_int(L, 1, "count", f, ErrClass::Count);
  int bl = check_int(L, 2, "blocklength", f);
  lua_Integer stride = check_integer(L, 3, "stride", f);
  return push_type(L, core::Datatype::hvector(count, bl, stride, check_type_any(L, 4, "oldtype", f)));
}

int l_indexed(lua_State* L) {
  const char* f = "MPI_Type_indexed";
  auto bls = check_int_sequence(L, 1, "blocklengths", f);
  auto displs = check_int_sequence(L, 2, "displacements", f);
  return push_type(L, core::Datatype::indexed(bls, displs, check_type_any(L, 3, "oldtype", f)));
}

int l_hindexed(lua_State* L) {
  const char* f = "MPI_Type_create_hindexed";
  auto bls = check_int_sequence(L, 1, "blocklengths", f);
  auto displs = check_int64_sequence(L, 2, "displacements", f);
  return push_type(L, core::Datatype::hindexed(bls, displs, check_type_any(L, 3, "oldtype", f)));
}

int l_indexed_block(lua_State* L) {
  const char* f = "MPI_Type_create_indexed_block";
  int bl = check_int(L, 1, "blocklength", f);
  auto displs = check_int_sequence(L, 2, "displacements", f);
  return push_type(L, core::Datatype::indexed_block(bl, displs, check_type_any(L, 3, "oldtype", f)));
}

int l_hindexed_block(lua_State* L) {
  const char* f = "MPI_Type_create_hindexed_block";
  int bl = check_int(L, 1, "blocklength", f);
  auto displs = check_int64_sequence(L, 2, "displacements", f);
  return push_type(L, core::Datatype::hindexed_block(bl, displs, check_type_any(L, 3, "oldtype", f)));
}

int l_struct(lua_State* L) {
  const char* f = "MPI_Type_create_struct";
  auto bls = check_int_sequence(L, 1, "blocklengths", f);
  auto displs = check_int64_sequence(L, 2, "displacements", f);
  auto types = check_type_sequence(L, 3, f);
  return push_type(L, core::Datatype::create_struct(bls, displs, types));
}

int l_subarray(lua_State* L) {
  const char* f = "MPI_Type_create_subarray";
  auto sizes = check_int_sequence(L, 1, "sizes", f);
  auto subsizes = check_int_sequence(L, 2, "subsizes", f);
  auto starts = check_int_sequence(L, 3, "starts", f);
  core::Order order = check_order(L, 4, f);
  return push_type(L, core::Datatype::subarray(sizes, subsizes, starts, order, check_type_any(L, 5, "oldtype", f)));
}

// mpi.type_create_darray(size, rank, gsizes, distribs, dargs, psizes, order, oldtype):
// distribs are mpi.DISTRIBUTE_BLOCK / _CYCLIC / _NONE ("block", "cyclic",
// "none"), a darg a count or mpi.DISTRIBUTE_DFLT_DARG.
const char* const kDistributions[] = {"none", "block", "cyclic"};

std::vector<core::Distribution> check_distribs(lua_State* L, int idx, const char* f) {
  luaL_checktype(L, idx, LUA_TTABLE);
  std::vector<core::Distribution> out;
  for (lua_Integer i = 1, n = luaL_len(L, idx); i <= n; ++i) {
    lua_rawgeti(L, idx, i);
    const char* s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : nullptr;
    int d = 0;
    while (s && d < 3 && std::string_view(s) != kDistributions[d]) ++d;
    lua_pop(L, 1);
    if (!s || d == 3)
      fail(ErrClass::Arg, f, "distribs[" + std::to_string(i) + "] must be mpi.DISTRIBUTE_BLOCK, _CYCLIC or _NONE");
    out.push_back(core::Distribution(d));
  }
  return out;
}

int l_darray(lua_State* L) {
  const char* f = "MPI_Type_create_darray";
  core::DarrayArgs a;
  a.size = check_int(L, 1, "size", f);
  a.rank = check_int(L, 2, "rank", f);
  a.gsizes = check_int_sequence(L, 3, "gsizes", f);
  a.distribs = check_distribs(L, 4, f);
  a.dargs = check_int_sequence(L, 5, "dargs", f);
  a.psizes = check_int_sequence(L, 6, "psizes", f);
  a.order = check_order(L, 7, f);
  return push_type(L, core::Datatype::darray(a, check_type_any(L, 8, "oldtype", f)));
}

// mpi.type_match_size(typeclass, size): typeclass mpi.TYPECLASS_INTEGER,
// _REAL or _COMPLEX ("integer", "real", "complex").
const char* const kTypeClasses[] = {"integer", "real", "complex"};

int l_match_size(lua_State* L) {
  const char* f = "MPI_Type_match_size";
  const char* s = lua_type(L, 1) == LUA_TSTRING ? lua_tostring(L, 1) : "";
  int c = 0;
  while (c < 3 && std::string_view(s) != kTypeClasses[c]) ++c;
  if (c == 3) fail(ErrClass::Arg, f, "typeclass must be mpi.TYPECLASS_INTEGER, _REAL or _COMPLEX");
  return push_type(L, core::Datatype::basic(core::match_size(core::TypeClass(c + 1), check_int(L, 2, "size", f), f)));
}

// ---- methods ------------------------------------------------------------------------------

int t_create_resized(lua_State* L) {
  const char* f = "MPI_Type_create_resized";
  TypePtr old = check_type_any(L, 1, "oldtype", f);
  lua_Integer lb = check_integer(L, 2, "lb", f);
  lua_Integer extent = check_integer(L, 3, "extent", f);
  return push_type(L, core::Datatype::resized(old, lb, extent));
}

// t:dup(): the copy callbacks of t's attributes run (seed §6.7.4); if one
// raises, the new type is freed again and the error raised.
int t_dup(lua_State* L) {
  const char* f = "MPI_Type_dup";
  TypePtr t = core::Datatype::dup(check_type_any(L, 1, "oldtype", f));
  push_type(L, t);
  try {
    copy_attrs(L, 1, attr_obj(*check_type_any(L, 1, "oldtype", f)), attr_obj(*t), f);
  } catch (...) {
    t->free(f);
    throw;
  }
  return 1;
}

int t_commit(lua_State* L) {
  check_type(L, 1, "MPI_Type_commit").commit();
  return 0;
}

// t:free(): delete callbacks first (seed §6.7.4); one that raises leaves the
// type alive with its remaining attributes. The handle then lets go of the
// C++ type at once (MPI sets it to MPI_DATATYPE_NULL).
int t_free(lua_State* L) {
  const char* f = "MPI_Type_free";
  core::Datatype& t = check_type(L, 1, f);
  if (t.predefined()) fail(ErrClass::Type, f, "cannot free the predefined datatype " + t.name());
  delete_attrs(L, 1, attr_obj(t), f);
  t.free(f);
  test_type_box(L, 1)->type.reset();  // types built from t hold it still
  return 0;
}

int t_size(lua_State* L) {
  lua_pushinteger(L, check_type(L, 1, "MPI_Type_size").size());
  return 1;
}

int t_get_extent(lua_State* L) {
  core::Datatype& t = check_type(L, 1, "MPI_Type_get_extent");
  lua_pushinteger(L, t.lb());
  lua_pushinteger(L, t.extent());
  return 2;
}

int t_get_true_extent(lua_State* L) {
  core::Datatype& t = check_type(L, 1, "MPI_Type_get_true_extent");
  lua_pushinteger(L, t.true_lb());
  lua_pushinteger(L, t.true_extent());
  return 2;
}

// "MPI_COMBINER_HINDEXED_BLOCK" -> "hindexed_block"
std::string combiner_value(core::Combiner c) {
  std::string s = core::combiner_name(c) + 13;  // after "MPI_COMBINER_"
  for (char& ch : s) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

// t:get_envelope() -> num_integers, num_addresses, num_datatypes, combiner
int t_get_envelope(lua_State* L) {
  core::TypeEnvelope e = check_type(L, 1, "MPI_Type_get_envelope").envelope();
  lua_pushinteger(L, e.num_integers);
  lua_pushinteger(L, e.num_addresses);
  lua_pushinteger(L, e.num_datatypes);
  lua_pushstring(L, combiner_value(e.combiner).c_str());
  return 4;
}

// t:get_contents() -> integers, addresses, datatypes (sequences). The order
// of a subarray or darray appears as mpi.ORDER_C / mpi.ORDER_FORTRAN, a
// darray's distributions as mpi.DISTRIBUTE_*.
int t_get_contents(lua_State* L) {
  core::Datatype& t = check_type(L, 1, "MPI_Type_get_contents");
  core::TypeContents c = t.contents();
  const core::Combiner k = t.envelope().combiner;
  const bool ordered = k == core::Combiner::Subarray || k == core::Combiner::Darray;
  const std::size_t ndims = k == core::Combiner::Darray ? std::size_t(c.integers[2]) : 0;
  lua_createtable(L, int(c.integers.size()), 0);
  for (std::size_t i = 0; i < c.integers.size(); ++i) {
    if (ordered && i + 1 == c.integers.size())
      lua_pushstring(L, c.integers[i] == int(core::Order::C) ? "c" : "fortran");
    else if (ndims && i >= 3 + ndims && i < 3 + 2 * ndims)
      lua_pushstring(L, kDistributions[c.integers[i]]);
    else
      lua_pushinteger(L, c.integers[i]);
    lua_rawseti(L, -2, lua_Integer(i + 1));
  }
  push_sequence(L, c.addresses);
  lua_createtable(L, int(c.types.size()), 0);
  for (std::size_t i = 0; i < c.types.size(); ++i) {
    push_type(L, c.types[i]);
    lua_rawseti(L, -2, lua_Integer(i + 1));
  }
  return 3;
}

// t:typemap() -> {{offset, basic type name, count, bytes each}, ...}: one element's map
// as runs of one basic type, in type-map order, adjacent entries merged
// (a lumpi extension, no MPI call; :draw pictures it).
int t_typemap(lua_State* L) {
  std::vector<core::Run> runs = check_type(L, 1, "MPI_Type_commit").typemap();
  lua_createtable(L, int(runs.size()), 0);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    lua_createtable(L, 3, 0);
    lua_pushinteger(L, runs[i].offset);
    lua_rawseti(L, -2, 1);
    lua_pushstring(L, core::basic_info(runs[i].basic).name);
    lua_rawseti(L, -2, 2);
    lua_pushinteger(L, runs[i].count);
    lua_rawseti(L, -2, 3);
    lua_pushinteger(L, lua_Integer(core::basic_info(runs[i].basic).size));
    lua_rawseti(L, -2, 4);
    lua_rawseti(L, -2, lua_Integer(i + 1));  // map[i+1] = {offset, name, count, size}
  }
  return 1;
}

int t_get_name(lua_State* L) {
  const std::string& n = check_type(L, 1, "MPI_Type_get_name").name();
  lua_pushlstring(L, n.data(), n.size());
  return 1;
}

// As c:set_name (core::object_name).
int t_set_name(lua_State* L) {
  core::Datatype& t = check_type(L, 1, "MPI_Type_set_name");
  t.set_name(core::object_name(check_string(L, 2, "name", "MPI_Type_set_name")));
  return 0;
}

int t_set_attr(lua_State* L) {
  const char* f = "MPI_Type_set_attr";
  set_attr(L, 1, attr_obj(check_type(L, 1, f)), f);
  return 0;
}

int t_get_attr(lua_State* L) {
  const char* f = "MPI_Type_get_attr";
  return get_attr(L, attr_obj(check_type(L, 1, f)), f);
}

int t_delete_attr(lua_State* L) {
  const char* f = "MPI_Type_delete_attr";
  delete_attr(L, 1, attr_obj(check_type(L, 1, f)), f);
  return 0;
}

int l_type_create_keyval(lua_State* L) { return create_keyval(L, AttrKind::Type, "MPI_Type_create_keyval"); }
int l_type_free_keyval(lua_State* L) { return free_keyval(L, AttrKind::Type, "MPI_Type_free_keyval"); }

// ---- metamethods -----------------------------------------------------------------------------

int type_gc(lua_State* L) {
  TypeBox* box = test_type_box(L, 1);
  if (!box) return 0;
  // The only handle of a type that was never freed: nothing can reach its
  // attributes again (get_contents makes new objects), so they go, without
  // callbacks (a finalizer must not raise).
  if (box->type && !box->type->freed()) forget_attrs(L, attr_obj(*box->type));
  box->~TypeBox();
  return 0;
}

int type_eq(lua_State* L) {
  TypeBox *a = test_type_box(L, 1), *b = test_type_box(L, 2);
  lua_pushboolean(L, a && b && a->type == b->type);
  return 1;
}

int type_tostring(lua_State* L) {
  const TypePtr& p = test_type_box(L, 1)->type;
  std::string s;
  if (!p || p->freed()) s = "datatype (freed)";
  else if (p->predefined()) s = "datatype " + p->name();
  else {
    const core::Datatype& t = *p;
    s = "datatype " + (t.name().empty() ? combiner_value(t.envelope().combiner) : "'" + t.name() + "'") +
        " size=" + std::to_string(t.size()) + " lb=" + std::to_string(t.lb()) +
        " extent=" + std::to_string(t.extent()) + (t.committed() ? "" : " (not committed)");
  }
  lua_pushstring(L, s.c_str());
  return 1;
}

const Reg kModuleFuncs[] = {
    {"type_contiguous", wrap<l_contiguous>},
    {"type_vector", wrap<l_vector>},
    {"type_create_hvector", wrap<l_hvector>},
    {"type_indexed", wrap<l_indexed>},
    {"type_create_hindexed", wrap<l_hindexed>},
    {"type_create_indexed_block", wrap<l_indexed_block>},
    {"type_create_hindexed_block", wrap<l_hindexed_block>},
    {"type_create_struct", wrap<l_struct>},
    {"type_create_subarray", wrap<l_subarray>},
    {"type_create_darray", wrap<l_darray>},
    {"type_match_size", wrap<l_match_size>},
    {"type_create_keyval", wrap<l_type_create_keyval>},
    {"type_free_keyval", wrap<l_type_free_keyval>},
};

const Reg kMethods[] = {
    {"commit", wrap<t_commit>},
    {"free", wrap<t_free>},
    {"dup", wrap<t_dup>},
    {"create_resized", wrap<t_create_resized>},
    {"size", wrap<t_size>},
    {"get_extent", wrap<t_get_extent>},
    {"get_true_extent", wrap<t_get_true_extent>},
    {"get_envelope", wrap<t_get_envelope>},
    {"get_contents", wrap<t_get_contents>},
    {"typemap", wrap<t_typemap>},
    {"get_name", wrap<t_get_name>},
    {"set_name", wrap<t_set_name>},
    {"set_attr", wrap<t_set_attr>},
    {"get_attr", wrap<t_get_attr>},
    {"delete_attr", wrap<t_delete_attr>},
};

// Lua names of the predefined types: C's without MPI_, a leading 2 as TWO_
// (MPI_2INT is mpi.TWO_INT, MPI_2REAL mpi.TWO_REAL).
void set_predefined(lua_State* L) {
  for (int b = 0; b < int(core::Basic::Count_); ++b) {
    TypePtr t = core::Datatype::basic(core::Basic(b));
    push_type(L, t);
    lua_setfield(L, -2, t->name().c_str() + 4);  // mpi.INT = handle
  }
  for (int p = 0; p < int(core::Pair::Count_); ++p) {
    TypePtr t = core::Datatype::pair(core::Pair(p));
    push_type(L, t);
    std::string name = t->name().substr(4);
    if (name[0] == '2') name = "TWO_" + name.substr(1);
    lua_setfield(L, -2, name.c_str());
  }
  lua_pushliteral(L, "c");
  lua_setfield(L, -2, "ORDER_C");
  lua_pushliteral(L, "fortran");
  lua_setfield(L, -2, "ORDER_FORTRAN");
  const char* const distribute_names[] = {"DISTRIBUTE_NONE", "DISTRIBUTE_BLOCK", "DISTRIBUTE_CYCLIC"};
  for (int d = 0; d < 3; ++d) {
    lua_pushstring(L, kDistributions[d]);
    lua_setfield(L, -2, distribute_names[d]);  // mpi.DISTRIBUTE_BLOCK = "block"
  }
  lua_pushinteger(L, core::kDefaultDarg);
  lua_setfield(L, -2, "DISTRIBUTE_DFLT_DARG");
  const char* const typeclass_names[] = {"TYPECLASS_INTEGER", "TYPECLASS_REAL", "TYPECLASS_COMPLEX"};
  for (int c = 0; c < 3; ++c) {
    lua_pushstring(L, kTypeClasses[c]);
    lua_setfield(L, -2, typeclass_names[c]);  // mpi.TYPECLASS_REAL = "real"
  }
  for (int c = 0; c <= int(core::Combiner::Darray); ++c) {
    std::string v = combiner_value(core::Combiner(c));
    lua_pushstring(L, v.c_str());
    lua_setfield(L, -2, core::combiner_name(core::Combiner(c)) + 4);  // mpi.COMBINER_VECTOR = "vector"
  }
  set_attr_callbacks(L, "TYPE_");
}

}  // namespace

TypePtr check_usable_type(lua_State* L, int idx, std::string_view func) {
  TypePtr t = check_type_any(L, idx, "datatype", func);
  t->check_usable(func);
  return t;
}

// Adds the datatype functions, handles and constants to the mpi table at -1.
void open_datatype(lua_State* L) {
  new_metatable(L, kTypeMeta, "datatype", {.gc = type_gc, .eq = type_eq, .tostring = type_tostring}, kMethods);
  lua_pop(L, 1);                   // the metatable
  set_funcs(L, kModuleFuncs);
  set_predefined(L);
}

}  // namespace lumpi::lua
