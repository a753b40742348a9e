// lua/bind_request.cpp: request values (MPI-3.1 §3.7, §3.9): completing them
// (r:wait, r:test, r:get_status, mpi.waitall/waitany/testall/testany/
// waitsome/testsome), r:cancel, r:free, and persistent requests (r:start,
// mpi.startall). Point-to-point (lua/bind_p2p.cpp), the nonblocking
// collectives and idup make requests through push_request,
// push_request_with and push_persistent_request; only this file sees a
// RequestBox.
//
// MPI's rules, in Lua's terms:
// - A complete ordinary request keeps its value and status: r:wait, r:test
//   and mpi.waitall/testall return them again. The any and some calls skip
//   it once a call has returned its completion, as MPI skips the
//   MPI_REQUEST_NULL that completion leaves, so a loop over them returns each
//   completion once.
// - A persistent request returns its result once: completing it makes it
//   inactive, and an inactive one completes at once with nil and an empty
//   status; the any and some calls skip it.
// - nil in a sequence of requests is MPI_REQUEST_NULL: skipped by the any
//   and some calls, nil and an empty status in waitall/testall.
// - Every request of a sequence is checked (MPI_ERR_REQUEST naming
//   requests[i]) before any completes or starts. An operation's own error
//   answers to the handler of the communicator it was started on (§8.3).
#include <algorithm>
#include <climits>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "core/base/constants.hpp"
#include "core/check/buffer_watch.hpp"
#include "core/check/resource.hpp"
#include "lua/binding.hpp"
#include "lua/codec.hpp"
#include "lua/request.hpp"
#include "lua/typed.hpp"

namespace lumpi::lua {
namespace {

using core::ErrClass;
using core::fail;

constexpr char kRequestMeta[] = "lumpi.Request";
// Registry table whose keys are freed requests with a typed receive still
// to land: it keeps their buffers alive until then.
constexpr char kOrphansKey[] = "lumpi.request_orphans";

// Where the operation of an active request that r:free let go lands
// (core::Request::let_go: it still completes, §3.7.3): a typed receive's
// buffer. `landing` goes false if Lua lets go of the buffer first (the
// state closing); `done` once the operation is over.
struct Orphan {
  Typed target;
  bool landing = false;
  bool done = false;
};

// A request box keeps the core request and, once complete, the decoded value
// and status in its user values 1 and 2. User value 3 is the communicator the
// request was started on: errors of its completion answer to its handler
// (MPI §8.3). User value 4 is the message's memory: the buffer of a typed
// receive (unpacked into at completion) or typed persistent send, the value
// of a persistent send.
struct RequestBox {
  std::shared_ptr<core::Request> req;  // an ordinary request's operation; null once freed
  // The communicator, kept until the operation completes: a pending receive
  // reads its group, and c:free() may come first (MPI-3.1 §6.4.3: pending
  // operations complete normally).
  core::CommPtr comm;
  bool is_recv = false;
  bool finished = false;    // complete, its value and status in user values 1 and 2
  bool reported = false;    // an ordinary request whose completion a call has returned
  bool typed = false;       // a typed receive: target is where it lands
  bool collective = false;  // a nonblocking collective's or idup's: not to be freed (§5.12)
  bool freed = false;
  Typed target;
  PushValue push_value;  // nonblocking collectives: pushes the result
  std::shared_ptr<const Persistent> persistent;  // a persistent request
  std::shared_ptr<Orphan> orphan;  // after r:free, while a typed receive lands
  std::int64_t check_key = 0;      // a typed irecv's, watched under --check (watch_typed_receive)

  // The pending or complete operation; null while a persistent request is
  // inactive, and once freed.
  const std::shared_ptr<core::Request>& op() const { return persistent ? persistent->op->request() : req; }
};

RequestBox* test_request(lua_State* L, int idx) { return test_userdata<RequestBox>(L, idx, kRequestMeta); }

// ---- local concurrency under --check (core/check/buffer_watch.hpp) ----------------
// A Lua value is sent as a copy taken at the call, so only a typed
// receive's buffer can be written while its operation is pending (by
// buf[i] = v before wait). Its checksum is taken at irecv and compared when
// the message lands (finish) or the request is freed.

struct Watched {
  std::map<std::int64_t, std::string> made_by;  // "MPI_Irecv at script.lua:12", per key
  std::weak_ptr<core::Comm> sink;               // any communicator of the rank: where reports go
  std::int64_t serial = 0;
};
Watched& watched() {
  static Watched w;
  return w;
}

core::check::BufferWatch& buffers() {
  static core::check::BufferWatch b(
      [](std::int64_t key) {
        auto it = watched().made_by.find(key);
        return it == watched().made_by.end() ? std::string() : it->second;
      },
      [](const std::string& text) {
        if (core::CommPtr c = watched().sink.lock()) core::check::report(*c, "local-concurrency", text);
      });
  return b;
}

// The typed irecv just pushed (box, into target) made at the Lua caller's line.
void watch_typed_receive(lua_State* L, RequestBox& box, const Typed& target) {
  if (!box.comm || !core::check::checking(*box.comm) || !target.base || target.count == 0) return;
  core::check::BufferWatch& b = buffers();
  b.on = true;
  Watched& w = watched();
  w.sink = box.comm;
  box.check_key = ++w.serial;
  luaL_where(L, 1);  // "script.lua:12:" of the caller
  std::string where = lua_tostring(L, -1);
  lua_pop(L, 1);
  while (!where.empty() && (where.back() == ' ' || where.back() == ':')) where.pop_back();
  w.made_by[box.check_key] = where.empty() ? "MPI_Irecv" : "MPI_Irecv at " + where;
  b.note(target.base, target.count, *target.type, true);
  b.watch(box.check_key);
}

// The watch of box ends: its buffer compared unless `forget` (its handle
// went away, and maybe its memory).
void unwatch(RequestBox& box, bool forget = false) {
  if (!box.check_key) return;
  if (forget) buffers().forget(box.check_key);
  else buffers().completed(box.check_key);
  watched().made_by.erase(box.check_key);
  box.check_key = 0;
}

bool inactive(const RequestBox& b) { return b.persistent && !b.op(); }
// What the any and some calls skip: nil (MPI_REQUEST_NULL), an inactive
// persistent request, an ordinary request whose completion was returned.
bool ignored(const RequestBox* b) { return !b || !b->op() || b->reported; }

// MPI's empty status (§3.7.3): what an inactive request completes with.
core::Status empty_status() { return core::Status{core::ANY_SOURCE, core::ANY_TAG, 0, 0}; }

// Pushes nil and an empty status.
int push_empty(lua_State* L) {
  lua_pushnil(L);
  push_status(L, empty_status());
  return 2;
}

// The request at idx, now in the hands of `func`: its errors and hang
// reports name the completion call (MPI_Wait), not the one that started it,
// and so does the polling watch (the Lua call is func: core::name_call).
RequestBox& check_request(lua_State* L, int idx, const char* func) {
  core::name_call(func);
  auto* box = test_request(L, idx);
  if (!box) fail(ErrClass::Request, func, std::string("expected a request, got ") + luaL_typename(L, idx));
  if (box->freed) fail(ErrClass::Request, func, "request was freed (request:free)");
  if (box->op()) box->op()->set_call(func);
  return *box;
}

// Decodes the completed request at idx into its user values (once).
void finish(lua_State* L, int idx, RequestBox& box) {
  if (box.finished) return;
  idx = lua_absindex(L, idx);
  core::Request& op = *box.op();
  if (box.check_key) buffers().unlanded(box.check_key);  // before the message lands
  // A cancelled receive has no message: its value is nil (MPI_Test_cancelled).
  if (box.is_recv && op.kind() == core::Request::Kind::Recv && !op.cancelled()) {
    std::string_view bytes = op.body().view();
    if (box.typed) {
      unpack_typed(box.target, bytes, op.call().empty() ? "MPI_Wait" : op.call());
      if (box.check_key) buffers().landed(box.check_key);
      lua_getiuservalue(L, idx, 4);  // the buffer
    } else {
      decode(L, bytes);
    }
  } else if (box.typed) {
    lua_getiuservalue(L, idx, 4);  // a receive from PROC_NULL leaves the buffer as it was
  } else if (box.push_value) {
    box.push_value(L);
  } else {
    lua_pushnil(L);
  }
  lua_setiuservalue(L, idx, 1);  // value
  push_status(L, op.status());
  if (op.cancelled()) {
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "cancelled");  // status.cancelled = true
  }
  lua_setiuservalue(L, idx, 2);  // status
  box.finished = true;
  box.comm.reset();
  unwatch(box);
}

// Pushes value, status of a finished request.
int push_result(lua_State* L, int idx) {
  idx = lua_absindex(L, idx);
  lua_getiuservalue(L, idx, 1);
  lua_getiuservalue(L, idx, 2);
  return 2;
}

// After a call has returned the result of the request at idx: a persistent
// request turns inactive (its value and status go), an ordinary one is
// skipped by the any and some calls from now on.
void retire(lua_State* L, int idx, RequestBox& box) {
  if (!box.persistent) {
    box.reported = true;
    return;
  }
  idx = lua_absindex(L, idx);
  box.persistent->op->completed();
  box.finished = false;
  lua_pushnil(L);
  lua_setiuservalue(L, idx, 1);  // value = nil
  lua_pushnil(L);
  lua_setiuservalue(L, idx, 2);  // status = nil
}

// True when the active request at idx is complete (waiting for it if
// block), its result stored by finish. A persistent request whose operation
// ends in an error turns inactive before the error goes on (as the C++ API
// retires it), so it can be started again.
bool complete(lua_State* L, int idx, RequestBox& box, bool block) {
  if (box.finished) return true;
  idx = lua_absindex(L, idx);  // a failing decode may leave values pushed
  try {
    if (block) box.op()->wait();
    else if (!box.op()->test()) return false;
    finish(L, idx, box);
  } catch (...) {
    if (box.persistent) retire(L, idx, box);
    throw;
  }
  return true;
}

// ---- freeing -------------------------------------------------------------------

// Drops the freed requests whose receive has landed from the registry table
// that kept their buffers alive.
void sweep_orphans(lua_State* L) {
  lua_getfield(L, LUA_REGISTRYINDEX, kOrphansKey);  // push the table
  lua_pushnil(L);
  while (lua_next(L, -2)) {  // push key (a request), value
    lua_pop(L, 1);           // pop the value, keep the key for lua_next
    auto* box = test_request(L, -1);
    if (box && box->orphan && box->orphan->done) {
      lua_pushvalue(L, -1);
      lua_pushnil(L);
      lua_rawset(L, -4);  // orphans[request] = nil (clearing a field lua_next may visit is allowed)
    }
  }
  lua_pop(L, 1);  // pop the table
}

// Lets the active operation of box go on without it (§3.7.3). True when a
// typed receive is still to land in the buffer at user value 4, which must
// then stay alive (the caller keeps the request in the orphans table).
bool let_go(RequestBox& box) {
  auto o = std::make_shared<Orphan>();
  o->target = box.target;
  o->landing = box.typed;
  // comm: a pending receive reads its group (RequestBox::comm)
  auto land = [o, comm = box.comm](core::Request* r) {
    if (r && o->landing && r->kind() == core::Request::Kind::Recv && !r->cancelled())
      unpack_typed(o->target, r->body().view(), "MPI_Request_free");
    o->done = true;
  };
  if (box.persistent) box.persistent->op->free(land);
  else core::Request::let_go(box.req, land);
  if (o->done || !o->landing) return false;
  box.orphan = std::move(o);
  return true;
}

// ---- request methods -----------------------------------------------------------

// Request methods find the request at 2: at 1 sits its communicator (see
// on_request_comm), whose error handler wrap<> then applies.
int r_wait(lua_State* L) {
  RequestBox& box = check_request(L, 2, "MPI_Wait");
  if (inactive(box)) return push_empty(L);
  complete(L, 2, box, true);
  push_result(L, 2);
  retire(L, 2, box);
  return 2;
}

int r_test(lua_State* L) {
  RequestBox& box = check_request(L, 2, "MPI_Test");
  if (!inactive(box) && !complete(L, 2, box, false)) {
    lua_pushboolean(L, 0);
    return 1;
  }
  lua_pushboolean(L, 1);
  if (inactive(box)) return 1 + push_empty(L);
  push_result(L, 2);
  retire(L, 2, box);
  return 3;
}

// r:get_status() -> false | true, status: as r:test, but the request stays
// as it is (MPI_Request_get_status): a later wait returns the result.
int r_get_status(lua_State* L) {
  RequestBox& box = check_request(L, 2, "MPI_Request_get_status");
  if (!inactive(box) && !complete(L, 2, box, false)) {
    lua_pushboolean(L, 0);
    return 1;
  }
  lua_pushboolean(L, 1);
  if (inactive(box)) push_status(L, empty_status());
  else lua_getiuservalue(L, 2, 2);  // push the status
  return 2;
}

int r_cancel(lua_State* L) {
  RequestBox& box = check_request(L, 2, "MPI_Cancel");
  if (inactive(box))
    fail(ErrClass::Request, "MPI_Cancel", "request is a persistent request that is not active (start it first)");
  lua_pushboolean(L, !box.finished && box.op()->cancel());
  return 1;
}

// r:free(): the handle becomes unusable; an active operation still
// completes, unattended (let_go).
int r_free(lua_State* L) {
  const char* func = "MPI_Request_free";
  RequestBox& box = check_request(L, 2, func);
  if (box.collective)
    fail(ErrClass::Request, func,
         "request belongs to a nonblocking collective operation (or idup), which MPI-3.1 §5.12 "
         "forbids freeing: complete it with wait or test");
  sweep_orphans(L);
  unwatch(box);
  const bool lands = box.op() && !box.finished && let_go(box);
  box.freed = true;
  box.req.reset();
  box.comm.reset();
  box.persistent.reset();
  box.push_value = nullptr;
  for (int uv : {1, 2, 4}) {  // let go of the value, status and message, but a landing buffer
    if (uv == 4 && lands) continue;
    lua_pushnil(L);
    lua_setiuservalue(L, 2, uv);
  }
  if (lands) {
    lua_getfield(L, LUA_REGISTRYINDEX, kOrphansKey);  // push the orphans table
    lua_pushvalue(L, 2);
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);  // orphans[request] = true
    lua_pop(L, 1);
  }
  return 0;
}

// The message a persistent send sends now (the request at idx): its
// buffer's elements or its value as they are at this start.
core::Body message(lua_State* L, int idx, const Persistent& p, const char* func) {
  if (p.typed) return core::Body(pack_typed(p.data, func));
  if (p.fixed) return core::Body(*p.fixed);
  lua_getiuservalue(L, idx, 4);  // push the value
  std::string bytes = encode(L, -1, func);
  lua_pop(L, 1);
  return core::Body(std::move(bytes));
}

// MPI_ERR_REQUEST unless box (named `what`) is a persistent request;
// core::Persistent's start says whether it can start.
void check_persistent(const RequestBox& box, const char* func, const std::string& what) {
  if (!box.persistent)
    fail(ErrClass::Request, func,
         what + " is not a persistent request (send_init, bsend_init, ssend_init, rsend_init and "
                "recv_init make them)");
}

int r_start(lua_State* L) {
  const char* func = "MPI_Start";
  RequestBox& box = check_request(L, 2, func);
  check_persistent(box, func, "request");
  box.persistent->op->start([&] { return message(L, 2, *box.persistent, func); }, func);
  box.finished = false;
  return 0;
}

// Inserts the communicator of the request at 1 (nil if arg 1 is no request)
// before the arguments, then runs F through wrap<>.
template <int (*F)(lua_State*)>
int on_request_comm(lua_State* L) {
  if (luaL_testudata(L, 1, kRequestMeta)) lua_getiuservalue(L, 1, 3);
  else lua_pushnil(L);
  lua_insert(L, 1);
  return wrap<F>(L);
}

int r_tostring(lua_State* L) {
  auto* box = test_request(L, 1);
  const char* s = !box                ? "request"
                  : box->freed        ? "request (freed)"
                  : inactive(*box)    ? "persistent request (inactive)"
                  : box->persistent   ? "persistent request (active)"
                  : box->finished     ? "request (complete)"
                                      : "request (pending)";
  lua_pushstring(L, s);
  return 1;
}

// __gc: a freed typed receive still landing stops writing to its buffer,
// which goes with the state.
int r_gc(lua_State* L) {
  if (auto* box = test_request(L, 1)) {
    if (box->orphan) box->orphan->landing = false;
    unwatch(*box, true);
    box->~RequestBox();
  }
  return 0;
}

// ---- sequences of requests -------------------------------------------------------

// The requests of the table at idx, positions 1..n (n its largest integer
// key), nullptr for nil (MPI_REQUEST_NULL). Every element is checked before
// any request is touched.
std::vector<RequestBox*> check_requests(lua_State* L, int idx, const char* func) {
  core::name_call(func);  // as check_request
  if (!lua_istable(L, idx))
    fail(ErrClass::Arg, func,
         std::string("requests must be a table of requests (nil for MPI_REQUEST_NULL), got ") +
             luaL_typename(L, idx));
  idx = lua_absindex(L, idx);
  lua_Integer n = 0;
  lua_pushnil(L);
  while (lua_next(L, idx)) {  // push key, value
    lua_pop(L, 1);            // pop the value
    if (lua_isinteger(L, -1)) n = std::max(n, lua_tointeger(L, -1));
  }
  if (n > INT_MAX) fail(ErrClass::Arg, func, "requests has an index above " + std::to_string(INT_MAX));
  std::vector<RequestBox*> out(size_t(n), nullptr);
  for (lua_Integer i = 1; i <= n; ++i) {
    std::string what = "requests[" + std::to_string(i) + "]";
    if (lua_rawgeti(L, idx, i) != LUA_TNIL) {  // push reqs[i]
      auto* box = test_request(L, -1);
      if (!box) fail(ErrClass::Request, func, what + " is not a request (a " + luaL_typename(L, -1) + ")");
      if (box->freed) fail(ErrClass::Request, func, what + " was freed (request:free)");
      out[size_t(i - 1)] = box;
    }
    lua_pop(L, 1);
  }
  for (auto* box : out)
    if (box && box->op()) box->op()->set_call(func);
  return out;
}

// Runs step() for request i (0-based) of the sequence at 1. An error it
// throws answers to that request's communicator: the communicator goes to
// stack index 1, where wrap<> looks for the error handler.
template <class Step>
auto for_request(lua_State* L, size_t i, Step step) -> decltype(step()) {
  std::exception_ptr err;
  try {
    return step();
  } catch (...) {
    err = std::current_exception();
  }
  lua_rawgeti(L, 1, lua_Integer(i + 1));  // push reqs[i+1]
  lua_getiuservalue(L, -1, 3);            // push its communicator
  lua_remove(L, -2);
  lua_insert(L, 1);
  std::rethrow_exception(err);
}

// complete() for the active request i of the sequence at 1.
bool complete_at(lua_State* L, size_t i, RequestBox& box, bool block) {
  lua_rawgeti(L, 1, lua_Integer(i + 1));  // push reqs[i+1]
  bool done = for_request(L, i, [&] { return complete(L, -1, box, block); });
  lua_pop(L, 1);
  return done;
}

// Pushes values, statuses (sequences in request order) of the sequence at
// 1, every request complete or inactive, and retires them.
int push_all_results(lua_State* L, const std::vector<RequestBox*>& boxes) {
  lua_createtable(L, int(boxes.size()), 0);  // values
  lua_createtable(L, int(boxes.size()), 0);  // statuses
  for (size_t i = 0; i < boxes.size(); ++i) {
    lua_rawgeti(L, 1, lua_Integer(i + 1));  // push reqs[i+1]
    if (!boxes[i] || inactive(*boxes[i])) {
      push_empty(L);  // push nil, empty status
    } else {
      push_result(L, -1);  // push value, status
      retire(L, -3, *boxes[i]);
    }
    lua_rawseti(L, -4, lua_Integer(i + 1));  // statuses[i+1] = status, pop
    lua_rawseti(L, -4, lua_Integer(i + 1));  // values[i+1] = value, pop
    lua_pop(L, 1);                           // pop the request
  }
  return 2;
}

// Pushes index i+1, value, status of the complete request i of the sequence at 1, and retires it.
int push_one(lua_State* L, size_t i, RequestBox& box) {
  lua_pushinteger(L, lua_Integer(i + 1));
  lua_rawgeti(L, 1, lua_Integer(i + 1));  // push the request
  push_result(L, -1);                     // push value, status
  retire(L, -3, box);
  lua_remove(L, -3);  // drop the request, keep value, status
  return 3;
}

// Pushes indices, values, statuses of the complete requests at positions
// `done` of the sequence at 1 (values[k] and statuses[k] belong to
// indices[k], as MPI's array_of_statuses), and retires them.
int push_some(lua_State* L, const std::vector<RequestBox*>& boxes, const std::vector<size_t>& done) {
  lua_createtable(L, int(done.size()), 0);  // indices
  lua_createtable(L, int(done.size()), 0);  // values
  lua_createtable(L, int(done.size()), 0);  // statuses
  for (size_t k = 0; k < done.size(); ++k) {
    const auto key = lua_Integer(k + 1);
    lua_pushinteger(L, lua_Integer(done[k] + 1));
    lua_rawseti(L, -4, key);                      // indices[k+1] = i+1
    lua_rawgeti(L, 1, lua_Integer(done[k] + 1));  // push the request
    push_result(L, -1);                           // push value, status
    retire(L, -3, *boxes[done[k]]);
    lua_rawseti(L, -4, key);  // statuses[k+1] = status, pop
    lua_rawseti(L, -4, key);  // values[k+1] = value, pop
    lua_pop(L, 1);            // pop the request
  }
  return 3;
}

// Sleeps until one of the requests not skipped can complete: what waitany
// and waitsome do between two rounds of tests that found none.
void await_any(const std::vector<RequestBox*>& boxes, const char* func) {
  std::vector<core::Request*> pending;
  for (auto* box : boxes)
    if (!ignored(box)) pending.push_back(box->op().get());
  core::Request::wait_any(pending, func);
}

// One round of tests over the requests not skipped: the positions of those
// complete now, in order; nullopt when every request is skipped.
std::optional<std::vector<size_t>> test_some(lua_State* L, const std::vector<RequestBox*>& boxes) {
  bool any = false;
  std::vector<size_t> done;
  for (size_t i = 0; i < boxes.size(); ++i) {
    if (ignored(boxes[i])) continue;
    any = true;
    if (complete_at(L, i, *boxes[i], false)) done.push_back(i);
  }
  if (!any) return std::nullopt;
  return done;
}

// ---- module functions ----------------------------------------------------------

// mpi.waitall(reqs) -> values, statuses (sequences in request order)
int l_waitall(lua_State* L) {
  auto boxes = check_requests(L, 1, "MPI_Waitall");
  for (size_t i = 0; i < boxes.size(); ++i)
    if (boxes[i] && !inactive(*boxes[i])) complete_at(L, i, *boxes[i], true);
  return push_all_results(L, boxes);
}

// mpi.testall(reqs) -> false, or true, values, statuses (as waitall) when
// every request is complete; otherwise no request is retired.
int l_testall(lua_State* L) {
  auto boxes = check_requests(L, 1, "MPI_Testall");
  bool all = true;
  for (size_t i = 0; i < boxes.size(); ++i)
    if (boxes[i] && !inactive(*boxes[i])) all = complete_at(L, i, *boxes[i], false) && all;
  lua_pushboolean(L, all);
  if (!all) return 1;
  return 1 + push_all_results(L, boxes);  // push values, statuses
}

// mpi.waitany(reqs) -> index, value, status; mpi.UNDEFINED, nil, an empty
// status when every request is skipped.
int l_waitany(lua_State* L) {
  const char* func = "MPI_Waitany";
  auto boxes = check_requests(L, 1, func);
  for (;;) {  // a round of tests, then sleep until one can complete
    bool any = false;
    for (size_t i = 0; i < boxes.size(); ++i) {
      if (ignored(boxes[i])) continue;
      any = true;
      if (complete_at(L, i, *boxes[i], false)) return push_one(L, i, *boxes[i]);
    }
    if (!any) break;
    await_any(boxes, func);
  }
  lua_pushinteger(L, core::UNDEFINED);
  return 1 + push_empty(L);
}

// mpi.testany(reqs) -> false, or true, index, value, status (index
// mpi.UNDEFINED, value nil, an empty status when every request is skipped).
int l_testany(lua_State* L) {
  auto boxes = check_requests(L, 1, "MPI_Testany");
  bool any = false;
  for (size_t i = 0; i < boxes.size(); ++i) {
    if (ignored(boxes[i])) continue;
    any = true;
    if (complete_at(L, i, *boxes[i], false)) {
      lua_pushboolean(L, 1);
      return 1 + push_one(L, i, *boxes[i]);
    }
  }
  lua_pushboolean(L, !any);
  if (any) return 1;
  lua_pushinteger(L, core::UNDEFINED);
  return 2 + push_empty(L);
}

// mpi.waitsome(reqs) -> indices, values, statuses (at least one); mpi.UNDEFINED
// when every request is skipped.
int l_waitsome(lua_State* L) {
  const char* func = "MPI_Waitsome";
  auto boxes = check_requests(L, 1, func);
  for (;;) {
    auto done = test_some(L, boxes);
    if (!done) break;
    if (!done->empty()) return push_some(L, boxes, *done);
    await_any(boxes, func);
  }
  lua_pushinteger(L, core::UNDEFINED);
  return 1;
}

// mpi.testsome(reqs) -> indices, values, statuses (empty if none is
// complete yet); mpi.UNDEFINED when every request is skipped.
int l_testsome(lua_State* L) {
  auto boxes = check_requests(L, 1, "MPI_Testsome");
  auto done = test_some(L, boxes);
  if (done) return push_some(L, boxes, *done);
  lua_pushinteger(L, core::UNDEFINED);
  return 1;
}

// mpi.startall(reqs): every element a persistent request (nil is
// MPI_REQUEST_NULL), inactive and listed once, and every message read,
// before any starts (core::Persistent::start_all).
int l_startall(lua_State* L) {
  const char* func = "MPI_Startall";
  auto boxes = check_requests(L, 1, func);
  std::vector<core::Persistent*> ps;
  for (size_t i = 0; i < boxes.size(); ++i) {
    std::string what = "requests[" + std::to_string(i + 1) + "]";
    if (!boxes[i]) fail(ErrClass::Request, func, what + " is nil (MPI_REQUEST_NULL cannot be started)");
    check_persistent(*boxes[i], func, what);
    ps.push_back(boxes[i]->persistent->op.get());
  }
  core::Persistent::start_all(ps, [&](size_t i) {
    lua_rawgeti(L, 1, lua_Integer(i + 1));  // push the request
    core::Body body = for_request(L, i, [&] { return message(L, -1, *boxes[i]->persistent, func); });
    lua_pop(L, 1);
    return body;
  }, func);
  for (auto* box : boxes) box->finished = false;
  return 0;
}

const Reg kRequestMethods[] = {
    {"wait", on_request_comm<r_wait>},
    {"test", on_request_comm<r_test>},
    {"get_status", on_request_comm<r_get_status>},
    {"cancel", on_request_comm<r_cancel>},
    {"free", on_request_comm<r_free>},
    {"start", on_request_comm<r_start>},
};

const Reg kModuleFuncs[] = {
    {"waitall", wrap<l_waitall>},   {"waitany", wrap<l_waitany>},   {"testall", wrap<l_testall>},
    {"testany", wrap<l_testany>},   {"waitsome", wrap<l_waitsome>}, {"testsome", wrap<l_testsome>},
    {"startall", wrap<l_startall>},
};

// Pushes a new request box; the communicator at 1, if any, goes to user value 3.
RequestBox& push_box(lua_State* L, RequestBox box) {
  sweep_orphans(L);
  box.comm = test_comm_ptr(L, 1);
  auto* b = push_userdata(L, kRequestMeta, std::move(box), 4);
  if (test_comm(L, 1)) {  // every request starts in a method of the communicator at 1
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 3);
  }
  return *b;
}

}  // namespace

void push_request(lua_State* L, std::shared_ptr<core::Request> r, bool is_recv) {
  RequestBox box;
  box.req = std::move(r);
  box.is_recv = is_recv;
  push_box(L, std::move(box));
}

void set_typed_target(lua_State* L, const Typed& target, int buffer_idx) {
  buffer_idx = lua_absindex(L, buffer_idx);
  RequestBox& box = *test_request(L, -1);
  box.typed = true;
  box.target = target;
  lua_pushvalue(L, buffer_idx);
  lua_setiuservalue(L, -2, 4);  // request.uservalue[4] = the buffer
  if (!box.persistent) watch_typed_receive(L, box, target);
}

void push_request_with(lua_State* L, std::shared_ptr<core::Request> r, PushValue push_value) {
  RequestBox box;
  box.req = std::move(r);
  box.collective = true;
  box.push_value = std::move(push_value);
  push_box(L, std::move(box));
}

void push_persistent_request(lua_State* L, Persistent p, int message_idx) {
  if (message_idx) message_idx = lua_absindex(L, message_idx);
  RequestBox box;
  box.is_recv = !p.op->is_send();
  box.typed = box.is_recv && p.typed;
  box.target = box.typed ? p.data : Typed{};
  box.persistent = std::make_shared<const Persistent>(std::move(p));
  push_box(L, std::move(box));
  if (message_idx) {
    lua_pushvalue(L, message_idx);
    lua_setiuservalue(L, -2, 4);  // request.uservalue[4] = the value or buffer
  }
}

void open_request(lua_State* L) {
  set_funcs(L, kModuleFuncs, -3);  // mpi
  new_metatable(L, kRequestMeta, nullptr, {.gc = r_gc, .tostring = r_tostring}, kRequestMethods);
  lua_pop(L, 1);
  lua_newtable(L);  // freed requests still landing -> true
  lua_setfield(L, LUA_REGISTRYINDEX, kOrphansKey);
}

}  // namespace lumpi::lua
