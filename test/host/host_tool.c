/*
 * Tools and the test host: the tool_connected upcall and the --tool
 * process (see host.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test/host/host.h"

extern char **environ;

static const pmix_info_t *Find(const pmix_info_t *info, size_t ninfo, const char *key) {
    for (size_t i = 0; i < ninfo; ++i)
        if (strncmp(info[i].key, key, PMIX_MAX_KEYLEN) == 0) return &info[i];
    return NULL;
}

void HostToolConnected(pmix_info_t *info, size_t ninfo, pmix_tool_connection_cbfunc_t cbfunc,
                       void *cbdata) {
    const pmix_info_t *uid = Find(info, ninfo, PMIX_USERID);
    const pmix_info_t *ns = Find(info, ninfo, PMIX_NSPACE);
    const char *policy = host_opts.tool_upcall ? host_opts.tool_upcall : "same-uid";
    if (!uid || uid->value.type != PMIX_UINT32 ||
        (strcmp(policy, "any-uid") != 0 && uid->value.data.uint32 != (uint32_t)getuid())) {
        HostVerbose("tool_connected: refusing uid %u", uid ? uid->value.data.uint32 : 0u);
        pthread_mutex_lock(&host_state.lock);
        host_state.tools_refused++;
        pthread_mutex_unlock(&host_state.lock);
        cbfunc(PMIX_ERR_NO_PERMISSIONS, NULL, cbdata);
        return;
    }
    pthread_mutex_lock(&host_state.lock);
    int n = host_state.tools++;
    pthread_mutex_unlock(&host_state.lock);
    if (ns) { /* the tool named itself: keep it */
        HostVerbose("tool_connected: %s", ns->value.data.string);
        cbfunc(PMIX_SUCCESS, NULL, cbdata);
        return;
    }
    pmix_proc_t id;
    char name[PMIX_MAX_NSLEN + 1];
    snprintf(name, sizeof name, "%.200s-tool-%d", host_opts.nspace, n);
    PMIX_LOAD_PROCID(&id, name, 0);
    HostVerbose("tool_connected: assigned %s", name);
    cbfunc(PMIX_SUCCESS, &id, cbdata);
}

static void SetVar(char ***env, size_t *n, const char *name, const char *value) {
    char *entry = NULL;
    if (asprintf(&entry, "%s=%s", name, value) < 0) return;
    char **grown = realloc(*env, (*n + 2) * sizeof(char *));
    if (!grown) {
        free(entry);
        return;
    }
    *env = grown;
    (*env)[(*n)++] = entry;
    (*env)[*n] = NULL;
}

/* The host's environment without PMIx variables, plus where the server is. */
static char **ToolEnv(void) {
    char **env = NULL;
    size_t n = 0;
    for (char **e = environ; *e; ++e) {
        if (strncmp(*e, "PMIX_", 5) == 0 && strncmp(*e, "PMIX_MCA_", 9) != 0) continue;
        if (strncmp(*e, "TMPDIR=", 7) == 0) continue;
        char *eq = strchr(*e, '=');
        if (!eq) continue;
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(eq - *e), *e);
        SetVar(&env, &n, name, eq + 1);
    }
    char num[32], server_ns[PMIX_MAX_NSLEN + 1];
    snprintf(server_ns, sizeof server_ns, "%.200s-srv%d", host_opts.nspace, host_opts.node_id);
    SetVar(&env, &n, "PMIXX_TEST_NSPACE", host_opts.nspace);
    SetVar(&env, &n, "PMIXX_TEST_SERVER_NSPACE", server_ns);
    snprintf(num, sizeof num, "%d", (int)getpid());
    SetVar(&env, &n, "PMIXX_TEST_SERVER_PID", num);
    snprintf(num, sizeof num, "%d", host_opts.nprocs + host_opts.remote_procs);
    SetVar(&env, &n, "PMIXX_TEST_NPROCS", num);
    SetVar(&env, &n, "PMIXX_TEST_TMPDIR", host_opts.tmpdir);
    SetVar(&env, &n, "PMIXX_TEST_HOSTNAME", host_name);
    SetVar(&env, &n, "TMPDIR", host_opts.tmpdir);
    if (host_opts.report_uri) SetVar(&env, &n, "PMIXX_TEST_URI_FILE", host_opts.report_uri);
    return env;
}

int HostLaunchTool(void) {
    if (!host_opts.tool_cmd) return 0;
    char *copy = strdup(host_opts.tool_cmd);
    char *argv[64];
    int argc = 0;
    for (char *tok = strtok(copy, " "); tok && argc < 63; tok = strtok(NULL, " ")) argv[argc++] = tok;
    argv[argc] = NULL;
    if (argc == 0) {
        free(copy);
        return -1;
    }
    char **env = ToolEnv();
    pid_t pid = fork();
    if (pid == 0) {
        execve(argv[0], argv, env);
        _exit(127);
    }
    for (char **e = env; e && *e; ++e) free(*e);
    free(env);
    free(copy);
    if (pid < 0) {
        HostLog("fork (tool): %s", strerror(errno));
        return -1;
    }
    host_state.tool_pid = pid;
    HostVerbose("tool started: %s", host_opts.tool_cmd);
    return 0;
}

void HostKillTool(void) {
    if (host_state.tool_pid > 0) kill(host_state.tool_pid, SIGKILL);
}

int HostWaitTool(void) {
    if (host_state.tool_pid <= 0) return 0;
    const struct timespec tick = {0, 5 * 1000000L};
    for (long waited = 0; waited < host_opts.timeout_sec * 1000L; waited += 5) {
        int st = 0;
        pid_t got = waitpid(host_state.tool_pid, &st, WNOHANG);
        if (got == host_state.tool_pid) {
            host_state.tool_pid = 0;
            host_state.tool_status = st;
            if (WIFEXITED(st) && WEXITSTATUS(st) == 0) return 0;
            HostLog("tool: %s %d", WIFEXITED(st) ? "exit" : "signal",
                    WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
            return -1;
        }
        nanosleep(&tick, NULL);
    }
    HostLog("tool still running after %d s: killing it", host_opts.timeout_sec);
    HostKillTool();
    (void)waitpid(host_state.tool_pid, NULL, 0);
    host_state.tool_pid = 0;
    return -1;
}
