// lua/coll_args.hpp: the argument helpers the collective bindings share
// (defined in lua/bind_coll.cpp; used by it, lua/bind_nbc.cpp and
// lua/bind_topo.cpp): the communicator and root checks, and the encoders
// that let a rank whose own data fails its check still take part, its
// error travelling in place of the data (see lua/bind_coll.cpp).
#pragma once

#include <lua.hpp>
#include <optional>
#include <vector>

#include "core/check/coll_check.hpp"
#include "core/coll/coll.hpp"
#include "core/base/error.hpp"
#include "lua/bind_op.hpp"

namespace lumpi::lua {

// Pushes a sequence of the decoded values.
void push_list(lua_State* L, const std::vector<core::coll::Bytes>& all);
// The value at idx encoded, or its error's encoding (then stored in failed).
core::coll::Bytes encode_or_error(lua_State* L, int idx, const char* func, std::optional<core::Error>& failed);
// The sequence at idx encoded element by element (want of them); a bad element poisons its part.
std::vector<core::coll::Bytes> encode_each_or_error(lua_State* L, int idx, int want, const char* func,
                                                    std::optional<core::Error>& failed);
// The operand at idx checked against op and encoded, or its error's encoding.
core::coll::Bytes operand_or_error(lua_State* L, int idx, const OpBox& op, const char* func,
                                   std::optional<core::Error>& failed);
void raise_if(const std::optional<core::Error>& failed);
// The communicator at 1 of a collective (raises inside a user op's function).
core::Comm& coll_comm(lua_State* L, const char* func);
// The root at idx, checked against c.
int root_arg(lua_State* L, int idx, core::Comm& c, const char* func);

// --check: this rank's call described to core's collective-mismatch check
// (core/check/coll_check.hpp), once its arguments are checked and before
// it sends anything; a mismatch raises on every rank. Values carry no type
// signature (sides left empty); typed buffers give theirs. `failed`: this
// rank's own data failed its check (CollCall::failed). Without --check it
// costs one test.
void check_coll(core::Comm& c, const char* func, int root = -1, const OpBox* op = nullptr,
                const core::check::Side& send = {}, const core::check::Side& recv = {}, bool failed = false);
// The same for a nonblocking collective (never blocks).
void check_coll_started(const core::CommPtr& c, const char* func, int root = -1, const OpBox* op = nullptr,
                        bool failed = false);

}  // namespace lumpi::lua
