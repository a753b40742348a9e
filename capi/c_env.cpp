// capi/c_env.cpp: the C API's environment and shared machinery: the
// handle tables, MPI_Init/Finalize/Abort through the C++ API (lumpi::Init, Finalize, Abort), clocks and names,
// and info objects. Errors and error handlers: capi/c_errh.cpp;
// datatypes: capi/c_type.cpp.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

#include "core/base/constants.hpp"
#include "core/base/error.hpp"
#include "capi/c_api.hpp"
#include "capi/c_check.hpp"

namespace lumpi::capi {

// A rank's stdout is a pipe to lumpi exec, which C buffers fully: lines
// printed before a crash or a hang would be lost. Started by lumpi (the
// environment says so), the program's stdout is line-buffered as on a
// terminal, from before main (this file is in every MPI program: MPI_Init).
__attribute__((constructor)) static void line_buffered_under_lumpi() {
  if (std::getenv("LUMPI_RANK") && !isatty(STDOUT_FILENO)) std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
}

// ---- tables --------------------------------------------------------------------

std::vector<CommEntry>& comms() {
  static std::vector<CommEntry> t(3);
  return t;
}

namespace {
std::map<const CommHandle*, MPI_Comm>& reverse() {
  static std::map<const CommHandle*, MPI_Comm> m;
  return m;
}
std::vector<Group>& groups() {
  static std::vector<Group> t{GROUP_NULL, GROUP_EMPTY};
  return t;
}
std::vector<Info>& infos() {
  static std::vector<Info> t(2);  // MPI_INFO_NULL, MPI_INFO_ENV
  return t;
}
std::vector<Request>& requests() {
  static std::vector<Request> t(1);
  return t;
}
std::vector<int>& free_requests() {
  static std::vector<int> f;
  return f;
}
bool g_finalized = false;
}  // namespace

CommEntry::CommEntry(std::shared_ptr<CommHandle> handle) : h(std::move(handle)) {
  if (!h) return;
  const core::Comm& c = *h->comm;
  using Kind = core::Topology::Kind;
  if (c.is_inter()) object = std::make_shared<Intercomm>(Access::wrap<Intercomm>(h));
  else if (!c.topology()) object = std::make_shared<Intracomm>(Access::wrap<Intracomm>(h));
  else if (c.topology()->kind == Kind::Cart) object = std::make_shared<Cartcomm>(Access::wrap<Cartcomm>(h));
  else if (c.topology()->kind == Kind::Graph) object = std::make_shared<Graphcomm>(Access::wrap<Graphcomm>(h));
  else object = std::make_shared<Distgraphcomm>(Access::wrap<Distgraphcomm>(h));
}

MPI_Comm add_comm(std::shared_ptr<CommHandle> h) {
  if (!h) return MPI_COMM_NULL;
  const CommHandle* key = h.get();
  MPI_Comm id = put_in_free_slot(comms(), 3, CommEntry{std::move(h)},
                                 [](const CommEntry& e) { return !e.h; });
  reverse()[key] = id;
  note_created(core::check::Kind::Comm, id);
  return id;
}

MPI_Comm handle_of(const Comm& c) {
  auto it = reverse().find(Access::handle(c).get());
  return it == reverse().end() ? MPI_COMM_NULL : it->second;
}

CommEntry& entry(MPI_Comm comm, const char* func) {
  auto& t = comms();
  if (comm == MPI_COMM_NULL) fail(MPI_ERR_COMM, func, "comm is MPI_COMM_NULL");
  if (comm < 0 || comm >= int(t.size()) || !t[comm].h)
    fail(MPI_ERR_COMM, func, "comm " + std::to_string(comm) + " is not a communicator");
  return t[comm];
}

void forget_comm(MPI_Comm comm) {
  note_freed(core::check::Kind::Comm, comm);
  auto& t = comms();
  reverse().erase(t[comm].h.get());
  t[comm].h.reset();
}

Intracomm intra(MPI_Comm comm, const char* func) {
  if (comm_of(comm, func).Is_inter()) fail(MPI_ERR_COMM, func, "comm is an intercommunicator");
  return as<Intracomm>(comm, func);
}

Intercomm inter(MPI_Comm comm, const char* func) {
  auto c = as<Intercomm>(comm, func);
  if (!c.Is_inter()) fail(MPI_ERR_COMM, func, "comm is not an intercommunicator");
  return c;
}

Group& group(MPI_Group g, const char* func) {
  auto& t = groups();
  if (g == MPI_GROUP_NULL) fail(MPI_ERR_GROUP, func, "group is MPI_GROUP_NULL");
  if (g < 0 || g >= int(t.size()) || t[g].Is_null())
    fail(MPI_ERR_GROUP, func, "group " + std::to_string(g) + " is not a group");
  return t[g];
}

// An empty result is MPI_GROUP_EMPTY itself, as MPI's examples compare it.
MPI_Group add_group(Group g) {
  if (g.Get_size() == 0) return MPI_GROUP_EMPTY;
  MPI_Group id = put_in_free_slot(groups(), 2, std::move(g), [](const Group& x) { return x.Is_null(); });
  note_created(core::check::Kind::Group, id);
  return id;
}

void free_group(MPI_Group g) {
  if (g <= MPI_GROUP_EMPTY) return;
  groups()[g] = GROUP_NULL;
  note_freed(core::check::Kind::Group, g);
}

Info& info(MPI_Info i, const char* func) {
  auto& t = infos();
  if (i == MPI_INFO_NULL) fail(MPI_ERR_INFO, func, "info is MPI_INFO_NULL");
  if (i == MPI_INFO_ENV && t[1].Is_null()) t[1] = Info::Create();
  if (i < 0 || i >= int(t.size()) || t[i].Is_null())
    fail(MPI_ERR_INFO, func, "info " + std::to_string(i) + " is not an info object");
  return t[i];
}

Info info_or_null(MPI_Info i, const char* func) {
  return i == MPI_INFO_NULL ? INFO_NULL : info(i, func);
}

MPI_Info add_info(Info i) {
  MPI_Info id = put_in_free_slot(infos(), 2, std::move(i), [](const Info& x) { return x.Is_null(); });
  note_created(core::check::Kind::Info, id);
  return id;
}

Request& request(MPI_Request r, const char* func) {
  auto& t = requests();
  if (r <= 0 || r >= int(t.size()) || t[r].Is_null())
    fail(MPI_ERR_REQUEST, func, "request " + std::to_string(r) + " is not a request");
  return t[r];
}

MPI_Comm comm_of_request(MPI_Request r) {
  auto& t = requests();
  if (r <= 0 || r >= int(t.size()) || t[r].Is_null()) return MPI_COMM_WORLD;
  const core::Comm* c = detail::comm_of(t[r]);
  auto& cs = comms();
  for (size_t i = 1; i < cs.size(); ++i)
    if (cs[i].h && cs[i].h->comm.get() == c) return MPI_Comm(i);
  return MPI_COMM_WORLD;
}

MPI_Request add_request(Request r) {
  auto& t = requests();
  auto& f = free_requests();
  int id = int(t.size());
  if (!f.empty()) {
    id = f.back();
    f.pop_back();
    t[id] = std::move(r);
  } else {
    t.push_back(std::move(r));
  }
  note_created(core::check::Kind::Request, id);
  buffers().watch(id);
  return id;
}

std::vector<MPI_Request> live_requests() {
  std::vector<MPI_Request> out;
  auto& t = requests();
  for (size_t i = 1; i < t.size(); ++i)
    if (!t[i].Is_null()) out.push_back(MPI_Request(i));
  return out;
}

// The persistent requests among them (MPI_Send_init ...), by handle.
std::map<int, Prequest>& prequests() {
  static std::map<int, Prequest> t;
  return t;
}

void drop_request(MPI_Request r) {
  buffers().completed(r);
  note_freed(core::check::Kind::Request, r);
  requests()[r] = Request();
  prequests().erase(r);
  grequest_dropped(r);
  free_requests().push_back(r);
}

MPI_Request add_persistent(Prequest r) {
  MPI_Request id = add_request(r);
  buffers().rest(id);
  prequests()[id] = std::move(r);
  return id;
}

bool is_persistent(MPI_Request r) { return prequests().count(r) != 0; }

Prequest& prequest(MPI_Request r, const char* func) {
  request(r, func);
  auto it = prequests().find(r);
  if (it == prequests().end())
    fail(MPI_ERR_REQUEST, func, "request " + std::to_string(r) + " is not a persistent request");
  return it->second;
}

bool ignored(MPI_Request r) {
  if (r == MPI_REQUEST_NULL) return true;
  auto it = prequests().find(r);
  return it != prequests().end() && !it->second.Is_active();
}

void completed(MPI_Request* r) {
  buffers().completed(*r);
  if (prequests().count(*r)) return;  // inactive again, still allocated (§3.9)
  drop_request(*r);
  *r = MPI_REQUEST_NULL;
}

// ---- errors -------------------------------------------------------------------------

void fail(int cls, const char* func, std::string message) { throw Exception(cls, func, std::move(message)); }

void check_initialized(const char* func) {
  if (!Is_initialized() || Is_finalized())
    fail(MPI_ERR_OTHER, func, "MPI_Init was not called, or MPI_Finalize already was");
}

void check_count(int count, const char* func, const char* what) {
  if (count < 0) fail(MPI_ERR_COUNT, func, std::string(what) + " is negative: " + std::to_string(count));
}

core::CommPtr core_comm(MPI_Comm comm, const char* func) {
  core::CommPtr p = entry(comm, func).h->comm;
  p->check_usable(func);
  return p;
}

core::Op predefined_op(MPI_Op op, const char* f) {
  if (op == MPI_OP_NULL) fail(MPI_ERR_OP, f, "op is MPI_OP_NULL");
  if (op < MPI_SUM || op > MPI_MINLOC) fail(MPI_ERR_OP, f, "op " + std::to_string(op) + " is not an op a reduction takes");
  if (op == MPI_MAXLOC) return core::Op::Maxloc;
  if (op == MPI_MINLOC) return core::Op::Minloc;
  return core::Op(op - MPI_SUM);  // MPI_SUM ... MPI_BXOR in the core's order
}

void to_c(const Status& s, MPI_Status* out) {
  if (!out) return;
  out->MPI_SOURCE = s.Get_source();
  out->MPI_TAG = s.Get_tag();
  out->lumpi_cancelled = s.Is_cancelled();
  out->lumpi_bytes = (long long)s.Bytes();
}

}  // namespace lumpi::capi

using namespace lumpi;
using namespace lumpi::capi;

namespace {
int g_thread_level = MPI_THREAD_SINGLE;
}  // namespace

extern "C" {

// ---- environment ---------------------------------------------------------------

LUMPI_PMPI(Init_thread);
int MPI_Init_thread(int*, char***, int required, int* provided) {
  try {
    Init();  // with passive progress and the crash report (launcher/host/api_init.cpp)
    auto& t = comms();
    for (MPI_Comm c : {MPI_COMM_WORLD, MPI_COMM_SELF}) {
      t[c] = CommEntry{Access::handle(c == MPI_COMM_WORLD ? COMM_WORLD : COMM_SELF)};
      t[c].h->comm->set_errhandler(core::Errhandler::Fatal);  // C's default (§8.3)
      reverse()[t[c].h.get()] = c;
    }
    // One thread calls MPI in a lumpi rank (the host's engine is not shared).
    g_thread_level = required < MPI_THREAD_FUNNELED ? required : MPI_THREAD_FUNNELED;
    if (provided) *provided = g_thread_level;
    start_checking();
    return MPI_SUCCESS;
  } catch (const Exception& e) {
    core::fatal(e.Get_error_code(), e.what());
  } catch (const core::Error& e) {
    core::fatal(e.code(), e.what());
  } catch (const std::exception& e) {  // not started by lumpi exec
    core::fatal(MPI_ERR_OTHER, std::string("MPI_ERR_OTHER in MPI_Init: ") + e.what());
  }
}

LUMPI_PMPI(Init);
int MPI_Init(int* argc, char*** argv) { return MPI_Init_thread(argc, argv, MPI_THREAD_SINGLE, nullptr); }

LUMPI_PMPI(Query_thread);
int MPI_Query_thread(int* provided) {
  return call("MPI_Query_thread", [&] { *provided = g_thread_level; });
}

LUMPI_PMPI(Is_thread_main);
int MPI_Is_thread_main(int* flag) {
  return call("MPI_Is_thread_main", [&] { *flag = 1; });
}

// COMM_SELF's attributes go first (their delete callbacks run), then every
// rank waits for the others, then the host reports a normal finish. Under
// --check, MPI_Finalize is compared as COMM_WORLD's last collective (it is
// collective over COMM_WORLD, §8.7): a collective some ranks made and the
// others never did meets it there; and what is still allocated is reported
// after COMM_SELF's callbacks ran, since a library frees its objects there
// (§8.7.1: "before any other parts of MPI are affected").
LUMPI_PMPI(Finalize);
int MPI_Finalize(void) {
  return call("MPI_Finalize", [&] {
    check_coll(MPI_COMM_WORLD, {"MPI_Finalize", -1, MPI_OP_NULL, {}, {}});
    detail::delete_all_attrs(COMM_SELF, "MPI_Finalize");  // Finalize finds none left
    check_finalize();
    Finalize();
    for (size_t i = 1; i < comms().size(); ++i) forget_comm(int(i));
    g_finalized = true;
  });
}

LUMPI_PMPI(Initialized);
int MPI_Initialized(int* flag) {
  *flag = Is_initialized() || g_finalized;
  return MPI_SUCCESS;
}

LUMPI_PMPI(Finalized);
int MPI_Finalized(int* flag) {
  *flag = Is_finalized() || g_finalized;
  return MPI_SUCCESS;
}

LUMPI_PMPI(Abort);
int MPI_Abort(MPI_Comm, int errorcode) {
  Abort(errorcode, "MPI_Abort called with code " + std::to_string(errorcode));
}

LUMPI_PMPI(Wtime);
double MPI_Wtime(void) {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

LUMPI_PMPI(Wtick);
double MPI_Wtick(void) { return 1e-9; }

LUMPI_PMPI(Get_processor_name);
int MPI_Get_processor_name(char* name, int* resultlen) {
  char host[MPI_MAX_PROCESSOR_NAME] = "";
  gethostname(host, sizeof host - 1);
  copy_out(host, name, resultlen, MPI_MAX_PROCESSOR_NAME);
  return MPI_SUCCESS;
}

// §14.2.4: "MPI libraries themselves make no use of this routine"; the
// level is for a profiling layer between the program and lumpi.
LUMPI_PMPI(Pcontrol);
int MPI_Pcontrol(const int, ...) { return MPI_SUCCESS; }

LUMPI_PMPI(Get_version);
int MPI_Get_version(int* version, int* subversion) {
  *version = MPI_VERSION;
  *subversion = MPI_SUBVERSION;
  return MPI_SUCCESS;
}

LUMPI_PMPI(Get_library_version);
int MPI_Get_library_version(char* version, int* resultlen) {
  copy_out("lumpi (MPI 3.1 C API over lumpi's core, ZeroMQ transport)", version, resultlen,
           MPI_MAX_LIBRARY_VERSION_STRING);
  return MPI_SUCCESS;
}

LUMPI_PMPI(Alloc_mem);
int MPI_Alloc_mem(MPI_Aint size, MPI_Info, void* baseptr) {
  return call("MPI_Alloc_mem", [&] {
    if (size < 0) fail(MPI_ERR_ARG, "MPI_Alloc_mem", "size is negative");
    void* p = std::malloc(size_t(size ? size : 1));
    if (!p) fail(MPI_ERR_NO_MEM, "MPI_Alloc_mem", "out of memory for " + std::to_string(size) + " bytes");
    *static_cast<void**>(baseptr) = p;
  });
}

LUMPI_PMPI(Free_mem);
int MPI_Free_mem(void* base) {
  std::free(base);
  return MPI_SUCCESS;
}

// ---- info ------------------------------------------------------------------------

LUMPI_PMPI(Info_create);
int MPI_Info_create(MPI_Info* i) {
  return call("MPI_Info_create", [&] { *i = add_info(Info::Create()); });
}

LUMPI_PMPI(Info_set);
int MPI_Info_set(MPI_Info i, const char* key, const char* value) {
  return call("MPI_Info_set", [&] { info(i, "MPI_Info_set").Set(key, value); });
}

LUMPI_PMPI(Info_get);
int MPI_Info_get(MPI_Info i, const char* key, int valuelen, char* value, int* flag) {
  return call("MPI_Info_get", [&] {
    std::string v;
    *flag = info(i, "MPI_Info_get").Get(key, v);
    if (valuelen < 0) fail(MPI_ERR_ARG, "MPI_Info_get", "valuelen is negative");
    if (*flag) copy_out(v, value, nullptr, valuelen + 1);
  });
}

LUMPI_PMPI(Info_get_valuelen);
int MPI_Info_get_valuelen(MPI_Info i, const char* key, int* valuelen, int* flag) {
  return call("MPI_Info_get_valuelen", [&] {
    std::string v;
    *flag = info(i, "MPI_Info_get_valuelen").Get(key, v);
    if (*flag) *valuelen = int(v.size());
  });
}

LUMPI_PMPI(Info_delete);
int MPI_Info_delete(MPI_Info i, const char* key) {
  return call("MPI_Info_delete", [&] { info(i, "MPI_Info_delete").Delete(key); });
}

LUMPI_PMPI(Info_get_nkeys);
int MPI_Info_get_nkeys(MPI_Info i, int* nkeys) {
  return call("MPI_Info_get_nkeys", [&] { *nkeys = info(i, "MPI_Info_get_nkeys").Get_nkeys(); });
}

LUMPI_PMPI(Info_get_nthkey);
int MPI_Info_get_nthkey(MPI_Info i, int n, char* key) {
  return call("MPI_Info_get_nthkey", [&] {
    copy_out(info(i, "MPI_Info_get_nthkey").Get_nthkey(n), key, nullptr, MPI_MAX_INFO_KEY + 1);
  });
}

LUMPI_PMPI(Info_dup);
int MPI_Info_dup(MPI_Info i, MPI_Info* newinfo) {
  return call("MPI_Info_dup", [&] { *newinfo = add_info(info(i, "MPI_Info_dup").Dup()); });
}

LUMPI_PMPI(Info_free);
int MPI_Info_free(MPI_Info* i) {
  return call("MPI_Info_free", [&] {
    info(*i, "MPI_Info_free");
    if (*i == MPI_INFO_ENV) fail(MPI_ERR_INFO, "MPI_Info_free", "MPI_INFO_ENV cannot be freed");
    infos()[*i] = Info();
    note_freed(core::check::Kind::Info, *i);
    *i = MPI_INFO_NULL;
  });
}

// ---- addresses ------------------------------------------------------------------

LUMPI_PMPI(Get_address);
int MPI_Get_address(const void* location, MPI_Aint* address) {
  *address = MPI_Aint(reinterpret_cast<intptr_t>(location));
  return MPI_SUCCESS;
}

}  // extern "C"
