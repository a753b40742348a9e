// repl/kernel/kernel.hpp: lumpi as a Jupyter kernel (`lumpi kernel`).
//
// `lumpi kernel install [--user | --prefix DIR] [-n N]` writes the kernelspec
// "lumpi"; `lumpi kernel -f CONNECTION_FILE [-n N]` is the kernel: every cell
// runs on every target rank of one world, as a REPL command does.
#pragma once

#include <string>

#include "repl/session.hpp"

namespace lumpi::repl {

// `lumpi kernel ...`: argv[0] is "kernel". Returns the process exit status.
// (repl/kernel/kernel_spec.cpp)
int kernel_command(int argc, char** argv, const std::string& rank_exe);

// Serves the connection file's sockets with a world of `o.size` ranks until
// a shutdown request. Throws std::runtime_error if it cannot start.
// (repl/kernel/kernel.cpp)
int run_kernel(const std::string& connection_file, const Session::Options& o);

}  // namespace lumpi::repl
