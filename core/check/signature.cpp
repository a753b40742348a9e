// core/check/signature.cpp: canonical type signatures (core/check/signature.hpp).
#include "core/check/signature.hpp"

#include <complex>
#include <type_traits>
#include <vector>

#include "core/engine/engine.hpp"

namespace lumpi::core::check {
namespace {

// A basic type's class: its kind of C representation and its size. 0 for
// MPI_BYTE and MPI_PACKED, which match anything.
int class_of(Basic b) {
  if (b == Basic::Byte || b == Basic::Packed) return 0;
  int kind = 0;
  with_basic(b, [&]<class T>() {
    if constexpr (std::is_same_v<T, bool>) kind = 1;
    else if constexpr (is_complex_type<T>) kind = 2;
    else if constexpr (std::is_floating_point_v<T>) kind = 3;
    else if constexpr (std::is_signed_v<T>) kind = 4;
    else kind = 5;
    kind = kind * 64 + int(sizeof(T));
  });
  return kind;
}

struct Stretch {
  int cls;
  std::int64_t n;
  bool operator==(const Stretch&) const = default;
};

// One element's basic types, adjacent runs of one class merged.
std::vector<Stretch> stretches(const Datatype& t, bool* any) {
  std::vector<Stretch> out;
  for (const Run& r : t.typemap()) {
    int cls = class_of(r.basic);
    if (cls == 0) *any = true;
    if (r.count == 0) continue;
    if (!out.empty() && out.back().cls == cls) out.back().n += r.count;
    else out.push_back({cls, r.count});
  }
  return out;
}

// The shortest d such that s is s[0..d) repeated.
size_t period(const std::vector<Stretch>& s) {
  for (size_t d = 1; d < s.size(); ++d) {
    if (s.size() % d) continue;
    bool ok = true;
    for (size_t i = d; ok && i < s.size(); ++i) ok = s[i] == s[i % d];
    if (ok) return d;
  }
  return s.size();
}

std::uint64_t hash(const std::vector<Stretch>& s, size_t d) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a over (class, length) pairs
  for (size_t i = 0; i < d; ++i)
    for (std::uint64_t v : {std::uint64_t(s[i].cls), std::uint64_t(s[i].n)}) h = (h ^ v) * 1099511628211ull;
  return h;
}

}  // namespace

Sig signature(const Datatype& t, std::int64_t count) {
  Sig sig;
  std::string name = t.name().empty() ? "a derived datatype" : t.name();
  sig.text = std::to_string(count) + " x " + name;
  bool any = false;
  std::vector<Stretch> s = stretches(t, &any);
  if (any) {
    sig.kind = Sig::Kind::Any;
  } else if (s.empty() || count == 0) {
    sig.kind = Sig::Kind::Empty;
  } else if (s.size() == 1) {  // one class: n elements of it per element of t
    sig.kind = Sig::Kind::Known;
    sig.unit = hash({{s[0].cls, 1}}, 1);
    sig.reps = s[0].n * count;
    sig.one_basic = true;
  } else if (s.front().cls == s.back().cls && count > 1) {
    sig.kind = Sig::Kind::Any;  // repeats merge at their ends: not compared
  } else {
    size_t d = period(s);
    sig.kind = Sig::Kind::Known;
    sig.unit = hash(s, d);
    sig.reps = std::int64_t(s.size() / d) * count;
  }
  return sig;
}

bool compatible(const Sig& a, const Sig& b, bool units_only) {
  using K = Sig::Kind;
  if (a.kind == K::None || b.kind == K::None || a.kind == K::Any || b.kind == K::Any) return true;
  if (units_only) return a.kind != K::Known || b.kind != K::Known || a.unit == b.unit;
  if (a.kind == K::Empty || b.kind == K::Empty) return a.kind == b.kind;
  return a.unit == b.unit && a.reps == b.reps;
}

WireSig wire(const Sig& s, const std::string& call) {
  WireSig w;
  w.kind = s.kind == Sig::Kind::Known ? (s.one_basic ? 4 : 3) : uint8_t(s.kind);
  w.unit = s.unit;
  w.reps = s.reps;
  w.text = call + " of " + s.text;
  return w;
}

WireSig p2p_signature(const Comm& c, const char* call, const Side& side, bool receive) {
  if (!c.engine().checking() || !side.type) return {};
  std::string who = call;
  if (receive) who = "rank " + std::to_string(c.rank()) + "'s " + who;
  return wire(signature(*side.type, side.count), who);
}

void check_matched(const Comm& c, const char* call, const Side& side, const Received& m) {
  if (!c.engine().checking()) return;
  std::string text = p2p_mismatch(m.sig, p2p_signature(c, call, side, true), m.status.source, m.status.tag, c.name());
  if (!text.empty()) c.engine().report_check("type-mismatch", text);
}

CallSignatures::CallSignatures(const Comm& c, const char* call, const Side& send, const Side& recv) {
  if (!c.engine().checking()) return;
  engine_ = &c.engine();
  engine_->call_signatures() = {p2p_signature(c, call, send, false), p2p_signature(c, call, recv, true)};
}

CallSignatures::~CallSignatures() {
  if (engine_) engine_->call_signatures() = {};
}

Side v_side(const int* counts, int n, TypePtr t) {
  if (!t) return {};
  Side s{0, std::move(t), true};
  for (int i = 0; counts && i < n; ++i) {
    s.counts.push_back(counts[i]);
    if (counts[i] > 0) s.count = 1;
  }
  return s;
}

}  // namespace lumpi::core::check
