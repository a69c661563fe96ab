/*
 * client_image: how the job-data image reached this client, and what it
 * answers (test/integration/image.sh).
 *
 *   client_image shared|inline
 *
 * shared: the image is mapped from a sealed memfd the server passed (a
 * "memfd:pmix-gds-shmem" mapping), inline: no such mapping. Either way the
 * client keeps no descriptor of it, no file with the namespace's name
 * exists in /dev/shm, and the server's tmpdir holds no regular file.
 * With PMIXX_IMAGE_DUMP=DIR every rank writes DIR/<rank>: every realm's
 * keys (session, job, app, node, every rank's: test/common/jobinfo_dump.h)
 * as PMIx_Value_string shows them (the script compares the dumps of a
 * shmem, a hash and a TCP run). With PMIXX_IMAGE_FOREIGN=1 it also reads
 * the job data of <nspace>-x (the host's --extra-nspace), which comes in a
 * get reply (a second mapping in shared mode). With PMIXX_IMAGE_UPDATE=1
 * it waits for the host's --update-job resource to appear (a new image
 * generation pushed to it; the old one unmapped). With
 * PMIXX_IMAGE_REREGISTER=1 it waits for the values of the host's
 * --reregister-job to replace the first ones (the same way, without
 * asking: no PMIX_GET_REFRESH_CACHE), the others kept. With
 * PMIXX_IMAGE_LATE=NAME it asks for the job data of NAME, which fails,
 * joins a fence, and then waits for it: the host's --late-nspace registers
 * NAME once every client asked (one more mapping in shared mode). After
 * PMIx_Finalize nothing is mapped any more.
 */
#include "test/host/clients/client_util.h" /* first: it sets _GNU_SOURCE */

#include <sys/stat.h>

#include "test/common/jobinfo_dump.h"

/* Mappings of gds/shmem regions in this process. */
static int RegionMappings(void) { return MemfdMapsNamed(PMIXX_MEMFD_REGION); }

/* No name in the file system: nothing in /dev/shm mentions the namespace
 * and the server's tmpdir has no regular file (sockets and dirs only). */
static void CheckNoNames(void) {
    DIR *d = opendir("/dev/shm");
    if (d != NULL) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL)
            CHECK(strstr(e->d_name, client_me.nspace) == NULL, "/dev/shm/%s names the job",
                  e->d_name);
        closedir(d);
    }
    const char *tmp = getenv("PMIX_SERVER_TMPDIR");
    if (tmp == NULL || (d = opendir(tmp)) == NULL) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", tmp, e->d_name);
        if (lstat(path, &st) == 0)
            CHECK(!S_ISREG(st.st_mode), "regular file %s in the server's tmpdir", path);
    }
    closedir(d);
}

/* Polls until `key` of {nspace, PMIX_RANK_WILDCARD} is the string `want`:
 * what the host registers once everyone connected reaches the client
 * without its asking for it again (bounded: 20 s). */
static void AwaitJobString(const char *nspace, const char *key, const char *want) {
    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, nspace, PMIX_RANK_WILDCARD);
    const struct timespec tick = {0, 10000000L};
    pmix_status_t rc = PMIX_ERR_NOT_FOUND;
    char seen[128] = "nothing", first[160] = "";
    for (int i = 0; i < 2000; ++i) {
        pmix_value_t *v = NULL;
        rc = PMIx_Get(&job, key, NULL, 0, &v);
        const char *str = rc == PMIX_SUCCESS && v->type == PMIX_STRING ? v->data.string : NULL;
        int done = str != NULL && strcmp(str, want) == 0;
        if (rc == PMIX_SUCCESS) snprintf(seen, sizeof seen, "%s", str ? str : "(not a string)");
        if (v != NULL) PMIX_VALUE_RELEASE(v);
        if (i == 0) snprintf(first, sizeof first, "%s %s", PMIx_Error_string(rc), seen);
        if (done) {
            Note("%s of %s: \"%s\" at Get %d (the first: %s)", key, nspace, want, i + 1, first);
            return;
        }
        nanosleep(&tick, NULL);
    }
    Fail("%s of %s: %s (last value: %s) after 20 s, want \"%s\"", key, nspace,
         PMIx_Error_string(rc), seen, want);
}

static int EnvSet(const char *name) {
    const char *v = getenv(name);
    return v != NULL && *v == '1';
}

/* Every realm of the job data, every rank's (this node's and the peer
 * host's), as JobDataDump writes it: the session's keys (the host's
 * PMIX_SESSION_INFO_ARRAY), the job's, app's and nodes', and each rank's
 * (its PMIX_PROC_DATA: test.proc.* and the standard keys), derived keys
 * included. */
static void DumpAll(const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%d", dir, (int)client_me.rank);
    CHECK(JobDataDump(path, client_me.nspace, NULL) == 0, "cannot write %s", path);
}

int main(int argc, char **argv) {
    CHECK(argc == 2 && (strcmp(argv[1], "shared") == 0 || strcmp(argv[1], "inline") == 0),
          "usage: client_image shared|inline");
    int shared = strcmp(argv[1], "shared") == 0;
    ClientInit();
    int mapped = RegionMappings();
    CHECK(shared ? mapped == 1 : mapped == 0, "%d region mappings after init (%s mode)", mapped,
          argv[1]);
    CHECK(MemfdFdsNamed("") == 0, "%d memfd descriptors kept", MemfdFdsNamed(""));
    CheckNoNames();
    uint32_t size = GetU32(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    const char *dir = getenv("PMIXX_IMAGE_DUMP");
    if (dir != NULL && *dir) DumpAll(dir);
    if (EnvSet("PMIXX_IMAGE_FOREIGN")) {
        char other[PMIX_MAX_NSLEN + 1];
        snprintf(other, sizeof other, "%.200s-x", client_me.nspace);
        pmix_proc_t p;
        PMIX_LOAD_PROCID(&p, other, PMIX_RANK_WILDCARD);
        pmix_value_t *v = NULL;
        CHECK_RC(PMIx_Get(&p, "test.extra.str", NULL, 0, &v), PMIX_SUCCESS, "Get of <nspace>-x");
        CHECK(v->type == PMIX_STRING && strcmp(v->data.string, "extra-job-string") == 0,
              "test.extra.str of <nspace>-x");
        PMIX_VALUE_RELEASE(v);
        mapped = RegionMappings();
        CHECK(shared ? mapped == 2 : mapped == 0, "%d region mappings after a foreign get", mapped);
        CHECK(MemfdFdsNamed("") == 0, "memfd descriptors kept after a foreign get");
    }
    if (EnvSet("PMIXX_IMAGE_UPDATE")) {
        /* The host registers a resource once everyone connected: it comes
         * as a new image, without asking. */
        AwaitJobString(client_me.nspace, "test.job.update", "generation-2");
        CHECK(GetU32(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE) == size, "job size after the update");
        mapped = RegionMappings();
        CHECK(shared ? mapped == 1 : mapped == 0, "%d region mappings after the update", mapped);
        CHECK(MemfdFdsNamed("") == 0, "memfd descriptors kept after the update");
    }
    if (EnvSet("PMIXX_IMAGE_REREGISTER")) {
        /* The host registers the job again once everyone connected, two
         * values changed: both come in one new image, the others stay. */
        uint32_t node = GetU32(client_me.rank, PMIX_NODEID);
        AwaitJobString(client_me.nspace, "test.job.str", "job-level-string-2");
        /* 4: the host's HOST_REREGISTER_EXTRA_UNIV */
        uint32_t univ = GetU32(PMIX_RANK_WILDCARD, PMIX_UNIV_SIZE);
        CHECK(univ == size + 4, "universe size %u after the re-registration, want %u", univ,
              size + 4);
        CHECK(GetU32(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE) == size,
              "job size after the re-registration");
        pmix_value_t *v = GetTyped(PMIX_RANK_WILDCARD, "test.job.int", PMIX_INT32, NULL, 0);
        CHECK(v->data.int32 == -17, "test.job.int after the re-registration: %d", v->data.int32);
        PMIX_VALUE_RELEASE(v);
        CHECK(GetU32(client_me.rank, PMIX_NODEID) == node, "own node id after the re-registration");
        mapped = RegionMappings();
        CHECK(shared ? mapped == 1 : mapped == 0, "%d region mappings after the re-registration",
              mapped);
        CHECK(MemfdFdsNamed("") == 0, "memfd descriptors kept after the re-registration");
    }
    const char *late = getenv("PMIXX_IMAGE_LATE");
    if (late != NULL && *late) {
        /* A namespace the host registers only once every client asked for
         * it in vain: afterwards the same Get finds it (nothing remembered
         * its absence), its image in a get reply like any other's. */
        pmix_proc_t p;
        PMIX_LOAD_PROCID(&p, late, PMIX_RANK_WILDCARD);
        pmix_value_t *v = NULL;
        pmix_status_t rc = PMIx_Get(&p, "test.late.str", NULL, 0, &v);
        CHECK(rc != PMIX_SUCCESS, "Get of %s before the host registered it succeeded", late);
        Note("Get of %s before it was registered: %s", late, PMIx_Error_string(rc));
        /* The host counts the asks, not who asked: nobody asks again
         * before every client asked once. */
        CHECK_RC(PMIx_Fence(NULL, 0, NULL, 0), PMIX_SUCCESS, "Fence after asking for the late job");
        AwaitJobString(late, "test.late.str", "late-job-string");
        v = NULL;
        CHECK_RC(PMIx_Get(&p, PMIX_JOB_SIZE, NULL, 0, &v), PMIX_SUCCESS,
                 "Get(job size) of the late job");
        CHECK(v->type == PMIX_UINT32 && v->data.uint32 == 2, "job size of the late job");
        PMIX_VALUE_RELEASE(v);
        int now = RegionMappings();
        CHECK(shared ? now == mapped + 1 : now == 0,
              "%d region mappings after reading the late job (%d before)", now, mapped);
        mapped = now;
        CHECK(MemfdFdsNamed("") == 0, "memfd descriptors kept after reading the late job");
    }
    Note("image %s ok (%d mappings)", argv[1], mapped);
    ClientFinalize();
    /* Finalized: no region of the job data is mapped or held any more. */
    CHECK(RegionMappings() == 0, "%d region mappings after PMIx_Finalize", RegionMappings());
    CHECK(MemfdFdsNamed("") == 0, "memfd descriptors kept after PMIx_Finalize");
    return 0;
}
