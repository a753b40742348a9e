/* tests/exec/check_life.c: the checker's cases of objects and requests
   (docs/checking.md, issue 25 items 5 to 7, and 10: a process that ends
   without MPI_Finalize): each buggy case beside its
   correct twin, run by tests/integration/test_check_life.py under
   `lumpi exec --check` at several world sizes. Prints "done" at the end. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, size;

static void add(void* in, void* inout, int* len, MPI_Datatype* t) {
  (void)t;
  for (int i = 0; i < *len; ++i) ((int*)inout)[i] += ((int*)in)[i];
}

static void on_error(MPI_Comm* c, int* code, ...) {
  (void)c;
  (void)code;
}

/* Every kind of object, created and (when free_them) freed. */
static void objects(int free_them) {
  MPI_Comm c;
  MPI_Group g;
  MPI_Datatype t;
  MPI_Op op;
  MPI_Info info;
  MPI_Errhandler e;
  int comm_key, type_key;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &c);
  MPI_Comm_group(c, &g);
  MPI_Type_contiguous(2, MPI_INT, &t);
  MPI_Type_commit(&t);
  MPI_Op_create(add, 1, &op);
  MPI_Info_create(&info);
  MPI_Comm_create_errhandler(on_error, &e);
  MPI_Comm_set_errhandler(c, e);
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &comm_key, NULL);
  MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &type_key, NULL);
  if (!free_them) return;
  MPI_Type_free_keyval(&type_key);
  MPI_Comm_free_keyval(&comm_key);
  MPI_Errhandler_free(&e);
  MPI_Info_free(&info);
  MPI_Op_free(&op);
  MPI_Type_free(&t);
  MPI_Group_free(&g);
  MPI_Comm_free(&c);
}

/* A ring exchange; `wait_send` 0 leaves the send's request alone. */
static void ring(int wait_send) {
  int out = rank, in = -1;
  MPI_Request s, r;
  MPI_Isend(&out, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD, &s);
  MPI_Irecv(&in, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  if (wait_send) MPI_Wait(&s, MPI_STATUS_IGNORE);
}

/* A persistent send to the next rank, started twice; freed when free_it. */
static void persistent(int free_it) {
  int out = rank, in = -1;
  MPI_Request p;
  MPI_Send_init(&out, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD, &p);
  for (int i = 0; i < 2; ++i) {
    MPI_Start(&p);
    MPI_Recv(&in, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&p, MPI_STATUS_IGNORE);
  }
  if (free_it) MPI_Request_free(&p);
}

/* A receive request freed before it completed, or completed first. */
static void free_receive(int wait_first) {
  int in = -1, out = rank;
  MPI_Request r;
  MPI_Irecv(&in, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &r);
  MPI_Send(&out, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
  if (wait_first) MPI_Wait(&r, MPI_STATUS_IGNORE);
  else MPI_Request_free(&r);
  MPI_Barrier(MPI_COMM_WORLD);
}

/* The send buffer of an Isend changed before MPI_Wait (or after). */
static void send_buffer(int early) {
  int out[4] = {rank, rank, rank, rank}, in[4];
  MPI_Request s;
  MPI_Isend(out, 4, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD, &s);
  if (early) out[2] = -1;
  MPI_Recv(in, 4, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&s, MPI_STATUS_IGNORE);
  out[2] = -1;
}

/* The receive buffer of an Irecv written before MPI_Test and MPI_Wait (or
   after): the message lands in it inside the completing call. */
static void recv_buffer(int early) {
  int in[2] = {-1, -1}, out[2] = {rank, rank}, flag = 0;
  MPI_Request r;
  MPI_Irecv(in, 2, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &r);
  if (early) in[1]++;
  MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
  MPI_Send(out, 2, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
  if (!flag) MPI_Wait(&r, MPI_STATUS_IGNORE);
  in[1]++;
  if (in[0] != (rank + size - 1) % size) printf("wrong message %d\n", in[0]);
}

/* Two receives completed by MPI_Testall, the first before the second's
   message is even sent (an MPI_Testall that returns false with one of them
   complete inside); `early`: the second's buffer is written meanwhile. */
static void testall_buffers(int early) {
  int a = -1, b[2] = {-1, -1}, out = rank, flag = 0, left = (rank + size - 1) % size, right = (rank + 1) % size;
  MPI_Request r[2];
  MPI_Irecv(&a, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv(b, 2, MPI_INT, left, 1, MPI_COMM_WORLD, &r[1]);
  MPI_Send(&out, 1, MPI_INT, right, 0, MPI_COMM_WORLD);
  while (!flag) MPI_Request_get_status(r[0], &flag, MPI_STATUS_IGNORE);
  MPI_Testall(2, r, &flag, MPI_STATUSES_IGNORE);  /* false: the second is not sent yet */
  if (flag) printf("MPI_Testall completed a receive whose message was not sent\n");
  if (early) b[1] = 7;
  MPI_Barrier(MPI_COMM_WORLD);
  int two[2] = {rank, rank};
  MPI_Send(two, 2, MPI_INT, right, 1, MPI_COMM_WORLD);
  while (!flag) MPI_Testall(2, r, &flag, MPI_STATUSES_IGNORE);
  if (a != left || b[0] != left) printf("wrong messages %d %d\n", a, b[0]);
}

/* The receive buffer of an Iallreduce written before MPI_Wait (or after);
   the in-place form is watched as a receive buffer only. */
static void reduce_buffer(int early) {
  int mine = rank, sum = 0, both = rank;
  MPI_Request r[2];
  MPI_Iallreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]);
  MPI_Iallreduce(MPI_IN_PLACE, &both, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[1]);
  if (early) sum = 7;
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  if (sum != size * (size - 1) / 2 && !early) printf("wrong sum %d\n", sum);
}

/* One buffer in a pending receive and another call: `how` 1 sends from it
   (MPI_Sendrecv), 2 receives a reduction into it (MPI_Allreduce); 0 uses
   other buffers, and two pending sends and a reduction read one buffer
   (allowed, MPI-3.1 §3.7.2). */
static void shared_buffers(int how) {
  int in[2] = {-1, -1}, got[2], extra[2], out[2] = {rank, rank}, mine = rank, sum = 0, left = (rank + size - 1) % size,
      right = (rank + 1) % size;
  MPI_Request r[4];
  MPI_Irecv(in, 2, MPI_INT, left, 0, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv(got, 2, MPI_INT, left, 1, MPI_COMM_WORLD, &r[1]);
  MPI_Isend(out, 2, MPI_INT, right, 0, MPI_COMM_WORLD, &r[2]);
  MPI_Isend(out, 2, MPI_INT, right, 1, MPI_COMM_WORLD, &r[3]);
  MPI_Allreduce(how == 2 ? &mine : out, how == 2 ? &in[1] : &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (how == 1) MPI_Sendrecv(in, 2, MPI_INT, right, 2, extra, 2, MPI_INT, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
  if (how == 0 && (in[0] != left || got[0] != left || sum != size * (size - 1) / 2))
    printf("wrong messages %d %d or sum %d\n", in[0], got[0], sum);
}

/* A buffered send round the ring that no one receives (`lost`: the
   message waits at MPI_Finalize), or that each rank receives. */
static void bsend_ring(int lost) {
  static char space[sizeof(int) + MPI_BSEND_OVERHEAD];
  int out = rank, in = -1, size_bytes = (int)sizeof space;
  void* back;
  MPI_Buffer_attach(space, size_bytes);
  MPI_Bsend(&out, 1, MPI_INT, (rank + 1) % size, 3, MPI_COMM_WORLD);
  if (!lost) MPI_Recv(&in, 1, MPI_INT, (rank + size - 1) % size, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Buffer_detach(&back, &size_bytes);
}

/* MPI_Allgatherv whose receive blocks all start at byte 0 (`overlap`: a
   location written more than once, MPI-3.1 §5.5), or lie side by side in
   reverse rank order. */
static void gather_blocks(int overlap) {
  int got[8] = {0}, displs[8], counts[8];
  for (int i = 0; i < size && i < 8; ++i) counts[i] = 1, displs[i] = overlap ? 0 : size - 1 - i;
  if (size <= 8) MPI_Allgatherv(&rank, 1, MPI_INT, got, counts, displs, MPI_INT, MPI_COMM_WORLD);
  if (!overlap && size <= 8 && got[0] != size - 1) printf("wrong block %d\n", got[0]);
}

/* A column of a 4x4 matrix (MPI_Type_vector) sent with MPI_Isend: `early`
   writes one of its elements before MPI_Wait; the twin writes a hole of the
   type (an element of another column), which is the program's to use. */
static void column_buffer(int early) {
  int m[16], col[4];
  MPI_Datatype column;
  MPI_Request s;
  for (int i = 0; i < 16; ++i) m[i] = rank * 100 + i;
  MPI_Type_vector(4, 1, 4, MPI_INT, &column);
  MPI_Type_commit(&column);
  MPI_Isend(m, 1, column, (rank + 1) % size, 4, MPI_COMM_WORLD, &s);
  m[early ? 4 : 5] = -1;
  MPI_Recv(col, 4, MPI_INT, (rank + size - 1) % size, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&s, MPI_STATUS_IGNORE);
  MPI_Type_free(&column);
  if (col[1] != ((rank + size - 1) % size) * 100 + 4 && !early) printf("wrong column %d\n", col[1]);
}

/* An Isend's request freed while active (MPI lets a send's request go so;
   the checker reports it as a missing wait), or completed by MPI_Wait. The
   reply tells the sender that its message arrived either way. */
static void free_send(int wait_first) {
  int out = rank, in = -1, back = -1;
  MPI_Request s;
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  MPI_Isend(&out, 1, MPI_INT, next, 5, MPI_COMM_WORLD, &s);
  if (!wait_first) MPI_Request_free(&s);
  MPI_Recv(&in, 1, MPI_INT, prev, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (wait_first) MPI_Wait(&s, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&in, 1, MPI_INT, prev, 6, &back, 1, MPI_INT, next, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  out = back + 1; /* the reply came: the send is over */
  if (back != rank) printf("rank %d: reply %d\n", rank, back);
}

/* A receive request freed once the program knows how it ends: found
   complete by MPI_Request_get_status (§3.7.3: "a subsequent call to test,
   wait or free should be executed with that request"), or cancelled
   (§3.8.4: MPI_Request_free is one way to finish a cancelled request).
   Correct. */
static void free_known(int cancel) {
  int in = -1, out = rank, flag = 0;
  MPI_Request r;
  if (cancel) {
    MPI_Irecv(&in, 1, MPI_INT, MPI_ANY_SOURCE, 4242, MPI_COMM_WORLD, &r);
    MPI_Cancel(&r);
  } else {
    MPI_Irecv(&in, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &r);
    MPI_Send(&out, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
    while (!flag) MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE);
  }
  MPI_Request_free(&r);
  MPI_Barrier(MPI_COMM_WORLD);
}

/* Sends to and receives from MPI_PROC_NULL sharing a buffer with each
   other and with a pending send: they touch no memory (§3.11). Correct. */
static void null_shared(void) {
  int x = rank, in = -1;
  MPI_Request r[4];
  MPI_Isend(&x, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r[1]);
  MPI_Isend(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r[2]);
  MPI_Irecv(&in, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &r[3]);
  MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
}

/* A ring of persistent buffered sends (MPI_Bsend_init), each started and
   completed before its receive: a buffered send is local (§3.4), under
   --check too, where standard sends are synchronous. Correct. */
static void bsend_init_ring(void) {
  static char space[2 * (sizeof(int) + MPI_BSEND_OVERHEAD)];
  int out = rank, in = -1, size_bytes = (int)sizeof space;
  void* back;
  MPI_Request p;
  MPI_Buffer_attach(space, size_bytes);
  MPI_Bsend_init(&out, 1, MPI_INT, (rank + 1) % size, 3, MPI_COMM_WORLD, &p);
  for (int i = 0; i < 2; ++i) {
    MPI_Start(&p);
    MPI_Wait(&p, MPI_STATUS_IGNORE);
    MPI_Recv(&in, 1, MPI_INT, (rank + size - 1) % size, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Request_free(&p);
  MPI_Buffer_detach(&back, &size_bytes);
}

/* A library's objects, freed by the delete callback of an attribute on
   MPI_COMM_SELF, which MPI_Finalize runs first (MPI-3.1 §8.7.1). Correct. */
static MPI_Comm lib_comm = MPI_COMM_NULL;
static MPI_Datatype lib_type = MPI_DATATYPE_NULL;
static int lib_cleanup(MPI_Comm comm, int keyval, void* value, void* extra) {
  (void)comm, (void)keyval, (void)value, (void)extra;
  MPI_Type_free(&lib_type);
  MPI_Comm_free(&lib_comm);
  return MPI_SUCCESS;
}
static void self_cleanup(void) {
  int key, b[3] = {rank, rank, rank};
  MPI_Comm_dup(MPI_COMM_WORLD, &lib_comm);
  MPI_Type_contiguous(3, MPI_INT, &lib_type);
  MPI_Type_commit(&lib_type);
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, lib_cleanup, &key, NULL);
  MPI_Comm_set_attr(MPI_COMM_SELF, key, NULL);
  MPI_Comm_free_keyval(&key);
  MPI_Bcast(b, 1, lib_type, 0, lib_comm);
  if (b[2] != 0) printf("rank %d: bcast gave %d\n", rank, b[2]);
}

/* A persistent send's buffer changed between MPI_Start and MPI_Wait (or after). */
static void start_buffer(int early) {
  int out = rank, in = -1;
  MPI_Request p;
  MPI_Send_init(&out, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD, &p);
  for (int i = 0; i < 2; ++i) {
    MPI_Start(&p);
    if (early) out = -i;
    MPI_Recv(&in, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&p, MPI_STATUS_IGNORE);
    out = rank + i;
  }
  MPI_Request_free(&p);
}

int main(int argc, char** argv) {
  const char* c = argc > 1 ? argv[1] : "";
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (!strcmp(c, "leak")) objects(0);
  else if (!strcmp(c, "leak_ok")) objects(1);
  else if (!strcmp(c, "missing_wait")) ring(0);
  else if (!strcmp(c, "wait_ok")) ring(1);
  else if (!strcmp(c, "persistent_leak")) persistent(0);
  else if (!strcmp(c, "persistent_ok")) persistent(1);
  else if (!strcmp(c, "free_active")) free_receive(0);
  else if (!strcmp(c, "free_ok")) free_receive(1);
  else if (!strcmp(c, "free_send")) free_send(0);
  else if (!strcmp(c, "free_send_ok")) free_send(1);
  else if (!strcmp(c, "self_cleanup_ok")) self_cleanup();
  else if (!strcmp(c, "get_status_free_ok")) free_known(0);
  else if (!strcmp(c, "cancel_free_ok")) free_known(1);
  else if (!strcmp(c, "null_shared_ok")) null_shared();
  else if (!strcmp(c, "bsend_init_ok")) bsend_init_ring();
  else if (!strcmp(c, "send_race")) send_buffer(1);
  else if (!strcmp(c, "send_ok")) send_buffer(0);
  else if (!strcmp(c, "recv_race")) recv_buffer(1);
  else if (!strcmp(c, "recv_ok")) recv_buffer(0);
  else if (!strcmp(c, "testall_race")) testall_buffers(1);
  else if (!strcmp(c, "testall_ok")) testall_buffers(0);
  else if (!strcmp(c, "reduce_race")) reduce_buffer(1);
  else if (!strcmp(c, "reduce_ok")) reduce_buffer(0);
  else if (!strcmp(c, "shared_send")) shared_buffers(1);
  else if (!strcmp(c, "shared_reduce")) shared_buffers(2);
  else if (!strcmp(c, "shared_ok")) shared_buffers(0);
  else if (!strcmp(c, "bsend_lost")) bsend_ring(1);
  else if (!strcmp(c, "bsend_ok")) bsend_ring(0);
  else if (!strcmp(c, "overlap_recv")) gather_blocks(1);
  else if (!strcmp(c, "overlap_ok")) gather_blocks(0);
  else if (!strcmp(c, "column_race")) column_buffer(1);
  else if (!strcmp(c, "column_ok")) column_buffer(0);
  else if (!strcmp(c, "start_race")) start_buffer(1);
  else if (!strcmp(c, "start_ok")) start_buffer(0);
  if (rank == 0) printf("done\n");
  if (!strcmp(c, "no_finalize")) return 0; /* every rank exits without MPI_Finalize (§8.7) */
  MPI_Finalize();
  return 0;
}
