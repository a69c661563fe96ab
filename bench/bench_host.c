/*
 * pmix_bench host role: server init, job registration, launch of the N local
 * clients, collection of their result lines, statistics.
 *
 * Bounds: every wait ends at the run's deadline (--timeout); SIGALRM, armed
 * a few seconds later, kills every client and exits 3 should anything in the
 * library itself block past it. A client that exits before reporting
 * fails the run at once (its peers would only wait in the next fence).
 */
#define _XOPEN_SOURCE 700

#include "bench_host.h"

#include "bench.h"
#include "bench_host_job.h"
#include "bench_host_module.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Seconds allowed for deregistration and PMIx_server_finalize. */
enum { kTeardownS = 120 };

/* Host.pids, for the SIGALRM handler: allocated before it can fire. */
static pid_t *g_pids;
static int g_npids;
/* --nodes 2, on node 0: the other node's host. */
static pid_t g_peer_host = -1;

static void KillClients(void)
{
    int i;
    for (i = 0; i < g_npids; ++i) {
        if (g_pids[i] > 0) {
            kill(g_pids[i], SIGKILL);
        }
    }
    if (g_peer_host > 0) {
        kill(g_peer_host, SIGALRM); /* its handler kills its clients */
    }
}

static void OnAlarm(int sig)
{
    static const char kMsg[] = "pmix_bench host: timeout, killing all clients\n";
    ssize_t ignored;
    (void)sig;
    KillClients();
    ignored = write(STDERR_FILENO, kMsg, sizeof(kMsg) - 1);
    (void)ignored;
    _exit(3);
}


static void FreeEnv(char **env)
{
    size_t i;
    for (i = 0; NULL != env && NULL != env[i]; ++i) {
        free(env[i]);
    }
    free(env);
}

/* A malloc'd copy of environ that PMIx_server_setup_fork may realloc. */
static char **CopyEnviron(void)
{
    size_t n = 0, i;
    char **env;
    while (NULL != environ[n]) {
        ++n;
    }
    env = calloc(n + 1, sizeof(*env));
    for (i = 0; NULL != env && i < n; ++i) {
        if (NULL == (env[i] = strdup(environ[i]))) {
            FreeEnv(env);
            return NULL;
        }
    }
    return env;
}

/* The server is node 0 of the job (or node 1, for the peer host): its
 * host name is the job's, not ours. */
static int ServerInit(Host *h, pmix_server_module_t *module)
{
    pmix_info_t info[3];
    pmix_status_t rc;
    char host[32];
    int i;
    BenchHostName((uint32_t)h->opt->node, host, sizeof(host));
    memset(info, 0, sizeof(info));
    PMIx_Info_load(&info[0], PMIX_SERVER_TMPDIR, h->tmpdir, PMIX_STRING);
    PMIx_Info_load(&info[1], PMIX_SYSTEM_TMPDIR, h->tmpdir, PMIX_STRING);
    PMIx_Info_load(&info[2], PMIX_HOSTNAME, host, PMIX_STRING);
    rc = PMIx_server_init(module, info, 3);
    for (i = 0; i < 3; ++i) {
        PMIx_Value_destruct(&info[i].value);
    }
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "pmix_bench host: PMIx_server_init: %s\n", PMIx_Error_string(rc));
        return -1;
    }
    return 0;
}

/* Registers the job and every client, and prepares each client's env. */
static int Setup(Host *h)
{
    pmix_proc_t proc;
    double t0 = BenchNowUs();
    int r;
    if (0 != BenchRegisterJob(h->nspace, h->opt, h->tmpdir, h->deadline, &h->host[kHostRegex],
                              &h->host[kHostRegister])) {
        return -1;
    }
    memset(&proc, 0, sizeof(proc));
    snprintf(proc.nspace, sizeof(proc.nspace), "%s", h->nspace);
    for (r = 0; r < h->opt->nprocs; ++r) {
        pmix_status_t rc;
        proc.rank = BenchFirstRank(h->opt) + (pmix_rank_t)r;
        if (0 != BenchRegisterClient(&proc, h->deadline)) {
            return -1;
        }
        h->envs[r] = CopyEnviron();
        rc = NULL == h->envs[r] ? PMIX_ERR_NOMEM : PMIx_server_setup_fork(&proc, &h->envs[r]);
        if (PMIX_SUCCESS != rc) {
            fprintf(stderr, "pmix_bench host: setup_fork: %s\n", PMIx_Error_string(rc));
            return -1;
        }
    }
    h->host[kHostSetup] = BenchNowUs() - t0;
    h->host[kHostRssReg] = (double)BenchStatusKib("VmRSS:");
    return 0;
}

static int Launch(Host *h, int write_fd)
{
    char fd_s[16], iters_s[16], fences_s[16], repeat_s[16], blobs_s[BENCH_MAX_BLOBS * 12],
        n_s[16], size_s[16], timeout_s[16], nodes_s[16], node_s[16];
    size_t used = 0;
    int r, b;
    snprintf(fd_s, sizeof(fd_s), "%d", write_fd);
    snprintf(iters_s, sizeof(iters_s), "%d", h->opt->iters);
    snprintf(fences_s, sizeof(fences_s), "%d", h->opt->fences);
    snprintf(repeat_s, sizeof(repeat_s), "%d", h->opt->repeat);
    for (b = 0; b < h->opt->nblobs; ++b) {
        used += (size_t)snprintf(blobs_s + used, sizeof(blobs_s) - used, b ? ",%zu" : "%zu",
                                 h->opt->blobs[b]);
    }
    snprintf(n_s, sizeof(n_s), "%d", h->opt->nprocs);
    snprintf(size_s, sizeof(size_s), "%u", h->opt->job_size);
    snprintf(timeout_s, sizeof(timeout_s), "%d", h->opt->timeout_s);
    snprintf(nodes_s, sizeof(nodes_s), "%d", h->opt->nodes);
    snprintf(node_s, sizeof(node_s), "%d", h->opt->node);
    fflush(NULL);
    for (r = 0; r < h->opt->nprocs; ++r) {
        char *argv[] = {(char *)h->self_exe, "client", "--fd", fd_s, "--iters", iters_s,
                        "--fences", fences_s, "--repeat", repeat_s, "--blobs", blobs_s,
                        "--nprocs", n_s, "--size", size_s, "--timeout", timeout_s,
                        "--nodes", nodes_s, "--node", node_s, NULL};
        pid_t pid = fork();
        if (pid < 0) {
            perror("pmix_bench host: fork");
            return -1;
        }
        if (0 == pid) {
            execve(h->self_exe, argv, h->envs[r]);
            _exit(127);
        }
        h->pids[r] = pid;
    }
    return 0;
}

static int RemoveEntry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static const char *const kHostName[kHostMetrics] = {
    "host_regex",    "host_register", "host_setup", "host_rss_base", "host_rss_reg",
    "host_rss_conn", "host_rss_end",  "host_dereg", "job_wall",
};

/* Rows with a value missing from any client print n/a. */
static void Print(Host *h, int rc)
{
    int n = h->opt->nprocs, m;
    char name[32];
    BenchModuleStats stats = BenchModuleGetStats();
    BenchPrintHeader();
    for (m = 0; m < BenchMetricCount(h->opt); ++m) {
        BenchMetricName(h->opt, m, name, sizeof(name));
        BenchPrintRow(name, BenchMetricUnit(m), &h->values[m * n], n);
    }
    for (m = 0; m < kHostMetrics; ++m) {
        int kib = m >= kHostRssBase && m <= kHostRssEnd;
        BenchPrintRow(kHostName[m], kib ? "KiB" : "us", &h->host[m], 1);
    }
    if (0 == rc) {
        printf("check            PASS (every client read back every value and blob intact)\n");
    } else if (h->failed_rank >= 0) {
        printf("check            FAILED (client %d at step %d)\n", h->failed_rank,
               h->failed_step);
    } else {
        printf("check            FAILED (%d of %d clients reported)\n", h->nreported, n);
    }
    printf("# host upcalls: client_connected %d, client_finalized %d, fence_nb %d\n",
           stats.connected, stats.finalized, stats.fences);
}

static int Allocate(Host *h)
{
    size_t n = (size_t)h->opt->nprocs, i;
    g_pids = h->pids = calloc(n, sizeof(*h->pids));
    h->envs = calloc(n, sizeof(*h->envs));
    h->reported = calloc(n, sizeof(*h->reported));
    h->exited = calloc(n, sizeof(*h->exited));
    h->inited = calloc(n, sizeof(*h->inited));
    h->values = calloc(n * (size_t)BenchMetricCount(h->opt), sizeof(*h->values));
    for (i = 0; NULL != h->values && i < n * (size_t)BenchMetricCount(h->opt); ++i) {
        h->values[i] = NAN; /* not reported */
    }
    for (i = 0; i < kHostMetrics; ++i) {
        h->host[i] = NAN;
    }
    h->failed_rank = -1;
    return NULL == g_pids || NULL == h->envs || NULL == h->reported || NULL == h->exited ||
                   NULL == h->inited || NULL == h->values
               ? -1
               : 0;
}

static void Release(Host *h)
{
    int r;
    g_npids = 0; /* no alarm is armed now; be safe anyway */
    for (r = 0; NULL != h->envs && r < h->opt->nprocs; ++r) {
        FreeEnv(h->envs[r]);
    }
    free(h->envs);
    free(h->pids);
    free(h->reported);
    free(h->exited);
    free(h->inited);
    free(h->values);
}

/* Launches the clients and gathers their results; 0 if all passed. */
static int RunClients(Host *h)
{
    int fds[2], rc;
    double t0;
    if (0 != pipe(fds)) {
        perror("pmix_bench host: pipe");
        return -1;
    }
    fcntl(fds[0], F_SETFD, FD_CLOEXEC); /* the clients only write */
    t0 = BenchNowUs();
    g_npids = h->opt->nprocs;
    rc = Launch(h, fds[1]);
    close(fds[1]);
    if (0 == rc) {
        rc = BenchCollect(h, fds[0]);
    }
    if (h->failed_rank >= 0) {
        rc = -1;
    }
    close(fds[0]);
    if (0 != rc) {
        KillClients();
    }
    /* Blocking reap: clients are finalizing (or killed); SIGALRM bounds it. */
    if (0 != BenchReap(h, 0) || 0 != rc) {
        return -1;
    }
    h->host[kHostJobWall] = BenchNowUs() - t0;
    return 0;
}

static int Serve(Host *h)
{
    pmix_server_module_t module;
    double t0;
    int rc;
    if (0 != BenchModuleStart(&module)) {
        fprintf(stderr, "pmix_bench host: cannot start the module thread\n");
        return -1;
    }
    rc = ServerInit(h, &module);
    if (0 == rc) {
        h->host[kHostRssBase] = (double)BenchStatusKib("VmRSS:");
        rc = Setup(h);
        if (0 == rc) {
            rc = RunClients(h);
        }
        h->host[kHostRssEnd] = (double)BenchStatusKib("VmRSS:");
        /* Teardown gets its own bound, also after a timeout. */
        alarm(kTeardownS + 5);
        t0 = BenchNowUs();
        BenchDeregisterJob(h->nspace, h->opt, BenchRealNow() + kTeardownS);
        h->host[kHostDeregister] = BenchNowUs() - t0;
        PMIx_server_finalize();
        if (h->nreported > 0) {
            Print(h, rc);
        }
    }
    BenchModuleStop();
    return rc;
}

/* --nodes 2: forks the host of node 1 (before any PMIx call), linked to
 * this one by a socket pair over which the fence contributions go; *opt
 * becomes the caller's node's options. Returns 0 in both processes. */
static int ForkPeerHost(BenchOptions *mine, double deadline)
{
    int sv[2], null;
    pid_t pid;
    if (0 != socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
        perror("pmix_bench host: socketpair");
        return -1;
    }
    fflush(NULL);
    pid = fork();
    if (pid < 0) {
        perror("pmix_bench host: fork");
        return -1;
    }
    if (0 == pid) {
        /* Node 1: its table is not printed (its failures are, on stderr). */
        close(sv[0]);
        mine->node = 1;
        if ((null = open("/dev/null", O_WRONLY)) >= 0) {
            dup2(null, STDOUT_FILENO);
            close(null);
        }
        BenchModuleSetPeer(sv[1], 1, deadline);
        return 0;
    }
    close(sv[1]);
    g_peer_host = pid;
    BenchModuleSetPeer(sv[0], 0, deadline);
    return 0;
}

/* Node 0 with --nodes 2: the other host's exit; 0 if it passed. */
static int AwaitPeerHost(void)
{
    int status = 0;
    pid_t peer = g_peer_host;
    if (peer <= 0) {
        return 0;
    }
    g_peer_host = -1;
    if (waitpid(peer, &status, 0) != peer || !WIFEXITED(status) || 0 != WEXITSTATUS(status)) {
        fprintf(stderr, "pmix_bench host: the host of node 1 failed (status 0x%x)\n", status);
        return -1;
    }
    return 0;
}

int BenchHostMain(const BenchOptions *opt_in, const char *self_exe)
{
    Host h;
    struct sigaction sa;
    const char *tmp = getenv("TMPDIR");
    BenchOptions mine = *opt_in;
    const BenchOptions *opt = &mine;
    int rc, i;

    memset(&h, 0, sizeof(h));
    snprintf(h.nspace, sizeof(h.nspace), "pmix_bench.%ld", (long)getpid());
    if (mine.nodes > 1 && 0 != ForkPeerHost(&mine, BenchRealNow() + opt->timeout_s)) {
        return 1;
    }
    h.opt = opt;
    h.self_exe = self_exe;
    h.deadline = BenchRealNow() + opt->timeout_s;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = OnAlarm;
    sigaction(SIGALRM, &sa, NULL);
    /* Short on purpose: the server's socket path must fit in sun_path. */
    snprintf(h.tmpdir, sizeof(h.tmpdir), "%s/pmixb.XXXXXX",
             NULL != tmp && strlen(tmp) < 40 ? tmp : "/tmp");
    if (0 != Allocate(&h) || NULL == mkdtemp(h.tmpdir)) {
        perror("pmix_bench host: setup");
        Release(&h);
        return 1;
    }
    printf("# pmix_bench: library %s, N=%d S=%u nodes=%u%s iters=%d fences=%d repeat=%d blobs=",
           PMIx_Get_version(), opt->nprocs, opt->job_size, BenchNumNodes(opt),
           opt->nodes > 1 ? " (node 1 with processes too)" : "", opt->iters, opt->fences,
           opt->repeat);
    for (i = 0; i < opt->nblobs; ++i) {
        printf(i ? ",%zu" : "%zu", opt->blobs[i]);
    }
    printf("\n");
    alarm((unsigned)opt->timeout_s + 5);
    rc = Serve(&h);
    if (0 != AwaitPeerHost()) {
        rc = -1;
    }
    alarm(0);
    nftw(h.tmpdir, RemoveEntry, 16, FTW_DEPTH | FTW_PHYS);
    Release(&h);
    return 0 == rc ? 0 : 1;
}
