/*
 * Job registration (what a real RM tells the server about a job), client
 * launch (register_client + setup_fork + fork/exec) and the bounded wait.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test/host/host.h"

extern char **environ;

typedef struct {
    int done;  /* under host_state.lock (HostSetFlag / HostWaitFlag) */
    pmix_status_t status;
} OpWait;

static void OpDone(pmix_status_t status, void *cbdata) {
    OpWait *w = cbdata;
    w->status = status;
    HostSetFlag(&w->done);
}

/* An API that completes through an op callback: returns the final status. */
static pmix_status_t Complete(pmix_status_t rc, OpWait *w, const char *what) {
    if (rc == PMIX_OPERATION_SUCCEEDED) return PMIX_SUCCESS;
    if (rc != PMIX_SUCCESS) return rc;
    if (HostWaitFlag(&w->done, 5000) != 0) {
        HostLog("%s: callback not called within 5 s", what);
        return PMIX_ERR_TIMEOUT;
    }
    return w->status;
}

static int TotalProcs(void) { return host_opts.nprocs + host_opts.remote_procs; }

static int NodeSize(int node) {
    return node == host_opts.node_id ? host_opts.nprocs : host_opts.remote_procs;
}

int HostNodeOfRank(pmix_rank_t rank) {
    int node0 = NodeSize(0);
    return (long)rank < node0 ? 0 : 1;
}

static int FirstRankOf(int node) { return node == 0 ? 0 : NodeSize(0); }

/* "a-b" or "a" for the ranks of one node. */
static void RankRange(int node, char *out, size_t len) {
    int first = FirstRankOf(node), n = NodeSize(node);
    if (n == 1) snprintf(out, len, "%d", first);
    else snprintf(out, len, "%d-%d", first, first + n - 1);
}

static char *MakeMap(int ppn) {
    char input[4096];
    char *result = NULL;
    pmix_status_t rc;
    if (!ppn) {
        snprintf(input, sizeof input, "%s%s%s", host_name, TotalProcs() > host_opts.nprocs ? "," : "",
                 host_opts.remote_procs > 0 || host_opts.node_id == 1 ? peer_host_name : "");
        rc = PMIx_generate_regex(input, &result);
    } else {
        char r0[64], r1[64];
        RankRange(0, r0, sizeof r0);
        RankRange(1, r1, sizeof r1);
        snprintf(input, sizeof input, "%s%s%s", r0, host_opts.remote_procs > 0 ? ";" : "",
                 host_opts.remote_procs > 0 ? r1 : "");
        rc = PMIx_generate_ppn(input, &result);
    }
    if (rc != PMIX_SUCCESS) {
        HostLog("PMIx_generate_%s(%s): %s", ppn ? "ppn" : "regex", input, PMIx_Error_string(rc));
        return NULL;
    }
    HostVerbose("%s map '%s'", ppn ? "proc" : "node", input);
    return result;
}

/* One rank's process-realm info, as the array value of PMIX_PROC_INFO_ARRAY
 * (PMIX_PROC_DATA): the standard keys, and keys of the host's own that
 * differ per rank ("test.proc.*": clients dump them, client_image.c). */
static void LoadProcData(pmix_info_t *dst, pmix_rank_t rank) {
    int node = HostNodeOfRank(rank);
    uint16_t local = (uint16_t)(rank - (pmix_rank_t)FirstRankOf(node));
    uint32_t appnum = 0, nodeid = (uint32_t)node, reinc = 0, proc_u32 = 1000 + rank;
    char proc_str[64];
    snprintf(proc_str, sizeof proc_str, "rank-%u-on-node-%d", (unsigned)rank, node);
    pmix_data_array_t *arr;
    PMIX_DATA_ARRAY_CREATE(arr, 11, PMIX_INFO);
    pmix_info_t *in = arr->array;
    PMIX_INFO_LOAD(&in[0], PMIX_RANK, &rank, PMIX_PROC_RANK);
    PMIX_INFO_LOAD(&in[1], PMIX_APPNUM, &appnum, PMIX_UINT32);
    PMIX_INFO_LOAD(&in[2], PMIX_LOCAL_RANK, &local, PMIX_UINT16);
    PMIX_INFO_LOAD(&in[3], PMIX_NODE_RANK, &local, PMIX_UINT16);
    PMIX_INFO_LOAD(&in[4], PMIX_GLOBAL_RANK, &rank, PMIX_PROC_RANK);
    PMIX_INFO_LOAD(&in[5], PMIX_APP_RANK, &rank, PMIX_PROC_RANK);
    PMIX_INFO_LOAD(&in[6], PMIX_HOSTNAME, node == 0 ? host_name : peer_host_name, PMIX_STRING);
    PMIX_INFO_LOAD(&in[7], PMIX_NODEID, &nodeid, PMIX_UINT32);
    PMIX_INFO_LOAD(&in[8], PMIX_REINCARNATION, &reinc, PMIX_UINT32);
    PMIX_INFO_LOAD(&in[9], "test.proc.str", proc_str, PMIX_STRING);
    PMIX_INFO_LOAD(&in[10], "test.proc.u32", &proc_u32, PMIX_UINT32);
    PMIX_INFO_CONSTRUCT(dst);
    PMIX_LOAD_KEY(dst->key, PMIX_PROC_INFO_ARRAY);
    dst->value.type = PMIX_DATA_ARRAY;
    dst->value.data.darray = arr; /* dst owns it now */
}

/* Ranks on this node, "a,b,c". */
static char *LocalPeers(void) {
    size_t len = (size_t)host_opts.nprocs * 8 + 1;
    char *s = calloc(1, len);
    if (!s) return NULL;
    for (int i = 0; i < host_opts.nprocs; ++i) {
        size_t used = strlen(s);
        snprintf(s + used, len - used, "%s%d", i ? "," : "", host_opts.rank_offset + i);
    }
    return s;
}

/* The job's session (PMIX_SESSION_INFO_ARRAY), id first: its size and
 * nodes, and a key of the host's own ("test.session.str"). */
#define kSessionId 7
static void LoadSession(pmix_info_t *dst, uint32_t total, const char *node_list) {
    uint32_t id = kSessionId;
    pmix_data_array_t *arr;
    PMIX_DATA_ARRAY_CREATE(arr, 5, PMIX_INFO);
    pmix_info_t *in = arr->array;
    PMIX_INFO_LOAD(&in[0], PMIX_SESSION_ID, &id, PMIX_UINT32);
    PMIX_INFO_LOAD(&in[1], PMIX_UNIV_SIZE, &total, PMIX_UINT32);
    PMIX_INFO_LOAD(&in[2], PMIX_MAX_PROCS, &total, PMIX_UINT32);
    PMIX_INFO_LOAD(&in[3], PMIX_ALLOCATED_NODELIST, node_list, PMIX_STRING);
    PMIX_INFO_LOAD(&in[4], "test.session.str", "session-level-string", PMIX_STRING);
    PMIX_INFO_CONSTRUCT(dst);
    PMIX_LOAD_KEY(dst->key, PMIX_SESSION_INFO_ARRAY);
    dst->value.type = PMIX_DATA_ARRAY;
    dst->value.data.darray = arr; /* dst owns it now */
}

#define kJobKeys 15
/* The job's registration; `again`: the --reregister-job one, whose
 * universe size and test.job.str differ from the first. */
static int RegisterJob(int again) {
    uint32_t total = (uint32_t)TotalProcs(), local = (uint32_t)host_opts.nprocs;
    uint32_t univ = again ? total + HOST_REREGISTER_EXTRA_UNIV : total;
    uint32_t nnodes = host_opts.remote_procs > 0 ? 2 : 1;
    pmix_rank_t ldr = (pmix_rank_t)host_opts.rank_offset;
    int32_t test_int = -17;
    uint64_t test_u64 = (uint64_t)1 << 40;
    char *node_map = MakeMap(0), *proc_map = MakeMap(1), *peers = LocalPeers();
    if (!node_map || !proc_map || !peers) return -1;
    size_t ninfo = kJobKeys + total;
    pmix_info_t *info;
    PMIX_INFO_CREATE(info, ninfo);
    size_t n = 0;
    char node_list[sizeof host_name + sizeof peer_host_name + 1];
    snprintf(node_list, sizeof node_list, "%s%s%s", host_name, TotalProcs() > host_opts.nprocs ? "," : "",
             host_opts.remote_procs > 0 || host_opts.node_id == 1 ? peer_host_name : ""); /* as MakeMap */
    LoadSession(&info[n++], total, node_list);
    PMIX_INFO_LOAD(&info[n++], PMIX_JOBID, host_opts.nspace, PMIX_STRING);
    PMIX_INFO_LOAD(&info[n++], PMIX_UNIV_SIZE, &univ, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[n++], PMIX_JOB_SIZE, &total, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[n++], PMIX_MAX_PROCS, &total, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[n++], PMIX_NUM_NODES, &nnodes, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[n++], PMIX_NODE_MAP, node_map, PMIX_STRING);
    PMIX_INFO_LOAD(&info[n++], PMIX_PROC_MAP, proc_map, PMIX_STRING);
    PMIX_INFO_LOAD(&info[n++], PMIX_LOCAL_SIZE, &local, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[n++], PMIX_LOCAL_PEERS, peers, PMIX_STRING);
    PMIX_INFO_LOAD(&info[n++], PMIX_LOCALLDR, &ldr, PMIX_PROC_RANK);
    PMIX_INFO_LOAD(&info[n++], "test.job.str", again ? "job-level-string-2" : "job-level-string",
                   PMIX_STRING);
    PMIX_INFO_LOAD(&info[n++], "test.job.int", &test_int, PMIX_INT32);
    PMIX_INFO_LOAD(&info[n++], "test.job.u64", &test_u64, PMIX_UINT64);
    for (uint32_t r = 0; r < total; ++r) LoadProcData(&info[n++], r);
    free(node_map);
    free(proc_map);
    free(peers);
    OpWait w = {0, PMIX_SUCCESS};
    pmix_status_t rc = PMIx_server_register_nspace(host_opts.nspace, host_opts.nprocs, info, n,
                                                   OpDone, &w);
    rc = Complete(rc, &w, "PMIx_server_register_nspace");
    PMIX_INFO_FREE(info, ninfo);
    if (rc != PMIX_SUCCESS) {
        HostLog("PMIx_server_register_nspace(%s%s): %s", host_opts.nspace, again ? ", again" : "",
                PMIx_Error_string(rc));
        return -1;
    }
    return 0;
}

int HostRegisterJob(void) { return RegisterJob(0); }

static char **CopyEnviron(void) {
    size_t n = 0;
    while (environ[n]) ++n;
    char **env = calloc(n + 1, sizeof *env);
    for (size_t i = 0; env && i < n; ++i) env[i] = strdup(environ[i]);
    return env;
}

static void FreeEnv(char **env) {
    for (size_t i = 0; env && env[i]; ++i) free(env[i]);
    free(env);
}

/* When the --kill-rank client stopped itself (AwaitTheKill in
 * client_util.h): its kill is due --kill-after-ms later. */
static struct timespec stop_time;
static int stopped;

/* In the child: a launcher passes on only stdin/out/err. Without this the
 * server's sockets (listener, other clients' connections) live on in every
 * client, and a dead server never looks dead to them. */
static void CloseInheritedFds(void) {
    if (close_range(3, ~0U, 0) == 0) return;
    long max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 65536) max = 65536;
    for (int fd = 3; fd < max; ++fd) close(fd);
}

/* Forks the client program as `proc` with its setup_fork environment; as
 * the user `as_uid` (its group too) unless that is negative (needs root).
 * The pid, or -1. */
static pid_t ForkClient(const pmix_proc_t *proc, long as_uid, int show_env) {
    char **env = CopyEnviron();
    pmix_status_t rc = PMIX_ERR_NOMEM;
    if (!env || (rc = PMIx_server_setup_fork(proc, &env)) != PMIX_SUCCESS) {
        HostLog("PMIx_server_setup_fork(rank %u): %s", proc->rank, PMIx_Error_string(rc));
        FreeEnv(env);
        return -1;
    }
    if (host_opts.verbose && show_env)
        for (size_t i = 0; env[i]; ++i)
            if (strncmp(env[i], "PMIX_", 5) == 0) HostVerbose("setup_fork env: %s", env[i]);
    char **argv = host_opts.client_argv;
    pid_t pid = fork();
    if (pid == 0) {
        CloseInheritedFds();
        if (as_uid >= 0 && (setgroups(0, NULL) != 0 || setresgid((gid_t)as_uid, (gid_t)as_uid, (gid_t)as_uid) != 0 ||
                            setresuid((uid_t)as_uid, (uid_t)as_uid, (uid_t)as_uid) != 0))
            _exit(126);
        if (strchr(argv[0], '/')) execve(argv[0], argv, env);
        else execvpe(argv[0], argv, env);
        _exit(127);
    }
    FreeEnv(env);
    if (pid < 0) HostLog("fork: %s", strerror(errno));
    return pid;
}

static int LaunchOne(int idx) {
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, host_opts.nspace, (pmix_rank_t)(host_opts.rank_offset + idx));
    uid_t uid = host_opts.client_uid >= 0 ? (uid_t)host_opts.client_uid : getuid();
    gid_t gid = host_opts.client_uid >= 0 ? (gid_t)host_opts.client_uid : getgid();
    if ((int)proc.rank == host_opts.refuse_rank) ++uid;
    OpWait w = {0, PMIX_SUCCESS};
    pmix_status_t rc = PMIx_server_register_client(&proc, uid, gid, NULL, OpDone, &w);
    if ((rc = Complete(rc, &w, "PMIx_server_register_client")) != PMIX_SUCCESS) {
        HostLog("PMIx_server_register_client(rank %u): %s", proc.rank, PMIx_Error_string(rc));
        return -1;
    }
    pid_t pid = ForkClient(&proc, host_opts.client_uid, idx == 0);
    if (pid < 0) return -1;
    host_state.pids[idx] = pid;
    return 0;
}

/* Waits (at most the run's timeout) until an upcall counter of
 * host_state reaches `want`. */
static void WaitCount(const int *count, int want) {
    const struct timespec tick = {0, 10000000L};
    for (int i = 0; i < host_opts.timeout_sec * 100; ++i) {
        pthread_mutex_lock(&host_state.lock);
        int now = *count;
        pthread_mutex_unlock(&host_state.lock);
        if (now >= want) return;
        nanosleep(&tick, NULL);
    }
}

/* Waits (at most the run's timeout) until every client has connected. */
static void WaitAllConnected(void) { WaitCount(&host_state.connected, host_opts.nprocs); }

/* --impostor-rank R: once the clients are connected, the client program
 * runs a second time as rank R (the same environment) under uid/gid 65534:
 * a local user claiming to be a process of the job. It must be refused
 * (exit 2) and change nothing for the real rank R. */
enum { kImpostorUid = 65534 };

int HostLaunchImpostor(void) {
    if (host_opts.impostor_rank < 0) return 0;
    if (getuid() != 0) {
        HostLog("--impostor-rank needs root (to run it as uid %d)", kImpostorUid);
        return -1;
    }
    WaitAllConnected();
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, host_opts.nspace, (pmix_rank_t)host_opts.impostor_rank);
    host_state.impostor_pid = ForkClient(&proc, kImpostorUid, 0);
    HostVerbose("impostor of rank %d started (uid %d)", host_opts.impostor_rank, kImpostorUid);
    return host_state.impostor_pid > 0 ? 0 : -1;
}

int HostWaitImpostor(void) {
    if (host_state.impostor_pid <= 0) return 0;
    int st = 0;
    pid_t got = 0;
    const struct timespec tick = {0, 5 * 1000000L};
    for (long waited = 0; got == 0 && waited < host_opts.timeout_sec * 1000L; waited += 5) {
        got = waitpid(host_state.impostor_pid, &st, WNOHANG);
        if (got == 0) nanosleep(&tick, NULL);
    }
    if (got == 0) {
        kill(host_state.impostor_pid, SIGKILL);
        (void)waitpid(host_state.impostor_pid, &st, 0);
    }
    host_state.impostor_pid = 0;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 2) return 0;
    HostLog("impostor of rank %d: %s %d, expected exit 2 (PMIx_Init refused)", host_opts.impostor_rank,
            WIFEXITED(st) ? "exit" : "signal", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
    return -1;
}

int HostLaunchClients(void) {
    for (int i = 0; i < host_opts.nprocs; ++i)
        if (LaunchOne(i) != 0) return -1;
    HostVerbose("launched %d clients of %s", host_opts.nprocs, host_opts.nspace);
    return 0;
}

void HostKillAll(void) {
    for (int i = 0; i < host_opts.nprocs; ++i)
        if (host_state.pids[i] > 0 && !host_state.exited[i]) kill(host_state.pids[i], SIGKILL);
}

static long ElapsedMs(const struct timespec *since) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - since->tv_sec) * 1000L + (now.tv_nsec - since->tv_nsec) / 1000000L;
}

/* Did this client end the way the mode expects? */
static int EndedAsExpected(int idx) {
    int rank = host_opts.rank_offset + idx, st = host_state.status[idx];
    const char *want = "exit 0";
    int ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
    if (host_opts.expect_abort) {
        want = "anything (job aborted)";
        ok = 1;
    } else if (rank == host_opts.kill_rank) {
        want = "SIGKILL by the host";
        ok = WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
    } else if (rank == host_opts.refuse_rank || rank == host_opts.bad_cred_rank) {
        want = "exit 2 (PMIx_Init refused)";
        ok = WIFEXITED(st) && WEXITSTATUS(st) == 2;
    }
    if (!ok)
        HostLog("rank %d: %s %d, expected %s", rank, WIFEXITED(st) ? "exit" : "signal",
                WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), want);
    return ok;
}

/* A client that ended without its last PMIx_Finalize (refused, crashed,
 * killed): as a real RM does, the host tells the server it is gone, so that
 * no collective waits for it. */
static void DeregisterIfGone(int idx) {
    pthread_mutex_lock(&host_state.lock);
    int finalized = host_state.finalized_rank[idx] >= host_opts.finalizes;
    int connected = host_state.connected_rank[idx] > 0;
    pthread_mutex_unlock(&host_state.lock);
    if (finalized) return;
    /* OpenPMIx 4.2.2 (measured) never calls back when the client never
     * connected, and its server then stops answering the others. */
    if (!connected && strstr(PMIx_Get_version(), "pmixx") == NULL) return;
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, host_opts.nspace, (pmix_rank_t)(host_opts.rank_offset + idx));
    OpWait w = {0, PMIX_SUCCESS};
    PMIx_server_deregister_client(&proc, OpDone, &w);
    if (HostWaitFlag(&w.done, 5000) != 0)
        HostLog("PMIx_server_deregister_client(rank %u): callback not called within 5 s", proc.rank);
    else
        HostVerbose("rank %u deregistered (ended without PMIx_Finalize)", proc.rank);
}

/* Reap what has ended; returns how many are still running. */
static int ReapSome(void) {
    int running = 0;
    for (int i = 0; i < host_opts.nprocs; ++i) {
        if (host_state.pids[i] <= 0 || host_state.exited[i]) continue;
        int st = 0;
        pid_t got = waitpid(host_state.pids[i], &st, WNOHANG | WUNTRACED);
        if (got == host_state.pids[i] && WIFSTOPPED(st)) {
            if (host_opts.rank_offset + i == host_opts.kill_rank && !stopped) {
                clock_gettime(CLOCK_MONOTONIC, &stop_time);
                stopped = 1;
                HostVerbose("rank %d stopped itself: killed in %d ms", host_opts.kill_rank,
                            host_opts.kill_after_ms);
            }
            ++running;
        } else if (got == host_state.pids[i] || (got < 0 && errno == ECHILD)) {
            host_state.exited[i] = 1;
            host_state.status[i] = st;
            HostVerbose("rank %d ended: status 0x%x", host_opts.rank_offset + i, st);
            DeregisterIfGone(i);
        } else {
            ++running;
        }
    }
    return running;
}

static void MaybeKillRank(void) {
    static int done;
    int idx = host_opts.kill_rank - host_opts.rank_offset;
    if (done || host_opts.kill_rank < 0 || idx < 0 || idx >= host_opts.nprocs) return;
    if (!stopped || ElapsedMs(&stop_time) < host_opts.kill_after_ms) return;
    done = 1;
    if (host_state.exited[idx]) return;
    HostVerbose("killing rank %d (pid %d)", host_opts.kill_rank, (int)host_state.pids[idx]);
    kill(host_state.pids[idx], SIGKILL);
}

int HostWaitClients(void) {
    struct timespec begin;
    clock_gettime(CLOCK_MONOTONIC, &begin);
    const struct timespec tick = {0, 5 * 1000000L};
    int killed_all = 0;
    while (ReapSome() > 0) {
        MaybeKillRank();
        if (__atomic_load_n(&host_state.kill_job, __ATOMIC_ACQUIRE) && !killed_all) {
            HostVerbose("job aborted: killing all clients");
            HostKillAll();
            killed_all = 1;
        }
        if (ElapsedMs(&begin) > host_opts.timeout_sec * 1000L) {
            HostLog("timeout (%d s): clients still running, killing them", host_opts.timeout_sec);
            HostKillAll();
            killed_all = 1;
            host_opts.expect_abort = 0;  /* a timeout is never an expected end */
            host_opts.kill_rank = -1;
        }
        nanosleep(&tick, NULL);
    }
    int bad = 0;
    for (int i = 0; i < host_opts.nprocs; ++i)
        if (host_state.pids[i] > 0 && !EndedAsExpected(i)) ++bad;
    return bad;
}

int HostDeregisterJob(void) {
    OpWait w = {0, PMIX_SUCCESS};
    PMIx_server_deregister_nspace(host_opts.nspace, OpDone, &w);
    if (HostWaitFlag(&w.done, 5000) == 0) return 0;
    HostLog("PMIx_server_deregister_nspace: callback not called within 5 s");
    return -1;
}

/* --extra-nspace: a second job of 2 procs, none on this node -- a
 * namespace clients can connect to (the connect upcall succeeds) and whose
 * job info they may read afterwards. */
static void ExtraNspace(char *out, size_t len) {
    snprintf(out, len, "%.200s-x", host_opts.nspace);
}

/* A job of 2 procs, none on this node, whose job info is `key` = `value`;
 * with `owned` its procs are registered as clients of the host's uid
 * (never started). */
static int RegisterOtherJob(const char *name, const char *key, const char *value, int owned) {
    uint32_t size = 2;
    pmix_info_t info[3];
    PMIX_INFO_LOAD(&info[0], PMIX_JOBID, name, PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_JOB_SIZE, &size, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[2], key, value, PMIX_STRING);
    OpWait w = {0, PMIX_SUCCESS};
    pmix_status_t rc = PMIx_server_register_nspace(name, 0, info, 3, OpDone, &w);
    rc = Complete(rc, &w, "PMIx_server_register_nspace(other job)");
    for (int i = 0; i < 3; ++i) PMIX_INFO_DESTRUCT(&info[i]);
    for (pmix_rank_t r = 0; owned && rc == PMIX_SUCCESS && r < size; ++r) {
        pmix_proc_t proc;
        PMIX_LOAD_PROCID(&proc, name, r);
        OpWait each = {0, PMIX_SUCCESS};
        rc = PMIx_server_register_client(&proc, getuid(), getgid(), NULL, OpDone, &each);
        rc = Complete(rc, &each, "PMIx_server_register_client(other job)");
    }
    if (rc != PMIX_SUCCESS) HostLog("registering %s: %s", name, PMIx_Error_string(rc));
    return rc == PMIX_SUCCESS ? 0 : -1;
}

static void DeregisterOtherJob(const char *name) {
    OpWait w = {0, PMIX_SUCCESS};
    PMIx_server_deregister_nspace(name, OpDone, &w);
    if (HostWaitFlag(&w.done, 5000) != 0) HostLog("deregistering %s: no callback within 5 s", name);
}

int HostRegisterExtraJob(void) {
    char name[PMIX_MAX_NSLEN + 1];
    ExtraNspace(name, sizeof name);
    /* --owned-extra: its procs are the host's user's (registered, never run). */
    return RegisterOtherJob(name, "test.extra.str", "extra-job-string", host_opts.owned_extra);
}

int HostUpdateJob(void) {
    WaitAllConnected();
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, "test.job.update", "generation-2", PMIX_STRING);
    OpWait w = {0, PMIX_SUCCESS};
    pmix_status_t rc = PMIx_server_register_resources(&info, 1, OpDone, &w);
    rc = Complete(rc, &w, "PMIx_server_register_resources");
    PMIX_INFO_DESTRUCT(&info);
    if (rc != PMIX_SUCCESS) HostLog("registering resources: %s", PMIx_Error_string(rc));
    return rc == PMIX_SUCCESS ? 0 : -1;
}

void HostDeregisterExtraJob(void) {
    char name[PMIX_MAX_NSLEN + 1];
    ExtraNspace(name, sizeof name);
    DeregisterOtherJob(name);
}

int HostReregisterJob(void) {
    WaitAllConnected();
    return RegisterJob(1);
}

int HostRegisterLateJob(void) {
    WaitAllConnected();
    WaitCount(&host_state.late_asks, host_opts.nprocs);
    return RegisterOtherJob(host_opts.late_nspace, "test.late.str", "late-job-string", 0);
}

void HostDeregisterLateJob(void) { DeregisterOtherJob(host_opts.late_nspace); }
