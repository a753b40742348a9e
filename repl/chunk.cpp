// repl/chunk.cpp: the expression test, asked of a rank.
#include "repl/chunk.hpp"

namespace lumpi::repl {

bool is_expression(Session& s, const std::string& code) { return s.check(code) == "expression"; }

}  // namespace lumpi::repl
