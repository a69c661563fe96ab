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
    /* Creates a credential for the caller (may be empty for modules that
     * read the peer from the socket, as native does). */
    pmix_status_t (*create_cred)(const pmix_info_t directives[], size_t ndirs,
                                 pmix_byte_object_t *cred);
    /* Validates a credential received over fd (fd < 0 when there is no
     * socket, e.g. PMIx_Validate_credential) and returns who it names.
     * PMIX_ERR_INVALID_CRED when it is not valid, PMIX_ERR_NO_PERMISSIONS
     * when the socket peer and the credential disagree. */
    pmix_status_t (*validate_cred)(int fd, const pmix_byte_object_t *cred,
                                   const pmix_info_t directives[], size_t ndirs,
                                   uid_t *uid, gid_t *gid);
} pmix_psec_module_t;

#ifdef __cplusplus
}
#endif

#endif /* PMIX_MCA_PSEC_H */
