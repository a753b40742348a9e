// capi/c_p2p.cpp: the C API's point-to-point operations, cancelling
// and freeing requests (completing them is c_complete.cpp's) and blocking
// collectives, over the public C++ API. Data moves as bytes (count times
// the type's size), so every basic type can be sent, received, broadcast,
// gathered and scattered; blocking point-to-point, MPI_Isend/MPI_Issend and
// MPI_Bcast pack and unpack any committed derived type (TypeBytes,
// capi/c_type.cpp), the rest take derived types without holes;
// reductions go through the core's typed operations (capi/c_env.cpp
// says which types). MPI_IN_PLACE is turned into an explicit copy of the
// caller's own contribution.
#include <cstring>
#include <vector>

#include "capi/c_api.hpp"

using namespace lumpi;
using namespace lumpi::capi;


extern "C" {

// ---- point-to-point ------------------------------------------------------------------

int MPI_Send(const void* buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm) {
  return call(comm, "MPI_Send", [&] {
    TypeBytes b(buf, count, t, "MPI_Send");
    comm_of(comm, "MPI_Send").Send(b.pack("MPI_Send"), int(b.size()), BYTE, dest, tag);
  });
}

int MPI_Ssend(const void* buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm) {
  return call(comm, "MPI_Ssend", [&] {
    TypeBytes b(buf, count, t, "MPI_Ssend");
    comm_of(comm, "MPI_Ssend").Ssend(b.pack("MPI_Ssend"), int(b.size()), BYTE, dest, tag);
  });
}

int MPI_Recv(void* buf, int count, MPI_Datatype t, int source, int tag, MPI_Comm comm, MPI_Status* status) {
  return call(comm, "MPI_Recv", [&] {
    Status s;
    TypeBytes b(buf, count, t, "MPI_Recv");
    comm_of(comm, "MPI_Recv").Recv(b.stage(), int(b.size()), BYTE, source, tag, s);
    b.unpack(s.Bytes(), "MPI_Recv");
    to_c(s, status);
  });
}

int MPI_Isend(const void* buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request* r) {
  return call(comm, "MPI_Isend", [&] {
    TypeBytes b(buf, count, t, "MPI_Isend");  // a staged copy is sent at once
    *r = add_request(comm_of(comm, "MPI_Isend").Isend(b.pack("MPI_Isend"), int(b.size()), BYTE, dest, tag));
  });
}

int MPI_Issend(const void* buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request* r) {
  return call(comm, "MPI_Issend", [&] {
    TypeBytes b(buf, count, t, "MPI_Issend");
    *r = add_request(
        comm_of(comm, "MPI_Issend").Issend(b.pack("MPI_Issend"), int(b.size()), BYTE, dest, tag));
  });
}

int MPI_Irecv(void* buf, int count, MPI_Datatype t, int source, int tag, MPI_Comm comm, MPI_Request* r) {
  return call(comm, "MPI_Irecv", [&] {
    *r = add_request(comm_of(comm, "MPI_Irecv").Irecv(buf, bytes(count, t, "MPI_Irecv"), BYTE, source, tag));
  });
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  const char* f = "MPI_Sendrecv";
  return call(comm, f, [&] {
    Status s;
    TypeBytes out(sendbuf, sendcount, sendtype, f, "sendcount");
    TypeBytes in(recvbuf, recvcount, recvtype, f, "recvcount");
    comm_of(comm, f).Sendrecv(out.pack(f), int(out.size()), BYTE, dest, sendtag, in.stage(), int(in.size()),
                                    BYTE, source, recvtag, s);
    in.unpack(s.Bytes(), f);
    to_c(s, status);
  });
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  return call(comm, "MPI_Probe", [&] {
    Status s;
    comm_of(comm, "MPI_Probe").Probe(source, tag, s);
    to_c(s, status);
  });
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  return call(comm, "MPI_Iprobe", [&] {
    Status s;
    *flag = comm_of(comm, "MPI_Iprobe").Iprobe(source, tag, s);
    if (*flag) to_c(s, status);
  });
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype t, int dest, int sendtag, int source, int recvtag,
                         MPI_Comm comm, MPI_Status* status) {
  const char* f = "MPI_Sendrecv_replace";
  return call(comm, f, [&] {
    Status s;
    comm_of(comm, f).Sendrecv_replace(buf, bytes(count, t, f), BYTE, dest, sendtag, source, recvtag, s);
    to_c(s, status);
  });
}

// The request stays valid: it still has to be completed (Wait, Test) or freed.
int MPI_Cancel(MPI_Request* r) {
  return call("MPI_Cancel", [&] { request(*r, "MPI_Cancel").Cancel(); });
}

int MPI_Test_cancelled(const MPI_Status* status, int* flag) {
  return call("MPI_Test_cancelled", [&] {
    if (!status) fail(MPI_ERR_ARG, "MPI_Test_cancelled", "status is MPI_STATUS_IGNORE");
    *flag = status->lumpi_cancelled;
  });
}

int MPI_Request_free(MPI_Request* r) {
  return call("MPI_Request_free", [&] {
    request(*r, "MPI_Request_free").Free();
    drop_request(*r);
    *r = MPI_REQUEST_NULL;
  });
}

// ---- collectives ---------------------------------------------------------------------

int MPI_Barrier(MPI_Comm comm) {
  return call(comm, "MPI_Barrier", [&] { comm_of(comm, "MPI_Barrier").Barrier(); });
}

int MPI_Bcast(void* buf, int count, MPI_Datatype t, int root, MPI_Comm comm) {
  const char* f = "MPI_Bcast";
  return call(comm, f, [&] {
    Comm& c = comm_of(comm, f);
    TypeBytes b(buf, count, t, f);
    if (is_root(c, root)) return c.Bcast(b.pack(f), int(b.size()), BYTE, root);
    bool receives = !(c.Is_inter() && root == MPI_PROC_NULL);
    c.Bcast(receives ? b.stage() : buf, int(b.size()), BYTE, root);
    if (receives) b.unpack(b.size(), f);
  });
}

int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
               MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const char* f = "MPI_Gather";
  return call(comm, f, [&] {
    Comm& c = comm_of(comm, f);
    bool r = is_root(c, root);
    int rb = r ? bytes(recvcount, recvtype, f, "recvcount") : 0;
    std::vector<char> own;
    if (sendbuf == MPI_IN_PLACE) {  // the root's block is already in place
      own.assign((char*)recvbuf + size_t(c.Get_rank()) * rb, (char*)recvbuf + size_t(c.Get_rank() + 1) * rb);
      c.Gather(own.data(), rb, BYTE, recvbuf, rb, BYTE, root);
      return;
    }
    int sb = root == MPI_ROOT ? 0 : bytes(sendcount, sendtype, f, "sendcount");
    c.Gather(sendbuf, sb, BYTE, recvbuf, rb, BYTE, root);
  });
}

int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const char* f = "MPI_Scatter";
  return call(comm, f, [&] {
    Comm& c = comm_of(comm, f);
    bool r = is_root(c, root);
    int sb = r ? bytes(sendcount, sendtype, f, "sendcount") : 0;
    if (recvbuf == MPI_IN_PLACE) {  // the root keeps its block where it is
      std::vector<char> sink(size_t(sb) + 1);
      c.Scatter(sendbuf, sb, BYTE, sink.data(), sb, BYTE, root);
      return;
    }
    int rb = root == MPI_ROOT ? 0 : bytes(recvcount, recvtype, f, "recvcount");
    c.Scatter(sendbuf, sb, BYTE, recvbuf, rb, BYTE, root);
  });
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm) {
  const char* f = "MPI_Allgather";
  return call(comm, f, [&] {
    Comm& c = comm_of(comm, f);
    int rb = bytes(recvcount, recvtype, f, "recvcount");
    if (sendbuf == MPI_IN_PLACE) {
      std::vector<char> own((char*)recvbuf + size_t(c.Get_rank()) * rb,
                            (char*)recvbuf + size_t(c.Get_rank() + 1) * rb);
      c.Allgather(own.data(), rb, BYTE, recvbuf, rb, BYTE);
      return;
    }
    c.Allgather(sendbuf, bytes(sendcount, sendtype, f, "sendcount"), BYTE, recvbuf, rb, BYTE);
  });
}

int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm) {
  const char* f = "MPI_Alltoall";
  return call(comm, f, [&] {
    Comm& c = comm_of(comm, f);
    int rb = bytes(recvcount, recvtype, f, "recvcount");
    if (sendbuf == MPI_IN_PLACE) {
      std::vector<char> copy((char*)recvbuf, (char*)recvbuf + size_t(remote_or_local_size(c)) * rb);
      c.Alltoall(copy.data(), rb, BYTE, recvbuf, rb, BYTE);
      return;
    }
    c.Alltoall(sendbuf, bytes(sendcount, sendtype, f, "sendcount"), BYTE, recvbuf, rb, BYTE);
  });
}

}  // extern "C"
