// repl/view/collate.hpp: rank sets and the collated display of per-rank results.
//
// Identical results from several ranks print once with a rank set
// ("[0-3] 4"); different results print one line per distinct value, in rank
// order of the first rank holding it. Pure text functions, no I/O.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lumpi::repl {

// "0-2,5,7-9": runs of two or more consecutive ranks fold into a-b.
std::string format_ranks(const std::vector<int>& ranks);
// Parses "0,2-3" (or "all") against a world of `size`; nullopt with `error` set if bad.
std::optional<std::vector<int>> parse_ranks(const std::string& text, int size, std::string* error);

// Groups rank -> text by text: (text, its ranks), one per distinct text,
// ordered by their first rank; with `by_value` false, one per rank
// (--no-collate).
std::vector<std::pair<std::string, std::vector<int>>> group_by_text(const std::map<int, std::string>& by_rank,
                                                                    bool by_value = true);

// The groups as lines "[ranks] text". Multi-line texts keep their lines
// under one prefix.
std::vector<std::string> collate(const std::map<int, std::string>& by_rank, bool by_value = true);

}  // namespace lumpi::repl
