// core/comm/comm_create.hpp: communicator constructors, the destructor, comparison
// and info hints (seed §6.4, §6.6). Collective over the parent communicator
// (both groups of an intercommunicator) unless noted.
//
// New context bases are agreed during the constructor: processes propose a
// fresh base (world rank plus a counter, Engine::propose_context) and the new
// communicator takes one proposal that every member can name (e.g. the
// smallest of its members'), so ids are unique in the job and never reused.
// Constructor traffic runs on the parent's internal lane, never where a
// user's wildcard receive or a collective could match it. Arguments are
// validated before any communication; a process that gets MPI_COMM_NULL
// receives nullptr. Attributes are the binding's business: nothing here
// copies them.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "core/comm/comm.hpp"
#include "core/engine/request.hpp"

namespace lumpi::core {

// ---- local ----------------------------------------------------------------------

enum class CommRelation { Ident, Congruent, Similar, Unequal };
// MPI_Comm_compare (§6.4.1, §6.6.1): Ident only for the same object.
CommRelation comm_compare(const Comm& a, const Comm& b);
const char* relation_name(CommRelation r);  // "ident", "congruent", ...

// Info hints (§6.4.4): the keys this implementation uses, each with a
// default; other keys are ignored. Hints never propagate to new communicators.
using Hints = std::map<std::string, std::string>;
void set_hints(Comm& c, const Hints& given);  // unknown keys and bad values ignored
Hints hints_used(const Comm& c);              // every used key, defaults filled in

// ---- constructors ------------------------------------------------------------------

// MPI_Comm_dup: same group(s), topology and error handler, a new context; no
// name, no hints. Intra or inter.
CommPtr comm_dup(Comm& parent);
// MPI_Comm_dup_with_info: as dup, with `hints` set on the new communicator.
CommPtr comm_dup_with_info(Comm& parent, const Hints& hints);

// MPI_Comm_idup: returns the new communicator at once, pending until the
// request completes on this process, on every process alike (using it
// before raises MPI_ERR_COMM). `before_start`,
// if given, runs on the new communicator before anything is sent (the
// binding copies attributes there, as of call time); if it throws, nothing
// was sent, so a failed idup leaves no stray message for a later one.
struct Idup {
  CommPtr comm;
  std::shared_ptr<Request> request;
};
using IdupHook = std::function<void(const CommPtr&)>;
Idup comm_idup(const CommPtr& parent, const IdupHook& before_start = {});
// MPI_Comm_idup_with_info: as idup, with `hints` (taken now) on the new
// communicator.
Idup comm_idup_with_info(const CommPtr& parent, const Hints& hints, const IdupHook& before_start = {});

// MPI_Comm_create. Intra: processes passing the same group form it (groups
// of different processes must be equal or disjoint; otherwise every process
// raises MPI_ERR_GROUP). Inter: each side passes
// a subgroup of its own group; nullptr if either side's group is empty or
// the caller is not in its side's group.
CommPtr comm_create(Comm& parent, const group::Members& group);

// MPI_Comm_create_group: called only by the members of `group` (a subgroup
// of the intracommunicator `parent`); others get nullptr without talking.
CommPtr comm_create_group(Comm& parent, const group::Members& group, int tag);

// MPI_Comm_split: colour groups ordered by (key, parent rank); UNDEFINED
// gives nullptr. On an intercommunicator, each colour present on both sides
// becomes an intercommunicator; a colour on one side only gives nullptr.
CommPtr comm_split(Comm& parent, int color, int key);

// MPI_Comm_split_type (intracommunicators). `type` is "shared", "hw_guided"
// (hints["mpi_hw_resource_type"]), "hw_unguided" (MPI-4.0: the coarsest
// level that splits, the host first; the new communicator's info names it
// under "mpi_hw_resource_type") or the seed's draft "hw_domain"
// (hints["mpi_hw_domain_type"], optional); is_undefined means MPI_UNDEFINED.
// Hardware splits always give a strict subset of the parent or nullptr.
CommPtr comm_split_type(Comm& parent, bool is_undefined, const std::string& type, int key,
                        const Hints& hints);
// The same with the split type by number (COMM_TYPE_* in
// core/base/constants.hpp, or UNDEFINED), as C and C++ pass it; another
// number is ERR_ARG naming split_type.
CommPtr comm_split_type(Comm& parent, int split_type, int key, const Hints& hints);

// MPI_Intercomm_create: `peer` and `remote_leader` matter only at the local
// leader (peer may be null elsewhere). Leaders talk on the peer's internal
// lane keyed by `tag`, so user receives on the peer never see it. A bad
// peer or remote_leader (out of range, or inside local_comm) is found by
// the leader alone: it sends nothing to the remote leader, and its error
// travels in its broadcast so every member of its group raises it
// (core/comm/verdict.hpp); overlapping groups raise everywhere.
CommPtr intercomm_create(Comm& local, int local_leader, Comm* peer, int remote_leader, int tag);

// MPI_Intercomm_merge: the group passing high=false comes first; with equal
// flags, the group whose first member has the lower world rank comes first.
// A member whose flag differs from its group's rank 0 fails every process.
CommPtr intercomm_merge(Comm& inter, bool high);

// MPI_Comm_free: COMM_WORLD and COMM_SELF cannot be freed. Local here (no
// message is needed); marks the communicator freed.
void check_freeable(const Comm& c);
void comm_free(Comm& c);

}  // namespace lumpi::core
