/*
 * preg: compact representations of node lists and per-node process lists
 * (PMIx_generate_regex, PMIx_generate_ppn, and their parsing by the server
 * when a host registers PMIX_NODE_MAP / PMIX_PROC_MAP).
 *
 * Multi-select, ordered by priority. Generating uses the first module that
 * does not answer PMIX_ERR_NOT_SUPPORTED. Every representation a module
 * produces is a NUL-terminated string that starts with the module's own
 * prefix (e.g. "pmix[" ... "]"), so parsing offers the string to each
 * module in turn and the one that recognises it answers; the others return
 * PMIX_ERR_NOT_SUPPORTED. Called on any thread; modules are stateless;
 * outputs are malloc'd (argv arrays: NULL-terminated, free with
 * PMIx_Argv_free) and written only on success.
 *
 * Reserved: no representation may contain '*' (consumers join environment
 * values with it); a module declines an input it cannot encode without it.
 *
 * Input syntax: a node list is comma-separated names ("n01,n02,login");
 * a ppn list has one entry per node, separated by ';', each a
 * comma-separated list of ranks ("0,1,2;3,4,5").
 */
#ifndef PMIX_MCA_PREG_H
#define PMIX_MCA_PREG_H

#include <pmix/mca/mca.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PMIX_PREG_INTERFACE_MAJOR 1
#define PMIX_PREG_INTERFACE_MINOR 0

typedef struct pmix_preg_module {
    const char *name;
    pmix_status_t (*generate_node_regex)(const char *input, char **regex);
    pmix_status_t (*generate_ppn)(const char *input, char **ppn);
    /* regex -> node names, in order */
    pmix_status_t (*parse_nodes)(const char *regex, char ***names);
    /* ppn regex -> one entry per node: that node's comma-separated ranks */
    pmix_status_t (*parse_procs)(const char *regex, char ***procs);
} pmix_preg_module_t;

#ifdef __cplusplus
}
#endif

#endif /* PMIX_MCA_PREG_H */
