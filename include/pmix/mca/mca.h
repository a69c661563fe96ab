/*
 * pmixx plugin SDK: the C ABI between libpmix and its components.
 *
 * A component is a shared object named pmix_mca_<framework>_<component>.so
 * that exports one symbol, pmix_mca_<framework>_<component>_component, of
 * type pmix_mca_component_t. libpmix finds it in $libdir/pmix and in the
 * directories of the mca_base_component_path parameter, checks the versions
 * in the descriptor, registers its parameters, and then:
 *
 *   open(services, values, &context)  once, when the framework opens; the
 *                                      component keeps what it needs;
 *   query(context, &module, &priority) when the framework selects: returns
 *                                      the framework's module struct and a
 *                                      priority, or PMIX_ERR_NOT_SUPPORTED;
 *   close(context)                     once, when the framework closes.
 *
 * All three are called on one thread at a time, never concurrently, and
 * must not throw (a C++ component catches at this boundary). A component
 * may call the public PMIx_* API and the services it is handed; it must not
 * rely on any other symbol of libpmix. It reads its parameters from the
 * typed values handed to open(), never from the environment.
 *
 * Compatibility: the loader refuses a component whose mca_major differs
 * from PMIX_MCA_BASE_VERSION_MAJOR, or whose mca_minor is newer than the
 * library's, or whose framework_major differs from the framework's
 * interface major (each framework header defines its own), with a message
 * naming the file and both versions.
 */
#ifndef PMIX_MCA_MCA_H
#define PMIX_MCA_MCA_H

#include <pmix_common.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PMIX_MCA_BASE_VERSION_MAJOR 1
#define PMIX_MCA_BASE_VERSION_MINOR 0

/* The types a parameter can have. */
typedef enum {
    PMIX_MCA_PARAM_INT = 0,      /* long long */
    PMIX_MCA_PARAM_UNSIGNED = 1, /* unsigned long long */
    PMIX_MCA_PARAM_SIZE = 2,     /* size_t; accepts k/m/g suffixes */
    PMIX_MCA_PARAM_BOOL = 3,     /* 1/0, true/false, yes/no, on/off */
    PMIX_MCA_PARAM_STRING = 4,   /* const char *, NULL allowed */
    PMIX_MCA_PARAM_DOUBLE = 5    /* double */
} pmix_mca_param_type_t;

/* One row of a component's parameter table. The full name of a parameter is
 * <framework>_<component>_<name>; it is set from the environment as
 * PMIX_MCA_<full name>, or in the parameter files as '<full name> = value'. */
typedef struct pmix_mca_param_desc {
    const char *name;                /* e.g. "priority" */
    pmix_mca_param_type_t type;
    const char *default_value;       /* textual, parsed like any other source */
    const char *help;                /* one line that justifies the default */
    const char *deprecated_synonym;  /* an older full name still accepted, or NULL */
} pmix_mca_param_desc_t;

/* A resolved parameter value, handed to open() in table order. */
typedef struct pmix_mca_param_value {
    pmix_mca_param_type_t type;
    union {
        long long integer;
        unsigned long long uinteger;
        size_t size;
        bool flag;
        const char *string;          /* owned by libpmix, valid until close() */
        double real;
    } value;
} pmix_mca_param_value_t;

/* What libpmix offers a component. */
typedef struct pmix_mca_services {
    uint32_t version;                /* PMIX_MCA_BASE_VERSION_MAJOR */
    /* Diagnostics on stderr, printed when the framework's verbosity
     * (<framework>_base_verbose) is >= level; level 0 = always (errors). */
    void (*output)(const char *framework, int level, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
} pmix_mca_services_t;

/* The descriptor every component exports. */
typedef struct pmix_mca_component {
    uint32_t mca_major;              /* PMIX_MCA_BASE_VERSION_MAJOR at build time */
    uint32_t mca_minor;              /* PMIX_MCA_BASE_VERSION_MINOR at build time */
    const char *framework;           /* "preg" */
    uint32_t framework_major;        /* the framework's interface version */
    uint32_t framework_minor;
    const char *name;                /* "native" */
    uint32_t version_major;          /* the component's own version */
    uint32_t version_minor;
    uint32_t version_release;
    int default_priority;            /* the default of <fw>_<comp>_priority */
    const pmix_mca_param_desc_t *params; /* may be NULL */
    size_t nparams;

    pmix_status_t (*open)(const pmix_mca_services_t *services,
                          const pmix_mca_param_value_t *values, void **context);
    pmix_status_t (*query)(void *context, const void **module, int *priority);
    void (*close)(void *context);
} pmix_mca_component_t;

/* Declares the exported descriptor with default visibility, so that it is
 * found by dlsym even when the component is built with hidden visibility. */
#define PMIX_MCA_COMPONENT_EXPORT __attribute__((visibility("default")))

#ifdef __cplusplus
}
#endif

#endif /* PMIX_MCA_MCA_H */
