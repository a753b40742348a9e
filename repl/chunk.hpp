// repl/chunk.hpp: does a piece of typed Lua compile as one expression?
//
// The coordinator has no Lua of its own: a rank compiles the code without
// running it (Session::check, Mode::Check). (Whether a typed chunk is
// complete needs no question of its own: the ranks answer an incomplete
// "repl" chunk as such without running it; see Outcome::incomplete.)
#pragma once

#include <string>

#include "repl/session.hpp"

namespace lumpi::repl {

// Does `code` compile as one Lua expression? (":dot EXPR FILE" tells the
// file from the expression with it.) False when no rank is alive.
bool is_expression(Session& s, const std::string& code);

}  // namespace lumpi::repl
