/* One source for every toy component; local.mk builds it several times
 * with different -D flags (name, priority, broken versions, ...). */
#include <stdlib.h>
#include <string.h>

#include <pmix/mca/mca.h>

#include "test/unit/mca/toys/toy.h"

#ifndef TOY_MCA_MAJOR
#define TOY_MCA_MAJOR PMIX_MCA_BASE_VERSION_MAJOR
#endif
#ifndef TOY_FW_MAJOR
#define TOY_FW_MAJOR TOY_INTERFACE_MAJOR
#endif
#ifndef TOY_QUERY_RC
#define TOY_QUERY_RC PMIX_SUCCESS
#endif
#ifndef TOY_DESC_NAME
#define TOY_DESC_NAME TOY_NAME
#endif

#define TOY_STR2(x) #x
#define TOY_STR(x) TOY_STR2(x)
#define TOY_CAT3(a, b, c) a##b##c
#define TOY_SYMBOL(n) TOY_CAT3(pmix_mca_toy_, n, _component)

static long long toy_level;
static char toy_label[64];

#ifdef TOY_UNDEFINED
/* Defined nowhere: the loader refuses the file, as for a missing library. */
extern long long toy_symbol_nobody_defines;
static long long toy_get_level(void) { return toy_level + toy_symbol_nobody_defines; }
#else
static long long toy_get_level(void) { return toy_level; }
#endif
static const char *toy_get_label(void) { return toy_label; }

static const toy_module_t toy_module = {TOY_STR(TOY_NAME), toy_get_level, toy_get_label};

#ifdef TOY_BAD_DEFAULT
#define TOY_LEVEL_DEFAULT "seven" /* not an int: the table is refused */
#else
#define TOY_LEVEL_DEFAULT "7"
#endif

static const pmix_mca_param_desc_t toy_params[] = {
    {"level", PMIX_MCA_PARAM_INT, TOY_LEVEL_DEFAULT, "A number the tests read back", NULL},
    {"label", PMIX_MCA_PARAM_STRING, "plain", "A string the tests read back", "toy_old_label"},
};

static pmix_status_t toy_open(const pmix_mca_services_t *services,
                              const pmix_mca_param_value_t *values, void **context)
{
    toy_level = values[0].value.integer;
    strncpy(toy_label, values[1].value.string ? values[1].value.string : "(null)",
            sizeof toy_label - 1);
    services->output("toy", 5, "toy %s opened", TOY_STR(TOY_NAME));
    /* A heap context: a missing close() shows up as a leak under valgrind. */
    *context = malloc(16);
    return *context != NULL ? PMIX_SUCCESS : PMIX_ERR_NOMEM;
}

static pmix_status_t toy_query(void *context, const void **module, int *priority)
{
    (void)context;
    if (TOY_QUERY_RC != PMIX_SUCCESS) return TOY_QUERY_RC;
    *module = &toy_module;
    *priority = TOY_PRIORITY;
    return PMIX_SUCCESS;
}

static void toy_close(void *context) { free(context); }

#ifdef TOY_NO_SYMBOL
#define TOY_EXPORTED toy_descriptor_under_another_name
#else
#define TOY_EXPORTED TOY_SYMBOL(TOY_NAME)
#endif

PMIX_MCA_COMPONENT_EXPORT pmix_mca_component_t TOY_EXPORTED = {
    TOY_MCA_MAJOR, PMIX_MCA_BASE_VERSION_MINOR,
    "toy", TOY_FW_MAJOR, TOY_INTERFACE_MINOR,
    TOY_STR(TOY_DESC_NAME), 1, 2, 3,
    TOY_PRIORITY,
    toy_params, sizeof toy_params / sizeof toy_params[0],
    toy_open, toy_query, toy_close,
};
