// repl/chunk.cpp: the completeness test of lua.c (and an expression test), compiling only.
#include "repl/chunk.hpp"

#include <cstring>
#include <lua.hpp>

namespace lumpi::repl {

namespace {

lua_State* compiler() {
  static lua_State* L = luaL_newstate();  // compiles only; no library is opened
  return L;
}

}  // namespace

bool is_expression(const std::string& code) {
  lua_State* L = compiler();
  std::string ret = "return (" + code + "\n)";
  bool ok = luaL_loadbuffer(L, ret.data(), ret.size(), "=expr") == LUA_OK;
  lua_pop(L, 1);
  return ok;
}

bool chunk_incomplete(const std::string& code) {
  lua_State* L = compiler();
  std::string ret = "return " + code;
  if (luaL_loadbuffer(L, ret.data(), ret.size(), "=stdin") == LUA_OK) {
    lua_pop(L, 1);
    return false;
  }
  lua_pop(L, 1);
  int st = luaL_loadbuffer(L, code.data(), code.size(), "=stdin");
  bool incomplete = false;
  if (st == LUA_ERRSYNTAX) {
    size_t len;
    const char* msg = lua_tolstring(L, -1, &len);
    const char* eof = "<eof>";
    incomplete = len >= std::strlen(eof) && std::strcmp(msg + len - std::strlen(eof), eof) == 0;
  }
  lua_pop(L, 1);
  return incomplete;
}

}  // namespace lumpi::repl
