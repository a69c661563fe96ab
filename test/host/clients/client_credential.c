/*
 * client_credential: connects (with whatever security the server offers)
 * and exercises PMIx_Get_credential / PMIx_Validate_credential, blocking and
 * non-blocking: a credential it obtains must validate and name this uid.
 * With PMIXX_TEST_BAD_CRED_RANK equal to its rank, it first points its munge
 * module at another munged (PMIXX_TEST_OTHER_MUNGE_SOCKET, a different key),
 * so the credential it presents when connecting is not valid for the server:
 * PMIx_Init must then fail (exit 2, as client_util.h says).
 * Exit codes as client_util.h.
 */
#include "client_util.h"

static int nb_done = 0;
static pmix_status_t nb_status = PMIX_ERROR;

static void ValidateDone(pmix_status_t status, pmix_info_t info[], size_t ninfo, void *cbdata) {
    (void)info, (void)ninfo, (void)cbdata;
    nb_status = status;
    FLAG_SET(nb_done, 1);
}

static uint32_t UidOf(const pmix_info_t *info, size_t n) {
    for (size_t i = 0; i < n; ++i)
        if (PMIX_CHECK_KEY(&info[i], PMIX_USERID) && info[i].value.type == PMIX_UINT32)
            return info[i].value.data.uint32;
    return UINT32_MAX;
}

int main(void) {
    const char *bad = getenv("PMIXX_TEST_BAD_CRED_RANK");
    const char *rank = getenv("PMIX_RANK");
    const char *other = getenv("PMIXX_TEST_OTHER_MUNGE_SOCKET");
    if (bad && rank && other && strcmp(bad, rank) == 0)
        setenv("PMIX_MCA_psec_munge_socket", other, 1);
    ClientInit();
    pmix_byte_object_t cred;
    PMIX_BYTE_OBJECT_CONSTRUCT(&cred);
    CHECK_RC(PMIx_Get_credential(NULL, 0, &cred), PMIX_SUCCESS, "PMIx_Get_credential");
    CHECK(cred.size > 0 && cred.bytes != NULL, "empty credential");
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    CHECK_RC(PMIx_Validate_credential(&cred, NULL, 0, &results, &nresults), PMIX_SUCCESS,
             "PMIx_Validate_credential");
    uint32_t uid = UidOf(results, nresults);
    CHECK(uid == (uint32_t)getuid(), "validated uid %u, want %u", uid, (unsigned)getuid());
    PMIX_INFO_FREE(results, nresults);
    /* A munge credential decodes once (replays are refused): a fresh one. */
    PMIX_BYTE_OBJECT_DESTRUCT(&cred);
    CHECK_RC(PMIx_Get_credential(NULL, 0, &cred), PMIX_SUCCESS, "PMIx_Get_credential (2)");
    CHECK_RC(PMIx_Validate_credential_nb(&cred, NULL, 0, ValidateDone, NULL), PMIX_SUCCESS,
             "PMIx_Validate_credential_nb");
    double deadline = NowSec() + 10;
    while (!FLAG_GET(nb_done) && NowSec() < deadline) usleep(1000);
    CHECK(FLAG_GET(nb_done), "Validate_credential_nb did not call back");
    CHECK_RC(nb_status, PMIX_SUCCESS, "Validate_credential_nb status");
    /* A replayed credential (munge remembers it) and a tampered one are refused. */
    CHECK(PMIx_Validate_credential(&cred, NULL, 0, &results, &nresults) != PMIX_SUCCESS,
          "a replayed credential validated");
    PMIX_BYTE_OBJECT_DESTRUCT(&cred);
    CHECK_RC(PMIx_Get_credential(NULL, 0, &cred), PMIX_SUCCESS, "PMIx_Get_credential (3)");
    cred.bytes[cred.size / 2] ^= 0x55;
    pmix_status_t rc = PMIx_Validate_credential(&cred, NULL, 0, &results, &nresults);
    CHECK(rc != PMIX_SUCCESS, "a tampered credential validated");
    PMIX_BYTE_OBJECT_DESTRUCT(&cred);
    Note("credentials: obtained, validated (uid %u), tampered one refused", uid);
    ClientFinalize();
    return 0;
}
