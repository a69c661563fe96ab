/*
 * tool_connect MODE [ARG]: a tool that connects to the test host's server
 * (pmix_test_host --tool-support --tool ...) in one of the ways of the
 * standard's §18.1 and checks what a tool can do there, then releases the
 * job (client_tool_peer) and finalizes.
 *
 * MODE: pid, nspace, uri (PMIX_SERVER_URI from the --report-uri file),
 * urifile (PMIX_TCP_URI "file:<it>"), attach (PMIX_TOOL_ATTACHMENT_FILE),
 * system (PMIX_CONNECT_TO_SYSTEM), sysfirst (PMIX_CONNECT_SYSTEM_FIRST, no
 * system server: falls back to the search), default (no attribute: the
 * search under TMPDIR), named (PMIX_TOOL_NSPACE/RANK), noconnect
 * (PMIX_TOOL_DO_NOT_CONNECT, the data API, then PMIx_tool_attach_to_server),
 * refused [URI] (the server must refuse the tool: exits 0 when
 * PMIx_tool_init fails with an error, 1 when it succeeds; releases nothing;
 * URI default: the --report-uri file's), optional (no host: with
 * PMIX_TOOL_CONNECT_OPTIONAL, a server URI no transport can read fails
 * PMIx_tool_init with its error; one naming a socket nobody listens on
 * gives an unconnected tool).
 *
 * Environment (set by the host): PMIXX_TEST_NSPACE, PMIXX_TEST_NPROCS,
 * PMIXX_TEST_SERVER_NSPACE, PMIXX_TEST_SERVER_PID, PMIXX_TEST_TMPDIR,
 * PMIXX_TEST_HOSTNAME, PMIXX_TEST_URI_FILE.
 */
#include <unistd.h>

#include "test/host/clients/tool_util.h"

static pmix_proc_t me;

static size_t Attributes(const char *mode, pmix_info_t *info) {
    size_t n = 0;
    bool yes = true;
    char path[4096];
    if (strcmp(mode, "pid") == 0) {
        pid_t pid = (pid_t)atoi(ToolEnv("PMIXX_TEST_SERVER_PID"));
        PMIX_INFO_LOAD(&info[n++], PMIX_SERVER_PIDINFO, &pid, PMIX_PID);
    } else if (strcmp(mode, "nspace") == 0) {
        PMIX_INFO_LOAD(&info[n++], PMIX_SERVER_NSPACE, ToolEnv("PMIXX_TEST_SERVER_NSPACE"), PMIX_STRING);
    } else if (strcmp(mode, "uri") == 0) {
        PMIX_INFO_LOAD(&info[n++], PMIX_SERVER_URI, FirstLine(ToolEnv("PMIXX_TEST_URI_FILE")), PMIX_STRING);
    } else if (strcmp(mode, "urifile") == 0) {
        snprintf(path, sizeof path, "file:%s", ToolEnv("PMIXX_TEST_URI_FILE"));
        PMIX_INFO_LOAD(&info[n++], PMIX_TCP_URI, path, PMIX_STRING);
    } else if (strcmp(mode, "attach") == 0) {
        snprintf(path, sizeof path, "%s/pmix.%s.tool.%s", ToolEnv("PMIXX_TEST_TMPDIR"),
                 ToolEnv("PMIXX_TEST_HOSTNAME"), ToolEnv("PMIXX_TEST_SERVER_PID"));
        PMIX_INFO_LOAD(&info[n++], PMIX_TOOL_ATTACHMENT_FILE, path, PMIX_STRING);
    } else if (strcmp(mode, "system") == 0 || strcmp(mode, "sysfirst") == 0) {
        PMIX_INFO_LOAD(&info[n++], mode[3] == 't' ? PMIX_CONNECT_TO_SYSTEM : PMIX_CONNECT_SYSTEM_FIRST,
                       &yes, PMIX_BOOL);
        PMIX_INFO_LOAD(&info[n++], PMIX_SYSTEM_TMPDIR, ToolEnv("PMIXX_TEST_TMPDIR"), PMIX_STRING);
    } else if (strcmp(mode, "named") == 0) {
        pmix_rank_t rank = 3;
        PMIX_INFO_LOAD(&info[n++], PMIX_TOOL_NSPACE, "mytool", PMIX_STRING);
        PMIX_INFO_LOAD(&info[n++], PMIX_TOOL_RANK, &rank, PMIX_PROC_RANK);
    } else if (strcmp(mode, "noconnect") == 0) {
        PMIX_INFO_LOAD(&info[n++], PMIX_TOOL_DO_NOT_CONNECT, &yes, PMIX_BOOL);
    } else if (strcmp(mode, "default") != 0) {
        ToolFail("unknown mode %s", mode);
    }
    return n;
}

/* What a connected tool can do at the test host's server. */
static void CheckConnected(void) {
    const char *job = ToolEnv("PMIXX_TEST_NSPACE");
    TCHECK(me.nspace[0] != '\0' && me.rank != PMIX_RANK_UNDEF, "no identity after connecting");
    pmix_proc_t *servers = NULL;
    size_t nservers = 0;
    TCHECK_RC(PMIx_tool_get_servers(&servers, &nservers), PMIX_SUCCESS, "PMIx_tool_get_servers");
    TCHECK(nservers == 1, "%zu servers, want 1", nservers);
    TCHECK(strcmp(servers[0].nspace, ToolEnv("PMIXX_TEST_SERVER_NSPACE")) == 0,
           "server %s, want %s", servers[0].nspace, ToolEnv("PMIXX_TEST_SERVER_NSPACE"));
    free(servers);
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    TCHECK_RC(QueryOne(PMIX_QUERY_NAMESPACES, NULL, NULL, &results, &nresults), PMIX_SUCCESS,
              "query namespaces");
    TCHECK(nresults >= 1 && results[0].value.type == PMIX_STRING &&
               strstr(results[0].value.data.string, job) != NULL,
           "query namespaces: %s does not list %s",
           nresults ? results[0].value.data.string : "nothing", job);
    PMIX_INFO_FREE(results, nresults);
    /* the job's data, as a client reads it (§18.1.3: attaching to a job) */
    pmix_proc_t wild;
    PMIX_LOAD_PROCID(&wild, job, PMIX_RANK_WILDCARD);
    pmix_value_t *val = NULL;
    TCHECK_RC(PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &val), PMIX_SUCCESS, "PMIx_Get(job size)");
    TCHECK(val->type == PMIX_UINT32 && val->data.uint32 == (uint32_t)atoi(ToolEnv("PMIXX_TEST_NPROCS")),
           "job size %u", val->data.uint32);
    PMIX_VALUE_RELEASE(val);
    /* a tool takes part in no collective */
    pmix_status_t rc = PMIx_Fence(&wild, 1, NULL, 0);
    TCHECK(rc != PMIX_SUCCESS, "a tool's PMIx_Fence succeeded");
}

/* PMIX_TOOL_DO_NOT_CONNECT: the library works without a server. */
static void CheckUnconnected(void) {
    TCHECK(PMIx_Initialized(), "PMIx_Initialized is false");
    TCHECK(me.nspace[0] != '\0', "no self-assigned identity");
    pmix_value_t v;
    PMIX_VALUE_LOAD(&v, "tool-value", PMIX_STRING);
    TCHECK_RC(PMIx_Put(PMIX_LOCAL, "tool.key", &v), PMIX_SUCCESS, "PMIx_Put");
    PMIX_VALUE_DESTRUCT(&v);
    TCHECK_RC(PMIx_Commit(), PMIX_SUCCESS, "PMIx_Commit");
    pmix_value_t *got = NULL;
    TCHECK_RC(PMIx_Get(&me, "tool.key", NULL, 0, &got), PMIX_SUCCESS, "PMIx_Get(own key)");
    TCHECK(got->type == PMIX_STRING && strcmp(got->data.string, "tool-value") == 0, "own key");
    PMIX_VALUE_RELEASE(got);
    pmix_data_buffer_t buf;
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    int32_t x = 42, y = 0, one = 1;
    TCHECK_RC(PMIx_Data_pack(NULL, &buf, &x, 1, PMIX_INT32), PMIX_SUCCESS, "PMIx_Data_pack");
    TCHECK_RC(PMIx_Data_unpack(NULL, &buf, &y, &one, PMIX_INT32), PMIX_SUCCESS, "PMIx_Data_unpack");
    TCHECK(y == 42, "unpacked %d", y);
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
    pmix_proc_t *servers = NULL;
    size_t nservers = 7;
    TCHECK_RC(PMIx_tool_get_servers(&servers, &nservers), PMIX_SUCCESS, "get_servers (none)");
    TCHECK(nservers == 0, "%zu servers before attaching", nservers);
    pmix_app_t app;
    PMIX_APP_CONSTRUCT(&app);
    app.cmd = "/bin/true";
    char nspace[PMIX_MAX_NSLEN + 1];
    TCHECK_RC(PMIx_Spawn(NULL, 0, &app, 1, nspace), PMIX_ERR_UNREACH, "PMIx_Spawn without a server");
    /* now attach, by URI */
    pmix_info_t uri;
    PMIX_INFO_LOAD(&uri, PMIX_SERVER_URI, FirstLine(ToolEnv("PMIXX_TEST_URI_FILE")), PMIX_STRING);
    pmix_proc_t again, server;
    TCHECK_RC(PMIx_tool_attach_to_server(&again, &server, &uri, 1), PMIX_SUCCESS, "attach");
    TCHECK(PMIX_CHECK_PROCID(&again, &me), "identity changed on attaching: %s:%u", again.nspace,
           again.rank);
    TCHECK(strcmp(server.nspace, ToolEnv("PMIXX_TEST_SERVER_NSPACE")) == 0, "attached to %s",
           server.nspace);
    /* attaching again to the same server: success, nothing new */
    TCHECK_RC(PMIx_tool_attach_to_server(NULL, &server, &uri, 1), PMIX_SUCCESS, "second attach");
    PMIX_INFO_DESTRUCT(&uri);
}

/* PMIx_tool_init with PMIX_SERVER_URI uri and PMIX_TOOL_CONNECT_OPTIONAL. */
static pmix_status_t InitOptional(const char *uri) {
    pmix_info_t info[2];
    bool yes = true;
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_URI, uri, PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_TOOL_CONNECT_OPTIONAL, &yes, PMIX_BOOL);
    pmix_status_t rc = PMIx_tool_init(&me, info, 2);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    return rc;
}

static int OptionalConnect(void) {
    static const struct {
        const char *uri;
        pmix_status_t want;
    } kWrong[] = {
        {"bogus", PMIX_ERR_NOT_SUPPORTED},
        {"ns.notarank;tcp4://127.0.0.1:1", PMIX_ERR_BAD_PARAM},
        {"tcp4://999.1.1.1:77", PMIX_ERR_BAD_PARAM},
    };
    for (size_t i = 0; i < sizeof kWrong / sizeof kWrong[0]; ++i) {
        TCHECK_RC(InitOptional(kWrong[i].uri), kWrong[i].want, kWrong[i].uri);
        TCHECK(!PMIx_Initialized(), "initialized after a failed PMIx_tool_init (%s)", kWrong[i].uri);
    }
    char path[256];
    snprintf(path, sizeof path, "usock:/nonexistent-%d/pmix.sock", (int)getpid());
    TCHECK_RC(InitOptional(path), PMIX_SUCCESS, "PMIx_tool_init, optional, nobody listening");
    TCHECK(PMIx_Initialized(), "PMIx_Initialized is false");
    pmix_proc_t *servers = NULL;
    size_t nservers = 7;
    TCHECK_RC(PMIx_tool_get_servers(&servers, &nservers), PMIX_SUCCESS, "get_servers (none)");
    TCHECK(nservers == 0, "%zu servers, want none", nservers);
    TCHECK_RC(PMIx_tool_finalize(), PMIX_SUCCESS, "PMIx_tool_finalize");
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) ToolFail("usage: tool_connect MODE [ARG]");
    const char *mode = argv[1];
    pmix_info_t info[4];
    size_t n = 0;
    if (strcmp(mode, "optional") == 0) return OptionalConnect();
    if (strcmp(mode, "refused") == 0) {
        const char *uri = argc > 2 ? argv[2] : FirstLine(ToolEnv("PMIXX_TEST_URI_FILE"));
        PMIX_INFO_LOAD(&info[n++], PMIX_SERVER_URI, uri, PMIX_STRING);
        pmix_status_t rc = PMIx_tool_init(&me, info, n);
        PMIX_INFO_DESTRUCT(&info[0]); /* a leak here made LSan fail the run */
        TCHECK(rc != PMIX_SUCCESS, "PMIx_tool_init of a refused tool succeeded");
        fprintf(stderr, "[tool] refused as expected: %s\n", PMIx_Error_string(rc));
        return 0;
    }
    n = Attributes(mode, info);
    pmix_status_t rc = PMIx_tool_init(&me, info, n);
    for (size_t i = 0; i < n; ++i) PMIX_INFO_DESTRUCT(&info[i]);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "[tool] PMIx_tool_init(%s): %s\n", mode, PMIx_Error_string(rc));
        return 3;
    }
    if (strcmp(mode, "noconnect") == 0) CheckUnconnected();
    if (strcmp(mode, "named") == 0)
        TCHECK(strcmp(me.nspace, "mytool") == 0 && me.rank == 3, "named tool is %s:%u", me.nspace, me.rank);
    CheckConnected();
    ReleaseJob(ToolEnv("PMIXX_TEST_NSPACE"));
    TCHECK_RC(PMIx_tool_finalize(), PMIX_SUCCESS, "PMIx_tool_finalize");
    TCHECK(!PMIx_Initialized(), "still initialized after PMIx_tool_finalize");
    return 0;
}
