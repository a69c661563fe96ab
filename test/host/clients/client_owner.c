/*
 * client_owner: who may read another namespace's job data. The host
 * registers <nspace>-x (--extra-nspace) with test.extra.str and a job size
 * of 2. Mode "allowed": this client may read it (same user as its owners,
 * or a namespace without registered clients). Mode "denied" (the host runs
 * this client as another user, --client-uid, and registered the other
 * namespace's procs as its own user's, --owned-extra): every Get of that
 * job's data fails with PMIX_ERR_NO_PERMISSIONS, while this client's own
 * job data reads as usual.
 */
#include "test/host/clients/client_util.h"

/* Get of key of {nspace, rank}: its status; the value checked when found. */
static pmix_status_t GetStatus(const char *nspace, pmix_rank_t rank, const char *key) {
    pmix_proc_t who;
    PMIX_LOAD_PROCID(&who, nspace, rank);
    pmix_value_t *v = NULL;
    pmix_status_t rc = PMIx_Get(&who, key, NULL, 0, &v);
    Note("Get(%s:%d, %s) = %s", nspace, (int)rank, key, PMIx_Error_string(rc));
    if (rc == PMIX_SUCCESS) {
        CHECK(v != NULL, "Get(%s) succeeded without a value", key);
        if (strcmp(key, "test.extra.str") == 0)
            CHECK(v->type == PMIX_STRING && strcmp(v->data.string, "extra-job-string") == 0,
                  "test.extra.str of %s has the wrong value", nspace);
        PMIX_VALUE_RELEASE(v);
    }
    return rc;
}

int main(int argc, char **argv) {
    CHECK(argc == 2 && (strcmp(argv[1], "allowed") == 0 || strcmp(argv[1], "denied") == 0),
          "usage: client_owner allowed|denied");
    int denied = strcmp(argv[1], "denied") == 0;
    ClientInit();
    /* OpenPMIx 4.2 hands any job's data to any client it admitted. */
    if (denied && OnOpenPmix()) {
        Note("denied mode skipped on OpenPMIx");
        ClientFinalize();
        return 0;
    }
    char other[PMIX_MAX_NSLEN + 1];
    snprintf(other, sizeof other, "%.200s-x", client_me.nspace);

    /* Its own job's data: always. */
    CHECK(GetStatus(client_me.nspace, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE) == PMIX_SUCCESS,
          "own PMIX_JOB_SIZE not readable");
    /* The other job's: a job-level key, a custom one, a proc-level one. */
    const char *keys[] = {PMIX_JOB_SIZE, "test.extra.str"};
    pmix_status_t want = denied ? PMIX_ERR_NO_PERMISSIONS : PMIX_SUCCESS;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; ++i) {
        pmix_status_t rc = GetStatus(other, PMIX_RANK_WILDCARD, keys[i]);
        CHECK(rc == want, "Get(%s:*, %s) = %s, expected %s", other, keys[i], PMIx_Error_string(rc),
              PMIx_Error_string(want));
    }
    if (denied) {
        pmix_status_t rc = GetStatus(other, 0, PMIX_HOSTNAME);
        CHECK(rc == PMIX_ERR_NO_PERMISSIONS, "Get(%s:0, PMIX_HOSTNAME) = %s, expected %s", other,
              PMIx_Error_string(rc), PMIx_Error_string(PMIX_ERR_NO_PERMISSIONS));
        /* Asked again: the same answer (nothing was cached by the refusal). */
        rc = GetStatus(other, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
        CHECK(rc == PMIX_ERR_NO_PERMISSIONS, "second Get of %s's job size = %s", other,
              PMIx_Error_string(rc));
    }
    CHECK_RC(PMIx_Fence(NULL, 0, NULL, 0), PMIX_SUCCESS, "PMIx_Fence");
    ClientFinalize();
    return 0;
}
