// gds/hash: the in-process store (priority 50). See include/pmix/mca/gds.h
// for the contract and hash_store.h for the layout. Module options: none.
#ifndef PMIXX_PLUGINS_GDS_HASH_HASH_MODULE_H
#define PMIXX_PLUGINS_GDS_HASH_HASH_MODULE_H

#include "pmix/mca/gds.h"

namespace pmix::gds::hash {

inline constexpr int kPriority = 50;
extern const pmix_gds_module_t kModule;

}  // namespace pmix::gds::hash

#endif  // PMIXX_PLUGINS_GDS_HASH_HASH_MODULE_H
