// repl/complete.hpp: tab completion of Lua names, answered by a rank.
//
// The text before the cursor ends in a chain of names ("mpi.COMM_WORLD:al");
// rank 0 of the target looks the chain up in its own globals (lua/lumpi/complete.lua,
// through the "text" exec mode) and returns the names that can follow:
// globals and keywords, fields after ".", methods after ":".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "repl/session.hpp"

namespace lumpi::repl {

struct CompletionQuery {
  std::string base;     // "mpi.COMM_WORLD" ("" for globals)
  char sep = 0;         // '.', ':' or 0
  std::string partial;  // "al"
};

// Splits the text before the cursor; false if it does not end in a name chain.
bool parse_completion(const std::string& before_cursor, CompletionQuery* q);

// Candidates (complete names, sorted) from `rank`; empty if it cannot answer.
std::vector<std::string> complete(Session& s, int rank, const CompletionQuery& q);

// Runs `code` in "text" mode on `rank` alone, quietly (no hang report; keys
// typed meanwhile stay in the terminal): the text of its first value, or
// nullopt if the rank is not alive or did not answer with a value. Also
// used by the REPL's `:help NAME`.
std::optional<std::string> ask_rank(Session& s, int rank, const std::string& code);

// A Lua string literal for s ("a\"b" for a"b).
std::string lua_quote(const std::string& s);

}  // namespace lumpi::repl
