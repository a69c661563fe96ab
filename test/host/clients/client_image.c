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
 * With PMIXX_IMAGE_DUMP=DIR every rank writes DIR/<rank>: the job-level
 * keys and every rank's derived keys as PMIx_Value_string shows them (the
 * script compares the dumps of a shmem, a hash and a TCP run). With
 * PMIXX_IMAGE_FOREIGN=1 it also reads the job data of <nspace>-x (the
 * host's --extra-nspace), which comes in a get reply (a second mapping
 * in shared mode). With PMIXX_IMAGE_UPDATE=1 it waits for the host's
 * --update-job resource to appear (a new image generation pushed to it;
 * the old one unmapped). After PMIx_Finalize nothing is mapped any more.
 */
#include "test/host/clients/client_util.h" /* first: it sets _GNU_SOURCE */

#include <sys/stat.h>

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

static void Dump(FILE *out, const char *nspace, pmix_rank_t rank, const char *key,
                 const pmix_info_t *info, size_t ninfo) {
    pmix_proc_t p;
    PMIX_LOAD_PROCID(&p, nspace, rank);
    pmix_value_t *v = NULL;
    pmix_status_t rc = PMIx_Get(&p, key, info, ninfo, &v);
    if (rc != PMIX_SUCCESS) {
        fprintf(out, "%d %s: %s\n", (int)rank, key, PMIx_Error_string(rc));
        return;
    }
    char *s = PMIx_Value_string(v);
    fprintf(out, "%d %s: %s\n", (int)rank, key, s != NULL ? s : "(null)");
    free(s);
    PMIX_VALUE_RELEASE(v);
}

static const char *kJobKeys[] = {PMIX_JOB_SIZE, PMIX_UNIV_SIZE, PMIX_LOCAL_SIZE, PMIX_LOCAL_PEERS,
                                 PMIX_JOBID, PMIX_NUM_NODES, PMIX_NODE_LIST, "test.job.str",
                                 "test.job.int", "test.job.u64", PMIX_JOB_NUM_APPS, NULL};
static const char *kRankKeys[] = {PMIX_HOSTNAME, PMIX_NODEID, PMIX_LOCAL_RANK, PMIX_NODE_RANK,
                                  PMIX_APPNUM, PMIX_APP_RANK, PMIX_GLOBAL_RANK, NULL};

static void DumpAll(const char *dir, uint32_t size) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%d", dir, (int)client_me.rank);
    FILE *out = fopen(path, "w");
    CHECK(out != NULL, "cannot write %s", path);
    for (const char **k = kJobKeys; *k; ++k) Dump(out, client_me.nspace, PMIX_RANK_WILDCARD, *k, NULL, 0);
    for (pmix_rank_t r = 0; r < size; ++r)
        for (const char **k = kRankKeys; *k; ++k) Dump(out, client_me.nspace, r, *k, NULL, 0);
    /* the node and app realms */
    pmix_info_t node[1];
    PMIX_INFO_LOAD(&node[0], PMIX_NODE_INFO, NULL, PMIX_BOOL);
    Dump(out, client_me.nspace, PMIX_RANK_WILDCARD, PMIX_LOCAL_SIZE, node, 1);
    Dump(out, client_me.nspace, PMIX_RANK_WILDCARD, PMIX_NODE_SIZE, node, 1);
    pmix_info_t app[2];
    uint32_t appnum = 0;
    PMIX_INFO_LOAD(&app[0], PMIX_APP_INFO, NULL, PMIX_BOOL);
    PMIX_INFO_LOAD(&app[1], PMIX_APPNUM, &appnum, PMIX_UINT32);
    Dump(out, client_me.nspace, PMIX_RANK_WILDCARD, PMIX_APP_SIZE, app, 2);
    fclose(out);
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
    if (dir != NULL && *dir) DumpAll(dir, size);
    const char *foreign = getenv("PMIXX_IMAGE_FOREIGN");
    if (foreign != NULL && *foreign == '1') {
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
    const char *update = getenv("PMIXX_IMAGE_UPDATE");
    if (update != NULL && *update == '1') {
        /* The host registers a resource once everyone connected: it comes
         * as a new image, without asking (bounded: 20 s). */
        pmix_proc_t job = ProcOf(PMIX_RANK_WILDCARD);
        pmix_value_t *v = NULL;
        const struct timespec tick = {0, 10000000L};
        pmix_status_t rc = PMIX_ERR_NOT_FOUND;
        for (int i = 0; i < 2000 && rc != PMIX_SUCCESS; ++i) {
            rc = PMIx_Get(&job, "test.job.update", NULL, 0, &v);
            if (rc != PMIX_SUCCESS) nanosleep(&tick, NULL);
        }
        CHECK_RC(rc, PMIX_SUCCESS, "Get(test.job.update) after the update");
        CHECK(v->type == PMIX_STRING && strcmp(v->data.string, "generation-2") == 0,
              "test.job.update");
        PMIX_VALUE_RELEASE(v);
        CHECK(GetU32(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE) == size, "job size after the update");
        mapped = RegionMappings();
        CHECK(shared ? mapped == 1 : mapped == 0, "%d region mappings after the update", mapped);
        CHECK(MemfdFdsNamed("") == 0, "memfd descriptors kept after the update");
    }
    Note("image %s ok (%d mappings)", argv[1], mapped);
    ClientFinalize();
    /* Finalized: no region of the job data is mapped or held any more. */
    CHECK(RegionMappings() == 0, "%d region mappings after PMIx_Finalize", RegionMappings());
    CHECK(MemfdFdsNamed("") == 0, "memfd descriptors kept after PMIx_Finalize");
    return 0;
}
