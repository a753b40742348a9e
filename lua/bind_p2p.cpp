// lua/bind_p2p.cpp: point-to-point methods (API.md §6): send, recv and their
// nonblocking and persistent forms, sendrecv, probe. The requests they make
// belong to lua/bind_request.cpp.
//
// Values are encoded by lua/codec before anything is sent, so an unsendable
// value raises MPI_ERR_TYPE on the sender with nothing in flight. send, ssend,
// isend, issend, recv, irecv, sendrecv and the *_init family also take MPI's
// (buffer, count, datatype) in place of the value (lua/typed.hpp):
// c:send(buf, count, type, dest, tag), c:recv(buf, count, type, source, tag)
// -> buf, status.
#include <tuple>

#include "core/base/constants.hpp"
#include "lua/binding.hpp"
#include "lua/codec.hpp"
#include "lua/request.hpp"
#include "lua/typed.hpp"

namespace lumpi::lua {
namespace {

using core::ErrClass;
using core::fail;

core::Body encode_arg(lua_State* L, int idx, const char* func) {
  return core::Body(encode(L, idx, func));
}

int tag_arg(lua_State* L, int idx, lua_Integer def, const char* func) {
  return opt_int(L, idx, int(def), "tag", func, ErrClass::Tag);
}

// ---- methods -----------------------------------------------------------------

// The arguments of a send after the message: dest, tag, at 3 and 4 after
// a value, at 5 and 6 after (buffer, count, datatype), read as Lua values;
// their MPI rules (communicator usable, dest and tag in range) are
// Comm::check_send's, which the core's send and isend run once, after the
// message is encoded or packed and before anything is sent.
struct Outgoing {
  int dest, tag;
  bool typed;
  Typed data;
};

Outgoing send_args(lua_State* L, const char* func) {
  Outgoing o{};
  o.typed = is_buffer(L, 2);
  if (o.typed) o.data = check_typed(L, 2, func);
  int at = o.typed ? 5 : 3;
  o.dest = check_int(L, at, "dest", func, ErrClass::Rank);
  o.tag = tag_arg(L, at + 1, 0, func);
  return o;
}

core::Body outgoing_body(lua_State* L, const Outgoing& o, const char* func) {
  return o.typed ? core::Body(pack_typed(o.data, func)) : encode_arg(L, 2, func);
}

// source, tag of a receive: at 2 and 3, or at 5 and 6 after (buffer, count, datatype).
std::pair<int, int> recv_args(lua_State* L, int at, const char* func) {
  int source = opt_int(L, at, core::ANY_SOURCE, "source", func, ErrClass::Rank);
  int tag = tag_arg(L, at + 1, core::ANY_TAG, func);
  return {source, tag};
}

int c_send_mode(lua_State* L, bool sync) {
  const char* func = sync ? "MPI_Ssend" : "MPI_Send";
  core::Comm& c = check_comm_handle(L, 1, func);
  Outgoing o = send_args(L, func);
  core::check::CallSignatures sigs(c, func, side(o.data), {});
  c.send(outgoing_body(L, o, func), o.dest, o.tag, sync);
  return 0;
}
int c_send(lua_State* L) { return c_send_mode(L, false); }
int c_ssend(lua_State* L) { return c_send_mode(L, true); }

int c_isend_mode(lua_State* L, bool sync) {
  const char* func = sync ? "MPI_Issend" : "MPI_Isend";
  core::Comm& c = check_comm_handle(L, 1, func);
  Outgoing o = send_args(L, func);
  core::check::CallSignatures sigs(c, func, side(o.data), {});
  push_request(L, c.isend(outgoing_body(L, o, func), o.dest, o.tag, sync), false);
  return 1;
}
int c_isend(lua_State* L) { return c_isend_mode(L, false); }
int c_issend(lua_State* L) { return c_isend_mode(L, true); }

int c_recv(lua_State* L) {
  const char* func = "MPI_Recv";
  core::Comm& c = check_comm(L, 1, func);
  bool typed = is_buffer(L, 2);
  Typed into = typed ? check_typed(L, 2, func) : Typed{};
  auto [source, tag] = recv_args(L, typed ? 5 : 2, func);
  core::check::CallSignatures sigs(c, func, {}, side(into));
  core::Received r = c.recv(source, tag);
  std::string_view bytes = r.body.view();
  if (typed) {
    if (source != core::PROC_NULL) unpack_typed(into, bytes, func);
    lua_pushvalue(L, 2);  // the buffer
  } else if (source == core::PROC_NULL) {
    lua_pushnil(L);
  } else {
    decode(L, bytes);
  }
  push_status(L, r.status);
  return 2;
}

int c_irecv(lua_State* L) {
  const char* func = "MPI_Irecv";
  core::Comm& c = check_comm(L, 1, func);
  bool typed = is_buffer(L, 2);
  Typed into = typed ? check_typed(L, 2, func) : Typed{};
  auto [source, tag] = recv_args(L, typed ? 5 : 2, func);
  core::check::CallSignatures sigs(c, func, {}, side(into));
  push_request(L, c.irecv(source, tag), true);
  if (typed) set_typed_target(L, into, 2);
  return 1;
}

// sendrecv(sbuf, scount, stype, dest, sendtag, rbuf, rcount, rtype, source,
// recvtag) -> rbuf, status: MPI's argument list, both halves typed.
int typed_sendrecv(lua_State* L, core::Comm& c, const char* func) {
  Outgoing o = send_args(L, func);
  c.check_send(o.dest, o.tag, func);
  if (!is_buffer(L, 7))
    fail(ErrClass::Buffer, func, std::string("a typed sendrecv receives into a buffer (argument 7), got ") +
                                     luaL_typename(L, 7));
  Typed into = check_typed(L, 7, func);
  auto [source, recvtag] = recv_args(L, 10, func);
  c.check_source(source, func);
  c.check_recv_tag(recvtag, func);
  core::Body body = outgoing_body(L, o, func);
  core::check::CallSignatures sigs(c, func, side(o.data), side(into));
  auto rr = c.irecv(source, recvtag);
  c.send(std::move(body), o.dest, o.tag);
  rr->wait();
  if (source != core::PROC_NULL)
    unpack_typed(into, rr->body().view(), func);
  lua_pushvalue(L, 7);  // the receive buffer
  push_status(L, rr->status());
  return 2;
}

// sendrecv(value, dest, sendtag, source, recvtag): the send is eager, so
// posting it first cannot deadlock.
int c_sendrecv(lua_State* L) {
  const char* func = "MPI_Sendrecv";
  core::Comm& c = check_comm(L, 1, func);
  if (is_buffer(L, 2)) return typed_sendrecv(L, c, func);
  int dest = check_int(L, 3, "dest", func, ErrClass::Rank);
  int sendtag = tag_arg(L, 4, 0, func);
  int source = opt_int(L, 5, core::ANY_SOURCE, "source", func, ErrClass::Rank);
  int recvtag = tag_arg(L, 6, core::ANY_TAG, func);
  c.check_send(dest, sendtag, func);
  c.check_source(source, func);
  c.check_recv_tag(recvtag, func);
  core::Body body = encode_arg(L, 2, func);
  auto rr = c.irecv(source, recvtag);
  c.send(std::move(body), dest, sendtag);
  rr->wait();
  if (source == core::PROC_NULL) lua_pushnil(L);
  else decode(L, rr->body().view());
  push_status(L, rr->status());
  return 2;
}

int c_probe(lua_State* L) {
  core::Comm& c = check_comm(L, 1, "MPI_Probe");
  int source = opt_int(L, 2, core::ANY_SOURCE, "source", "MPI_Probe", ErrClass::Rank);
  int tag = tag_arg(L, 3, core::ANY_TAG, "MPI_Probe");
  push_status(L, c.probe(source, tag));
  return 1;
}

int c_iprobe(lua_State* L) {
  core::name_call("MPI_Iprobe");  // the polling watch
  core::Comm& c = check_comm(L, 1, "MPI_Iprobe");
  int source = opt_int(L, 2, core::ANY_SOURCE, "source", "MPI_Iprobe", ErrClass::Rank);
  int tag = tag_arg(L, 3, core::ANY_TAG, "MPI_Iprobe");
  auto st = c.iprobe(source, tag);
  lua_pushboolean(L, st.has_value());
  if (!st) return 1;
  push_status(L, *st);
  return 2;
}

// ---- persistent requests (§3.9) ---------------------------------------------------

// c:send_init(value, dest [, tag]) and its modes: checked now, as isend
// checks; each r:start sends the message as it is then (a table's contents,
// a buffer's elements: MPI reads the buffer at MPI_Start). lumpi's sends are
// eager, so a buffered send needs no attached buffer and a ready send is a
// standard one (MPI-3.1 §3.4 allows both); a synchronous send completes once
// matched.
int c_send_init_mode(lua_State* L, const char* func, bool sync, bool buffered = false) {
  core::CommPtr c = check_comm_ptr(L, 1, func);
  Outgoing o = send_args(L, func);
  Persistent p;
  p.op = core::Persistent::send_init(c, o.dest, o.tag, sync, buffered, func);
  p.op->set_signature(core::check::p2p_signature(*c, func, side(o.data), false));
  p.typed = o.typed;
  p.data = o.data;
  if (!o.typed) {
    std::string bytes = encode(L, 2, func);  // an unsendable value raises now
    if (!lua_istable(L, 2)) p.fixed = std::move(bytes);
  }
  push_persistent_request(L, std::move(p), 2);
  return 1;
}
int c_send_init(lua_State* L) { return c_send_init_mode(L, "MPI_Send_init", false); }
int c_bsend_init(lua_State* L) { return c_send_init_mode(L, "MPI_Bsend_init", false, true); }
int c_ssend_init(lua_State* L) { return c_send_init_mode(L, "MPI_Ssend_init", true); }
int c_rsend_init(lua_State* L) { return c_send_init_mode(L, "MPI_Rsend_init", false); }

// c:recv_init([source [, tag]]) | c:recv_init(buf, count, datatype [, source [, tag]])
int c_recv_init(lua_State* L) {
  const char* func = "MPI_Recv_init";
  core::CommPtr c = check_comm_ptr(L, 1, func);
  Persistent p;
  p.typed = is_buffer(L, 2);
  if (p.typed) p.data = check_typed(L, 2, func);
  auto [source, tag] = recv_args(L, p.typed ? 5 : 2, func);
  p.op = core::Persistent::recv_init(c, source, tag, func);
  p.op->set_signature(core::check::p2p_signature(*c, func, side(p.data), true));
  const int buffer_idx = p.typed ? 2 : 0;
  push_persistent_request(L, std::move(p), buffer_idx);
  return 1;
}

const Reg kMethods[] = {
    {"send", wrap<c_send>},       {"ssend", wrap<c_ssend>},       {"isend", wrap<c_isend>},
    {"issend", wrap<c_issend>},   {"recv", wrap<c_recv>},         {"irecv", wrap<c_irecv>},
    {"sendrecv", wrap<c_sendrecv>}, {"probe", wrap<c_probe>},     {"iprobe", wrap<c_iprobe>},
    {"send_init", wrap<c_send_init>}, {"bsend_init", wrap<c_bsend_init>},
    {"ssend_init", wrap<c_ssend_init>}, {"rsend_init", wrap<c_rsend_init>},
    {"recv_init", wrap<c_recv_init>},
};

}  // namespace

void open_p2p(lua_State* L) {
  set_funcs(L, kMethods, -2);  // Comm methods
}

}  // namespace lumpi::lua
