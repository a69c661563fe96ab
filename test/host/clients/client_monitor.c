/*
 * client_monitor: monitoring that the server library does itself when its
 * host has no monitor upcall (pmix_test_host --without-upcalls monitor).
 *
 * 1. heartbeats: PMIX_MONITOR_HEARTBEAT every 1 s; while PMIx_Heartbeat()
 *    comes every 100 ms nothing is raised; when they stop,
 *    PMIX_MONITOR_HEARTBEAT_ALERT arrives naming this process and the
 *    monitor's id; PMIX_MONITOR_CANCEL ends it.
 * 2. a file: PMIX_MONITOR_FILE with PMIX_MONITOR_FILE_MODIFY; while the
 *    file is written nothing is raised; when the writes stop,
 *    PMIX_MONITOR_FILE_ALERT arrives.
 * 3. bad requests: a file monitor without a mode, an unknown monitor.
 * Every wait is bounded (10 s).
 */
#include "client_util.h"

#include <pthread.h>
#include <string.h>
#include <time.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int alerts[2];  /* heartbeat, file */
static char last_id[64];
static pmix_proc_t last_affected;

static void OnAlert(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[],
                    size_t ninfo, pmix_info_t results[], size_t nresults,
                    pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata) {
    (void)id; (void)source; (void)results; (void)nresults;
    pthread_mutex_lock(&mu);
    alerts[status == PMIX_MONITOR_FILE_ALERT ? 1 : 0]++;
    for (size_t i = 0; i < ninfo; ++i) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_MONITOR_ID) && info[i].value.type == PMIX_STRING)
            snprintf(last_id, sizeof last_id, "%s", info[i].value.data.string);
        if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROC) && info[i].value.type == PMIX_PROC)
            last_affected = *info[i].value.data.proc;
    }
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
    if (cbfunc) cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

static int Alerts(int which) {
    pthread_mutex_lock(&mu);
    int n = alerts[which];
    pthread_mutex_unlock(&mu);
    return n;
}

static void Sleep(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

static void WaitAlert(int which, int want) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    pthread_mutex_lock(&mu);
    while (alerts[which] < want)
        if (pthread_cond_timedwait(&cv, &mu, &until) != 0) break;
    int got = alerts[which];
    pthread_mutex_unlock(&mu);
    CHECK(got >= want, "no %s alert within 10 s", which ? "file" : "heartbeat");
}

static void Monitor(const pmix_info_t *monitor, pmix_status_t error, const pmix_info_t *dirs,
                    size_t ndirs, pmix_status_t want, const char *what) {
    pmix_info_t *res = NULL;
    size_t nres = 0;
    CHECK_RC(PMIx_Process_monitor(monitor, error, dirs, ndirs, &res, &nres), want, what);
    if (res) PMIX_INFO_FREE(res, nres);
}

static void RegisterAlerts(void) {
    pmix_status_t codes[2] = {PMIX_MONITOR_HEARTBEAT_ALERT, PMIX_MONITOR_FILE_ALERT};
    pmix_status_t rc = PMIx_Register_event_handler(codes, 2, NULL, 0, OnAlert, NULL, NULL);
    CHECK(rc >= 0, "register alert handler: %s", PMIx_Error_string(rc));
}

static void Heartbeats(void) {
    pmix_info_t monitor, dirs[3];
    uint32_t one = 1;
    PMIX_INFO_LOAD(&monitor, PMIX_MONITOR_HEARTBEAT, NULL, PMIX_POINTER);
    PMIX_INFO_LOAD(&dirs[0], PMIX_MONITOR_ID, "hb", PMIX_STRING);
    PMIX_INFO_LOAD(&dirs[1], PMIX_MONITOR_HEARTBEAT_TIME, &one, PMIX_UINT32);
    PMIX_INFO_LOAD(&dirs[2], PMIX_MONITOR_HEARTBEAT_DROPS, &one, PMIX_UINT32);
    Monitor(&monitor, PMIX_MONITOR_HEARTBEAT_ALERT, dirs, 3, PMIX_SUCCESS, "heartbeat monitor");
    for (int i = 0; i < 25; ++i) {  /* 2.5 s of beats: two checks at least */
        PMIx_Heartbeat();
        Sleep(100);
    }
    CHECK(Alerts(0) == 0, "heartbeat alert while beating");
    WaitAlert(0, 1);
    pthread_mutex_lock(&mu);
    CHECK(strcmp(last_id, "hb") == 0, "alert names monitor '%s'", last_id);
    CHECK(PMIX_CHECK_PROCID(&last_affected, &client_me), "alert names %s:%u", last_affected.nspace,
          last_affected.rank);
    pthread_mutex_unlock(&mu);
    pmix_info_t cancel;
    PMIX_INFO_LOAD(&cancel, PMIX_MONITOR_CANCEL, "hb", PMIX_STRING);
    Monitor(&cancel, PMIX_SUCCESS, NULL, 0, PMIX_SUCCESS, "cancel");
    PMIX_INFO_DESTRUCT(&cancel);
    PMIX_INFO_DESTRUCT(&monitor);
    for (int i = 0; i < 3; ++i) PMIX_INFO_DESTRUCT(&dirs[i]);
    Note("heartbeat ok");
}

static void File(const char *path) {
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "cannot create %s", path);
    pmix_info_t monitor, dirs[3];
    uint32_t one = 1;
    PMIX_INFO_LOAD(&monitor, PMIX_MONITOR_FILE, path, PMIX_STRING);
    PMIX_INFO_LOAD(&dirs[0], PMIX_MONITOR_ID, "log", PMIX_STRING);
    PMIX_INFO_LOAD(&dirs[1], PMIX_MONITOR_FILE_MODIFY, path, PMIX_STRING);
    PMIX_INFO_LOAD(&dirs[2], PMIX_MONITOR_FILE_CHECK_TIME, &one, PMIX_UINT32);
    Monitor(&monitor, PMIX_SUCCESS, dirs, 3, PMIX_SUCCESS, "file monitor");
    for (int i = 0; i < 25; ++i) {
        fprintf(f, "line %d\n", i);
        fflush(f);
        Sleep(100);
    }
    CHECK(Alerts(1) == 0, "file alert while writing");
    WaitAlert(1, 1);
    pthread_mutex_lock(&mu);
    CHECK(strcmp(last_id, "log") == 0, "file alert names monitor '%s'", last_id);
    pthread_mutex_unlock(&mu);
    fclose(f);
    pmix_info_t cancel;
    PMIX_INFO_LOAD(&cancel, PMIX_MONITOR_CANCEL, NULL, PMIX_STRING);  /* all of ours */
    Monitor(&cancel, PMIX_SUCCESS, NULL, 0, PMIX_SUCCESS, "cancel all");
    PMIX_INFO_DESTRUCT(&monitor);
    for (int i = 0; i < 3; ++i) PMIX_INFO_DESTRUCT(&dirs[i]);
    Note("file ok");
}

static void BadRequests(const char *path) {
    pmix_info_t monitor;
    PMIX_INFO_LOAD(&monitor, PMIX_MONITOR_FILE, path, PMIX_STRING);
    Monitor(&monitor, PMIX_SUCCESS, NULL, 0, PMIX_ERR_BAD_PARAM, "file monitor without a mode");
    PMIX_INFO_DESTRUCT(&monitor);
    PMIX_INFO_LOAD(&monitor, "test.nosuchmonitor", NULL, PMIX_POINTER);
    Monitor(&monitor, PMIX_SUCCESS, NULL, 0, PMIX_ERR_NOT_SUPPORTED, "unknown monitor");
}

int main(int argc, char **argv) {
    CHECK(argc > 1, "usage: client_monitor <scratch file>");
    ClientInit();
    RegisterAlerts();
    Heartbeats();
    File(argv[1]);
    BadRequests(argv[1]);
    ClientFinalize();
    return 0;
}
