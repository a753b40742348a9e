// launcher/host/api_init.cpp: lumpi::Init and lumpi::Finalize of the public C++
// API (core/api/lumpi.hpp): a C++ program joins its world through the rank host
// (launcher/host/host.hpp), which keeps answering the coordinator (status,
// interrupts, peer deaths) while the program waits in MPI calls.
//
// It lives beside the host, not in core/, because the core knows nothing of
// how a process is started: a program that calls Init links lumpi_host.
//
// Init is the one start of both doors (MPI_Init and MPI_Init_thread call
// it), so what a program gets at its start is said once, here: the thread
// that calls Init enters MPI through the doors' InMpi (C's run_call, the
// C++ API's guarded and handle destructors), so its windows' targets
// progress while it computes outside MPI (core/engine/passive.cpp,
// docs/design/passive-progress.md); and a crash is reported with the rank,
// the signal and the MPI call (core/base/crash_report.hpp).
#include <cstdio>
#include <cstdlib>

#include "core/api/api_detail.hpp"
#include "core/api/lumpi.hpp"
#include "core/base/crash_report.hpp"
#include "core/check/unreceived.hpp"
#include "core/comm/comm_build.hpp"
#include "launcher/host/host.hpp"

namespace lumpi {

void Init() {
  core::set_fatal_sink(Abort);  // ERRORS_ARE_FATAL ends the job as MPI_Abort does
  try {
    if (launcher::Host::joined() || launcher::Host::finished())
      throw core::Error(core::ErrClass::Other, "MPI_Init", "MPI_Init was already called in this process");
    launcher::Host& host = launcher::Host::join();
    COMM_WORLD = detail::world_of(host.engine());
    COMM_SELF = detail::self_of(host.engine());
    host.engine().enable_passive_progress();
    core::install_crash_report(host.engine().world_rank());
    detail::start_checking(detail::core_of(COMM_WORLD, "MPI_Init"));
  } catch (const core::Error& e) {
    throw Exception(int(e.cls()), e.func(), e.message());
  } catch (const std::exception& e) {  // not started by lumpi exec
    throw Exception(int(core::ErrClass::Other), "MPI_Init", e.what());
  }
}

void Init(int&, char**&) { Init(); }

// COMM_SELF's attributes go first, their delete callbacks run (MPI-2.1
// Annex B item 22); under --check, what a C++ program still holds is
// reported (core/api/api_check.cpp); then a barrier, so no rank leaves
// while a peer still talks to it (under --check, then the messages no
// receive took: core/check/unreceived.hpp), then the host reports a
// normal finish.
void Finalize() {
  if (!launcher::Host::joined() || launcher::Host::finished())
    throw Exception(int(core::ErrClass::Other), "MPI_Finalize",
                    "MPI_Init was not called, or MPI_Finalize already was");
  detail::ApiCall in("MPI_Finalize");  // inside MPI until the engine is gone
  detail::delete_all_attrs(COMM_SELF, "MPI_Finalize");
  core::Comm& world = detail::core_of(COMM_WORLD, "MPI_Finalize");
  detail::check_finalize(world);
  core::build::finalize_barrier(world);
  core::check::report_unreceived(world);  // --check only
  COMM_WORLD = Intracomm();
  COMM_SELF = Intracomm();
  launcher::Host::join().finish(0);
}

bool Is_finalized() { return launcher::Host::finished(); }
bool Is_initialized() { return launcher::Host::joined() || launcher::Host::finished(); }

void Abort(int errorcode, const std::string& why) {
  std::fflush(stdout);
  if (launcher::Host::joined() && !launcher::Host::finished()) launcher::Host::join().abort(errorcode, why);
  std::fprintf(stderr, "lumpi: %s\n", why.c_str());
  std::_Exit(errorcode ? errorcode : 1);
}

}  // namespace lumpi
