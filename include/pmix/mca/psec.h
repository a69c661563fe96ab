/*
 * psec: who is on the other end of a connection.
 *
 * Multi-select, ordered by priority. A server accepts any of its available
 * modules; a client uses the one the server names in its environment
 * (PMIX_SECURITY_MODE), else its own first. The handshake carries the
 * module's name and the credential it creates; the server validates it
 * with the module of that name. Also used by PMIx_Get_credential and
 * PMIx_Validate_credential when the host does not provide them.
 *
 * Called on the progress thread (create_cred also on a client's init
 * path). Outputs are malloc'd and written only on success.
 */
#ifndef PMIX_MCA_PSEC_H
#define PMIX_MCA_PSEC_H

#include <sys/types.h>

#include <pmix/mca/mca.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PMIX_PSEC_INTERFACE_MAJOR 1
#define PMIX_PSEC_INTERFACE_MINOR 0

typedef struct pmix_psec_module {
    const char *name;        /* "native", "munge", "none" */
    /* Creates a credential for the caller. On success cred->bytes is
     * malloc'd (the caller frees it) and cred->size its length; a module
     * that reads the peer from the socket (native) or checks nothing (none)
     * returns an empty credential (bytes NULL, size 0). cred is not
     * written on failure. PMIX_ERR_BAD_PARAM for a NULL cred or a NULL
     * directives array with ndirs > 0. */
    pmix_status_t (*create_cred)(const pmix_info_t directives[], size_t ndirs,
                                 pmix_byte_object_t *cred);
    /* Validates a credential received over fd (fd < 0 when there is no
     * socket, e.g. PMIx_Validate_credential; cred NULL = empty) and writes
     * who it names to *uid and *gid (only on success). Directives may
     * carry what the host expects, PMIX_USERID / PMIX_GRPID (uint32); a
     * module that checks identities refuses another with
     * PMIX_ERR_NO_PERMISSIONS. PMIX_ERR_INVALID_CRED when the credential
     * is not valid (malformed, expired, replayed, another module's),
     * PMIX_ERR_NO_PERMISSIONS when the socket peer and the credential
     * disagree, PMIX_ERR_NOT_SUPPORTED when the module cannot judge this
     * connection (native: neither a Unix socket nor a loopback TCP
     * peer), PMIX_ERR_BAD_PARAM for
     * NULL outputs or directives of the wrong type. */
    pmix_status_t (*validate_cred)(int fd, const pmix_byte_object_t *cred,
                                   const pmix_info_t directives[], size_t ndirs,
                                   uid_t *uid, gid_t *gid);
} pmix_psec_module_t;

#ifdef __cplusplus
}
#endif

#endif /* PMIX_MCA_PSEC_H */
