-- lua/lumpi/help.lua: the one source of help (require("lumpi.help")): for every
-- function, method and constant of the `mpi` module, its Lua call and
-- results, the MPI function it mirrors (and the C++ binding's name, seed
-- Annex A.4), what it does, the errors it raises and the section of the MPI
-- text. The REPL's `:help NAME`, the global `help(x)` on every rank and the
-- user reference docs/mpi.md (M.markdown, written by docs/generate) are all made from this table;
-- tests/scenarios/help_coverage.lua checks it against the live module.
--
-- Methods are filed under the MPI class they belong to (seed §16.1.3, the
-- C++ classes): Comm (every communicator), Intracomm, Intercomm, Cartcomm,
-- Graphcomm, Distgraphcomm, Group, Request, Op; module functions under
-- "mpi". Look-ups go by name, so they do not depend on how the Lua
-- metatables are laid out: text("split"), text("Comm.split"),
-- text("Cartcomm.shift") (the C++ name), text("MPI_Cart_shift").
local M = {}

-- ---- classes -------------------------------------------------------------------------

-- name -> {parent=, what=}; `order` is the order of the reference.
local classes = {
  Comm = {what = "every communicator (MPI::Comm, the abstract base class): accessors, names, "
    .. "info, error handlers, attributes, point-to-point, the collectives that MPI defines on "
    .. "intra- and intercommunicators, dup/create/split and free. Shown by "
    .. "its class: Intracomm 'name' size=4 rank=1 intra (Cartcomm ... topo=cart 2x3 etc.)."},
  Intracomm = {parent = "Comm", what = "a communicator with one group (MPI::Intracomm): "
    .. "COMM_WORLD, COMM_SELF and whatever dup, split, create and merge make of them. "
    .. "Adds the calls MPI defines on intracommunicators only: scan and exscan, "
    .. "create_group, split_type, intercomm_create and the topology constructors."},
  Intercomm = {parent = "Comm", what = "a communicator joining two disjoint groups "
    .. "(MPI::Intercomm), made by intercomm_create. Point-to-point ranks and collective "
    .. "roots name ranks of the remote group; rooted collectives take mpi.ROOT / "
    .. "mpi.PROC_NULL in the root's group."},
  Cartcomm = {parent = "Intracomm", what = "an intracommunicator with a Cartesian topology "
    .. "(MPI::Cartcomm), made by cart_create or cart_sub. Ranks are numbered in row-major "
    .. "order of the coordinates. With Graphcomm and Distgraphcomm it has the "
    .. "neighbourhood collectives."},
  Graphcomm = {parent = "Intracomm", what = "an intracommunicator with a general graph "
    .. "topology (MPI::Graphcomm), made by graph_create."},
  Distgraphcomm = {parent = "Intracomm", what = "an intracommunicator with a distributed "
    .. "graph topology (MPI::Distgraphcomm), made by dist_graph_create_adjacent or "
    .. "dist_graph_create."},
  Group = {what = "an ordered set of processes (MPI::Group), from comm:group(), "
    .. "comm:remote_group() or the group constructors; all group calls are local. "
    .. "Operators: g1 + g2 is union, g1 * g2 intersection, g1 - g2 difference, "
    .. "g1 == g2 is true when compare gives \"ident\". tostring shows the members as "
    .. "COMM_WORLD ranks: group(3)[0,2,3]."},
  Request = {what = "a nonblocking operation (MPI::Request), from isend, issend, irecv, "
    .. "the nonblocking collectives and idup, or a persistent one (MPI::Prequest) from "
    .. "send_init, bsend_init, ssend_init, rsend_init and recv_init, which does nothing until "
    .. "r:start() or mpi.startall. Complete it with r:wait(), r:test() or mpi.waitall, "
    .. "waitany, waitsome, testall, testany, testsome; r:get_status() looks without "
    .. "completing. A complete ordinary request keeps its value and status: r:wait() and "
    .. "mpi.waitall return them again, while the any and some calls skip it once one of "
    .. "them has returned it (MPI makes it MPI_REQUEST_NULL). A persistent request returns "
    .. "its result once, then is inactive: waiting on it returns nil and an empty status at "
    .. "once, until it starts again. In a sequence of requests nil stands for "
    .. "MPI_REQUEST_NULL. r:free() lets go of the handle (an active operation still "
    .. "completes); any later use raises MPI_ERR_REQUEST. tostring: request (pending), "
    .. "request (complete), persistent request (inactive), persistent request (active), "
    .. "request (freed). Errors of its completion answer to the error handler of the "
    .. "communicator that started it."},
  Op = {what = "a reduction operation (MPI::Op): the predefined mpi.SUM ... mpi.MINLOC, "
    .. "or a Lua function made into an op by mpi.op_create. Collectives also accept an op's "
    .. "name as a string (\"SUM\" or \"MPI_SUM\")."},
  Datatype = {what = "an MPI datatype (MPI::Datatype): a layout of typed bytes. The "
    .. "predefined handles mpi.INT ... mpi.TWO_INT, or a new type from the constructors "
    .. "mpi.type_contiguous ... mpi.type_create_subarray, t:dup() and t:create_resized(); "
    .. "commit it before communicating with it, free it with t:free(). Point-to-point takes "
    .. "(buf, count, datatype) in place of a value, buf being an mpi.buffer. tostring: "
    .. "datatype MPI_INT, datatype vector size=32 lb=0 extent=128 (not committed), "
    .. "datatype (freed); == holds for the same type. The REPL's :draw shows a type's map. "
    .. "Errors of these calls answer to COMM_WORLD's handler. User guide: docs/datatypes.md."},
  Buffer = {what = "typed memory made by mpi.buffer(datatype, count [, values]): count "
    .. "elements of a predefined type laid out as a C array, the buf of MPI's (buf, count, "
    .. "datatype) in send, recv and their relatives. buf[i] reads and writes element i "
    .. "(1-based), #buf is count, tostring(buf) is \"buffer DOUBLE[4]\". It has no methods."},
  Win = {what = "a window (MPI::Win, MPI-3.1 chapter 11): memory each process of a "
    .. "communicator exposes to one-sided access by the others, made collectively by "
    .. "comm:win_create(buffer) or comm:win_allocate(size, disp_unit), in shared memory by "
    .. "comm:win_allocate_shared, or without memory by comm:win_create_dynamic (buffers are "
    .. "then attached). put, get and accumulate "
    .. "run inside an access epoch: between fences (active target) or between lock and unlock "
    .. "of the target (passive target). The target applies them whenever its engine "
    .. "progresses, also while it sits idle at the REPL prompt. tostring: win 'name' size=64 "
    .. "disp_unit=8 rank=1/4. Errors answer to the window's own handler. The REPL's :draw win "
    .. "shows every rank's window memory. User guide: docs/windows.md."},
  Info = {what = "info hints (MPI::Info) are plain Lua tables of string keys to string "
    .. "values: comm:set_info{mpi_assert_no_any_tag = \"true\"}, comm:get_info(), "
    .. "comm:dup_with_info(t), comm:split_type(type, key, t). A non-string key or value "
    .. "raises MPI_ERR_INFO."},
  Keyval = {what = "an attribute key (the int keyval of MPI's caching, §6.7): made by "
    .. "mpi.comm_create_keyval (for communicators), mpi.type_create_keyval (for "
    .. "datatypes) or mpi.win_create_keyval (for windows), freed by mpi.comm_free_keyval / "
    .. "mpi.type_free_keyval / mpi.win_free_keyval; a keyval serves "
    .. "only the kind of object it was made for (MPI_ERR_KEYVAL). Predefined: mpi.TAG_UB, "
    .. "mpi.HOST, mpi.IO, mpi.WTIME_IS_GLOBAL (read-only), the window attributes "
    .. "mpi.WIN_BASE ... mpi.WIN_MODEL and mpi.KEYVAL_INVALID. "
    .. "Shown as keyval 17, keyval (freed), keyval (invalid)."},
  Status = {what = "the status of a receive (MPI::Status) is a table "
    .. "{source=, tag=, error=} (and cancelled=true for a cancelled request), returned by "
    .. "recv, sendrecv, probe, iprobe and the request completions. On an intercommunicator "
    .. "source is a rank of the remote group. A receive from mpi.PROC_NULL gives "
    .. "{source=mpi.PROC_NULL, tag=mpi.ANY_TAG, error=0}. Its methods get_count(datatype) "
    .. "and get_elements(datatype) measure the message (after probe: size the receive)."},
  Errhandler = {what = "error handlers (MPI::Errhandler) are the strings "
    .. "mpi.ERRORS_RAISE (\"errors_raise\", the default: a Lua error is raised), "
    .. "mpi.ERRORS_RETURN (\"errors_return\": the call returns nil, err) and "
    .. "mpi.ERRORS_ARE_FATAL (\"errors_are_fatal\": the job is aborted), or a user-defined "
    .. "handler made by mpi.comm_create_errhandler(fn): fn(comm, code) is called, and when it "
    .. "returns the failing call returns nil, err. Set per communicator by "
    .. "comm:set_errhandler; new communicators (dup, split, create, topologies, "
    .. "intercommunicators) inherit their parent's. Calls not made on a communicator (groups, "
    .. "ops, mpi.dims_create ...) answer to COMM_WORLD's handler. Method: eh:free()."},
  Error = {what = "an MPI error (as MPI::Exception is in C++) is raised as a Lua table "
    .. "{class=, code=, func=, message=}: "
    .. "class is the error class name (\"MPI_ERR_RANK\"), code its integer, func the MPI "
    .. "function (\"MPI_Send\"), message one line naming the bad argument and its value. "
    .. "tostring(err) is \"MPI_ERR_RANK in MPI_Send: destination rank 7 is out of range "
    .. "for a communicator of size 4\". lumpi's own classes: LUMPI_ERR_INTERRUPTED (Ctrl-C "
    .. "or a timeout ended a blocked call), MPI_ERR_PROC_FAILED (a peer the call needs has "
    .. "died). See mpi.error_class, mpi.error_string."},
}
local class_order = {"Comm", "Intracomm", "Intercomm", "Cartcomm", "Graphcomm",
  "Distgraphcomm", "Group", "Request", "Op", "Datatype", "Buffer", "Win", "Info", "Keyval", "Status",
  "Errhandler", "Error"}
M.classes = classes
M.class_order = class_order

-- The class and its ancestors, nearest first.
local function lineage(class)
  local out = {}
  while class do
    out[#out + 1] = class
    class = classes[class] and classes[class].parent
  end
  return out
end
M.lineage = lineage

-- ---- errors shared by many calls --------------------------------------------------------

local COMM = {"MPI_ERR_COMM", "comm was freed, is not a communicator, or is an idup result "
  .. "whose request has not completed"}
local ARG = {"MPI_ERR_ARG", "an argument has the wrong Lua type (the message names it)"}
local INTR = {"LUMPI_ERR_INTERRUPTED", "Ctrl-C or the REPL's timeout interrupted the wait"}
local DEAD = {"MPI_ERR_PROC_FAILED", "a process the call waits for has died"}
local OTHERS = {"(class of the other rank)", "another rank's data for this call failed its "
  .. "check: every rank that needs it raises that rank's error instead of waiting"}
local IN_OP = {"MPI_ERR_OTHER", "called inside a user op's function (MPI forbids "
  .. "communication there)"}
local TOPO = {"MPI_ERR_TOPOLOGY", "comm has no topology of this kind (or is an "
  .. "intercommunicator)"}
local TYPE = {"MPI_ERR_TYPE", "the value cannot be sent: a function, userdata, thread, a cycle "
  .. "or nesting deeper than the codec allows (the message gives the path, e.g. value.a[3])"}
local RANK_DEST = {"MPI_ERR_RANK", "dest is not a rank of comm (the remote group of an "
  .. "intercommunicator) nor mpi.PROC_NULL"}
local RANK_SRC = {"MPI_ERR_RANK", "source is not a rank, mpi.ANY_SOURCE nor mpi.PROC_NULL"}
local TAG_SEND = {"MPI_ERR_TAG", "tag is negative or above the TAG_UB attribute"}
local TAG_RECV = {"MPI_ERR_TAG", "tag is neither mpi.ANY_TAG nor in 0..TAG_UB"}
local ROOT = {"MPI_ERR_ROOT", "root is not a rank of comm (on an intercommunicator: not "
  .. "mpi.ROOT, mpi.PROC_NULL or a remote rank)"}
-- The (buf, count, datatype) forms of point-to-point (checked before anything is sent).
local TYPED = {{"MPI_ERR_TYPE", "datatype is not a datatype, was freed or is not committed"},
  {"MPI_ERR_COUNT", "count is negative"},
  {"MPI_ERR_BUFFER", "count elements of datatype touch bytes outside buf (a negative lb "
    .. "reaches below it)"}}
local TRUNCATE = {"MPI_ERR_TRUNCATE", "typed: the message is longer than count elements of "
  .. "datatype"}
local OP = {"MPI_ERR_OP", "op is not an op (or its name), was freed, or is not defined for "
  .. "the operand (a string given to mpi.SUM, a float to mpi.BAND ...)"}
local OPERANDS = {"MPI_ERR_COUNT / MPI_ERR_TYPE", "operands of different lengths or shapes "
  .. "(sequences reduce element by element)"}
local USER_OP = {"(class of the error)", "a user op's function raised: its class if it raised "
  .. "an MPI error, else MPI_ERR_OP"}
local GROUP = {"MPI_ERR_GROUP", "group was freed or is not a group"}
local KEYVAL = {"MPI_ERR_KEYVAL", "kv is not a keyval, is mpi.KEYVAL_INVALID, or was freed"}
local INTER_ONLY = {"MPI_ERR_COMM", "comm is an intracommunicator (an intercommunicator is "
  .. "needed)"}
local INTRA_ONLY = {"MPI_ERR_COMM", "comm is an intercommunicator (an intracommunicator is "
  .. "needed)"}
local BLOCKING = {COMM, ARG, INTR, DEAD}

-- Errors of a call: the list given, then the shared ones not already in it.
local function errs(list, shared)
  local out = {}
  for _, e in ipairs(list) do out[#out + 1] = e end
  for _, e in ipairs(shared or {}) do out[#out + 1] = e end
  return out
end

-- ---- entries --------------------------------------------------------------------------

-- Each entry: key ("Comm.split", "mpi.dims_create", "mpi.SUM"), class,
-- name (as called in Lua), call (signature with results), mpi (the MPI
-- function or constant), cxx (the C++ binding, Annex A.4; nil for names
-- without one), kind, does, errors ({class, when} pairs), sec (section of
-- the MPI text), seeds (true when that section is in /work/shared/seeds),
-- see (related names), also (more classes that have the same method: the
-- entry answers to "Graphcomm.NAME" too).
local entries, by_key = {}, {}
M.entries = entries
M.by_key = by_key

local function def(key, e)
  assert(not by_key[key], "duplicate help entry " .. key)
  e.key = key
  local owner, name = key:match("^(.*)%.([^.]+)$")
  e.name = e.name or name
  e.class = e.class or owner
  if e.seeds == nil then e.seeds = true end
  e.errors = e.errors or {}
  entries[#entries + 1] = e
  by_key[key] = e
  for _, c in ipairs(e.also or {}) do
    assert(not by_key[c .. "." .. e.name], "duplicate help entry " .. c .. "." .. e.name)
    by_key[c .. "." .. e.name] = e
  end
  return e
end

-- Module functions -----------------------------------------------------------------------

def("mpi.rank", {call = "mpi.rank() -> rank", mpi = "MPI_Comm_rank(MPI_COMM_WORLD)",
  cxx = "Comm::Get_rank", kind = "local", sec = "§6.4.1",
  does = "The calling process's rank in COMM_WORLD; the same as mpi.COMM_WORLD:rank().",
  see = {"Comm.rank", "mpi.size"}})
def("mpi.size", {call = "mpi.size() -> size", mpi = "MPI_Comm_size(MPI_COMM_WORLD)",
  cxx = "Comm::Get_size", kind = "local", sec = "§6.4.1",
  does = "The number of processes in COMM_WORLD; the same as mpi.COMM_WORLD:size().",
  see = {"Comm.size", "mpi.rank"}})
def("mpi.wtime", {call = "mpi.wtime() -> seconds", mpi = "MPI_Wtime", cxx = "Wtime",
  kind = "local", sec = "MPI-2.2 §8.6", seeds = false,
  does = "Elapsed wall-clock time in seconds (a float) from a monotonic clock with an "
    .. "arbitrary origin. Subtract two readings on the same process; clocks of different "
    .. "hosts are not synchronised (mpi.WTIME_IS_GLOBAL is false).",
  see = {"mpi.wtick"}})
def("mpi.wtick", {call = "mpi.wtick() -> seconds", mpi = "MPI_Wtick", cxx = "Wtick",
  kind = "local", sec = "MPI-2.2 §8.6", seeds = false,
  does = "The resolution of mpi.wtime in seconds (1e-9).", see = {"mpi.wtime"}})
def("mpi.get_processor_name", {call = "mpi.get_processor_name() -> name",
  mpi = "MPI_Get_processor_name", cxx = "Get_processor_name", kind = "local",
  sec = "MPI-2.2 §8.1.2", seeds = false,
  does = "The host name of the machine the calling process runs on.",
  see = {"mpi.hw.info"}})
def("mpi.error_class", {call = "mpi.error_class(code | class name | err) -> class name, class",
  mpi = "MPI_Error_class", cxx = "Get_error_class", kind = "local", sec = "MPI-2.2 §8.4",
  seeds = false,
  does = "The error class name (\"MPI_ERR_RANK\") and number of an error object or of an "
    .. "integer error code (err.code), predefined or added by mpi.add_error_code (a class "
    .. "added by mpi.add_error_class is named \"LUMPI_ERR_USER_<n>\").",
  errors = {{"MPI_ERR_ARG", "code is not an error object nor a known integer code"}},
  see = {"mpi.error_string", "Error"}})
def("mpi.error_string", {call = "mpi.error_string(code | class name | err) -> text",
  mpi = "MPI_Error_string", cxx = "Get_error_string", kind = "local", sec = "MPI-2.2 §8.4",
  seeds = false,
  does = "Describes an error: for an error object its full text (as tostring), for a "
    .. "predefined code or a class name \"CLASS: description\" (mpi.error_string(\"MPI_ERR_RANK\") "
    .. "is \"MPI_ERR_RANK: invalid rank\"), for an added class or code the string given to "
    .. "mpi.add_error_string (\"\" if none).",
  errors = {{"MPI_ERR_ARG", "unknown code or class name"}},
  see = {"mpi.error_class", "Error"}})
def("mpi.add_error_class", {call = "mpi.add_error_class() -> class",
  mpi = "MPI_Add_error_class", cxx = "Add_error_class", kind = "local", sec = "MPI-3.1 §8.5",
  seeds = false,
  does = "A new error class (an integer above mpi.ERR_LASTCODE; also a code of its own class). "
    .. "Local: each process numbers its own; COMM_WORLD's attribute mpi.LASTUSEDCODE is the "
    .. "largest code in use.",
  see = {"mpi.add_error_code", "mpi.add_error_string", "Comm.call_errhandler"}})
def("mpi.add_error_code", {call = "mpi.add_error_code(class) -> code",
  mpi = "MPI_Add_error_code", cxx = "Add_error_code", kind = "local", sec = "MPI-3.1 §8.5",
  seeds = false,
  does = "A new error code of class (an integer class, predefined or added, or a class name "
    .. "such as \"MPI_ERR_OTHER\"). mpi.error_class(code) gives the class back.",
  errors = {{"MPI_ERR_ARG", "class is not an error class other than MPI_SUCCESS"}},
  see = {"mpi.add_error_class", "mpi.add_error_string"}})
def("mpi.add_error_string", {call = "mpi.add_error_string(code, text)",
  mpi = "MPI_Add_error_string", cxx = "Add_error_string", kind = "local", sec = "MPI-3.1 §8.5",
  seeds = false,
  does = "The text mpi.error_string gives for an added class or code; a later call replaces it.",
  errors = {{"MPI_ERR_ARG", "code is predefined or unknown, or text has mpi.MAX_ERROR_STRING "
    .. "characters or more"}},
  see = {"mpi.add_error_class", "mpi.error_string"}})
def("mpi.comm_create_errhandler", {call = "mpi.comm_create_errhandler(fn) -> errhandler",
  mpi = "MPI_Comm_create_errhandler", cxx = "Comm::Create_errhandler", kind = "local",
  sec = "MPI-3.1 §8.3.1", seeds = false,
  does = "A user-defined error handler for communicators: when a call on a communicator "
    .. "using it fails, fn(comm, code) is called with that communicator and the error code; "
    .. "when fn returns, the call returns nil, err (an error fn raises propagates instead). "
    .. "Set it with comm:set_errhandler; release the handle with eh:free().",
  errors = {{"MPI_ERR_ARG", "fn is not a function"}},
  see = {"Comm.set_errhandler", "Comm.call_errhandler", "Errhandler.free", "Errhandler"}})
def("mpi.win_create_errhandler", {call = "mpi.win_create_errhandler(fn) -> errhandler",
  mpi = "MPI_Win_create_errhandler", cxx = "Win::Create_errhandler", kind = "local",
  sec = "MPI-3.1 §8.3.2", seeds = false,
  does = "A user-defined error handler for windows: when a call on a window using it "
    .. "fails, fn(win, code) is called with that window and the error code; when fn "
    .. "returns, the call returns nil, err (an error fn raises propagates instead). Set it "
    .. "with win:set_errhandler; it cannot be set on a communicator (MPI_ERR_ARG), nor a "
    .. "communicator's handler on a window. Release the handle with eh:free().",
  errors = {{"MPI_ERR_ARG", "fn is not a function"}},
  see = {"Win.set_errhandler", "Win.call_errhandler", "Errhandler.free", "Errhandler"}})
def("Errhandler.free", {call = "eh:free()", mpi = "MPI_Errhandler_free", cxx = "Errhandler::Free",
  kind = "local", sec = "MPI-3.1 §8.3.4", seeds = false,
  does = "Releases the handle: it can no longer be set, while communicators that use the "
    .. "handler keep it.",
  errors = {{"MPI_ERR_ARG", "eh was already freed"}},
  see = {"mpi.comm_create_errhandler"}})
def("mpi.finalized", {call = "mpi.finalized() -> boolean", mpi = "MPI_Finalized",
  cxx = "Is_finalized", kind = "local", sec = "MPI-3.1 §8.7", seeds = false,
  does = "true once the rank has finalized: at its shutdown (end of the program, :quit, "
    .. ":restart, os.exit) COMM_SELF's attributes are deleted first, newest first, their "
    .. "delete callbacks running while MPI still works (mpi.finalized() is false in them).",
  see = {"Comm.set_attr"}})
def("mpi.get_version", {call = "mpi.get_version() -> version, subversion",
  mpi = "MPI_Get_version", cxx = "Get_version", kind = "local", sec = "MPI-3.1 §8.1.1",
  seeds = false, does = "3, 1: the version of the MPI standard lumpi follows.",
  see = {"mpi.get_processor_name"}})
def("mpi.dims_create", {call = "mpi.dims_create(nnodes, dims | ndims) -> dims",
  mpi = "MPI_Dims_create", cxx = "Compute_dims", kind = "local", sec = "§7.5.2",
  does = "A balanced grid of nnodes processes: dims is a sequence whose zero entries are "
    .. "filled (non-zero entries are kept), or an integer ndims meaning ndims zeros. Returns "
    .. "a new sequence; the filled entries are in non-increasing order and as close to each "
    .. "other as possible, the same as MPICH 4.0.2 wherever the result is defined. "
    .. "mpi.dims_create(6, 2) is {3, 2}.",
  errors = {{"MPI_ERR_ARG", "nnodes is negative or not an integer"},
    {"MPI_ERR_DIMS", "ndims or an entry of dims is negative; nnodes is 0; the fixed entries "
      .. "do not divide nnodes; dims has no zero entry and does not multiply to nnodes"}},
  see = {"Intracomm.cart_create"}})
def("mpi.comm_create_keyval", {
  call = "mpi.comm_create_keyval{copy = f, delete = f, extra_state = v} -> kv",
  mpi = "MPI_Comm_create_keyval", cxx = "Comm::Create_keyval", kind = "local",
  sec = "§6.7.2",
  does = "A new attribute key for comm:set_attr/get_attr/delete_attr. copy(oldcomm, kv, "
    .. "extra_state, value) -> keep, newvalue runs when a communicator with the attribute "
    .. "is duplicated (default mpi.COMM_NULL_COPY_FN: not copied; mpi.COMM_DUP_FN copies "
    .. "the value); delete(comm, kv, value, extra_state) runs when the attribute is deleted, "
    .. "replaced or its communicator freed. A callback that raises makes that MPI call fail "
    .. "with its error. The table may be omitted.",
  errors = {{"MPI_ERR_ARG", "the argument is not a table, or copy/delete is not a function"}},
  see = {"Comm.set_attr", "mpi.comm_free_keyval", "Keyval"}})
def("mpi.comm_free_keyval", {call = "mpi.comm_free_keyval(kv)", mpi = "MPI_Comm_free_keyval",
  cxx = "Comm::Free_keyval", kind = "local", sec = "§6.7.2",
  does = "Frees the keyval: every reference to it becomes a freed handle. Attributes still "
    .. "attached keep working (and their delete callbacks still run) until they go.",
  errors = {KEYVAL, {"MPI_ERR_KEYVAL", "kv is predefined (mpi.TAG_UB ...)"}},
  see = {"mpi.comm_create_keyval"}})
def("mpi.op_create", {call = "mpi.op_create(fn [, commute]) -> op", mpi = "MPI_Op_create",
  cxx = "Op::Init", kind = "local", sec = "MPI-2.2 §5.9.5", seeds = false,
  does = "An op from a Lua function fn(a, b) that returns a ∘ b, where a holds the "
    .. "contributions of lower ranks. commute (default false) says the op is commutative; "
    .. "non-commutative ops are applied in rank order. fn must not communicate.",
  errors = {{"MPI_ERR_ARG", "fn is not a Lua function, or commute not a boolean"}},
  see = {"mpi.op_free", "Op.commutative", "Comm.reduce", "mpi.reduce_local"}})
def("mpi.op_free", {call = "mpi.op_free(op)", mpi = "MPI_Op_free", cxx = "Op::Free",
  kind = "local", sec = "MPI-2.2 §5.9.5", seeds = false,
  does = "Frees a user op; every reference to it becomes a freed handle. The same as "
    .. "op:free().",
  errors = {{"MPI_ERR_OP", "op is not an op, was already freed, or is predefined"}},
  see = {"Op.free", "mpi.op_create"}})
def("mpi.reduce_local", {call = "mpi.reduce_local(inbuf, inoutbuf, op) -> result",
  mpi = "MPI_Reduce_local", cxx = "Op::Reduce_local", kind = "local", sec = "MPI-2.2 §5.9.7 (seed 002)",
  does = "inbuf ∘ inoutbuf, computed on the calling process (the result is returned; "
    .. "Lua values are not updated in place).",
  errors = {OP, OPERANDS, USER_OP}, see = {"Comm.reduce", "mpi.op_create"}})
-- Sequences of requests (MPI-3.1 §3.7.5, §3.9): nil is MPI_REQUEST_NULL.
local REQS = {{"MPI_ERR_ARG", "requests is not a table"},
  {"MPI_ERR_REQUEST", "an element is neither a request nor nil, or was freed (the message "
    .. "names requests[i])"}}
local OPERATION = {"(class of the operation)", "an operation failed (its communicator's "
  .. "handler applies)"}
local SKIPPED = " nil entries (MPI_REQUEST_NULL), inactive persistent requests and requests "
  .. "whose completion a call has already returned are skipped (MPI-3.1 §3.7.5)."
def("mpi.waitall", {call = "mpi.waitall(requests) -> values, statuses", mpi = "MPI_Waitall",
  cxx = "Request::Waitall", kind = "blocking", sec = "MPI-3.1 §3.7.5", seeds = false,
  does = "Waits for every request of the sequence; returns a sequence of their values (nil "
    .. "for sends) and a sequence of their statuses, in request order. A nil entry "
    .. "(MPI_REQUEST_NULL) or an inactive persistent request gives nil and an empty status "
    .. "{source=mpi.ANY_SOURCE, tag=mpi.ANY_TAG, error=0}; completing a persistent request "
    .. "makes it inactive.",
  errors = errs(REQS, {OPERATION, INTR, DEAD}),
  see = {"mpi.waitany", "mpi.waitsome", "mpi.testall", "Request.wait"}})
def("mpi.waitany", {call = "mpi.waitany(requests) -> index, value, status",
  mpi = "MPI_Waitany", cxx = "Request::Waitany", kind = "blocking", sec = "MPI-3.1 §3.7.5",
  seeds = false,
  does = "Waits until one request of the sequence completes; returns its 1-based index in "
    .. "the sequence, its value and its status." .. SKIPPED .. " So a loop of waitany "
    .. "returns each completion once; when every entry is skipped (an empty sequence too) "
    .. "it returns mpi.UNDEFINED, nil and an empty status at once.",
  errors = errs(REQS, {OPERATION, INTR, DEAD}),
  see = {"mpi.testany", "mpi.waitsome", "mpi.waitall", "Request.wait"}})
def("mpi.testall", {call = "mpi.testall(requests) -> false | true, values, statuses",
  mpi = "MPI_Testall", cxx = "Request::Testall", kind = "local", sec = "MPI-3.1 §3.7.5",
  seeds = false,
  does = "Whether every request of the sequence is complete, without waiting; when they "
    .. "are, also their values and statuses as mpi.waitall returns them. When one is not, "
    .. "false and no request changes (a persistent one stays active).",
  errors = errs(REQS, {OPERATION}),
  see = {"mpi.waitall", "mpi.testsome", "Request.test"}})
def("mpi.testany", {call = "mpi.testany(requests) -> false | true, index, value, status",
  mpi = "MPI_Testany", cxx = "Request::Testany", kind = "local", sec = "MPI-3.1 §3.7.5",
  seeds = false,
  does = "Whether one request of the sequence is complete, without waiting: if so true, its "
    .. "1-based index, its value and its status (the first complete one in sequence order); "
    .. "false if none is." .. SKIPPED .. " When every entry is skipped: true, mpi.UNDEFINED, "
    .. "nil and an empty status.",
  errors = errs(REQS, {OPERATION}),
  see = {"mpi.waitany", "mpi.testsome", "Request.test"}})
def("mpi.waitsome", {call = "mpi.waitsome(requests) -> indices, values, statuses | mpi.UNDEFINED",
  mpi = "MPI_Waitsome", cxx = "Request::Waitsome", kind = "blocking", sec = "MPI-3.1 §3.7.5",
  seeds = false,
  does = "Waits until at least one request of the sequence completes, then returns every "
    .. "one complete by then: the sequence of their 1-based indices (ascending), and of their "
    .. "values and statuses (values[k] and statuses[k] belong to indices[k], as MPI's "
    .. "array_of_statuses)." .. SKIPPED .. " When every entry is skipped it returns "
    .. "mpi.UNDEFINED (MPI's outcount) at once.",
  errors = errs(REQS, {OPERATION, INTR, DEAD}),
  see = {"mpi.testsome", "mpi.waitany", "mpi.waitall"}})
def("mpi.testsome", {call = "mpi.testsome(requests) -> indices, values, statuses | mpi.UNDEFINED",
  mpi = "MPI_Testsome", cxx = "Request::Testsome", kind = "local", sec = "MPI-3.1 §3.7.5",
  seeds = false,
  does = "As mpi.waitsome without waiting: the requests complete now, empty sequences if "
    .. "none is; mpi.UNDEFINED when every entry is skipped.",
  errors = errs(REQS, {OPERATION}),
  see = {"mpi.waitsome", "mpi.testany", "mpi.testall"}})
def("mpi.startall", {call = "mpi.startall(requests)", mpi = "MPI_Startall",
  cxx = "Prequest::Startall", kind = "nonblocking", sec = "MPI-3.1 §3.9", seeds = false,
  does = "Starts every persistent request of the sequence, as request:start() does each, in "
    .. "sequence order. Every element is checked, and every message read, before any starts.",
  errors = {{"MPI_ERR_ARG", "requests is not a table"},
    {"MPI_ERR_REQUEST", "an element is not a request, is nil, was freed, is not persistent, "
      .. "is already active, or appears twice (the message names requests[i])"},
    {"MPI_ERR_TYPE", "a send's value has become unsendable (a table that now holds a "
      .. "function ...)"}},
  see = {"Request.start", "Comm.send_init", "Comm.recv_init", "mpi.waitall"}})

-- Datatypes (MPI-3.1 chapter 4, outside the seeds; attributes seed §6.7.4) -------------------

local DTYPE_OLD = {"MPI_ERR_TYPE", "oldtype is not a datatype or was freed"}
local DCOUNT = {"MPI_ERR_COUNT", "count is negative"}
local DARG = {"MPI_ERR_ARG", "an argument is not an integer (or a sequence of integers), a "
  .. "blocklength is negative, or the sequences have different lengths (the message names the "
  .. "entry with Lua's 1-based index: blocklengths[2] = -3 is negative)"}
local function ctor(name, t)
  t.kind = "local"
  t.seeds = false
  t.see = t.see or {"Datatype.commit", "Datatype.get_extent", "Datatype.get_contents", "Datatype"}
  return def("mpi." .. name, t)
end
ctor("type_contiguous", {call = "mpi.type_contiguous(count, oldtype) -> newtype",
  mpi = "MPI_Type_contiguous", cxx = "Datatype::Create_contiguous", sec = "MPI-3.1 §4.1.2",
  does = "count copies of oldtype, each extent(oldtype) bytes after the previous (a negative "
    .. "extent lays them downwards). Returns a new, uncommitted type (combiner "
    .. "mpi.COMBINER_CONTIGUOUS).",
  errors = {DCOUNT, {"MPI_ERR_ARG", "count is not an integer"}, DTYPE_OLD}})
ctor("type_vector", {call = "mpi.type_vector(count, blocklength, stride, oldtype) -> newtype",
  mpi = "MPI_Type_vector", cxx = "Datatype::Create_vector", sec = "MPI-3.1 §4.1.2",
  does = "count blocks of blocklength copies of oldtype, the blocks stride elements "
    .. "(multiples of extent(oldtype)) apart; stride may be negative. "
    .. "mpi.type_vector(4, 1, 5, mpi.DOUBLE) is a column of a 4x5 row-major matrix.",
  errors = {DCOUNT, DARG, DTYPE_OLD}})
ctor("type_create_hvector", {call = "mpi.type_create_hvector(count, blocklength, stride_bytes, "
  .. "oldtype) -> newtype", mpi = "MPI_Type_create_hvector", cxx = "Datatype::Create_hvector",
  sec = "MPI-3.1 §4.1.2",
  does = "As mpi.type_vector, with the stride in bytes.",
  errors = {DCOUNT, DARG, DTYPE_OLD}})
ctor("type_indexed", {call = "mpi.type_indexed(blocklengths, displacements, oldtype) -> "
  .. "newtype", mpi = "MPI_Type_indexed", cxx = "Datatype::Create_indexed",
  sec = "MPI-3.1 §4.1.2",
  does = "One block per entry: blocklengths[i] copies of oldtype at displacements[i] "
    .. "(multiples of extent(oldtype)). The count is the sequences' length. A block of "
    .. "length 0 adds nothing, not even bounds.",
  errors = {DARG, DTYPE_OLD}})
ctor("type_create_hindexed", {call = "mpi.type_create_hindexed(blocklengths, byte_displacements, "
  .. "oldtype) -> newtype", mpi = "MPI_Type_create_hindexed", cxx = "Datatype::Create_hindexed",
  sec = "MPI-3.1 §4.1.2",
  does = "As mpi.type_indexed, with the displacements in bytes.",
  errors = {DARG, DTYPE_OLD}})
ctor("type_create_indexed_block", {call = "mpi.type_create_indexed_block(blocklength, "
  .. "displacements, oldtype) -> newtype", mpi = "MPI_Type_create_indexed_block",
  cxx = "Datatype::Create_indexed_block", sec = "MPI-3.1 §4.1.2",
  does = "As mpi.type_indexed with every block blocklength long.",
  errors = {DARG, DTYPE_OLD}})
ctor("type_create_hindexed_block", {call = "mpi.type_create_hindexed_block(blocklength, "
  .. "byte_displacements, oldtype) -> newtype", mpi = "MPI_Type_create_hindexed_block",
  sec = "MPI-3.1 §4.1.2",
  does = "As mpi.type_create_indexed_block, with the displacements in bytes (MPI-3.0: no C++ "
    .. "binding). create_hindexed_block(1, {bytes}, t) shifts t by bytes, e.g. to bring a "
    .. "negative lb back inside a buffer.",
  errors = {DARG, DTYPE_OLD}})
ctor("type_create_struct", {call = "mpi.type_create_struct(blocklengths, byte_displacements, "
  .. "types) -> newtype", mpi = "MPI_Type_create_struct", cxx = "Datatype::Create_struct",
  sec = "MPI-3.1 §4.1.2",
  does = "One block per entry: blocklengths[i] copies of types[i] at byte_displacements[i]. "
    .. "Without explicit bounds the extent is rounded up to the largest alignment in the map, "
    .. "as a C struct: type_create_struct({1, 1}, {0, 8}, {mpi.DOUBLE, mpi.CHAR}) has size 9, "
    .. "extent 16.",
  errors = {DARG, {"MPI_ERR_ARG", "types has another length than blocklengths"},
    {"MPI_ERR_TYPE", "an entry of types is not a datatype or was freed"}}})
ctor("type_create_subarray", {call = "mpi.type_create_subarray(sizes, subsizes, starts, order, "
  .. "oldtype) -> newtype", mpi = "MPI_Type_create_subarray", cxx = "Datatype::Create_subarray",
  sec = "MPI-3.1 §4.1.3",
  does = "The block subsizes at starts (0-based) of an array of sizes elements of oldtype, "
    .. "stored in order mpi.ORDER_C (row-major) or mpi.ORDER_FORTRAN (column-major). Its lb is "
    .. "0 and its extent the whole array's; get_true_extent tells where the block lies.",
  errors = {{"MPI_ERR_ARG", "sizes, subsizes and starts differ in length or are empty, an "
      .. "entry is not an integer, subsizes[i] is not in 1..sizes[i], starts[i] not in "
      .. "0..sizes[i]-subsizes[i], or order is not mpi.ORDER_C / mpi.ORDER_FORTRAN"}, DTYPE_OLD},
  see = {"mpi.ORDER_C", "Datatype.get_true_extent", "Datatype.commit"}})
ctor("type_create_darray", {call = "mpi.type_create_darray(size, rank, gsizes, distribs, dargs, "
  .. "psizes, order, oldtype) -> newtype", mpi = "MPI_Type_create_darray",
  cxx = "Datatype::Create_darray", sec = "MPI-3.1 §4.1.4",
  does = "The part process rank of size processes owns of an array of gsizes elements of "
    .. "oldtype distributed over a psizes process grid (row-major, as a Cartesian "
    .. "communicator numbers it). Per dimension, distribs[i] is mpi.DISTRIBUTE_BLOCK, "
    .. "mpi.DISTRIBUTE_CYCLIC or mpi.DISTRIBUTE_NONE and dargs[i] the block length or "
    .. "mpi.DISTRIBUTE_DFLT_DARG: index g belongs to grid coordinate (g // darg) % psizes[i]. "
    .. "The array is stored in order (mpi.ORDER_C or mpi.ORDER_FORTRAN); the type's lb is 0 and "
    .. "its extent the whole array's, so each rank's type reads its part in place.",
  errors = {{"MPI_ERR_ARG", "rank not in 0..size-1, the product of psizes is not size, the "
      .. "sequences differ in length or are empty, gsizes[i] or psizes[i] not positive, a "
      .. "BLOCK darg times psizes[i] below gsizes[i], NONE with psizes[i] > 1, or a bad "
      .. "distribution or order"}, DTYPE_OLD},
  see = {"mpi.DISTRIBUTE_BLOCK", "mpi.ORDER_C", "mpi.type_create_subarray"}})
def("mpi.type_match_size", {call = "mpi.type_match_size(typeclass, size) -> datatype",
  mpi = "MPI_Type_match_size", cxx = "Datatype::Match_size", kind = "local",
  sec = "MPI-3.1 §17.1.9", seeds = false,
  does = "The predefined type of a class and size in bytes: mpi.TYPECLASS_INTEGER gives "
    .. "INTEGER1, INTEGER2, INTEGER4, INTEGER8; mpi.TYPECLASS_REAL REAL4, REAL8, LONG_DOUBLE "
    .. "(16); mpi.TYPECLASS_COMPLEX COMPLEX8, COMPLEX16, C_LONG_DOUBLE_COMPLEX (32). The "
    .. "predefined object itself, not a copy: do not free it.",
  errors = {{"MPI_ERR_ARG", "typeclass is not a TYPECLASS constant, or no type of the "
    .. "class has that size"}},
  see = {"mpi.TYPECLASS_INTEGER", "Datatype.size"}})
def("mpi.type_create_keyval", {
  call = "mpi.type_create_keyval{copy = f, delete = f, extra_state = v} -> kv",
  mpi = "MPI_Type_create_keyval", cxx = "Datatype::Create_keyval", kind = "local",
  sec = "§6.7.4",
  does = "A new attribute key for t:set_attr/get_attr/delete_attr, with the table of "
    .. "mpi.comm_create_keyval. copy(oldtype, kv, extra_state, value) -> keep, newvalue runs "
    .. "on t:dup() (default mpi.TYPE_NULL_COPY_FN: not copied; mpi.TYPE_DUP_FN copies the "
    .. "value); delete(type, kv, value, extra_state) runs on t:free(), t:delete_attr(kv) and "
    .. "when set_attr replaces the value. A callback that raises makes that call fail with its "
    .. "error (a Lua error that is not an MPI error: MPI_ERR_OTHER). The keyval serves "
    .. "datatypes only. The table may be omitted.",
  errors = {{"MPI_ERR_ARG", "the argument is not a table, or copy/delete is not a function"}},
  see = {"Datatype.set_attr", "mpi.type_free_keyval", "Keyval"}})
def("mpi.type_free_keyval", {call = "mpi.type_free_keyval(kv)", mpi = "MPI_Type_free_keyval",
  cxx = "Datatype::Free_keyval", kind = "local", sec = "§6.7.4",
  does = "Frees a datatype keyval: every reference to it becomes a freed handle. Attributes "
    .. "still attached keep working (and their delete callbacks still run) until they go.",
  errors = {KEYVAL, {"MPI_ERR_KEYVAL", "kv was made for communicators (mpi.comm_create_keyval, "
    .. "mpi.TAG_UB ...)"}},
  see = {"mpi.type_create_keyval"}})
def("mpi.buffer", {call = "mpi.buffer(datatype, count [, values]) -> buf",
  mpi = "(lumpi: the buf of MPI's (buf, count, datatype))", kind = "local",
  sec = "MPI-3.1 §3.2.2", seeds = false,
  does = "count zeroed elements of a predefined type, laid out as a C array of it; the first "
    .. "#values are set from the sequence values. buf[i] (1-based) reads element i: an integer "
    .. "for the integer types (CHAR, BYTE ... too), a float for FLOAT, DOUBLE, LONG_DOUBLE, a "
    .. "boolean for C_BOOL, {value, index} for the pair types; nil out of range, so ipairs "
    .. "works. #buf is count; tostring(buf) is \"buffer INT[3]\". buf[i] = v raises (even under "
    .. "mpi.ERRORS_RETURN) for i outside 1..count, a value that does not fit (300 into a CHAR) "
    .. "or a float for an integer type. Send and receive it as comm:send(buf, count, datatype, "
    .. "dest, tag), with any committed datatype that stays inside it.",
  errors = {{"MPI_ERR_TYPE", "datatype is not a datatype, was freed, is not committed, or is "
      .. "not predefined (a derived type or mpi.PACKED)"}, {"MPI_ERR_COUNT", "count is negative"},
    {"MPI_ERR_ARG", "count is not an integer, values is not a sequence, or one of its elements "
      .. "does not fit the element type"},
    {"MPI_ERR_NO_MEM", "count elements would take more than 2^40 bytes"}},
  see = {"Comm.send", "Comm.recv", "Status.get_count", "mpi.INT"}})
def("mpi.get_address", {call = "mpi.get_address(buf [, index]) -> address",
  mpi = "MPI_Get_address", kind = "local", sec = "MPI-3.1 §4.1.5", seeds = false,
  does = "The address of element index (1-based, default 1; #buf + 1 is the address just past "
    .. "the end) of buf in this process, an integer. With a dynamic window "
    .. "(comm:win_create_dynamic) it is the target_disp that reaches that element once buf is "
    .. "attached (win:attach returns the first one); send it to the origins.",
  errors = {{"MPI_ERR_BUFFER", "buf is not an mpi.buffer"}, {"MPI_ERR_ARG", "index is outside "
    .. "1..#buf + 1"}},
  see = {"Win.attach", "Comm.win_create_dynamic"}})

-- mpi.hw ------------------------------------------------------------------------------------

local LEVEL = {"MPI_ERR_ARG", "level is not one of \"machine\", \"package\", \"numa\", \"l3\", "
  .. "\"l2\", \"core\", \"pu\" (or MPI's \"Package\", \"NUMANode\", \"L3Cache\", \"L2Cache\", "
  .. "\"Core\", \"PU\")"}
def("mpi.hw", {call = "mpi.hw", mpi = "(lumpi: the hardware, from hwloc)", kind = "table",
  sec = "§6.4.2 (split_type)",
  does = "The machine as hwloc sees it and the calling rank's place on it: mpi.hw.info(), "
    .. "mpi.hw.bind(level, index), mpi.hw.locality(level), mpi.hw.count(level). "
    .. "comm:split_type(\"hw_guided\", ...) uses the same data. The REPL's :hw draws the tree.",
  see = {"mpi.hw.info", "mpi.hw.bind", "mpi.hw.locality", "mpi.hw.count"}})
def("mpi.hw.info", {call = "mpi.hw.info() -> {host=, pid=, cores=, pus=, numa=, packages=, "
  .. "cpuset=, bound=}", mpi = "(lumpi)", kind = "local", sec = "§6.4.2 (split_type)",
  does = "This process's host and pid, the machine's counts of cores, PUs, NUMA nodes and "
    .. "packages, the PUs it may run on (cpuset, \"0-1\") and, when it is bound, "
    .. "bound = {level=, index=}.", see = {"mpi.hw.bind"}})
def("mpi.hw.bind", {call = "mpi.hw.bind(level, index)", mpi = "(lumpi)", kind = "local",
  sec = "§6.4.2 (split_type)",
  does = "Binds the calling process to the index-th object of level (0-based).",
  errors = {LEVEL, {"MPI_ERR_ARG", "index is out of range for that level"},
    {"MPI_ERR_OTHER", "the operating system refused the binding"}},
  see = {"mpi.hw.info", "mpi.hw.locality"}})
def("mpi.hw.locality", {call = "mpi.hw.locality(level) -> index", mpi = "(lumpi)",
  kind = "local", sec = "§6.4.2 (split_type)",
  does = "The index of the object of level that holds the process's binding, or "
    .. "mpi.UNDEFINED when the binding spans several.", errors = {LEVEL},
  see = {"mpi.hw.bind"}})
def("mpi.hw.count", {call = "mpi.hw.count(level) -> n", mpi = "(lumpi)", kind = "local",
  sec = "§6.4.2 (split_type)", does = "How many objects of level the machine has.",
  errors = {LEVEL}, see = {"mpi.hw.info"}})

-- Constants -------------------------------------------------------------------------------

local function const(name, t)
  t.call = t.call or ("mpi." .. name)
  t.kind = t.kind or "constant"
  t.mpi = t.mpi or ("MPI_" .. name)
  return def("mpi." .. name, t)
end

const("COMM_WORLD", {cxx = "COMM_WORLD", sec = "§6.2.4",
  does = "The communicator of all processes started together (-n N), named "
    .. "\"MPI_COMM_WORLD\". It cannot be freed.", see = {"Intracomm", "mpi.COMM_SELF"}})
const("COMM_SELF", {cxx = "COMM_SELF", sec = "§6.2.4",
  does = "The communicator of the calling process alone, named \"MPI_COMM_SELF\". It cannot "
    .. "be freed.", see = {"mpi.COMM_WORLD"}})
const("COMM_NULL", {cxx = "COMM_NULL", sec = "§6.2.4", absent = true,
  does = "nil. Every call that MPI documents as returning MPI_COMM_NULL returns nil (split "
    .. "with an undefined colour, cart_create on a process outside the grid ...).",
  see = {"Comm.split"}})
const("GROUP_EMPTY", {cxx = "GROUP_EMPTY", sec = "§6.2.1",
  does = "The group with no members; every group constructor with an empty result returns "
    .. "this very value. Freeing it does nothing.", see = {"Group"}})
const("PROC_NULL", {cxx = "PROC_NULL", sec = "MPI-2.2 §3.11", seeds = false,
  does = "-1: the null process. A send to it or a receive from it completes at once (the "
    .. "receive gets nil with status.source == mpi.PROC_NULL, status.tag == mpi.ANY_TAG); "
    .. "cart_shift returns it past a non-periodic edge; translate_ranks keeps it; on an "
    .. "intercommunicator it is the root argument of the root group's other processes.",
  see = {"Comm.send", "Cartcomm.cart_shift"}})
const("ANY_SOURCE", {cxx = "ANY_SOURCE", sec = "MPI-2.2 §3.2.4", seeds = false,
  does = "-2: the wildcard source of recv, irecv, probe, iprobe and sendrecv (their "
    .. "default).", see = {"Comm.recv"}})
const("ANY_TAG", {cxx = "ANY_TAG", sec = "MPI-2.2 §3.2.4", seeds = false,
  does = "-4: the wildcard tag of receives and probes (their default).", see = {"Comm.recv"}})
const("ROOT", {cxx = "ROOT", sec = "MPI-2.2 §5.2.3", seeds = false,
  does = "-3: on an intercommunicator, the root argument of the root process itself in a "
    .. "rooted collective (the other processes of its group pass mpi.PROC_NULL, the remote "
    .. "group passes the root's rank).", see = {"Comm.bcast", "Intercomm"}})
const("UNDEFINED", {cxx = "UNDEFINED", sec = "§6.3.1",
  does = "-32766: the answer where no value exists (group:rank() of a non-member, "
    .. "translate_ranks without a match, topo_test without a topology, cart_map/graph_map "
    .. "for an excess process, mpi.waitany of nothing, mpi.hw.locality across objects) and "
    .. "the colour/split type that gives no communicator.",
  see = {"Group.rank", "Comm.split"}})
const("MAX_OBJECT_NAME", {cxx = "MAX_OBJECT_NAME", sec = "§6.8",
  does = "128: communicator names are cut to MAX_OBJECT_NAME - 1 characters.",
  see = {"Comm.set_name"}})
const("KEYVAL_INVALID", {cxx = "KEYVAL_INVALID", sec = "§6.7.2",
  does = "A keyval that no attribute may use; every attribute call given it raises "
    .. "MPI_ERR_KEYVAL.", see = {"Keyval"}})
const("TAG_UB", {cxx = "TAG_UB", sec = "MPI-2.2 §8.1.2", seeds = false,
  does = "Predefined keyval: comm:get_attr(mpi.TAG_UB) is the largest tag, 1073741823 "
    .. "(2^30 - 1). Read-only.", see = {"Comm.get_attr"}})
const("HOST", {cxx = "HOST", sec = "MPI-2.2 §8.1.2", seeds = false,
  does = "Predefined keyval: comm:get_attr(mpi.HOST) is mpi.PROC_NULL (there is no host "
    .. "process). Read-only.", see = {"Comm.get_attr"}})
const("IO", {cxx = "IO", sec = "MPI-2.2 §8.1.2", seeds = false,
  does = "Predefined keyval: comm:get_attr(mpi.IO) is mpi.ANY_SOURCE (every process can do "
    .. "I/O). Read-only.", see = {"Comm.get_attr"}})
const("WTIME_IS_GLOBAL", {cxx = "WTIME_IS_GLOBAL", sec = "MPI-2.2 §8.1.2", seeds = false,
  does = "Predefined keyval: comm:get_attr(mpi.WTIME_IS_GLOBAL) is false (clocks are per "
    .. "host). Read-only.", see = {"mpi.wtime"}})
for _, r in ipairs({{"IDENT", "the same object (groups: same members in the same order)"},
    {"CONGRUENT", "communicators with the same group in the same order but different "
      .. "contexts (a dup)"},
    {"SIMILAR", "the same members in a different order"},
    {"UNEQUAL", "anything else"}}) do
  const(r[1], {cxx = r[1], sec = "§6.3.1, §6.4.1",
    does = "\"" .. r[1]:lower() .. "\": a result of comm:compare and group:compare: " .. r[2]
      .. ".", see = {"Comm.compare", "Group.compare"}})
end
for _, r in ipairs({{"CART", "Cartesian"}, {"GRAPH", "general graph"},
    {"DIST_GRAPH", "distributed graph"}}) do
  const(r[1], {cxx = r[1], sec = "§7.5.5",
    does = "\"" .. r[1]:lower() .. "\": comm:topo_test() of a communicator with a " .. r[2]
      .. " topology.", see = {"Comm.topo_test"}})
end
const("UNWEIGHTED", {cxx = "UNWEIGHTED", sec = "§7.5.4",
  does = "The weights argument of an unweighted distributed graph (the same as leaving the "
    .. "weights out). A unique value that cannot be sent.",
  see = {"Intracomm.dist_graph_create_adjacent"}})
const("WEIGHTS_EMPTY", {cxx = "WEIGHTS_EMPTY", sec = "§7.5.4",
  does = "The weights of a weighted distributed graph on a process that has no edges to "
    .. "weigh. A unique value that cannot be sent.",
  see = {"Intracomm.dist_graph_create"}})
const("COMM_TYPE_SHARED", {cxx = "COMM_TYPE_SHARED", sec = "§6.4.2",
  does = "\"shared\": split_type into the processes that share memory (the same host).",
  see = {"Intracomm.split_type"}})
const("COMM_TYPE_HW_GUIDED", {cxx = "COMM_TYPE_HW_GUIDED", sec = "§6.4.2 (MPI-4.0)",
  does = "\"hw_guided\": split_type by the hardware resource named in "
    .. "info.mpi_hw_resource_type (\"Package\", \"NUMANode\", \"L3Cache\", \"L2Cache\", "
    .. "\"Core\", \"PU\").", see = {"Intracomm.split_type"}})
const("COMM_TYPE_HW_UNGUIDED", {cxx = "COMM_TYPE_HW_UNGUIDED", sec = "§6.4.2 (MPI-4.0)",
  does = "\"hw_unguided\": split_type at the coarsest level (the host, then \"Package\", "
    .. "\"NUMANode\", \"L3Cache\", \"L2Cache\", \"Core\", \"PU\") whose instances split the "
    .. "processes into strict subsets; nil when none does. The new communicator's "
    .. "get_info() names the level under mpi_hw_resource_type.", see = {"Intracomm.split_type"}})
const("COMM_TYPE_HW_DOMAIN", {cxx = "COMM_TYPE_HW_DOMAIN", sec = "§6.4.2",
  does = "\"hw_domain\": the seed's split type: strict subsets that share a hardware "
    .. "domain, the coarsest that splits unless info[mpi.HW_DOMAIN_TYPE] names one; nil once "
    .. "no smaller domain exists, so splitting again and again ends.",
  see = {"Intracomm.split_type", "mpi.HW_DOMAIN_TYPE"}})
const("HW_DOMAIN_TYPE", {cxx = "HW_DOMAIN_TYPE", sec = "§6.4.2",
  does = "\"mpi_hw_domain_type\": the info key of split_type(mpi.COMM_TYPE_HW_DOMAIN, ...): "
    .. "\"Package\", \"NUMANode\", \"L3Cache\", \"L2Cache\", \"Core\", \"PU\", or "
    .. "\"mpi_shared_memory\" (COMM_TYPE_SHARED's split).", see = {"mpi.COMM_TYPE_HW_DOMAIN"}})
const("ERR_LASTCODE", {cxx = "ERR_LASTCODE", sec = "MPI-3.1 §8.4", seeds = false,
  does = "60: the largest predefined error class (MPI-3.1 has 59, lumpi's LUMPI_ERR_INTERRUPTED is 26); added classes and codes are above it.",
  see = {"mpi.add_error_class"}})
const("MAX_ERROR_STRING", {cxx = "MAX_ERROR_STRING", sec = "MPI-3.1 §8.4", seeds = false,
  does = "512: strings given to mpi.add_error_string are shorter than this.",
  see = {"mpi.add_error_string"}})
const("MAX_PROCESSOR_NAME", {cxx = "MAX_PROCESSOR_NAME", sec = "MPI-3.1 §8.1.2", seeds = false,
  does = "256: mpi.get_processor_name's result is shorter than this.",
  see = {"mpi.get_processor_name"}})
const("MAX_INFO_KEY", {cxx = "MAX_INFO_KEY", sec = "MPI-3.1 §9", seeds = false,
  does = "255: the longest info key.", see = {"Comm.set_info"}})
const("MAX_INFO_VAL", {cxx = "MAX_INFO_VAL", sec = "MPI-3.1 §9", seeds = false,
  does = "1024: the longest info value of the C API (MPI_MAX_INFO_VAL).", see = {"Comm.set_info"}})
const("GROUP_NULL", {cxx = "GROUP_NULL", sec = "§6.2.1", absent = true,
  does = "nil, as mpi.COMM_NULL: a freed group handle answers MPI_ERR_GROUP.",
  see = {"Group.free"}})
const("LASTUSEDCODE", {cxx = "Get_last_used_code", sec = "MPI-3.1 §8.5", seeds = false,
  does = "Keyval of the predefined attribute of COMM_WORLD (only) whose value is the largest "
    .. "error code in use: mpi.ERR_LASTCODE until mpi.add_error_class/code add more.",
  see = {"mpi.add_error_class", "Comm.get_attr"}})
const("ERRORS_RAISE", {mpi = "MPI::ERRORS_THROW_EXCEPTIONS", cxx = "ERRORS_THROW_EXCEPTIONS",
  sec = "MPI-2.2 §8.3, §16.1.8", seeds = false,
  does = "\"errors_raise\": error handler for comm:set_errhandler: an error raises a Lua "
    .. "error (the default), as C++'s MPI::ERRORS_THROW_EXCEPTIONS throws.",
  see = {"Comm.set_errhandler", "Errhandler"}})
const("ERRORS_RETURN", {cxx = "ERRORS_RETURN", sec = "MPI-2.2 §8.3", seeds = false,
  does = "\"errors_return\": error handler for comm:set_errhandler: an erroneous call "
    .. "returns nil, err instead of raising.", see = {"Comm.set_errhandler", "Errhandler"}})
const("ERRORS_ARE_FATAL", {cxx = "ERRORS_ARE_FATAL", sec = "MPI-2.2 §8.3", seeds = false,
  does = "\"errors_are_fatal\": error handler for comm:set_errhandler: an error aborts the "
    .. "whole job as MPI_Abort would.", see = {"Comm.set_errhandler", "Errhandler"}})
local ops = {
  {"SUM", "sum", "numbers"}, {"PROD", "product", "numbers"},
  {"MAX", "maximum", "numbers"}, {"MIN", "minimum", "numbers"},
  {"LAND", "logical and", "booleans"}, {"LOR", "logical or", "booleans"},
  {"LXOR", "logical exclusive or", "booleans"},
  {"BAND", "bitwise and", "integers"}, {"BOR", "bitwise or", "integers"},
  {"BXOR", "bitwise exclusive or", "integers"},
  {"MAXLOC", "maximum and its index", "{value, index} pairs (ties take the smaller index)"},
  {"MINLOC", "minimum and its index", "{value, index} pairs (ties take the smaller index)"},
}
for _, o in ipairs(ops) do
  const(o[1], {cxx = o[1], sec = o[1]:match("LOC$") and "MPI-2.2 §5.9.4" or "MPI-2.2 §5.9.2",
    seeds = false,
    does = "Predefined op: " .. o[2] .. ", on " .. o[3] .. " or sequences of them (element "
      .. "by element). Integers stay integers, as in Lua arithmetic. The string \"" .. o[1]
      .. "\" is accepted in its place.",
    see = {"Comm.reduce", "Comm.allreduce", "Op"}})
end
for _, c in ipairs({
    {"COMM_NULL_COPY_FN", "a copy callback that never copies the attribute (the default)"},
    {"COMM_DUP_FN", "a copy callback that copies the value unchanged"},
    {"COMM_NULL_DELETE_FN", "a delete callback that does nothing"},
    {"NULL_COPY_FN", "the deprecated MPI-1 name of mpi.COMM_NULL_COPY_FN"},
    {"DUP_FN", "the deprecated MPI-1 name of mpi.COMM_DUP_FN"},
    {"NULL_DELETE_FN", "the deprecated MPI-1 name of mpi.COMM_NULL_DELETE_FN"}}) do
  const(c[1], {cxx = c[1]:match("^COMM_") and ("Comm::" .. c[1]:sub(6)) or nil,
    sec = "§6.7.2", kind = "callback",
    does = "For mpi.comm_create_keyval{copy = ..., delete = ...}: " .. c[2] .. ".",
    see = {"mpi.comm_create_keyval"}})
end

-- Predefined datatypes (MPI-3.1 §3.2.2, §5.9.4 for the pairs, §4.2 for PACKED) ----------------

-- {Lua name, C type (or what it is), C++ name or false, section, note}
local INTS = "integers"
local predefined = {
  {"CHAR", "char", "CHAR", INTS},
  {"SIGNED_CHAR", "signed char", "SIGNED_CHAR", INTS},
  {"UNSIGNED_CHAR", "unsigned char", "UNSIGNED_CHAR", INTS},
  {"BYTE", "an uninterpreted byte", "BYTE", INTS},
  {"SHORT", "short", "SHORT", INTS},
  {"UNSIGNED_SHORT", "unsigned short", "UNSIGNED_SHORT", INTS},
  {"INT", "int", "INT", INTS},
  {"UNSIGNED", "unsigned int", "UNSIGNED", INTS},
  {"LONG", "long", "LONG", INTS},
  {"UNSIGNED_LONG", "unsigned long", "UNSIGNED_LONG", INTS .. " (above 2^63: negative)"},
  {"LONG_LONG", "long long", "LONG_LONG", INTS},
  {"UNSIGNED_LONG_LONG", "unsigned long long", "UNSIGNED_LONG_LONG",
    INTS .. " (above 2^63: negative)"},
  {"FLOAT", "float", "FLOAT", "floats"},
  {"DOUBLE", "double", "DOUBLE", "floats"},
  {"LONG_DOUBLE", "long double (16 bytes on x86-64)", "LONG_DOUBLE",
    "floats, through a double"},
  {"WCHAR", "wchar_t", "WCHAR", INTS},
  {"C_BOOL", "_Bool", false, "booleans"},
  {"INT8_T", "int8_t", false, INTS}, {"INT16_T", "int16_t", false, INTS},
  {"INT32_T", "int32_t", false, INTS}, {"INT64_T", "int64_t", false, INTS},
  {"UINT8_T", "uint8_t", false, INTS}, {"UINT16_T", "uint16_t", false, INTS},
  {"UINT32_T", "uint32_t", false, INTS},
  {"UINT64_T", "uint64_t", false, INTS .. " (above 2^63: negative)"},
  {"AINT", "MPI_Aint (int64_t here)", "AINT", INTS}, {"OFFSET", "MPI_Offset (int64_t here)", "OFFSET", INTS},
  {"COUNT", "MPI_Count (int64_t here)", "COUNT", INTS},
  {"C_FLOAT_COMPLEX", "float _Complex (MPI_C_COMPLEX too)", false, "complex numbers {re, im}"},
  {"C_DOUBLE_COMPLEX", "double _Complex", false, "complex numbers {re, im}"},
  {"C_LONG_DOUBLE_COMPLEX", "long double _Complex", false, "complex numbers {re, im}, through doubles"},
  {"CXX_BOOL", "C++ bool", "BOOL", "booleans"},
  {"CXX_FLOAT_COMPLEX", "std::complex<float>", "COMPLEX", "complex numbers {re, im}"},
  {"CXX_DOUBLE_COMPLEX", "std::complex<double>", "DOUBLE_COMPLEX", "complex numbers {re, im}"},
  {"CXX_LONG_DOUBLE_COMPLEX", "std::complex<long double>", "LONG_DOUBLE_COMPLEX",
    "complex numbers {re, im}, through doubles"},
  {"CHARACTER", "Fortran CHARACTER (1 byte; no op takes it, as MPI_CHAR)", "CHARACTER", "text bytes"},
  {"INTEGER", "Fortran INTEGER (4 bytes here)", "INTEGER", INTS},
  {"REAL", "Fortran REAL (4 bytes here)", "REAL", "floats"},
  {"DOUBLE_PRECISION", "Fortran DOUBLE PRECISION (8 bytes)", "DOUBLE_PRECISION", "floats"},
  {"COMPLEX", "Fortran COMPLEX (two REALs)", "F_COMPLEX", "complex numbers {re, im}"},
  {"DOUBLE_COMPLEX", "Fortran DOUBLE COMPLEX (two DOUBLE PRECISIONs)", "F_DOUBLE_COMPLEX",
    "complex numbers {re, im}"},
  {"LOGICAL", "Fortran LOGICAL (4 bytes, .TRUE. is 1; the logical ops give 0 or 1)", "LOGICAL", INTS},
  {"INTEGER1", "Fortran INTEGER*1", "INTEGER1", INTS}, {"INTEGER2", "Fortran INTEGER*2", "INTEGER2", INTS},
  {"INTEGER4", "Fortran INTEGER*4", "INTEGER4", INTS}, {"INTEGER8", "Fortran INTEGER*8", "INTEGER8", INTS},
  {"REAL4", "Fortran REAL*4", "REAL4", "floats"}, {"REAL8", "Fortran REAL*8", "REAL8", "floats"},
  {"COMPLEX8", "Fortran COMPLEX*8", "COMPLEX8", "complex numbers {re, im}"},
  {"COMPLEX16", "Fortran COMPLEX*16", "COMPLEX16", "complex numbers {re, im}"},
  {"PACKED", "packed bytes (no Lua MPI_Pack here; mpi.buffer refuses it)", "PACKED", nil,
    "MPI-3.1 §4.2"},
  {"FLOAT_INT", "struct {float; int} (x86-64: size 8, extent 8)", "FLOAT_INT", nil,
    "MPI-3.1 §5.9.4"},
  {"DOUBLE_INT", "struct {double; int} (x86-64: size 12, extent 16)", "DOUBLE_INT", nil,
    "MPI-3.1 §5.9.4"},
  {"LONG_INT", "struct {long; int} (x86-64: size 12, extent 16)", "LONG_INT", nil,
    "MPI-3.1 §5.9.4"},
  {"TWO_INT", "struct {int; int} (x86-64: size 8), MPI's MPI_2INT: a Lua name cannot start "
    .. "with a digit",
    "TWOINT", nil, "MPI-3.1 §5.9.4"},
  {"SHORT_INT", "struct {short; int} (x86-64: size 6, extent 8)", "SHORT_INT", nil,
    "MPI-3.1 §5.9.4"},
  {"LONG_DOUBLE_INT", "struct {long double; int} (x86-64: size 20, extent 32)",
    "LONG_DOUBLE_INT", nil,
    "MPI-3.1 §5.9.4"},
  {"TWO_REAL", "Fortran's pair of REALs {value, index} (size 8), MPI's MPI_2REAL",
    "TWOREAL", nil, "MPI-3.1 §5.9.4"},
  {"TWO_DOUBLE_PRECISION", "Fortran's pair of DOUBLE PRECISIONs {value, index} (size 16), "
    .. "MPI's MPI_2DOUBLE_PRECISION", "TWODOUBLE_PRECISION", nil, "MPI-3.1 §5.9.4"},
  {"TWO_INTEGER", "Fortran's pair of INTEGERs {value, index} (size 8), MPI's MPI_2INTEGER",
    "TWOINTEGER", nil, "MPI-3.1 §5.9.4"},
}
for _, p in ipairs(predefined) do
  local pair = p[5] == "MPI-3.1 §5.9.4"
  local note = p[4] or (pair and "{value, index} pairs (MPI's operand type "
    .. "for MAXLOC/MINLOC, which typed-buffer reductions take too)" or nil)
  local c_name = "MPI_" .. p[1]:gsub("^TWO_", "2")
  const(p[1], {mpi = p[1]:find("^TWO_") and c_name or nil, cxx = p[3] or nil,
    sec = p[5] or "MPI-3.1 §3.2.2", seeds = false,
    does = "Predefined datatype: " .. p[2] .. ". Committed, named \""
      .. c_name .. "\", combiner "
      .. "mpi.COMBINER_NAMED; freeing it is MPI_ERR_TYPE. Sizes are the C compiler's."
      .. (note and (" The elements of an mpi.buffer of it read as " .. note .. ".") or ""),
    see = {"Datatype", "mpi.buffer", "Datatype.size"}})
end
const("ORDER_C", {cxx = "ORDER_C", sec = "MPI-3.1 §4.1.3", seeds = false,
  does = "\"c\": the order argument of mpi.type_create_subarray for row-major arrays (the last "
    .. "index varies fastest); also the last integer of such a type's get_contents.",
  see = {"mpi.type_create_subarray", "mpi.ORDER_FORTRAN"}})
const("ORDER_FORTRAN", {cxx = "ORDER_FORTRAN", sec = "MPI-3.1 §4.1.3", seeds = false,
  does = "\"fortran\": the order argument of mpi.type_create_subarray for column-major arrays "
    .. "(the first index varies fastest).", see = {"mpi.type_create_subarray", "mpi.ORDER_C"}})
for _, c in ipairs({{"INTEGER", "integer"}, {"REAL", "real"}, {"COMPLEX", "complex"}}) do
  const("TYPECLASS_" .. c[1], {cxx = "TYPECLASS_" .. c[1], sec = "MPI-3.1 §17.1.9", seeds = false,
    does = "\"" .. c[2] .. "\": a typeclass of mpi.type_match_size.",
    see = {"mpi.type_match_size"}})
end
for _, d in ipairs({
    {"BLOCK", "block", "one block of darg indices per process (darg defaults to "
      .. "ceil(gsize / psize))"},
    {"CYCLIC", "cyclic", "blocks of darg indices dealt round the processes (darg defaults to 1)"},
    {"NONE", "none", "the dimension is not distributed (its psizes entry must be 1)"}}) do
  const("DISTRIBUTE_" .. d[1], {cxx = "DISTRIBUTE_" .. d[1], sec = "MPI-3.1 §4.1.4", seeds = false,
    does = "\"" .. d[2] .. "\": a distribution of mpi.type_create_darray: " .. d[3] .. "; also "
      .. "how get_contents reports it.", see = {"mpi.type_create_darray"}})
end
const("DISTRIBUTE_DFLT_DARG", {cxx = "DISTRIBUTE_DFLT_DARG", sec = "MPI-3.1 §4.1.4", seeds = false,
  does = "-1: a darg of mpi.type_create_darray asking for the distribution's default block "
    .. "length.", see = {"mpi.type_create_darray", "mpi.DISTRIBUTE_BLOCK"}})
for _, c in ipairs({
    {"NAMED", "a predefined type (mpi.INT ...); get_contents raises MPI_ERR_TYPE", nil},
    {"DUP", "t:dup()", "{}, {}, {oldtype}"},
    {"CONTIGUOUS", "mpi.type_contiguous", "{count}, {}, {oldtype}"},
    {"VECTOR", "mpi.type_vector", "{count, blocklength, stride}, {}, {oldtype}"},
    {"HVECTOR", "mpi.type_create_hvector", "{count, blocklength}, {stride}, {oldtype}"},
    {"INDEXED", "mpi.type_indexed", "{count, blocklengths..., displacements...}, {}, {oldtype}"},
    {"HINDEXED", "mpi.type_create_hindexed", "{count, blocklengths...}, {displacements...}, "
      .. "{oldtype}"},
    {"INDEXED_BLOCK", "mpi.type_create_indexed_block", "{count, blocklength, "
      .. "displacements...}, {}, {oldtype}"},
    {"HINDEXED_BLOCK", "mpi.type_create_hindexed_block", "{count, blocklength}, "
      .. "{displacements...}, {oldtype}"},
    {"STRUCT", "mpi.type_create_struct", "{count, blocklengths...}, {displacements...}, "
      .. "{types...}"},
    {"SUBARRAY", "mpi.type_create_subarray", "{ndims, sizes..., subsizes..., starts..., "
      .. "order}, {}, {oldtype}"},
    {"RESIZED", "t:create_resized", "{}, {lb, extent}, {oldtype}"},
    {"DARRAY", "mpi.type_create_darray", "{size, rank, ndims, gsizes..., distribs..., dargs..., "
      .. "psizes..., order}, {}, {oldtype}"}}) do
  const("COMBINER_" .. c[1], {cxx = c[1] ~= "HINDEXED_BLOCK" and ("COMBINER_" .. c[1]) or nil,
    sec = "MPI-3.1 §4.1.13", seeds = false,
    does = "\"" .. c[1]:lower() .. "\": the combiner t:get_envelope() returns for " .. c[2]
      .. (c[3] and ("; t:get_contents() then returns " .. c[3]) or "") .. ".",
    see = {"Datatype.get_envelope", "Datatype.get_contents"}})
end
for _, c in ipairs({
    {"TYPE_NULL_COPY_FN", "a copy callback that never copies the attribute (the default)"},
    {"TYPE_DUP_FN", "a copy callback that copies the value unchanged"},
    {"TYPE_NULL_DELETE_FN", "a delete callback that does nothing"}}) do
  const(c[1], {cxx = "MPI_" .. c[1], sec = "§6.7.4", kind = "callback",
    does = "For mpi.type_create_keyval{copy = ..., delete = ...}: " .. c[2] .. " (the same "
      .. "function as mpi.COMM_" .. c[1]:sub(6) .. "). Its C++ name is the C name (seed Annex "
      .. "A.1.1).",
    see = {"mpi.type_create_keyval"}})
end

-- Comm: every communicator ------------------------------------------------------------------

local function method(class, name, t)
  t.kind = t.kind or "local"
  return def(class .. "." .. name, t)
end

method("Comm", "size", {call = "comm:size() -> size", mpi = "MPI_Comm_size",
  cxx = "Comm::Get_size", sec = "§6.4.1", errors = {COMM},
  does = "The number of processes in comm (in the local group of an intercommunicator).",
  see = {"Comm.rank", "Intercomm.remote_size"}})
method("Comm", "rank", {call = "comm:rank() -> rank", mpi = "MPI_Comm_rank",
  cxx = "Comm::Get_rank", sec = "§6.4.1", errors = {COMM},
  does = "The calling process's rank in comm (in its local group), from 0.",
  see = {"Comm.size"}})
method("Comm", "group", {call = "comm:group() -> group", mpi = "MPI_Comm_group",
  cxx = "Comm::Get_group", sec = "§6.3.2", errors = {COMM},
  does = "A new group with comm's members in rank order (the local group of an "
    .. "intercommunicator).", see = {"Group", "Intercomm.remote_group"}})
method("Comm", "compare", {call = "comm:compare(comm2) -> \"ident\" | \"congruent\" | "
  .. "\"similar\" | \"unequal\"", mpi = "MPI_Comm_compare", cxx = "Comm::Compare",
  sec = "§6.4.1", errors = {COMM},
  does = "\"ident\" for the same communicator object, \"congruent\" for the same group in "
    .. "the same order (a dup), \"similar\" for the same members in another order, else "
    .. "\"unequal\".", see = {"Group.compare", "mpi.IDENT"}})
method("Comm", "test_inter", {call = "comm:test_inter() -> boolean",
  mpi = "MPI_Comm_test_inter", cxx = "Comm::Is_inter", sec = "§6.6.1", errors = {COMM},
  does = "true for an intercommunicator.", see = {"Intercomm"}})
method("Comm", "topo_test", {call = "comm:topo_test() -> \"cart\" | \"graph\" | "
  .. "\"dist_graph\" | mpi.UNDEFINED", mpi = "MPI_Topo_test", cxx = "Comm::Get_topology",
  sec = "§7.5.5", errors = {COMM},
  does = "The kind of topology attached to comm, or mpi.UNDEFINED for none.",
  see = {"mpi.CART", "Intracomm.cart_create"}})
method("Comm", "get_name", {call = "comm:get_name() -> name", mpi = "MPI_Comm_get_name",
  cxx = "Comm::Get_name", sec = "§6.8", errors = {COMM},
  does = "The communicator's name: \"MPI_COMM_WORLD\", \"MPI_COMM_SELF\", what set_name "
    .. "gave it, or \"\". Names are never copied by dup or split.",
  see = {"Comm.set_name"}})
method("Comm", "set_name", {call = "comm:set_name(name)", mpi = "MPI_Comm_set_name",
  cxx = "Comm::Set_name", sec = "§6.8", errors = {COMM, ARG},
  does = "Names the communicator on the calling process only (names are local). Longer "
    .. "names are cut to mpi.MAX_OBJECT_NAME - 1 characters; trailing spaces are dropped. "
    .. "The REPL's drawings and tostring show the name.", see = {"Comm.get_name"}})
method("Comm", "get_info", {call = "comm:get_info() -> info", mpi = "MPI_Comm_get_info",
  sec = "§6.4.4", errors = {COMM},
  does = "A table of every hint this implementation uses, with its current value (string "
    .. "keys to string values).", see = {"Comm.set_info", "Info"}})
method("Comm", "set_info", {call = "comm:set_info(info)", mpi = "MPI_Comm_set_info",
  sec = "§6.4.4", kind = "collective", errors = {COMM, {"MPI_ERR_INFO", "info is not a "
    .. "table of strings"}},
  does = "Sets hints from a table of strings; keys this implementation does not use are "
    .. "ignored, hints not in the table keep their values.", see = {"Comm.get_info", "Info"}})
method("Comm", "set_errhandler", {call = "comm:set_errhandler(handler)",
  mpi = "MPI_Comm_set_errhandler", cxx = "Comm::Set_errhandler", sec = "MPI-2.2 §8.3.1",
  seeds = false, errors = {COMM, {"MPI_ERR_ARG", "handler is not one of the three names nor "
    .. "an errhandler for communicators, or was freed"}},
  does = "How comm's calls report errors: mpi.ERRORS_RAISE (raise, the default), "
    .. "mpi.ERRORS_RETURN (return nil, err), mpi.ERRORS_ARE_FATAL (abort the job) or a "
    .. "handler from mpi.comm_create_errhandler (called with comm and the code, then the call "
    .. "returns nil, err). Communicators made from comm later inherit it. "
    .. "COMM_WORLD's handler also governs calls not made on a communicator.",
  see = {"Comm.get_errhandler", "Errhandler"}})
method("Comm", "get_errhandler", {call = "comm:get_errhandler() -> handler",
  mpi = "MPI_Comm_get_errhandler", cxx = "Comm::Get_errhandler", sec = "MPI-2.2 §8.3.1",
  seeds = false, errors = {COMM},
  does = "The communicator's error handler: \"errors_raise\", \"errors_return\", "
    .. "\"errors_are_fatal\" or the user-defined errhandler (== the one set).",
  see = {"Comm.set_errhandler"}})
method("Comm", "call_errhandler", {call = "comm:call_errhandler(code)",
  mpi = "MPI_Comm_call_errhandler", cxx = "Comm::Call_errhandler", sec = "MPI-3.1 §8.3.6",
  seeds = false, errors = {COMM, {"MPI_ERR_ARG", "code is not an error code other than 0"}},
  does = "Delivers an error of code on comm as a failing call would: a user handler is "
    .. "called with (comm, code) and the call returns nil, err; ERRORS_RETURN returns nil, "
    .. "err; ERRORS_RAISE raises; ERRORS_ARE_FATAL aborts.",
  see = {"mpi.comm_create_errhandler", "mpi.add_error_code"}})
method("Comm", "abort", {call = "comm:abort([errorcode])", mpi = "MPI_Abort",
  cxx = "Comm::Abort", sec = "MPI-2.2 §8.7", seeds = false, errors = {COMM, ARG},
  does = "Ends every process of the job; errorcode (default 1) becomes lumpi's exit status. "
    .. "Does not return."})
method("Comm", "set_attr", {call = "comm:set_attr(kv, value)", mpi = "MPI_Comm_set_attr",
  cxx = "Comm::Set_attr", sec = "§6.7.2",
  errors = {COMM, KEYVAL, {"MPI_ERR_KEYVAL", "kv is predefined (read-only)"},
    {"(class of the error)", "the delete callback of the value being replaced raised"}},
  does = "Attaches value (any Lua value) to comm under kv; replacing a value runs the old "
    .. "value's delete callback first.",
  see = {"Comm.get_attr", "Comm.delete_attr", "mpi.comm_create_keyval"}})
method("Comm", "get_attr", {call = "comm:get_attr(kv) -> value, found",
  mpi = "MPI_Comm_get_attr", cxx = "Comm::Get_attr", sec = "§6.7.2", errors = {COMM, KEYVAL},
  does = "The value attached under kv and true, or nil, false when none is. The "
    .. "predefined mpi.TAG_UB, mpi.HOST, mpi.IO and mpi.WTIME_IS_GLOBAL are found on every "
    .. "communicator.", see = {"Comm.set_attr", "mpi.TAG_UB"}})
method("Comm", "delete_attr", {call = "comm:delete_attr(kv)", mpi = "MPI_Comm_delete_attr",
  cxx = "Comm::Delete_attr", sec = "§6.7.2",
  errors = {COMM, KEYVAL, {"MPI_ERR_KEYVAL", "kv is predefined"},
    {"(class of the error)", "the delete callback raised (the attribute stays)"}},
  does = "Removes the attribute, running its delete callback; nothing attached is a no-op.",
  see = {"Comm.set_attr"}})

-- Communicator constructors on both kinds (C++: Intracomm:: and Intercomm::)
method("Comm", "dup", {call = "comm:dup() -> newcomm", mpi = "MPI_Comm_dup",
  cxx = "Intracomm::Dup, Intercomm::Dup, Cartcomm::Dup ...", sec = "§6.4.2",
  kind = "collective",
  errors = errs({{"(class of the error)", "a copy callback raised (nothing is created)"}},
    BLOCKING),
  does = "A new communicator with the same group(s), topology and hints but a new context, "
    .. "so its traffic never mixes with comm's. Attributes are copied by their keyvals' "
    .. "copy callbacks; the name is not copied.",
  see = {"Comm.idup", "Comm.dup_with_info", "Comm.free"}})
method("Comm", "dup_with_info", {call = "comm:dup_with_info(info) -> newcomm",
  mpi = "MPI_Comm_dup_with_info", sec = "§6.4.2", kind = "collective",
  errors = errs({{"MPI_ERR_INFO", "info is not a table of strings"},
    {"(class of the error)", "a copy callback raised"}}, BLOCKING),
  does = "As dup, with the hints of info in place of comm's.", see = {"Comm.dup", "Info"}})
method("Comm", "idup", {call = "comm:idup() -> newcomm, request", mpi = "MPI_Comm_idup",
  sec = "§6.4.2", kind = "nonblocking collective",
  errors = {COMM, {"(class of the error)", "a copy callback raised (at the call, before "
    .. "anything is sent)"}},
  does = "Starts a dup. newcomm is returned at once but usable only once request has "
    .. "completed (until then its methods raise MPI_ERR_COMM); attributes are copied at the "
    .. "call.", see = {"Comm.dup", "Request.wait"}})
method("Comm", "idup_with_info", {call = "comm:idup_with_info(info) -> newcomm, request",
  mpi = "MPI_Comm_idup_with_info", sec = "§6.4.2", kind = "nonblocking collective",
  errors = {COMM, {"MPI_ERR_INFO", "info is not a table of strings"}},
  does = "As idup, with the hints of info (read at the call).", see = {"Comm.idup"}})
method("Comm", "create", {call = "comm:create(group) -> newcomm | nil",
  mpi = "MPI_Comm_create", cxx = "Intracomm::Create, Intercomm::Create", sec = "§6.4.2",
  kind = "collective",
  errors = errs({GROUP, {"MPI_ERR_GROUP", "group is not a subset of comm's group, or the "
    .. "processes passed different groups that overlap (every process raises it, naming the "
    .. "rank)"}}, BLOCKING),
  does = "A communicator for the members of group (every process of comm calls it; "
    .. "non-members get nil). On an intracommunicator the processes may pass disjoint "
    .. "groups, one communicator each. On an intercommunicator each side passes a subgroup "
    .. "of its local group and gets an intercommunicator between the two (nil if either "
    .. "is empty).", see = {"Intracomm.create_group", "Comm.split"}})
method("Comm", "split", {call = "comm:split(color [, key]) -> newcomm | nil",
  mpi = "MPI_Comm_split", cxx = "Intracomm::Split, Intercomm::Split", sec = "§6.4.2",
  kind = "collective",
  errors = errs({{"MPI_ERR_ARG", "color is negative and not mpi.UNDEFINED, or not an "
    .. "integer"}}, BLOCKING),
  does = "Partitions comm: one new communicator per color, holding the processes that "
    .. "passed it, ranked by key (default 0), ties by their rank in comm. color nil or "
    .. "mpi.UNDEFINED gives nil. On an intercommunicator the result joins the processes of "
    .. "both sides with the same color (nil if a side has none).",
  see = {"Intracomm.split_type", "Comm.create"}})
method("Comm", "free", {call = "comm:free()", mpi = "MPI_Comm_free", cxx = "Comm::Free",
  sec = "§6.4.3", kind = "collective",
  errors = {COMM, {"MPI_ERR_COMM", "comm is COMM_WORLD or COMM_SELF"},
    {"(class of the error)", "a delete callback raised (comm stays alive)"}},
  does = "Runs the delete callbacks of comm's attributes, then turns every reference to "
    .. "comm into a freed handle (any later use raises MPI_ERR_COMM). Garbage collection "
    .. "never frees a communicator for you.", see = {"Comm.dup"}})

-- Point-to-point
method("Comm", "send", {call = "comm:send(value, dest [, tag]) | comm:send(buf, count, "
  .. "datatype, dest [, tag])", mpi = "MPI_Send",
  cxx = "Comm::Send", sec = "MPI-2.2 §3.2.1", seeds = false, kind = "blocking",
  errors = errs({COMM, RANK_DEST, TAG_SEND, TYPE, ARG}, TYPED),
  does = "Sends value to rank dest (tag default 0). value may be nil, a boolean, a number "
    .. "(integer and float kept apart), a string (binary-safe) or a table of these, nested, "
    .. "without cycles. The value is copied at the call, so send returns at once "
    .. "(buffered); messages between a pair on one communicator never overtake. "
    .. "dest mpi.PROC_NULL does nothing. Typed: MPI's (buf, count, datatype), buf an "
    .. "mpi.buffer and datatype any committed type; the bytes it selects travel packed, with "
    .. "no header, and must be received typed, into a datatype of the same type signature "
    .. "(MPI-3.1 §3.3.1; a mismatch is not detected).",
  see = {"Comm.recv", "Comm.ssend", "Comm.isend", "Comm.sendrecv", "mpi.buffer"}})
method("Comm", "ssend", {call = "comm:ssend(value, dest [, tag]) | comm:ssend(buf, count, "
  .. "datatype, dest [, tag])", mpi = "MPI_Ssend",
  cxx = "Comm::Ssend", sec = "MPI-2.2 §3.4", seeds = false, kind = "blocking",
  errors = errs({COMM, RANK_DEST, TAG_SEND, TYPE, ARG}, errs(TYPED, {INTR, DEAD})),
  does = "As send, but returns only once the receiver has matched the message "
    .. "(synchronous mode): two processes that ssend to each other first deadlock.",
  see = {"Comm.send", "Comm.issend"}})
method("Comm", "isend", {call = "comm:isend(value, dest [, tag]) -> request | "
  .. "comm:isend(buf, count, datatype, dest [, tag]) -> request",
  mpi = "MPI_Isend", cxx = "Comm::Isend", sec = "MPI-2.2 §3.7.2", seeds = false,
  kind = "nonblocking", errors = errs({COMM, RANK_DEST, TAG_SEND, TYPE, ARG}, TYPED),
  does = "Starts a send and returns its request; complete it with request:wait() or "
    .. "mpi.waitall. The message (value, or the bytes datatype selects from buf) is copied at "
    .. "the call.", see = {"Comm.send", "Comm.send_init", "Request.wait"}})
method("Comm", "issend", {call = "comm:issend(value, dest [, tag]) -> request | "
  .. "comm:issend(buf, count, datatype, dest [, tag]) -> request",
  mpi = "MPI_Issend", cxx = "Comm::Issend", sec = "MPI-2.2 §3.7.2", seeds = false,
  kind = "nonblocking", errors = errs({COMM, RANK_DEST, TAG_SEND, TYPE, ARG}, TYPED),
  does = "Starts a synchronous send: its request completes once the receiver has matched "
    .. "the message.", see = {"Comm.ssend", "Request.test"}})
method("Comm", "recv", {call = "comm:recv([source [, tag]]) -> value, status | "
  .. "comm:recv(buf, count, datatype [, source [, tag]]) -> buf, status",
  mpi = "MPI_Recv", cxx = "Comm::Recv", sec = "MPI-2.2 §3.2.4", seeds = false,
  kind = "blocking", errors = errs({COMM, RANK_SRC, TAG_RECV, ARG}, errs(TYPED,
    {TRUNCATE, INTR, DEAD})),
  does = "Waits for a message from source (default mpi.ANY_SOURCE) with tag (default "
    .. "mpi.ANY_TAG) and returns its value and status {source=, tag=, error=}. From "
    .. "mpi.PROC_NULL: nil at once. Typed: the message's bytes are scattered into the "
    .. "mpi.buffer buf through datatype (up to count elements) and buf is returned; "
    .. "status:get_count(datatype) says how many arrived. From mpi.PROC_NULL buf is left as "
    .. "it was.", see = {"Comm.send", "Comm.irecv", "Status", "Status.get_count"}})
method("Comm", "irecv", {call = "comm:irecv([source [, tag]]) -> request | "
  .. "comm:irecv(buf, count, datatype [, source [, tag]]) -> request",
  mpi = "MPI_Irecv", cxx = "Comm::Irecv", sec = "MPI-2.2 §3.7.2", seeds = false,
  kind = "nonblocking", errors = errs({COMM, RANK_SRC, TAG_RECV, ARG}, TYPED),
  does = "Posts a receive and returns its request; request:wait() returns value, status "
    .. "(typed: buf, status, buf filled at completion; a message longer than count elements "
    .. "makes the completion raise MPI_ERR_TRUNCATE).",
  see = {"Comm.recv", "Comm.recv_init", "Request.wait", "Request.cancel"}})
-- Persistent requests (MPI-3.1 §3.9): made inactive, begun by request:start().
local INIT_DOES = " The arguments are checked now, as isend checks them; nothing is sent "
  .. "until request:start() (or mpi.startall), which sends the message as it is then: the "
  .. "elements buf holds, or value (a table is read again at each start, other values are "
  .. "fixed). Complete each start with request:wait() or the any/all/some calls; the "
  .. "request then turns inactive and can start again, until request:free()."
local function send_init(name, mpi_name, cxx, does, see)
  method("Comm", name, {call = "comm:" .. name .. "(value, dest [, tag]) -> request | comm:"
    .. name .. "(buf, count, datatype, dest [, tag]) -> request", mpi = mpi_name, cxx = cxx,
    sec = "MPI-3.1 §3.9", seeds = false,
    errors = errs({COMM, RANK_DEST, TAG_SEND, TYPE, ARG}, TYPED),
    does = does .. INIT_DOES, see = see})
end
send_init("send_init", "MPI_Send_init", "Comm::Send_init", "A persistent request for a "
  .. "standard send of value (or of count elements of datatype from buf) to dest with tag "
  .. "(default 0).", {"Request.start", "mpi.startall", "Comm.recv_init", "Comm.isend"})
send_init("bsend_init", "MPI_Bsend_init", "Comm::Bsend_init", "A persistent request for a "
  .. "buffered send. lumpi buffers every send itself (sends are eager: the message is copied "
  .. "out at the start and each start's request completes at once), so Lua needs no "
  .. "attached buffer and never runs out of room.",
  {"Comm.send_init", "Request.start"})
send_init("ssend_init", "MPI_Ssend_init", "Comm::Ssend_init", "A persistent request for a "
  .. "synchronous send: each start completes once the receiver has matched its message.",
  {"Comm.send_init", "Comm.issend", "Request.start"})
send_init("rsend_init", "MPI_Rsend_init", "Comm::Rsend_init", "A persistent request for a "
  .. "ready send, which lumpi makes a standard send (MPI-3.1 §3.4 allows it: a correct "
  .. "ready-mode program, whose receive is always posted first, behaves the same).",
  {"Comm.send_init", "Request.start"})
method("Comm", "recv_init", {call = "comm:recv_init([source [, tag]]) -> request | "
  .. "comm:recv_init(buf, count, datatype [, source [, tag]]) -> request",
  mpi = "MPI_Recv_init", cxx = "Comm::Recv_init", sec = "MPI-3.1 §3.9", seeds = false,
  errors = errs({COMM, RANK_SRC, TAG_RECV, ARG}, TYPED),
  does = "A persistent request for a receive from source (default mpi.ANY_SOURCE) with tag "
    .. "(default mpi.ANY_TAG), checked now. Each request:start() posts one receive; its "
    .. "completion returns value, status as irecv's does (typed: buf, status, the message's "
    .. "elements unpacked into buf; a message longer than count elements makes the "
    .. "completion raise MPI_ERR_TRUNCATE). The request then turns inactive and can start "
    .. "again.",
  see = {"Request.start", "mpi.startall", "Comm.send_init", "Comm.irecv"}})
method("Comm", "sendrecv", {call = "comm:sendrecv(value, dest, sendtag [, source [, "
  .. "recvtag]]) -> value, status | comm:sendrecv(sbuf, scount, stype, dest, sendtag, rbuf, "
  .. "rcount, rtype [, source [, recvtag]]) -> rbuf, status", mpi = "MPI_Sendrecv",
  cxx = "Comm::Sendrecv", sec = "MPI-2.2 §3.10", seeds = false, kind = "blocking",
  errors = errs({COMM, RANK_DEST, RANK_SRC, TAG_SEND, TAG_RECV, TYPE, ARG}, errs(TYPED,
    {TRUNCATE, INTR, DEAD})),
  does = "Sends value to dest and receives from source (default mpi.ANY_SOURCE, recvtag "
    .. "default mpi.ANY_TAG) in one call, so a ring of sendrecv cannot deadlock. Returns the "
    .. "received value and status. Typed (sbuf an mpi.buffer): MPI's whole argument list, "
    .. "both halves typed; rbuf must be a buffer too (else MPI_ERR_BUFFER).",
  see = {"Comm.send", "Comm.recv", "Cartcomm.cart_shift"}})
method("Comm", "probe", {call = "comm:probe([source [, tag]]) -> status", mpi = "MPI_Probe",
  cxx = "Comm::Probe", sec = "MPI-2.2 §3.8", seeds = false, kind = "blocking",
  errors = {COMM, RANK_SRC, TAG_RECV, ARG, INTR, DEAD},
  does = "Waits until a matching message has arrived and returns its status without "
    .. "receiving it; status:get_count(datatype) then sizes the receive's buffer.",
  see = {"Comm.iprobe", "Comm.recv", "Status.get_count"}})
method("Comm", "iprobe", {call = "comm:iprobe([source [, tag]]) -> false | true, status",
  mpi = "MPI_Iprobe", cxx = "Comm::Iprobe", sec = "MPI-2.2 §3.8", seeds = false,
  errors = {COMM, RANK_SRC, TAG_RECV, ARG},
  does = "Whether a matching message has arrived, without waiting; if so also its status.",
  see = {"Comm.probe"}})

-- Collectives (C++: declared on Comm, MPI defines them on both kinds)
local COLL = {COMM, ARG, INTR, DEAD, OTHERS, IN_OP}
method("Comm", "barrier", {call = "comm:barrier()", mpi = "MPI_Barrier", cxx = "Comm::Barrier",
  sec = "MPI-2.2 §5.3", seeds = false, kind = "collective", errors = COLL,
  does = "Returns once every process of comm (of both groups of an intercommunicator) has "
    .. "called it."})
method("Comm", "bcast", {call = "comm:bcast(value, root) -> value", mpi = "MPI_Bcast",
  cxx = "Comm::Bcast", sec = "MPI-2.2 §5.4", seeds = false, kind = "collective",
  errors = errs({ROOT, TYPE}, COLL),
  does = "root's value, returned on every process (the others' value argument is ignored). "
    .. "On an intercommunicator the root passes mpi.ROOT, its group's other processes "
    .. "mpi.PROC_NULL (both get nil), and the remote group passes the root's rank.",
  see = {"Comm.scatter", "mpi.ROOT"}})
method("Comm", "gather", {call = "comm:gather(value, root) -> values | nil",
  mpi = "MPI_Gather", cxx = "Comm::Gather", sec = "MPI-2.2 §5.5", seeds = false,
  kind = "collective", errors = errs({ROOT, TYPE}, COLL),
  does = "At root, the sequence of every process's value in rank order (values[i+1] from "
    .. "rank i); nil elsewhere. Values may differ in size (there is no gatherv).",
  see = {"Comm.allgather", "Comm.scatter"}})
method("Comm", "scatter", {call = "comm:scatter(values, root) -> value", mpi = "MPI_Scatter",
  cxx = "Comm::Scatter", sec = "MPI-2.2 §5.6", seeds = false, kind = "collective",
  errors = errs({ROOT, {"MPI_ERR_COUNT", "root's values does not have one element per "
    .. "rank"}, TYPE}, COLL),
  does = "root's values[i+1] arrives at rank i (values is only read at root).",
  see = {"Comm.gather", "Comm.bcast"}})
method("Comm", "allgather", {call = "comm:allgather(value) -> values",
  mpi = "MPI_Allgather", cxx = "Comm::Allgather", sec = "MPI-2.2 §5.7", seeds = false,
  kind = "collective", errors = errs({TYPE}, COLL),
  does = "Every process gets the sequence of every process's value in rank order (on an "
    .. "intercommunicator: the remote group's values).", see = {"Comm.gather"}})
method("Comm", "alltoall", {call = "comm:alltoall(values) -> values", mpi = "MPI_Alltoall",
  cxx = "Comm::Alltoall", sec = "MPI-2.2 §5.8", seeds = false, kind = "collective",
  errors = errs({{"MPI_ERR_COUNT", "values does not have one element per rank (of the "
    .. "remote group on an intercommunicator)"}, TYPE}, COLL),
  does = "values[j+1] goes to rank j; the result's element j+1 is what rank j sent to the "
    .. "caller.", see = {"Comm.allgather", "Cartcomm.neighbor_alltoall"}})
method("Comm", "reduce", {call = "comm:reduce(value, op, root) -> result | nil",
  mpi = "MPI_Reduce", cxx = "Comm::Reduce", sec = "MPI-2.2 §5.9.1", seeds = false,
  kind = "collective", errors = errs({ROOT, OP, OPERANDS, USER_OP}, COLL),
  does = "At root, value(rank 0) ∘ value(rank 1) ∘ ... with op; nil elsewhere. Operands: "
    .. "numbers or sequences of numbers (element-wise), booleans for LAND/LOR/LXOR, integers "
    .. "for BAND/BOR/BXOR, {value, index} pairs for MAXLOC/MINLOC, anything a user op "
    .. "takes. Non-commutative ops combine in rank order.",
  see = {"Comm.allreduce", "mpi.SUM", "mpi.op_create"}})
method("Comm", "allreduce", {call = "comm:allreduce(value, op) -> result",
  mpi = "MPI_Allreduce", cxx = "Comm::Allreduce", sec = "MPI-2.2 §5.9.6", seeds = false,
  kind = "collective", errors = errs({OP, OPERANDS, USER_OP}, COLL),
  does = "The reduction of every process's value, returned everywhere (on an "
    .. "intercommunicator: the reduction of the remote group's values).",
  see = {"Comm.reduce", "Intracomm.scan"}})
method("Comm", "reduce_scatter_block", {call = "comm:reduce_scatter_block(values, op) -> "
  .. "block", mpi = "MPI_Reduce_scatter_block", cxx = "Comm::Reduce_scatter_block",
  sec = "MPI-2.2 §5.10.1 (seed 002)", kind = "collective",
  errors = errs({OP, {"MPI_ERR_COUNT", "values does not have one block per rank, or blocks "
    .. "differ in length"}, OPERANDS, USER_OP}, COLL),
  does = "values is a sequence of size blocks (a number or a sequence each, all the same "
    .. "length); block i+1 is reduced over all processes and returned at rank i.",
  see = {"Comm.reduce_scatter"}})
method("Comm", "reduce_scatter", {call = "comm:reduce_scatter(values, counts, op) -> "
  .. "sequence", mpi = "MPI_Reduce_scatter", cxx = "Comm::Reduce_scatter",
  sec = "MPI-2.2 §5.10.2 (seed 002)", kind = "collective",
  errors = errs({OP, {"MPI_ERR_COUNT", "counts does not have one non-negative entry per "
    .. "rank, values does not hold sum(counts) elements, or the processes passed different "
    .. "counts (every process raises it, naming two ranks that differ)"}, OPERANDS, USER_OP}, COLL),
  does = "values is a flat sequence of sum(counts) elements, reduced element by element "
    .. "over all processes; rank i gets the counts[i+1] elements of its slice, as a "
    .. "sequence.", see = {"Comm.reduce_scatter_block"}})

-- Nonblocking collectives (lua/bind_nbc.cpp) ---------------------------------------------------

local NBC_DOES = " Returns a request at once; request:wait() (or mpi.waitall ...) returns the "
  .. "result the blocking form returns, and a status. Collectives on a communicator match "
  .. "in the order they are started and never match blocking ones or point-to-point "
  .. "messages; any number may be pending; a rank blocked in another call still does its part."
local NBC = {COMM, ARG, OTHERS, IN_OP}
local function nbc(class, name, call, mpi_name, cxx, blocking, errors, does)
  method(class, name, {call = call, mpi = mpi_name, cxx = cxx, sec = "MPI-3.1 §5.12",
    seeds = false, kind = "collective (nonblocking)", errors = errs(errors, NBC),
    does = does .. NBC_DOES, see = {class .. "." .. blocking, "Request.wait", "mpi.waitall"}})
end
nbc("Comm", "ibarrier", "comm:ibarrier() -> request", "MPI_Ibarrier", "Comm::Ibarrier",
  "barrier", {}, "Nonblocking barrier: completes once every process (of both groups on an "
  .. "intercommunicator) has started it; the value is nil.")
nbc("Comm", "ibcast", "comm:ibcast(value, root) -> request", "MPI_Ibcast", "Comm::Ibcast",
  "bcast", {ROOT, TYPE}, "Nonblocking bcast: the value is root's value (nil in the root's "
  .. "group of an intercommunicator).")
nbc("Comm", "igather", "comm:igather(value, root) -> request", "MPI_Igather", "Comm::Igather",
  "gather", {ROOT, TYPE}, "Nonblocking gather: the value is the sequence of every rank's "
  .. "value at root, nil elsewhere.")
nbc("Comm", "iscatter", "comm:iscatter(values, root) -> request", "MPI_Iscatter",
  "Comm::Iscatter", "scatter", {ROOT, TYPE, {"MPI_ERR_COUNT", "values at root does not have "
  .. "one element per rank"}}, "Nonblocking scatter: the value is root's values[rank+1].")
nbc("Comm", "iallgather", "comm:iallgather(value) -> request", "MPI_Iallgather",
  "Comm::Iallgather", "allgather", {TYPE}, "Nonblocking allgather: the value is the "
  .. "sequence of every rank's value (the remote group's on an intercommunicator).")
nbc("Comm", "ialltoall", "comm:ialltoall(values) -> request", "MPI_Ialltoall",
  "Comm::Ialltoall", "alltoall", {TYPE, {"MPI_ERR_COUNT", "values does not have one element "
  .. "per rank"}}, "Nonblocking alltoall: the value is the sequence whose element j is "
  .. "rank j's values[rank+1].")
nbc("Comm", "ireduce", "comm:ireduce(value, op, root) -> request", "MPI_Ireduce",
  "Comm::Ireduce", "reduce", {ROOT, OP, OPERANDS, USER_OP}, "Nonblocking reduce: the value "
  .. "is the reduction in rank order at root, nil elsewhere.")
nbc("Comm", "iallreduce", "comm:iallreduce(value, op) -> request", "MPI_Iallreduce",
  "Comm::Iallreduce", "allreduce", {OP, OPERANDS, USER_OP}, "Nonblocking allreduce: the "
  .. "value is the reduction of every process's value (the remote group's on an "
  .. "intercommunicator).")
nbc("Intracomm", "iscan", "comm:iscan(value, op) -> request", "MPI_Iscan", "Intracomm::Iscan",
  "scan", {INTRA_ONLY, OP, OPERANDS, USER_OP}, "Nonblocking scan: rank i's value is "
  .. "value(0) ∘ ... ∘ value(i).")
nbc("Intracomm", "iexscan", "comm:iexscan(value, op) -> request", "MPI_Iexscan",
  "Intracomm::Iexscan", "exscan", {INTRA_ONLY, OP, OPERANDS, USER_OP}, "Nonblocking exscan: "
  .. "rank i's value is value(0) ∘ ... ∘ value(i-1), nil on rank 0.")

-- Intracomm -----------------------------------------------------------------------------------

method("Intracomm", "scan", {call = "comm:scan(value, op) -> result", mpi = "MPI_Scan",
  cxx = "Intracomm::Scan", sec = "MPI-2.2 §5.11.1", seeds = false, kind = "collective",
  errors = errs({INTRA_ONLY, OP, OPERANDS, USER_OP}, COLL),
  does = "Inclusive prefix reduction: rank i gets value(0) ∘ ... ∘ value(i).",
  see = {"Intracomm.exscan", "Comm.allreduce"}})
method("Intracomm", "exscan", {call = "comm:exscan(value, op) -> result | nil",
  mpi = "MPI_Exscan", cxx = "Intracomm::Exscan", sec = "MPI-2.2 §5.11.2", seeds = false,
  kind = "collective", errors = errs({INTRA_ONLY, OP, OPERANDS, USER_OP}, COLL),
  does = "Exclusive prefix reduction: rank i gets value(0) ∘ ... ∘ value(i-1); nil on "
    .. "rank 0.", see = {"Intracomm.scan"}})
method("Intracomm", "create_group", {call = "comm:create_group(group [, tag]) -> newcomm | "
  .. "nil", mpi = "MPI_Comm_create_group", sec = "§6.4.2", kind = "collective over group",
  errors = errs({INTRA_ONLY, GROUP, {"MPI_ERR_GROUP", "group is not a subset of comm's "
    .. "group, or its members passed different groups"}, {"MPI_ERR_TAG", "tag is "
    .. "mpi.ANY_TAG or outside 0..TAG_UB"}}, BLOCKING),
  does = "A communicator for group, made by its members only (tag default 0 tells "
    .. "concurrent calls apart); a process outside group gets nil at once.",
  see = {"Comm.create"}})
method("Intracomm", "split_type", {call = "comm:split_type(type [, key [, info]]) -> "
  .. "newcomm | nil", mpi = "MPI_Comm_split_type", cxx = "Intracomm::Split_type", sec = "§6.4.2",
  kind = "collective",
  errors = errs({INTRA_ONLY, {"MPI_ERR_ARG", "unknown type, or the processes passed "
    .. "different types"}, {"MPI_ERR_INFO", "info is not a table of strings"}}, BLOCKING),
  does = "Splits comm by hardware: type \"shared\" (mpi.COMM_TYPE_SHARED) groups the "
    .. "processes of each host; \"hw_guided\" groups them by the resource in "
    .. "info.mpi_hw_resource_type (\"Package\", \"NUMANode\", \"L3Cache\", \"L2Cache\", "
    .. "\"Core\", \"PU\"); \"hw_domain\" (the seed's) gives strict subsets, at the level in "
    .. "info.mpi_hw_domain_type or the coarsest that splits, nil when none is left. Ranks by key "
    .. "(default 0), then by rank in comm. type nil or mpi.UNDEFINED gives nil.",
  see = {"Comm.split", "mpi.hw"}})
method("Intracomm", "intercomm_create", {call = "comm:intercomm_create(local_leader, "
  .. "peer_comm, remote_leader, tag) -> intercomm", mpi = "MPI_Intercomm_create",
  cxx = "Intracomm::Create_intercomm", sec = "§6.6.2", kind = "collective",
  errors = errs({INTRA_ONLY, {"MPI_ERR_RANK", "local_leader is not a rank of comm; "
    .. "remote_leader (read at the leader) is not a rank of peer_comm, is the leader itself "
    .. "or a member of comm: every rank of comm raises the leader's error, naming it"},
    {"MPI_ERR_TAG", "tag outside 0..TAG_UB"}, {"MPI_ERR_COMM", "peer_comm (read at the "
    .. "leader) is not a communicator, raised on every rank of comm; the two groups overlap"}},
    BLOCKING),
  does = "Joins comm (this side's group) with another disjoint group into an "
    .. "intercommunicator. The two leaders talk over peer_comm (which must contain both; "
    .. "only read at the local leader) with tag.",
  see = {"Intercomm", "Intercomm.intercomm_merge"}})
method("Intracomm", "cart_create", {call = "comm:cart_create(dims [, periods [, reorder]])"
  .. " -> cartcomm | nil", mpi = "MPI_Cart_create", cxx = "Intracomm::Create_cart",
  sec = "§7.5.1", kind = "collective",
  errors = errs({INTRA_ONLY, {"MPI_ERR_DIMS", "an extent is not positive"},
    {"MPI_ERR_ARG", "the grid has more cells than comm has processes, or periods has "
      .. "another length than dims"}}, BLOCKING),
  does = "A communicator with a Cartesian grid: dims[i+1] is the extent of dimension i, "
    .. "periods (default all false) says which dimensions wrap around; reorder (default "
    .. "false) lets ranks be renumbered. Processes beyond the grid get nil. dims {} makes a "
    .. "zero-dimensional grid of one process.",
  see = {"mpi.dims_create", "Cartcomm", "Cartcomm.cart_shift"}})
method("Intracomm", "graph_create", {call = "comm:graph_create(index, edges [, reorder]) -> "
  .. "graphcomm | nil", mpi = "MPI_Graph_create", cxx = "Intracomm::Create_graph",
  sec = "§7.5.3", kind = "collective",
  errors = errs({INTRA_ONLY, {"MPI_ERR_ARG", "more nodes than processes, index not "
    .. "non-decreasing or negative, edges of another length than index's last entry, an "
    .. "edge naming no node"}}, BLOCKING),
  does = "A communicator with a general graph of #index nodes: the neighbours of node i "
    .. "are edges[index[i]+1 .. index[i+1]] (index holds cumulative degrees, as in C; "
    .. "edges are 0-based node numbers). Processes beyond the nodes get nil.",
  see = {"Graphcomm", "Graphcomm.graph_neighbors"}})
method("Intracomm", "dist_graph_create_adjacent", {call = "comm:dist_graph_create_adjacent("
  .. "sources, destinations [, opts]) -> distgraphcomm", mpi = "MPI_Dist_graph_create_adjacent",
  cxx = "Intracomm::Dist_graph_create_adjacent", sec = "§7.5.4", kind = "collective",
  errors = errs({INTRA_ONLY, {"MPI_ERR_RANK", "a source or destination is not a rank of "
    .. "comm"}, {"MPI_ERR_ARG", "weights of the wrong length, one of sourceweights/"
    .. "destweights given without the other, an unknown option, or an edge listed by only one "
    .. "of its ends"}, {"MPI_ERR_INFO", "opts.info is not a table of strings"}}, BLOCKING),
  does = "A distributed graph where each process names its own in-neighbours (sources) "
    .. "and out-neighbours (destinations). opts = {sourceweights=, destweights=, info=, "
    .. "reorder=}; weights left out or mpi.UNWEIGHTED make an unweighted graph, "
    .. "mpi.WEIGHTS_EMPTY a weighted one with no edges here.",
  see = {"Intracomm.dist_graph_create", "Distgraphcomm"}})
method("Intracomm", "dist_graph_create", {call = "comm:dist_graph_create(sources, degrees, "
  .. "destinations [, opts]) -> distgraphcomm", mpi = "MPI_Dist_graph_create",
  cxx = "Intracomm::Dist_graph_create", sec = "§7.5.4", kind = "collective",
  errors = errs({INTRA_ONLY, {"MPI_ERR_RANK", "a node is not a rank of comm"},
    {"MPI_ERR_ARG", "degrees of another length than sources, a negative degree, "
      .. "destinations or weights of the wrong length, an unknown option, processes "
      .. "disagreeing on weighted/unweighted"}, {"MPI_ERR_INFO", "opts.info is not a table "
      .. "of strings"}}, BLOCKING),
  does = "A distributed graph where any process may name any edges: for each i, the edges "
    .. "from sources[i] to the next degrees[i] entries of destinations. opts = {weights=, "
    .. "info=, reorder=}.", see = {"Intracomm.dist_graph_create_adjacent", "Distgraphcomm"}})
method("Intracomm", "cart_map", {call = "comm:cart_map(dims [, periods]) -> newrank",
  mpi = "MPI_Cart_map", cxx = "Cartcomm::Map", sec = "§7.5.8",
  errors = {COMM, {"MPI_ERR_DIMS", "an extent is not positive, or the grid has more "
    .. "cells than comm has processes"}, ARG},
  does = "The rank the calling process would have in such a grid (its rank in comm: no "
    .. "reordering), or mpi.UNDEFINED if it lies beyond the grid. Local.",
  see = {"Intracomm.cart_create"}})
method("Intracomm", "graph_map", {call = "comm:graph_map(index, edges) -> newrank",
  mpi = "MPI_Graph_map", cxx = "Graphcomm::Map", sec = "§7.5.8",
  errors = {COMM, {"MPI_ERR_ARG", "the graph is malformed or larger than comm"}},
  does = "The rank the calling process would have in such a graph, or mpi.UNDEFINED. "
    .. "Local.", see = {"Intracomm.graph_create"}})
-- Intercomm -----------------------------------------------------------------------------------

method("Intercomm", "remote_size", {call = "comm:remote_size() -> size",
  mpi = "MPI_Comm_remote_size", cxx = "Intercomm::Get_remote_size", sec = "§6.6.1",
  errors = {COMM, INTER_ONLY}, does = "The number of processes in the remote group.",
  see = {"Intercomm.remote_group", "Comm.size"}})
method("Intercomm", "remote_group", {call = "comm:remote_group() -> group",
  mpi = "MPI_Comm_remote_group", cxx = "Intercomm::Get_remote_group", sec = "§6.6.1",
  errors = {COMM, INTER_ONLY}, does = "A new group holding the remote group's processes.",
  see = {"Comm.group"}})
method("Intercomm", "intercomm_merge", {call = "comm:intercomm_merge([high]) -> intracomm",
  mpi = "MPI_Intercomm_merge", cxx = "Intercomm::Merge", sec = "§6.6.2", kind = "collective",
  errors = errs({INTER_ONLY, {"MPI_ERR_ARG", "high differs within a group (every process of "
    .. "both groups raises it, naming the rank)"}}, BLOCKING),
  does = "An intracommunicator of both groups. The group that passes high = true (a "
    .. "boolean, or an integer as in C: 0 is false; default false) is ordered after the "
    .. "other; if both pass the same, the order is arbitrary but consistent.",
  see = {"Intracomm.intercomm_create"}})

-- Cartcomm -------------------------------------------------------------------------------------

method("Cartcomm", "cartdim_get", {call = "comm:cartdim_get() -> ndims",
  mpi = "MPI_Cartdim_get", cxx = "Cartcomm::Get_dim", sec = "§7.5.5", errors = {COMM, TOPO},
  does = "The number of dimensions of the grid.", see = {"Cartcomm.cart_get"}})
method("Cartcomm", "cart_get", {call = "comm:cart_get() -> dims, periods, coords",
  mpi = "MPI_Cart_get", cxx = "Cartcomm::Get_topo", sec = "§7.5.5", errors = {COMM, TOPO},
  does = "The grid's extents, its periodicity (booleans) and the calling process's "
    .. "coordinates (0-based), each a sequence ({} for a zero-dimensional grid).",
  see = {"Cartcomm.cart_coords"}})
method("Cartcomm", "cart_rank", {call = "comm:cart_rank(coords) -> rank",
  mpi = "MPI_Cart_rank", cxx = "Cartcomm::Get_cart_rank", sec = "§7.5.5",
  errors = {COMM, TOPO, {"MPI_ERR_ARG", "coords has the wrong length, or a coordinate is "
    .. "out of range in a non-periodic dimension (periodic ones wrap)"}},
  does = "The rank at coordinates coords (0-based; coords[i+1] for dimension i).",
  see = {"Cartcomm.cart_coords"}})
method("Cartcomm", "cart_coords", {call = "comm:cart_coords(rank) -> coords",
  mpi = "MPI_Cart_coords", cxx = "Cartcomm::Get_coords", sec = "§7.5.5",
  errors = {COMM, TOPO, {"MPI_ERR_RANK", "rank is not a rank of the grid"}},
  does = "The coordinates of rank, a sequence of 0-based numbers.",
  see = {"Cartcomm.cart_rank"}})
method("Cartcomm", "cart_shift", {call = "comm:cart_shift(direction, disp) -> source, dest",
  mpi = "MPI_Cart_shift", cxx = "Cartcomm::Shift", sec = "§7.5.6",
  errors = {COMM, TOPO, {"MPI_ERR_ARG", "direction is not a dimension (any direction of a "
    .. "zero-dimensional grid)"}},
  does = "The ranks to receive from and send to for a shift by disp along dimension "
    .. "direction (0-based): dest is the process disp steps ahead, source disp steps behind; "
    .. "mpi.PROC_NULL past a non-periodic edge. Made for sendrecv.",
  see = {"Comm.sendrecv", "Cartcomm.neighbor_alltoall"}})
method("Cartcomm", "cart_sub", {call = "comm:cart_sub(remain_dims) -> cartcomm",
  mpi = "MPI_Cart_sub", cxx = "Cartcomm::Sub", sec = "§7.5.7", kind = "collective",
  errors = errs({TOPO, {"MPI_ERR_ARG", "remain_dims is missing or has the wrong length"}},
    BLOCKING),
  does = "Cuts the grid into sub-grids: remain_dims (booleans) says which dimensions each "
    .. "sub-grid keeps; returns the caller's sub-grid (keeping none gives a zero-dimensional "
    .. "grid of one process).", see = {"Intracomm.cart_create"}})

-- Graphcomm ------------------------------------------------------------------------------------

method("Graphcomm", "graphdims_get", {call = "comm:graphdims_get() -> nnodes, nedges",
  mpi = "MPI_Graphdims_get", cxx = "Graphcomm::Get_dims", sec = "§7.5.5",
  errors = {COMM, TOPO}, does = "The number of nodes and of edges of the graph.",
  see = {"Graphcomm.graph_get"}})
method("Graphcomm", "graph_get", {call = "comm:graph_get() -> index, edges",
  mpi = "MPI_Graph_get", cxx = "Graphcomm::Get_topo", sec = "§7.5.5", errors = {COMM, TOPO},
  does = "The index and edges the graph was created with.",
  see = {"Intracomm.graph_create"}})
method("Graphcomm", "graph_neighbors_count", {call = "comm:graph_neighbors_count(rank) -> n",
  mpi = "MPI_Graph_neighbors_count", cxx = "Graphcomm::Get_neighbors_count", sec = "§7.5.5",
  errors = {COMM, TOPO, {"MPI_ERR_RANK", "rank is not a node"}},
  does = "The number of neighbours of node rank (an edge listed twice counts twice).",
  see = {"Graphcomm.graph_neighbors"}})
method("Graphcomm", "graph_neighbors", {call = "comm:graph_neighbors(rank) -> neighbors",
  mpi = "MPI_Graph_neighbors", cxx = "Graphcomm::Get_neighbors", sec = "§7.5.5",
  errors = {COMM, TOPO, {"MPI_ERR_RANK", "rank is not a node"}},
  does = "The neighbours of node rank, in edges order.",
  see = {"Graphcomm.graph_neighbors_count"}})

-- Distgraphcomm ---------------------------------------------------------------------------------

method("Distgraphcomm", "dist_graph_neighbors_count", {call = "comm:dist_graph_neighbors_count"
  .. "() -> indegree, outdegree, weighted", mpi = "MPI_Dist_graph_neighbors_count",
  cxx = "Distgraphcomm::Get_dist_neighbors_count", sec = "§7.5.5", errors = {COMM, TOPO},
  does = "The calling process's numbers of in- and out-neighbours, and whether the graph "
    .. "is weighted.", see = {"Distgraphcomm.dist_graph_neighbors"}})
method("Distgraphcomm", "dist_graph_neighbors", {call = "comm:dist_graph_neighbors() -> "
  .. "sources, sourceweights, destinations, destweights", mpi = "MPI_Dist_graph_neighbors",
  cxx = "Distgraphcomm::Get_dist_neighbors", sec = "§7.5.5", errors = {COMM, TOPO},
  does = "The calling process's in-neighbours and out-neighbours with their weights "
    .. "(weights are nil when the graph is unweighted).",
  see = {"Distgraphcomm.dist_graph_neighbors_count"}})

-- The neighbourhood collectives (MPI-3; methods of the three topology classes)

method("Cartcomm", "neighbor_allgather", {call = "comm:neighbor_allgather(value) -> values",
  also = {"Graphcomm", "Distgraphcomm"}, mpi = "MPI_Neighbor_allgather", cxx = "Topocomm::Neighbor_allgather",
  sec = "MPI-3.1 §7.6.1", seeds = false, kind = "collective",
  errors = errs({TOPO, {"MPI_ERR_TOPOLOGY", "a graph topology that is not symmetric"}, TYPE},
    {COMM, ARG, INTR, DEAD}),
  does = "Sends value to every out-neighbour and returns one value per in-neighbour, in "
    .. "MPI-3 order: Cartesian (-1, +1) per dimension, graph in graph_neighbors order, "
    .. "distributed graph in sources order; nil where the neighbour is mpi.PROC_NULL.",
  see = {"Cartcomm.neighbor_alltoall", "Cartcomm.cart_shift"}})
method("Cartcomm", "neighbor_alltoall", {call = "comm:neighbor_alltoall(values) -> values",
  also = {"Graphcomm", "Distgraphcomm"}, mpi = "MPI_Neighbor_alltoall", cxx = "Topocomm::Neighbor_alltoall",
  sec = "MPI-3.1 §7.6.2", seeds = false, kind = "collective",
  errors = errs({TOPO, {"MPI_ERR_ARG", "values has more entries than the process has "
    .. "out-neighbours"}, TYPE}, {COMM, ARG, INTR, DEAD}),
  does = "values[k] goes to out-neighbour k (missing entries are sent as nil); returns one "
    .. "value per in-neighbour, in the order of neighbor_allgather.",
  see = {"Cartcomm.neighbor_allgather"}})
method("Cartcomm", "ineighbor_allgather", {call = "comm:ineighbor_allgather(value) -> request",
  also = {"Graphcomm", "Distgraphcomm"}, mpi = "MPI_Ineighbor_allgather", cxx = "Topocomm::Ineighbor_allgather",
  sec = "MPI-3.1 §7.7.1", seeds = false, kind = "collective (nonblocking)",
  errors = errs({TOPO, {"MPI_ERR_TOPOLOGY", "a graph topology that is not symmetric"}, TYPE}, NBC),
  does = "Nonblocking neighbor_allgather: value goes to every out-neighbour; the request's "
    .. "value is one value per in-neighbour in the order of neighbor_allgather, nil where the "
    .. "neighbour is mpi.PROC_NULL." .. NBC_DOES,
  see = {"Cartcomm.neighbor_allgather", "Request.wait", "mpi.waitall"}})
method("Cartcomm", "ineighbor_alltoall", {call = "comm:ineighbor_alltoall(values) -> request",
  also = {"Graphcomm", "Distgraphcomm"}, mpi = "MPI_Ineighbor_alltoall", cxx = "Topocomm::Ineighbor_alltoall",
  sec = "MPI-3.1 §7.7.2", seeds = false, kind = "collective (nonblocking)",
  errors = errs({TOPO, {"MPI_ERR_ARG", "values has more entries than the process has "
    .. "out-neighbours"}, TYPE}, NBC),
  does = "Nonblocking neighbor_alltoall: values[k] goes to out-neighbour k (missing entries "
    .. "are sent as nil); the request's value is one value per in-neighbour, in the order of "
    .. "neighbor_allgather." .. NBC_DOES,
  see = {"Cartcomm.neighbor_alltoall", "Request.wait", "mpi.waitall"}})

-- Group -----------------------------------------------------------------------------------------

method("Group", "size", {call = "group:size() -> size", mpi = "MPI_Group_size",
  cxx = "Group::Get_size", sec = "§6.3.1", errors = {GROUP},
  does = "The number of members.", see = {"Group.rank"}})
method("Group", "rank", {call = "group:rank() -> rank", mpi = "MPI_Group_rank",
  cxx = "Group::Get_rank", sec = "§6.3.1", errors = {GROUP},
  does = "The calling process's rank in the group, or mpi.UNDEFINED if it is not a member.",
  see = {"Group.size"}})
method("Group", "translate_ranks", {call = "group:translate_ranks(ranks, group2) -> ranks2",
  mpi = "MPI_Group_translate_ranks", cxx = "Group::Translate_ranks", sec = "§6.3.1",
  errors = {GROUP, {"MPI_ERR_RANK", "an entry of ranks is not a rank of group (nor "
    .. "mpi.PROC_NULL)"}, ARG},
  does = "For each rank of group in ranks, the rank of the same process in group2 "
    .. "(mpi.UNDEFINED where it is not a member; mpi.PROC_NULL stays mpi.PROC_NULL).",
  see = {"Group.compare"}})
method("Group", "compare", {call = "group:compare(group2) -> \"ident\" | \"similar\" | "
  .. "\"unequal\"", mpi = "MPI_Group_compare", cxx = "Group::Compare", sec = "§6.3.1",
  errors = {GROUP},
  does = "\"ident\" for the same members in the same order, \"similar\" for the same "
    .. "members in another order, else \"unequal\". g1 == g2 is compare == \"ident\".",
  see = {"Comm.compare"}})
for _, s in ipairs({{"union", "Union", "+", "the members of group, then those of group2 "
      .. "not in group, in their order"},
    {"intersection", "Intersection", "*", "the members of group that are in group2, in "
      .. "group's order"},
    {"difference", "Difference", "-", "the members of group that are not in group2, in "
      .. "group's order"}}) do
  method("Group", s[1], {call = "group:" .. s[1] .. "(group2) -> newgroup   (also group "
    .. s[3] .. " group2)", mpi = "MPI_Group_" .. s[1], cxx = "Group::" .. s[2],
    sec = "§6.3.2", errors = {GROUP},
    does = "A new group of " .. s[4] .. ". An empty result is mpi.GROUP_EMPTY.",
    see = {"Group.incl"}})
end
method("Group", "incl", {call = "group:incl(ranks) -> newgroup", mpi = "MPI_Group_incl",
  cxx = "Group::Incl", sec = "§6.3.2",
  errors = {GROUP, {"MPI_ERR_RANK", "a rank is out of range or repeated"}, ARG},
  does = "A new group of the members at ranks, in the order given (its rank i is group's "
    .. "ranks[i+1]).", see = {"Group.excl", "Group.range_incl"}})
method("Group", "excl", {call = "group:excl(ranks) -> newgroup", mpi = "MPI_Group_excl",
  cxx = "Group::Excl", sec = "§6.3.2",
  errors = {GROUP, {"MPI_ERR_RANK", "a rank is out of range or repeated"}, ARG},
  does = "A new group without the members at ranks, in group's order.",
  see = {"Group.incl"}})
method("Group", "range_incl", {call = "group:range_incl{{first, last [, stride]}, ...} -> "
  .. "newgroup", mpi = "MPI_Group_range_incl", cxx = "Group::Range_incl", sec = "§6.3.2",
  errors = {GROUP, {"MPI_ERR_ARG", "a stride is 0, runs away from last, or a range is not "
    .. "{first, last[, stride]}"}, {"MPI_ERR_RANK", "a computed rank is out of range or "
    .. "repeated"}},
  does = "As incl of the ranks first, first+stride, ... up to last (stride default 1; may "
    .. "be negative), range after range.", see = {"Group.range_excl", "Group.incl"}})
method("Group", "range_excl", {call = "group:range_excl{{first, last [, stride]}, ...} -> "
  .. "newgroup", mpi = "MPI_Group_range_excl", cxx = "Group::Range_excl", sec = "§6.3.2",
  errors = {GROUP, {"MPI_ERR_ARG", "a stride is 0 or runs away from last"},
    {"MPI_ERR_RANK", "a computed rank is out of range or repeated"}},
  does = "As excl of the ranks the ranges describe.", see = {"Group.range_incl"}})
method("Group", "free", {call = "group:free()", mpi = "MPI_Group_free", cxx = "Group::Free",
  sec = "§6.3.3", errors = {GROUP},
  does = "Turns every reference to the group into a freed handle (MPI_ERR_GROUP on use). "
    .. "Freeing mpi.GROUP_EMPTY does nothing.", see = {"Comm.group"}})
method("Group", "members", {call = "group:members() -> world_ranks", mpi = "(lumpi)",
  sec = "§6.3", errors = {GROUP},
  does = "The members as a sequence of COMM_WORLD ranks, in group order (what tostring "
    .. "shows; used by the REPL's drawings).", see = {"Group.translate_ranks"}})

-- Request ----------------------------------------------------------------------------------------

local REQ = {"MPI_ERR_REQUEST", "request is not a request, or was freed (request:free)"}
method("Request", "wait", {call = "request:wait() -> value, status", mpi = "MPI_Wait",
  cxx = "Request::Wait", sec = "MPI-3.1 §3.7.3", seeds = false, kind = "blocking",
  errors = {REQ, {"(class of the operation)", "the operation failed (a persistent request "
    .. "is then inactive)"}, INTR, DEAD},
  does = "Waits for the operation; returns the received value (the buffer of a typed "
    .. "receive, nil for sends and idup) and its status. A completed ordinary request "
    .. "returns the same again. A persistent request turns inactive; an inactive one "
    .. "returns nil and an empty status {source=mpi.ANY_SOURCE, tag=mpi.ANY_TAG, error=0} "
    .. "at once.",
  see = {"Request.test", "Request.get_status", "mpi.waitall"}})
method("Request", "test", {call = "request:test() -> false | true, value, status",
  mpi = "MPI_Test", cxx = "Request::Test", sec = "MPI-3.1 §3.7.3", seeds = false,
  errors = {REQ, {"(class of the operation)", "the operation failed"}},
  does = "Whether the operation is complete, without waiting; if so also its value and "
    .. "status, as request:wait() returns them (an inactive persistent request: true, nil, an "
    .. "empty status).", see = {"Request.wait", "Request.get_status", "mpi.testall"}})
method("Request", "get_status", {call = "request:get_status() -> false | true, status",
  mpi = "MPI_Request_get_status", cxx = "Request::Get_status", sec = "MPI-3.1 §3.7.6",
  seeds = false,
  errors = {REQ, {"(class of the operation)", "the operation failed"}},
  does = "Whether the operation is complete, and if so its status, without completing the "
    .. "request: a persistent request stays active, the any and some calls still return it, "
    .. "and a later wait or test returns its value and status. An inactive persistent "
    .. "request gives true and an empty status (allowed since MPI-2.2; seed 002, change 8).",
  see = {"Request.test", "Request.wait"}})
method("Request", "cancel", {call = "request:cancel() -> cancelled", mpi = "MPI_Cancel",
  cxx = "Request::Cancel", sec = "MPI-3.1 §3.8.4", seeds = false,
  errors = {REQ, {"MPI_ERR_REQUEST", "request is a persistent request that is not active"}},
  does = "Tries to cancel a pending receive; true if it was cancelled (it then completes "
    .. "with value nil and status.cancelled = true), false if it had already matched or is "
    .. "not a receive.", see = {"Request.wait"}})
method("Request", "free", {call = "request:free()", mpi = "MPI_Request_free",
  cxx = "Request::Free", sec = "MPI-3.1 §3.7.3", seeds = false,
  errors = {REQ, {"MPI_ERR_REQUEST", "request belongs to a nonblocking collective or idup "
    .. "(MPI-3.1 §5.12 forbids freeing it)"}},
  does = "Lets go of the request: the handle becomes unusable (every later use raises "
    .. "MPI_ERR_REQUEST), a persistent request can no longer start. An active operation "
    .. "still completes, unattended: a receive still takes its message (a typed one fills "
    .. "its buffer), a synchronous send is still matched; errors it ends in are lost. "
    .. "Nothing then tells when; a reply from the peer can.",
  see = {"Request.wait", "Request.cancel"}})
method("Request", "start", {call = "request:start()", mpi = "MPI_Start",
  cxx = "Prequest::Start", sec = "MPI-3.1 §3.9", seeds = false, kind = "nonblocking",
  errors = {REQ, {"MPI_ERR_REQUEST", "request is not persistent, or is already active "
    .. "(started and not yet completed)"},
    {"MPI_ERR_TYPE", "a send's value has become unsendable (a table that now holds a "
      .. "function ...)"}},
  does = "Starts one operation of a persistent request made by send_init, bsend_init, "
    .. "ssend_init, rsend_init or recv_init, with the arguments given there: a send takes "
    .. "its message as it is now, a receive is posted. The request is active until a wait or "
    .. "test returns its completion.",
  see = {"mpi.startall", "Comm.send_init", "Comm.recv_init", "Request.wait"}})

-- Op ----------------------------------------------------------------------------------------------

method("Op", "commutative", {call = "op:commutative() -> boolean", mpi = "MPI_Op_commutative",
  cxx = "Op::Is_commutative", sec = "MPI-2.2 §5.9.7 (seed 002, Annex B.1 item 12)",
  errors = {{"MPI_ERR_OP", "op is not an op or was freed"}},
  does = "Whether the op is commutative (every predefined op is).",
  see = {"mpi.op_create"}})
method("Op", "free", {call = "op:free()", mpi = "MPI_Op_free", cxx = "Op::Free",
  sec = "MPI-2.2 §5.9.5", seeds = false,
  errors = {{"MPI_ERR_OP", "op was already freed, or is predefined"}},
  does = "Frees a user op (the same as mpi.op_free(op)).", see = {"mpi.op_free"}})

-- Datatype ----------------------------------------------------------------------------------

local TFREED = {"MPI_ERR_TYPE", "t is not a datatype or was freed"}
local TKEYVAL = {"MPI_ERR_KEYVAL", "kv is not a keyval, is mpi.KEYVAL_INVALID, was freed, or "
  .. "was made for communicators (mpi.comm_create_keyval, mpi.TAG_UB ...)"}
local function dmethod(name, t)
  if t.seeds == nil then t.seeds = false end
  return method("Datatype", name, t)
end
dmethod("commit", {call = "t:commit()", mpi = "MPI_Type_commit", cxx = "Datatype::Commit",
  sec = "MPI-3.1 §4.1.9",
  errors = {TFREED, {"MPI_ERR_NO_MEM", "the map flattens into more than 4194304 separate "
    .. "blocks (adjacent blocks merge)"}},
  does = "Makes t usable in communication (the datatype of a send or receive, "
    .. "status:get_count). Committing again does nothing; predefined types are committed. "
    .. "Types built from t do not need t committed.",
  see = {"Datatype.free", "Comm.send"}})
dmethod("free", {call = "t:free()", mpi = "MPI_Type_free", cxx = "Datatype::Free",
  sec = "MPI-3.1 §4.1.9",
  errors = {TFREED, {"MPI_ERR_TYPE", "t is predefined"},
    {"(class of the error)", "a delete callback raised (t stays alive with its remaining "
      .. "attributes)"}},
  does = "Runs the delete callbacks of t's attributes, then turns every reference to t into "
    .. "a freed handle (tostring: datatype (freed)). Types built from t earlier keep working.",
  see = {"Datatype.commit", "mpi.type_create_keyval"}})
dmethod("dup", {call = "t:dup() -> newtype", mpi = "MPI_Type_dup", cxx = "Datatype::Dup",
  sec = "MPI-3.1 §4.1.10",
  errors = {TFREED, {"(class of the error)", "a copy callback raised (no type is returned)"}},
  does = "A new type with t's map and committed state (combiner mpi.COMBINER_DUP). "
    .. "Attributes are copied by their keyvals' copy callbacks; the name is not copied.",
  see = {"Datatype.create_resized", "mpi.TYPE_DUP_FN"}})
dmethod("create_resized", {call = "t:create_resized(lb, extent) -> newtype",
  mpi = "MPI_Type_create_resized", cxx = "Datatype::Create_resized", sec = "MPI-3.1 §4.1.7",
  errors = {TFREED, {"MPI_ERR_ARG", "lb or extent is not an integer"}},
  does = "t with explicit bounds: lower bound lb and upper bound lb + extent (bytes; extent may "
    .. "be negative or 0). Count copies of the result lie extent bytes apart, so "
    .. "mpi.INT:create_resized(0, 8) sends every other int. In types built on it the markers "
    .. "decide the bounds and no alignment rounding applies.",
  see = {"Datatype.get_extent", "mpi.type_contiguous"}})
dmethod("size", {call = "t:size() -> bytes", mpi = "MPI_Type_size", cxx = "Datatype::Get_size",
  sec = "MPI-3.1 §4.1.5", errors = {TFREED},
  does = "The bytes of data in one element of t (holes not counted).",
  see = {"Datatype.get_extent"}})
dmethod("get_extent", {call = "t:get_extent() -> lb, extent", mpi = "MPI_Type_get_extent",
  cxx = "Datatype::Get_extent", sec = "MPI-3.1 §4.1.7", errors = {TFREED},
  does = "The lower bound and extent (ub - lb) in bytes: lb is the lowest and ub the highest "
    .. "byte of the map, the extent rounded up to the largest alignment of its basic types, "
    .. "unless create_resized set them. mpi.type_vector(3, 2, -4, mpi.INT) has lb -32, "
    .. "extent 40.",
  see = {"Datatype.get_true_extent", "Datatype.create_resized"}})
dmethod("get_true_extent", {call = "t:get_true_extent() -> true_lb, true_extent",
  mpi = "MPI_Type_get_true_extent", cxx = "Datatype::Get_true_extent", sec = "MPI-3.1 §4.1.8",
  errors = {TFREED},
  does = "The bytes the data really spans, ignoring create_resized's markers and alignment "
    .. "rounding (a subarray's true_lb is where its first element sits).",
  see = {"Datatype.get_extent"}})
dmethod("get_envelope", {call = "t:get_envelope() -> num_integers, num_addresses, "
  .. "num_datatypes, combiner", mpi = "MPI_Type_get_envelope", cxx = "Datatype::Get_envelope",
  sec = "MPI-3.1 §4.1.13", errors = {TFREED},
  does = "How t was made: the combiner (a string, mpi.COMBINER_VECTOR == \"vector\" ...) and "
    .. "the lengths of the three sequences get_contents returns. A predefined type gives 0, 0, "
    .. "0, \"named\".",
  see = {"Datatype.get_contents", "mpi.COMBINER_NAMED"}})
dmethod("get_contents", {call = "t:get_contents() -> integers, addresses, datatypes",
  mpi = "MPI_Type_get_contents", cxx = "Datatype::Get_contents", sec = "MPI-3.1 §4.1.13",
  errors = {TFREED, {"MPI_ERR_TYPE", "t is predefined (combiner \"named\")"}},
  does = "The constructor's arguments as MPI lists them, in three sequences (see each "
    .. "mpi.COMBINER_* for the layout; a subarray's order is mpi.ORDER_C or mpi.ORDER_FORTRAN), "
    .. "so t can be rebuilt. A predefined type in datatypes is that handle itself; a derived "
    .. "one is a new handle on an equal type, valid even if the original was freed.",
  see = {"Datatype.get_envelope"}})
dmethod("typemap", {call = "t:typemap() -> {{offset, basic, count, bytes}, ...}",
  mpi = "(lumpi: one element's type map)", sec = "MPI-3.1 §4.1", errors = {TFREED},
  does = "One element's type map as runs of one basic type in map order, adjacent entries "
    .. "merged: offset in bytes, the basic type's name, how many, bytes each. "
    .. "mpi.type_vector(3, 2, -4, mpi.INT):typemap() is {{0, \"MPI_INT\", 2, 4}, {-16, "
    .. "\"MPI_INT\", 2, 4}, {-32, \"MPI_INT\", 2, 4}}. Needs no commit. The REPL's :draw "
    .. "pictures it.",
  see = {"Datatype.get_extent"}})
dmethod("get_name", {call = "t:get_name() -> name", mpi = "MPI_Type_get_name",
  cxx = "Datatype::Get_name", sec = "§6.8", seeds = true, errors = {TFREED},
  does = "The type's name: MPI's for a predefined type (mpi.TWO_INT:get_name() is "
    .. "\"MPI_2INT\"), what set_name gave it, or \"\". dup does not copy names.",
  see = {"Datatype.set_name"}})
dmethod("set_name", {call = "t:set_name(name)", mpi = "MPI_Type_set_name",
  cxx = "Datatype::Set_name", sec = "§6.8", seeds = true,
  errors = {TFREED, {"MPI_ERR_ARG", "name is not a string"}},
  does = "Names the type on the calling process only. Longer names are cut to "
    .. "mpi.MAX_OBJECT_NAME - 1 characters; trailing spaces are dropped. tostring shows it.",
  see = {"Datatype.get_name"}})
dmethod("set_attr", {call = "t:set_attr(kv, value)", mpi = "MPI_Type_set_attr",
  cxx = "Datatype::Set_attr", sec = "§6.7.4", seeds = true,
  errors = {TFREED, TKEYVAL,
    {"(class of the error)", "the delete callback of the value being replaced raised"}},
  does = "Attaches value (any Lua value) to t under a keyval of mpi.type_create_keyval; "
    .. "replacing a value runs the old value's delete callback first. Predefined types take "
    .. "attributes too.",
  see = {"Datatype.get_attr", "Datatype.delete_attr", "mpi.type_create_keyval"}})
dmethod("get_attr", {call = "t:get_attr(kv) -> value, found", mpi = "MPI_Type_get_attr",
  cxx = "Datatype::Get_attr", sec = "§6.7.4", seeds = true, errors = {TFREED, TKEYVAL},
  does = "The value attached under kv and true, or nil, false when none is.",
  see = {"Datatype.set_attr"}})
dmethod("delete_attr", {call = "t:delete_attr(kv)", mpi = "MPI_Type_delete_attr",
  cxx = "Datatype::Delete_attr", sec = "§6.7.4", seeds = true,
  errors = {TFREED, TKEYVAL, {"(class of the error)", "the delete callback raised (the "
    .. "attribute stays)"}},
  does = "Removes the attribute, running its delete callback; nothing attached is a no-op.",
  see = {"Datatype.set_attr"}})

-- Win: windows, one-sided communication (MPI-3.1 chapter 11, outside the seeds; §6.7.3) --------

local WIN = {"MPI_ERR_WIN", "win is not a window or was freed"}
local RMA_ARGS = {{"MPI_ERR_RANK", "target_rank is not a rank of the window's group nor "
    .. "mpi.PROC_NULL"},
  {"MPI_ERR_TYPE", "a datatype is not a datatype, was freed or is not committed, or the "
    .. "origin's and the target's type signatures differ (other basic types, or a different "
    .. "number of bytes; mpi.BYTE matches any)"},
  {"MPI_ERR_COUNT", "a count is negative"},
  {"MPI_ERR_BUFFER", "the origin elements touch bytes outside buffer"},
  {"MPI_ERR_DISP", "target_disp is negative"},
  {"MPI_ERR_RMA_RANGE", "the target elements reach outside the target's window (sizes are "
    .. "known at every rank: checked before sending)"},
  {"MPI_ERR_RMA_SYNC", "no access epoch: no fence before it, the target is not locked, and "
    .. "no start named it"}}
local RMA_SEE = {"Win.fence", "Win.lock", "Win.put", "Win.get", "Win.accumulate"}
local ACC_OP = {"MPI_ERR_OP", "op is a user op, or not defined on the type (BAND on FLOAT, "
  .. "MAXLOC on a type that is no pair type, SUM on a pair type ...)"}
local PASSIVE = {"MPI_ERR_RMA_SYNC", "target_rank is not locked by this process (request-based "
  .. "operations need a passive-target epoch, §11.3.5)"}
local function wmethod(name, t)
  if t.seeds == nil then t.seeds = false end
  t.errors = errs(t.errors or {}, {WIN})
  return method("Win", name, t)
end
method("Comm", "win_create", {call = "comm:win_create(buffer [, disp_unit [, info]]) -> win",
  mpi = "MPI_Win_create", cxx = "Win::Create", kind = "collective", sec = "MPI-3.1 §11.2.1",
  seeds = false,
  does = "Exposes the memory of buffer (an mpi.buffer) of every process of comm as a window. "
    .. "disp_unit (default: the buffer's element size) scales target displacements: a put at "
    .. "target_disp lands disp_unit * target_disp bytes into the target's buffer. The window "
    .. "keeps the buffer alive. info is a table of strings: the hints win:get_info reports.",
  errors = {COMM, INTRA_ONLY, {"MPI_ERR_BUFFER", "buffer is not an mpi.buffer"},
    {"MPI_ERR_DISP", "disp_unit is not positive"}, {"MPI_ERR_INFO", "info is not a table of "
      .. "strings"}},
  see = {"Comm.win_allocate", "Win", "Win.free"}})
method("Comm", "win_allocate", {call = "comm:win_allocate(size, disp_unit [, info [, datatype]]) "
  .. "-> win, buffer", mpi = "MPI_Win_allocate", cxx = "Win::Allocate", kind = "collective",
  sec = "MPI-3.1 §11.2.2", seeds = false,
  does = "As win_create over size new zeroed bytes, returned as a buffer of datatype "
    .. "(a predefined type, default mpi.BYTE) besides the window.",
  errors = {COMM, INTRA_ONLY, {"MPI_ERR_SIZE", "size is negative or not a multiple of the "
    .. "datatype's size"}, {"MPI_ERR_DISP", "disp_unit is not positive"},
    {"MPI_ERR_TYPE", "datatype is not a predefined type"}},
  see = {"Comm.win_create", "Win"}})
method("Comm", "win_allocate_shared", {call = "comm:win_allocate_shared(size, disp_unit [, info "
  .. "[, datatype]]) -> win, buffer", mpi = "MPI_Win_allocate_shared",
  cxx = "Win::Allocate_shared", kind = "collective", sec = "MPI-3.1 §11.2.3", seeds = false,
  does = "As win_allocate, but every rank's size zeroed bytes lie in one shared-memory segment "
    .. "that all ranks map, contiguous in rank order: buffer (of datatype, default mpi.BYTE) is "
    .. "this rank's part, and win:shared_query(rank) any rank's, read and written by plain "
    .. "indexing (synchronize with win:sync and a barrier, say) as well as by RMA. Every rank "
    .. "of comm must run on this host.",
  errors = {COMM, INTRA_ONLY, {"MPI_ERR_SIZE", "size is negative or not a multiple of the "
    .. "datatype's size"}, {"MPI_ERR_DISP", "disp_unit is not positive"},
    {"MPI_ERR_TYPE", "datatype is not a predefined type"}, {"MPI_ERR_INFO", "info is not a "
      .. "table of strings"}, {"MPI_ERR_RMA_SHARED", "the ranks of comm run on several hosts"}},
  see = {"Win.shared_query", "Comm.win_allocate", "Win"}})
method("Comm", "win_create_dynamic", {call = "comm:win_create_dynamic([info]) -> win",
  mpi = "MPI_Win_create_dynamic", cxx = "Win::Create_dynamic", kind = "collective",
  sec = "MPI-3.1 §11.2.4", seeds = false,
  does = "A window without memory: each process exposes the buffers it attaches "
    .. "(win:attach), and an operation's target_disp is an address at the target "
    .. "(mpi.get_address there; disp_unit is 1). The target checks each operation against its "
    .. "attached buffers and refuses others with MPI_ERR_RMA_RANGE, raised at the origin's "
    .. "next synchronization.",
  errors = {COMM, INTRA_ONLY, {"MPI_ERR_INFO", "info is not a table of strings"}},
  see = {"Win.attach", "mpi.get_address", "Win"}})
wmethod("fence", {call = "win:fence([assert])", mpi = "MPI_Win_fence", cxx = "Win::Fence",
  kind = "collective", sec = "MPI-3.1 §11.5.1",
  does = "Ends the access and exposure epoch before it and starts the next: every put, get "
    .. "and accumulate this process issued since the last fence has completed at its target "
    .. "(and gets have filled their buffers), and so have everybody's on this process's "
    .. "window. assert is 0 or a sum of mpi.MODE_NOSTORE, MODE_NOPUT, MODE_NOPRECEDE, "
    .. "MODE_NOSUCCEED (no epoch follows).",
  errors = {{"MPI_ERR_ASSERT", "assert has other bits"}, {"MPI_ERR_RMA_SYNC", "a lock is held, "
    .. "a post or start epoch is open, or MODE_NOPRECEDE after operations"}, INTR, DEAD},
  see = RMA_SEE})
wmethod("lock", {call = "win:lock(lock_type, rank [, assert])", mpi = "MPI_Win_lock",
  cxx = "Win::Lock", kind = "blocking", sec = "MPI-3.1 §11.5.3",
  does = "Starts a passive-target access epoch on rank's window: mpi.LOCK_EXCLUSIVE (alone) "
    .. "or mpi.LOCK_SHARED (with other shared holders). Waits until the target grants it; the "
    .. "target needs to do nothing (it may sit at the prompt, or be in any MPI call). assert: "
    .. "0 or mpi.MODE_NOCHECK (no conflicting lock exists: the target is not asked). "
    .. "rank mpi.PROC_NULL: nothing happens.",
  errors = {{"MPI_ERR_LOCKTYPE", "lock_type is neither LOCK_EXCLUSIVE nor LOCK_SHARED"},
    {"MPI_ERR_ASSERT", "assert is not 0 or MODE_NOCHECK"}, {"MPI_ERR_RANK", "rank is not in "
      .. "the window's group"}, {"MPI_ERR_RMA_SYNC", "rank is already locked by this process "
      .. "(lock_all included), a start epoch is open, or a fence epoch has operations"}, INTR, DEAD},
  see = {"Win.unlock", "Win.flush", "mpi.LOCK_EXCLUSIVE"}})
wmethod("unlock", {call = "win:unlock(rank)", mpi = "MPI_Win_unlock", cxx = "Win::Unlock",
  kind = "blocking", sec = "MPI-3.1 §11.5.3",
  does = "Ends the lock on rank's window once every operation of the epoch has completed at "
    .. "the target (gets have filled their buffers).",
  errors = {{"MPI_ERR_RANK", "rank is not in the window's group"}, {"MPI_ERR_RMA_SYNC", "rank "
    .. "is not locked by this process"}, INTR, DEAD},
  see = {"Win.lock"}})
wmethod("flush", {call = "win:flush(rank)", mpi = "MPI_Win_flush", cxx = "Win::Flush",
  kind = "blocking", sec = "MPI-3.1 §11.5.4",
  does = "Completes every operation issued to rank so far, keeping the lock.",
  errors = {{"MPI_ERR_RANK", "rank is not in the window's group"}, {"MPI_ERR_RMA_SYNC", "rank "
    .. "is not locked by this process"}, INTR, DEAD},
  see = {"Win.lock", "Win.unlock"}})
wmethod("put", {call = "win:put(buffer, count, datatype, target_rank, target_disp, "
  .. "target_count, target_datatype)", mpi = "MPI_Put", cxx = "Win::Put", kind = "nonblocking",
  sec = "MPI-3.1 §11.3.1",
  does = "Writes count elements of datatype from buffer into target_rank's window at "
    .. "target_disp (in disp_units), laid out as target_count elements of target_datatype. "
    .. "The data is taken at once; it lands by the end of the epoch. target_rank "
    .. "mpi.PROC_NULL: nothing happens (MPI-2.1 Ballot 3 item 6).",
  errors = RMA_ARGS, see = RMA_SEE})
wmethod("get", {call = "win:get(buffer, count, datatype, target_rank, target_disp, "
  .. "target_count, target_datatype)", mpi = "MPI_Get", cxx = "Win::Get", kind = "nonblocking",
  sec = "MPI-3.1 §11.3.2",
  does = "Reads target_count elements of target_datatype at target_disp of target_rank's "
    .. "window into buffer; buffer holds them after the next fence, unlock or flush.",
  errors = RMA_ARGS, see = RMA_SEE})
wmethod("accumulate", {call = "win:accumulate(buffer, count, datatype, target_rank, "
  .. "target_disp, target_count, target_datatype, op)", mpi = "MPI_Accumulate",
  cxx = "Win::Accumulate", kind = "nonblocking", sec = "MPI-3.1 §11.3.4",
  does = "As put, combining each element with the target's: target = origin op target, for "
    .. "a predefined op (mpi.SUM ... mpi.BXOR), mpi.REPLACE or mpi.NO_OP. Both datatypes must "
    .. "be made of one basic type, the same (or of one pair type, for mpi.MAXLOC/MINLOC). Accumulates to one location from several origins "
    .. "in one epoch all count; the target applies them one at a time (atomic per element), "
    .. "one origin's in the order issued.",
  errors = errs({ACC_OP}, RMA_ARGS), see = RMA_SEE})
wmethod("get_accumulate", {call = "win:get_accumulate(buffer, count, datatype, result, "
  .. "result_count, result_datatype, target_rank, target_disp, target_count, target_datatype, op)",
  mpi = "MPI_Get_accumulate", cxx = "Win::Get_accumulate", kind = "nonblocking",
  sec = "MPI-3.1 §11.3.4",
  does = "As accumulate, and the target's elements as they were before into result (after "
    .. "the epoch's next completion: flush, unlock, fence, complete). With mpi.NO_OP the "
    .. "origin arguments are ignored (buffer may be nil): an atomic read.",
  errors = errs({ACC_OP}, RMA_ARGS), see = {"Win.accumulate", "Win.fetch_and_op"}})
wmethod("fetch_and_op", {call = "win:fetch_and_op(buffer, result, datatype, target_rank, "
  .. "target_disp, op)", mpi = "MPI_Fetch_and_op", cxx = "Win::Fetch_and_op",
  kind = "nonblocking", sec = "MPI-3.1 §11.3.4",
  does = "get_accumulate of one element of the predefined datatype: the first element of "
    .. "buffer (nil with mpi.NO_OP) combined into the target, the old value into result[1].",
  errors = errs({ACC_OP, {"MPI_ERR_TYPE", "datatype is not predefined"},
    {"MPI_ERR_BUFFER", "buffer or result is not a buffer holding one element"}}, RMA_ARGS),
  see = {"Win.get_accumulate", "Win.compare_and_swap"}})
wmethod("compare_and_swap", {call = "win:compare_and_swap(buffer, compare, result, datatype, "
  .. "target_rank, target_disp)", mpi = "MPI_Compare_and_swap", cxx = "Win::Compare_and_swap",
  kind = "nonblocking", sec = "MPI-3.1 §11.3.4",
  does = "Atomically replaces one element of the target by buffer[1] when it equals "
    .. "compare[1]; the old value goes into result[1] either way.",
  errors = errs({{"MPI_ERR_TYPE", "datatype is not a predefined integer, logical or byte type"},
    {"MPI_ERR_BUFFER", "a buffer does not hold one element"}}, RMA_ARGS),
  see = {"Win.fetch_and_op"}})
wmethod("rput", {call = "win:rput(buffer, count, datatype, target_rank, target_disp, "
  .. "target_count, target_datatype) -> request", mpi = "MPI_Rput", cxx = "Win::Rput",
  kind = "nonblocking", sec = "MPI-3.1 §11.3.5",
  does = "put, returning a request that completes when buffer may be reused (at once: the "
    .. "data is copied). Only inside a passive-target epoch (lock or lock_all).",
  errors = errs({PASSIVE}, RMA_ARGS), see = {"Win.put", "Win.flush"}})
wmethod("rget", {call = "win:rget(buffer, count, datatype, target_rank, target_disp, "
  .. "target_count, target_datatype) -> request", mpi = "MPI_Rget", cxx = "Win::Rget",
  kind = "nonblocking", sec = "MPI-3.1 §11.3.5",
  does = "get, returning a request that completes when buffer holds the data. Only inside a "
    .. "passive-target epoch.",
  errors = errs({PASSIVE}, RMA_ARGS), see = {"Win.get"}})
wmethod("raccumulate", {call = "win:raccumulate(buffer, count, datatype, target_rank, "
  .. "target_disp, target_count, target_datatype, op) -> request", mpi = "MPI_Raccumulate",
  cxx = "Win::Raccumulate", kind = "nonblocking", sec = "MPI-3.1 §11.3.5",
  does = "accumulate, returning a request that completes when buffer may be reused (at "
    .. "once). Only inside a passive-target epoch.",
  errors = errs({PASSIVE, ACC_OP}, RMA_ARGS), see = {"Win.accumulate"}})
wmethod("rget_accumulate", {call = "win:rget_accumulate(buffer, count, datatype, result, "
  .. "result_count, result_datatype, target_rank, target_disp, target_count, target_datatype, "
  .. "op) -> request", mpi = "MPI_Rget_accumulate", cxx = "Win::Rget_accumulate",
  kind = "nonblocking", sec = "MPI-3.1 §11.3.5",
  does = "get_accumulate, returning a request that completes when result holds the old "
    .. "values. Only inside a passive-target epoch.",
  errors = errs({PASSIVE, ACC_OP}, RMA_ARGS), see = {"Win.get_accumulate"}})
wmethod("lock_all", {call = "win:lock_all([assert])", mpi = "MPI_Win_lock_all",
  cxx = "Win::Lock_all", kind = "blocking", sec = "MPI-3.1 §11.5.3",
  does = "A shared lock on every rank of the window, granted by each (assert "
    .. "mpi.MODE_NOCHECK: nobody is asked, nobody holds an exclusive lock).",
  errors = {{"MPI_ERR_ASSERT", "assert is not 0 or MODE_NOCHECK"}, {"MPI_ERR_RMA_SYNC", "a "
    .. "lock is held, or a fence or start epoch is open"}, INTR, DEAD},
  see = {"Win.unlock_all", "Win.flush_all"}})
wmethod("unlock_all", {call = "win:unlock_all()", mpi = "MPI_Win_unlock_all",
  cxx = "Win::Unlock_all", kind = "blocking", sec = "MPI-3.1 §11.5.3",
  does = "Ends lock_all once every operation of the epoch completed at its target.",
  errors = {{"MPI_ERR_RMA_SYNC", "no lock_all epoch is open"}, INTR, DEAD},
  see = {"Win.lock_all"}})
wmethod("flush_all", {call = "win:flush_all()", mpi = "MPI_Win_flush_all",
  cxx = "Win::Flush_all", kind = "blocking", sec = "MPI-3.1 §11.5.4",
  does = "flush for every locked rank.",
  errors = {{"MPI_ERR_RMA_SYNC", "no rank is locked"}, INTR, DEAD}, see = {"Win.flush"}})
wmethod("flush_local", {call = "win:flush_local(rank)", mpi = "MPI_Win_flush_local",
  cxx = "Win::Flush_local", kind = "blocking", sec = "MPI-3.1 §11.5.4",
  does = "Completes the operations to rank locally (origin buffers free, gets filled); lumpi "
    .. "completes them at the target too, as flush.",
  errors = {{"MPI_ERR_RANK", "rank is not in the window's group"}, {"MPI_ERR_RMA_SYNC", "rank "
    .. "is not locked by this process"}, INTR, DEAD},
  see = {"Win.flush"}})
wmethod("flush_local_all", {call = "win:flush_local_all()", mpi = "MPI_Win_flush_local_all",
  cxx = "Win::Flush_local_all", kind = "blocking", sec = "MPI-3.1 §11.5.4",
  does = "flush_local for every locked rank.",
  errors = {{"MPI_ERR_RMA_SYNC", "no rank is locked"}, INTR, DEAD}, see = {"Win.flush_local"}})
wmethod("sync", {call = "win:sync()", mpi = "MPI_Win_sync", cxx = "Win::Sync",
  kind = "local", sec = "MPI-3.1 §11.5.4",
  does = "Serves the operations that have arrived from other ranks and fences the memory, "
    .. "so a rank polling its own window sees what was put there.",
  errors = {}, see = {"Win.lock"}})
wmethod("post", {call = "win:post(group [, assert])", mpi = "MPI_Win_post", cxx = "Win::Post",
  kind = "local", sec = "MPI-3.1 §11.5.2",
  does = "Opens an exposure epoch to the origins of group (a subgroup of the window's): "
    .. "each is told, and may start. assert: a sum of mpi.MODE_NOCHECK (the origins do not "
    .. "wait: use it on both sides), MODE_NOSTORE, MODE_NOPUT.",
  errors = {{"MPI_ERR_GROUP", "a member of group is not in the window"}, {"MPI_ERR_ASSERT",
    "assert has other bits"}, {"MPI_ERR_RMA_SYNC", "an exposure epoch is already open"}},
  see = {"Win.start", "Win.wait", "Win.test"}})
wmethod("start", {call = "win:start(group [, assert])", mpi = "MPI_Win_start",
  cxx = "Win::Start", kind = "blocking", sec = "MPI-3.1 §11.5.2",
  does = "Opens an access epoch to the targets of group, waiting until each has posted "
    .. "(assert mpi.MODE_NOCHECK: they have).",
  errors = {{"MPI_ERR_GROUP", "a member of group is not in the window"}, {"MPI_ERR_ASSERT",
    "assert is not 0 or MODE_NOCHECK"}, {"MPI_ERR_RMA_SYNC", "an access epoch or lock is "
    .. "open"}, INTR, DEAD},
  see = {"Win.post", "Win.complete"}})
wmethod("complete", {call = "win:complete()", mpi = "MPI_Win_complete", cxx = "Win::Complete",
  kind = "blocking", sec = "MPI-3.1 §11.5.2",
  does = "Ends the access epoch of start: gets have filled their buffers, and each target's "
    .. "wait returns only after every operation of this epoch was applied there.",
  errors = {{"MPI_ERR_RMA_SYNC", "no start epoch is open"}, INTR, DEAD},
  see = {"Win.start", "Win.wait"}})
wmethod("wait", {call = "win:wait()", mpi = "MPI_Win_wait", cxx = "Win::Wait",
  kind = "blocking", sec = "MPI-3.1 §11.5.2",
  does = "Ends the exposure epoch of post once every origin of its group completed.",
  errors = {{"MPI_ERR_RMA_SYNC", "no post epoch is open"}, INTR, DEAD},
  see = {"Win.post", "Win.test"}})
wmethod("test", {call = "win:test() -> done", mpi = "MPI_Win_test", cxx = "Win::Test",
  kind = "local", sec = "MPI-3.1 §11.5.2",
  does = "wait that does not block: true (and the epoch ended) when every origin completed.",
  errors = {{"MPI_ERR_RMA_SYNC", "no post epoch is open"}}, see = {"Win.wait"}})
wmethod("get_info", {call = "win:get_info() -> info", mpi = "MPI_Win_get_info",
  cxx = "Win::Get_info", kind = "local", sec = "MPI-3.1 §11.2.7",
  does = "The hints lumpi knows, as set or by default: no_locks, accumulate_ordering, "
    .. "accumulate_ops, same_size, same_disp_unit, alloc_shared_noncontig. lumpi honours every "
    .. "value (it orders all accumulates and relies on no hint).",
  errors = {}, see = {"Win.set_info"}})
wmethod("set_info", {call = "win:set_info(info)", mpi = "MPI_Win_set_info",
  cxx = "Win::Set_info", kind = "local", sec = "MPI-3.1 §11.2.7",
  does = "Sets the hints of the table info that lumpi knows; others are ignored.",
  errors = {{"MPI_ERR_INFO", "info is not a table of strings"}}, see = {"Win.get_info"}})
wmethod("free", {call = "win:free()", mpi = "MPI_Win_free", cxx = "Win::Free",
  kind = "collective", sec = "MPI-3.1 §11.2.5",
  does = "Frees the window on every process, after the delete callbacks of its attributes "
    .. "ran (§6.7.3; one that raises makes free fail and leaves the window).",
  errors = {{"MPI_ERR_RMA_SYNC", "a lock is held or operations since the last fence are not "
    .. "completed"}, INTR, DEAD},
  see = {"mpi.win_create_keyval"}})
wmethod("shared_query", {call = "win:shared_query(rank [, datatype]) -> buffer, size, disp_unit",
  mpi = "MPI_Win_shared_query", cxx = "Win::Shared_query", kind = "local",
  sec = "MPI-3.1 §11.2.3",
  does = "rank's part of a shared window (comm:win_allocate_shared) as a buffer of datatype "
    .. "(default: the type of this rank's buffer) over the shared memory, with its size in "
    .. "bytes and disp_unit; rank mpi.PROC_NULL: the first part that is not empty. Loads and "
    .. "stores through it reach that rank's memory; the buffer keeps the memory mapped, even "
    .. "after win:free.",
  errors = {{"MPI_ERR_RMA_FLAVOR", "win was not made by comm:win_allocate_shared"},
    {"MPI_ERR_RANK", "rank is not in the window's group nor mpi.PROC_NULL"},
    {"MPI_ERR_TYPE", "datatype is not a predefined type"}},
  see = {"Comm.win_allocate_shared"}})
wmethod("attach", {call = "win:attach(buffer) -> address", mpi = "MPI_Win_attach",
  cxx = "Win::Attach", kind = "local", sec = "MPI-3.1 §11.2.4",
  does = "Exposes buffer (an mpi.buffer) in a dynamic window (comm:win_create_dynamic) and "
    .. "returns its address: the target_disp of its first element for the origins "
    .. "(mpi.get_address gives the others'). The window keeps buffer until win:detach.",
  errors = {{"MPI_ERR_RMA_FLAVOR", "win was not made by comm:win_create_dynamic"},
    {"MPI_ERR_BUFFER", "buffer is not an mpi.buffer"}, {"MPI_ERR_RMA_ATTACH", "buffer is "
      .. "already attached (or overlaps memory attached)"}},
  see = {"Win.detach", "mpi.get_address", "Comm.win_create_dynamic"}})
wmethod("detach", {call = "win:detach(buffer)", mpi = "MPI_Win_detach", cxx = "Win::Detach",
  kind = "local", sec = "MPI-3.1 §11.2.4",
  does = "Ends the exposure of buffer, attached by win:attach: operations reaching it later "
    .. "are refused (MPI_ERR_RMA_RANGE at their origin).",
  errors = {{"MPI_ERR_RMA_FLAVOR", "win was not made by comm:win_create_dynamic"},
    {"MPI_ERR_BUFFER", "buffer is not an mpi.buffer"}, {"MPI_ERR_RMA_ATTACH", "buffer is not "
      .. "attached to win"}},
  see = {"Win.attach"}})
wmethod("get_group", {call = "win:get_group() -> group", mpi = "MPI_Win_get_group",
  cxx = "Win::Get_group", kind = "local", sec = "MPI-3.1 §11.2.6",
  does = "The group of the communicator the window was made on.", see = {"Group"}})
wmethod("set_name", {call = "win:set_name(name)", mpi = "MPI_Win_set_name", cxx = "Win::Set_name",
  kind = "local", sec = "§6.8", seeds = true,
  does = "Names the window on the calling process (cut to mpi.MAX_OBJECT_NAME - 1 "
    .. "characters, trailing spaces dropped).", errors = {ARG}, see = {"Win.get_name"}})
wmethod("get_name", {call = "win:get_name() -> name", mpi = "MPI_Win_get_name",
  cxx = "Win::Get_name", kind = "local", sec = "§6.8", seeds = true,
  does = "The window's name, \"\" if none was set.", see = {"Win.set_name"}})
wmethod("set_attr", {call = "win:set_attr(kv, value)", mpi = "MPI_Win_set_attr",
  cxx = "Win::Set_attr", kind = "local", sec = "§6.7.3", seeds = true,
  does = "Attaches value under kv (from mpi.win_create_keyval); replacing a value runs the "
    .. "old one's delete callback.",
  errors = {KEYVAL, {"MPI_ERR_KEYVAL", "kv is not a window keyval, or is predefined"}},
  see = {"mpi.win_create_keyval", "Win.get_attr"}})
wmethod("get_attr", {call = "win:get_attr(kv) -> value, found", mpi = "MPI_Win_get_attr",
  cxx = "Win::Get_attr", kind = "local", sec = "§6.7.3", seeds = true,
  does = "The value under kv and true, or nil, false. The predefined mpi.WIN_BASE (the "
    .. "exposed buffer), WIN_SIZE (bytes), WIN_DISP_UNIT, WIN_CREATE_FLAVOR "
    .. "(mpi.WIN_FLAVOR_CREATE, _ALLOCATE, _SHARED, _DYNAMIC) and WIN_MODEL (mpi.WIN_UNIFIED) are always found.",
  errors = {KEYVAL, {"MPI_ERR_KEYVAL", "kv is not a window keyval"}},
  see = {"Win.set_attr", "mpi.WIN_BASE"}})
wmethod("delete_attr", {call = "win:delete_attr(kv)", mpi = "MPI_Win_delete_attr",
  cxx = "Win::Delete_attr", kind = "local", sec = "§6.7.3", seeds = true,
  does = "Removes the attribute, running its delete callback (a callback that raises leaves it).",
  errors = {KEYVAL, {"MPI_ERR_KEYVAL", "kv is not a window keyval, or is predefined"}},
  see = {"Win.set_attr"}})
wmethod("set_errhandler", {call = "win:set_errhandler(errhandler)",
  mpi = "MPI_Win_set_errhandler", cxx = "Win::Set_errhandler", kind = "local",
  sec = "MPI-3.1 §8.3.2",
  does = "The handler for errors of this window's calls: mpi.ERRORS_RAISE (the default), "
    .. "mpi.ERRORS_RETURN (nil, err), mpi.ERRORS_ARE_FATAL, or a handler made by "
    .. "mpi.win_create_errhandler. A window does not inherit its communicator's handler.",
  errors = {{"MPI_ERR_ARG", "errhandler is not one of them, was made for a communicator "
    .. "(mpi.comm_create_errhandler), or was freed"}},
  see = {"mpi.win_create_errhandler", "Errhandler"}})
wmethod("get_errhandler", {call = "win:get_errhandler() -> errhandler",
  mpi = "MPI_Win_get_errhandler", cxx = "Win::Get_errhandler", kind = "local",
  sec = "MPI-3.1 §8.3.2", does = "The window's error handler.", see = {"Win.set_errhandler"}})
wmethod("call_errhandler", {call = "win:call_errhandler(code)",
  mpi = "MPI_Win_call_errhandler", cxx = "Win::Call_errhandler", kind = "local",
  sec = "MPI-3.1 §8.3.6", seeds = false,
  does = "Delivers an error of code on the window as a failing call on it would: a user "
    .. "handler is called with (win, code) and the call returns nil, err; ERRORS_RETURN "
    .. "returns nil, err; ERRORS_RAISE raises; ERRORS_ARE_FATAL aborts.",
  errors = {{"MPI_ERR_ARG", "code is not an error code other than 0"}},
  see = {"mpi.win_create_errhandler", "mpi.add_error_code"}})
wmethod("memory", {call = "win:memory() -> buffer", mpi = "(lumpi: the window's base)",
  kind = "local", sec = "MPI-3.1 §11.2",
  does = "The buffer the window exposes on this process (what :draw win shows); the same as "
    .. "win:get_attr(mpi.WIN_BASE), also after free. A dynamic window has none: nil and why.",
  see = {"Win.get_attr"}})
def("mpi.win_create_keyval", {
  call = "mpi.win_create_keyval{copy = f, delete = f, extra_state = v} -> kv",
  mpi = "MPI_Win_create_keyval", cxx = "Win::Create_keyval", kind = "local", sec = "§6.7.3",
  does = "A new attribute key for win:set_attr/get_attr/delete_attr, with the table of "
    .. "mpi.comm_create_keyval. Windows are never duplicated, so copy never runs; "
    .. "delete(win, kv, value, extra_state) runs on win:free(), win:delete_attr(kv) and when "
    .. "set_attr replaces the value. The keyval serves windows only.",
  errors = {{"MPI_ERR_ARG", "the argument is not a table, or copy/delete is not a function"}},
  see = {"Win.set_attr", "mpi.win_free_keyval", "Keyval"}})
def("mpi.win_free_keyval", {call = "mpi.win_free_keyval(kv)", mpi = "MPI_Win_free_keyval",
  cxx = "Win::Free_keyval", kind = "local", sec = "§6.7.3",
  does = "Frees a window keyval; attributes still attached keep working until they go.",
  errors = {KEYVAL, {"MPI_ERR_KEYVAL", "kv was made for another kind of object"}},
  see = {"mpi.win_create_keyval"}})
for _, c in ipairs({
    {"WIN_NULL_COPY_FN", "a copy callback that never copies the attribute (the default)"},
    {"WIN_DUP_FN", "a copy callback that copies the value unchanged"},
    {"WIN_NULL_DELETE_FN", "a delete callback that does nothing"}}) do
  const(c[1], {cxx = "MPI_" .. c[1], sec = "§6.7.3", kind = "callback",
    does = "For mpi.win_create_keyval{copy = ..., delete = ...}: " .. c[2] .. ".",
    see = {"mpi.win_create_keyval"}})
end
for _, c in ipairs({
    {"WIN_BASE", "the buffer the window exposes (in C: its address); nil for a dynamic window"},
    {"WIN_SIZE", "the window's size in bytes on this process"},
    {"WIN_DISP_UNIT", "the window's disp_unit on this process"},
    {"WIN_CREATE_FLAVOR", "how it was made: mpi.WIN_FLAVOR_CREATE, WIN_FLAVOR_ALLOCATE, "
      .. "WIN_FLAVOR_SHARED or WIN_FLAVOR_DYNAMIC"},
    {"WIN_MODEL", "the memory model: mpi.WIN_UNIFIED"}}) do
  const(c[1], {cxx = c[1], sec = "§6.7.3", seeds = true, kind = "keyval",
    does = "Predefined window attribute (read-only): win:get_attr(mpi." .. c[1] .. ") gives "
      .. c[2] .. ".", see = {"Win.get_attr"}})
end
for _, c in ipairs({
    {"LOCK_EXCLUSIVE", "win:lock: the only holder of the target's lock"},
    {"LOCK_SHARED", "win:lock: a holder among other shared holders"},
    {"MODE_NOCHECK", "win:lock, lock_all, post, start assert: no conflicting lock or post is "
      .. "pending (lock: the target is not asked; post/start: nobody waits)"},
    {"MODE_NOSTORE", "win:fence or post assert: the window was not stored to locally (accepted)"},
    {"MODE_NOPUT", "win:fence or post assert: no put or accumulate will target it (accepted)"},
    {"MODE_NOPRECEDE", "win:fence assert: no operation precedes this fence (checked)"},
    {"MODE_NOSUCCEED", "win:fence assert: no epoch follows this fence"},
    {"WIN_FLAVOR_CREATE", "WIN_CREATE_FLAVOR of comm:win_create windows"},
    {"WIN_FLAVOR_ALLOCATE", "WIN_CREATE_FLAVOR of comm:win_allocate windows"},
    {"WIN_FLAVOR_DYNAMIC", "WIN_CREATE_FLAVOR of comm:win_create_dynamic windows"},
    {"WIN_FLAVOR_SHARED", "WIN_CREATE_FLAVOR of comm:win_allocate_shared windows"},
    {"WIN_SEPARATE", "a memory model lumpi's windows do not have"},
    {"WIN_UNIFIED", "WIN_MODEL of every lumpi window: one copy of the memory, updated when "
      .. "the target's engine progresses"}}) do
  const(c[1], {cxx = c[1], sec = "MPI-3.1 §11", seeds = false, kind = "constant",
    does = "An integer; " .. c[2] .. ".", see = {"Win"}})
end
const("REPLACE", {cxx = "REPLACE", sec = "MPI-3.1 §11.3.4", seeds = false,
  does = "The op of win:accumulate that stores the origin's value (a put that is atomic per "
    .. "element among accumulates). Only the accumulate family takes it.", see = {"Win.accumulate"}})
const("NO_OP", {cxx = "NO_OP", sec = "MPI-3.1 §11.3.4", seeds = false,
  does = "The op of win:get_accumulate and win:fetch_and_op that leaves the target as it is "
    .. "(an atomic read). Only the accumulate family takes it.", see = {"Win.get_accumulate"}})

-- Status ------------------------------------------------------------------------------------

local STATUS = {"MPI_ERR_ARG", "status is not a status returned by recv, sendrecv, probe, "
  .. "iprobe or a request's completion"}
local UTYPE = {"MPI_ERR_TYPE", "datatype is not a datatype, was freed, or is not committed"}
method("Status", "get_count", {call = "status:get_count(datatype) -> count | mpi.UNDEFINED",
  mpi = "MPI_Get_count", cxx = "Status::Get_count", sec = "MPI-3.1 §3.2.5", seeds = false,
  errors = {STATUS, UTYPE},
  does = "The number of whole datatype elements in the message, or mpi.UNDEFINED when its "
    .. "bytes are not a whole number of them. After probe it sizes the receive: "
    .. "mpi.buffer(mpi.INT, st:get_count(mpi.INT)). For a Lua-value message it counts the "
    .. "encoded bytes (get_count(mpi.BYTE) is its size on the wire); from mpi.PROC_NULL, 0.",
  see = {"Status.get_elements", "Comm.probe", "mpi.buffer"}})
method("Status", "get_elements", {call = "status:get_elements(datatype) -> count | "
  .. "mpi.UNDEFINED", mpi = "MPI_Get_elements", cxx = "Status::Get_elements",
  sec = "MPI-3.1 §4.1.11", seeds = false, errors = {STATUS, UTYPE},
  does = "The number of basic elements in the message, counting those of a partial last "
    .. "datatype element too; mpi.UNDEFINED when the bytes end inside a basic element.",
  see = {"Status.get_count"}})

-- ---- look-up ----------------------------------------------------------------------------------

local function lower(s) return s:lower() end

-- "MPI_Comm_split" -> "comm_split"
local function mpi_base(s)
  return (lower(s):gsub("^mpi_", ""):gsub("%(.*$", ""))
end

-- The method part of the C++ names ("Intracomm::Split, Intercomm::Split").
local function cxx_pairs(e)
  local out = {}
  for cls, m in (e.cxx or ""):gmatch("([%w_]+)::([%w_]+)") do out[#out + 1] = {cls, m} end
  if e.cxx and not e.cxx:find("::") then out[#out + 1] = {"", e.cxx} end
  return out
end

local function is_ancestor(anc, class)
  for _, c in ipairs(lineage(class)) do if c == anc then return true end end
  return false
end

-- The classes that have the entry's method: its class and e.also.
local function owners(e)
  local out = {e.class}
  for _, c in ipairs(e.also or {}) do out[#out + 1] = c end
  return out
end
M.owners = owners

-- Whether one of the entry's classes is `class` or an ancestor of it.
local function owned_by(e, class)
  for _, c in ipairs(owners(e)) do
    if classes[c] and is_ancestor(c, class) then return true end
  end
  return false
end

-- Entries that answer `name`, in definition order.
function M.lookup(name)
  name = (name or ""):gsub("^%s+", ""):gsub("%s+$", ""):gsub("%(%)$", "")
  if by_key[name] then return {by_key[name]} end
  if name:find(".", 1, true) and by_key["mpi." .. name] then return {by_key["mpi." .. name]} end
  local found, seen = {}, {}
  local function add(e) if not seen[e] then seen[e] = true; found[#found + 1] = e end end
  local owner, m = name:match("^([%w_.]+)[.:]([%w_]+)$")
  if owner and classes[owner] then
    -- "Cartcomm.shift": a Lua name or a C++ name, on the class or an ancestor
    for _, e in ipairs(entries) do
      if owned_by(e, owner) then
        if e.name == m then add(e) end
        for _, p in ipairs(cxx_pairs(e)) do
          if lower(p[2]) == lower(m) and (p[1] == "" or is_ancestor(p[1], owner)
              or p[1] == owner) then add(e) end
        end
      end
    end
    if #found > 0 then return found end
  end
  if owner and not classes[owner] and owner ~= "mpi" then name = m end  -- "comm:split"
  local lname, base = lower(name), mpi_base(name)
  for _, e in ipairs(entries) do if e.name == name then add(e) end end
  if #found == 0 then
    for _, e in ipairs(entries) do
      if e.mpi and (mpi_base(e.mpi) == base or lower(e.mpi) == lname) then add(e) end
    end
  end
  if #found == 0 then
    for _, e in ipairs(entries) do
      for _, p in ipairs(cxx_pairs(e)) do
        if lower(p[2]) == lname or lower(p[1] .. "::" .. p[2]) == lname then add(e) end
      end
    end
  end
  if #found == 0 then
    for _, e in ipairs(entries) do if lower(e.name) == lname then add(e) end end
  end
  return found
end

-- Every name help answers to (keys, short names, classes), sorted.
function M.names()
  local set = {}
  for _, e in ipairs(entries) do set[e.key] = true; set[e.name] = true end
  for c in pairs(classes) do set[c] = true end
  local out = {}
  for n in pairs(set) do out[#out + 1] = n end
  table.sort(out)
  return out
end

-- The names that start with prefix, one per line (the REPL completes
-- ":help NAME" with them).
function M.complete(prefix)
  local out = {}
  for _, n in ipairs(M.names()) do
    if n:sub(1, #prefix) == prefix then out[#out + 1] = n end
  end
  return table.concat(out, "\n")
end

-- Levenshtein distance, for suggestions.
local function distance(a, b)
  local prev = {}
  for j = 0, #b do prev[j] = j end
  for i = 1, #a do
    local cur = {[0] = i}
    for j = 1, #b do
      local cost = a:byte(i) == b:byte(j) and 0 or 1
      cur[j] = math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
    end
    prev = cur
  end
  return prev[#b]
end

-- Up to `limit` names nearest to `name` among `candidates` (all help names
-- when nil): close in spelling, or containing it.
function M.nearest(name, candidates, limit)
  candidates = candidates or M.names()
  limit = limit or 5
  local q = lower(name):gsub("^mpi[._]", "")
  local scored = {}
  for _, c in ipairs(candidates) do
    local lc = lower(c)
    local short = lc:match("([%w_]+)$") or lc
    local d = math.min(distance(q, lc), distance(q, short))
    if #q >= 3 and (short:find(q, 1, true) or q:find(short, 1, true) and #short >= 3) then
      d = math.min(d, 1)
    end
    if d <= math.max(2, #q // 3) then scored[#scored + 1] = {c, d} end
  end
  table.sort(scored, function(x, y)
    if x[2] ~= y[2] then return x[2] < y[2] end
    return x[1] < y[1]
  end)
  -- "cart_coords" adds nothing beside "Cartcomm.cart_coords"
  local keys = {}
  for _, sc in ipairs(scored) do if sc[1]:find(".", 1, true) then keys[sc[1]:match("([%w_]+)$")] = true end end
  local out = {}
  for _, sc in ipairs(scored) do
    if #out >= limit then break end
    if sc[1]:find(".", 1, true) or not keys[sc[1]] then out[#out + 1] = sc[1] end
  end
  return out
end

-- ---- text --------------------------------------------------------------------------------

local WIDTH = 78

-- Wraps text to WIDTH columns: the first line starts with `indent`, the
-- others with `more` (default: the same).
local function wrap(text, indent, more)
  more = more or indent
  local lines, line, lead = {}, indent, indent
  for word in text:gmatch("%S+") do
    if #line > #lead and #line + 1 + #word > WIDTH then
      lines[#lines + 1] = line
      line, lead = more .. word, more
    else
      line = line .. (#line > #lead and " " or "") .. word
    end
  end
  if #line > #lead then lines[#lines + 1] = line end
  return table.concat(lines, "\n")
end

local function section_text(e)
  if not e.sec then return nil end
  if e.seeds then return e.sec:find("seed") and e.sec or e.sec .. " (in the seeds)" end
  return e.sec .. " (not in the seeds)"
end

local function entry_text(e)
  local out = {e.call .. "    [" .. e.key .. "]"}
  local facts = {}
  if e.mpi then facts[#facts + 1] = "MPI: " .. e.mpi end
  if e.cxx then facts[#facts + 1] = "C++: " .. e.cxx end
  if e.kind then facts[#facts + 1] = e.kind end
  out[#out + 1] = wrap(table.concat(facts, "; "), "  ")
  out[#out + 1] = wrap(e.does, "  ")
  if #e.errors > 0 then
    out[#out + 1] = "  Errors:"
    for _, er in ipairs(e.errors) do
      out[#out + 1] = wrap(er[1] .. ": " .. er[2], "    ", "      ")
    end
  end
  local sec = section_text(e)
  if sec then out[#out + 1] = "  MPI text: " .. sec end
  if e.see and #e.see > 0 then out[#out + 1] = wrap("See also: " .. table.concat(e.see, ", "), "  ") end
  return table.concat(out, "\n")
end
M.entry_text = entry_text

-- Entries whose class is `class` (methods), in definition order.
local function methods_of(class)
  local out = {}
  for _, e in ipairs(entries) do
    for _, c in ipairs(owners(e)) do if c == class then out[#out + 1] = e end end
  end
  return out
end
M.methods_of = methods_of

local function class_text(class)
  local c = classes[class]
  local out = {}
  local chain = lineage(class)
  out[1] = "class " .. table.concat(chain, " : ")
  out[2] = wrap((c.what:gsub("^%l", string.upper)), "  ")
  local own = methods_of(class)
  if #own > 0 then
    out[#out + 1] = "  Methods:"
    for _, e in ipairs(own) do out[#out + 1] = wrap(e.call, "    ", "      ") end
  end
  for i = 2, #chain do
    local names = {}
    for _, e in ipairs(methods_of(chain[i])) do names[#names + 1] = e.name end
    if #names > 0 then
      out[#out + 1] = wrap("From " .. chain[i] .. ": " .. table.concat(names, ", "), "  ")
    end
  end
  local related = {}
  for _, e in ipairs(entries) do
    if e.class == "mpi" and e.cxx and e.cxx:match("^" .. class .. "::") then
      related[#related + 1] = e.key
    end
  end
  if #related > 0 then out[#out + 1] = wrap("Module functions: " .. table.concat(related, ", "), "  ") end
  if #own > 0 then out[#out + 1] = "  help(\"" .. class .. ".NAME\") explains one method." end
  return table.concat(out, "\n")
end

local function overview()
  local funcs, consts = {}, {}
  for _, e in ipairs(entries) do
    if e.class == "mpi" and (e.kind == "constant" or e.kind == "callback") then
      consts[#consts + 1] = e.name
    elseif e.class == "mpi" then
      funcs[#funcs + 1] = e.name
    end
  end
  return table.concat({
    "help(x): x is a name (\"split\", \"Comm.split\", \"Cartcomm.shift\", \"MPI_Cart_shift\",",
    "\"SUM\", \"mpi.dims_create\", \"Group\") or a value (a function of mpi, a",
    "communicator, group, request, op ...). At the REPL, :help NAME does the same",
    "and :help alone lists the meta-commands.",
    wrap("Classes: " .. table.concat(class_order, ", "), ""),
    wrap("Functions of mpi: " .. table.concat(funcs, ", ") .. ", hw.info, hw.bind, "
      .. "hw.locality, hw.count", ""),
    wrap("Constants of mpi: " .. table.concat(consts, ", "), ""),
  }, "\n")
end

-- The help text for a name.
function M.text(name)
  if name == nil or name:match("^%s*$") then return overview() end
  name = name:gsub("^%s+", ""):gsub("%s+$", "")
  if classes[name] then return class_text(name) end
  if name == "mpi" or name == "help" then return overview() end
  local found = M.lookup(name)
  if #found > 0 then
    local parts = {}
    for i, e in ipairs(found) do parts[i] = entry_text(e) end
    return table.concat(parts, "\n\n")
  end
  for c in pairs(classes) do
    if lower(c) == lower(name) then return class_text(c) end
  end
  local near = M.nearest(name)
  if #near == 0 then return "no help for '" .. name .. "' (help() lists what there is)" end
  return "no help for '" .. name .. "'; did you mean " .. table.concat(near, ", ") .. "?"
end

-- ---- values ------------------------------------------------------------------------------------

-- The MPI class of a value, from its metatable's __name ("lumpi.Cartcomm"),
-- refined for the shared communicator metatable by asking the value; and
-- whether the metatable is the class's own (false for a shared one).
function M.class_of(v)
  local mt = getmetatable(v)
  if type(mt) ~= "table" or type(mt.__name) ~= "string" then return nil end
  local short = mt.__name:match("([%w_]+)$")
  local class
  for c in pairs(classes) do if lower(c) == lower(short) then class = c end end
  if class ~= "Comm" then return class, true end
  local ok, inter = pcall(function() return v:test_inter() end)
  if not ok then return "Comm", false end
  if inter then return "Intercomm", false end
  local okt, topo = pcall(function() return v:topo_test() end)
  local by_topo = {cart = "Cartcomm", graph = "Graphcomm", dist_graph = "Distgraphcomm"}
  return okt and by_topo[topo] or "Intracomm", false
end

-- The Lua metatables the binding registered ("lumpi.Comm" ... in the
-- registry), each with its class.
local function binding_metatables()
  local out = {}
  for k, mt in pairs(debug.getregistry()) do
    if type(k) == "string" and k:match("^lumpi%.") and type(mt) == "table" then
      local short = k:match("([%w_]+)$")
      for c in pairs(classes) do
        if lower(c) == lower(short) then out[#out + 1] = {class = c, mt = mt} end
      end
    end
  end
  return out
end

-- Calls fn(name, value) for every field of the method tables reachable from
-- mt.__index (following __index chains of the tables themselves).
local function each_method(mt, fn)
  local t, depth = mt.__index, 0
  while type(t) == "table" and depth < 8 do
    for k, v in pairs(t) do
      if type(k) == "string" then fn(k, v) end
    end
    local inner = getmetatable(t)
    t = type(inner) == "table" and inner.__index or nil
    depth = depth + 1
  end
end
M.each_method = each_method

-- The entries for a method `name` found on a value of `class`: the class's
-- own or an ancestor's; when the metatable is shared by every
-- communicator (exact false), any communicator class's.
function M.method_entries(class, name, exact)
  local out = {}
  for _, e in ipairs(entries) do
    if e.name == name and classes[e.class] then
      if owned_by(e, class) or (not exact and is_ancestor("Comm", class)
          and is_ancestor("Comm", e.class)) then
        out[#out + 1] = e
      end
    end
  end
  return out
end

-- Help keys for a function value, by identity.
local function function_keys(f)
  local keys = {}
  for k, v in pairs(mpi) do
    if rawequal(v, f) then keys[#keys + 1] = "mpi." .. k end
  end
  if type(mpi.hw) == "table" then
    for k, v in pairs(mpi.hw) do if rawequal(v, f) then keys[#keys + 1] = "mpi.hw." .. k end end
  end
  for _, b in ipairs(binding_metatables()) do
    each_method(b.mt, function(name, v)
      if rawequal(v, f) then
        for _, e in ipairs(M.method_entries(b.class, name, false)) do keys[#keys + 1] = e.key end
      end
    end)
  end
  return keys
end

local function text_of_keys(keys, what)
  local parts, seen = {}, {}
  for _, k in ipairs(keys) do
    if not seen[k] and by_key[k] then
      seen[k] = true
      parts[#parts + 1] = entry_text(by_key[k])
    end
  end
  if #parts == 0 then return "no help for this " .. what end
  return table.concat(parts, "\n\n")
end

-- help(x): a name, or a value (a function of mpi, an object, a constant).
function M.help(...)
  if select("#", ...) == 0 then return overview() end
  local x = ...
  if x == nil then
    return "help(nil): nil is mpi.COMM_NULL, what split, create and cart_create return "
      .. "where MPI returns MPI_COMM_NULL. help() lists what there is."
  end
  if type(x) == "string" then return M.text(x) end
  if rawequal(x, rawget(_G, "help")) then return overview() end
  if rawequal(x, mpi) then return overview() end
  if rawequal(x, mpi.hw) then return M.text("mpi.hw") end
  if type(x) == "function" then return text_of_keys(function_keys(x), "function") end
  local const_keys = {}
  for k, v in pairs(mpi) do
    if rawequal(v, x) and by_key["mpi." .. k] then const_keys[#const_keys + 1] = "mpi." .. k end
  end
  table.sort(const_keys)
  local class = M.class_of(x)
  local parts = {}
  if #const_keys > 0 then parts[#parts + 1] = text_of_keys(const_keys, "value") end
  if class and (#const_keys == 0 or class ~= "Op") then parts[#parts + 1] = class_text(class) end
  if #parts == 0 then
    return "no help for a " .. type(x) .. " value; help(\"name\") takes a name, help() "
      .. "lists them"
  end
  return table.concat(parts, "\n\n")
end

-- ---- the reference (docs/mpi.md) -----------------------------------------------------------

local function md_entry(e)
  local out = {"### `" .. e.call .. "`", ""}
  local facts = {"`" .. e.key .. "`"}
  if e.mpi then facts[#facts + 1] = "MPI: `" .. e.mpi .. "`" end
  if e.cxx then facts[#facts + 1] = "C++: `" .. e.cxx .. "`" end
  if e.kind then facts[#facts + 1] = e.kind end
  local sec = section_text(e)
  if sec then facts[#facts + 1] = "MPI text " .. sec end
  out[#out + 1] = table.concat(facts, " · ")
  out[#out + 1] = ""
  out[#out + 1] = e.does
  if #e.errors > 0 then
    out[#out + 1] = ""
    out[#out + 1] = "Errors:"
    out[#out + 1] = ""
    for _, er in ipairs(e.errors) do out[#out + 1] = "- `" .. er[1] .. "`: " .. er[2] end
  end
  if e.see and #e.see > 0 then
    out[#out + 1] = ""
    out[#out + 1] = "See also: " .. table.concat(e.see, ", ") .. "."
  end
  out[#out + 1] = ""
  return table.concat(out, "\n")
end

-- The whole reference as Markdown (docs/mpi.md is this, checked in).
function M.markdown()
  local out = {
    "# The `mpi` module",
    "",
    "<!-- Generated from lua/lumpi/help.lua by docs/generate: do not edit. -->",
    "",
    "Every rank has the global `mpi`. This reference is generated from the same table",
    "that answers `help(x)` on the ranks and `:help NAME` at the REPL. Conventions",
    "(0-based ranks, 1-based sequences, `nil` for `MPI_COMM_NULL`, strings for",
    "enumerations, several results as several return values) are in",
    "[conventions.md](conventions.md); errors in [errors.md](errors.md).",
    "",
    "Methods are filed under the MPI class they belong to (the classes of the C++",
    "binding, MPI-2.2 §16.1.3): `Comm` methods work on every communicator;",
    "`Intracomm`, `Intercomm`, `Cartcomm`, `Graphcomm` and `Distgraphcomm` add",
    "their own. Errors that every method of a class can raise (a freed",
    "communicator: `MPI_ERR_COMM`; an interrupted wait: `LUMPI_ERR_INTERRUPTED`)",
    "are listed with each entry. \"In the seeds\" marks sections whose MPI text is",
    "in the project's seed documents; the others cite the MPI standard.",
    "",
    "## Contents",
    "",
    "- [Module functions](#module-functions)",
    "- [mpi.hw](#mpihw)",
    "- [Constants](#constants)",
  }
  for _, c in ipairs(class_order) do out[#out + 1] = "- [" .. c .. "](#" .. lower(c) .. ")" end
  out[#out + 1] = ""
  local function section(title, list)
    out[#out + 1] = "## " .. title
    out[#out + 1] = ""
    for _, e in ipairs(list) do out[#out + 1] = md_entry(e) end
  end
  local funcs, hw, consts = {}, {}, {}
  for _, e in ipairs(entries) do
    if e.class == "mpi.hw" or e.key == "mpi.hw" then hw[#hw + 1] = e
    elseif e.class == "mpi" and (e.kind == "constant" or e.kind == "callback") then
      consts[#consts + 1] = e
    elseif e.class == "mpi" then funcs[#funcs + 1] = e end
  end
  section("Module functions", funcs)
  section("mpi.hw", hw)
  section("Constants", consts)
  for _, c in ipairs(class_order) do
    out[#out + 1] = "## " .. c
    out[#out + 1] = ""
    local chain = lineage(c)
    if #chain > 1 then
      out[#out + 1] = "*" .. table.concat(chain, " : ") .. "*"
      out[#out + 1] = ""
    end
    out[#out + 1] = (classes[c].what:gsub("^%l", string.upper))
    out[#out + 1] = ""
    for _, e in ipairs(methods_of(c)) do
      if e.class == c then
        out[#out + 1] = md_entry(e)
      else
        out[#out + 1] = "### `" .. e.call .. "`\n\nAs [" .. e.key .. "](#" .. lower(e.class)
          .. ").\n"
      end
    end
  end
  return (table.concat(out, "\n"):gsub("\n+$", "\n"))
end

-- Writes the reference to `path` (docs/generate).
function M.write_markdown(path)
  local f = assert(io.open(path, "w"))
  f:write(M.markdown())
  f:close()
end

return M
