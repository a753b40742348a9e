# capi/lumpiConfig.cmake (installed as lib/cmake/lumpi/lumpiConfig.cmake):
# find_package(lumpi) for programs built against an installed lumpi.
#   lumpi::mpi           the C API (mpi.h, libmpi.so): target_link_libraries(prog lumpi::mpi)
#   lumpi::lumpi         the C++ API (lumpi.hpp) with lumpi::Init: libmpi.so as well
#   lumpi::mpi_static    the C API from the static libraries (libmpi.a and those under it)
#   lumpi::lumpi_static  the C++ API from the static libraries
# A program links the shared targets or the static ones, not both: each
# carries the whole runtime. Run what you build with `lumpi exec -n N prog`;
# a program finds libmpi.so by the run path CMake gives it. The static
# libraries' dependencies (cppzmq, libzmq, hwloc) are found here as lumpi
# found them. lumpi.hpp is C++20: the C++ targets ask for it
# (cxx_std_20), so a project need not set CMAKE_CXX_STANDARD.
include(CMakeFindDependencyMacro)
find_dependency(cppzmq)
find_dependency(Threads)
find_dependency(PkgConfig)
if(NOT TARGET PkgConfig::HWLOC)
  pkg_check_modules(HWLOC REQUIRED IMPORTED_TARGET hwloc)
endif()
include("${CMAKE_CURRENT_LIST_DIR}/lumpiTargets.cmake")
if(NOT TARGET lumpi::lumpi)
  add_library(lumpi::lumpi INTERFACE IMPORTED)
  set_target_properties(lumpi::lumpi PROPERTIES INTERFACE_LINK_LIBRARIES lumpi::mpi
                                                 INTERFACE_COMPILE_FEATURES cxx_std_20)
  set_property(TARGET lumpi::lumpi_static APPEND PROPERTY INTERFACE_COMPILE_FEATURES cxx_std_20)
endif()
