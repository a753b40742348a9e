// lua/embedded.hpp: the Lua sources of lua/lumpi/*.lua, compiled into the binary
// by lua/embed.cmake. The table ends with a {nullptr, nullptr} entry.
#pragma once

namespace lumpi::lua {

struct EmbeddedFile {
  const char* name;    // file name without ".lua", e.g. "test"
  const char* source;
};

extern const EmbeddedFile kEmbedded[];

}  // namespace lumpi::lua
