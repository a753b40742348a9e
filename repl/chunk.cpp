// repl/chunk.cpp: the completeness and expression tests, asked of a rank.
#include "repl/chunk.hpp"

namespace lumpi::repl {

bool is_expression(Session& s, const std::string& code) { return s.check(code) == "expression"; }

bool chunk_incomplete(Session& s, const std::string& code) { return s.check(code) == "incomplete"; }

}  // namespace lumpi::repl
