// pmixrun --bind-to none|core|package: where each process of a job runs.
//
// Node rank r is bound to the r-th core (or package) of the node, round
// robin, as hwloc sees it in the server's topology (PMIx_Load_topology:
// the one pmixrun shares with its clients), restricted to the CPUs pmixrun
// itself may use. The binding is described to the job: PMIX_BINDTO at job
// level and each process's PMIX_CPUSET ("hwloc:<list>"), from which the
// server library derives PMIX_LOCALITY_STRING.
//
// The child inherits the binding through fork (ScopedAffinity around the
// fork), so it holds from the first instruction on. Main thread only.
#ifndef PMIXX_TOOLS_PMIXRUN_BINDING_H
#define PMIXX_TOOLS_PMIXRUN_BINDING_H

#include <sched.h>

#include <string>
#include <string_view>

namespace pmixrun {

enum class BindTo { kNone, kCore, kPackage };

// "none", "core" or "package" (also "socket"); false for anything else.
bool ParseBindTo(std::string_view text, BindTo* out);
const char* BindToName(BindTo how);

// The CPUs of node rank `node_rank` as an hwloc list ("2-3"); "" when not
// binding or when the node's topology is not available.
std::string BindingFor(BindTo how, int node_rank);

// Binds the calling thread to `cpus` (an hwloc list; "" = leave it) until
// destroyed, then restores its previous affinity.
class ScopedAffinity {
 public:
  explicit ScopedAffinity(const std::string& cpus);
  ~ScopedAffinity();
  ScopedAffinity(const ScopedAffinity&) = delete;
  ScopedAffinity& operator=(const ScopedAffinity&) = delete;

 private:
  cpu_set_t saved_;
  bool changed_ = false;
};

}  // namespace pmixrun

#endif  // PMIXX_TOOLS_PMIXRUN_BINDING_H
