// repl/chunk.hpp: is a piece of typed Lua a complete chunk yet?
//
// The lua.c rule: a chunk is incomplete when compiling it fails with a
// syntax error at "<eof>". The coordinator has no Lua of its own: a rank
// compiles the chunk without running it (Session::check, Mode::Check), so
// only complete chunks are broadcast. With no live rank, every chunk counts
// as complete (and running it reports that the world has stopped).
#pragma once

#include <string>

#include "repl/session.hpp"

namespace lumpi::repl {

bool chunk_incomplete(Session& s, const std::string& code);
// Does `code` compile as one Lua expression? (":dot EXPR FILE" tells the
// file from the expression with it.)
bool is_expression(Session& s, const std::string& code);

}  // namespace lumpi::repl
