// lua/bind_request.cpp: request values (MPI-3.1 §3.7): completing them
// (r:wait, r:test, mpi.waitall/waitany/testall) and r:cancel. Point-to-point
// (lua/bind_p2p.cpp), the nonblocking collectives and idup make requests
// through push_request and push_request_with; only this file sees a
// RequestBox.
#include <algorithm>
#include <exception>

#include "core/base/constants.hpp"
#include "lua/binding.hpp"
#include "lua/codec.hpp"
#include "lua/request.hpp"
#include "lua/typed.hpp"

namespace lumpi::lua {
namespace {

using core::ErrClass;
using core::fail;

constexpr char kRequestMeta[] = "lumpi.Request";

// A request box keeps the core request and, once complete, the decoded value
// and status in its user values 1 and 2 (so a second wait returns them again).
// User value 3 is the communicator the request was started on: errors of
// r:wait/r:test/r:cancel answer to its error handler (MPI §8.3). A typed
// receive keeps its buffer in user value 4 and unpacks into it on completion.
struct RequestBox {
  std::shared_ptr<core::Request> req;
  // The communicator, kept until the operation completes: a pending receive
  // reads its group, and c:free() may come first (MPI-3.1 §6.4.3: pending
  // operations complete normally).
  core::CommPtr comm;
  bool is_recv = false;
  bool finished = false;
  bool typed = false;
  Typed target;
  PushValue push_value;  // nonblocking collectives: pushes the result
};

// The request at idx, now in the hands of `func`: its errors and hang
// reports name the completion call (MPI_Wait), not the one that started it.
RequestBox& check_request(lua_State* L, int idx, const char* func) {
  auto* box = test_userdata<RequestBox>(L, idx, kRequestMeta);
  if (!box) fail(ErrClass::Request, func, std::string("expected a request, got ") + luaL_typename(L, idx));
  box->req->set_call(func);
  return *box;
}

// Decodes the completed request at idx into its user values (once).
void finish(lua_State* L, int idx, RequestBox& box) {
  if (box.finished) return;
  idx = lua_absindex(L, idx);
  // A cancelled receive has no message: its value is nil (MPI_Test_cancelled).
  if (box.is_recv && box.req->kind() == core::Request::Kind::Recv && !box.req->cancelled()) {
    std::string_view bytes = box.req->body().view();
    if (box.typed) {
      unpack_typed(box.target, bytes, box.req->call().empty() ? "MPI_Wait" : box.req->call());
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
  push_status(L, box.req->status());
  if (box.req->cancelled()) {
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "cancelled");  // status.cancelled = true
  }
  lua_setiuservalue(L, idx, 2);  // status
  box.finished = true;
  box.comm.reset();
}

// Pushes value, status of a finished request.
int push_result(lua_State* L, int idx) {
  idx = lua_absindex(L, idx);
  lua_getiuservalue(L, idx, 1);
  lua_getiuservalue(L, idx, 2);
  return 2;
}

// ---- requests ------------------------------------------------------------------

// Request methods find the request at 2: at 1 sits its communicator (see
// on_request_comm), whose error handler wrap<> then applies.
int r_wait(lua_State* L) {
  RequestBox& box = check_request(L, 2, "MPI_Wait");
  if (!box.finished) {
    box.req->wait();
    finish(L, 2, box);
  }
  return push_result(L, 2);
}

int r_test(lua_State* L) {
  RequestBox& box = check_request(L, 2, "MPI_Test");
  if (!box.finished && !box.req->test()) {
    lua_pushboolean(L, 0);
    return 1;
  }
  finish(L, 2, box);
  lua_pushboolean(L, 1);
  push_result(L, 2);
  return 3;
}

int r_cancel(lua_State* L) {
  RequestBox& box = check_request(L, 2, "MPI_Cancel");
  lua_pushboolean(L, !box.finished && box.req->cancel());
  return 1;
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
  auto* box = test_userdata<RequestBox>(L, 1, kRequestMeta);
  lua_pushstring(L, box && box->finished ? "request (complete)" : "request (pending)");
  return 1;
}

// Collects the requests of the sequence at idx (checked before any waiting),
// each named as in check_request.
std::vector<RequestBox*> check_requests(lua_State* L, int idx, const char* func) {
  if (!lua_istable(L, idx)) fail(ErrClass::Arg, func, "requests must be a sequence of requests");
  std::vector<RequestBox*> out;
  lua_Integer n = lua_Integer(lua_rawlen(L, idx));
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, idx, i);  // push reqs[i]
    auto* box = test_userdata<RequestBox>(L, -1, kRequestMeta);
    lua_pop(L, 1);
    if (!box)
      fail(ErrClass::Request, func, "requests[" + std::to_string(i) + "] is not a request");
    out.push_back(box);
  }
  for (auto* box : out) box->req->set_call(func);
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

// Pushes values, statuses of the complete requests in the sequence at 1.
int push_all_results(lua_State* L, const std::vector<RequestBox*>& boxes) {
  lua_createtable(L, int(boxes.size()), 0);  // values
  lua_createtable(L, int(boxes.size()), 0);  // statuses
  for (size_t i = 0; i < boxes.size(); ++i) {
    lua_rawgeti(L, 1, lua_Integer(i + 1));  // push reqs[i+1]
    finish(L, -1, *boxes[i]);
    push_result(L, -1);                      // push value, status
    lua_rawseti(L, -4, lua_Integer(i + 1));  // statuses[i+1] = status, pop
    lua_rawseti(L, -4, lua_Integer(i + 1));  // values[i+1] = value, pop
    lua_pop(L, 1);                           // pop the request
  }
  return 2;
}

// mpi.waitall(reqs) -> values, statuses (sequences in request order)
int l_waitall(lua_State* L) {
  auto boxes = check_requests(L, 1, "MPI_Waitall");
  for (size_t i = 0; i < boxes.size(); ++i)
    if (!boxes[i]->finished) for_request(L, i, [&] { boxes[i]->req->wait(); });
  return push_all_results(L, boxes);
}

// mpi.waitany(reqs) -> index, value, status
int l_waitany(lua_State* L) {
  auto boxes = check_requests(L, 1, "MPI_Waitany");
  if (boxes.empty()) {
    lua_pushinteger(L, core::UNDEFINED);
    return 1;
  }
  int found = -1;
  while (found < 0) {  // a round of tests, then sleep until one can complete
    std::vector<core::Request*> pending;
    for (size_t i = 0; i < boxes.size() && found < 0; ++i)
      if (boxes[i]->finished || for_request(L, i, [&] { return boxes[i]->req->test(); }))
        found = int(i);
      else
        pending.push_back(boxes[i]->req.get());
    if (found < 0) core::Request::wait_any(pending, "MPI_Waitany");
  }
  lua_pushinteger(L, found + 1);
  lua_rawgeti(L, 1, found + 1);  // push the request
  finish(L, -1, *boxes[size_t(found)]);
  push_result(L, -1);
  lua_remove(L, -3);  // drop the request, keep value, status
  return 3;
}

// mpi.testall(reqs) -> false, or true, values, statuses (as waitall) when
// every request is complete.
int l_testall(lua_State* L) {
  auto boxes = check_requests(L, 1, "MPI_Testall");
  bool all = true;
  for (size_t i = 0; i < boxes.size(); ++i)
    all = (boxes[i]->finished || for_request(L, i, [&] { return boxes[i]->req->test(); })) && all;
  lua_pushboolean(L, all);
  if (!all) return 1;
  return 1 + push_all_results(L, boxes);  // push values, statuses
}

const Reg kRequestMethods[] = {
    {"wait", on_request_comm<r_wait>},
    {"test", on_request_comm<r_test>},
    {"cancel", on_request_comm<r_cancel>},
};

const Reg kModuleFuncs[] = {
    {"waitall", wrap<l_waitall>},
    {"waitany", wrap<l_waitany>},
    {"testall", wrap<l_testall>},
};

}  // namespace

void push_request(lua_State* L, std::shared_ptr<core::Request> r, bool is_recv) {
  push_userdata(L, kRequestMeta, RequestBox{std::move(r), test_comm_ptr(L, 1), is_recv, false, false, {}, {}}, 4);
  if (test_comm(L, 1)) {  // every request starts in a method of the communicator at 1
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 3);
  }
}

void set_typed_target(lua_State* L, const Typed& target, int buffer_idx) {
  buffer_idx = lua_absindex(L, buffer_idx);
  auto* box = static_cast<RequestBox*>(lua_touserdata(L, -1));
  box->typed = true;
  box->target = target;
  lua_pushvalue(L, buffer_idx);
  lua_setiuservalue(L, -2, 4);  // request.uservalue[4] = the buffer
}

void push_request_with(lua_State* L, std::shared_ptr<core::Request> r, PushValue push_value) {
  push_request(L, std::move(r), false);
  static_cast<RequestBox*>(lua_touserdata(L, -1))->push_value = std::move(push_value);
}

void open_request(lua_State* L) {
  set_funcs(L, kModuleFuncs, -3);  // mpi
  new_metatable(L, kRequestMeta, nullptr,
                {.gc = destroy_userdata<RequestBox, kRequestMeta>, .tostring = r_tostring}, kRequestMethods);
  lua_pop(L, 1);
}

}  // namespace lumpi::lua
