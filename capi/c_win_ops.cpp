// capi/c_win_ops.cpp: the C API's one-sided operations (MPI-3.1 §11.3):
// MPI_Put, MPI_Get, the accumulate family (MPI_Accumulate,
// MPI_Get_accumulate, MPI_Fetch_and_op, MPI_Compare_and_swap) and the
// request-based MPI_Rput, MPI_Rget, MPI_Raccumulate, MPI_Rget_accumulate,
// straight over core::Win with any committed datatype at either end (the
// core packs, checks signatures and applies ops). Errors go to the window's
// handler; requests complete with MPI_Wait/MPI_Test, their errors under
// the handler of MPI_COMM_WORLD.
#include "capi/c_api.hpp"

using namespace lumpi;
using namespace lumpi::capi;

namespace {

// The ops accumulate takes: the predefined ones (MAXLOC and MINLOC on pair
// types), MPI_REPLACE and MPI_NO_OP (§11.3.4); a user-defined op is MPI_ERR_OP.
core::Op rma_op(MPI_Op op, const char* f) {
  if (op == MPI_REPLACE) return core::Op::Replace;
  if (op == MPI_NO_OP) return core::Op::NoOp;
  if (op == MPI_OP_NULL) fail(MPI_ERR_OP, f, "op is MPI_OP_NULL");
  if (is_user_op(op)) fail(MPI_ERR_OP, f, "op is a user-defined op; accumulate takes predefined ops only");
  if (op == MPI_MAXLOC) return core::Op::Maxloc;  // (on pair types)
  if (op == MPI_MINLOC) return core::Op::Minloc;
  if (op < MPI_SUM || op > MPI_BXOR) fail(MPI_ERR_OP, f, "op " + std::to_string(op) + " is not an op accumulate takes");
  return core::Op(op - MPI_SUM);  // MPI_SUM ... MPI_BXOR in the core's order
}

core::TypePtr otype_of(MPI_Datatype t, const char* f) { return type_of(t, f, "origin_datatype"); }
core::TypePtr ttype_of(MPI_Datatype t, const char* f) { return type_of(t, f, "target_datatype"); }
core::TypePtr rtype_of(MPI_Datatype t, const char* f) { return type_of(t, f, "result_datatype"); }

// A request for the core's rma request r, made on win.
MPI_Request add_rma_request(core::Win& w, core::RequestPtr r, const char* func) {
  return add_request(detail::request_of(w.comm(), std::move(r), func));
}

}  // namespace

extern "C" {

LUMPI_PMPI(Put);
int MPI_Put(const void* origin, int count, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
            MPI_Datatype ttype, MPI_Win win) {
  const char* f = "MPI_Put";
  return call_on_win(win, f, [&] {
    win_of(win, f).put(origin, count, otype_of(otype, f), target, disp, tcount, ttype_of(ttype, f));
  });
}

LUMPI_PMPI(Get);
int MPI_Get(void* origin, int count, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
            MPI_Datatype ttype, MPI_Win win) {
  const char* f = "MPI_Get";
  return call_on_win(win, f, [&] {
    win_of(win, f).get(origin, count, otype_of(otype, f), target, disp, tcount, ttype_of(ttype, f));
  });
}

LUMPI_PMPI(Accumulate);
int MPI_Accumulate(const void* origin, int count, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
                   MPI_Datatype ttype, MPI_Op op, MPI_Win win) {
  const char* f = "MPI_Accumulate";
  return call_on_win(win, f, [&] {
    win_of(win, f).accumulate(origin, count, otype_of(otype, f), target, disp, tcount, ttype_of(ttype, f),
                              rma_op(op, f));
  });
}

// With MPI_NO_OP the origin arguments are ignored (origin_datatype too).
LUMPI_PMPI(Get_accumulate);
int MPI_Get_accumulate(const void* origin, int count, MPI_Datatype otype, void* result, int rcount,
                       MPI_Datatype rtype, int target, MPI_Aint disp, int tcount, MPI_Datatype ttype, MPI_Op op,
                       MPI_Win win) {
  const char* f = "MPI_Get_accumulate";
  return call_on_win(win, f, [&] {
    core::Op o = rma_op(op, f);
    core::TypePtr ot = o == core::Op::NoOp ? nullptr : otype_of(otype, f);
    win_of(win, f).get_accumulate(origin, count, ot, result, rcount, rtype_of(rtype, f), target, disp, tcount,
                                  ttype_of(ttype, f), o);
  });
}

LUMPI_PMPI(Fetch_and_op);
int MPI_Fetch_and_op(const void* origin, void* result, MPI_Datatype type, int target, MPI_Aint disp, MPI_Op op,
                     MPI_Win win) {
  const char* f = "MPI_Fetch_and_op";
  return call_on_win(win, f, [&] {
    win_of(win, f).fetch_and_op(origin, result, type_of(type, f), target, disp, rma_op(op, f));
  });
}

LUMPI_PMPI(Compare_and_swap);
int MPI_Compare_and_swap(const void* origin, const void* compare, void* result, MPI_Datatype type, int target,
                         MPI_Aint disp, MPI_Win win) {
  const char* f = "MPI_Compare_and_swap";
  return call_on_win(win, f, [&] {
    win_of(win, f).compare_and_swap(origin, compare, result, type_of(type, f), target, disp);
  });
}

LUMPI_PMPI(Rput);
int MPI_Rput(const void* origin, int count, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
             MPI_Datatype ttype, MPI_Win win, MPI_Request* request) {
  const char* f = "MPI_Rput";
  return call_on_win(win, f, [&] {
    check_out(request, f, "request");
    core::Win& w = win_of(win, f);
    *request = add_rma_request(w, w.rput(origin, count, otype_of(otype, f), target, disp, tcount, ttype_of(ttype, f)), f);
  });
}

LUMPI_PMPI(Rget);
int MPI_Rget(void* origin, int count, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
             MPI_Datatype ttype, MPI_Win win, MPI_Request* request) {
  const char* f = "MPI_Rget";
  return call_on_win(win, f, [&] {
    check_out(request, f, "request");
    core::Win& w = win_of(win, f);
    *request = add_rma_request(w, w.rget(origin, count, otype_of(otype, f), target, disp, tcount, ttype_of(ttype, f)), f);
  });
}

LUMPI_PMPI(Raccumulate);
int MPI_Raccumulate(const void* origin, int count, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
                    MPI_Datatype ttype, MPI_Op op, MPI_Win win, MPI_Request* request) {
  const char* f = "MPI_Raccumulate";
  return call_on_win(win, f, [&] {
    check_out(request, f, "request");
    core::Win& w = win_of(win, f);
    *request = add_rma_request(
        w, w.raccumulate(origin, count, otype_of(otype, f), target, disp, tcount, ttype_of(ttype, f), rma_op(op, f)), f);
  });
}

LUMPI_PMPI(Rget_accumulate);
int MPI_Rget_accumulate(const void* origin, int count, MPI_Datatype otype, void* result, int rcount,
                        MPI_Datatype rtype, int target, MPI_Aint disp, int tcount, MPI_Datatype ttype, MPI_Op op,
                        MPI_Win win, MPI_Request* request) {
  const char* f = "MPI_Rget_accumulate";
  return call_on_win(win, f, [&] {
    check_out(request, f, "request");
    core::Win& w = win_of(win, f);
    core::Op o = rma_op(op, f);
    core::TypePtr ot = o == core::Op::NoOp ? nullptr : otype_of(otype, f);
    *request = add_rma_request(w, w.rget_accumulate(origin, count, ot, result, rcount, rtype_of(rtype, f), target,
                                                    disp, tcount, ttype_of(ttype, f), o), f);
  });
}

}  // extern "C"
