// gds/shmem: regions in sealed memfds, shared with the node's processes by
// descriptor (include/pmix/mca/gds.h states the region contract). No
// key/value store: its store functions are NULL, so the store stays hash's.
//
// A region is an anonymous memory file (memfd_create, close-on-exec, no
// name anywhere in the file system: nothing to guess, nothing left behind
// when a process dies -- the memory goes with the last descriptor or
// mapping). The maker fills it through a private writable mapping; sealing
// drops that mapping and adds F_SEAL_WRITE, F_SEAL_SHRINK, F_SEAL_GROW and
// F_SEAL_SEAL, after which nobody, the maker included, can change a byte
// or the size, so a reader never sees it move. A process that receives the
// descriptor attaches it read-only only if those seals are present and the
// size is the announced one; the attached region keeps its mapping only
// (the descriptor is closed: clients hold no descriptor per namespace).
//
// Publishing (region_publish) is the other way to share a region: the
// maker keeps its writable mapping and adds F_SEAL_FUTURE_WRITE,
// F_SEAL_SHRINK, F_SEAL_GROW and F_SEAL_SEAL, so that nobody else can
// write, grow or shrink it (no writable mapping, no write()) while the
// maker appends; region_attach_published maps such a descriptor (or a
// sealed one) read-only. Kernels before 5.1 lack F_SEAL_FUTURE_WRITE:
// publishing fails there and callers fall back.
//
// Sealing cannot be undone: on the rare failure to map the sealed region
// again (address space exhausted) region_seal fails with the region no
// longer mapped (release it, as after any failure).
//
// Priority 60, above hash (50): where it is available the server lays job
// data out in it. query() declines where memfds cannot be sealed (kernels
// before 3.17, or a seccomp policy forbidding memfd_create).
#ifndef PMIXX_PLUGINS_GDS_SHMEM_SHMEM_MODULE_H
#define PMIXX_PLUGINS_GDS_SHMEM_SHMEM_MODULE_H

#include "pmix/mca/gds.h"

namespace pmix::gds::shmem {

inline constexpr int kPriority = 60;
extern const pmix_gds_module_t kModule;

// Keeps the services for diagnostics (nullptr: none).
void Configure(const pmix_mca_services_t* services);

// Whether this process can create and seal memfds (probed once).
bool SealingWorks();

}  // namespace pmix::gds::shmem

#endif  // PMIXX_PLUGINS_GDS_SHMEM_SHMEM_MODULE_H
