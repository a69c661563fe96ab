// Process-wide library state shared by the three roles.
//
// The init counters are the only state here so far; they are atomics
// because PMIx_Initialized may be called from any thread, before, during or
// after initialization. The role APIs (client, server, tool) increment
// their counter on a successful *_init and decrement it on *_finalize.
#ifndef PMIXX_SRC_RUNTIME_STATE_H
#define PMIXX_SRC_RUNTIME_STATE_H

#include <atomic>

namespace pmix::runtime {

enum class Role { kClient, kServer, kTool };

// Number of outstanding successful inits of `role` (thread-safe).
std::atomic<int>& InitCount(Role role);

// True while any role holds at least one init.
bool AnyRoleInitialized();

}  // namespace pmix::runtime

#endif  // PMIXX_SRC_RUNTIME_STATE_H
