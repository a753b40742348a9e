// repl/repl.hpp: the interactive loop: reading chunks, meta-commands,
// targets, and showing collated results (docs/repl.md).
#pragma once

#include <string>
#include <vector>

#include "repl/session.hpp"

namespace lumpi::repl {

// Reads from the terminal (with line editing and history) or, when stdin is
// not a terminal, from stdin without prompts. Returns when the user quits.
void run_repl(Session& s);

// Runs one meta-command line (":target 0-1") as the REPL does, printing on
// stdout, without a terminal; `target` is read and updated. False for ":quit".
// The Jupyter kernel's entry to the REPL's meta-commands.
bool run_meta_command(Session& s, std::vector<int>& target, const std::string& line);

}  // namespace lumpi::repl
