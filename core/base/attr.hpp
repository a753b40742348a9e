// core/base/attr.hpp: attribute caching (MPI-3.1 §6.7), written once for
// every door and every kind of object that carries attributes.
//
// The rules, as the text gives them and where it leaves a choice:
// - a keyval belongs to one kind of object (communicator, datatype, window);
//   given to another kind's call it is MPI_ERR_KEYVAL, as is a keyval that
//   does not exist;
// - setting an attribute that is already set runs the old value's delete
//   callback first; a failing callback leaves the old value and fails the
//   call. Deleting an attribute that is not set does nothing;
// - freeing a keyval that attributes still use only marks it: it stays
//   valid for reading and deleting them until the last one goes (§6.7.2,
//   "the actual free does not transpire until ..."); freeing it again
//   meanwhile does nothing more (MPICH's keyval_double_free);
// - duplicating an object runs every copy callback first (a failing one
//   fails the duplicate, which then carries nothing); the new object gets
//   the values whose callback said keep;
// - freeing an object runs the delete callbacks newest first (MPI-3.1
//   §8.7.1 for COMM_SELF, the same order everywhere); a failing one stops
//   the free there and keeps what is not deleted yet;
// - an object that goes away without a free (a binding's garbage
//   collection) drops its attributes without callbacks;
// - a callback's non-zero return is the call's error: an error code the
//   program added stays itself, anything else is MPI_ERR_OTHER. A callback
//   may instead throw core::Error (a Lua callback's own message), which is
//   the call's error as it is; the store is then as after a non-zero return.
//
// The core stores a word per attribute and never looks at it; each door
// wraps its user's callbacks (C function pointers, C++ std::function, Lua
// functions) in Callbacks and passes its own handle of the object as the
// Object the callbacks get back. Objects are keyed by their serial (never
// reused), so a new object never sees a stale attribute. Every call is
// thread-safe (the unit tests run ranks as threads); callbacks run with no
// lock held, so a callback may itself use attributes.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

namespace lumpi::core::attr {

enum class Kind { Comm, Type, Win };

using Value = void*;   // the attribute as the door gave it
using Object = void*;  // the door's handle of the object, for its callbacks

// A keyval's callbacks; an empty one is NULL_COPY_FN / NULL_DELETE_FN.
// Each returns 0 (MPI_SUCCESS) or an error code; copy sets keep when the new
// object is to carry `out`.
struct Callbacks {
  std::function<int(Object from, int keyval, Value in, Value& out, bool& keep)> copy;
  std::function<int(Object on, int keyval, Value value)> del;
};

// Keyval numbers of each kind: communicators from 16, windows from 2^20,
// datatypes from 2^21. Below 16 are the predefined attributes, numbered as
// mpi.h numbers them (the windows' MPI_WIN_BASE ... follow from 8): every
// door reads them itself, and set, remove and free_keyval refuse them
// (MPI_ERR_KEYVAL).
enum Predefined : int { kTagUb = 1, kHost, kIo, kWtimeIsGlobal, kUniverseSize, kAppnum, kLastUsedCode };
// The value of the predefined communicator attribute `keyval` (kTagUb ...
// kLastUsedCode) on COMM_WORLD (on_world) or another communicator; false
// where it is not set: UNIVERSE_SIZE (lumpi cannot spawn), LASTUSEDCODE off
// COMM_WORLD (MPI-3.1 §8.5). No process is the host (PROC_NULL), every one
// can do I/O (ANY_SOURCE), clocks are not synchronised (0), one application
// was started (APPNUM 0).
bool predefined(int keyval, bool on_world, int& value);
int create_keyval(Kind k, Callbacks cb);
// MPI_ERR_KEYVAL naming func unless keyval is a live keyval of kind k; a
// freed one that attributes still use passes when in_use_ok.
void check_keyval(Kind k, int keyval, std::string_view func, bool in_use_ok = false);
// MPI_*_free_keyval, after its checks.
void free_keyval(Kind k, int keyval, std::string_view func);

void set(Kind k, Object on, std::uint64_t serial, int keyval, Value v, std::string_view func);
bool get(Kind k, std::uint64_t serial, int keyval, Value& v, std::string_view func);
void remove(Kind k, Object on, std::uint64_t serial, int keyval, std::string_view func);

// Duplication in two steps, as the new object exists only after the copy
// callbacks ran: copy_all runs them on `from`, attach gives the new object
// what they kept. A failing duplicate drops the copies made so far without
// callbacks (a door that owns its values counts them from its callbacks).
using Copies = std::vector<std::pair<int, Value>>;
Copies copy_all(Kind k, Object from, std::uint64_t serial, std::string_view func);
void attach(Kind k, std::uint64_t serial, const Copies& copies);
// Object freed: delete callbacks newest first. Object gone: no callbacks;
// forget returns the values it dropped, for a door that owns them.
void delete_all(Kind k, Object on, std::uint64_t serial, std::string_view func);
std::vector<Value> forget(Kind k, std::uint64_t serial);

}  // namespace lumpi::core::attr
