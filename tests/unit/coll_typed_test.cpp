// tests/unit/coll_typed_test.cpp: the typed-buffer collectives
// (core/coll/coll_typed.hpp) and the byte algorithms under them, on worlds of
// 1..16 ranks run as threads in this process, each with its own Engine on
// loopback TCP. Every result is compared with a serial oracle.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "core/coll/coll.hpp"
#include "core/coll/coll_typed.hpp"
#include "core/comm/comm.hpp"
#include "core/base/constants.hpp"
#include "core/engine/engine.hpp"
#include "core/base/error.hpp"

namespace coll = lumpi::core::coll;
namespace typed = lumpi::core::coll::typed;
using lumpi::core::Comm;
using lumpi::core::Engine;
using lumpi::core::ErrClass;
using lumpi::core::Error;

namespace {

const int kSizes[] = {1, 2, 3, 4, 5, 7, 8, 16};

// Runs fn(world) on n threads forming one world; returns how many threads
// failed a check (doctest's CHECK is not thread-safe, so count here).
int run_world(int n, const std::function<bool(Comm&)>& fn) {
  std::vector<std::unique_ptr<Engine>> engines;
  std::vector<std::string> endpoints;
  for (int r = 0; r < n; ++r) {
    engines.push_back(std::make_unique<Engine>(r, n, "tcp://127.0.0.1:*"));
    endpoints.push_back(engines.back()->endpoint());
  }
  for (auto& e : engines) e->set_peer_endpoints(endpoints);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int r = 0; r < n; ++r) {
    threads.emplace_back([&, r] {
      auto world = Comm::world(*engines[size_t(r)]);
      try {
        if (!fn(*world)) ++failures;
      } catch (const std::exception& e) {
        std::fprintf(stderr, "rank %d of %d: %s\n", r, n, e.what());
        ++failures;
      }
    });
  }
  for (auto& t : threads) t.join();
  return failures;
}

int64_t contribution(int r, int i) { return int64_t(r) * 1000 + i * 7 - 3; }

}  // namespace

TEST_CASE("typed allreduce, reduce (every root), scan and exscan match the serial sums") {
  for (int n : kSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Comm& c) {
            const int me = c.rank(), count = 5;
            std::vector<int64_t> in(count), out(count, -1), want(count, 0), pre(count, 0);
            for (int i = 0; i < count; ++i) in[size_t(i)] = contribution(me, i);
            bool ok = true;
            typed::allreduce(c, in.data(), out.data(), count, typed::Type::Int64, typed::Op::Sum);
            for (int i = 0; i < count; ++i) {
              for (int r = 0; r < n; ++r) want[size_t(i)] += contribution(r, i);
              ok &= out[size_t(i)] == want[size_t(i)];
            }
            for (int root = 0; root < n; ++root) {
              std::vector<int64_t> got(count, -1);
              typed::reduce(c, in.data(), got.data(), count, typed::Type::Int64, typed::Op::Sum, root);
              if (me == root) ok &= got == want;
            }
            std::vector<int64_t> sc(count), ex(count, 42);
            typed::scan(c, in.data(), sc.data(), count, typed::Type::Int64, typed::Op::Max);
            typed::exscan(c, in.data(), ex.data(), count, typed::Type::Int64, typed::Op::Sum);
            for (int i = 0; i < count; ++i) {
              for (int r = 0; r < me; ++r) pre[size_t(i)] += contribution(r, i);
              ok &= sc[size_t(i)] == contribution(me, i);  // contributions grow with rank
              ok &= ex[size_t(i)] == (me == 0 ? 42 : pre[size_t(i)]);
            }
            return ok;
          }) == 0);
  }
}

TEST_CASE("typed allreduce on a large double vector (reduce_scatter + allgather) is exact and identical") {
  for (int n : {3, 4, 5, 8}) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Comm& c) {
            const int count = 20011;  // not a multiple of n
            std::vector<double> in(count), out(count), want(count, 0.0);
            for (int i = 0; i < count; ++i) in[size_t(i)] = double(c.rank() * count + i);
            typed::allreduce(c, in.data(), out.data(), count, typed::Type::Double, typed::Op::Sum);
            for (int i = 0; i < count; ++i)
              for (int r = 0; r < n; ++r) want[size_t(i)] += double(r * count + i);
            return out == want;  // integer-valued doubles: exact in any order
          }) == 0);
  }
}

TEST_CASE("typed data movement: bcast, gather, scatter, allgather, alltoall") {
  for (int n : kSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Comm& c) {
            const int me = c.rank();
            bool ok = true;
            for (int root = 0; root < n; ++root) {
              int32_t b[3] = {me, me, me};
              typed::bcast(c, b, 3, typed::Type::Int32, root);
              ok &= b[0] == root && b[2] == root;
              int32_t mine[2] = {me, -me};
              std::vector<int32_t> all(size_t(2 * n), 99);
              typed::gather(c, mine, all.data(), 2, typed::Type::Int32, root);
              if (me == root)
                for (int r = 0; r < n; ++r) ok &= all[size_t(2 * r)] == r && all[size_t(2 * r + 1)] == -r;
              std::vector<int32_t> parts(static_cast<size_t>(n));
              for (int r = 0; r < n; ++r) parts[size_t(r)] = root * 100 + r;
              int32_t got = -1;
              typed::scatter(c, parts.data(), &got, 1, typed::Type::Int32, root);
              ok &= got == root * 100 + me;
            }
            std::vector<int32_t> everyone(static_cast<size_t>(n));
            typed::allgather(c, &me, everyone.data(), 1, typed::Type::Int32);
            for (int r = 0; r < n; ++r) ok &= everyone[size_t(r)] == r;
            std::vector<int32_t> out(static_cast<size_t>(n)), in(static_cast<size_t>(n));
            for (int j = 0; j < n; ++j) out[size_t(j)] = me * 100 + j;
            typed::alltoall(c, out.data(), in.data(), 1, typed::Type::Int32);
            for (int i = 0; i < n; ++i) ok &= in[size_t(i)] == i * 100 + me;
            return ok;
          }) == 0);
  }
}

TEST_CASE("typed reduce_scatter with uneven counts and zeros; reduce_scatter_block") {
  for (int n : kSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n](Comm& c) {
            const int me = c.rank();
            std::vector<int> counts(static_cast<size_t>(n));
            for (int r = 0; r < n; ++r) counts[size_t(r)] = (r * 5) % 3;  // 0, 2, 1, 0, ...
            const int total = std::accumulate(counts.begin(), counts.end(), 0);
            std::vector<int64_t> in(static_cast<size_t>(total));
            for (int i = 0; i < total; ++i) in[size_t(i)] = contribution(me, i);
            std::vector<int64_t> out(static_cast<size_t>(counts[static_cast<size_t>(me)] + 1), -1);
            typed::reduce_scatter(c, in.data(), out.data(), counts, typed::Type::Int64, typed::Op::Sum);
            int first = std::accumulate(counts.begin(), counts.begin() + me, 0);
            bool ok = true;
            for (int k = 0; k < counts[size_t(me)]; ++k) {
              int64_t want = 0;
              for (int r = 0; r < n; ++r) want += contribution(r, first + k);
              ok &= out[size_t(k)] == want;
            }
            ok &= out.back() == -1;  // nothing written past the block
            std::vector<uint8_t> blocks(size_t(2 * n));
            for (int i = 0; i < 2 * n; ++i) blocks[size_t(i)] = uint8_t(1 << ((me + i) % 8));
            uint8_t mine[2] = {0, 0};
            typed::reduce_scatter_block(c, blocks.data(), mine, 2, typed::Type::UInt8, typed::Op::Bor);
            for (int k = 0; k < 2; ++k) {
              uint8_t want = 0;
              for (int r = 0; r < n; ++r) want |= uint8_t(1 << ((r + 2 * me + k) % 8));
              ok &= mine[k] == want;
            }
            return ok;
          }) == 0);
  }
}

TEST_CASE("byte reductions keep rank order for a non-commutative combine at every size") {
  coll::Combine cat = [](const coll::Bytes& a, const coll::Bytes& b) { return a + b; };
  for (int n : kSizes) {
    CAPTURE(n);
    CHECK(run_world(n, [n, &cat](Comm& c) {
            const int me = c.rank();
            auto word = [](int r) { return "<" + std::to_string(r) + ">"; };
            std::string all;
            for (int r = 0; r < n; ++r) all += word(r);
            bool ok = coll::allreduce(c, word(me), cat, false) == all;
            for (int root = 0; root < n; ++root) {
              auto got = coll::reduce(c, word(me), cat, false, root);
              ok &= me == root ? (got && *got == all) : !got;
            }
            std::string prefix;
            for (int r = 0; r <= me; ++r) prefix += word(r);
            ok &= coll::scan(c, word(me), cat) == prefix;
            auto ex = coll::exscan(c, word(me), cat);
            ok &= me == 0 ? !ex : (ex && *ex == prefix.substr(0, prefix.size() - word(me).size()));
            std::vector<coll::Bytes> parts;
            for (int i = 0; i < n; ++i) parts.push_back(std::to_string(i) + word(me));
            std::string want;
            for (int r = 0; r < n; ++r) want += std::to_string(me) + word(r);
            ok &= coll::reduce_scatter(c, parts, cat, false) == want;
            return ok;
          }) == 0);
  }
}

TEST_CASE("typed argument errors are raised before any communication") {
  CHECK(run_world(2, [](Comm& c) {
          double d[2] = {1, 2}, o[2];
          int64_t i[2] = {1, 2};
          int caught = 0;
          auto expect = [&](ErrClass cls, const std::function<void()>& f) {
            try {
              f();
            } catch (const Error& e) {
              caught += e.cls() == cls;
            }
          };
          expect(ErrClass::Op, [&] { typed::allreduce(c, d, o, 2, typed::Type::Double, typed::Op::Band); });
          expect(ErrClass::Count, [&] { typed::allreduce(c, i, i, -1, typed::Type::Int64, typed::Op::Sum); });
          expect(ErrClass::Buffer, [&] { typed::allreduce(c, nullptr, o, 2, typed::Type::Double, typed::Op::Sum); });
          expect(ErrClass::Root, [&] { typed::bcast(c, d, 2, typed::Type::Double, 2); });
          expect(ErrClass::Count, [&] { typed::reduce_scatter(c, i, i, {1}, typed::Type::Int64, typed::Op::Sum); });
          typed::reduce_local(d, d, 2, typed::Type::Double, typed::Op::Sum);
          coll::barrier(c);  // nobody is stuck in a half-started collective
          return caught == 5 && d[0] == 2 && d[1] == 4;
        }) == 0);
}
