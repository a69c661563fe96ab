// The none psec module: no security. create_cred returns an empty
// credential; validate_cred accepts any credential (directives included:
// nothing is checked) and reports the socket peer's uid/gid when fd is a
// connected Unix socket, else the calling process's own. Errors only for
// NULL outputs. Priority 0: chosen only when the user selects it or
// nothing else is available. Thread-safe, stateless.
#ifndef PMIXX_PLUGINS_PSEC_NONE_NONE_MODULE_H
#define PMIXX_PLUGINS_PSEC_NONE_NONE_MODULE_H

#include "pmix/mca/psec.h"

namespace pmix::psec::none {

extern const pmix_psec_module_t kModule;

}  // namespace pmix::psec::none

#endif  // PMIXX_PLUGINS_PSEC_NONE_NONE_MODULE_H
