/*
 * ptl: the transports between clients/tools and their server.
 *
 * Multi-select: every available transport is kept, ordered by priority.
 * A server listens on all of them and advertises their URIs; a client or
 * tool connects through the first module that recognises the URI's scheme
 * ("usock:" for usock, "tcp4://" / "tcp6://" for tcp). Framing, the
 * handshake and message matching are the framework's base logic, common to
 * all transports: a module only creates, accepts and connects sockets.
 *
 * Called on the progress thread, except connect(), which a client calls
 * while initialising. Every descriptor returned is close-on-exec and
 * non-blocking; the caller owns it. Outputs are written only on success.
 * A module opens at most one listening socket (tcp: on IPv4 unless that is
 * disabled or absent, else on IPv6; see plugins/ptl/tcp/tcp_module.h).
 * Connected and accepted tcp sockets have TCP_NODELAY set. A module reads
 * its parameters in open() and its directives from listen()'s info; it
 * reports errors through the services' output, once, with their cause.
 * The framework's internal API is mca/ptl/base/ptl_base.h; framing is
 * mca/ptl/base/frame.h.
 */
#ifndef PMIX_MCA_PTL_H
#define PMIX_MCA_PTL_H

#include <pmix/mca/mca.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PMIX_PTL_INTERFACE_MAJOR 1
#define PMIX_PTL_INTERFACE_MINOR 0

typedef struct pmix_ptl_module {
    const char *name;        /* "usock", "tcp" */
    /* Server: opens a listening socket as the info asks (PMIX_SERVER_TMPDIR
     * for usock, PMIX_TCP_IF_INCLUDE / PMIX_TCP_IPV4_PORT ... for tcp) and
     * returns it with the URI clients use to reach it (malloc'd).
     * PMIX_ERR_NOT_SUPPORTED when this transport is not wanted here. */
    pmix_status_t (*listen)(const pmix_info_t info[], size_t ninfo, int *listen_fd, char **uri);
    /* Server: undoes listen() (closes the socket, removes a socket file). */
    void (*unlisten)(int listen_fd, const char *uri);
    /* Server: accepts one pending connection; PMIX_ERR_WOULD_BLOCK if none. */
    pmix_status_t (*accept)(int listen_fd, int *fd);
    /* Client/tool: connects to uri within timeout_ms (0 = the module's
     * default); PMIX_ERR_NOT_SUPPORTED if the scheme is not this module's,
     * PMIX_ERR_UNREACH if nothing answers. */
    pmix_status_t (*connect)(const char *uri, int timeout_ms, int *fd);
} pmix_ptl_module_t;

#ifdef __cplusplus
}
#endif

#endif /* PMIX_MCA_PTL_H */
