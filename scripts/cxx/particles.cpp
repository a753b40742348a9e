// scripts/cxx/particles.cpp: derived datatypes and MAXLOC with lumpi's C++
// API. Each rank owns one particle, a struct with padding holes; a struct
// datatype gathers them to rank 0 without the holes, and MAXLOC on
// DOUBLE_INT finds the heaviest and its rank (the lowest rank on a tie:
// masses repeat every three ranks). Checked against a serial answer.
// Run: lumpi exec -n 6 build/cxx-particles
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

#include "scripts/cxx/examples.hpp"

namespace examples {

namespace {

struct Particle {
  char name;
  double mass;  // 7 bytes of padding before it
  int rank;     // 4 after it
};

double mass_of(int rank) { return 1.5 * (rank % 3); }

lumpi::Datatype particle_type() {
  const int lengths[3] = {1, 1, 1};
  const lumpi::Aint disps[3] = {offsetof(Particle, name), offsetof(Particle, mass), offsetof(Particle, rank)};
  const lumpi::Datatype types[3] = {lumpi::CHAR, lumpi::DOUBLE, lumpi::INT};
  lumpi::Datatype t = lumpi::Datatype::Create_struct(3, lengths, disps, types);
  t.Commit();
  t.Set_name("particle");
  return t;
}

}  // namespace

int particles(const lumpi::Intracomm& world, std::string* report) {
  const int p = world.Get_size(), me = world.Get_rank();
  lumpi::Datatype type = particle_type();
  Particle mine{char('a' + me % 26), mass_of(me), me};
  std::vector<Particle> all(static_cast<size_t>(p));
  world.Gather(&mine, 1, type, all.data(), 1, type, 0);
  struct {
    double mass;
    int rank;
  } in{mine.mass, me}, heaviest{};
  world.Allreduce(&in, &heaviest, 1, lumpi::DOUBLE_INT, lumpi::MAXLOC);

  int first = 0, ties = 0;  // the serial answer
  for (int r = 0; r < p; ++r) first = mass_of(r) > mass_of(first) ? r : first;
  for (int r = 0; r < p; ++r) ties += mass_of(r) == mass_of(first);
  bool ok = heaviest.mass == mass_of(first) && heaviest.rank == first;
  std::string gathered;
  for (int r = 0; me == 0 && r < p; ++r) {
    const Particle& q = all[size_t(r)];
    ok = ok && q.name == char('a' + r % 26) && q.mass == mass_of(r) && q.rank == r;
    gathered += " " + std::string(1, q.name) + "=" + std::to_string(q.mass).substr(0, 3);
  }
  lumpi::Aint lb, extent;
  type.Get_extent(lb, extent);
  if (report)
    *report = type.Get_name() + ": size " + std::to_string(type.Get_size()) + " bytes, extent " +
              std::to_string(extent) + " (the holes are not sent)\ngathered on rank 0:" + gathered +
              "\nheaviest: mass " + std::to_string(heaviest.mass).substr(0, 3) + " on rank " +
              std::to_string(heaviest.rank) + " (" + std::to_string(ties) + " ranks have it)\n";
  type.Free();
  return agree(world, ok);
}

}  // namespace examples

#ifndef LUMPI_EXAMPLE_NO_MAIN
int main(int argc, char** argv) {
  lumpi::Init(argc, argv);
  std::string report;
  int rc = examples::particles(lumpi::COMM_WORLD, &report);
  if (lumpi::COMM_WORLD.Get_rank() == 0)
    std::printf("%sparticles: %s on %d ranks\n", report.c_str(), rc ? "WRONG" : "ok", lumpi::COMM_WORLD.Get_size());
  lumpi::Finalize();
  return rc;
}
#endif
