// PMIx_Get_version and PMIx_Initialized: answerable at any time, from any
// thread, with no initialization (spec §4.1, §4.2).
#include "config.h"
#include "pmix.h"
#include "src/runtime/state.h"

namespace pmix::runtime {

std::atomic<int>& InitCount(Role role) {
  static std::atomic<int> counts[3];
  return counts[static_cast<int>(role)];
}

bool AnyRoleInitialized() {
  for (Role role : {Role::kClient, Role::kServer, Role::kTool}) {
    if (InitCount(role).load(std::memory_order_acquire) > 0) return true;
  }
  return false;
}

}  // namespace pmix::runtime

namespace {

// Consumers compare the first character with '3' (Open MPI's ext3x
// refuses libraries whose string starts below it), so the string starts
// with the product name, whose first letter sorts above every digit.
constexpr char kVersionString[] =
    "pmixx " PACKAGE_VERSION " (PMIx Standard: " PMIX_STD_VERSION
    ", OpenPMIx API: 4.2.2)";

}  // namespace

extern "C" const char* PMIx_Get_version(void) { return kVersionString; }

extern "C" int PMIx_Initialized(void) {
  return pmix::runtime::AnyRoleInitialized() ? 1 : 0;
}
