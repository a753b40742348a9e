// lua/typed.hpp: typed memory for MPI's (buffer, count, datatype) triples
// (lua/bind_buffer.cpp), the datatype handles behind them
// (lua/bind_datatype.cpp), and the statuses that size a typed receive.
//
// A typed message travels as exactly the packed bytes of its elements (no
// header), so a status's byte count is MPI's and MPI_Get_count after a probe
// sizes the receive (MPI-2.1 Ballot 4 item 5). A typed message must be
// received typed, and a Lua value as a value: like MPI's type matching, a
// mismatch is the program's error (a value receive of typed bytes usually
// fails to decode with MPI_ERR_OTHER).
#pragma once

#include <lua.hpp>
#include <memory>
#include <string>
#include <string_view>

#include "core/check/signature.hpp"
#include "core/datatype/datatype.hpp"
#include "core/engine/request.hpp"

namespace lumpi::lua {

// The datatype handle at idx; MPI_ERR_TYPE if it is none, freed, or (for
// communication) not committed.
core::TypePtr check_usable_type(lua_State* L, int idx, std::string_view func);

// True if the value at idx is a typed buffer (mpi.buffer).
bool is_buffer(lua_State* L, int idx);

// The memory of the buffer at idx (windows expose it): false if idx holds
// no buffer. The address is stable for the buffer's life.
struct BufferMemory {
  char* data = nullptr;
  std::int64_t bytes = 0;
  core::TypePtr type;  // the element type
  std::int64_t count = 0;
};
bool test_buffer_memory(lua_State* L, int idx, BufferMemory* out);
// Pushes a new buffer of count zeroed elements of the predefined type t
// (the caller checked both).
BufferMemory push_buffer(lua_State* L, const core::TypePtr& t, std::int64_t count);

// Pushes a buffer of count elements of the predefined type t over memory
// the buffer does not own (a shared-memory window's segment): keeper keeps
// that memory alive as long as the buffer lives.
BufferMemory push_buffer_view(lua_State* L, const core::TypePtr& t, std::int64_t count, char* data,
                              std::shared_ptr<void> keeper);

// A checked (buffer, count, datatype) triple at idx, idx+1, idx+2: the
// datatype committed, count >= 0, and every byte the elements touch inside
// the buffer (MPI_ERR_BUFFER otherwise).
struct Typed {
  char* base = nullptr;  // the buffer's address
  std::int64_t count = 0;
  core::TypePtr type;
};
Typed check_typed(lua_State* L, int idx, std::string_view func);
// A triple's side of a call, as --check's signatures take it (none for a
// Typed{} that stands for a Lua value).
inline core::check::Side side(const Typed& t) { return {t.count, t.type}; }

// The packed bytes of a triple, ready to send.
std::string pack_typed(const Typed& t, std::string_view func);
// Unpacks a received message into a triple; MPI_ERR_TRUNCATE if it is longer.
void unpack_typed(const Typed& t, std::string_view bytes, std::string_view func);

// Pushes a status table {source=, tag=, error=} whose methods
// get_count(datatype) and get_elements(datatype) answer for its message.
void push_status(lua_State* L, const core::Status& st);

// Adds mpi.buffer and the buffer and status metatables to the mpi table at -1.
void open_buffer(lua_State* L);

}  // namespace lumpi::lua
