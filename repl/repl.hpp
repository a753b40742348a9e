// repl/repl.hpp: the interactive loop: reading chunks, meta-commands,
// targets, and showing collated results (docs/repl.md).
#pragma once

#include "repl/session.hpp"

namespace lumpi::repl {

// Reads from the terminal (with line editing and history) or, when stdin is
// not a terminal, from stdin without prompts. Returns when the user quits.
void run_repl(Session& s);

}  // namespace lumpi::repl
