// capi/pmpi.hpp: the profiling interface (MPI-3.1 §14.2). Each function
// of mpi.h is defined once, as PMPI_<name>, and MPI_<name> is a weak alias
// of that definition, in libmpi.a and in libmpi.so alike. A tool's own
// MPI_<name> (in the program, or in a library loaded before libmpi.so)
// then takes the place of lumpi's for the whole program and reaches lumpi
// through PMPI_<name>.
//
// libmpi's sources keep writing MPI_<name>, where they define a function
// and where they call one: pmpi_names.h, generated from mpi.h's prototypes
// (capi/CMakeLists.txt), renames every MPI_<name> to PMPI_<name> before
// mpi.h is read. So lumpi's own calls of MPI functions go straight to
// lumpi, never through a tool's wrappers (§14.2.2 allows either): a wrapper
// counting MPI_Send counts the program's calls.
//
// LUMPI_PMPI(name); on the line before a definition makes the weak alias
// MPI_<name> of PMPI_<name>, with PMPI_<name>'s type. A definition without
// it has no MPI_ name, which tests/integration/test_pmpi.py reports.
#pragma once

#include "pmpi_names.h"

#define LUMPI_PMPI(name)                                                                   \
  extern "C" decltype(PMPI_##name) lumpi_weak_MPI_##name __asm__("MPI_" #name) \
      __attribute__((weak, alias("PMPI_" #name)))
