// core/check/resource.cpp: the ledger of objects a program holds
// (resource.hpp) and the door to the engine's checking switch and sink.
#include "core/check/resource.hpp"

#include <cstdio>

#include "core/base/crash_report.hpp"
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

std::string source_line_of(const std::vector<uintptr_t>& frames) {
  std::string cmd = std::string("addr2line -f -C -p -e '") + program_path() + "'";
  char hex[24];
  for (uintptr_t a : frames) {
    std::snprintf(hex, sizeof hex, " %#lx", static_cast<unsigned long>(a));
    cmd += hex;
  }
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return "";
  std::string found;
  char line[1024];
  while (found.empty() && std::fgets(line, sizeof line, p)) {
    std::string l(line);
    size_t at = l.find(" at ");
    if (at == std::string::npos || l.find("??") != std::string::npos) continue;
    std::string fn = l.substr(0, at), pos = l.substr(at + 4);
    if (fn.rfind("lumpi::", 0) == 0 || fn.rfind("MPI_", 0) == 0 || fn.rfind("PMPI_", 0) == 0 ||
        fn.find("std::") != std::string::npos)
      continue;
    pos = pos.substr(0, pos.find_first_of(" \n"));
    found = pos.substr(pos.rfind('/') + 1) + " (" + fn + ")";
  }
  pclose(p);
  return found;
}

Finding held_at_finalize(const std::string& made, bool persistent, bool active) {
  if (!persistent)
    return {"request-lifecycle", "MPI_Finalize: the operation of " + made +
                                     " was never completed by MPI_Wait, MPI_Test or their forms (MPI-3.1 §3.7.3; "
                                     "§8.7: a process completes the operations it started before MPI_Finalize)"};
  if (active)
    return {"request-lifecycle", "MPI_Finalize: the persistent request made by " + made +
                                     " was started and never completed by MPI_Wait, MPI_Test or their forms "
                                     "(MPI-3.1 §3.9, §3.7.3; §8.7)"};
  return {"resource-leak", "MPI_Finalize: the persistent request made by " + made +
                               " was never freed (MPI_Request_free, MPI-3.1 §3.9, §3.7.3; §8.7: a program frees "
                               "what it created before MPI_Finalize)"};
}

namespace {
bool is_one_of(const std::string& call, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (call == n) return true;
  return false;
}
}  // namespace

Finding freed_while_active(const std::string& made, const std::string& call) {
  if (call == "MPI_Grequest_start") return {"request-lifecycle", ""};
  const std::string what = "MPI_Request_free: the request of " + made +
                           " was freed before its operation was completed by MPI_Wait, MPI_Test or their forms: ";
  if (is_one_of(call, {"MPI_Irecv", "MPI_Imrecv", "MPI_Recv_init"}))
    return {"request-lifecycle", what + "the receiver can no longer know when its buffer holds the message "
                                        "(MPI-3.1 §3.7.3: an active receive request should never be freed)"};
  return {"request-lifecycle", what + "the program can no longer learn when the operation completes and its "
                                      "buffers may be used again, nor of an error in it (MPI-3.1 §3.7.3, advice "
                                      "to users)"};
}

bool checking(const Comm& any) { return any.engine().checking(); }

void report(const Comm& any, const std::string& check_class, const std::string& text) {
  any.engine().report_check(check_class, text);
}

}  // namespace lumpi::core::check
