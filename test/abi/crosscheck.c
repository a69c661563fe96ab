/*
 * Cross-check of the PMIx Ch.3 helpers (values, infos, info lists, data
 * arrays, the header macros, the *_string functions and invalid input).
 *
 * Compiled against the reference headers only and run on each library; every
 * line of output is content, so two conforming libraries print the same text.
 * Inputs on which the reference library itself crashes or leaks are left out
 * (see the comments at each such place).
 */
#include "crosscheck.h"

#include <hwloc.h>
#include <pmix_tool.h>
#include "crosscheck_samples.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cc_values(void);
void cc_infos(void);
void cc_info_lists(void);
void cc_macros(void);
void cc_invalid(void);
void cc_hwtypes(void);

bool cc_initialized;

/* Initializes the library as a tool that does not connect to any server, so
 * that everything is set up without a server being present. The info is
 * filled by hand so that only PMIx_tool_init itself is needed. */
static void init_tool(void)
{
    pmix_proc_t me;
    pmix_info_t info;
    memset(&info, 0, sizeof info);
    strncpy(info.key, PMIX_TOOL_DO_NOT_CONNECT, PMIX_MAX_KEYLEN);
    info.value.type = PMIX_BOOL;
    info.value.data.flag = true;
    pmix_status_t rc = PMIx_tool_init(&me, &info, 1);
    cc_line("tool_init: rc=%d", rc);
    /* Even if the init failed, run everything: the rc line above already
     * differs, and the rest still shows what works. */
    cc_initialized = true;
}

static const struct {
    const char *name;
    void (*run)(void);
    bool needs_init;
} kSections[] = {
    {"strings", cc_strings, true},        {"attributes", cc_attributes, true},
    {"values", cc_values, false},         {"infos", cc_infos, false},
    {"info_lists", cc_info_lists, false}, {"macros", cc_macros, false},
    {"invalid", cc_invalid, false},       {"hwtypes", cc_hwtypes, true},
};
static const size_t kNumSections = sizeof kSections / sizeof kSections[0];

/* usage: crosscheck list | crosscheck noinit|tool [section]
 * export-topology FILE: writes this machine's hwloc topology to FILE (XML).
 * list:   prints the section names (crosscheck.sh runs each in its own
 *         process, so that a crash or a missing symbol loses one section only).
 * noinit: no PMIx_*init call at all (consumers such as Open MPI use the Ch.3
 *         helpers before initializing); the sections that print library
 *         strings are left out in this mode, since the reference's string
 *         tables are only complete after initialization.
 * tool:   PMIx_tool_init with PMIX_TOOL_DO_NOT_CONNECT first, then the
 *         section(s), then PMIx_tool_finalize. */
int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "export-topology") == 0) {
        /* crosscheck.sh: this machine's topology, discovered once, for the
         * hwtypes section (every run then loads the same one). */
        hwloc_topology_t topo = NULL;
        int rc = hwloc_topology_init(&topo) != 0 || hwloc_topology_load(topo) != 0 ||
                 hwloc_topology_export_xml(topo, argv[2], 0) != 0;
        if (topo != NULL) {
            hwloc_topology_destroy(topo);
        }
        return rc;
    }
    if (argc > 1 && strcmp(argv[1], "list") == 0) {
        for (size_t i = 0; i < kNumSections; ++i) {
            printf("%s\n", kSections[i].name);
        }
        return 0;
    }
    bool tool = argc > 1 && strcmp(argv[1], "tool") == 0;
    const char *only = argc > 2 ? argv[2] : NULL;
    /* The init and finalize lines carry the section this process runs, so
     * that every output line has a unique key (crosscheck.sh matches the
     * differences against crosscheck_deviations.txt by key). */
    char scope[64];
    snprintf(scope, sizeof scope, "%s%s%s", tool ? "tool" : "noinit", only ? "." : "",
             only ? only : "");
    cc_section(scope);
    if (tool) {
        init_tool();
    }
    for (size_t i = 0; i < kNumSections; ++i) {
        if (kSections[i].needs_init && !cc_initialized) {
            continue;
        }
        if (only == NULL || strcmp(only, kSections[i].name) == 0) {
            char name[64];
            snprintf(name, sizeof name, "%s.%s", tool ? "tool" : "noinit", kSections[i].name);
            cc_section(name);
            kSections[i].run();
        }
    }
    if (tool) {
        cc_section(scope);
        cc_line("tool_finalize: rc=%d", PMIx_tool_finalize());
    }
    return 0;
}
