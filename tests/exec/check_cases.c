/* tests/exec/check_cases.c: the checker's cases (docs/checking.md), each a
 * buggy program and its correct twin, chosen by argv[1]:
 *   ssend_cycle    every rank Ssends to the next, then receives (deadlock);
 *   ssend_ok       the same exchange with MPI_Sendrecv;
 *   ring_recv      every rank receives from the previous, then sends (deadlock);
 *   ring_ok        rank 0 sends first;
 *   recv_finalized ranks receive from rank 0, which has finalized (deadlock);
 *   recv_ok        rank 0 sends to each first;
 *   waitall_bug    rank 0 waits for two receives from rank 1, which sends one;
 *   waitall_ok     rank 1 sends both;
 *   coll_swap      even ranks Allgather then Allreduce, odd ranks the other order;
 *   coll_ok        every rank in the same order;
 *   bcast_roots    each rank names itself the root of a broadcast (--check);
 *   bcast_ok       every rank names root 0;
 *   reduce_ops     rank 0 reduces with MPI_MAX, the others with MPI_SUM;
 *   reduce_ok      every rank with MPI_SUM, then an MPI_MAXLOC Allreduce;
 *   comm_cross     rank 0 reduces on COMM_WORLD then a duplicate, the others the other order;
 *   comm_ok        every rank on the duplicate, then on COMM_WORLD;
 *   p2p_types      every rank Isends 2 x MPI_INT to its right; odd ranks receive MPI_FLOAT (--check);
 *   p2p_types_ok   every rank receives MPI_INT (4 of them: a prefix), then MPI_BYTE and MPI_INT32_T;
 *   mrecv_types    as p2p_types, the message matched by MPI_Mprobe, odd ranks MPI_Mrecv it as MPI_FLOAT (--check);
 *   mrecv_ok       every rank MPI_Mrecvs MPI_INT;
 *   igather_odd    odd ranks Igather to root 0 and wait; the others never call it (--check: MPI_Finalize);
 *   igather_ok     every rank calls it;
 *   any_race       every other rank sends rank 0 two messages at once; rank 0 takes one with
 *                  MPI_ANY_SOURCE, then one from each rank by name, then the rest from
 *                  MPI_ANY_SOURCE: a named receive takes a message the wildcard one could
 *                  have had (--check: a message race);
 *   any_ok         the same messages, every receive from MPI_ANY_SOURCE: they are
 *                  interchangeable, whichever gets which;
 *   probe_race     as any_race, the wildcard receives a probe from MPI_ANY_SOURCE (MPI_Probe,
 *                  then MPI_Improbe in a loop) and a receive of what it found (--check);
 *   probe_ok       as any_ok, through the same probes;
 *   gatherv_counts MPI_Gatherv whose root expects 3 ints from the last rank, which sends 2 (--check);
 *                  gatherv_ok: 2 from every rank;
 *   inplace_one    MPI_Allgather with MPI_IN_PLACE at rank 0 only (--check); inplace_ok: at every rank;
 *   irecv_race     as any_race, with every receive an MPI_Irecv posted at once, then MPI_Waitall;
 *   irecv_ok       as any_ok, the same way;
 *   strand_race    ranks 1 and 2 each send rank 0 one message, rank 1 after a second; rank 0
 *                  takes one from MPI_ANY_SOURCE, then one from rank 2: when the first was
 *                  rank 2's, the second waits for ever and rank 1's is never received (a
 *                  deadlock; --check: the message race that stranded it);
 *   strand_ok      the second receive from MPI_ANY_SOURCE too.
 * A correct twin prints "done" from rank 0. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int me, n;

static void ssend_ring(int bug) {
  int out = me, in = -1, next = (me + 1) % n, prev = (me + n - 1) % n;
  if (bug) {
    MPI_Ssend(&out, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
    MPI_Recv(&in, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Sendrecv(&out, 1, MPI_INT, next, 0, &in, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

static void recv_ring(int bug) {
  int v = me, next = (me + 1) % n, prev = (me + n - 1) % n;
  if (!bug && me == 0) MPI_Send(&v, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
  MPI_Recv(&v, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (bug || me != 0) MPI_Send(&v, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
}

static void from_finalized(int bug) {
  int v = 7;
  if (me == 0) {
    for (int r = 1; !bug && r < n; ++r) MPI_Send(&v, 1, MPI_INT, r, 0, MPI_COMM_WORLD);
    return;
  }
  MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* The last rank receives from itself: blocked, it can never send the
 * message (the twin sends it first, nonblocking). */
static void from_self(int bug) {
  int v = me, w = -1;
  MPI_Request rq = MPI_REQUEST_NULL;
  if (me == n - 1 && !bug) MPI_Isend(&v, 1, MPI_INT, me, 3, MPI_COMM_WORLD, &rq);
  if (me == n - 1) MPI_Recv(&w, 1, MPI_INT, me, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&rq, MPI_STATUS_IGNORE);
}

static void waitall(int bug) {
  int a = 1, b = 2;
  if (me == 0) {
    MPI_Request rq[2];
    MPI_Irecv(&a, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(&b, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
  } else if (me == 1) {
    MPI_Send(&a, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    if (!bug) MPI_Send(&b, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
  }
}

static void swapped(int bug) {
  int mine = me, all[64], sum = 0;
  if (bug && me % 2) {
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
  } else {
    MPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  }
}

static void roots(int bug) {
  int v = me;
  MPI_Bcast(&v, 1, MPI_INT, bug ? me : 0, MPI_COMM_WORLD);
}

static void ops(int bug) {
  int v = me + 1, r = 0;
  struct {
    double value;
    int index;
  } mine = {me % 2, me}, best;
  MPI_Reduce(&v, &r, 1, MPI_INT, bug && me == 0 ? MPI_MAX : MPI_SUM, 0, MPI_COMM_WORLD);
  if (bug) return;
  /* the checker names MPI_MAXLOC too (it once refused it: "op 11 is not an op") */
  MPI_Allreduce(&mine, &best, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
  if (best.value != (n > 1) || best.index != (n > 1)) printf("FAIL maxloc (%g, %d)\n", best.value, best.index);
}

static void cross(int bug) {
  MPI_Comm dup;
  int v = 1, s = 0;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_set_name(dup, "dup");
  if (bug && me == 0) {
    MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, dup);
  } else {
    MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, dup);
    MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Comm_free(&dup);
}

// Odd ranks describe their data as MPI_FLOAT: the signatures differ (§5.1)
// though the sizes agree.
static void types(int bug) {
  int mine = me, all[64];
  MPI_Datatype t = bug && me % 2 ? MPI_FLOAT : MPI_INT;
  MPI_Allgather(&mine, 1, t, all, 1, t, MPI_COMM_WORLD);
}

// MPI_Allgather with MPI_IN_PLACE at rank 0 only (MPI-3.1 §5.7: at all
// processes or at none); the twin passes it at every rank.
static void in_place(int bug) {
  int mine = me, all[64];
  all[me] = me;
  if (me == 0 || !bug) MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1, MPI_INT, MPI_COMM_WORLD);
  else MPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
}

// MPI_Gatherv whose root expects 3 ints from the last rank, which sends 2
// (MPI-3.1 §5.5: each pair's signatures are equal); the twin expects 2.
static void gatherv_counts(int bug) {
  int mine[2] = {me, me}, all[128], counts[64], displs[64];
  for (int i = 0; i < n && i < 64; ++i) counts[i] = 2, displs[i] = 2 * i;
  if (bug) counts[n - 1] = 3;
  MPI_Gatherv(mine, 2, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
}

// The nonblocking form: rank 0 reduces with MPI_MAX, the others MPI_SUM.
static void iops(int bug) {
  int v = me + 1, r = 0;
  MPI_Request q;
  MPI_Iallreduce(&v, &r, 1, MPI_INT, bug && me == 0 ? MPI_MAX : MPI_SUM, MPI_COMM_WORLD, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
}

// Every rank sends to its right before receiving from its left: correct
// only where standard sends are buffered (§3.5); MPI_Sendrecv is the twin.
static void eager(int bug) {
  int x = me, y = -1, right = (me + 1) % n, left = (me + n - 1) % n;
  if (bug) {
    MPI_Send(&x, 1, MPI_INT, right, 0, MPI_COMM_WORLD);
    MPI_Recv(&y, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Sendrecv(&x, 1, MPI_INT, right, 0, &y, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

// Every rank sends 2 x MPI_INT to its right. Odd ranks of the buggy case
// receive them as MPI_FLOAT (§3.3.1: the sizes agree, the types do not);
// the twin receives MPI_INT into room for 4 (a prefix is allowed), then
// the same data as MPI_BYTE (untyped) and MPI_INT32_T (one representation).
static void p2p_types(int bug) {
  int out[2] = {me, me}, in[8];
  int right = (me + 1) % n, left = (me + n - 1) % n;
  MPI_Request q;
  MPI_Isend(out, 2, MPI_INT, right, 5, MPI_COMM_WORLD, &q);
  if (bug && me % 2)
    MPI_Recv(in, 2, MPI_FLOAT, left, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  else
    MPI_Recv(in, 4, MPI_INT, left, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  MPI_Sendrecv(out, 2, MPI_INT, right, 6, in, 8, MPI_BYTE, left, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(out, 2, MPI_INT, right, 7, in, 2, MPI_INT32_T, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

// As p2p_types, but the message is matched first (MPI_Mprobe) and received
// by MPI_Mrecv, whose type is known only then.
static void mrecv_types(int bug) {
  int out[2] = {me, me}, in[2];
  MPI_Request q;
  MPI_Message m;
  MPI_Isend(out, 2, MPI_INT, (me + 1) % n, 8, MPI_COMM_WORLD, &q);
  MPI_Mprobe((me + n - 1) % n, 8, MPI_COMM_WORLD, &m, MPI_STATUS_IGNORE);
  MPI_Mrecv(in, 2, bug && me % 2 ? MPI_FLOAT : MPI_INT, &m, MPI_STATUS_IGNORE);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
}

// Only the odd ranks gather to rank 0: each completes its own part (it
// only sends), so nothing hangs, but rank 0's next collective on
// COMM_WORLD is MPI_Finalize (collective over COMM_WORLD, §8.7).
static void igather_odd(int bug) {
  int v = me, all[64];
  MPI_Request q;
  if (bug && me % 2 == 0) return;
  MPI_Igather(&v, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  if (me == 0 && all[n - 1] != n - 1) printf("FAIL gathered %d\n", all[n - 1]);
}

// Every other rank sends rank 0 two messages (tag 9) at once. Rank 0 takes
// one from any rank, then, in the buggy case, one from each rank by name
// (as if the first had been rank 1's), then the rest from any rank. A named
// receive then takes a message the wildcard one could have had: which
// message each gets depends on timing (a message race, MPI-3.1 §3.5). In
// the twin every receive is from MPI_ANY_SOURCE, and any of them may take
// any message: nothing depends on which. take(i) is rank 0's i-th wildcard
// receive (or probe and receive).
static void from_any(int bug, int (*take)(int i)) {
  int v = me, got = 0;
  if (me != 0) {
    for (int k = 0; k < 2; ++k) MPI_Send(&v, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
    return;
  }
  got += take(0);
  for (int i = 1; i < n; ++i)
    if (bug)
      MPI_Recv(&v, 1, MPI_INT, i, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE), got += v;
    else
      got += take(i);
  for (int i = 2; i < n; ++i) got += take(n + i);
  if (got != n * (n - 1)) printf("FAIL sum %d\n", got);
}

static int recv_any(int i) {
  int v;
  (void)i;
  MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return v;
}

// MPI_Probe from MPI_ANY_SOURCE, then a receive from the rank it found;
// the later ones MPI_Improbe polled until it matches, then MPI_Mrecv.
static int probe_any(int i) {
  int v;
  MPI_Status st;
  if (i == 0) {
    MPI_Probe(MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &st);
    MPI_Recv(&v, 1, MPI_INT, st.MPI_SOURCE, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return v;
  }
  MPI_Message msg;
  int flag = 0;
  while (!flag) MPI_Improbe(MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &flag, &msg, &st);
  MPI_Mrecv(&v, 1, MPI_INT, &msg, MPI_STATUS_IGNORE);
  return v;
}

static void any_source(int bug) { from_any(bug, recv_any); }
static void probe_source(int bug) { from_any(bug, probe_any); }

// from_any's receives, every one an MPI_Irecv posted at once.
static void irecvs(int bug) {
  int v = me, got[128], sum = 0, k = 0;
  MPI_Request r[128];
  if (me != 0) {
    for (int j = 0; j < 2; ++j) MPI_Send(&v, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
    return;
  }
  if (n > 64) return;
  MPI_Irecv(&got[k], 1, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &r[k]), ++k;
  for (int i = 1; i < n; ++i, ++k) MPI_Irecv(&got[k], 1, MPI_INT, bug ? i : MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &r[k]);
  for (int i = 2; i < n; ++i, ++k) MPI_Irecv(&got[k], 1, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &r[k]);
  MPI_Waitall(k, r, MPI_STATUSES_IGNORE);
  for (int j = 0; j < k; ++j) sum += got[j];
  if (sum != n * (n - 1)) printf("FAIL sum %d\n", sum);
}

// The other order of a message race left a message unreceived (stranded)
// by a deadlock: see strand_race above.
static void stranded(int bug) {
  int v = me;
  if (me == 1) usleep(1000 * 1000);
  if (me == 1 || me == 2) MPI_Send(&v, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
  if (me != 0) return;
  MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Recv(&v, 1, MPI_INT, bug ? 2 : MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

struct Case {
  const char *bug, *ok;
  void (*run)(int bug);
};

static const struct Case cases[] = {
    {"ssend_cycle", "ssend_ok", ssend_ring},   {"ring_recv", "ring_ok", recv_ring},
    {"recv_finalized", "recv_ok", from_finalized}, {"waitall_bug", "waitall_ok", waitall},
    {"coll_swap", "coll_ok", swapped},          {"bcast_roots", "bcast_ok", roots},
    {"reduce_ops", "reduce_ok", ops},           {"comm_cross", "comm_ok", cross},
    {"coll_types", "types_ok", types},          {"iallreduce_ops", "iallreduce_ok", iops},
    {"send_eager", "sendrecv_ok", eager},      {"recv_self", "self_ok", from_self},
    {"p2p_types", "p2p_types_ok", p2p_types},  {"igather_odd", "igather_ok", igather_odd},
    {"mrecv_types", "mrecv_ok", mrecv_types},
    {"any_race", "any_ok", any_source},        {"probe_race", "probe_ok", probe_source},
    {"irecv_race", "irecv_ok", irecvs},        {"inplace_one", "inplace_ok", in_place},
    {"gatherv_counts", "gatherv_ok", gatherv_counts}, {"strand_race", "strand_ok", stranded},
};

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  const char* which = argc > 1 ? argv[1] : "";
  int found = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    int bug = strcmp(which, cases[i].bug) == 0;
    if (!bug && strcmp(which, cases[i].ok) != 0) continue;
    found = 1;
    if (me == 0) printf("start\n"), fflush(stdout);
    cases[i].run(bug);
  }
  if (!found && me == 0) printf("unknown case %s\n", which);
  if (me == 0) printf("done\n");
  MPI_Finalize();
  return found ? 0 : 2;
}
