// repl/view/draw.cpp: text and DOT drawings of communicators (see draw.hpp).
//
// Sections: parsing the descriptions (a table of fields); finding the
// distinct communicators (ranks that describe the same members hold the
// same communicator); text drawings (partition matrix, Cartesian grid,
// adjacency lists, datatype maps, windows) and the drawing of them all
// together; DOT. Every drawing says in its header how to read a cell.
#include "repl/view/draw.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>
#include <sstream>

#include "repl/view/collate.hpp"

namespace lumpi::repl {
namespace {

// ---- parsing ------------------------------------------------------------------------

std::vector<int> int_list(const std::string& rest) {
  std::vector<int> out;
  std::istringstream in(rest);
  long long v;
  while (in >> v) out.push_back(int(v));
  return out;
}

// How each line "KEY VALUE..." of a description (lua/lumpi/draw.lua) is
// read into its field; lines with other keys are ignored.
using Reader = void (*)(Description& d, const std::string& v);
const std::map<std::string, Reader> kFields = {
    {"kind", [](Description& d, const std::string& v) { d.kind = v; }},
    {"world", [](Description& d, const std::string& v) { d.world = std::atoi(v.c_str()); }},
    {"text", [](Description& d, const std::string& v) { d.text = v; }},
    {"name", [](Description& d, const std::string& v) { d.name = v; }},
    {"class", [](Description& d, const std::string& v) { d.cls = v; }},
    {"rank", [](Description& d, const std::string& v) { d.rank = std::atoi(v.c_str()); }},
    {"size", [](Description& d, const std::string& v) { d.size = std::atoi(v.c_str()); }},
    {"inter", [](Description& d, const std::string& v) { d.inter = v == "1"; }},
    {"members", [](Description& d, const std::string& v) { d.members = int_list(v); }},
    {"remote", [](Description& d, const std::string& v) { d.remote = int_list(v); }},
    {"topo", [](Description& d, const std::string& v) { d.topo = v; }},
    {"dims", [](Description& d, const std::string& v) { d.dims = int_list(v); }},
    {"periods", [](Description& d, const std::string& v) { d.periods = int_list(v); }},
    {"coords", [](Description& d, const std::string& v) { d.coords = int_list(v); }},
    {"index", [](Description& d, const std::string& v) { d.index = int_list(v); }},
    {"edges", [](Description& d, const std::string& v) { d.edges = int_list(v); }},
    {"sources", [](Description& d, const std::string& v) { d.sources = int_list(v); }},
    {"dests", [](Description& d, const std::string& v) { d.dests = int_list(v); }},
    {"sourceweights", [](Description& d, const std::string& v) { d.sourceweights = int_list(v), d.source_weighted = true; }},
    {"destweights", [](Description& d, const std::string& v) { d.destweights = int_list(v), d.dest_weighted = true; }},
    {"note", [](Description& d, const std::string& v) { d.notes.push_back(v); }},
    {"bounds", [](Description& d, const std::string& v) {
       std::istringstream in(v);
       d.has_bounds = bool(in >> d.type_size >> d.lb >> d.extent >> d.true_lb >> d.true_extent);
     }},
    {"winmem", [](Description& d, const std::string& v) {
       std::istringstream in(v);
       in >> d.win_bytes >> d.disp_unit >> d.elem >> d.elems;
     }},
    {"values", [](Description& d, const std::string& v) {
       std::istringstream in(v);
       for (std::string x; in >> x;) d.values.push_back(x);
     }},
    {"run", [](Description& d, const std::string& v) {
       Description::Run r;
       std::istringstream in(v);
       if (in >> r.offset >> r.count >> r.bytes >> r.name) d.runs.push_back(r);
     }},
};

// ---- distinct communicators ------------------------------------------------------------

// One communicator as seen by its members: the descriptions of its ranks.
struct Instance {
  const Description* any = nullptr;   // a member's description (shared facts)
  std::map<int, const Description*> by_rank;  // communicator rank -> description
};

using Key = std::pair<std::vector<int>, std::vector<int>>;  // members, remote

std::map<Key, Instance> instances(const std::map<int, Description>& per_rank, const char* kind) {
  std::map<Key, Instance> out;
  for (const auto& [w, d] : per_rank) {
    if (d.kind != kind) continue;
    Instance& in = out[{d.members, d.remote}];
    if (!in.any) in.any = &d;
    in.by_rank[d.rank] = &d;
  }
  return out;
}

std::string quoted_name(const Description& d) {
  return d.name.empty() ? std::string("(unnamed)") : "'" + d.name + "'";
}

// "Cartcomm 'grid'": the class the rank reported (`what` if it did not), then the name.
std::string titled(const Description& d, const std::string& what) {
  const std::string& cls = d.cls.empty() ? what : d.cls;
  return cls.empty() ? quoted_name(d) : cls + " " + quoted_name(d);
}

std::string pad(const std::string& s, size_t w) { return s.size() >= w ? s : s + std::string(w - s.size(), ' '); }
std::string rpad(const std::string& s, size_t w) { return s.size() >= w ? s : std::string(w - s.size(), ' ') + s; }

std::string join(const std::vector<int>& v, const char* sep = ",") {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + std::to_string(v[i]);
  return s;
}

// Breaks a long adjacency line at spaces; continuation lines are indented
// to `indent` columns.
std::string wrap_line(const std::string& line, size_t indent, int width) {
  if (line.size() <= size_t(width)) return line + "\n";
  std::string out, cur;
  std::istringstream words(line);
  size_t lead = line.find_first_not_of(' ');
  cur = std::string(lead == std::string::npos ? 0 : lead, ' ');
  for (std::string w; words >> w;) {
    if (cur.size() + 1 + w.size() > size_t(width) && cur.find_first_not_of(' ') != std::string::npos) {
      out += cur + "\n";
      cur = std::string(indent, ' ');
    }
    if (cur.find_first_not_of(' ') != std::string::npos) cur += " ";
    cur += w;
  }
  return out + cur + "\n";
}

// ---- partition matrix ----------------------------------------------------------------

struct Row {
  std::string label;             // "A"
  std::map<int, int> new_rank;   // world rank -> rank in this row's group
};

// One column per world rank; a row per group with the new rank, '.' if absent.
// Columns wrap into blocks so that no line is wider than `width`.
std::string matrix(const std::vector<Row>& rows, int world_size, int width) {
  size_t label_w = 6;
  for (const auto& r : rows) label_w = std::max(label_w, r.label.size() + 1);
  size_t cell_w = std::to_string(std::max(0, world_size - 1)).size() + 1;
  size_t per_block = std::max<size_t>(1, (size_t(std::max(width, 20)) - 2 - label_w) / cell_w);
  std::string out;
  for (int first = 0; first < world_size; first += int(per_block)) {
    int last = std::min(world_size, first + int(per_block));
    std::string line = "  " + pad("world", label_w);
    for (int w = first; w < last; ++w) line += rpad(std::to_string(w), cell_w);
    out += line + "\n";
    for (const auto& r : rows) {
      line = "  " + pad(r.label, label_w);
      for (int w = first; w < last; ++w) {
        auto it = r.new_rank.find(w);
        line += rpad(it == r.new_rank.end() ? "." : std::to_string(it->second), cell_w);
      }
      out += line + "\n";
    }
    if (last < world_size) out += "\n";
  }
  return out;
}

std::string letter(size_t i) {
  std::string s;
  do {
    s.insert(s.begin(), char('A' + i % 26));
    i = i / 26;
  } while (i-- > 0);
  return s;
}

Row row_of(const std::string& label, const std::vector<int>& members) {
  Row r{label, {}};
  for (size_t i = 0; i < members.size(); ++i) r.new_rank[members[i]] = int(i);
  return r;
}

// ---- Cartesian grids -------------------------------------------------------------------

struct Cell {
  std::string top, bottom;  // "w5 c5", "(1,2)"
};

std::string coords_text(const std::vector<int>& c) { return "(" + join(c) + ")"; }

// The columns of a grid: the row labels' width, the cells' inner width,
// and how many columns fit in a block of the width.
struct GridShape {
  size_t label_w, inner, per_block;
  std::string blank;  // the room left of the cells

  GridShape(int rows, int cols, const std::function<Cell(int, int)>& cell, const std::string& corner, int width) {
    inner = 4;
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        Cell x = cell(r, c);
        inner = std::max({inner, x.top.size() + 1, x.bottom.size() + 1});
      }
    label_w = std::max(corner.size(), std::to_string(rows - 1).size() + 2);
    blank = std::string(2 + label_w, ' ');
    // drop the padding space when that makes all columns fit
    if (blank.size() + 1 + size_t(cols) * (inner + 1) + 2 > size_t(width) &&
        blank.size() + 1 + size_t(cols) * inner + 2 <= size_t(width))
      --inner;
    per_block = std::max<size_t>(1, (size_t(width) - blank.size() - 3) / (inner + 1));  // 3: "+" and " ~"
  }
};

// Columns c0 to c1 - 1 of a grid (see grid()).
std::string grid_block(int rows, int cols, int c0, int c1, const std::function<Cell(int, int)>& cell,
                       bool wrap_rows, bool wrap_cols, const std::string& corner, const GridShape& g) {
  std::string head = "  " + pad(corner, g.label_w) + " ";
  std::string border = g.blank + "+";
  for (int c = c0; c < c1; ++c) {
    head += pad(std::to_string(c), g.inner + 1);
    border += std::string(g.inner, '-') + "+";
  }
  std::string tilde = g.blank + " " + std::string(border.size() - g.blank.size() - 2, '~') + "\n";
  std::string out = head + "\n" + (wrap_rows ? tilde : "") + border + "\n";
  for (int r = 0; r < rows; ++r) {
    std::string label = rows > 1 ? std::to_string(r) : "";
    std::string l1 = "  " + pad(label, g.label_w - 2) + (wrap_cols && c0 == 0 ? "~ " : "  ") + "|";
    std::string l2 = g.blank + "|";
    for (int c = c0; c < c1; ++c) {
      Cell x = cell(r, c);
      l1 += pad(x.top, g.inner) + "|";
      l2 += pad(x.bottom, g.inner) + "|";
    }
    if (wrap_cols && c1 == cols) l1 += " ~";
    out += l1 + "\n" + l2 + "\n" + border + "\n";
  }
  return out + (wrap_rows ? tilde : "");
}

// Draws rows x cols cells with borders; `wrap_rows`/`wrap_cols` mark periodic
// dimensions with '~' beside the edges that continue on the other side. Rows
// are labelled with their index (unless there is one row), columns too;
// `corner` names the two dimensions ("d0\\d1"). Columns wrap into blocks so
// that no line is wider than `width`.
std::string grid(int rows, int cols, const std::function<Cell(int, int)>& cell, bool wrap_rows,
                 bool wrap_cols, const std::string& corner, int width) {
  GridShape g(rows, cols, cell, corner, width);
  std::string out;
  for (int c0 = 0; c0 < cols; c0 += int(g.per_block)) {
    int c1 = std::min(cols, c0 + int(g.per_block));
    out += grid_block(rows, cols, c0, c1, cell, wrap_rows, wrap_cols, corner, g);
    if (c1 < cols) out += "\n";
  }
  return out;
}

std::string draw_cart(const Instance& in, int width) {
  const Description& d = *in.any;
  const auto& dims = d.dims;
  std::map<std::vector<int>, const Description*> at;
  for (const auto& [r, x] : in.by_rank) at[x->coords] = x;
  auto cell_at = [&](std::vector<int> c) -> Cell {
    auto it = at.find(c);
    if (it == at.end()) return {"?", coords_text(c)};
    return {"w" + std::to_string(it->second->world) + " c" + std::to_string(it->second->rank), coords_text(c)};
  };
  std::string shape;
  for (size_t i = 0; i < dims.size(); ++i) shape += (i ? "x" : "") + std::to_string(dims[i]);
  std::string out = titled(d, "Cartesian") + " " + (shape.empty() ? "0-dimensional" : shape) +
                    " (" + std::to_string(d.size) + " ranks), periodic:";
  for (size_t i = 0; i < dims.size(); ++i)
    out += " dim " + std::to_string(i) + (i < d.periods.size() && d.periods[i] ? " yes" : " no") +
           (i + 1 < dims.size() ? "," : "");
  if (dims.empty()) out += " none";
  out += "\ncell: w = world rank, c = cart rank, (coordinates); ~ = wraps around\n";
  if (dims.size() == 2) out += "rows: dim 0, columns: dim 1\n";
  if (dims.size() == 3) out += "a slice per dim 0; rows: dim 1, columns: dim 2\n";
  auto periodic = [&](size_t i) { return i < d.periods.size() && d.periods[i] != 0; };
  if (dims.size() == 1) {
    out += grid(1, dims[0], [&](int, int c) { return cell_at({c}); }, false, periodic(0), "d0", width);
  } else if (dims.size() == 2) {
    out += grid(dims[0], dims[1], [&](int r, int c) { return cell_at({r, c}); }, periodic(0), periodic(1),
                "d0\\d1", width);
  } else if (dims.size() == 3) {
    for (int s = 0; s < dims[0]; ++s) {
      out += "slice dim 0 = " + std::to_string(s) + (periodic(0) ? " (dim 0 wraps)" : "") + "\n";
      out += grid(dims[1], dims[2], [&](int r, int c) { return cell_at({s, r, c}); }, periodic(1), periodic(2),
                  "d1\\d2", width);
    }
  } else {
    for (const auto& [c, x] : at)
      out += "  w" + std::to_string(x->world) + " c" + std::to_string(x->rank) + " " + coords_text(c) + "\n";
  }
  return out;
}

// ---- graphs -------------------------------------------------------------------------

std::string node(const Instance& in, int r) {
  const auto& m = in.any->members;
  return std::to_string(r) + (r >= 0 && r < int(m.size()) ? "(w" + std::to_string(m[size_t(r)]) + ")" : "");
}

std::string draw_graph(const Instance& in, int width) {
  const Description& d = *in.any;
  std::string out = titled(d, "graph") + ": " + std::to_string(d.index.size()) + " nodes, " +
                    std::to_string(d.edges.size()) + " edge entries; node = graph rank(world rank)\n";
  int prev = 0;
  for (size_t i = 0; i < d.index.size(); ++i) {
    std::string line = "  " + pad(node(in, int(i)), 8) + " ->";
    for (int e = prev; e < d.index[i] && e < int(d.edges.size()); ++e) line += " " + node(in, d.edges[size_t(e)]);
    prev = d.index[i];
    out += wrap_line(line, 14, width);
  }
  return out;
}

std::string weighted(const std::vector<int>& ranks, const std::vector<int>& weights, bool has_w,
                     const Instance& in) {
  std::string s;
  for (size_t i = 0; i < ranks.size(); ++i) {
    s += " " + node(in, ranks[i]);
    if (has_w && i < weights.size()) s += "[" + std::to_string(weights[i]) + "]";
  }
  return s.empty() ? " -" : s;
}

std::string draw_dist_graph(const Instance& in, int width) {
  const Description& d = *in.any;
  bool any_w = false;
  for (const auto& [r, x] : in.by_rank) any_w = any_w || x->source_weighted || x->dest_weighted;
  std::string out = titled(d, "distributed graph") + " (" + std::to_string(d.size) +
                    " ranks); rank(world rank)" + (any_w ? ", [weight]" : ", unweighted") + "\n";
  for (const auto& [r, x] : in.by_rank) {
    out += wrap_line("  " + pad(node(in, r), 8) + " in <-" +
                         weighted(x->sources, x->sourceweights, x->source_weighted, in), 17, width);
    out += wrap_line("  " + std::string(8, ' ') + " out ->" +
                         weighted(x->dests, x->destweights, x->dest_weighted, in), 17, width);
  }
  return out;
}

std::string notes_of(const Instance& in) {
  std::set<std::string> notes;
  for (const auto& [r, x] : in.by_rank)
    for (const auto& n : x->notes) notes.insert(n);
  std::string out;
  for (const auto& n : notes) out += "  note: " + n + "\n";
  return out;
}

int world_size_of(const std::map<int, Description>& per_rank) {
  int n = 0;
  for (const auto& [w, d] : per_rank) {
    n = std::max(n, w + 1);
    for (int m : d.members) n = std::max(n, m + 1);
    for (int m : d.remote) n = std::max(n, m + 1);
  }
  return n;
}

std::vector<int> ranks_of_kind(const std::map<int, Description>& per_rank, const std::string& kind) {
  std::vector<int> out;
  for (const auto& [w, d] : per_rank)
    if (d.kind == kind) out.push_back(w);
  return out;
}

// ---- datatypes ------------------------------------------------------------------------

// One letter per basic type in the map: its name's first letter if free
// (i for MPI_INT), else another letter of its name, else any free one.
std::map<std::string, char> type_letters(const Description& d) {
  std::map<std::string, char> out;
  std::set<char> used = {'.', '#', '|'};
  auto pick = [&](const std::string& name) {
    std::string body = name.rfind("MPI_", 0) == 0 ? name.substr(4) : name;
    std::string candidates;
    for (char c : body)
      if (std::isalnum(static_cast<unsigned char>(c))) candidates += char(std::tolower(c)), candidates += c;
    candidates += "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    for (char c : candidates)
      if (!used.count(c)) return used.insert(c), c;
    return '?';
  };
  for (const auto& r : d.runs)
    if (!out.count(r.name)) out[r.name] = pick(r.name);
  return out;
}

// The byte offsets [lo, hi) a drawing of d covers: data, lb and ub.
std::pair<long long, long long> type_span(const Description& d) {
  long long ub = d.lb + d.extent;
  long long lo = std::min(d.lb, ub), hi = std::max(d.lb, ub);
  for (const auto& r : d.runs) lo = std::min(lo, r.offset), hi = std::max(hi, r.offset + r.count * r.bytes);
  return {lo, hi};
}

// "3 blocks: 8@-32 8@-16 8@0": the map's merged byte blocks.
std::string type_blocks(const Description& d) {
  std::vector<std::pair<long long, long long>> blocks;  // offset, length
  for (const auto& r : d.runs) {
    long long len = r.count * r.bytes;
    if (!blocks.empty() && blocks.back().first + blocks.back().second == r.offset) blocks.back().second += len;
    else blocks.push_back({r.offset, len});
  }
  std::string out = std::to_string(blocks.size()) + (blocks.size() == 1 ? " block:" : " blocks:");
  for (size_t i = 0; i < blocks.size() && i < 8; ++i)
    out += " " + std::to_string(blocks[i].second) + "@" + std::to_string(blocks[i].first);
  if (blocks.size() > 8) out += " ...";
  return out + " (bytes@offset)";
}

// The bytes [lo, hi) of d, one character each: the letter of the basic type
// there, . a hole, # bytes two entries share (`overlap` tells if any).
std::string type_bytes(const Description& d, long long lo, long long hi, std::map<std::string, char>& letters,
                       bool& overlap) {
  std::string bytes(size_t(hi - lo), '.');
  for (const auto& r : d.runs)
    for (long long b = 0; b < r.count * r.bytes; ++b) {
      char& c = bytes[size_t(r.offset + b - lo)];
      overlap = overlap || c != '.';
      c = c == '.' ? letters[r.name] : '#';
    }
  return bytes;
}

// The ruler: lines of `bytes` (offsets [lo, hi)) fitting `width`, each after
// its first offset, with | before the bytes at lb and ub.
std::string type_ruler(const Description& d, const std::string& bytes, long long lo, long long hi, int width) {
  long long per_line = std::max(16LL, (width - 12LL) / 8 * 8);
  const long long ub = d.lb + d.extent;
  std::string out;
  for (long long start = lo; start < hi || start == lo; start += per_line) {
    std::string line = rpad(std::to_string(start), 7) + " ";
    for (long long o = start; o < std::min(hi, start + per_line); ++o) {
      if (o == d.lb || o == ub) line += '|';
      line += bytes[size_t(o - lo)];
    }
    long long end = std::min(hi, start + per_line);
    if (end == hi && (hi == d.lb || hi == ub)) line += '|';
    out += line + "\n";
    if (hi == lo) break;
  }
  return out;
}

// What the ruler's characters mean.
std::string type_legend(const Description& d, const std::map<std::string, char>& letters, bool overlap) {
  std::string legend = "  ";
  for (const auto& [name, c] : letters) {
    long long bytes_each = 0;
    for (const auto& r : d.runs)
      if (r.name == name) bytes_each = r.bytes;
    legend += std::string(1, c) + " = " + name + " (" + std::to_string(bytes_each) +
              (bytes_each == 1 ? " byte), " : " bytes), ");
  }
  return legend + ". = hole, " + (overlap ? "# = bytes of two entries, " : "") + "| = lb and ub\n";
}

// One datatype: a ruler of bytes, one character each (a letter per basic
// type, . a hole, # bytes two entries share), | before the bytes at lb and
// ub; then the legend and the numbers.
std::string draw_type(const Description& d, int width) {
  std::string out = d.text + "\n";
  if (!d.has_bounds) return out;
  auto [lo, hi] = type_span(d);
  auto letters = type_letters(d);
  constexpr long long kMaxDrawn = 4096;
  if (hi - lo <= kMaxDrawn) {
    bool overlap = false;
    std::string bytes = type_bytes(d, lo, hi, letters, overlap);
    out += type_ruler(d, bytes, lo, hi, width) + type_legend(d, letters, overlap);
  } else {
    out += "  (spans " + std::to_string(hi - lo) + " bytes: too wide to draw byte by byte)\n";
  }
  out += "  lb " + std::to_string(d.lb) + ", extent " + std::to_string(d.extent) + " (ub " +
         std::to_string(d.lb + d.extent) + "); true lb " + std::to_string(d.true_lb) + ", true extent " +
         std::to_string(d.true_extent) + "; size " + std::to_string(d.type_size) + " bytes in " + type_blocks(d) +
         "\n  count elements repeat this map every extent bytes\n";
  for (const auto& n : d.notes) out += "  note: " + n + "\n";
  return out;
}

// Every distinct datatype description, with the world ranks that hold it
// when not all of them do.
std::string draw_types(const std::map<int, Description>& per_rank, int width) {
  std::map<std::string, std::vector<int>> ranks;  // drawing -> world ranks
  for (const auto& [w, d] : per_rank)
    if (d.kind == "type") ranks[draw_type(d, width)].push_back(w);
  std::vector<std::pair<std::vector<int>, std::string>> in_rank_order;
  for (const auto& [drawing, rs] : ranks) in_rank_order.push_back({rs, drawing});
  std::sort(in_rank_order.begin(), in_rank_order.end());
  std::string out;
  for (const auto& [rs, drawing] : in_rank_order) {
    if (ranks.size() > 1 || rs.size() != per_rank.size()) out += "world ranks " + format_ranks(rs) + ":\n";
    out += drawing + "\n";
  }
  return out;
}

// ---- windows ------------------------------------------------------------------------

// One line per rank of each window: its memory as elements of the buffer's
// type, element index above (0-based, as target_disp counts in disp_unit
// = element size).
std::string draw_wins(const std::map<int, Description>& per_rank) {
  std::string out;
  std::vector<const Description*> wins;
  for (const auto& [w, d] : per_rank)
    if (d.kind == "win") wins.push_back(&d);
  if (wins.empty()) return out;
  const std::string& text = wins.front()->text;
  out += text.substr(0, text.find(" rank=")) + (text.find("(freed)") != std::string::npos ? " (freed)" : "") +
         ": each rank's window memory\n";
  for (const Description* d : wins) {
    std::string head = "  rank " + std::to_string(d->rank) + " (world " + std::to_string(d->world) + ")";
    if (d->win_bytes < 0) {
      out += head + ": (no memory)\n";
    } else {
      out += head + ": " + std::to_string(d->win_bytes) + " bytes, disp_unit " + std::to_string(d->disp_unit) + ", " +
             std::to_string(d->elems) + " x " + d->elem + "\n    ";
      for (size_t i = 0; i < d->values.size(); ++i) out += (i ? " " : "") + ("[" + std::to_string(i) + "]=") + d->values[i];
      out += "\n";
    }
    for (const auto& n : d->notes) out += "    note: " + n + "\n";
  }
  return out;
}

// ---- all of them together -------------------------------------------------------------

// The partition matrix being built: a row per plain communicator, group
// and side of an intercommunicator, and the legend under it.
struct Partition {
  std::vector<Row> rows;
  std::string legend;

  // A row for `members`, lettered A, B, ...; returns the letter.
  std::string add(const std::vector<int>& members) {
    std::string l = letter(rows.size());
    rows.push_back(row_of(l, members));
    return l;
  }
};

// An intercommunicator: a row for each of its groups, and how they pair.
void add_inter(Partition& p, const Key& key, const Description& d) {
  std::string a = p.add(key.first), b = p.add(key.second);
  p.legend += "  " + a + " <==> " + b + ": " + titled(d, "intercommunicator") + ", local group " + a + " (" +
              std::to_string(key.first.size()) + " ranks), remote group " + b + " (" +
              std::to_string(key.second.size()) + " ranks)\n";
}

// The communicators and groups: those with a topology drawn on their own
// (returned), the others as rows of `p` (an intercommunicator once, not
// once per side).
std::string draw_comms(const std::map<int, Description>& per_rank, Partition& p, int width) {
  std::string out;
  std::set<Key> drawn_inter;
  for (const auto& [key, in] : instances(per_rank, "comm")) {
    const Description& d = *in.any;
    if (d.inter) {
      if (drawn_inter.count({key.second, key.first})) continue;  // the other side of one drawn
      drawn_inter.insert(key);
      add_inter(p, key, d);
    } else if (d.topo == "cart") {
      out += draw_cart(in, width) + notes_of(in) + "\n";
    } else if (d.topo == "graph") {
      out += draw_graph(in, width) + notes_of(in) + "\n";
    } else if (d.topo == "dist_graph") {
      out += draw_dist_graph(in, width) + notes_of(in) + "\n";
    } else {
      std::string l = p.add(key.first);
      p.legend += "  " + l + ": " + titled(d, "") + " size " + std::to_string(key.first.size()) + "\n" + notes_of(in);
    }
  }
  for (const auto& [key, in] : instances(per_rank, "group")) {
    std::string l = p.add(key.first);
    p.legend += "  " + l + ": group of " + std::to_string(key.first.size()) + "\n";
  }
  return out;
}

// When no rank holds anything drawable: what each holds instead.
std::string nothing_to_draw(const std::map<int, Description>& per_rank) {
  std::map<int, std::string> texts;
  for (const auto& [w, d] : per_rank)
    texts[w] = d.kind == "other" ? d.text : d.kind == "null" ? "nil" : "(no description)";
  std::string out = "nothing to draw: not a communicator, group, datatype or window on any rank\n";
  for (const auto& l : collate(texts)) out += l + "\n";
  return out;
}

// ---- DOT -------------------------------------------------------------------------------

std::string dot_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// Node `r` of the cluster `id`: "c0_3".
std::string dot_node(const std::string& id, int r) { return id + "_" + std::to_string(r); }

// A communicator as a cluster of its ranks: "w5 / 2" (world rank / rank in
// it), and a Cartesian rank's coordinates. Members without a topology's
// edges stand in one row in rank order: graphviz lays out unlinked nodes
// in any order (it put rank 1 left of rank 0), so an invisible chain on the
// same rank fixes it.
std::string dot_cluster(const std::string& id, const Instance& in) {
  const Description& d = *in.any;
  std::string out = "  subgraph cluster_" + id + " {\n    label=\"" + dot_escape(titled(d, "")) + "\";\n";
  std::string chain;
  for (const auto& [r, x] : in.by_rank) {
    std::string label = "w" + std::to_string(x->world) + " / " + std::to_string(r);
    if (d.topo == "cart") label += "\\n" + coords_text(x->coords);
    out += "    " + dot_node(id, r) + " [label=\"" + label + "\"];\n";
    chain += (chain.empty() ? "" : " -> ") + dot_node(id, r);
  }
  const bool has_edges = d.topo == "cart" || d.topo == "graph" || d.topo == "dist_graph";
  if (!has_edges && in.by_rank.size() > 1) out += "    { rank=same; " + chain + " [style=invis]; }\n";
  return out + "  }\n";
}

// A Cartesian grid's edges: each cell to the next in every dimension,
// dashed where a periodic dimension wraps. Ranks whose coordinates do not
// have d's dimensions (the same members holding different grids) get none.
std::string dot_cart_edges(const std::string& id, const Instance& in) {
  const Description& d = *in.any;
  std::map<std::vector<int>, int> rank_at;
  for (const auto& [r, x] : in.by_rank)
    if (x->coords.size() == d.dims.size()) rank_at[x->coords] = r;
  std::string out;
  for (const auto& [coords, r] : rank_at)
    for (size_t dim = 0; dim < d.dims.size(); ++dim) {
      auto next = coords;
      bool wrap = next[dim] + 1 == d.dims[dim];
      if (wrap && !(dim < d.periods.size() && d.periods[dim])) continue;
      next[dim] = (next[dim] + 1) % d.dims[dim];
      if (!rank_at.count(next) || (wrap && d.dims[dim] < 2)) continue;
      out += "  " + dot_node(id, r) + " -> " + dot_node(id, rank_at[next]) + " [dir=none" +
             (wrap ? ", style=dashed, constraint=false" : "") + ", label=\"dim " + std::to_string(dim) + "\"];\n";
    }
  return out;
}

// A graph's edges, from its index and edges arrays.
std::string dot_graph_edges(const std::string& id, const Description& d) {
  std::string out;
  int prev = 0;
  for (size_t i = 0; i < d.index.size(); ++i) {
    for (int e = prev; e < d.index[i] && e < int(d.edges.size()); ++e)
      out += "  " + dot_node(id, int(i)) + " -> " + dot_node(id, d.edges[size_t(e)]) + ";\n";
    prev = d.index[i];
  }
  return out;
}

// A distributed graph's edges, each rank's out-edges with their weights.
std::string dot_dist_edges(const std::string& id, const Instance& in) {
  std::string out;
  for (const auto& [r, x] : in.by_rank)
    for (size_t i = 0; i < x->dests.size(); ++i)
      out += "  " + dot_node(id, r) + " -> " + dot_node(id, x->dests[i]) +
             (x->dest_weighted && i < x->destweights.size()
                  ? " [label=\"" + std::to_string(x->destweights[i]) + "\"]"
                  : "") + ";\n";
  return out;
}

}  // namespace

Description parse_description(const std::string& text) {
  Description d;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    size_t sp = line.find(' ');
    auto field = kFields.find(line.substr(0, sp));
    if (field != kFields.end()) field->second(d, sp == std::string::npos ? "" : line.substr(sp + 1));
  }
  return d;
}

std::string draw_text(const std::map<int, Description>& per_rank, int width) {
  Partition p;
  std::string out = draw_comms(per_rank, p, width);
  if (!p.rows.empty()) {
    const int world_size = world_size_of(per_rank);
    out += "COMM_WORLD (" + std::to_string(world_size) + " ranks) by communicator; cell = rank in it, . = not a member\n";
    out += matrix(p.rows, world_size, width) + p.legend;
  }
  if (auto nulls = ranks_of_kind(per_rank, "null"); !nulls.empty() && (!p.rows.empty() || !out.empty()))
    out += "  COMM_NULL (nil) on world ranks " + format_ranks(nulls) + "\n";
  out += draw_types(per_rank, width);
  out += draw_wins(per_rank);
  if (out.empty()) out = nothing_to_draw(per_rank);
  while (out.size() >= 2 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n') out.pop_back();
  return out;
}

std::string draw_dot(const std::map<int, Description>& per_rank) {
  std::string out = "digraph lumpi {\n  node [shape=box, fontname=\"monospace\"];\n";
  auto comms = instances(per_rank, "comm");
  int n = 0;
  for (const auto& [key, in] : comms) {
    const Description& d = *in.any;
    std::string id = "c" + std::to_string(n++);
    out += dot_cluster(id, in);
    if (d.inter) {
      // the remote side is its own instance; link the two leaders once
      Key other{key.second, key.first};
      if (key < other && comms.count(other))
        out += "  " + id + "_0 -> c" + std::to_string(std::distance(comms.begin(), comms.find(other))) +
               "_0 [dir=both, style=bold, label=\"intercomm\"];\n";
    } else if (d.topo == "cart") {
      out += dot_cart_edges(id, in);
    } else if (d.topo == "graph") {
      out += dot_graph_edges(id, d);
    } else if (d.topo == "dist_graph") {
      out += dot_dist_edges(id, in);
    }
  }
  return out + "}\n";
}

}  // namespace lumpi::repl
