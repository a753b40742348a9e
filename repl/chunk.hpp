// repl/chunk.hpp: is a piece of typed Lua a complete chunk yet?
//
// The lua.c rule: a chunk is incomplete when compiling it fails with a
// syntax error at "<eof>". Decided on the coordinator with a bare Lua state
// that never runs anything, so only complete chunks are broadcast.
#pragma once

#include <string>

namespace lumpi::repl {

bool chunk_incomplete(const std::string& code);
// Does `code` compile as one Lua expression? (":dot EXPR FILE" tells the
// file from the expression with it.)
bool is_expression(const std::string& code);

}  // namespace lumpi::repl
