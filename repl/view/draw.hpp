// repl/view/draw.hpp: drawing what the ranks say about a value (:draw, :dot).
//
// Every rank describes its value with lumpi.draw's describe() (a few
// "key value..." lines, see lua/lumpi/draw.lua); this file parses those texts and
// draws them: the partition of COMM_WORLD into communicators (a split), a
// Cartesian grid (1-D, 2-D, 3-D as slices), graph and distributed-graph
// adjacency with weights, an intercommunicator's two groups, a datatype's
// type map byte by byte (blocks, holes, lb and ub), a window's memory on
// every rank. Text drawings
// fit an 80-column terminal at 24 ranks by wrapping; DOT is for Graphviz.
// Pure: no world, no terminal.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace lumpi::repl {

struct Description {
  std::string kind;  // "comm", "group", "null", "other", or "" if unreadable
  int world = -1;    // COMM_WORLD rank of the describing process
  std::string name, text;
  std::string cls;   // the communicator's class: "Intracomm", "Cartcomm", ...
  int rank = -1, size = 0;
  bool inter = false;
  std::vector<int> members, remote;  // world ranks, in rank order
  std::string topo;                  // "cart", "graph", "dist_graph", "none" or ""
  std::vector<int> dims, periods, coords;
  std::vector<int> index, edges;
  std::vector<int> sources, dests, sourceweights, destweights;
  bool source_weighted = false, dest_weighted = false;
  std::vector<std::string> notes;
  // kind "type": one element's bounds and type map (runs of one basic type)
  struct Run {
    long long offset = 0, count = 0, bytes = 0;
    std::string name;
  };
  bool has_bounds = false;
  long long type_size = 0, lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  std::vector<Run> runs;
  // kind "win": this rank's window memory
  long long win_bytes = -1;
  int disp_unit = 0;
  std::string elem;  // "MPI_DOUBLE"
  long long elems = 0;
  std::vector<std::string> values;  // the first elements, as text
};

Description parse_description(const std::string& text);

// `per_rank` maps a world rank to its description. `width` is the terminal's.
std::string draw_text(const std::map<int, Description>& per_rank, int width = 80);
std::string draw_dot(const std::map<int, Description>& per_rank);

}  // namespace lumpi::repl
