#include "src/event/handler_module.h"

#include <dlfcn.h>
#include <link.h>

#include <mutex>
#include <set>

#include "src/common/output.h"

namespace pmix::event {
namespace {

struct Pinned {
  std::mutex mu;
  std::set<const link_map*> modules;  // already marked (or not to mark)
};

Pinned& State() {
  static Pinned* state = new Pinned;  // never destroyed: handlers register until exit
  return *state;
}

const link_map* ModuleOf(const void* address) {
  Dl_info info{};
  link_map* map = nullptr;
  if (dladdr1(address, &info, reinterpret_cast<void**>(&map), RTLD_DL_LINKMAP) == 0) return nullptr;
  return map;
}

}  // namespace

void KeepModuleLoaded(const void* code) {
  if (code == nullptr) return;
  const link_map* map = ModuleOf(code);
  // The main program (empty name) is never unloaded; nor is this library
  // while the module calling it, which links it, is loaded.
  if (map == nullptr || map->l_name == nullptr || map->l_name[0] == '\0') return;
  if (map == ModuleOf(reinterpret_cast<const void*>(&KeepModuleLoaded))) return;
  Pinned& s = State();
  std::lock_guard<std::mutex> lock(s.mu);
  if (!s.modules.insert(map).second) return;
  // RTLD_NOLOAD: only an object loaded already, found by the name it was
  // loaded under; the reference taken is never dropped.
  if (dlopen(map->l_name, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE) == nullptr) {
    const char* why = dlerror();
    output::Verbose("event", 1, "the module of an event handler (%s) could not be kept loaded: %s",
                    map->l_name, why != nullptr ? why : "not found");
    return;
  }
  output::Verbose("event", 2, "event handler module %s is kept loaded until exit", map->l_name);
}

}  // namespace pmix::event
