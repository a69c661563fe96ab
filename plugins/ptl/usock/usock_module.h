// The usock transport: a Unix-domain stream socket in the server's private
// temporary directory; the default for clients on the server's node.
//
// listen() needs PMIX_SERVER_TMPDIR (an absolute path; PMIX_ERR_BAD_PARAM
// without it). That directory is created with mode 0700 when absent; an
// existing one is used only if it is a real directory (not a symlink)
// owned by the effective uid and not writable by group or others, else
// PMIX_ERR_NO_PERMISSIONS. Only the last path component is checked: the
// parent is the host's choice. The socket is "<tmpdir>/pmix-<pid>-<n>", n
// counting listens in this process; a path longer than sockaddr_un allows
// is PMIX_ERR_BAD_PARAM. A stale file of that name is removed only if it
// is a socket owned by us. The socket file's mode is exactly 0600 (or the
// 9 permission bits of PMIX_SOCKET_MODE when given; any other value of it
// is PMIX_ERR_BAD_PARAM) whatever the umask. The socket is bound as the
// hidden "<tmpdir>/.~<pid>-<n>" (a stale socket of ours there is removed
// too), chmod()ed, set listening and only then renamed to its name: the
// name exists only for a socket that accepts, with its final mode; on
// failure neither name is left. URI: "usock:<absolute path>". unlisten()
// closes the socket and removes its file (again, only a socket we own).
#ifndef PMIXX_PLUGINS_PTL_USOCK_USOCK_MODULE_H
#define PMIXX_PLUGINS_PTL_USOCK_USOCK_MODULE_H

#include <string>

#include "pmix/mca/ptl.h"

namespace pmix::ptl::usock {

inline constexpr const char* kScheme = "usock:";

extern const pmix_ptl_module_t kModule;

// Keeps the services for diagnostics (may be null: no output).
void Configure(const pmix_mca_services_t* services);

// Creates or verifies dir as described above.
pmix_status_t PrepareTmpdir(const std::string& dir);

}  // namespace pmix::ptl::usock

#endif  // PMIXX_PLUGINS_PTL_USOCK_USOCK_MODULE_H
