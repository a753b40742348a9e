// repl/chunk.cpp: the completeness test of lua.c, compiling only.
#include "repl/chunk.hpp"

#include <cstring>
#include <lua.hpp>

namespace lumpi::repl {

bool chunk_incomplete(const std::string& code) {
  static lua_State* L = luaL_newstate();  // compiles only; no library is opened
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
