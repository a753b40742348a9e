// core/check/resource.cpp: the ledger of objects a program holds
// (resource.hpp) and the door to the engine's checking switch and sink.
#include "core/check/resource.hpp"

#include "core/comm/comm.hpp"
#include "core/engine/engine.hpp"

namespace lumpi::core::check {

namespace {
struct KindText {
  const char* noun;
  const char* free_call;
  const char* section;
};
// MPI-3.1's section of each free call.
const KindText kText[] = {
    {"communicator", "MPI_Comm_free", "§6.4.3"},
    {"group", "MPI_Group_free", "§6.3.3"},
    {"datatype", "MPI_Type_free", "§4.1.9"},
    {"op", "MPI_Op_free", "§5.9.5"},
    {"info object", "MPI_Info_free", "§9"},
    {"error handler", "MPI_Errhandler_free", "§8.3.4"},
    {"attribute keyval", "MPI_Comm_free_keyval, MPI_Type_free_keyval or MPI_Win_free_keyval", "§6.7"},
    {"window", "MPI_Win_free", "§11.2.5"},
    {"request", "MPI_Request_free", "§3.7.3"},
};
}  // namespace

const char* noun(Kind k) { return kText[int(k)].noun; }
const char* free_call(Kind k) { return kText[int(k)].free_call; }
const char* section(Kind k) { return kText[int(k)].section; }

const Origin* Ledger::origin(Kind k, int64_t handle) const {
  auto it = live_.find({k, handle});
  return it == live_.end() ? nullptr : &it->second;
}

std::string describe(const Origin& o, const WhereOf& where_of) {
  std::string where = o.where;
  if (where.empty() && !o.frames.empty() && where_of) where = where_of(o.frames);
  return where.empty() ? o.call : o.call + " at " + where;
}

std::vector<std::string> Ledger::leaks(const WhereOf& where_of) const {
  std::vector<std::string> out;
  for (const auto& [key, o] : live_) {
    Kind k = key.first;
    const bool vowel = std::string("aeiou").find(noun(k)[0]) != std::string::npos;
    out.push_back(std::string("MPI_Finalize: ") + (vowel ? "an " : "a ") + noun(k) + " created by " + describe(o, where_of) +
                  " was never freed (" + free_call(k) + ", MPI-3.1 " + section(k) +
                  "; §8.7: a program frees what it created before MPI_Finalize)");
  }
  return out;
}

bool checking(const Comm& any) { return any.engine().checking(); }

void report(const Comm& any, const std::string& check_class, const std::string& text) {
  any.engine().report_check(check_class, text);
}

}  // namespace lumpi::core::check
