# capi/lumpiConfig.cmake (installed as lib/cmake/lumpi/lumpiConfig.cmake):
# find_package(lumpi) for programs built against an installed lumpi.
#   lumpi::mpi    the C API (mpi.h, libmpi): target_link_libraries(prog lumpi::mpi)
#   lumpi::lumpi  the C++ API (lumpi.hpp) with lumpi::Init
# Run what you build with `lumpi exec -n N prog`. The libraries are static;
# their dependencies (cppzmq, libzmq, hwloc) are found here as lumpi found them.
include(CMakeFindDependencyMacro)
find_dependency(cppzmq)
find_dependency(Threads)
find_dependency(PkgConfig)
if(NOT TARGET PkgConfig::HWLOC)
  pkg_check_modules(HWLOC REQUIRED IMPORTED_TARGET hwloc)
endif()
include("${CMAKE_CURRENT_LIST_DIR}/lumpiTargets.cmake")
