// tests/unit/api_world.hpp: the harness of the C++ API's unit tests
// (api_test.cpp, api_datatype_test.cpp): worlds of ranks run as threads of
// this process, each thread with its own Engine on an ipc endpoint and its
// own lumpi::Intracomm world, and the checks every such test makes.
#pragma once

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "core/api/api_detail.hpp"
#include "core/engine/engine.hpp"
#include "core/api/lumpi.hpp"

namespace lumpi::test {

// Runs fn(world) on n threads forming one world (under --check's checks if
// `checking`); returns how many ranks failed (returned false or threw).
// doctest's CHECK is not thread-safe, so ranks report through their return
// value, naming what failed on stderr.
inline int run_world(int n, const std::function<bool(Intracomm&)>& fn, bool checking = false) {
  static std::atomic<int> serial{0};
  const std::string dir =
      "/tmp/lumpi-api-" + std::to_string(getpid()) + "-" + std::to_string(++serial);
  std::filesystem::create_directories(dir);
  std::vector<std::unique_ptr<core::Engine>> engines;
  std::vector<std::string> endpoints;
  for (int r = 0; r < n; ++r) {
    engines.push_back(std::make_unique<core::Engine>(r, n, "ipc://" + dir + "/" + std::to_string(r)));
    engines.back()->set_checking(checking);
    endpoints.push_back(engines.back()->endpoint());
  }
  for (auto& e : engines) e->set_peer_endpoints(endpoints);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int r = 0; r < n; ++r) {
    threads.emplace_back([&, r] {
      Intracomm world = detail::world_of(*engines[size_t(r)]);
      try {
        if (!fn(world)) {
          std::fprintf(stderr, "rank %d of %d: a check failed\n", r, n);
          ++failures;
        }
      } catch (const std::exception& e) {
        std::fprintf(stderr, "rank %d of %d: %s\n", r, n, e.what());
        ++failures;
      }
    });
  }
  for (auto& t : threads) t.join();
  engines.clear();
  std::filesystem::remove_all(dir);
  return failures;
}

// Runs f, which must throw a lumpi::Exception of class cls from func whose
// message contains `words`.
inline bool raises(int cls, const std::string& func, const std::string& words,
            const std::function<void()>& f) {
  try {
    f();
  } catch (const Exception& e) {
    const bool ok = e.Get_error_class() == cls && e.Get_function() == func &&
                    e.Get_message().find(words) != std::string::npos;
    if (!ok) std::fprintf(stderr, "unexpected exception: %s\n", e.what());
    return ok;
  }
  std::fprintf(stderr, "%s did not raise\n", func.c_str());
  return false;
}

// After a Barrier, nothing may be waiting for this rank: the erroneous calls
// before it sent nothing.
inline bool nothing_pending(const Intracomm& c) {
  c.Barrier();
  return !c.Iprobe(ANY_SOURCE, ANY_TAG);
}

}  // namespace lumpi::test
