// core/rma/win_flavors.cpp: the window flavours beyond create and allocate
// (MPI-3.1 §11.2.3-4): shared-memory windows (allocate_shared,
// shared_query) over one POSIX shared-memory segment per window, and
// dynamic windows (create_dynamic, attach, detach), whose targets check
// each operation against the regions attached there (win.cpp).
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <iterator>

#include "core/base/constants.hpp"
#include "core/base/error.hpp"
#include "core/rma/win_state.hpp"

namespace lumpi::core {

using namespace rma;

// ---- dynamic windows ----------------------------------------------------------------

WinPtr Win::create_dynamic(Comm& comm, std::string_view func) {
  WinPtr w = create(comm, nullptr, 0, 1, func, WIN_FLAVOR_DYNAMIC);
  w->state_->dynamic = true;
  return w;
}

void Win::attach(void* base, std::int64_t size) {
  const char* func = "MPI_Win_attach";
  check_usable(func);
  if (flavor_ != WIN_FLAVOR_DYNAMIC) fail(ErrClass::RmaFlavor, func, "win is not a dynamic window (WIN_FLAVOR_DYNAMIC)");
  if (size < 0) fail(ErrClass::Size, func, "size = " + std::to_string(size) + " must not be negative");
  if (!base && size > 0) fail(ErrClass::Base, func, "base is NULL");
  auto& regions = state_->regions;
  const std::uintptr_t lo = reinterpret_cast<std::uintptr_t>(base), hi = lo + std::uintptr_t(size);
  auto next = regions.lower_bound(lo);
  bool overlaps = (next != regions.end() && next->first < hi) ||
                  (next != regions.begin() && std::prev(next)->first + std::uintptr_t(std::prev(next)->second) > lo);
  if (regions.count(lo) || (size > 0 && overlaps))
    fail(ErrClass::RmaAttach, func, "the memory overlaps a region already attached to win");
  regions[lo] = size;
}

void Win::detach(const void* base) {
  const char* func = "MPI_Win_detach";
  check_usable(func);
  if (flavor_ != WIN_FLAVOR_DYNAMIC) fail(ErrClass::RmaFlavor, func, "win is not a dynamic window (WIN_FLAVOR_DYNAMIC)");
  if (!state_->regions.erase(reinterpret_cast<std::uintptr_t>(base)))
    fail(ErrClass::RmaAttach, func, "base is not the start of a region attached to win");
}

// ---- shared-memory windows -------------------------------------------------------------

namespace {

// A shared-memory segment of `bytes`, mapped here; it goes (munmap) with
// the last owner. create: made by this process under `name`, else opened.
std::shared_ptr<void> map_segment(const std::string& name, std::int64_t bytes, bool create, std::string_view func) {
  int fd = shm_open(name.c_str(), create ? O_RDWR | O_CREAT | O_EXCL : O_RDWR, 0600);
  if (fd < 0) fail(ErrClass::NoMem, func, "shm_open " + name + ": " + std::strerror(errno));
  size_t len = size_t(std::max<std::int64_t>(bytes, 1));
  if (create && ftruncate(fd, off_t(len)) != 0) {
    std::string why = std::strerror(errno);
    close(fd);
    shm_unlink(name.c_str());
    fail(ErrClass::NoMem, func, "a shared segment of " + std::to_string(len) + " bytes: " + why);
  }
  void* p = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (p == MAP_FAILED) fail(ErrClass::NoMem, func, std::string("mmap of a shared segment: ") + std::strerror(errno));
  return std::shared_ptr<void>(p, [len](void* q) { munmap(q, len); });
}

std::string host_name() {
  char h[256] = {};
  gethostname(h, sizeof h - 1);
  return h;
}

}  // namespace

// Every rank tells its host and size; rank 0 makes the segment and names
// it; the others map it; once all have, rank 0 unlinks the name (the
// mappings keep the memory until the last goes).
WinPtr Win::allocate_shared(Comm& comm, std::int64_t size, int disp_unit, std::string_view func) {
  comm.check_usable(func);
  comm.check_intra(func);
  if (size < 0) fail(ErrClass::Size, func, "size = " + std::to_string(size) + " must not be negative");
  std::string fn(func);
  std::vector<std::string> all = allgather(comm, Packer().bytes(host_name()).i64(size).take(), fn.c_str());
  std::vector<std::int64_t> offsets;
  std::int64_t total = 0;
  for (const std::string& b : all) {
    Unpacker u(b, func);
    if (u.bytes() != host_name())
      fail(ErrClass::RmaShared, func, "the ranks of comm run on several hosts; shared memory needs one");
    offsets.push_back(total);
    total += u.i64();
  }
  std::string name;
  std::shared_ptr<void> seg;
  if (comm.rank() == 0) {
    name = "/lumpi-win-" + std::to_string(getpid()) + "-" + std::to_string(comm.engine().propose_context());
    seg = map_segment(name, total, true, func);
  }
  std::vector<std::string> names = allgather(comm, name, fn.c_str());
  if (comm.rank() != 0) seg = map_segment(names[0], total, false, func);
  barrier(comm, fn.c_str());  // every rank has mapped it
  if (comm.rank() == 0) shm_unlink(name.c_str());
  char* mine = static_cast<char*>(seg.get()) + offsets[size_t(comm.rank())];
  WinPtr w = create(comm, mine, size, disp_unit, func, WIN_FLAVOR_SHARED);
  w->memory_ = seg;
  for (std::int64_t off : offsets) w->shared_bases_.push_back(static_cast<char*>(seg.get()) + off);
  return w;
}

Win::SharedPart Win::shared_query(int rank) const {
  const char* func = "MPI_Win_shared_query";
  check_usable(func);
  if (flavor_ != WIN_FLAVOR_SHARED) fail(ErrClass::RmaFlavor, func, "win is not a shared-memory window (WIN_FLAVOR_SHARED)");
  check_rank(rank, func);
  if (rank == PROC_NULL) {
    for (size_t r = 0; r < sizes_.size(); ++r)
      if (sizes_[r] > 0) return {sizes_[r], units_[r], shared_bases_[r]};
    return {0, units_[0], shared_bases_[0]};
  }
  std::int64_t n = sizes_[size_t(rank)];
  return {n, units_[size_t(rank)], n > 0 ? shared_bases_[size_t(rank)] : nullptr};  // (MPICH's NULL for an empty part)
}

}  // namespace lumpi::core
