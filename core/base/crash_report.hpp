// core/base/crash_report.hpp: what a rank that dies of a signal says (the
// rank, the signal, the MPI call it was in, the program's source line;
// crash_report.cpp), shared by the C and C++ doors.
//
// The rule: the call a report names is the outermost one the program made.
// Each door names its calls at its boundary with an InCall (C's run_call,
// the C++ API's guarded, Lua's wrap<>); a call of one door made inside a
// call of the other (the C door runs C++ API functions) or from a user
// callback inside MPI keeps the outer name, so a C program's report says
// the C function it called. Naming a call is one thread-local store.
#pragma once

#include <cstdint>
#include <vector>

namespace lumpi::core {

// The MPI call in progress on this thread (null outside MPI) and the last
// one begun; the number of outermost calls begun, so the current one's
// serial tells it from every other (the C door's local-concurrency check,
// the engine's polling watch).
extern constinit thread_local const char* t_current_call;
extern constinit thread_local const char* t_last_call;
extern constinit thread_local uint64_t t_call_serial;

// The name a Lua call begins with (lua/binding.hpp's wrap<> serves every
// function of the module and does not know which MPI call it is): a
// function that needs its MPI name (a test or probe, for the polling watch)
// gives it with name_call.
inline constexpr char kUnnamedCall[] = "an MPI call";
inline void name_call(const char* func) {
  if (t_current_call == kUnnamedCall) t_current_call = t_last_call = func;
}

// Names the call func for its lifetime, unless a call is already in progress.
class InCall {
 public:
  explicit InCall(const char* func) : outermost_(t_current_call == nullptr) {
    if (!outermost_) return;
    t_current_call = t_last_call = func;
    ++t_call_serial;
  }
  ~InCall() {
    if (outermost_) t_current_call = nullptr;
  }
  InCall(const InCall&) = delete;
  InCall& operator=(const InCall&) = delete;

 private:
  bool outermost_;
};

// Installs the report for the process, rank being its rank in the world
// (lumpi::Init; nothing in a sanitized build, whose sanitizer reports).
void install_crash_report(int rank);

// The program's return addresses on the current stack (innermost first,
// as addr2line wants them) and its executable's path: the C checker's
// creation sites (capi/c_check_resource.cpp). Empty before the report is
// installed.
std::vector<uintptr_t> program_frames();
const char* program_path();

}  // namespace lumpi::core
