/*
 * pnet: fabric (network) support for the server library -- what a node's
 * fabric looks like (PMIx_Fabric_register/update when the host has no
 * fabric upcall, PMIX_FABRIC_* queries) and what a job needs from it
 * (PMIx_server_setup_application / setup_local_support).
 *
 * Multi-select, ordered by priority; every selected module takes part:
 *
 * fabric_info: describes one fabric plane this component knows on this
 *   node as PMIX_FABRIC_* infos (PMIX_FABRIC_VENDOR, _IDENTIFIER,
 *   _NUM_DEVICES, _DEVICES: a data array of PMIX_FABRIC_DEVICE entries,
 *   each a data array of PMIX_FABRIC_DEVICE_* infos). A register or update
 *   uses the first module (by priority) that does not answer
 *   PMIX_ERR_NOT_SUPPORTED, or the module named by the PMIX_FABRIC_PLANE
 *   directive. NULL: the component describes no fabric.
 * setup_application: on the node that launches a job, data for the job's
 *   nodes (any infos; envar directives such as PMIX_SET_ENVAR reach every
 *   client of the job). Appended to what PMIx_server_setup_application
 *   returns; the host carries it to each node. NULL: nothing to add.
 * setup_local_support: on each node, the infos setup_application made
 *   (all modules', the host passes them back); returns envar directives
 *   (PMIX_SET_ENVAR ...) for the job's local clients, applied by
 *   PMIx_server_setup_fork. NULL: nothing to do.
 * deregister_nspace: the job ended here: drop what was kept for it.
 *
 * Outputs are arrays made with PMIx_Info_create (freed by the library with
 * PMIx_Info_free), written only on success; an empty answer is *out NULL,
 * *nout 0. Called on the server's progress thread, never concurrently.
 * Components may call the public API (PMIx_Load_topology for the node's
 * hwloc topology).
 */
#ifndef PMIX_MCA_PNET_H
#define PMIX_MCA_PNET_H

#include <pmix/mca/mca.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PMIX_PNET_INTERFACE_MAJOR 1
#define PMIX_PNET_INTERFACE_MINOR 0

typedef struct pmix_pnet_module {
    const char *name;
    pmix_status_t (*fabric_info)(const pmix_info_t directives[], size_t ndirs,
                                 pmix_info_t **out, size_t *nout);
    pmix_status_t (*setup_application)(const char *nspace, const pmix_info_t info[], size_t ninfo,
                                       pmix_info_t **out, size_t *nout);
    pmix_status_t (*setup_local_support)(const char *nspace, const pmix_info_t info[],
                                         size_t ninfo, pmix_info_t **out, size_t *nout);
    void (*deregister_nspace)(const char *nspace);
} pmix_pnet_module_t;

#ifdef __cplusplus
}
#endif

#endif /* PMIX_MCA_PNET_H */
