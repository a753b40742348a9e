// core/comm/verdict.cpp: a process's verdict on a collective call, and the
// leaders' exchange that carries it across an intercommunicator.
#include "core/comm/verdict.hpp"

namespace lumpi::core {

Verdict Verdict::of(int rank, const std::function<void()>& check) {
  try {
    check();
    return {};
  } catch (const Error& e) {
    return Verdict(rank, Error::with_code(e.code(), e.func(),
                                          e.message() + " (on rank " + std::to_string(rank) + ")"));
  }
}

const Verdict& Verdict::first(const Verdict& other) const {
  if (ok()) return other;
  if (other.ok() || rank_ <= other.rank_) return *this;
  return other;
}

void Verdict::raise() const {
  if (err_) throw *err_;
}

std::string Verdict::pack() const {
  if (!err_) return {};
  return Packer().i64(rank_).i64(err_->code()).bytes(err_->func()).bytes(err_->message()).take();
}

Verdict Verdict::unpack(std::string_view b, std::string_view func) {
  if (b.empty()) return {};
  Unpacker u(b, func);
  int rank = u.i32();
  int code = u.i32();
  std::string f = u.bytes(), message = u.bytes();
  u.end();
  return Verdict(rank, Error::with_code(code, std::move(f), std::move(message)));
}

Exchanged exchange_agreed(Team& t, const std::string& mine, const std::string& key,
                          const std::function<Error(int rank)>& differs, int tag) {
  std::vector<std::string> keys = team_gather(t, key, 0, tag + 2);
  Verdict v;
  for (int r = 1; t.me == 0 && r < t.n && v.ok(); ++r)
    if (keys[size_t(r)] != keys[0]) v = Verdict(r, differs(r));
  Exchanged x = exchange_across(t, Packer().bytes(v.pack()).bytes(mine).take(), tag);
  Unpacker own(x.own, t.what.call), theirs(x.theirs, t.what.call);
  Verdict own_v = Verdict::unpack(own.bytes(), t.what.call),
          their_v = Verdict::unpack(theirs.bytes(), t.what.call);
  Exchanged out{own.bytes(), theirs.bytes()};
  own.end(), theirs.end();
  const bool local_first = t.c.local_group()[0] < t.c.remote_group()[0];
  const Verdict& left = local_first ? own_v : their_v;
  const Verdict& right = local_first ? their_v : own_v;
  (left.ok() ? right : left).raise();
  return out;
}

}  // namespace lumpi::core
