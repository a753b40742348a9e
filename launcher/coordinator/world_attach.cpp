// launcher/coordinator/world_attach.cpp: a world that waits for a REPL (`lumpi world`,
// World::serve) and the REPL's view of it (`lumpi attach FILE`): the attach
// socket, the relay, one REPL at a time, detaching, ending (world.hpp).
//
// On the attach socket every message is an ordinary control message with
// one frame in front: the rank it is for (REPL -> world) or from (world ->
// REPL), or "-" for the world itself (attach, detach, quit, kill, refused,
// died, ping; launcher/README.md). The world answers `attach` with the
// ranks' hellos, a `died` for each rank already gone and `start`; then it
// relays. It pings the REPL every kBeatMs: with ZMQ_ROUTER_MANDATORY a ping
// to a REPL whose connection closed fails, and the world is free again; a
// REPL that hears no ping for kLostMs reports every rank lost.
//
// Each REPL numbers its commands from 1, but a rank's epochs must only grow
// (it discards an interrupted epoch's messages for good), so the world adds
// the highest epoch it has relayed before this REPL came to every epoch it
// passes on, takes it off the results, and drops results of older REPLs'
// commands. A REPL that goes away without :detach has its last command
// interrupted, so the next REPL does not queue behind it.
#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <ctime>
#include <stdexcept>
#include <unistd.h>

#include "launcher/protocol/clock.hpp"
#include "launcher/coordinator/world.hpp"

namespace lumpi::launcher {
namespace {

constexpr const char* kWorld = "-";  // the first frame of a message for or from the world itself

void set_attach_options(zmq::socket_t& s) {
  s.set(zmq::sockopt::sndhwm, 0);
  s.set(zmq::sockopt::rcvhwm, 0);
  s.set(zmq::sockopt::heartbeat_ivl, 1000);  // a connection whose peer's host is cut off closes
  s.set(zmq::sockopt::heartbeat_timeout, 5000);
}

std::string clock_text() {
  char buf[16];
  time_t t = time(nullptr);
  struct tm tm {};
  localtime_r(&t, &tm);
  strftime(buf, sizeof buf, "%H:%M:%S", &tm);
  return buf;
}

}  // namespace

// ---- the waiting world ----------------------------------------------------------------------

void World::bind_attach(const std::string& endpoint, const CurveKeys& keys) {
  attach_ = zmq::socket_t(ctx_, zmq::socket_type::router);
  attach_.set(zmq::sockopt::linger, 0);
  attach_.set(zmq::sockopt::router_mandatory, 1);
  set_attach_options(attach_);
  curve_server(attach_, keys);
  attach_.bind(endpoint);
  attach_endpoint_ = attach_.get(zmq::sockopt::last_endpoint);
  serving_ = true;
}

// A local world's connection file: fresh keys for the attach socket alone
// (its ranks talk over ipc in the private directory), no heartbeat endpoint.
void World::serve_local(const Options& opts) {
  CurveKeys keys = make_keys();
  zap_ = std::make_unique<ZapHandler>(ctx_, keys.public_key, "lumpi world");
  bind_attach("ipc://" + dir_ + "/attach", keys);
  join_path_ = opts.jobfile.empty() ? dir_ + "/job" : opts.jobfile;
  write_join_file(join_path_, JoinInfo{control_endpoint_, "none", size(), opts.bind, keys, true, attach_endpoint_});
  if (!opts.jobfile.empty()) rundir_.also_remove(join_path_);
}

// Sends m to routing id `id`, addressed `to`; false when that peer is not
// connected (any more).
bool World::send_routed(const std::string& id, const std::string& to, const ControlMsg& m) {
  try {
    send_frames(attach_, encode(m, {id, to}));
    return true;
  } catch (const zmq::error_t& e) {
    if (e.num() == EHOSTUNREACH) return false;
    throw;
  }
}

// The REPL `id` takes the world: the table of ranks, then start.
void World::take_repl(const std::string& id) {
  repl_ = id;
  epoch_base_ = epoch_seen_;
  for (int r = 0; r < size(); ++r) {
    const RankInfo& info = ranks_[size_t(r)];
    if (!info.joined) continue;
    ControlMsg h = msg(Kind::Hello);
    h.rank = r, h.pid = info.pid > 0 ? info.pid : 1, h.text = info.host, h.endpoint = info.endpoint;
    send_routed(id, kWorld, h);
  }
  for (int r = 0; r < size(); ++r) {
    if (ranks_[size_t(r)].alive) continue;
    ControlMsg d = msg(Kind::Died);
    d.rank = r, d.code = ranks_[size_t(r)].wait_status;
    send_routed(id, kWorld, d);
  }
  ControlMsg start = msg(Kind::Start);
  for (const auto& ri : ranks_) start.list.push_back(ri.endpoint);
  send_routed(id, kWorld, start);
  std::fprintf(stderr, "lumpi world: a REPL attached at %s\n", clock_text().c_str());
}

// One message on the attach socket; true when the world is to end.
bool World::on_attach_message(const Frames& f) {
  if (f.size() < 3) return log_dropped("lumpi world", "attach message of " + std::to_string(f.size()) + " frames"), false;
  const std::string& id = f[0];
  std::string why;
  auto m = decode(Frames(f.begin() + 2, f.end()), &why);
  if (!m) return log_dropped("lumpi world", why), false;
  if (f[1] != kWorld) {  // for a rank: only from the attached REPL
    int r = -1;
    try {
      size_t used = 0;
      r = std::stoi(f[1], &used);
      if (used != f[1].size()) r = -1;
    } catch (const std::exception&) {
    }
    if (id != repl_ || r < 0 || r >= size()) return log_dropped("lumpi world", "message for '" + f[1].substr(0, 20) + "' from a REPL that is not attached or for no rank"), false;
    if (m->kind == Kind::Exec || m->kind == Kind::Interrupt || m->kind == Kind::Fail) {
      m->epoch += epoch_base_;
      epoch_seen_ = std::max(epoch_seen_, m->epoch);
    }
    send(r, *m);
    return false;
  }
  switch (m->kind) {
    case Kind::Attach:
      if (!repl_.empty() && repl_ != id && send_routed(repl_, kWorld, msg(Kind::Ping))) {  // still there
        send_routed(id, kWorld, text_msg(Kind::Refused, "another REPL is attached to this world; it must :detach (or end) first"));
        std::fprintf(stderr, "lumpi world: refused a second REPL at %s (one is attached)\n", clock_text().c_str());
        return false;
      }
      if (!repl_.empty() && repl_ != id) drop_repl();
      take_repl(id);
      return false;
    case Kind::Detach:
      if (id == repl_) {
        repl_.clear();
        std::fprintf(stderr, "lumpi world: the REPL detached at %s; waiting for another\n", clock_text().c_str());
      }
      return false;
    case Kind::Kill:
      if (id == repl_ && m->rank < size()) kill(m->rank);
      return false;
    case Kind::Quit:  // the attached REPL's :quit, or `lumpi world --stop`: anyone holding the keys
      std::fprintf(stderr, "lumpi world: told to end at %s\n", clock_text().c_str());
      end_served({id});
      return true;
    default:
      log_dropped("lumpi world", std::string("'") + kind_name(m->kind) + "' is no message for the world");
      return false;
  }
}

// The attached REPL's connection closed without a detach: its last command
// is interrupted if it still runs, and the world waits for another.
void World::drop_repl() {
  repl_.clear();
  ControlMsg stop = msg(Kind::Interrupt);
  stop.epoch = epoch_seen_;
  for (int r = 0; r < size() && epoch_seen_ > 0; ++r) send(r, stop);
  std::fprintf(stderr, "lumpi world: the REPL went away at %s; waiting for another\n", clock_text().c_str());
}

// What the ranks do reaches the attached REPL; while none is, output goes
// to our stdout, deaths to stderr, and an MPI_Abort ends the world.
void World::forward(const Event& ev) {
  if (!repl_.empty()) {
    if (ev.kind == Event::Kind::Message && ev.msg.kind == Kind::Result) {
      if (ev.msg.epoch <= epoch_base_) return;  // an earlier REPL's command
      ControlMsg m = ev.msg;
      m.epoch -= epoch_base_;
      send_routed(repl_, std::to_string(ev.rank), m);
    } else if (ev.kind == Event::Kind::Message) {
      send_routed(repl_, std::to_string(ev.rank), ev.msg);
    }
    if (ev.kind == Event::Kind::Death) {
      ControlMsg d = msg(Kind::Died);
      d.rank = ev.rank, d.code = ranks_[size_t(ev.rank)].wait_status;
      send_routed(repl_, kWorld, d);
    }
    return;
  }
  if (ev.kind == Event::Kind::Death) {
    std::fprintf(stderr, "lumpi world: rank %d died: %s\n", ev.rank,
                 describe_wait_status(ranks_[size_t(ev.rank)].wait_status).c_str());
  } else if (ev.msg.kind == Kind::Output) {
    std::printf("[%d] %s%s", ev.rank, ev.msg.text.c_str(), ev.msg.text.ends_with('\n') ? "" : "\n");
    std::fflush(stdout);
  } else if (ev.msg.kind == Kind::Abort) {
    std::fprintf(stderr, "lumpi world: rank %d called MPI_Abort (%d): %s; ending the world\n", ev.rank,
                 ev.msg.code, ev.msg.text.c_str());
    kill_all();
  }
}

// Stops every rank, then tells the attached REPL and `tell` how each ended
// and that the world is gone (bye 0).
void World::end_served(const std::vector<std::string>& tell) {
  relaying_ = false;
  shutdown(2000);
  std::vector<std::string> to = tell;
  if (!repl_.empty()) to.push_back(repl_);
  for (const auto& id : to) {
    for (int r = 0; r < size(); ++r) {
      ControlMsg d = msg(Kind::Died);
      d.rank = r, d.code = ranks_[size_t(r)].wait_status;
      send_routed(id, kWorld, d);
    }
    ControlMsg bye = msg(Kind::Bye);
    send_routed(id, kWorld, bye);
  }
  repl_.clear();
  attach_.set(zmq::sockopt::linger, 1000);  // the answers above leave before the socket closes
}

int World::serve(const std::function<bool()>& stop) {
  if (!serving_) throw std::logic_error("World::serve needs Options::serve");
  int64_t next_ping = 0;
  relaying_ = true;
  while (alive_count() > 0) {
    if (stop()) {
      std::fprintf(stderr, "lumpi world: stopped by a signal; ending the world\n");
      end_served({});
      return 0;
    }
    for (Frames f = recv_frames(attach_, false); !f.empty(); f = recv_frames(attach_, false))
      if (on_attach_message(f)) return 0;
    if (auto ev = next(kBeatMs)) forward(*ev);
    if (now_ms() >= next_ping) {
      next_ping = now_ms() + kBeatMs;
      if (!repl_.empty() && !send_routed(repl_, kWorld, msg(Kind::Ping))) drop_repl();
    }
  }
  relaying_ = false;
  for (auto ev = next(0); ev; ev = next(0)) forward(*ev);
  end_served({});
  std::fprintf(stderr, "lumpi world: every rank has ended\n");
  return 1;
}

// ---- the REPL's side ------------------------------------------------------------------------

void World::start_attached(const std::string& path) {
  JoinInfo j = read_join_file(path);
  if (j.attach.empty()) throw std::runtime_error(path + " is the job file of a world that does not wait for a REPL (start one with `lumpi world`)");
  attached_ = true;
  ranks_.assign(size_t(j.size), RankInfo{});
  for (int r = 0; r < j.size; ++r) ranks_[size_t(r)].identity = "rank-" + std::to_string(r);
  attach_endpoint_ = control_endpoint_ = j.attach;
  attach_ = zmq::socket_t(ctx_, zmq::socket_type::dealer);
  attach_.set(zmq::sockopt::linger, 1000);  // a detach on the way out is delivered
  char host[HOST_NAME_MAX + 1] = {0};
  gethostname(host, sizeof host - 1);
  attach_.set(zmq::sockopt::routing_id, "repl-" + std::string(host) + "-" + std::to_string(getpid()));
  set_attach_options(attach_);
  curve_client(attach_, j.keys);
  attach_.connect(j.attach);
  send_to_repl(kWorld, msg(Kind::Attach));
  last_heard_ = now_ms();
}

// (Attached) a message for the waiting world, addressed `to`.
void World::send_to_repl(const std::string& to, const ControlMsg& m) {
  send_frames(attach_, encode(m, {to}));
}

void World::detach() {
  if (!attached_ || detached_ || quit_sent_) return;
  send_to_repl(kWorld, msg(Kind::Detach));
  detached_ = true;
}

std::optional<World::Event> World::next_attached(int timeout_ms) {
  int64_t deadline = now_ms() + timeout_ms;
  for (;;) {
    Frames f = recv_frames(attach_, false);
    if (!f.empty()) {
      last_heard_ = now_ms();
      std::string why;
      auto m = f.size() < 2 ? std::nullopt : decode(Frames(f.begin() + 1, f.end()), &why);
      if (!m) {
        log_dropped("lumpi", "from the waiting world: " + (f.size() < 2 ? "no address frame" : why));
        continue;
      }
      if (f[0] != kWorld) {
        int r = rank_of_identity("rank-" + f[0], size());
        if (r < 0) {
          log_dropped("lumpi", "from the waiting world: no rank '" + f[0].substr(0, 20) + "'");
          continue;
        }
        if (m->kind == Kind::Finished) {  // the world answers it; its death follows
          ranks_[size_t(r)].finished = true;
          continue;
        }
        return Event{Event::Kind::Message, r, std::move(*m)};
      }
      bool in_range = m->rank >= 0 && m->rank < size();
      if (m->kind == Kind::Hello && in_range) {
        RankInfo& info = ranks_[size_t(m->rank)];
        info.pid = pid_t(m->pid), info.host = m->text, info.endpoint = m->endpoint;
        info.joined = info.alive = true;
        info.joined_at = now_ms();
      } else if (m->kind == Kind::Died && in_range && !wired_) {  // gone before we came: no news
        ranks_[size_t(m->rank)].alive = false;
        ranks_[size_t(m->rank)].wait_status = m->code;
      } else if (m->kind == Kind::Died && in_range) {
        mark_dead(m->rank, m->code);
      } else if (m->kind == Kind::Start) {
        wired_ = true;
        return std::nullopt;
      } else if (m->kind == Kind::Refused) {
        join_error_ = m->text;
        return std::nullopt;
      } else if (m->kind == Kind::Bye) {
        world_gone_ = true;
      } else if (m->kind != Kind::Ping) {
        log_dropped("lumpi", std::string("from the waiting world: unexpected '") + kind_name(m->kind) + "'");
      }
      continue;
    }
    if (wired_ && !world_gone_ && now_ms() - last_heard_ > kLostMs) {
      std::fprintf(stderr, "lumpi: the waiting world at %s does not answer (no ping for %d s)\n",
                   attach_endpoint_.c_str(), kLostMs / 1000);
      world_gone_ = true;
      for (int r = 0; r < size(); ++r) mark_dead(r, kStatusLost);
    }
    if (auto e = take_pending()) return e;
    int64_t left = deadline - now_ms();
    if (left <= 0) return std::nullopt;
    zmq::pollitem_t item{attach_.handle(), 0, ZMQ_POLLIN, 0};
    if (zmq_poll(&item, 1, long(std::min<int64_t>(left, 100))) < 0) {
      if (errno == EINTR) return std::nullopt;
      throw zmq::error_t();
    }
  }
}

// :quit of an attached REPL ends the world; after detach() nothing happens.
std::vector<int> World::shutdown_attached(int grace_ms) {
  if (detached_ || quit_sent_) return {};
  send_to_repl(kWorld, msg(Kind::Quit));
  quit_sent_ = true;
  int64_t deadline = now_ms() + grace_ms + 10000;  // the world's own grace and kill
  while (!world_gone_ && now_ms() < deadline) next_attached(20);
  pending_.clear();
  std::vector<int> left;
  for (int r = 0; r < size(); ++r)
    if (ranks_[size_t(r)].alive) left.push_back(r);
  return left;
}

void stop_waiting_world(const std::string& path, int timeout_ms) {
  JoinInfo j = read_join_file(path);
  if (j.attach.empty()) throw std::runtime_error(path + " is not the connection file of a waiting world");
  zmq::context_t ctx(1);
  zmq::socket_t s(ctx, zmq::socket_type::dealer);
  s.set(zmq::sockopt::linger, 0);
  curve_client(s, j.keys);
  s.connect(j.attach);
  send_frames(s, encode(msg(Kind::Quit), {kWorld}));
  int64_t deadline = now_ms() + timeout_ms;
  while (now_ms() < deadline) {
    zmq::pollitem_t item{s.handle(), 0, ZMQ_POLLIN, 0};
    if (zmq_poll(&item, 1, 100) < 0 && errno != EINTR) throw zmq::error_t();
    for (Frames in = recv_frames(s, false); !in.empty(); in = recv_frames(s, false))
      if (in.size() >= 2 && in[0] == kWorld && in[1] == kind_name(Kind::Bye)) return;
  }
  throw std::runtime_error("the waiting world of " + path + " did not confirm its end within " +
                           std::to_string(timeout_ms / 1000) + " s");
}

}  // namespace lumpi::launcher
