/*
 * debug_daemon: a debugger's daemon for debugger.sh, spawned by debug_tool
 * through pmixrun with PMIX_DEBUGGER_DAEMONS and PMIX_DEBUG_TARGET. As
 * OpenPMIx's daemons do, it initialises as a tool (the launcher's
 * environment makes it its job's client), reads its target from its job's
 * data (PMIX_DEBUG_TARGET, and the deprecated PMIX_DEBUG_JOB), asks the
 * server for the target's local process table, checks every process is
 * alive (its pid), and releases them with PMIX_DEBUGGER_RELEASE. Prints
 * "PASS daemon <rank> <check>" / "FAIL ..." lines (client_util.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include <pmix_tool.h>

#include "client_util.h"

static bool CheckTable(const pmix_proc_t *target) {
    pmix_query_t query;
    PMIX_QUERY_CONSTRUCT(&query);
    (void)PMIx_Argv_append_nosize(&query.keys, PMIX_QUERY_LOCAL_PROC_TABLE);
    PMIX_QUERY_QUALIFIERS_CREATE(&query, 1);
    PMIX_INFO_LOAD(&query.qualifiers[0], PMIX_NSPACE, target->nspace, PMIX_STRING);
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    pmix_status_t rc = PMIx_Query_info(&query, 1, &results, &nresults);
    PMIX_QUERY_DESTRUCT(&query);
    bool ok = rc == PMIX_SUCCESS && nresults == 1 && results[0].value.type == PMIX_DATA_ARRAY &&
              results[0].value.data.darray != NULL &&
              results[0].value.data.darray->type == PMIX_PROC_INFO;
    Report("local_proc_table", ok, "no PMIX_PROC_INFO array", rc);
    if (!ok) return false;
    const pmix_data_array_t *a = results[0].value.data.darray;
    const pmix_proc_info_t *procs = (const pmix_proc_info_t *)a->array;
    bool alive = a->size > 0;
    for (size_t i = 0; i < a->size; ++i) {
        printf("TARGET %s %u pid %ld state %s\n", procs[i].proc.nspace, procs[i].proc.rank,
               (long)procs[i].pid, PMIx_Proc_state_string(procs[i].state));
        if (procs[i].pid <= 0 || kill(procs[i].pid, 0) != 0) alive = false;
    }
    Report("targets_alive", alive, "a target without a live pid", PMIX_ERR_NOT_FOUND);
    PMIX_INFO_FREE(results, nresults);
    return alive;
}

int main(void) {
    role = "daemon";
    pmix_status_t rc = PMIx_tool_init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        printf("FAIL daemon ? tool_init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    pmix_proc_t job, target;
    PMIX_LOAD_PROCID(&job, me.nspace, PMIX_RANK_WILDCARD);
    pmix_value_t *val = NULL;
    rc = PMIx_Get(&job, PMIX_DEBUG_TARGET, NULL, 0, &val);
    bool ok = rc == PMIX_SUCCESS && val != NULL && val->type == PMIX_PROC;
    Report("debug_target", ok, "no PMIX_DEBUG_TARGET proc in the job data", rc);
    if (ok) target = *val->data.proc;
    if (val != NULL) PMIX_VALUE_RELEASE(val);
    val = NULL;
    if (ok) {
        rc = PMIx_Get(&job, PMIX_DEBUG_JOB, NULL, 0, &val);
        bool same = rc == PMIX_SUCCESS && val != NULL && val->type == PMIX_STRING &&
                    PMIX_CHECK_NSPACE(val->data.string, target.nspace);
        Report("debug_job", same, "PMIX_DEBUG_JOB is not the target's namespace", rc);
        if (val != NULL) PMIX_VALUE_RELEASE(val);
        printf("DAEMON %s %u debugs %s\n", me.nspace, me.rank, target.nspace);
        fflush(stdout);
    }
    if (ok && CheckTable(&target)) {
        pmix_info_t range;
        pmix_proc_t all;
        PMIX_LOAD_PROCID(&all, target.nspace, PMIX_RANK_WILDCARD);
        PMIX_INFO_LOAD(&range, PMIX_EVENT_CUSTOM_RANGE, &all, PMIX_PROC);
        rc = PMIx_Notify_event(PMIX_DEBUGGER_RELEASE, &me, PMIX_RANGE_CUSTOM, &range, 1, NULL,
                               NULL);
        PMIX_INFO_DESTRUCT(&range);
        Report("release_sent", rc == PMIX_SUCCESS || rc == PMIX_OPERATION_SUCCEEDED, "notify", rc);
    }
    rc = PMIx_tool_finalize();
    Report("finalize", rc == PMIX_SUCCESS, "PMIx_tool_finalize", rc);
    return failures == 0 ? 0 : 1;
}
