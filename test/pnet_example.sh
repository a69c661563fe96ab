#!/bin/sh
# The out-of-tree pnet component of contrib/pnet-example, built only against
# a staged installation, is listed by pmix_info and takes part in a job's
# setup: its setup_application data comes back from
# PMIx_server_setup_application, setup_local_support turns it into
# EXAMPLE_FABRIC_KEY in PMIx_server_setup_fork's environment, and
# PMIx_Fabric_register with PMIX_FABRIC_PLANE=example describes its plane.
set -u
. "$top_srcdir/test/tools/staged_component.sh"
build_staged_component pnet-example pnet_example.c
export PMIX_MCA_mca_base_component_path="$work/components:${PMIX_MCA_mca_base_component_path:-}"
failures=0
"$top_builddir/src/tools/pmix_info/pmix_info" > "$work/info" \
    && grep -Eq '^ *MCA pnet: example \(MCA v1\.0\.0, API v1\.0\.0, Component v1\.0\.0\)$' "$work/info" \
    || { echo "FAIL: pmix_info does not list the example"; failures=$((failures + 1)); }

cat > "$work/job.c" <<'PROG'
#define _POSIX_C_SOURCE 200809L
#include <pmix.h>
#include <pmix_server.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static volatile int done;
static pmix_info_t *app;
static size_t napp;
static void got(pmix_status_t rc, pmix_info_t info[], size_t n, void *cbdata,
                pmix_op_cbfunc_t release, void *rdata) {
    (void)cbdata;
    if (rc == PMIX_SUCCESS && n > 0) {
        app = PMIx_Info_create(n);
        for (size_t i = 0; i < n; ++i) PMIx_Info_xfer(&app[i], &info[i]);
        napp = n;
    }
    if (release) release(PMIX_SUCCESS, rdata);
    done = 1;
}
static void opdone(pmix_status_t rc, void *cbdata) { *(pmix_status_t *)cbdata = rc; done = 1; }
static void wait_done(void) { for (int i = 0; i < 3000 && !done; ++i) usleep(1000); }
int main(void) {
    char dir[] = "/tmp/pnetex.XXXXXX";
    if (!mkdtemp(dir)) return 2;
    pmix_info_t init;
    PMIx_Info_load(&init, PMIX_SERVER_TMPDIR, dir, PMIX_STRING);
    if (PMIx_server_init(NULL, &init, 1) != PMIX_SUCCESS) return 3;
    if (PMIx_server_setup_application("job1", NULL, 0, got, NULL) != PMIX_SUCCESS) return 4;
    wait_done();
    const char *key = NULL;
    for (size_t i = 0; i < napp; ++i)
        if (PMIX_CHECK_KEY(&app[i], "example.fabric.key")) key = app[i].value.data.string;
    printf("app %s\n", key ? key : "(none)");
    pmix_status_t rc = PMIX_ERROR;
    done = 0;
    if (PMIx_server_setup_local_support("job1", app, napp, opdone, &rc) != PMIX_SUCCESS) return 5;
    wait_done();
    pmix_proc_t proc;
    PMIx_Load_procid(&proc, "job1", 0);
    char **env = NULL;
    rc = PMIx_server_setup_fork(&proc, &env);
    const char *val = NULL;
    for (size_t i = 0; env && env[i]; ++i)
        if (strncmp(env[i], "EXAMPLE_FABRIC_KEY=", 19) == 0) val = env[i] + 19;
    printf("env %s\n", val ? val : "(none)");
    pmix_fabric_t fab;
    PMIx_Fabric_construct(&fab);
    pmix_info_t plane;
    PMIx_Info_load(&plane, PMIX_FABRIC_PLANE, "example", PMIX_STRING);
    rc = PMIx_Fabric_register(&fab, &plane, 1);
    const char *vendor = NULL;
    for (size_t i = 0; rc == PMIX_SUCCESS && i < fab.ninfo; ++i)
        if (PMIX_CHECK_KEY(&fab.info[i], PMIX_FABRIC_VENDOR)) vendor = fab.info[i].value.data.string;
    printf("fabric %s %s\n", fab.name ? fab.name : "(none)", vendor ? vendor : "(none)");
    if (rc == PMIX_SUCCESS) PMIx_Fabric_deregister(&fab);
    PMIx_server_finalize();
    rmdir(dir);
    return 0;
}
PROG
cc -std=c99 -o "$work/job" "$work/job.c" $(pkg-config --cflags --libs pmix) \
    || { echo "FAIL: compiling the job program"; exit 1; }
"$work/job" > "$work/job.out" 2>&1 || { echo "FAIL: job program exit $?"; cat "$work/job.out"; failures=$((failures + 1)); }
for want in "app examplefab:job1" "env examplefab:job1" "fabric example Example Corp"; do
    grep -qx "$want" "$work/job.out" || { echo "FAIL: no '$want'"; sed 's/^/  /' "$work/job.out"; failures=$((failures + 1)); }
done
PMIX_MCA_pnet_example_fabric=sitefab "$work/job" > "$work/job2.out" 2>&1
grep -qx "env sitefab:job1" "$work/job2.out" || { echo "FAIL: parameter ignored"; sed 's/^/  /' "$work/job2.out"; failures=$((failures + 1)); }
echo "pnet example checks: $failures failed"
[ "$failures" -eq 0 ]
