// scripts/cxx/examples.hpp: the C++ example programs (ring.cpp, rows_cols.cpp,
// halo.cpp, uneven.cpp, particles.cpp) as functions of a world communicator,
// so that the unit tests run them on worlds of threads and each program's
// main() runs them on lumpi::COMM_WORLD. Each checks its own result against
// a serial answer and returns 0 on every rank if all ranks got it right, 1
// on every rank if not.
#pragma once

#include <string>

#include "core/api/lumpi.hpp"

namespace examples {

int ring(const lumpi::Intracomm& world);
int rows_cols(const lumpi::Intracomm& world);
int halo(const lumpi::Intracomm& world);
int uneven(const lumpi::Intracomm& world);
// report: what rank 0 prints (the type's size and extent, the gathered
// particles, the heaviest), when given.
int particles(const lumpi::Intracomm& world, std::string* report = nullptr);

// Every rank's verdict combined: 0 if `ok` held on every rank, else 1.
inline int agree(const lumpi::Intracomm& world, bool ok) {
  int bad = ok ? 0 : 1, any = 0;
  world.Allreduce(&bad, &any, 1, lumpi::INT, lumpi::MAX);
  return any;
}

}  // namespace examples
