/*
 * pmix_test_host: a minimal resource manager written only against the public
 * pmix_server.h API, so the same sources build against pmixx and against
 * OpenPMIx. It starts a PMIx server, registers one namespace the way a real
 * RM does, forks the client processes and checks which upcalls arrived.
 *
 * Threads: main() runs the launch/wait loop; the server library calls the
 * module functions (host_module.c) on its own progress thread; with
 * --remote-procs a peer thread (host_peer.c) talks to the second host.
 * Everything shared between them lives in HostState and is guarded by
 * state.lock.
 */
#ifndef PMIXX_TEST_HOST_HOST_H
#define PMIXX_TEST_HOST_HOST_H

#include <pthread.h>
#include <stddef.h>
#include <sys/types.h>

#include "pmix.h"
#include "pmix_server.h"

#define HOST_MAX_PROCS 1024

/* Command line, filled once by ParseOptions before any thread starts. */
typedef struct {
    int nprocs;            /* clients on this node */
    int remote_procs;      /* clients on the second (peer) host */
    char nspace[PMIX_MAX_NSLEN + 1];
    int timeout_sec;
    char *tmpdir;          /* NULL: mkdtemp under $TMPDIR */
    int kill_rank;         /* -1: none */
    int kill_after_ms;
    int expect_abort;      /* an abort upcall must arrive ... */
    int abort_status;      /* ... with this status (-1 until given) */
    int refuse_rank;       /* -1: none; else registered with uid+1 */
    int bad_cred_rank;     /* -1: none; else expected to be refused (it presents a bad credential) */
    int impostor_rank;     /* -1: none; else a copy of that rank runs as uid 65534 (root only) */
    int tcp;
    int connected1_only;   /* set only the v1 client_connected upcall */
    int extra_nspace;      /* register a second namespace <nspace>-x (2 procs, none here) */
    int owned_extra;       /* --owned-extra: <nspace>-x's procs registered as clients of the host's uid */
    int client_uid;        /* --client-uid: -1, or the uid clients are registered and run as (root only) */
    int update_job;        /* --update-job: register_resources once every client connected */
    int reregister_job;    /* --reregister-job: the job registered again once all connected */
    const char *late_nspace; /* --late-nspace NAME: registered once every client asked for it */
    const char *without_upcalls; /* --without-upcalls: optional upcalls left NULL (allocate,monitor) */
    int tool_support;      /* --tool-support: tools may connect (tool + session rendezvous files) */
    int system_support;    /* --system-support: also the system rendezvous file */
    const char *tool_upcall; /* --tool-upcall none|same-uid|any-uid (default same-uid) */
    const char *tool_cmd;  /* --tool CMD: a tool process run beside the clients */
    const char *report_uri; /* --report-uri FILE: PMIX_TCP_REPORT_URI */
    int finalizes;         /* --finalizes N: client_finalized calls per rank (default 1) */
    int resources;         /* --resources: report descriptors and RSS (see kUsage) */
    int verbose;
    char **client_argv;    /* points into argv */
    /* Internal, set when this process is the peer (second node). */
    int peer_fd;           /* -1 unless --peer-fd */
    int node_id;           /* 0 main host, 1 peer host */
    int rank_offset;       /* first rank hosted here */
} HostOptions;

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    /* upcall counters */
    int connected;
    int connected_v1;
    int finalized;
    int aborts;
    int abort_status;
    char abort_msg[256];
    int fences;
    int fence_dirkeys;      /* most "test.dir.*" directives one fence_nb carried */
    int dmodex;
    int notifies;
    int last_notify_code;
    /* launch bookkeeping, indexed by local index (rank - rank_offset) */
    pid_t pids[HOST_MAX_PROCS];
    int exited[HOST_MAX_PROCS];
    int status[HOST_MAX_PROCS];
    int finalized_rank[HOST_MAX_PROCS];
    int kill_job;  /* set by the abort upcall or the peer host (atomic accesses) */
    int tools;              /* tool_connected upcalls that admitted a tool */
    int tools_refused;      /* ... and refused one */
    pid_t impostor_pid;     /* --impostor-rank */
    pid_t tool_pid;         /* --tool */
    int tool_status;
    int connects;           /* connect / disconnect / spawn upcalls */
    int disconnects;
    int spawns;
    int connected_rank[HOST_MAX_PROCS];  /* client_connected(2) per local rank */
    int lost[HOST_MAX_PROCS];  /* PMIX_ERR_LOST_CONNECTION events per local rank */
    int lost_other;            /* ... about a process that is not a local rank */
    int term_default;          /* PMIX_ERR_PROC_TERM_WO_SYNC seen by the host's default handler */
    int groups;             /* group upcalls ... */
    int group_failures;     /* ... reporting a PMIX_LOCAL_COLLECTIVE_STATUS error */
    int group_dirs;         /* most members' own directives seen in one group upcall */
    int late_asks;          /* direct_modex upcalls about a process of --late-nspace */
} HostState;

extern HostOptions host_opts;
extern HostState host_state;
extern char host_name[64];       /* this "node" */
extern char peer_host_name[80];  /* the second "node" */

/* Logging to stderr with a "[host N]" prefix; Verbose only with -v. */
void HostLog(const char *fmt, ...);
void HostVerbose(const char *fmt, ...);

/* Fill *module with the upcalls of host_module.c. */
void HostFillModule(pmix_server_module_t *module);

/* Wait (bounded by timeout_ms) until *flag becomes nonzero; the flag is
 * read and written under host_state.lock. Returns 0 when set, -1 on timeout. */
int HostWaitFlag(const int *flag, int timeout_ms);
/* Set *flag under the lock and wake waiters. */
void HostSetFlag(int *flag);

/* Tools (host_tool.c): the tool_connected upcall (admits tools of the
 * host's uid unless --tool-upcall any-uid, names those without an id
 * "<nspace>-tool-<n>"), and the --tool process: started after the clients
 * with the server's whereabouts in its environment (PMIXX_TEST_*), waited
 * for after them; it must exit 0. */
void HostToolConnected(pmix_info_t *info, size_t ninfo, pmix_tool_connection_cbfunc_t cbfunc,
                       void *cbdata);
int HostLaunchTool(void);
int HostWaitTool(void);  /* 0 when it exited 0 (or there is none) */
void HostKillTool(void);

/* Registration and launch (host_launch.c). Return 0 on success. */
int HostRegisterJob(void);
int HostLaunchClients(void);
/* --impostor-rank: started once the clients connected; it must exit 2. */
int HostLaunchImpostor(void);
int HostWaitImpostor(void);
/* Waits for all clients; kills everything at the deadline. Returns the
 * number of clients that did not end as expected. */
int HostWaitClients(void);
void HostKillAll(void);
/* PMIx_server_deregister_nspace; -1 when its callback did not come. */
int HostDeregisterJob(void);
/* --extra-nspace: registers / deregisters <nspace>-x (job info only). */
int HostRegisterExtraJob(void);
/* --update-job: waits until every local client connected, then registers
 * the resource test.job.update = "generation-2" (a new generation of the
 * job data for connected clients). 0 on success. */
int HostUpdateJob(void);
void HostDeregisterExtraJob(void);
/* --reregister-job: waits until every local client connected, then
 * registers the namespace again, as first but for two changed job-level
 * values: test.job.str = "job-level-string-2" and PMIX_UNIV_SIZE = the
 * job's size + HOST_REREGISTER_EXTRA_UNIV. 0 on success. */
#define HOST_REREGISTER_EXTRA_UNIV 4
int HostReregisterJob(void);
/* --late-nspace NAME: waits until every local client connected and there
 * were as many direct_modex upcalls about NAME as clients (they looked for
 * it while it did not exist; the upcall does not say who asked, so each
 * client asks once until all did), then registers NAME (2 procs, none on
 * this node; test.late.str = "late-job-string"). 0 on success. */
int HostRegisterLateJob(void);
void HostDeregisterLateJob(void);

/* The second node (host_peer.c). HostPeerStart forks the peer host (same
 * binary, --peer-fd) and starts the reader thread; the module functions
 * below forward collectives and direct-modex requests to it. */
int HostPeerStart(void);
int HostPeerActive(void);
int HostPeerStartReader(void);  /* after PMIx_server_init */
void HostPeerStopReader(void);  /* before PMIx_server_finalize */
/* Node 0: wait for the peer host to exit (SIGKILL at the deadline); its exit
 * status, or -1 on timeout. Stops the reader. */
int HostPeerWait(int timeout_ms);
void HostPeerKillJob(void);     /* tell the other node the job is aborted */
void HostPeerKill(void);        /* async-signal-safe */
pmix_status_t HostPeerFence(const pmix_proc_t procs[], size_t nprocs, char *data,
                            size_t ndata, pmix_modex_cbfunc_t cbfunc, void *cbdata);
pmix_status_t HostPeerDmodex(const pmix_proc_t *proc, pmix_modex_cbfunc_t cbfunc,
                             void *cbdata);
/* A group construct/destruct spanning both nodes: completes (cbfunc) once
 * both hosts contributed, with node 0's context id, both nodes'
 * PMIX_GROUP_ENDPT_DATA and the first error status either reported. */
pmix_status_t HostPeerGroup(pmix_group_operation_t op, const char *grp, const pmix_proc_t procs[],
                            size_t nprocs, size_t context_id, int want_context_id,
                            pmix_status_t local_status, const pmix_byte_object_t *endpt,
                            pmix_info_cbfunc_t cbfunc, void *cbdata);
/* host_module.c: completes a group upcall with PMIX_GROUP_CONTEXT_ID (when
 * want_context_id), PMIX_GROUP_MEMBERSHIP = procs and one
 * PMIX_GROUP_ENDPT_DATA per non-empty blob. */
pmix_status_t HostGroupReply(pmix_info_cbfunc_t cbfunc, void *cbdata, pmix_status_t status,
                             size_t context_id, int want_context_id, const pmix_proc_t procs[],
                             size_t nprocs, const pmix_byte_object_t blobs[], size_t nblobs);
/* Relays an event to the other node; string-valued infos travel along. */
void HostPeerNotify(pmix_status_t code, const pmix_proc_t *source, const pmix_info_t info[],
                    size_t ninfo);
/* The node (0 or 1) that hosts a rank. */
int HostNodeOfRank(pmix_rank_t rank);

#endif
