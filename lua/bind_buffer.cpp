// lua/bind_buffer.cpp: typed buffers (mpi.buffer(datatype, count)), the
// (buffer, count, datatype) triples point-to-point accepts, the address of
// a buffer's element (mpi.get_address, MPI_Get_address: a dynamic window's
// target_disp, lua/bind_win_flavors.cpp), and the status
// methods get_count / get_elements (see lua/typed.hpp).
//
// A buffer is one userdata: a header, then count elements of a predefined
// type laid out as a C array of that type (zeroed); or, for a view
// (push_buffer_view: a shared-memory window's segment), the header alone,
// pointing at memory it keeps alive through its keeper. b[i] (1-based, as Lua)
// reads element i: an integer for the integer types, a number for the
// floating types (long double through double), a boolean for C_BOOL, and
// {value, index} for the pair types; out-of-range reads give nil (so
// ipairs works), writes there raise. #b is the element count.
#include <complex>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core/base/constants.hpp"
#include "lua/binding.hpp"
#include "lua/typed.hpp"

namespace lumpi::lua {

using core::Basic;
using core::with_basic;
using core::ErrClass;
using core::fail;

namespace {

constexpr char kBufferMeta[] = "lumpi.Buffer";
constexpr const char* kStatusMeta = "lumpi.Status";
constexpr const char* kStatusBytesKey = "lumpi.status_bytes";  // status -> bytes, weak keys

struct alignas(16) BufferBox {
  core::TypePtr type;
  std::int64_t count;
  std::int64_t bytes;
  char* memory;                  // the elements: right after the header, or a view's
  std::shared_ptr<void> keeper;  // a view's owner of that memory (empty otherwise)
  char* data() { return memory; }
};

BufferBox* test_buffer(lua_State* L, int idx) { return test_userdata<BufferBox>(L, idx, kBufferMeta); }

// ---- elements -------------------------------------------------------------------

// A complex number is the pair {re, im} in Lua.
template <class T>
void push_as(lua_State* L, const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  if constexpr (core::is_complex_type<T>) {
    lua_createtable(L, 2, 0);
    lua_pushnumber(L, lua_Number(v.real()));
    lua_rawseti(L, -2, 1);
    lua_pushnumber(L, lua_Number(v.imag()));
    lua_rawseti(L, -2, 2);
  } else if constexpr (std::is_same_v<T, bool>) lua_pushboolean(L, v);
  else if constexpr (std::is_floating_point_v<T>) lua_pushnumber(L, lua_Number(v));
  else lua_pushinteger(L, lua_Integer(v));
}

// Stores the value at idx as a T at p; MPI_ERR_ARG naming `what` if it is
// not a T's value (an integer out of T's range, a float for an integer).
template <class T>
void store_as(lua_State* L, int idx, char* p, const std::string& what) {
  T v;
  if constexpr (core::is_complex_type<T>) {
    if (!lua_istable(L, idx)) fail(ErrClass::Arg, "mpi.buffer", what + " must be a complex number {re, im}");
    lua_rawgeti(L, idx, 1);
    lua_rawgeti(L, idx, 2);
    if (lua_type(L, -2) != LUA_TNUMBER || lua_type(L, -1) != LUA_TNUMBER)
      fail(ErrClass::Arg, "mpi.buffer", what + " must be a complex number {re, im} of two numbers");
    v = T(typename T::value_type(lua_tonumber(L, -2)), typename T::value_type(lua_tonumber(L, -1)));
    lua_pop(L, 2);
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!lua_isboolean(L, idx)) fail(ErrClass::Arg, "mpi.buffer", what + " must be a boolean");
    v = lua_toboolean(L, idx);
  } else if constexpr (std::is_floating_point_v<T>) {
    if (lua_type(L, idx) != LUA_TNUMBER) fail(ErrClass::Arg, "mpi.buffer", what + " must be a number");
    v = T(lua_tonumber(L, idx));
  } else {
    int isnum = 0;
    lua_Integer x = lua_tointegerx(L, idx, &isnum);
    if (!isnum) fail(ErrClass::Arg, "mpi.buffer", what + " must be an integer");
    if constexpr (sizeof(T) < sizeof(lua_Integer)) {
      if (x < lua_Integer(std::numeric_limits<T>::min()) || x > lua_Integer(std::numeric_limits<T>::max()))
        fail(ErrClass::Arg, "mpi.buffer", what + " = " + std::to_string(x) + " does not fit the element type");
    }
    v = T(x);  // 64-bit types: the integer's bits (unsigned above 2^63 read back negative)
  }
  std::memcpy(p, &v, sizeof v);
}

// The parts of one element of a predefined type: its one basic value, or
// a pair's value and index (core::pair_info: MPI_2INT's two ints are a
// pair, not one run of two).
struct Parts {
  int n;
  core::Basic basic[2];
  std::int64_t offset[2];
};

Parts element_parts(const BufferBox& b) {
  if (auto p = b.type->pair_of()) {
    const core::PairInfo& pi = core::pair_info(*p);
    return {2, {pi.value, pi.index}, {0, pi.index_offset}};
  }
  return {1, {b.type->runs()[0].basic, core::Basic::Count_}, {0, 0}};
}

void push_element(lua_State* L, BufferBox& b, std::int64_t i) {
  const char* p = b.data() + i * b.type->extent();
  const Parts e = element_parts(b);
  if (e.n == 1) return with_basic(e.basic[0], [&]<class T>() { push_as<T>(L, p); });
  lua_createtable(L, 2, 0);  // a pair: {value, index}
  for (int k = 0; k < 2; ++k) {
    with_basic(e.basic[k], [&]<class T>() { push_as<T>(L, p + e.offset[k]); });
    lua_rawseti(L, -2, k + 1);
  }
}

void store_element(lua_State* L, BufferBox& b, std::int64_t i, int idx) {
  char* p = b.data() + i * b.type->extent();
  const Parts e = element_parts(b);
  std::string what = "element " + std::to_string(i + 1);
  if (e.n == 1) return with_basic(e.basic[0], [&]<class T>() { store_as<T>(L, idx, p, what); });
  if (!lua_istable(L, idx)) fail(ErrClass::Arg, "mpi.buffer", what + " must be a pair {value, index}");
  for (int k = 0; k < 2; ++k) {
    lua_rawgeti(L, idx, k + 1);  // push pair[k+1]
    with_basic(e.basic[k], [&]<class T>() { store_as<T>(L, -1, p + e.offset[k], what + (k ? ".index" : ".value")); });
    lua_pop(L, 1);
  }
}

// ---- the buffer object ---------------------------------------------------------------

// Pushes a buffer of count zeroed elements of t (checked by the caller).
BufferBox* new_buffer(lua_State* L, const core::TypePtr& t, std::int64_t count) {
  std::int64_t bytes = count * t->extent();
  void* mem = lua_newuserdatauv(L, sizeof(BufferBox) + size_t(bytes), 0);
  auto* box = new (mem) BufferBox{t, count, bytes, static_cast<char*>(mem) + sizeof(BufferBox), nullptr};
  std::memset(box->data(), 0, size_t(bytes));
  luaL_setmetatable(L, kBufferMeta);
  return box;
}

// mpi.buffer(datatype, count [, values]): count zeroed elements of a
// predefined type, the first #values set from the sequence values.
int l_buffer(lua_State* L) {
  const char* func = "mpi.buffer";
  core::TypePtr t = check_usable_type(L, 1, func);
  lua_Integer count = check_integer(L, 2, "count", func);
  if (count < 0) fail(ErrClass::Count, func, "count = " + std::to_string(count) + " is negative");
  if (!t->predefined() || t->name() == "MPI_PACKED")
    fail(ErrClass::Type, func,
         "a buffer holds a predefined type's elements (MPI_INT, MPI_DOUBLE_INT...); describe other "
         "layouts with a derived datatype at send and receive time");
  if (count > (std::int64_t(1) << 40) / t->extent())
    fail(ErrClass::NoMem, func, "count = " + std::to_string(count) + " elements is too large");
  if (!lua_isnoneornil(L, 3) && !lua_istable(L, 3))
    fail(ErrClass::Arg, func, std::string("values must be a sequence, got ") + luaL_typename(L, 3));
  BufferBox* box = new_buffer(L, t, count);
  if (lua_istable(L, 3)) {
    lua_Integer n = std::min<lua_Integer>(lua_Integer(lua_rawlen(L, 3)), count);
    for (lua_Integer i = 1; i <= n; ++i) {
      lua_rawgeti(L, 3, i);  // push values[i]
      store_element(L, *box, i - 1, lua_gettop(L));
      lua_pop(L, 1);
    }
  }
  return 1;
}

int buffer_index(lua_State* L) {
  BufferBox* b = test_buffer(L, 1);
  int isnum = 0;
  lua_Integer i = lua_tointegerx(L, 2, &isnum);
  if (!isnum || i < 1 || i > b->count) {
    lua_pushnil(L);
    return 1;
  }
  push_element(L, *b, i - 1);
  return 1;
}

int buffer_newindex(lua_State* L) {
  BufferBox* b = test_buffer(L, 1);
  int isnum = 0;
  lua_Integer i = lua_tointegerx(L, 2, &isnum);
  if (!isnum || i < 1 || i > b->count)
    fail(ErrClass::Arg, "mpi.buffer",
         "index " + (isnum ? std::to_string(i) : std::string("of type ") + luaL_typename(L, 2)) +
             " is outside 1.." + std::to_string(b->count));
  store_element(L, *b, i - 1, 3);
  return 0;
}

// Element assignment is no MPI call: its errors always raise, whatever
// COMM_WORLD's error handler (a `nil, err` result would vanish in an
// assignment).
template <int (*F)(lua_State*)>
int raising(lua_State* L) {
  try {
    return F(L);
  } catch (const core::Error& e) {
    push_error(L, e);
  }
  return lua_error(L);  // no C++ object is alive here
}

int buffer_len(lua_State* L) {
  lua_pushinteger(L, test_buffer(L, 1)->count);
  return 1;
}

int buffer_tostring(lua_State* L) {
  BufferBox* b = test_buffer(L, 1);
  lua_pushfstring(L, "buffer %s[%I]", b->type->name().c_str() + 4, lua_Integer(b->count));
  return 1;
}

// mpi.get_address(buffer [, index]) -> address of element index (1-based,
// default 1; #buffer + 1 is the address just past the end), MPI_Get_address's.
int l_get_address(lua_State* L) {
  const char* func = "MPI_Get_address";
  BufferBox* b = test_buffer(L, 1);
  if (!b) fail(ErrClass::Buffer, func, std::string("buffer must be an mpi.buffer, got ") + luaL_typename(L, 1));
  lua_Integer i = opt_integer(L, 2, 1, "index", func);
  if (i < 1 || i > b->count + 1)
    fail(ErrClass::Arg, func, "index = " + std::to_string(i) + " is outside 1.." + std::to_string(b->count + 1));
  lua_pushinteger(L, lua_Integer(reinterpret_cast<std::intptr_t>(b->data() + (i - 1) * b->type->extent())));
  return 1;
}

// ---- statuses ---------------------------------------------------------------------------

// The byte count recorded for the status at idx.
std::int64_t status_bytes(lua_State* L, int idx, const char* func) {
  lua_getfield(L, LUA_REGISTRYINDEX, kStatusBytesKey);
  lua_pushvalue(L, idx);
  lua_rawget(L, -2);  // push bytes[status]
  int isnum = 0;
  std::int64_t n = lua_tointegerx(L, -1, &isnum);
  lua_pop(L, 2);
  if (!isnum) fail(ErrClass::Arg, func, "expected a status returned by recv, probe or wait");
  return n;
}

// status:get_count(datatype): whole elements, or mpi.UNDEFINED.
int s_get_count(lua_State* L) {
  const char* func = "MPI_Get_count";
  std::int64_t bytes = status_bytes(L, 1, func);
  lua_pushinteger(L, check_usable_type(L, 2, func)->count_of(bytes));
  return 1;
}

// status:get_elements(datatype): basic elements, or mpi.UNDEFINED.
int s_get_elements(lua_State* L) {
  const char* func = "MPI_Get_elements";
  std::int64_t bytes = status_bytes(L, 1, func);
  lua_pushinteger(L, check_usable_type(L, 2, func)->elements_of(bytes));
  return 1;
}

const Reg kStatusMethods[] = {
    {"get_count", wrap<s_get_count>},
    {"get_elements", wrap<s_get_elements>},
};

}  // namespace

// ---- the triples -----------------------------------------------------------------------------

bool is_buffer(lua_State* L, int idx) { return test_buffer(L, idx) != nullptr; }

bool test_buffer_memory(lua_State* L, int idx, BufferMemory* out) {
  BufferBox* b = test_buffer(L, idx);
  if (!b) return false;
  *out = BufferMemory{b->data(), b->bytes, b->type, b->count};
  return true;
}

BufferMemory push_buffer(lua_State* L, const core::TypePtr& t, std::int64_t count) {
  BufferBox* b = new_buffer(L, t, count);
  return BufferMemory{b->data(), b->bytes, b->type, b->count};
}

BufferMemory push_buffer_view(lua_State* L, const core::TypePtr& t, std::int64_t count, char* data,
                              std::shared_ptr<void> keeper) {
  auto* box = new (lua_newuserdatauv(L, sizeof(BufferBox), 0))
      BufferBox{t, count, count * t->extent(), data, std::move(keeper)};
  luaL_setmetatable(L, kBufferMeta);
  return BufferMemory{box->data(), box->bytes, box->type, box->count};
}

Typed check_typed(lua_State* L, int idx, std::string_view func) {
  BufferBox* b = test_buffer(L, idx);
  if (!b) fail(ErrClass::Buffer, func, std::string("expected a buffer, got ") + luaL_typename(L, idx));
  Typed t;
  t.base = b->data();
  t.count = check_integer(L, idx + 1, "count", func);
  if (t.count < 0) fail(ErrClass::Count, func, "count = " + std::to_string(t.count) + " is negative");
  t.type = check_usable_type(L, idx + 2, func);
  std::int64_t lo, hi;
  t.type->span(t.count, &lo, &hi);
  if (lo < 0 || hi > b->bytes)
    fail(ErrClass::Buffer, func,
         std::to_string(t.count) + " elements of " + (t.type->name().empty() ? "the datatype" : t.type->name()) +
             " touch bytes " + std::to_string(lo) + ".." + std::to_string(hi) + " but the buffer has " +
             std::to_string(b->bytes) + " bytes");
  return t;
}

std::string pack_typed(const Typed& t, std::string_view func) {
  std::string out;
  t.type->pack(t.base, t.count, out, func);
  return out;
}

void unpack_typed(const Typed& t, std::string_view bytes, std::string_view func) {
  t.type->unpack(bytes.data(), bytes.size(), t.base, t.count, func);
}

void push_status(lua_State* L, const core::Status& st) {
  lua_createtable(L, 0, 3);
  set_int(L, "source", st.source);
  set_int(L, "tag", st.tag);
  set_int(L, "error", st.error);
  luaL_setmetatable(L, kStatusMeta);
  lua_getfield(L, LUA_REGISTRYINDEX, kStatusBytesKey);  // push the weak table
  lua_pushvalue(L, -2);
  lua_pushinteger(L, lua_Integer(st.bytes));
  lua_rawset(L, -3);  // bytes[status] = n
  lua_pop(L, 1);
}

void open_buffer(lua_State* L) {
  new_metatable(L, kBufferMeta, "buffer",
                {.gc = destroy_userdata<BufferBox, kBufferMeta>, .tostring = buffer_tostring});
  const Reg access[] = {{"__index", buffer_index}, {"__newindex", raising<buffer_newindex>},
                        {"__len", buffer_len}};
  set_funcs(L, access);
  lua_pop(L, 1);
  new_metatable(L, kStatusMeta, nullptr, {}, kStatusMethods);
  lua_pop(L, 1);
  lua_newtable(L);  // status -> bytes
  lua_createtable(L, 0, 1);
  lua_pushliteral(L, "k");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_setfield(L, LUA_REGISTRYINDEX, kStatusBytesKey);
  lua_pushcfunction(L, wrap<l_buffer>);
  lua_setfield(L, -2, "buffer");
  lua_pushcfunction(L, wrap<l_get_address>);
  lua_setfield(L, -2, "get_address");
}

}  // namespace lumpi::lua
