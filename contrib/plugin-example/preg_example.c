/*
 * An out-of-tree pmixx component: preg "example".
 *
 * It is what a vendor writes to add a component without rebuilding pmixx:
 * one C file compiled against the installed plugin SDK (pkg-config pmix)
 * into pmix_mca_preg_example.so, dropped into a directory on the
 * mca_base_component_path parameter. pmix_info then lists it, and
 * PMIX_MCA_preg=example selects it.
 *
 * Its representation of a node or proc list is the list itself behind the
 * prefix "example:" (or the value of the preg_example_prefix parameter),
 * which shows the parameter table, open/query/close and the module
 * contract without any real compression.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */

#include <stdlib.h>
#include <string.h>

#include <pmix/mca/preg.h>

static const pmix_mca_param_desc_t params[] = {
    {"prefix", PMIX_MCA_PARAM_STRING, "example:",
     "The prefix that marks this component's representations", NULL},
};

/* The one piece of state: the prefix read from the parameter at open(). */
static char *prefix = NULL;

static pmix_status_t wrap(const char *input, char **out)
{
    if (NULL == input || NULL == out) {
        return PMIX_ERR_BAD_PARAM;
    }
    size_t plen = strlen(prefix), ilen = strlen(input);
    char *text = malloc(plen + ilen + 1);
    if (NULL == text) {
        return PMIX_ERR_NOMEM;
    }
    memcpy(text, prefix, plen);
    memcpy(text + plen, input, ilen + 1);
    *out = text;
    return PMIX_SUCCESS;
}

static pmix_status_t unwrap(const char *regex, char ***list, int delimiter)
{
    if (NULL == regex || NULL == list) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (0 != strncmp(regex, prefix, strlen(prefix))) {
        return PMIX_ERR_NOT_SUPPORTED; /* not ours: the next module may know it */
    }
    char **items = PMIx_Argv_split_with_empty(regex + strlen(prefix), delimiter);
    if (NULL == items) {
        return PMIX_ERR_NOMEM;
    }
    *list = items;
    return PMIX_SUCCESS;
}

static pmix_status_t generate_node_regex(const char *input, char **regex)
{
    return wrap(input, regex);
}

static pmix_status_t generate_ppn(const char *input, char **ppn)
{
    return wrap(input, ppn);
}

static pmix_status_t parse_nodes(const char *regex, char ***names)
{
    return unwrap(regex, names, ',');
}

static pmix_status_t parse_procs(const char *regex, char ***procs)
{
    return unwrap(regex, procs, ';');
}

static const pmix_preg_module_t module = {
    .name = "example",
    .generate_node_regex = generate_node_regex,
    .generate_ppn = generate_ppn,
    .parse_nodes = parse_nodes,
    .parse_procs = parse_procs,
};

static pmix_status_t example_open(const pmix_mca_services_t *services,
                                  const pmix_mca_param_value_t *values, void **context)
{
    (void) services;
    const char *p = values[0].value.string;
    /* The prefix must be non-empty and free of the characters consumers
     * reserve in environment values. */
    if (NULL == p || '\0' == p[0] || NULL != strpbrk(p, "*[],;")) {
        return PMIX_ERR_BAD_PARAM;
    }
    prefix = strdup(p);
    *context = NULL;
    return NULL == prefix ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
}

static pmix_status_t example_query(void *context, const void **mod, int *priority)
{
    (void) context;
    *mod = &module;
    *priority = 5; /* below the built-in ones unless selected explicitly */
    return PMIX_SUCCESS;
}

static void example_close(void *context)
{
    (void) context;
    free(prefix);
    prefix = NULL;
}

PMIX_MCA_COMPONENT_EXPORT pmix_mca_component_t pmix_mca_preg_example_component = {
    .mca_major = PMIX_MCA_BASE_VERSION_MAJOR,
    .mca_minor = PMIX_MCA_BASE_VERSION_MINOR,
    .framework = "preg",
    .framework_major = PMIX_PREG_INTERFACE_MAJOR,
    .framework_minor = PMIX_PREG_INTERFACE_MINOR,
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
