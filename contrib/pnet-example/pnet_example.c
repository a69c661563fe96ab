/*
 * An out-of-tree pmixx pnet component: "example", the hook a fabric vendor
 * fills in to prepare its network for each job.
 *
 * One C file compiled against the installed plugin SDK (pkg-config pmix)
 * into pmix_mca_pnet_example.so, dropped into a directory on the
 * mca_base_component_path parameter. Every selected pnet component takes
 * part in a job's setup, so once it is found it works alongside the
 * built-in "nic" component:
 *
 * - setup_application (on the node that launches the job): allocates the
 *   job's fabric resources -- here a made-up "network key",
 *   "<fabric>:<nspace>" -- and returns them as infos, which the host
 *   carries to every node of the job;
 * - setup_local_support (on each node): reads its key back and asks for an
 *   environment variable, EXAMPLE_FABRIC_KEY, in every local client of the
 *   job (PMIX_SET_ENVAR; PMIx_server_setup_fork applies it);
 * - fabric_info: describes its plane ("Example Corp", no devices) when a
 *   PMIx_Fabric_register names it (PMIX_FABRIC_PLANE = "example");
 * - deregister_nspace: the job is gone: release its resources.
 *
 * Parameter pnet_example_fabric (default "examplefab"): the fabric's name.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmix/mca/pnet.h>

#define EXAMPLE_KEY "example.fabric.key"

static const pmix_mca_param_desc_t params[] = {
    {"fabric", PMIX_MCA_PARAM_STRING, "examplefab", "The name of the example fabric", NULL},
};

static char *fabric = NULL;
static int jobs = 0; /* jobs with resources here: what a real component would track */

static pmix_status_t one_info(const char *key, const void *data, pmix_data_type_t type,
                              pmix_info_t **out, size_t *nout)
{
    pmix_info_t *info = PMIx_Info_create(1);
    if (NULL == info) {
        return PMIX_ERR_NOMEM;
    }
    pmix_status_t rc = PMIx_Info_load(&info[0], key, data, type);
    if (PMIX_SUCCESS != rc) {
        PMIx_Info_free(info, 1);
        return rc;
    }
    *out = info;
    *nout = 1;
    return PMIX_SUCCESS;
}

static pmix_status_t setup_application(const char *nspace, const pmix_info_t info[], size_t ninfo,
                                       pmix_info_t **out, size_t *nout)
{
    (void) info;
    (void) ninfo;
    char key[512];
    snprintf(key, sizeof key, "%s:%s", fabric, nspace);
    return one_info(EXAMPLE_KEY, key, PMIX_STRING, out, nout);
}

static pmix_status_t setup_local_support(const char *nspace, const pmix_info_t info[], size_t ninfo,
                                         pmix_info_t **out, size_t *nout)
{
    (void) nspace;
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], EXAMPLE_KEY) && PMIX_STRING == info[i].value.type) {
            pmix_envar_t envar = {"EXAMPLE_FABRIC_KEY", info[i].value.data.string, ':'};
            ++jobs;
            return one_info(PMIX_SET_ENVAR, &envar, PMIX_ENVAR, out, nout);
        }
    }
    return PMIX_ERR_NOT_SUPPORTED; /* not a job we set up: nothing to do */
}

static void deregister_nspace(const char *nspace)
{
    (void) nspace;
    if (jobs > 0) {
        --jobs;
    }
}

static pmix_status_t fabric_info(const pmix_info_t directives[], size_t ndirs, pmix_info_t **out,
                                 size_t *nout)
{
    (void) directives;
    (void) ndirs;
    size_t zero = 0;
    pmix_info_t *info = PMIx_Info_create(3);
    if (NULL == info) {
        return PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS != PMIx_Info_load(&info[0], PMIX_FABRIC_VENDOR, "Example Corp", PMIX_STRING)
        || PMIX_SUCCESS != PMIx_Info_load(&info[1], PMIX_FABRIC_IDENTIFIER, fabric, PMIX_STRING)
        || PMIX_SUCCESS != PMIx_Info_load(&info[2], PMIX_FABRIC_NUM_DEVICES, &zero, PMIX_SIZE)) {
        PMIx_Info_free(info, 3);
        return PMIX_ERR_NOMEM;
    }
    *out = info;
    *nout = 3;
    return PMIX_SUCCESS;
}

static const pmix_pnet_module_t module = {
    .name = "example",
    .fabric_info = fabric_info,
    .setup_application = setup_application,
    .setup_local_support = setup_local_support,
    .deregister_nspace = deregister_nspace,
};

static pmix_status_t example_open(const pmix_mca_services_t *services,
                                  const pmix_mca_param_value_t *values, void **context)
{
    (void) services;
    const char *f = values[0].value.string;
    if (NULL == f || '\0' == f[0]) {
        return PMIX_ERR_BAD_PARAM;
    }
    fabric = strdup(f);
    *context = NULL;
    return NULL == fabric ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
}

static pmix_status_t example_query(void *context, const void **mod, int *priority)
{
    (void) context;
    *mod = &module;
    *priority = 5; /* after nic: its plane is described only when named */
    return PMIX_SUCCESS;
}

static void example_close(void *context)
{
    (void) context;
    free(fabric);
    fabric = NULL;
}

PMIX_MCA_COMPONENT_EXPORT pmix_mca_component_t pmix_mca_pnet_example_component = {
    .mca_major = PMIX_MCA_BASE_VERSION_MAJOR,
    .mca_minor = PMIX_MCA_BASE_VERSION_MINOR,
    .framework = "pnet",
    .framework_major = PMIX_PNET_INTERFACE_MAJOR,
    .framework_minor = PMIX_PNET_INTERFACE_MINOR,
    .name = "example",
    .version_major = 1,
    .version_minor = 0,
    .version_release = 0,
    .default_priority = 5,
    .params = params,
    .nparams = sizeof(params) / sizeof(params[0]),
    .open = example_open,
    .query = example_query,
    .close = example_close,
};
