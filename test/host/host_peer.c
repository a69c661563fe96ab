/*
 * --remote-procs K: a second "node". The main host forks a peer host (this
 * binary, before any PMIx call) that runs its own PMIx server with ranks
 * N..N+K-1 of the same namespace. The two hosts exchange over a socketpair
 * exactly what two RM daemons exchange: fence contributions (the blobs the
 * libraries hand to fence_nb, concatenated), direct-modex requests and
 * replies (served by PMIx_server_dmodex_request on the owning node), event
 * notifications and job kills. The blobs are opaque: both sides run the
 * same library, so its own encoding is tested end to end.
 *
 * Threads: send functions are called from the library's progress thread
 * and from the reader thread; one write lock keeps frames whole.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test/host/host.h"

enum { kFence = 1, kDmodexReq, kDmodexResp, kNotify, kKillJob, kGroup };

typedef struct {
    uint32_t type, id;
    int32_t status;
    uint32_t len;
} PeerHeader;

typedef struct {
    int used;
    char sig[64];
    int have[2];      /* contributions per node */
    char *data[2];
    size_t len[2];
    pmix_modex_cbfunc_t cbfunc;
    void *cbdata;
} PendingFence;

typedef struct {
    int used;
    pmix_modex_cbfunc_t cbfunc;
    void *cbdata;
} PendingDmodex;

/* A group operation both nodes take part in (the same group name and op). */
typedef struct {
    int used;
    char sig[64];
    int have[2];
    size_t ctx[2];
    pmix_status_t status[2];
    pmix_byte_object_t blob[2];
    int want_ctx;
    pmix_proc_t *procs; /* this node's upcall's procs (the membership) */
    size_t nprocs;
    pmix_info_cbfunc_t cbfunc;
    void *cbdata;
} PendingGroup;

/* What a kGroup message carries after its 64-byte signature. */
typedef struct {
    uint64_t ctx;
    int32_t status;
} GroupWire;

#define kMaxPending 64
static PendingGroup pending_groups[kMaxPending];
static PendingFence fences[kMaxPending];
static PendingDmodex dmodexes[kMaxPending];
static pthread_mutex_t peer_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t write_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t reader;
static int reader_started;
static pid_t peer_pid = -1;

int HostPeerActive(void) { return host_opts.peer_fd >= 0; }

static int WriteAll(const void *buf, size_t len) {
    const char *p = buf;
    while (len > 0) {
        ssize_t n = write(host_opts.peer_fd, p, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        p += n, len -= (size_t)n;
    }
    return 0;
}

static int ReadAll(void *buf, size_t len) {
    char *p = buf;
    while (len > 0) {
        ssize_t n = read(host_opts.peer_fd, p, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        p += n, len -= (size_t)n;
    }
    return 0;
}

static int Send(uint32_t type, uint32_t id, int32_t status, const void *a, size_t alen,
                const void *b, size_t blen) {
    PeerHeader h = {type, id, status, (uint32_t)(alen + blen)};
    pthread_mutex_lock(&write_lock);
    int rc = WriteAll(&h, sizeof h);
    if (rc == 0 && alen) rc = WriteAll(a, alen);
    if (rc == 0 && blen) rc = WriteAll(b, blen);
    pthread_mutex_unlock(&write_lock);
    if (rc != 0) HostLog("peer link: write failed: %s", strerror(errno));
    return rc;
}

static void ReleaseCopy(void *cbdata) { free(cbdata); }

static char *Dup(const char *data, size_t len) {
    char *c = malloc(len ? len : 1);
    if (c && len) memcpy(c, data, len);
    return c;
}

/* Same collective on both nodes: same participant list, in call order. */
static void Signature(const pmix_proc_t procs[], size_t nprocs, char *sig, size_t len) {
    uint32_t hash = 2166136261u;
    for (size_t i = 0; i < nprocs; ++i) hash = (hash ^ procs[i].rank) * 16777619u;
    snprintf(sig, len, "%zu:%08x", nprocs, hash);
}

/* Called with peer_lock held; completes and frees the slot when both
 * contributions are in. Node 0's data always comes first. */
static void AddContribution(const char *sig, int node, char *data, size_t len,
                            pmix_modex_cbfunc_t cbfunc, void *cbdata) {
    PendingFence *f = NULL;
    for (int i = 0; i < kMaxPending && !f; ++i)
        if (fences[i].used && !fences[i].have[node] && strcmp(fences[i].sig, sig) == 0) f = &fences[i];
    for (int i = 0; i < kMaxPending && !f; ++i)
        if (!fences[i].used) f = &fences[i];
    if (!f) {
        HostLog("peer link: too many concurrent fences");
        free(data);
        return;
    }
    if (!f->used) memset(f, 0, sizeof *f), f->used = 1, snprintf(f->sig, sizeof f->sig, "%s", sig);
    f->have[node] = 1, f->data[node] = data, f->len[node] = len;
    if (cbfunc) f->cbfunc = cbfunc, f->cbdata = cbdata;
    if (!f->have[0] || !f->have[1]) return;
    size_t total = f->len[0] + f->len[1];
    char *all = malloc(total ? total : 1);
    if (all) {
        memcpy(all, f->data[0], f->len[0]);
        memcpy(all + f->len[0], f->data[1], f->len[1]);
    }
    pmix_modex_cbfunc_t cb = f->cbfunc;
    void *cbd = f->cbdata;
    free(f->data[0]), free(f->data[1]);
    memset(f, 0, sizeof *f);
    HostVerbose("fence %s complete: %zu bytes", sig, total);
    cb(all ? PMIX_SUCCESS : PMIX_ERR_NOMEM, all, all ? total : 0, cbd, ReleaseCopy, all);
}

pmix_status_t HostPeerFence(const pmix_proc_t procs[], size_t nprocs, char *data, size_t ndata,
                            pmix_modex_cbfunc_t cbfunc, void *cbdata) {
    char sig[64] = {0};
    Signature(procs, nprocs, sig, sizeof sig);
    if (Send(kFence, 0, 0, sig, sizeof sig, data, ndata) != 0) return PMIX_ERR_UNREACH;
    pthread_mutex_lock(&peer_lock);
    AddContribution(sig, host_opts.node_id, Dup(data, ndata), ndata, cbfunc, cbdata);
    pthread_mutex_unlock(&peer_lock);
    return PMIX_SUCCESS;
}

/* Called with peer_lock held; completes the operation when both nodes are
 * in. The caller's cbfunc may be NULL (the other node's message). */
static void AddGroupPart(const char *sig, int node, size_t ctx, pmix_status_t status, char *blob,
                         size_t len, const pmix_proc_t procs[], size_t nprocs, int want_ctx,
                         pmix_info_cbfunc_t cbfunc, void *cbdata) {
    PendingGroup *g = NULL;
    for (int i = 0; i < kMaxPending && !g; ++i)
        if (pending_groups[i].used && !pending_groups[i].have[node] &&
            strcmp(pending_groups[i].sig, sig) == 0)
            g = &pending_groups[i];
    for (int i = 0; i < kMaxPending && !g; ++i)
        if (!pending_groups[i].used) g = &pending_groups[i];
    if (!g) {
        HostLog("peer link: too many concurrent group operations");
        free(blob);
        return;
    }
    if (!g->used) memset(g, 0, sizeof *g), g->used = 1, snprintf(g->sig, sizeof g->sig, "%s", sig);
    g->have[node] = 1, g->ctx[node] = ctx, g->status[node] = status;
    g->blob[node].bytes = blob, g->blob[node].size = len;
    if (cbfunc) {
        g->cbfunc = cbfunc, g->cbdata = cbdata, g->want_ctx = want_ctx;
        g->procs = malloc((nprocs ? nprocs : 1) * sizeof *procs);
        if (g->procs && nprocs) memcpy(g->procs, procs, nprocs * sizeof *procs);
        g->nprocs = g->procs ? nprocs : 0;
    }
    if (!g->have[0] || !g->have[1]) return;
    PendingGroup done = *g;
    memset(g, 0, sizeof *g);
    pmix_status_t st = done.status[0] != PMIX_SUCCESS ? done.status[0] : done.status[1];
    HostVerbose("group %s complete: %s", sig, PMIx_Error_string(st));
    HostGroupReply(done.cbfunc, done.cbdata, st, done.ctx[0], done.want_ctx, done.procs,
                   done.nprocs, done.blob, 2);
    free(done.procs), free(done.blob[0].bytes), free(done.blob[1].bytes);
}

pmix_status_t HostPeerGroup(pmix_group_operation_t op, const char *grp, const pmix_proc_t procs[],
                            size_t nprocs, size_t context_id, int want_context_id,
                            pmix_status_t local_status, const pmix_byte_object_t *endpt,
                            pmix_info_cbfunc_t cbfunc, void *cbdata) {
    char sig[64] = {0};
    snprintf(sig, sizeof sig, "g%d:%.56s", (int)op, grp);
    GroupWire w = {context_id, local_status};
    char head[64 + sizeof w];
    memcpy(head, sig, 64);
    memcpy(head + 64, &w, sizeof w);
    size_t len = endpt ? endpt->size : 0;
    if (Send(kGroup, 0, 0, head, sizeof head, endpt ? endpt->bytes : NULL, len) != 0)
        return PMIX_ERR_UNREACH;
    pthread_mutex_lock(&peer_lock);
    AddGroupPart(sig, host_opts.node_id, context_id, local_status,
                 len ? Dup(endpt->bytes, len) : NULL, len, procs, nprocs, want_context_id, cbfunc,
                 cbdata);
    pthread_mutex_unlock(&peer_lock);
    return PMIX_SUCCESS;
}

pmix_status_t HostPeerDmodex(const pmix_proc_t *proc, pmix_modex_cbfunc_t cbfunc, void *cbdata) {
    pthread_mutex_lock(&peer_lock);
    int id = -1;
    for (int i = 0; i < kMaxPending && id < 0; ++i)
        if (!dmodexes[i].used) id = i;
    if (id >= 0) dmodexes[id] = (PendingDmodex){1, cbfunc, cbdata};
    pthread_mutex_unlock(&peer_lock);
    if (id < 0) return PMIX_ERR_OUT_OF_RESOURCE;
    uint32_t rank = proc->rank;
    if (Send(kDmodexReq, (uint32_t)id, 0, &rank, sizeof rank, NULL, 0) != 0) {
        pthread_mutex_lock(&peer_lock);
        dmodexes[id].used = 0;
        pthread_mutex_unlock(&peer_lock);
        return PMIX_ERR_UNREACH;
    }
    return PMIX_SUCCESS;
}

void HostPeerNotify(pmix_status_t code, const pmix_proc_t *source, const pmix_info_t info[],
                    size_t ninfo) {
    /* payload: source rank, then "key\0value\0" per string info */
    char buf[8192];
    uint32_t rank = source ? source->rank : PMIX_RANK_UNDEF;
    memcpy(buf, &rank, sizeof rank);
    size_t used = sizeof rank;
    for (size_t i = 0; i < ninfo; ++i) {
        if (info[i].value.type != PMIX_STRING || !info[i].value.data.string) continue;
        size_t klen = strlen(info[i].key) + 1, vlen = strlen(info[i].value.data.string) + 1;
        if (used + klen + vlen > sizeof buf) break;
        memcpy(buf + used, info[i].key, klen);
        memcpy(buf + used + klen, info[i].value.data.string, vlen);
        used += klen + vlen;
    }
    Send(kNotify, 0, code, buf, used, NULL, 0);
}

static void DmodexServed(pmix_status_t status, char *data, size_t sz, void *cbdata) {
    Send(kDmodexResp, (uint32_t)(uintptr_t)cbdata, status, data, sz, NULL, 0);
}

static void OnDmodexReq(uint32_t id, const char *payload, size_t len) {
    pmix_proc_t proc;
    uint32_t rank = 0;
    if (len >= sizeof rank) memcpy(&rank, payload, sizeof rank);
    PMIX_LOAD_PROCID(&proc, host_opts.nspace, rank);
    pmix_status_t rc = PMIx_server_dmodex_request(&proc, DmodexServed, (void *)(uintptr_t)id);
    if (rc != PMIX_SUCCESS) Send(kDmodexResp, id, rc, NULL, 0, NULL, 0);
}

static void OnDmodexResp(uint32_t id, int32_t status, char *payload, size_t len) {
    if (id >= kMaxPending) return;
    pthread_mutex_lock(&peer_lock);
    PendingDmodex d = dmodexes[id];
    dmodexes[id].used = 0;
    pthread_mutex_unlock(&peer_lock);
    if (!d.used) return;
    d.cbfunc(status, payload, len, d.cbdata, ReleaseCopy, payload);
}

static void OnNotify(int32_t code, const char *payload, size_t len) {
    pmix_proc_t source;
    uint32_t rank = PMIX_RANK_UNDEF;
    if (len >= sizeof rank) memcpy(&rank, payload, sizeof rank);
    PMIX_LOAD_PROCID(&source, host_opts.nspace, rank);
    pmix_info_t info[16];
    memset(info, 0, sizeof info);
    size_t n = 0;
    for (size_t at = sizeof rank; at < len && n < 16;) {
        const char *key = payload + at;
        size_t klen = strnlen(key, len - at) + 1;
        if (at + klen >= len) break;
        const char *val = key + klen;
        size_t vlen = strnlen(val, len - at - klen) + 1;
        PMIX_INFO_LOAD(&info[n], key, val, PMIX_STRING);
        ++n;
        at += klen + vlen;
    }
    pmix_status_t rc = PMIx_Notify_event(code, &source, PMIX_RANGE_LOCAL, info, n, NULL, NULL);
    for (size_t i = 0; i < n; ++i) PMIX_INFO_DESTRUCT(&info[i]);
    if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED)
        HostLog("relayed PMIx_Notify_event(%d): %s", code, PMIx_Error_string(rc));
}

static void *ReaderMain(void *arg) {
    (void)arg;
    PeerHeader h;
    while (ReadAll(&h, sizeof h) == 0) {
        char *payload = malloc(h.len ? h.len : 1);
        if (!payload || (h.len && ReadAll(payload, h.len) != 0)) {
            free(payload);
            break;
        }
        if (h.type == kFence && h.len >= 64) {
            pthread_mutex_lock(&peer_lock);
            AddContribution(payload, 1 - host_opts.node_id, Dup(payload + 64, h.len - 64),
                            h.len - 64, NULL, NULL);
            pthread_mutex_unlock(&peer_lock);
        } else if (h.type == kDmodexReq) {
            OnDmodexReq(h.id, payload, h.len);
        } else if (h.type == kDmodexResp) {
            OnDmodexResp(h.id, h.status, payload, h.len);
            continue; /* payload handed to the library, released by ReleaseCopy */
        } else if (h.type == kNotify) {
            OnNotify(h.status, payload, h.len);
        } else if (h.type == kGroup && h.len >= 64 + sizeof(GroupWire)) {
            GroupWire w;
            memcpy(&w, payload + 64, sizeof w);
            size_t len = h.len - 64 - sizeof w;
            pthread_mutex_lock(&peer_lock);
            AddGroupPart(payload, 1 - host_opts.node_id, (size_t)w.ctx, w.status,
                         len ? Dup(payload + 64 + sizeof w, len) : NULL, len, NULL, 0, 0, NULL,
                         NULL);
            pthread_mutex_unlock(&peer_lock);
        } else if (h.type == kKillJob) {
            __atomic_store_n(&host_state.kill_job, 1, __ATOMIC_RELEASE);
        }
        free(payload);
    }
    HostVerbose("peer link closed");
    return NULL;
}

int HostPeerStartReader(void) {
    if (!HostPeerActive()) return 0;
    if (pthread_create(&reader, NULL, ReaderMain, NULL) != 0) return -1;
    reader_started = 1;
    return 0;
}

void HostPeerKillJob(void) {
    if (HostPeerActive()) Send(kKillJob, 0, 0, NULL, 0, NULL, 0);
}

void HostPeerStopReader(void) {
    if (!reader_started) return;
    shutdown(host_opts.peer_fd, SHUT_RDWR);
    pthread_join(reader, NULL);
    reader_started = 0;
}

void HostPeerKill(void) {
    if (peer_pid > 0) kill(peer_pid, SIGKILL);
}

int HostPeerStart(void) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) {
        HostLog("socketpair: %s", strerror(errno));
        return -1;
    }
    static char peer_dir[4096];
    snprintf(peer_dir, sizeof peer_dir, "%s/peer", host_opts.tmpdir);
    mkdir(peer_dir, 0700);
    fflush(NULL);
    peer_pid = fork();
    if (peer_pid < 0) return -1;
    if (peer_pid == 0) { /* become node 1 */
        close(sv[0]);
        int n0 = host_opts.nprocs;
        host_opts.nprocs = host_opts.remote_procs;
        host_opts.remote_procs = n0;
        host_opts.rank_offset = n0;
        host_opts.node_id = 1;
        host_opts.peer_fd = sv[1];
        host_opts.tmpdir = peer_dir;
        alarm((unsigned)host_opts.timeout_sec + 5); /* alarms are not inherited */
        return 0;
    }
    close(sv[1]);
    host_opts.peer_fd = sv[0];
    return 0;
}

int HostPeerWait(int timeout_ms) {
    const struct timespec tick = {0, 5 * 1000000L};
    for (long waited = 0; waited <= timeout_ms; waited += 5) {
        int st = 0;
        pid_t got = waitpid(peer_pid, &st, WNOHANG);
        if (got == peer_pid) {
            HostPeerStopReader();
            return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        }
        if (got < 0) return -1;
        nanosleep(&tick, NULL);
    }
    kill(peer_pid, SIGKILL);
    return -1;
}
