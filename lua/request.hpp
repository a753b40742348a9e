// lua/request.hpp: what point-to-point (lua/bind_p2p.cpp) tells
// lua/bind_request.cpp, which owns every request value, beyond push_request
// (lua/binding.hpp): persistent requests (MPI-3.1 §3.9) and typed receives.
#pragma once

#include <lua.hpp>
#include <optional>
#include <string>

#include "core/comm/persistent.hpp"
#include "lua/typed.hpp"

namespace lumpi::lua {

// A persistent request (MPI-3.1 §3.9): core's (core/comm/persistent.hpp:
// the rules, the arguments checked at creation, the active operation) and
// what Lua adds, the message.
struct Persistent {
  core::PersistentPtr op;
  // (buffer, count, datatype): a send packs `data` at each start, a receive
  // unpacks into it at each completion. The buffer is kept alive with the
  // request (push_persistent_request's message_idx).
  bool typed = false;
  Typed data;
  // A send's value that cannot change (anything but a table), encoded once
  // at creation; a table is encoded again at each start.
  std::optional<std::string> fixed;
};

// Pushes a new, inactive persistent request doing p. The value at
// message_idx (0: none) stays with the request: a send's value or a typed
// request's buffer. The communicator at 1, if any, is the one its errors
// answer to.
void push_persistent_request(lua_State* L, Persistent p, int message_idx);

// Makes the request on top (just pushed by push_request, a receive) a typed
// receive: its message lands in target, whose buffer (at buffer_idx) stays
// with the request.
void set_typed_target(lua_State* L, const Typed& target, int buffer_idx);

}  // namespace lumpi::lua
