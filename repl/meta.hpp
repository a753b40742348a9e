// repl/meta.hpp: the meta-commands (":target 0-1", ":draw EXPR", ...) of the
// REPL and of the Jupyter kernel, defined once.
//
// One table holds every meta-command: its name, aliases, arguments, help
// text and handler. The table dispatches ":name ARGS" and writes ":help"
// and ":help :name"; the REPL's and the kernel's completion read its names.
// A handler does its work and returns what came of it (MetaResult): it
// prints nothing. The REPL prints the result (repl/repl.cpp); the kernel
// turns it into Jupyter messages and fails the cell when `error` says so
// (repl/kernel/kernel.cpp). What the ranks print while a handler runs code
// goes through the Session, as for any command.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "repl/session.hpp"

namespace lumpi::repl {

// What a handler works on: the front end's world and target.
struct MetaContext {
  Session& s;
  std::vector<int>& target;  // the ranks a command runs on; set by :target and :restart
  int width;                 // columns for text drawings (the terminal's; 100 in a notebook)
};

// Why a meta-command failed. `text` says it in words, except for Ranks.
enum class MetaError {
  None,
  Usage,         // an unknown command, wrong arguments, a file that cannot be read
  WorldStopped,  // no rank is alive to ask (:restart starts a new world)
  Ranks,         // the ranks raised errors (rank_errors); what the others answered is kept
  Failed,        // the command could not be carried out: a restart, a file to write, a question unanswered
};

// What a meta-command did. Every field may be empty; the REPL prints, in
// this order, rank_errors, outcome and text.
struct MetaResult {
  MetaError error = MetaError::None;
  std::string text;                         // the output, or the error's message: whole lines
  std::map<int, std::string> rank_errors;   // rank -> its error message (error Ranks)
  std::optional<Outcome> outcome;           // :on, :load: the ranks' answers, shown as a typed command's
  std::string dot;                          // :draw, :dot: the drawing as Graphviz DOT, for a picture
  std::string svg;                          // :trace: the diagram as SVG
  bool leave = false;                       // :quit, :detach: the REPL ends
};

struct MetaCommand {
  const char* name;     // "draw": typed as ":draw"
  const char* aliases;  // other names, space-separated ("q exit"), or ""
  const char* args;     // "EXPR [FILE]", for the listing and usage
  const char* summary;  // one line for ":help"
  const char* detail;   // more for ":help :draw"
  MetaResult (*run)(MetaContext& c, const std::string& args);
};

// Every meta-command, in the order ":help" lists them.
std::span<const MetaCommand> meta_commands();
// The command whose name or alias is `word` ("draw", "q"), or nullptr.
const MetaCommand* find_meta(const std::string& word);

// ":draw  w:split(1)" -> name "draw", args "w:split(1)" (trimmed). The args
// may span lines: a notebook's ":on RANKS" takes the rest of its cell.
struct MetaLine {
  std::string name, args;
};
MetaLine split_meta(const std::string& line);

// Runs one meta-command line (":target 0-1"); an unknown name is a Usage error.
MetaResult run_meta(MetaContext& c, const std::string& line);

// `s` without the blanks (spaces, tabs, line ends) around it.
std::string trim(const std::string& s);

}  // namespace lumpi::repl
