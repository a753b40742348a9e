// tests/exec/check_life.cpp: the checker's cases of objects and requests
// from the C++ door (docs/checking.md, issue 25 items 5 and 6), beside
// check_life.c's C ones: each buggy case next to its correct twin, run by
// tests/integration/test_check_life.py under `lumpi exec --check` at
// several world sizes; the buffers of pending operations (issue 25 item
// 7) too. Rank 0 prints "done" at the end.
#include <lumpi.hpp>

#include <cstdio>
#include <cstring>

namespace {

int rank, size;
const lumpi::Intracomm& world() { return lumpi::COMM_WORLD; }
int next() { return (rank + 1) % size; }
int prev() { return (rank + size - 1) % size; }

// Every kind of object this door holds in MPI, made and (when free_them) freed.
void objects(bool free_them) {
  lumpi::Intracomm c = world().Split(rank % 2, rank);
  lumpi::Datatype t = lumpi::INT.Create_contiguous(2);
  t.Commit();
  lumpi::Op op;
  op.Init([](const void*, void*, int, const lumpi::Datatype&) {}, true);
  lumpi::Info info = lumpi::Info::Create();
  lumpi::Errhandler e = lumpi::Comm::Create_errhandler([](lumpi::Comm&, int) {});
  c.Set_errhandler(e);
  lumpi::Keyval comm_key = lumpi::Comm::Create_keyval(lumpi::Comm::NULL_COPY_FN, lumpi::Comm::NULL_DELETE_FN, nullptr);
  lumpi::Keyval type_key =
      lumpi::Datatype::Create_keyval(lumpi::Datatype::NULL_COPY_FN, lumpi::Datatype::NULL_DELETE_FN, nullptr);
  static int cell;
  lumpi::Win w = lumpi::Win::Create(&cell, sizeof cell, 1, lumpi::INFO_NULL, world());
  if (!free_them) return;
  w.Free();
  lumpi::Datatype::Free_keyval(type_key);
  lumpi::Comm::Free_keyval(comm_key);
  e.Free();
  info.Free();
  op.Free();
  t.Free();
  c.Free();
}

// A ring exchange; wait_send false leaves the send's request alone.
void ring(bool wait_send) {
  int out = rank, in = -1;
  lumpi::Request s = world().Isend(&out, 1, lumpi::INT, next(), 0);
  lumpi::Request r = world().Irecv(&in, 1, lumpi::INT, prev(), 0);
  r.Wait();
  if (wait_send) s.Wait();
}

// Two sends in a loop through one handle: `overwrite` drops the first
// request while it is active (its handle assigned over), the twin waits
// for each.
void overwrite(bool bug) {
  int out[2] = {rank, rank}, in[2];
  lumpi::Request s;
  for (int i = 0; i < 2; ++i) {
    s = world().Isend(&out[i], 1, lumpi::INT, next(), i);
    world().Recv(&in[i], 1, lumpi::INT, prev(), i);
    if (!bug) s.Wait();
  }
  if (bug) s.Wait();
  world().Barrier();
}

// A persistent send to the next rank, started twice; freed when free_it.
// `started` leaves it started and not completed (and not freed).
void persistent(bool free_it, bool started = false) {
  int out = rank, in = -1;
  lumpi::Prequest p = world().Send_init(&out, 1, lumpi::INT, next(), 0);
  for (int i = 0; i < 2; ++i) {
    p.Start();
    world().Recv(&in, 1, lumpi::INT, prev(), 0);
    if (i == 0 || !started) p.Wait();
  }
  if (free_it) p.Free();
  world().Barrier();
}

// A receive request freed before it completed, or completed first.
void free_receive(bool wait_first) {
  int in = -1, out = rank;
  lumpi::Request r = world().Irecv(&in, 1, lumpi::INT, prev(), 0);
  world().Send(&out, 1, lumpi::INT, next(), 0);
  if (wait_first)
    r.Wait();
  else
    r.Free();
  world().Barrier();
}

// An active send request freed (reported as a missing wait), or completed by Wait.
void free_send(bool wait_first) {
  int out = rank, in = -1;
  lumpi::Request s = world().Isend(&out, 1, lumpi::INT, next(), 0);
  if (!wait_first) s.Free();
  world().Recv(&in, 1, lumpi::INT, prev(), 0);
  if (wait_first) s.Wait();
  world().Barrier();
}

// A receive freed once Get_status found it complete, or once cancelled.
void free_known(bool cancel) {
  int in = -1, out = rank;
  if (cancel) {
    lumpi::Request r = world().Irecv(&in, 1, lumpi::INT, prev(), 99);
    r.Cancel();
    r.Free();
  } else {
    lumpi::Request r = world().Irecv(&in, 1, lumpi::INT, prev(), 0);
    world().Send(&out, 1, lumpi::INT, next(), 0);
    lumpi::Status st;
    while (!r.Get_status(st)) {
    }
    r.Free();
  }
  world().Barrier();
}

// The send buffer of an Isend written before its Wait (`early`), or after.
void send_buffer(bool early) {
  int out[4] = {rank, rank, rank, rank}, in[4];
  lumpi::Request s = world().Isend(out, 4, lumpi::INT, next(), 0);
  if (early) out[2] = -1;
  world().Recv(in, 4, lumpi::INT, prev(), 0);
  s.Wait();
  out[2] = -1;
}

// The receive buffer of an Irecv written before Test and Wait (or after):
// the message lands in it inside the completing call.
void recv_buffer(bool early) {
  int in[2] = {-1, -1}, out[2] = {rank, rank};
  lumpi::Request r = world().Irecv(in, 2, lumpi::INT, prev(), 0);
  if (early) in[1]++;
  bool done = r.Test();
  world().Send(out, 2, lumpi::INT, next(), 0);
  if (!done) r.Wait();
  in[1]++;
  if (in[0] != prev()) std::printf("wrong message %d\n", in[0]);
}

// A pending receive's buffer sent from by Sendrecv (`shared`), or a
// buffer of its own sent; two pending Isends share one buffer either way.
void shared_buffers(bool shared) {
  int in[2] = {-1, -1}, other[2] = {rank, rank}, out[2] = {rank, rank}, extra[2];
  lumpi::Request r[3];
  r[0] = world().Irecv(in, 2, lumpi::INT, prev(), 0);
  r[1] = world().Isend(out, 2, lumpi::INT, next(), 0);
  r[2] = world().Isend(out, 2, lumpi::INT, next(), 1);
  world().Sendrecv(shared ? in : other, 2, lumpi::INT, next(), 2, extra, 2, lumpi::INT, prev(), 2);
  lumpi::Status st;
  world().Recv(extra, 2, lumpi::INT, prev(), 1, st);
  lumpi::Request::Waitall(3, r);
  if (in[0] != prev()) std::printf("wrong message %d\n", in[0]);
}

// A persistent send whose buffer is written while started (`early`), or
// only between its completion and the next start.
void start_buffer(bool early) {
  int out = rank, in = -1;
  lumpi::Prequest p = world().Send_init(&out, 1, lumpi::INT, next(), 0);
  for (int i = 0; i < 2; ++i) {
    p.Start();
    if (early) out = -i;
    world().Recv(&in, 1, lumpi::INT, prev(), 0);
    p.Wait();
    out = rank + i;
  }
  p.Free();
}

// The receive buffer of an Iallreduce written before its Wait (`early`),
// or after; the in-place form is watched as a receive buffer only.
void reduce_buffer(bool early) {
  int mine = rank, sum = 0, both = rank;
  lumpi::Request r[2];
  r[0] = world().Iallreduce(&mine, &sum, 1, lumpi::INT, lumpi::SUM);
  r[1] = world().Iallreduce(lumpi::IN_PLACE, &both, 1, lumpi::INT, lumpi::SUM);
  if (early) sum = 7;
  lumpi::Request::Waitall(2, r);
  if (!early && sum != size * (size - 1) / 2) std::printf("wrong sum %d\n", sum);
}

// A blocking Allreduce into the buffer of a pending Irecv (`shared`), or
// into one of its own.
void shared_reduce(bool shared) {
  int in[2] = {-1, -1}, out[2] = {rank, rank}, mine = rank, sum = 0;
  lumpi::Request r = world().Irecv(in, 2, lumpi::INT, prev(), 0);
  world().Allreduce(&mine, shared ? &in[1] : &sum, 1, lumpi::INT, lumpi::SUM);
  world().Send(out, 2, lumpi::INT, next(), 0);
  r.Wait();
  if (in[0] != prev()) std::printf("wrong message %d\n", in[0]);
}

}  // namespace

int main(int argc, char** argv) {
  const char* c = argc > 1 ? argv[1] : "";
  lumpi::Init(argc, argv);
  rank = world().Get_rank();
  size = world().Get_size();
  auto is = [&](const char* name) { return std::strcmp(c, name) == 0; };
  if (is("leak") || is("leak_ok")) objects(is("leak_ok"));
  if (is("missing_wait") || is("wait_ok")) ring(is("wait_ok"));
  if (is("overwrite") || is("overwrite_ok")) overwrite(is("overwrite"));
  if (is("persistent_leak") || is("persistent_ok")) persistent(is("persistent_ok"));
  if (is("persistent_started")) persistent(false, true);
  if (is("free_active") || is("free_ok")) free_receive(is("free_ok"));
  if (is("free_send") || is("free_send_ok")) free_send(is("free_send_ok"));
  if (is("get_status_free_ok") || is("cancel_free_ok")) free_known(is("cancel_free_ok"));
  if (is("send_race") || is("send_ok")) send_buffer(is("send_race"));
  if (is("recv_race") || is("recv_ok")) recv_buffer(is("recv_race"));
  if (is("shared_send") || is("shared_ok")) shared_buffers(is("shared_send"));
  if (is("start_race") || is("start_ok")) start_buffer(is("start_race"));
  if (is("reduce_race") || is("reduce_ok")) reduce_buffer(is("reduce_race"));
  if (is("shared_reduce") || is("shared_reduce_ok")) shared_reduce(is("shared_reduce"));
  if (rank == 0) std::printf("done\n");
  lumpi::Finalize();
  return 0;
}
