// lua/codec.cpp: the value encoding.
//
// Layout: one type byte, then the payload. Integers of both kinds are stored
// as 8 raw little-endian bytes; lengths and counts as unsigned LEB128.
//   N nil  F false  T true  I int64  D double  S len bytes
//   A n int64[n]        (sequence of integers, packed)
//   R n double[n]       (sequence of floats, packed)
//   H narr nhash  narr values, then nhash key/value pairs   (any table)
//   E class func message   (an error travelling in place of a value: see
//                           encode_error; decoding it raises that error)
#include "lua/codec.hpp"

#include <cstring>
#include <unordered_set>

#include "core/base/error.hpp"
#include "core/base/varint.hpp"

namespace lumpi::lua {
namespace {

using core::ErrClass;
using core::fail;
using core::put_varint;

constexpr int kMaxDepth = 200;

// ---- encoding -----------------------------------------------------------------

template <class T>
void put_raw(std::string& out, T v) {
  char b[sizeof v];
  std::memcpy(b, &v, sizeof v);
  out.append(b, sizeof v);
}

bool is_identifier(std::string_view s) {
  if (s.empty() || std::isdigit((unsigned char)s[0])) return false;
  for (char c : s)
    if (!std::isalnum((unsigned char)c) && c != '_') return false;
  return true;
}

// The path of t[key] for messages: value.name, value[3], value["a b"].
std::string child_path(lua_State* L, const std::string& path, int key) {
  switch (lua_type(L, key)) {
    case LUA_TSTRING: {
      size_t n;
      const char* s = lua_tolstring(L, key, &n);
      std::string_view k(s, n);
      if (is_identifier(k)) return path + "." + std::string(k);
      return path + "[\"" + std::string(k) + "\"]";
    }
    case LUA_TNUMBER:
      if (lua_isinteger(L, key)) return path + "[" + std::to_string(lua_tointeger(L, key)) + "]";
      return path + "[" + std::to_string(lua_tonumber(L, key)) + "]";
    case LUA_TBOOLEAN:
      return path + (lua_toboolean(L, key) ? "[true]" : "[false]");
    default:
      return path + "[<" + lua_typename(L, lua_type(L, key)) + ">]";
  }
}

struct Encoder {
  lua_State* L;
  std::string& out;
  std::string_view func;
  std::unordered_set<const void*> open;  // tables being encoded (cycle check)

  void value(int idx, const std::string& path, int depth);
  void table(int idx, const std::string& path, int depth);
  bool packed_sequence(int idx, lua_Integer n);
};

void Encoder::value(int idx, const std::string& path, int depth) {
  switch (lua_type(L, idx)) {
    case LUA_TNIL: out.push_back('N'); return;
    case LUA_TBOOLEAN: out.push_back(lua_toboolean(L, idx) ? 'T' : 'F'); return;
    case LUA_TNUMBER:
      if (lua_isinteger(L, idx)) {
        out.push_back('I');
        put_raw<int64_t>(out, lua_tointeger(L, idx));
      } else {
        out.push_back('D');
        put_raw<double>(out, lua_tonumber(L, idx));
      }
      return;
    case LUA_TSTRING: {
      size_t n;
      const char* s = lua_tolstring(L, idx, &n);
      out.push_back('S');
      put_varint(out, n);
      out.append(s, n);
      return;
    }
    case LUA_TTABLE: table(idx, path, depth); return;
    default:
      fail(ErrClass::Type, func,
           path + " is a " + lua_typename(L, lua_type(L, idx)) + ", which cannot be sent");
  }
}

// A table whose keys are exactly 1..n holding numbers of one kind, packed.
bool Encoder::packed_sequence(int idx, lua_Integer n) {
  if (n < 2) return false;
  lua_rawgeti(L, idx, 1);  // push t[1] to learn the kind
  bool ints = lua_isinteger(L, -1);
  bool number = lua_type(L, -1) == LUA_TNUMBER;
  lua_pop(L, 1);
  if (!number) return false;
  size_t start = out.size();
  out.push_back(ints ? 'A' : 'R');
  put_varint(out, uint64_t(n));
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, idx, i);  // push t[i]
    bool ok = lua_type(L, -1) == LUA_TNUMBER && bool(lua_isinteger(L, -1)) == ints;
    if (ok && ints) put_raw<int64_t>(out, lua_tointeger(L, -1));
    if (ok && !ints) put_raw<double>(out, lua_tonumber(L, -1));
    lua_pop(L, 1);
    if (!ok) {
      out.resize(start);
      return false;
    }
  }
  // Only a pure sequence may be packed: any other key needs the general form.
  lua_Integer keys = 0;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    ++keys;
    lua_pop(L, 1);  // pop value, keep key
  }
  if (keys != n) {
    out.resize(start);
    return false;
  }
  return true;
}

void Encoder::table(int idx, const std::string& path, int depth) {
  idx = lua_absindex(L, idx);
  if (depth > kMaxDepth)
    fail(ErrClass::Type, func, path + " is nested more than " + std::to_string(kMaxDepth) + " deep");
  const void* id = lua_topointer(L, idx);
  if (!open.insert(id).second) fail(ErrClass::Type, func, path + " refers back to itself (a cycle)");
  if (!lua_checkstack(L, 4)) fail(ErrClass::NoMem, func, "Lua stack overflow at " + path);
  lua_Integer narr = lua_Integer(lua_rawlen(L, idx));
  if (!packed_sequence(idx, narr)) {
    // Count the hash part: keys other than 1..narr.
    uint64_t nhash = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
      lua_pop(L, 1);  // pop value, keep key
      bool in_array = lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 1 &&
                      lua_tointeger(L, -1) <= narr;
      if (!in_array) ++nhash;
    }
    out.push_back('H');
    put_varint(out, uint64_t(narr));
    put_varint(out, nhash);
    for (lua_Integer i = 1; i <= narr; ++i) {
      lua_rawgeti(L, idx, i);  // push t[i]
      value(-1, path + "[" + std::to_string(i) + "]", depth + 1);
      lua_pop(L, 1);
    }
    lua_pushnil(L);
    while (lua_next(L, idx)) {  // stack: key value
      bool in_array = lua_isinteger(L, -2) && lua_tointeger(L, -2) >= 1 &&
                      lua_tointeger(L, -2) <= narr;
      if (!in_array) {
        std::string p = child_path(L, path, lua_absindex(L, -2));
        value(-2, p + " (key)", depth + 1);
        value(-1, p, depth + 1);
      }
      lua_pop(L, 1);  // pop value, keep key for lua_next
    }
  }
  open.erase(id);
}

// ---- decoding -----------------------------------------------------------------

struct Decoder {
  lua_State* L;
  std::string_view in;
  size_t pos = 0;

  [[noreturn]] void bad(const std::string& why) {
    fail(ErrClass::Other, "decode", "malformed message body at byte " + std::to_string(pos) + ": " + why);
  }
  void need(size_t n) {
    if (in.size() - pos < n) bad("truncated");
  }
  uint64_t varint() {
    uint64_t v;
    if (!core::get_varint(in, pos, v)) bad(pos >= in.size() ? "truncated" : "overlong length");
    return v;
  }
  template <class T>
  T raw() {
    need(sizeof(T));
    T v;
    std::memcpy(&v, in.data() + pos, sizeof v);
    pos += sizeof v;
    return v;
  }
  // A count of items each at least `unit` bytes long, checked against what is left.
  uint64_t count(size_t unit) {
    uint64_t n = varint();
    if (n > (in.size() - pos) / unit) bad("count " + std::to_string(n) + " exceeds the message");
    return n;
  }
  std::string text() {
    uint64_t n = count(1);
    std::string s(in.substr(pos, n));
    pos += n;
    return s;
  }
  void value(int depth);
};

void Decoder::value(int depth) {
  if (depth > kMaxDepth) bad("nested too deep");
  if (!lua_checkstack(L, 4)) bad("Lua stack overflow");
  need(1);
  char t = in[pos++];
  switch (t) {
    case 'N': lua_pushnil(L); return;
    case 'F': lua_pushboolean(L, 0); return;
    case 'T': lua_pushboolean(L, 1); return;
    case 'I': lua_pushinteger(L, raw<int64_t>()); return;
    case 'D': lua_pushnumber(L, raw<double>()); return;
    case 'S': {
      uint64_t n = count(1);
      lua_pushlstring(L, in.data() + pos, n);
      pos += n;
      return;
    }
    case 'A':
    case 'R': {
      uint64_t n = count(8);
      lua_createtable(L, int(n), 0);
      for (uint64_t i = 1; i <= n; ++i) {
        if (t == 'A') lua_pushinteger(L, raw<int64_t>());
        else lua_pushnumber(L, raw<double>());
        lua_rawseti(L, -2, lua_Integer(i));  // t[i] = value, pop it
      }
      return;
    }
    case 'H': {
      uint64_t narr = count(1), nhash = varint();
      if (nhash > (in.size() - pos) / 2) bad("count " + std::to_string(nhash) + " exceeds the message");
      lua_createtable(L, int(narr), int(nhash));
      for (uint64_t i = 1; i <= narr; ++i) {
        value(depth + 1);
        lua_rawseti(L, -2, lua_Integer(i));  // t[i] = value, pop it
      }
      for (uint64_t i = 0; i < nhash; ++i) {
        value(depth + 1);  // key
        if (lua_isnil(L, -1) || (lua_type(L, -1) == LUA_TNUMBER && lua_tonumber(L, -1) != lua_tonumber(L, -1)))
          bad("table key is nil or NaN");
        value(depth + 1);  // value
        lua_rawset(L, -3);  // t[key] = value, pop both
      }
      return;
    }
    case 'E': {
      if (depth != 0) bad("an error can only stand for a whole value");
      uint64_t cls = varint();
      if (cls >= uint64_t(ErrClass::LastCode)) bad("unknown error class " + std::to_string(cls));
      std::string func = text(), message = text();
      fail(ErrClass(cls), func, "another rank's part of this call failed: " + message);
    }
    default:
      --pos;
      bad("unknown type byte " + std::to_string(uint8_t(t)));
  }
}

}  // namespace

void encode(lua_State* L, int idx, std::string& out, std::string_view func, std::string_view root) {
  Encoder e{L, out, func, {}};
  int top = lua_gettop(L);
  try {
    e.value(lua_absindex(L, idx), std::string(root), 0);
  } catch (...) {
    lua_settop(L, top);  // the stack is as it was, whatever happened
    throw;
  }
  lua_settop(L, top);
}

std::string encode(lua_State* L, int idx, std::string_view func, std::string_view root) {
  std::string out;
  encode(L, idx, out, func, root);
  return out;
}

std::optional<PackedNumbers> view_packed(std::string_view bytes) {
  if (bytes.empty() || (bytes[0] != 'A' && bytes[0] != 'R')) return std::nullopt;
  size_t pos = 1;
  uint64_t n = 0;
  if (!core::get_varint(bytes, pos, n)) return std::nullopt;
  if ((bytes.size() - pos) % 8 != 0 || (bytes.size() - pos) / 8 != n) return std::nullopt;
  return PackedNumbers{bytes[0] == 'A', size_t(n), bytes.data() + pos};
}

std::string packed_encoding(bool integers, size_t count, size_t* values_at) {
  std::string out(1, integers ? 'A' : 'R');
  put_varint(out, count);
  *values_at = out.size();
  out.resize(out.size() + 8 * count);
  return out;
}

std::string encode_error(const core::Error& e) {
  std::string out(1, 'E');
  put_varint(out, uint64_t(e.cls()));
  put_varint(out, e.func().size());
  out += e.func();
  put_varint(out, e.message().size());
  out += e.message();
  return out;
}

void decode(lua_State* L, std::string_view bytes) {
  int top = lua_gettop(L);
  Decoder d{L, bytes};
  try {
    d.value(0);
  } catch (...) {
    lua_settop(L, top);
    throw;
  }
  if (d.pos != bytes.size()) {
    lua_settop(L, top);
    d.bad(std::to_string(bytes.size() - d.pos) + " trailing bytes");
  }
}

}  // namespace lumpi::lua
