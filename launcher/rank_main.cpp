// launcher/rank_main.cpp: the lumpi-rank executable. Started by the
// coordinator (or another launcher), never by a user directly.
#include <cstdio>
#include <exception>

#include "launcher/rank.hpp"

int main() {
  try {
    lumpi::launcher::Rank rank;
    return rank.run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lumpi-rank: %s\n", e.what());
    return 70;
  }
}
