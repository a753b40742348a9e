// capi/c_nbc.cpp: the C API's nonblocking collectives that move data
// (MPI_Ibarrier ... MPI_Ialltoall, MPI-3.1 §5.12) over the public C++ API's
// Comm::Ibarrier ... (core/api/api_nbc.cpp). As in capi/c_p2p.cpp, data
// moves as bytes (count times the type's size). The reductions are
// capi/c_reduce.cpp's.
// MPI_IN_PLACE: the caller's own contribution is copied at the call (the
// core copies every input at the start), the result lands in recvbuf when
// the request completes. The request completes with MPI_Wait/MPI_Test and
// their any/all/some forms like any other.
#include <vector>

#include "capi/c_api.hpp"

using namespace lumpi;
using namespace lumpi::capi;

namespace {

}  // namespace

extern "C" {

int MPI_Ibarrier(MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Ibarrier";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    *r = add_request(comm_of(comm, f).Ibarrier());
  });
}

int MPI_Ibcast(void* buf, int count, MPI_Datatype t, int root, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Ibcast";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    *r = add_request(comm_of(comm, f).Ibcast(buf, bytes(count, t, f), BYTE, root));
  });
}

int MPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Igather";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    Comm& c = comm_of(comm, f);
    int rb = is_root(c, root) ? bytes(recvcount, recvtype, f, "recvcount") : 0;
    if (sendbuf == MPI_IN_PLACE) {  // the root's block is already in place
      std::vector<char> own((char*)recvbuf + size_t(c.Get_rank()) * rb,
                            (char*)recvbuf + size_t(c.Get_rank() + 1) * rb);
      *r = add_request(c.Igather(own.data(), rb, BYTE, recvbuf, rb, BYTE, root));
      return;
    }
    int sb = root == MPI_ROOT ? 0 : bytes(sendcount, sendtype, f, "sendcount");
    *r = add_request(c.Igather(sendbuf, sb, BYTE, recvbuf, rb, BYTE, root));
  });
}

int MPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Iscatter";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    Comm& c = comm_of(comm, f);
    int sb = is_root(c, root) ? bytes(sendcount, sendtype, f, "sendcount") : 0;
    if (recvbuf == MPI_IN_PLACE) {  // the root keeps its block where it is: receive it onto itself
      void* own_block = (char*)sendbuf + size_t(c.Get_rank()) * sb;
      *r = add_request(c.Iscatter(sendbuf, sb, BYTE, own_block, sb, BYTE, root));
      return;
    }
    int rb = root == MPI_ROOT ? 0 : bytes(recvcount, recvtype, f, "recvcount");
    *r = add_request(c.Iscatter(sendbuf, sb, BYTE, recvbuf, rb, BYTE, root));
  });
}

int MPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Iallgather";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    Comm& c = comm_of(comm, f);
    int rb = bytes(recvcount, recvtype, f, "recvcount");
    if (sendbuf == MPI_IN_PLACE) {
      std::vector<char> own((char*)recvbuf + size_t(c.Get_rank()) * rb,
                            (char*)recvbuf + size_t(c.Get_rank() + 1) * rb);
      *r = add_request(c.Iallgather(own.data(), rb, BYTE, recvbuf, rb, BYTE));
      return;
    }
    *r = add_request(c.Iallgather(sendbuf, bytes(sendcount, sendtype, f, "sendcount"), BYTE, recvbuf, rb, BYTE));
  });
}

int MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* r) {
  const char* f = "MPI_Ialltoall";
  return call(comm, f, [&] {
    check_out(r, f, "request");
    Comm& c = comm_of(comm, f);
    int rb = bytes(recvcount, recvtype, f, "recvcount");
    if (sendbuf == MPI_IN_PLACE) {
      std::vector<char> copy((char*)recvbuf, (char*)recvbuf + size_t(remote_or_local_size(c)) * rb);
      *r = add_request(c.Ialltoall(copy.data(), rb, BYTE, recvbuf, rb, BYTE));
      return;
    }
    *r = add_request(c.Ialltoall(sendbuf, bytes(sendcount, sendtype, f, "sendcount"), BYTE, recvbuf, rb, BYTE));
  });
}

}  // extern "C"
