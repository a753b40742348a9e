// core/check/unreceived.cpp: the messages no receive took, at MPI_Finalize
// (core/check/unreceived.hpp states the rule).
#include "core/check/unreceived.hpp"

#include <string>

#include "core/comm/comm_build.hpp"
#include "core/engine/engine.hpp"

namespace lumpi::core::check {

namespace {

using build::kFinalizeMarker;  // a tag of the internal lane, which no user message reaches
constexpr int kListed = 5;  // messages named one by one; the rest counted

std::string describe(const Engine& e, const Message& m) {
  const std::string name = e.context_name(base_of(m.env.context));
  return "from world rank " + std::to_string(m.env.source) + " with tag " + std::to_string(m.env.tag) + " on " +
         (name.empty() ? "a communicator" : "'" + name + "'") + " (" + std::to_string(m.body.size()) + " bytes)";
}

}  // namespace

void report_unreceived(Comm& world) {
  Engine& e = world.engine();
  if (!e.checking() || world.size() < 2) return;
  for (int q = 0; q < world.size(); ++q)
    if (q != world.rank()) world.lane_send(Lane::Internal, q, kFinalizeMarker, Body());
  for (int q = 0; q < world.size(); ++q)
    if (q != world.rank())
      world.lane_recv(Lane::Internal, q, kFinalizeMarker, world.waiting("MPI_Finalize", "source", q));
  std::string listed;
  int count = 0;
  for (const Message& m : e.matcher().unexpected()) {
    if (lane_of(m.env.context) != Lane::P2P) continue;
    if (++count <= kListed) listed += (count > 1 ? "; " : "") + describe(e, m);
  }
  if (count == 0) return;
  if (count > kListed) listed += "; and " + std::to_string(count - kListed) + " more";
  e.report_check("request-lifecycle",
                 "MPI_Finalize: " + std::to_string(count) + (count == 1 ? " message" : " messages") +
                     " sent to this rank " + (count == 1 ? "was" : "were") + " never received: " + listed +
                     " (MPI-3.1 §8.7: every communication of a process completes before it calls MPI_Finalize; a "
                     "buffered send completes without its receive, but its message still needs one)");
}

}  // namespace lumpi::core::check
