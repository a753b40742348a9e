// core/api/lumpi.hpp: the public C++ API of lumpi's MPI core, the one header a C++
// program includes. Its shape is MPI's C++ binding (MPI-2.2 chapter 16 and
// Annex A.4) in namespace `lumpi` instead of `MPI`:
//
//   Comm (abstract)            what every communicator has: size, rank, group,
//    │                         point-to-point, collectives, names, attributes
//    ├─ Intracomm              + Dup/Split/Create/Create_intercomm/Create_cart/..., Scan
//    │   └─ Topocomm           + Neighbor_allgather/.../Ineighbor_alltoall
//    │       ├─ Cartcomm       + Get_dim/Get_topo/Get_coords/Shift/Sub/...
//    │       ├─ Graphcomm      + Get_dims/Get_topo/Get_neighbors/...
//    │       └─ Distgraphcomm  + Get_dist_neighbors_count/Get_dist_neighbors
//    └─ Intercomm              + Get_remote_size/Get_remote_group/Merge
//
// An operation exists only on the class MPI defines it for, so calling
// Shift on an Intercomm, or building a Cartcomm from an Intracomm (Example
// 16.4), does not compile. Every error is a lumpi::Exception carrying the MPI
// error class, the MPI function and a message naming the bad argument; bad
// arguments are reported before anything is sent. Handles are shallow: copying
// a communicator, request or info copies a reference to the same MPI object,
// as in §16.1.5 (a Group is a value: its member list).
//
// Nothing here includes ZeroMQ or core internals: communicators and requests
// are opaque handles (detail::CommHandle, detail::RequestHandle) defined in the
// implementation (core/api/api_*.cpp). See docs/cxx-api.md.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace lumpi {

namespace detail {
struct Access;        // the implementation's door into the handles
struct CommHandle;    // a communicator of the core
struct RequestHandle; // a pending operation of the core
struct UserHandler;   // a user-defined error handler (api_error.cpp)
struct MessageHandle; // a matched message (api_message.cpp)
}  // namespace detail

// ---- constants (the same values as the core and the Lua binding) -----------------

inline constexpr int PROC_NULL = -1;
inline constexpr int ANY_SOURCE = -2;
inline constexpr int ROOT = -3;
inline constexpr int ANY_TAG = -4;
inline constexpr int UNDEFINED = -32766;
inline constexpr int MAX_OBJECT_NAME = 128;
inline constexpr int MAX_ERROR_STRING = 512;
inline constexpr int MAX_PROCESSOR_NAME = 256;
inline constexpr int MAX_INFO_KEY = 255;
inline constexpr int MAX_INFO_VAL = 1024;
inline constexpr int VERSION = 3, SUBVERSION = 1;
// The bytes a buffered send needs in the attached buffer besides its message.
inline constexpr int BSEND_OVERHEAD = 96;
// MPI_IN_PLACE (§5.2.2): the send (or, for Scatter(v), the receive) buffer
// argument of a collective whose data is already in place, where the text
// allows it: on intracommunicators only, at the root of the rooted forms,
// never for the neighbourhood collectives; anywhere else ERR_ARG.
inline void* const IN_PLACE = reinterpret_cast<void*>(~std::uintptr_t(0));

// Comm::Compare and Group::Compare results.
inline constexpr int IDENT = 0, CONGRUENT = 1, SIMILAR = 2, UNEQUAL = 3;
// Comm::Get_topology results (UNDEFINED when there is none).
inline constexpr int GRAPH = 1, CART = 2, DIST_GRAPH = 3;
// Intracomm::Split_type's split types (§6.4.2; HW_GUIDED, HW_UNGUIDED from
// MPI-4.0), and the info key of HW_DOMAIN's level.
inline constexpr int COMM_TYPE_SHARED = 1, COMM_TYPE_HW_GUIDED = 2, COMM_TYPE_HW_UNGUIDED = 3,
                     COMM_TYPE_HW_DOMAIN = 4;
inline constexpr const char* HW_DOMAIN_TYPE = "mpi_hw_domain_type";

// MPI error classes (Exception::Get_error_class).
inline constexpr int SUCCESS = 0, ERR_BUFFER = 1, ERR_COUNT = 2, ERR_TYPE = 3, ERR_TAG = 4,
                     ERR_COMM = 5, ERR_RANK = 6, ERR_REQUEST = 7, ERR_ROOT = 8, ERR_GROUP = 9,
                     ERR_OP = 10, ERR_TOPOLOGY = 11, ERR_DIMS = 12, ERR_ARG = 13,
                     ERR_UNKNOWN = 14, ERR_TRUNCATE = 15, ERR_OTHER = 16, ERR_INTERN = 17,
                     ERR_IN_STATUS = 18, ERR_PENDING = 19, ERR_KEYVAL = 20, ERR_INFO = 21,
                     ERR_INFO_KEY = 22, ERR_INFO_VALUE = 23, ERR_NO_MEM = 24,
                     ERR_PROC_FAILED = 25, ERR_INTERRUPTED = 26, ERR_WIN = 27,
                     ERR_BASE = 28, ERR_SIZE = 29, ERR_DISP = 30, ERR_LOCKTYPE = 31,
                     ERR_ASSERT = 32, ERR_RMA_CONFLICT = 33, ERR_RMA_SYNC = 34,
                     ERR_RMA_RANGE = 35, ERR_RMA_FLAVOR = 36, ERR_ACCESS = 37,
                     ERR_AMODE = 38, ERR_BAD_FILE = 39, ERR_CONVERSION = 40,
                     ERR_DUP_DATAREP = 41, ERR_FILE = 42, ERR_FILE_EXISTS = 43,
                     ERR_FILE_IN_USE = 44, ERR_INFO_NOKEY = 45, ERR_IO = 46, ERR_NAME = 47,
                     ERR_NOT_SAME = 48, ERR_NO_SPACE = 49, ERR_NO_SUCH_FILE = 50,
                     ERR_PORT = 51, ERR_QUOTA = 52, ERR_READ_ONLY = 53,
                     ERR_RMA_ATTACH = 54, ERR_RMA_SHARED = 55, ERR_SERVICE = 56,
                     ERR_SPAWN = 57, ERR_UNSUPPORTED_DATAREP = 58,
                     ERR_UNSUPPORTED_OPERATION = 59, ERR_LASTCODE = 60;

// ---- Exception ---------------------------------------------------------------------

// The one error type. what() is "MPI_ERR_RANK in MPI_Send: ...". The code is
// the class unless the error carries a code added by Add_error_code (or a
// callback returned one); Get_error_class is then the class of that code.
class Exception : public std::exception {
 public:
  // error_code: a predefined class or an added class or code.
  Exception(int error_code, std::string function, std::string message);
  int Get_error_code() const { return code_; }
  int Get_error_class() const { return class_; }
  // The code's string, as MPI_Error_string gives it (an added code: the
  // string given to Add_error_string).
  std::string Get_error_string() const;
  // "MPI_ERR_RANK" ("LUMPI_ERR_USER_<n>" for an added class)
  const char* Get_class_name() const;
  const std::string& Get_function() const { return function_; }
  const std::string& Get_message() const { return message_; }
  const char* what() const noexcept override { return what_.c_str(); }

 private:
  int code_, class_;
  std::string function_, message_, what_;
};

// Error classes, codes and strings a program adds (MPI-3.1 §8.5), local.
int Add_error_class();
int Add_error_code(int errorclass);  // ERR_ARG unless errorclass is a class
void Add_error_string(int errorcode, const std::string& string);  // added codes only
int Get_error_class(int errorcode);  // ERR_ARG for an unknown code
std::string Get_error_string(int errorcode);
// The largest error code in use (the MPI_LASTUSEDCODE attribute of COMM_WORLD).
int Get_last_used_code();
// MPI_Get_version: 3, 1.
void Get_version(int& version, int& subversion);
std::string Get_processor_name();
// MPI_Finalized: Finalize has run in this process.
bool Is_finalized();

// ---- Errhandler --------------------------------------------------------------------

// An error handler (MPI-3.1 §8.3). ERRORS_THROW_EXCEPTIONS is the default on
// every communicator of this API. ERRORS_ARE_FATAL ends the job as Abort
// does, with the error's class as exit status (a process outside a job:
// the error on stderr, exit status 1). ERRORS_RETURN cannot be set: a C++ call
// returns its result, not an error code, so there is nothing to return the
// error in (Set_errhandler raises ERR_ARG). A user-defined handler
// (Comm::Create_errhandler) is called with the communicator and the error
// code; when it returns, the call throws the Exception (again: nothing to
// return a code in). New communicators inherit their parent's handler.
// Windows take the same predefined handlers and their own user-defined ones
// (Win::Create_errhandler, called with the window and the code); a handler
// made for one kind of object set on the other raises ERR_ARG (§8.3).
class Comm;
class Win;
using Comm_errhandler_function = std::function<void(Comm& comm, int error_code)>;
using Win_errhandler_function = std::function<void(Win& win, int error_code)>;
class Errhandler {
 public:
  Errhandler() = default;  // ERRHANDLER_NULL
  bool Is_null() const { return id_ == 0 && !user_; }
  // MPI_Errhandler_free: this handle becomes ERRHANDLER_NULL; communicators
  // using the handler keep it. ERR_ARG for a predefined or null handler.
  void Free();
  bool operator==(const Errhandler&) const = default;

 private:
  friend struct detail::Access;
  explicit Errhandler(int id) : id_(id) {}
  int id_ = 0;
  std::shared_ptr<detail::UserHandler> user_;
};
extern const Errhandler ERRHANDLER_NULL;
extern const Errhandler ERRORS_THROW_EXCEPTIONS;
extern const Errhandler ERRORS_ARE_FATAL;
extern const Errhandler ERRORS_RETURN;

// ---- Datatype ----------------------------------------------------------------------

// A datatype (MPI-3.1 chapter 4; §16 and Annex A.4's MPI::Datatype): a
// handle; copies refer to the same type object. The predefined types below
// are the C API's basic and pair types (core/datatype/datatype.hpp: one
// core object each); the Create_* methods build derived types, which must
// be committed before they carry data (ERR_TYPE naming the argument
// otherwise, as for a freed type). Every communication call of this API
// takes any committed type: the data moves as the type's packed form
// (core::Datatype::pack, the one pack engine of every door), so holes in
// the layout are skipped on both sides. Errors are those of the C API,
// named with this API's spelling, raised before anything is sent.
using Aint = std::int64_t;
using Offset = std::int64_t;
using Count = std::int64_t;
class Keyval;
class Datatype;
// Datatype attribute callbacks (§6.7.4, A.4 Datatype::Copy_attr_function):
// as the communicator ones (copy runs on Dup, delete on Free, Delete_attr
// and a replacing Set_attr).
using Type_copy_attr_function = std::function<int(const Datatype& oldtype, int type_keyval, void* extra_state,
                                                  void* attribute_val_in, void*& attribute_val_out, bool& flag)>;
using Type_delete_attr_function =
    std::function<int(Datatype& type, int type_keyval, void* attribute_val, void* extra_state)>;

// Get_envelope's combiners (COMBINER_NAMED for a predefined type).
inline constexpr int COMBINER_NAMED = 1, COMBINER_DUP = 2, COMBINER_CONTIGUOUS = 3, COMBINER_VECTOR = 4,
                     COMBINER_HVECTOR = 5, COMBINER_INDEXED = 6, COMBINER_HINDEXED = 7,
                     COMBINER_INDEXED_BLOCK = 8, COMBINER_HINDEXED_BLOCK = 9, COMBINER_STRUCT = 10,
                     COMBINER_SUBARRAY = 11, COMBINER_RESIZED = 12, COMBINER_DARRAY = 13;
inline constexpr int ORDER_C = 0, ORDER_FORTRAN = 1;
inline constexpr int DISTRIBUTE_NONE = 0, DISTRIBUTE_BLOCK = 1, DISTRIBUTE_CYCLIC = 2,
                     DISTRIBUTE_DFLT_DARG = -1;
inline constexpr int TYPECLASS_INTEGER = 1, TYPECLASS_REAL = 2, TYPECLASS_COMPLEX = 3;

class Datatype {
 public:
  Datatype() = default;  // DATATYPE_NULL
  // ---- constructors (§4.1.2-§4.1.7), on this type as oldtype ----
  Datatype Create_contiguous(int count) const;
  Datatype Create_vector(int count, int blocklength, int stride) const;
  Datatype Create_hvector(int count, int blocklength, Aint stride) const;
  Datatype Create_indexed(int count, const int blocklengths[], const int displacements[]) const;
  Datatype Create_hindexed(int count, const int blocklengths[], const Aint displacements[]) const;
  Datatype Create_indexed_block(int count, int blocklength, const int displacements[]) const;
  Datatype Create_hindexed_block(int count, int blocklength, const Aint displacements[]) const;
  static Datatype Create_struct(int count, const int blocklengths[], const Aint displacements[],
                                const Datatype types[]);
  Datatype Create_subarray(int ndims, const int sizes[], const int subsizes[], const int starts[],
                           int order) const;
  Datatype Create_darray(int size, int rank, int ndims, const int gsizes[], const int distribs[],
                         const int dargs[], const int psizes[], int order) const;
  Datatype Create_resized(Aint lb, Aint extent) const;
  // A new type with the same map; the copy callbacks of its attributes run.
  Datatype Dup() const;
  void Commit();
  // Delete callbacks first (a failing one stops the free), then the handle
  // becomes DATATYPE_NULL; other copies of it refer to a freed type.
  // ERR_TYPE for a predefined type.
  void Free();

  // ---- queries ----
  int Get_size() const;
  void Get_extent(Aint& lb, Aint& extent) const;
  void Get_true_extent(Aint& true_lb, Aint& true_extent) const;
  void Get_envelope(int& num_integers, int& num_addresses, int& num_datatypes, int& combiner) const;
  // ERR_TYPE for a predefined type; ERR_ARG when an array is too small.
  // Derived types in datatypes are new handles (Free them), predefined
  // ones the constants themselves.
  void Get_contents(int max_integers, int max_addresses, int max_datatypes, int integers[],
                    Aint addresses[], Datatype datatypes[]) const;
  // MPI_Type_match_size: TYPECLASS_INTEGER/REAL/COMPLEX and a size in bytes.
  static Datatype Match_size(int typeclass, int size);
  void Set_name(const std::string& name);
  std::string Get_name() const;  // "MPI_INT" for the predefined ones

  // ---- packing (§4.2, §4.3) ----
  // The packed form is what a message of the type carries; position moves
  // past what was written or read.
  void Pack(const void* inbuf, int incount, void* outbuf, int outsize, int& position,
            const Comm& comm) const;
  void Unpack(const void* inbuf, int insize, void* outbuf, int outcount, int& position,
              const Comm& comm) const;
  int Pack_size(int incount, const Comm& comm) const;
  // datarep must be "external32".
  void Pack_external(const char* datarep, const void* inbuf, int incount, void* outbuf, Aint outsize,
                     Aint& position) const;
  void Unpack_external(const char* datarep, const void* inbuf, Aint insize, Aint& position,
                       void* outbuf, int outcount) const;
  Aint Pack_external_size(const char* datarep, int incount) const;

  // ---- caching (§6.7.4): datatype keyvals are their own kind ----
  static Keyval Create_keyval(Type_copy_attr_function copy, Type_delete_attr_function del,
                              void* extra_state);
  static void Free_keyval(Keyval& keyval);
  void Set_attr(const Keyval& keyval, void* value);
  bool Get_attr(const Keyval& keyval, void*& value) const;
  void Delete_attr(const Keyval& keyval);
  static int NULL_COPY_FN(const Datatype&, int, void*, void*, void*&, bool& flag);
  static int DUP_FN(const Datatype&, int, void*, void* in, void*& out, bool& flag);
  static int NULL_DELETE_FN(Datatype&, int, void*, void*);

  bool Is_null() const { return id_ == 0; }
  bool operator==(const Datatype&) const = default;
  // The implementation's number for this type (stable within a build).
  int Id() const { return id_; }

 private:
  friend struct detail::Access;
  explicit constexpr Datatype(int id) : id_(id) {}
  int id_ = 0;
};
extern const Datatype DATATYPE_NULL;
// The predefined types (§16.1.6's names; MPI_ in the C API), of the C/C++
// types they name.
extern const Datatype CHAR, SIGNED_CHAR, UNSIGNED_CHAR, BYTE, SHORT, UNSIGNED_SHORT, INT, UNSIGNED, LONG,
    UNSIGNED_LONG, LONG_LONG, UNSIGNED_LONG_LONG, FLOAT, DOUBLE, LONG_DOUBLE, WCHAR, PACKED;
// bool, std::complex<float>, <double>, <long double> (MPI_CXX_BOOL, MPI_CXX_*_COMPLEX).
extern const Datatype BOOL, COMPLEX, DOUBLE_COMPLEX, LONG_DOUBLE_COMPLEX;
extern const Datatype INT8_T, INT16_T, INT32_T, INT64_T, UINT8_T, UINT16_T, UINT32_T, UINT64_T;
extern const Datatype AINT, OFFSET, COUNT;
// The pair types of MAXLOC/MINLOC: struct {value; int index;}.
extern const Datatype FLOAT_INT, DOUBLE_INT, LONG_INT, TWOINT, SHORT_INT, LONG_DOUBLE_INT;
extern const Datatype TWOREAL, TWODOUBLE_PRECISION, TWOINTEGER;  // Fortran's pairs
// MPI_Get_address: the address of location as an Aint (for Create_struct's
// displacements and dynamic windows).
inline Aint Get_address(const void* location) { return Aint(reinterpret_cast<std::intptr_t>(location)); }

// ---- Op ----------------------------------------------------------------------------

// A reduction operation. The predefined ones, with MPI's type rules (§5.9.2,
// core/datatype/op.hpp's table): MAX/MIN/SUM/PROD on integers and floating
// point, LAND/LOR/LXOR on integers and BOOL, BAND/BOR/BXOR on integers and
// BYTE, MAXLOC/MINLOC on the pair types (the lower index on ties). A derived
// type takes an op when it is made of one basic type that does.
// User-defined ops (§5.9.5): Init(function, commute); the function is
// called as MPI says, inoutvec[i] = invec[i] op inoutvec[i] for i < len,
// invec from the lower ranks, on elements laid out as datatype says. The
// C++ binding's `void (*)(const void*, void*, int, const Datatype&)` is a
// std::function here, so a lambda with captures serves.
using User_function = std::function<void(const void* invec, void* inoutvec, int len, const Datatype& datatype)>;
class Op {
 public:
  Op() = default;  // OP_NULL
  // MPI_Op_create: this handle becomes the new op (ERR_ARG for an empty function).
  void Init(User_function function, bool commute);
  // MPI_Op_free: this handle becomes OP_NULL. ERR_OP for a predefined op.
  void Free();
  bool Is_commutative() const;
  bool Is_null() const { return id_ == 0; }
  std::string Get_name() const;  // "MPI_SUM"
  // inoutbuf[i] = inbuf[i] op inoutbuf[i] for i < count. Local.
  void Reduce_local(const void* inbuf, void* inoutbuf, int count, const Datatype& type) const;
  bool operator==(const Op&) const = default;
  int Id() const { return id_; }

 private:
  friend struct detail::Access;
  explicit constexpr Op(int id) : id_(id) {}
  int id_ = 0;
};
extern const Op OP_NULL;
extern const Op SUM, PROD, MAX, MIN, LAND, LOR, LXOR, BAND, BOR, BXOR, MAXLOC, MINLOC;

// ---- Info --------------------------------------------------------------------------

// A set of (key, value) string pairs (§9). A handle: copies share the
// object; Dup makes a new one. Keys are at most 255 characters, values at
// most 1023 (ERR_INFO_KEY / ERR_INFO_VALUE). Get_nthkey numbers the keys
// in the order they were first set (§9 leaves the order open; MPICH and
// Open MPI number them so, and their tests expect it).
class Info {
 public:
  Info() = default;  // INFO_NULL
  static Info Create();
  void Set(const std::string& key, const std::string& value);
  // True and the value if key is set.
  bool Get(const std::string& key, std::string& value) const;
  void Delete(const std::string& key);  // raises ERR_INFO_KEY if key is not set
  int Get_nkeys() const;
  std::string Get_nthkey(int n) const;
  Info Dup() const;
  void Free();  // makes this handle INFO_NULL
  bool Is_null() const { return !store_; }
  // The pairs, for passing to the core.
  const std::map<std::string, std::string>& Pairs() const;

 private:
  struct Store;
  std::shared_ptr<Store> store_;
};
extern const Info INFO_NULL;

// ---- Group -------------------------------------------------------------------------

// An ordered set of processes (§6.3), local. A value type: copying copies the
// member list. The calling process's rank is its position in it.
class Group {
 public:
  Group() = default;  // GROUP_NULL
  int Get_size() const;
  int Get_rank() const;  // UNDEFINED if the caller is not a member
  static void Translate_ranks(const Group& group1, int n, const int ranks1[],
                              const Group& group2, int ranks2[]);
  static int Compare(const Group& group1, const Group& group2);  // IDENT, SIMILAR, UNEQUAL
  static Group Union(const Group& group1, const Group& group2);
  static Group Intersect(const Group& group1, const Group& group2);
  static Group Difference(const Group& group1, const Group& group2);
  Group Incl(int n, const int ranks[]) const;
  Group Excl(int n, const int ranks[]) const;
  Group Range_incl(int n, const int ranges[][3]) const;
  Group Range_excl(int n, const int ranges[][3]) const;
  void Free();  // makes this handle GROUP_NULL
  bool Is_null() const { return null_; }
  bool operator==(const Group& g) const { return null_ == g.null_ && members_ == g.members_; }

  // The members as COMM_WORLD ranks.
  const std::vector<int>& World_ranks() const { return members_; }

 private:
  friend struct detail::Access;
  Group(std::vector<int> world_ranks, int my_world_rank)
      : members_(std::move(world_ranks)), self_(my_world_rank), null_(false) {}
  std::vector<int> members_;
  int self_ = UNDEFINED;  // the caller's COMM_WORLD rank
  bool null_ = true;
};
extern const Group GROUP_NULL;
extern const Group GROUP_EMPTY;

// ---- Status ------------------------------------------------------------------------

class Status {
 public:
  int Get_source() const { return source_; }
  int Get_tag() const { return tag_; }
  int Get_error() const { return error_; }
  // Number of whole elements of `type` received, UNDEFINED if the byte count
  // is not a multiple of its size.
  int Get_count(const Datatype& type) const;
  // Basic elements of `type` received (MPI_Get_elements), UNDEFINED as above.
  int Get_elements(const Datatype& type) const;
  bool Is_cancelled() const { return cancelled_; }
  void Set_source(int s) { source_ = s; }
  void Set_tag(int t) { tag_ = t; }
  void Set_error(int e) { error_ = e; }
  // Bytes received (for the implementation; MPI has Get_elements(BYTE)).
  std::size_t Bytes() const { return bytes_; }
  void Set_bytes(std::size_t b) { bytes_ = b; }
  void Set_cancelled(bool c) { cancelled_ = c; }
  // MPI_Status_set_elements: the status says count basic elements of type
  // were received (Get_elements(type) gives count back, Get_count(type) too
  // when they are whole elements). ERR_COUNT if negative, ERR_TYPE unless
  // type is committed.
  void Set_elements(const Datatype& type, int count);

 private:
  int source_ = ANY_SOURCE, tag_ = ANY_TAG, error_ = SUCCESS;
  std::size_t bytes_ = 0;
  bool cancelled_ = false;
};

// ---- Request -----------------------------------------------------------------------

// A nonblocking operation (§3.7). A handle: copies refer to the same
// operation. Completing it through a handle (Wait, or Test returning true,
// or either raising the error the operation ended in) makes that handle
// REQUEST_NULL; another copy completes at once with the same status (or
// error). Waiting on REQUEST_NULL, or on an inactive persistent request,
// returns an empty status at once.
class Request {
 public:
  Request() = default;  // REQUEST_NULL
  void Wait(Status& status);
  void Wait();
  bool Test(Status& status);
  bool Test();
  // MPI_Request_get_status: true when complete (its status in status), but
  // the request stays as it is: a later Wait or Test completes it.
  bool Get_status(Status& status) const;
  void Cancel() const;
  void Free();
  bool Is_null() const { return !h_; }
  bool operator==(const Request& r) const { return h_ == r.h_; }

  static void Waitall(int count, Request requests[], Status statuses[]);
  static void Waitall(int count, Request requests[]);
  // Index of the request that completed, UNDEFINED if all were null.
  static int Waitany(int count, Request requests[], Status& status);
  static int Waitany(int count, Request requests[]);
  static bool Testall(int count, Request requests[], Status statuses[]);
  static bool Testall(int count, Request requests[]);
  // True when one request completed (its index in index) or none is
  // active (index UNDEFINED); false, index UNDEFINED, when none is done yet.
  static bool Testany(int count, Request requests[], int& index, Status& status);
  static bool Testany(int count, Request requests[], int& index);
  // Waits until at least one active request completes and completes every
  // one that is done: their number (UNDEFINED if none was active), their
  // indices and statuses (in the first outcount entries).
  static int Waitsome(int incount, Request requests[], int indices[], Status statuses[]);
  static int Waitsome(int incount, Request requests[], int indices[]);
  // As Waitsome without waiting: 0 when none is done yet.
  static int Testsome(int incount, Request requests[], int indices[], Status statuses[]);
  static int Testsome(int incount, Request requests[], int indices[]);

 protected:
  friend struct detail::Access;
  explicit Request(std::shared_ptr<detail::RequestHandle> h) : h_(std::move(h)) {}
  std::shared_ptr<detail::RequestHandle> h_;
};
extern const Request REQUEST_NULL;

// A matched message (MPI-3.1 §3.8.2; MPI-3 has no C++ binding, so the
// shape follows §16: MPI_Mrecv is Message::Recv), made by Comm::Mprobe or
// Comm::Improbe. The probe took it out of the communicator's queue, so no
// other receive or probe can match it; Recv or Irecv receives it once and
// makes the handle MESSAGE_NULL (a copy of the handle then raises
// ERR_REQUEST). MESSAGE_NO_PROC is the message of a probe from PROC_NULL:
// its receive completes at once with source PROC_NULL and no data. Errors
// go under the handler of the communicator the message was probed on.
class Message {
 public:
  Message() = default;  // MESSAGE_NULL
  bool Is_null() const { return !h_ && !no_proc_; }
  void Recv(void* buf, int count, const Datatype& type, Status& status);
  void Recv(void* buf, int count, const Datatype& type);
  // The message is received at the call (it is here already); the request
  // is complete.
  Request Irecv(void* buf, int count, const Datatype& type);
  bool operator==(const Message& m) const { return h_ == m.h_ && no_proc_ == m.no_proc_; }

 private:
  friend struct detail::Access;
  std::shared_ptr<detail::MessageHandle> h_;
  bool no_proc_ = false;
};
extern const Message MESSAGE_NULL;
extern const Message MESSAGE_NO_PROC;

// The buffer of buffered sends (§3.6), one per process: a buffered send
// needs room for its bytes plus BSEND_OVERHEAD (ERR_BUFFER otherwise, before
// anything is sent). Messages leave it at once (sends are eager), so
// Detach_buffer never waits; it gives back the size (0 and a null buffer
// when none was attached).
void Attach_buffer(void* buffer, int size);
int Detach_buffer(void*& buffer);

// A persistent request (§3.9), made by Send_init, Bsend_init, Ssend_init,
// Rsend_init or Recv_init.
// It starts inactive; Start begins one operation with the arguments given
// at creation (a send takes the buffer's contents at Start), and completing
// it (Wait, Test) makes it inactive again rather than null. Free releases it.
class Prequest : public Request {
 public:
  Prequest() = default;
  void Start();
  // Started and not yet completed (§3.9); false for REQUEST_NULL.
  bool Is_active() const;
  static void Startall(int count, Prequest requests[]);

 private:
  friend struct detail::Access;
  explicit Prequest(std::shared_ptr<detail::RequestHandle> h) : Request(std::move(h)) {}
};

// ---- communicators -----------------------------------------------------------------

// COMM_NULL: comparable with, and assignable to, every communicator class
// (Example 16.5). A default-constructed communicator is COMM_NULL too.
struct Comm_null {
  constexpr bool operator==(const Comm_null&) const { return true; }
};
inline constexpr Comm_null COMM_NULL{};

class Comm;
class Keyval;

// Attribute callbacks (§6.7.2, A.4 Comm::Copy_attr_function and
// Comm::Delete_attr_function) as C++ callables. They return SUCCESS or an
// MPI error class; a non-zero return (or a thrown lumpi::Exception) makes
// the call that ran them raise an Exception of that class.
//   copy:   run by Dup for each attribute of oldcomm; set flag to keep the
//           attribute on the new communicator with value attribute_val_out.
//   delete: run by Free, Delete_attr, and Set_attr replacing a value.
using Copy_attr_function = std::function<int(const Comm& oldcomm, int comm_keyval,
                                             void* extra_state, void* attribute_val_in,
                                             void*& attribute_val_out, bool& flag)>;
using Delete_attr_function =
    std::function<int(Comm& comm, int comm_keyval, void* attribute_val, void* extra_state)>;

// A communicator attribute key (§6.7.2). Comm::Create_keyval makes one;
// Free releases it (attributes already set with it stay until deleted).
class Keyval {
 public:
  Keyval() = default;  // KEYVAL_INVALID
  int Id() const { return id_; }
  bool Is_null() const { return id_ == 0; }
  void Free();  // MPI_Comm_free_keyval; makes this handle KEYVAL_INVALID
  bool operator==(const Keyval&) const = default;

 private:
  friend struct detail::Access;
  explicit Keyval(int id) : id_(id) {}
  int id_ = 0;
};
extern const Keyval KEYVAL_INVALID;
// Predefined attribute: TAG_UB (the value is a pointer to an int holding the
// largest tag). Readable on every communicator, cannot be set or deleted.
extern const Keyval TAG_UB;

// What all communicators share (§16.1.7): abstract, so there is no object of
// class Comm, only references and pointers to one.
class Comm {
 public:
  virtual ~Comm();

  // ---- local queries ----
  int Get_size() const;
  int Get_rank() const;
  Group Get_group() const;
  bool Is_inter() const;
  // CART, GRAPH, DIST_GRAPH or UNDEFINED (MPI_Topo_test).
  int Get_topology() const;
  // IDENT (the same communicator), CONGRUENT, SIMILAR or UNEQUAL.
  static int Compare(const Comm& comm1, const Comm& comm2);
  void Set_name(const std::string& name);
  std::string Get_name() const;
  // Hints (§6.4.4): the keys this implementation knows; others are ignored.
  void Set_info(const Info& info);
  Info Get_info() const;
  void Set_errhandler(const Errhandler& handler);
  Errhandler Get_errhandler() const;
  // MPI_Comm_create_errhandler: a handler for communicators.
  static Errhandler Create_errhandler(Comm_errhandler_function function);
  // MPI_Comm_call_errhandler: delivers an error of errorcode on this
  // communicator as a failing call would (a user handler runs, then the
  // Exception is thrown; ERR_ARG for an unknown code).
  void Call_errhandler(int errorcode) const;

  // ---- attributes (§6.7) ----
  static Keyval Create_keyval(Copy_attr_function copy, Delete_attr_function del,
                              void* extra_state);
  static void Free_keyval(Keyval& keyval);
  // Predefined callbacks: do not copy, copy the pointer, do nothing.
  static int NULL_COPY_FN(const Comm&, int, void*, void*, void*&, bool& flag);
  static int DUP_FN(const Comm&, int, void*, void* in, void*& out, bool& flag);
  static int NULL_DELETE_FN(Comm&, int, void*, void*);
  void Set_attr(const Keyval& keyval, void* value);
  // True and the value if the attribute is set.
  bool Get_attr(const Keyval& keyval, void*& value) const;
  void Delete_attr(const Keyval& keyval);

  // MPI_Comm_free: runs the attribute delete callbacks, then frees; this
  // handle becomes COMM_NULL (other copies of it become unusable).
  void Free();

  // A new communicator of the same dynamic class as this one, as by Dup().
  // §16 declares `virtual Comm& Clone() const` returning a reference to a
  // new object the caller must `delete &c`; a std::unique_ptr says the same
  // (a new object the caller owns) and frees it by itself. Covariance is the
  // price: every class returns unique_ptr<Comm>; use Dup() for the static
  // class, or dynamic_cast the result.
  virtual std::unique_ptr<Comm> Clone() const = 0;

  // ---- point-to-point (§3) on `count` elements of any committed `type` ----
  void Send(const void* buf, int count, const Datatype& type, int dest, int tag) const;
  void Ssend(const void* buf, int count, const Datatype& type, int dest, int tag) const;
  // Buffered (Attach_buffer) and ready sends (§3.4); a ready send is a
  // standard send here (a correct ready-mode program behaves the same).
  void Bsend(const void* buf, int count, const Datatype& type, int dest, int tag) const;
  void Rsend(const void* buf, int count, const Datatype& type, int dest, int tag) const;
  void Recv(void* buf, int count, const Datatype& type, int source, int tag,
            Status& status) const;
  void Recv(void* buf, int count, const Datatype& type, int source, int tag) const;
  Request Isend(const void* buf, int count, const Datatype& type, int dest, int tag) const;
  Request Issend(const void* buf, int count, const Datatype& type, int dest, int tag) const;
  Request Ibsend(const void* buf, int count, const Datatype& type, int dest, int tag) const;
  Request Irsend(const void* buf, int count, const Datatype& type, int dest, int tag) const;
  Request Irecv(void* buf, int count, const Datatype& type, int source, int tag) const;
  Prequest Send_init(const void* buf, int count, const Datatype& type, int dest, int tag) const;
  Prequest Ssend_init(const void* buf, int count, const Datatype& type, int dest, int tag) const;
  // A buffered one needs room in the attached buffer at each Start.
  Prequest Bsend_init(const void* buf, int count, const Datatype& type, int dest, int tag) const;
  Prequest Rsend_init(const void* buf, int count, const Datatype& type, int dest, int tag) const;
  Prequest Recv_init(void* buf, int count, const Datatype& type, int source, int tag) const;
  void Sendrecv(const void* sendbuf, int sendcount, const Datatype& sendtype, int dest,
                int sendtag, void* recvbuf, int recvcount, const Datatype& recvtype,
                int source, int recvtag, Status& status) const;
  void Sendrecv(const void* sendbuf, int sendcount, const Datatype& sendtype, int dest,
                int sendtag, void* recvbuf, int recvcount, const Datatype& recvtype,
                int source, int recvtag) const;
  void Sendrecv_replace(void* buf, int count, const Datatype& type, int dest, int sendtag,
                        int source, int recvtag, Status& status) const;
  void Probe(int source, int tag, Status& status) const;
  void Probe(int source, int tag) const;
  bool Iprobe(int source, int tag, Status& status) const;
  bool Iprobe(int source, int tag) const;
  // Matched probes (§3.8.2): the message, taken out of the queue, for
  // Message::Recv; PROC_NULL gives MESSAGE_NO_PROC.
  Message Mprobe(int source, int tag, Status& status) const;
  Message Mprobe(int source, int tag) const;
  // True and the message when one matches now; false leaves message as it was.
  bool Improbe(int source, int tag, Message& message, Status& status) const;
  bool Improbe(int source, int tag, Message& message) const;

  // ---- collectives (§5), intra- and intercommunicators ----
  // On an intercommunicator, root is ROOT at the root, PROC_NULL at the
  // root's other members, and the root's rank in the remote group there.
  void Barrier() const;
  void Bcast(void* buf, int count, const Datatype& type, int root) const;
  void Gather(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
              int recvcount, const Datatype& recvtype, int root) const;
  void Scatter(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
               int recvcount, const Datatype& recvtype, int root) const;
  void Allgather(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                 int recvcount, const Datatype& recvtype) const;
  void Alltoall(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                int recvcount, const Datatype& recvtype) const;
  void Reduce(const void* sendbuf, void* recvbuf, int count, const Datatype& type, const Op& op,
              int root) const;
  void Allreduce(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                 const Op& op) const;
  void Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                      const Datatype& type, const Op& op) const;
  void Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                            const Datatype& type, const Op& op) const;
  // The v-forms (§5.5-§5.8): block i has counts[i] elements at displs[i]
  // elements (of the type's extent) from the buffer's start; on an
  // intercommunicator one block per remote rank. IN_PLACE (also in the
  // regular forms above): the root's sendbuf of Gather(v) (its block is
  // already in recvbuf), the root's recvbuf of Scatter(v), every sendbuf
  // of Allgather(v) and Alltoall(v) (Alltoall(v) then sends what recvbuf
  // holds, laid out by the receive side).
  void Gatherv(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
               const int recvcounts[], const int displs[], const Datatype& recvtype, int root) const;
  void Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], const Datatype& sendtype,
                void* recvbuf, int recvcount, const Datatype& recvtype, int root) const;
  void Allgatherv(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                  const int recvcounts[], const int displs[], const Datatype& recvtype) const;
  void Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], const Datatype& sendtype,
                 void* recvbuf, const int recvcounts[], const int rdispls[], const Datatype& recvtype) const;
  // Alltoallw: a type per block, displacements in bytes.
  void Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const Datatype sendtypes[],
                 void* recvbuf, const int recvcounts[], const int rdispls[], const Datatype recvtypes[]) const;
  // ---- nonblocking collectives (§5.12), intra- and intercommunicators ----
  // Arguments as in the blocking forms; the send data is copied at the call,
  // the receive buffer is filled when the request completes (Wait, Test).
  // Collectives on one communicator match in the order they are started, and
  // never match blocking ones. See core/coll/nbc.hpp for the algorithms.
  Request Ibarrier() const;
  Request Ibcast(void* buf, int count, const Datatype& type, int root) const;
  Request Igather(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                  int recvcount, const Datatype& recvtype, int root) const;
  Request Iscatter(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                   int recvcount, const Datatype& recvtype, int root) const;
  Request Iallgather(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                     int recvcount, const Datatype& recvtype) const;
  Request Ialltoall(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                    int recvcount, const Datatype& recvtype) const;
  Request Ireduce(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                  const Op& op, int root) const;
  Request Iallreduce(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                     const Op& op) const;
  Request Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], const Datatype& type,
                          const Op& op) const;
  Request Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, const Datatype& type,
                                const Op& op) const;
  Request Igatherv(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                   const int recvcounts[], const int displs[], const Datatype& recvtype, int root) const;
  Request Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], const Datatype& sendtype,
                    void* recvbuf, int recvcount, const Datatype& recvtype, int root) const;
  Request Iallgatherv(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                      const int recvcounts[], const int displs[], const Datatype& recvtype) const;
  Request Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], const Datatype& sendtype,
                     void* recvbuf, const int recvcounts[], const int rdispls[], const Datatype& recvtype) const;
  Request Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const Datatype sendtypes[],
                     void* recvbuf, const int recvcounts[], const int rdispls[], const Datatype recvtypes[]) const;

  // ---- COMM_NULL ----
  bool Is_null() const { return !h_; }
  // (C++20 also rewrites COMM_NULL == comm into this.)
  friend bool operator==(const Comm& c, Comm_null) { return c.Is_null(); }
  // True when both handles refer to the same communicator (or both are null).
  friend bool operator==(const Comm& a, const Comm& b) { return a.h_ == b.h_; }

 protected:
  Comm() = default;
  explicit Comm(std::shared_ptr<detail::CommHandle> h) : h_(std::move(h)) {}
  Comm(const Comm&) = default;
  Comm(Comm&&) = default;
  Comm& operator=(const Comm&) = default;
  Comm& operator=(Comm&&) = default;
  Comm& operator=(Comm_null) {
    h_.reset();
    return *this;
  }
  std::shared_ptr<detail::CommHandle> h_;

 private:
  friend struct detail::Access;
};

class Intercomm;
class Cartcomm;
class Graphcomm;
class Distgraphcomm;

class Intracomm : public Comm {
 public:
  Intracomm() = default;
  Intracomm(Comm_null) {}
  Intracomm& operator=(Comm_null) {
    h_.reset();
    return *this;
  }

  Intracomm Dup() const;
  std::unique_ptr<Comm> Clone() const override;
  // COMM_NULL for a process not in group.
  Intracomm Create(const Group& group) const;
  // COMM_NULL for color UNDEFINED.
  Intracomm Split(int color, int key) const;
  // COMM_NULL for split_type UNDEFINED, or when no hardware domain gives a
  // strict subset. HW_UNGUIDED names the level it split at in info (if not
  // INFO_NULL) under "mpi_hw_resource_type".
  Intracomm Split_type(int split_type, int key, const Info& info = INFO_NULL) const;
  Intercomm Create_intercomm(int local_leader, const Comm& peer_comm, int remote_leader,
                             int tag) const;
  // COMM_NULL for processes outside the grid (the first product(dims) ranks).
  Cartcomm Create_cart(int ndims, const int dims[], const bool periods[], bool reorder) const;
  Graphcomm Create_graph(int nnodes, const int index[], const int edges[], bool reorder) const;
  // sourceweights/destweights null: MPI_UNWEIGHTED.
  Distgraphcomm Dist_graph_create_adjacent(int indegree, const int sources[],
                                           const int sourceweights[], int outdegree,
                                           const int destinations[], const int destweights[],
                                           const Info& info, bool reorder) const;
  Distgraphcomm Dist_graph_create(int n, const int sources[], const int degrees[],
                                  const int destinations[], const int weights[],
                                  const Info& info, bool reorder) const;

  void Scan(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
            const Op& op) const;
  // recvbuf is left untouched on rank 0.
  void Exscan(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
              const Op& op) const;
  // Nonblocking Scan and Exscan (§5.12.7, §5.12.8).
  Request Iscan(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                const Op& op) const;
  Request Iexscan(const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                  const Op& op) const;

 protected:
  friend struct detail::Access;
  explicit Intracomm(std::shared_ptr<detail::CommHandle> h) : Comm(std::move(h)) {}
};

class Intercomm : public Comm {
 public:
  Intercomm() = default;
  Intercomm(Comm_null) {}
  Intercomm& operator=(Comm_null) {
    h_.reset();
    return *this;
  }

  Intercomm Dup() const;
  std::unique_ptr<Comm> Clone() const override;
  int Get_remote_size() const;
  Group Get_remote_group() const;
  // Each side passes a subgroup of its own group; COMM_NULL outside it.
  Intercomm Create(const Group& group) const;
  Intercomm Split(int color, int key) const;
  // The group passing high=false comes first.
  Intracomm Merge(bool high) const;

 private:
  friend struct detail::Access;
  explicit Intercomm(std::shared_ptr<detail::CommHandle> h) : Comm(std::move(h)) {}
};

// What the three topology classes share: the neighbourhood collectives
// (MPI-3.1 §7.6 and, nonblocking, §7.7). MPI-3 has no C++ binding, so the
// names follow §16's pattern (MPI_Ineighbor_allgather: Ineighbor_allgather).
// count elements of any committed type per neighbour; as for every
// collective here, sendtype and recvtype, sendcount and recvcount must
// agree (the same type signature). Block k of recvbuf is in-neighbour k's, in MPI order (Cartesian:
// -1, +1 per dimension; graph: Get_neighbors; distributed graph: sources);
// a PROC_NULL neighbour's block is left untouched. A graph must be
// symmetric (ERR_TOPOLOGY).
class Topocomm : public Intracomm {
 public:
  void Neighbor_allgather(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                          int recvcount, const Datatype& recvtype) const;
  // Block k of sendbuf goes to out-neighbour k.
  void Neighbor_alltoall(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                         int recvcount, const Datatype& recvtype) const;
  // Nonblocking, as the other nonblocking collectives: the send data is
  // copied at the call, recvbuf is filled when the request completes.
  Request Ineighbor_allgather(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                              int recvcount, const Datatype& recvtype) const;
  Request Ineighbor_alltoall(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                             int recvcount, const Datatype& recvtype) const;
  // The v- and w-forms: block k of recvbuf (in-neighbour k's) has
  // recvcounts[k] elements at displs[k] elements of the type's extent (w:
  // of recvtypes[k] at rdispls[k] bytes); block k of sendbuf goes to
  // out-neighbour k. Any committed datatype; no IN_PLACE (ERR_ARG).
  void Neighbor_allgatherv(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                           const int recvcounts[], const int displs[], const Datatype& recvtype) const;
  void Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                          const Datatype& sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                          const Datatype& recvtype) const;
  void Neighbor_alltoallw(const void* sendbuf, const int sendcounts[], const long sdispls[],
                          const Datatype sendtypes[], void* recvbuf, const int recvcounts[], const long rdispls[],
                          const Datatype recvtypes[]) const;
  Request Ineighbor_allgatherv(const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                               const int recvcounts[], const int displs[], const Datatype& recvtype) const;
  Request Ineighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                              const Datatype& sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                              const Datatype& recvtype) const;
  Request Ineighbor_alltoallw(const void* sendbuf, const int sendcounts[], const long sdispls[],
                              const Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                              const long rdispls[], const Datatype recvtypes[]) const;

 protected:
  Topocomm() = default;
  explicit Topocomm(std::shared_ptr<detail::CommHandle> h) : Intracomm(std::move(h)) {}
};

class Cartcomm : public Topocomm {
 public:
  Cartcomm() = default;
  Cartcomm(Comm_null) {}
  Cartcomm& operator=(Comm_null) {
    h_.reset();
    return *this;
  }

  Cartcomm Dup() const;
  std::unique_ptr<Comm> Clone() const override;
  int Get_dim() const;
  // The first maxdims entries of dims, periods and the caller's coords.
  void Get_topo(int maxdims, int dims[], bool periods[], int coords[]) const;
  int Get_cart_rank(const int coords[]) const;
  void Get_coords(int rank, int maxdims, int coords[]) const;
  void Shift(int direction, int disp, int& rank_source, int& rank_dest) const;
  Cartcomm Sub(const bool remain_dims[]) const;
  int Map(int ndims, const int dims[], const bool periods[]) const;

 private:
  friend struct detail::Access;
  explicit Cartcomm(std::shared_ptr<detail::CommHandle> h) : Topocomm(std::move(h)) {}
};

class Graphcomm : public Topocomm {
 public:
  Graphcomm() = default;
  Graphcomm(Comm_null) {}
  Graphcomm& operator=(Comm_null) {
    h_.reset();
    return *this;
  }

  Graphcomm Dup() const;
  std::unique_ptr<Comm> Clone() const override;
  void Get_dims(int nnodes[], int nedges[]) const;
  void Get_topo(int maxindex, int maxedges, int index[], int edges[]) const;
  int Get_neighbors_count(int rank) const;
  void Get_neighbors(int rank, int maxneighbors, int neighbors[]) const;
  int Map(int nnodes, const int index[], const int edges[]) const;

 private:
  friend struct detail::Access;
  explicit Graphcomm(std::shared_ptr<detail::CommHandle> h) : Topocomm(std::move(h)) {}
};

class Distgraphcomm : public Topocomm {
 public:
  Distgraphcomm() = default;
  Distgraphcomm(Comm_null) {}
  Distgraphcomm& operator=(Comm_null) {
    h_.reset();
    return *this;
  }

  Distgraphcomm Dup() const;
  std::unique_ptr<Comm> Clone() const override;
  // A.4 has a spurious `rank` argument here; MPI_Dist_graph_neighbors_count has none.
  void Get_dist_neighbors_count(int& indegree, int& outdegree, bool& weighted) const;
  // Weight arrays may be null (not wanted, or MPI_UNWEIGHTED).
  void Get_dist_neighbors(int maxindegree, int sources[], int sourceweights[],
                          int maxoutdegree, int destinations[], int destweights[]) const;

 private:
  friend struct detail::Access;
  explicit Distgraphcomm(std::shared_ptr<detail::CommHandle> h) : Topocomm(std::move(h)) {}
};

// MPI_Dims_create: fills the zero entries of dims[0..ndims) so that their
// product is nnodes, as balanced as possible.
void Compute_dims(int nnodes, int ndims, int dims[]);


// ---- Win: one-sided communication (MPI-3.1 chapter 11; core/rma/win.hpp) -------------

struct WinHandle;  // a window of the core (core/api/api_win.cpp)
class Win;
using Win_copy_attr_function = std::function<int(const Win& oldwin, int keyval, void* extra_state,
                                                 void* attribute_val_in, void*& attribute_val_out,
                                                 bool& flag)>;
using Win_delete_attr_function =
    std::function<int(Win& win, int keyval, void* attribute_val, void* extra_state)>;

inline constexpr int LOCK_EXCLUSIVE = 234, LOCK_SHARED = 235;
inline constexpr int MODE_NOCHECK = 1024, MODE_NOSTORE = 2048, MODE_NOPUT = 4096,
                     MODE_NOPRECEDE = 8192, MODE_NOSUCCEED = 16384;
inline constexpr int WIN_FLAVOR_CREATE = 1, WIN_FLAVOR_ALLOCATE = 2, WIN_FLAVOR_DYNAMIC = 3,
                     WIN_FLAVOR_SHARED = 4, WIN_SEPARATE = 1, WIN_UNIFIED = 2;
// The predefined window attributes (Get_attr gives a pointer to the value:
// void* for WIN_BASE, Aint for WIN_SIZE, int for the others).
extern const Keyval WIN_BASE, WIN_SIZE, WIN_DISP_UNIT, WIN_CREATE_FLAVOR, WIN_MODEL;
// MPI_REPLACE and MPI_NO_OP for the accumulate family (Ops no reduction takes).
extern const Op REPLACE, NO_OP;

// A window: a handle (copies share the window); WIN_NULL is the default.
// Errors are thrown as Exception, or end the job under ERRORS_ARE_FATAL.
// Any committed datatype, on either side; MAXLOC and MINLOC on the pair types.
// Synchronization, operations and their errors are core::Win's (core/rma/win.hpp).
class Win {
 public:
  Win() = default;  // WIN_NULL
  bool Is_null() const { return h_ == nullptr; }
  // Collective over comm: size bytes at base, displacements in disp_unit bytes.
  static Win Create(const void* base, long size, int disp_unit, const Info& info, const Intracomm& comm);
  // Collective: size new zeroed bytes owned by the window; *baseptr is set to them.
  static Win Allocate(long size, int disp_unit, const Info& info, const Intracomm& comm, void* baseptr);
  // Collective: size bytes of each rank in memory every rank of comm (all on
  // one host) maps; *baseptr is set to this rank's part; Shared_query gives
  // any rank's part (rank PROC_NULL: the first part that is not empty).
  static Win Allocate_shared(long size, int disp_unit, const Info& info, const Intracomm& comm, void* baseptr);
  void Shared_query(int rank, long& size, int& disp_unit, void* baseptr) const;
  // Collective: a window whose ranks Attach memory; target displacements
  // are addresses at the target (Get_address).
  static Win Create_dynamic(const Info& info, const Intracomm& comm);
  void Attach(void* base, long size) const;
  void Detach(const void* base) const;
  void Free();  // collective; the handle becomes WIN_NULL
  void Fence(int assert) const;
  void Lock(int lock_type, int rank, int assert) const;
  void Unlock(int rank) const;
  void Flush(int rank) const;
  void Lock_all(int assert) const;
  void Unlock_all() const;
  void Flush_all() const;
  void Flush_local(int rank) const;
  void Flush_local_all() const;
  void Sync() const;
  // General active target (§11.5.2): group is a subgroup of the window's.
  void Post(const Group& group, int assert) const;
  void Start(const Group& group, int assert) const;
  void Complete() const;
  void Wait() const;
  bool Test() const;
  void Put(const void* origin, int origin_count, const Datatype& origin_type, int target_rank,
           long target_disp, int target_count, const Datatype& target_type) const;
  void Get(void* origin, int origin_count, const Datatype& origin_type, int target_rank,
           long target_disp, int target_count, const Datatype& target_type) const;
  void Accumulate(const void* origin, int origin_count, const Datatype& origin_type, int target_rank,
                  long target_disp, int target_count, const Datatype& target_type, const Op& op) const;
  // With NO_OP the origin arguments are ignored.
  void Get_accumulate(const void* origin, int origin_count, const Datatype& origin_type, void* result,
                      int result_count, const Datatype& result_type, int target_rank, long target_disp,
                      int target_count, const Datatype& target_type, const Op& op) const;
  void Fetch_and_op(const void* origin, void* result, const Datatype& type, int target_rank, long target_disp,
                    const Op& op) const;
  void Compare_and_swap(const void* origin, const void* compare, void* result, const Datatype& type,
                        int target_rank, long target_disp) const;
  // Request-based forms (§11.3.5), inside a passive-target epoch only.
  Request Rput(const void* origin, int origin_count, const Datatype& origin_type, int target_rank,
               long target_disp, int target_count, const Datatype& target_type) const;
  Request Rget(void* origin, int origin_count, const Datatype& origin_type, int target_rank, long target_disp,
               int target_count, const Datatype& target_type) const;
  Request Raccumulate(const void* origin, int origin_count, const Datatype& origin_type, int target_rank,
                      long target_disp, int target_count, const Datatype& target_type, const Op& op) const;
  Request Rget_accumulate(const void* origin, int origin_count, const Datatype& origin_type, void* result,
                          int result_count, const Datatype& result_type, int target_rank, long target_disp,
                          int target_count, const Datatype& target_type, const Op& op) const;
  // The hints lumpi knows, with their values (§11.2.7); Set_info keeps those.
  void Set_info(const Info& info) const;
  Info Get_info() const;
  Group Get_group() const;
  void Set_name(const std::string& name);
  std::string Get_name() const;
  // ERRORS_THROW_EXCEPTIONS (the default), ERRORS_ARE_FATAL or one made by
  // Create_errhandler; ERRORS_RETURN raises ERR_ARG, as on a communicator.
  void Set_errhandler(const Errhandler& handler);
  Errhandler Get_errhandler() const;
  // MPI_Win_create_errhandler (§8.3.2): a handler for windows.
  static Errhandler Create_errhandler(Win_errhandler_function function);
  // MPI_Win_call_errhandler (§8.3.6): delivers an error of errorcode on this
  // window as a failing call would (the handler runs, then the Exception is
  // thrown). ERR_ARG for a code that is not an error code.
  void Call_errhandler(int errorcode) const;
  // Caching (§6.7.3): keyvals of their own kind (ERR_KEYVAL on communicators).
  static Keyval Create_keyval(Win_copy_attr_function copy, Win_delete_attr_function del, void* extra_state);
  static void Free_keyval(Keyval& keyval);
  void Set_attr(const Keyval& keyval, void* value);
  bool Get_attr(const Keyval& keyval, void*& value) const;
  void Delete_attr(const Keyval& keyval);
  static int NULL_COPY_FN(const Win&, int, void*, void*, void*&, bool& flag);
  static int DUP_FN(const Win&, int, void*, void* in, void*& out, bool& flag);
  static int NULL_DELETE_FN(Win&, int, void*, void*);
  bool operator==(const Win& o) const { return h_ == o.h_; }
  // The implementation's object (for the C API's handle table).
  const std::shared_ptr<WinHandle>& Handle() const { return h_; }
  static Win From_handle(std::shared_ptr<WinHandle> h) { Win w; w.h_ = std::move(h); return w; }

 private:
  std::shared_ptr<WinHandle> h_;
};
extern const Win WIN_NULL;

// ---- the process's world ---------------------------------------------------------

// Init joins this process to the job it was started in (`lumpi exec -n N
// prog`, through the rank host) and sets COMM_WORLD and COMM_SELF. It must be
// called once, before any other lumpi call on a communicator; argc/argv are
// left as given. Finalize frees COMM_SELF's attributes (running their delete
// callbacks), waits until every rank has reached it, sets COMM_WORLD and
// COMM_SELF back to COMM_NULL and leaves the job; no communication may
// follow. Both raise an Exception on failure (ERR_OTHER when the process was
// not started by lumpi). They are defined by the rank host
// (launcher/host/api_init.cpp): a program that calls them links lumpi_host; code
// written against `Intracomm&` (see scripts/cxx/) also runs in the unit
// harness on worlds built from engines in one process.
void Init(int& argc, char**& argv);
void Init();
void Finalize();
// MPI_Initialized: Init has run in this process (Finalize may have too).
bool Is_initialized();
// MPI_Abort: tells the job that this process aborts with `errorcode` (the
// coordinator stops the other ranks and reports `why`), then exits with
// errorcode (1 if it is 0). Outside a job it only exits.
[[noreturn]] void Abort(int errorcode, const std::string& why);

// COMM_NULL until Init, then the process's world and itself.
extern Intracomm COMM_WORLD;
extern Intracomm COMM_SELF;

}  // namespace lumpi
