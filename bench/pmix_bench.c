/*
 * pmix_bench: entry point and option parsing.
 *
 *   pmix_bench host -n N [-S S] [--iters K] [--fences F] [--blobs LIST]
 *                   [--repeat R] [--timeout SEC]
 *   pmix_bench client ...      (started by the host; not for manual use)
 */
#define _XOPEN_SOURCE 700

#include "bench.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void Usage(FILE *out)
{
    fprintf(out,
            "usage: pmix_bench host -n N [-S S] [--iters K] [--fences F] [--blobs LIST]\n"
            "                       [--repeat R] [--nodes 2] [--timeout SEC]\n"
            "  Starts a PMIx server, registers a job of S procs over S/N nodes (N per\n"
            "  node, node 0 is this one), forks the N local clients and prints\n"
            "  median/mean/min/max of each metric over them (see bench/README.md).\n"
            "  -n N          local clients, 1..4096\n"
            "  -S S          job size, a multiple of N (default N: one node)\n"
            "  --iters K     timed Gets of each key (default 1000)\n"
            "  --fences F    timed barrier fences (default 100)\n"
            "  --blobs LIST  blob sizes, comma-separated, K/M suffixes allowed, one\n"
            "                collect fence each (default 1K; --blob is the same)\n"
            "  --repeat R    isolated collect fences per blob size (commit, barrier,\n"
            "                timed fence, barrier, R times); fenceiso_<B> is each\n"
            "                client's median of the R (default 1)\n"
            "  --nodes 2     node 1 has processes too: a second host (forked) serves\n"
            "                its N clients, and the two hosts exchange the fence\n"
            "                contributions as two RM daemons would; every client\n"
            "                then reads the blobs of both nodes (S at least 2N)\n"
            "  --timeout SEC bound on the whole run (default 300)\n");
}

/* Parses an integer in [lo, hi] with an optional K or M suffix (x1024,
 * x1048576) when suffix is set; returns 0 on success. */
static int ParseNumber(const char *text, long lo, long hi, int suffix, long *out)
{
    char *end = NULL;
    long v;
    errno = 0;
    v = strtol(text, &end, 10);
    if (0 != errno || end == text) {
        return -1;
    }
    if (suffix && ('K' == *end || 'k' == *end) && v <= LONG_MAX / 1024) {
        v *= 1024;
        ++end;
    } else if (suffix && ('M' == *end || 'm' == *end) && v <= LONG_MAX / 1048576) {
        v *= 1048576;
        ++end;
    }
    if ('\0' != *end || v < lo || v > hi) {
        return -1;
    }
    *out = v;
    return 0;
}

/* "64,1K,64K,1M" -> opt->blobs; 0 on success. */
static int ParseBlobs(const char *text, BenchOptions *opt)
{
    char buf[256];
    char *item, *save = NULL;
    if (strlen(text) >= sizeof(buf)) {
        return -1;
    }
    strcpy(buf, text);
    opt->nblobs = 0;
    for (item = strtok_r(buf, ",", &save); NULL != item; item = strtok_r(NULL, ",", &save)) {
        long v;
        if (opt->nblobs == BENCH_MAX_BLOBS ||
            0 != ParseNumber(item, 1, 64L * 1024 * 1024, 1, &v)) {
            return -1;
        }
        opt->blobs[opt->nblobs++] = (size_t)v;
    }
    return opt->nblobs > 0 ? 0 : -1;
}

typedef struct {
    const char *flag;
    const char *alias;
    long lo, hi;
} OptionSpec;

/* Table of the options, in the order ApplyOption stores them. */
static const OptionSpec kOptions[] = {
    {"--nprocs", "-n", 1, 4096},
    {"--size", "-S", 1, 10000000},
    {"--iters", "-k", 1, 100000000},
    {"--fences", "-f", 1, 100000000},
    {"--timeout", "-t", 1, 86400},
    {"--fd", NULL, 0, INT_MAX},
    {"--repeat", "-r", 1, 100000},
    {"--nodes", NULL, 1, 2},
    {"--node", NULL, 0, 1},
    {"--blobs", "--blob", 0, 0}, /* a list: ParseBlobs */
    {"-b", NULL, 0, 0},
};

static int ApplyOption(BenchOptions *opt, size_t which, const char *text)
{
    long v = 0;
    if (which >= 9) {
        return ParseBlobs(text, opt);
    }
    if (0 != ParseNumber(text, kOptions[which].lo, kOptions[which].hi, 0, &v)) {
        return -1;
    }
    switch (which) {
    case 0: opt->nprocs = (int)v; break;
    case 1: opt->job_size = (uint32_t)v; break;
    case 2: opt->iters = (int)v; break;
    case 3: opt->fences = (int)v; break;
    case 4: opt->timeout_s = (int)v; break;
    case 5: opt->result_fd = (int)v; break;
    case 7: opt->nodes = (int)v; break;
    case 8: opt->node = (int)v; break;
    default: opt->repeat = (int)v; break;
    }
    return 0;
}

static int ParseOptions(int argc, char **argv, BenchOptions *opt)
{
    size_t nopt = sizeof(kOptions) / sizeof(kOptions[0]);
    int i;
    memset(opt, 0, sizeof(*opt));
    opt->iters = 1000;
    opt->fences = 100;
    opt->repeat = 1;
    opt->blobs[0] = 1024;
    opt->nblobs = 1;
    opt->timeout_s = 300;
    opt->result_fd = -1;
    opt->nodes = 1;
    for (i = 2; i < argc; i += 2) {
        size_t k;
        for (k = 0; k < nopt; ++k) {
            if (0 == strcmp(argv[i], kOptions[k].flag) ||
                (NULL != kOptions[k].alias && 0 == strcmp(argv[i], kOptions[k].alias))) {
                break;
            }
        }
        if (k == nopt || i + 1 >= argc || 0 != ApplyOption(opt, k, argv[i + 1])) {
            fprintf(stderr, "pmix_bench: bad option or value near '%s'\n", argv[i]);
            return -1;
        }
    }
    if (0 == opt->job_size) {
        opt->job_size = (uint32_t)opt->nprocs;
    }
    if (opt->nprocs < 1 || opt->job_size < (uint32_t)opt->nprocs ||
        0 != opt->job_size % (uint32_t)opt->nprocs) {
        fprintf(stderr, "pmix_bench: -n N is required and -S must be a multiple of N\n");
        return -1;
    }
    if (opt->nodes > 1 && opt->job_size < 2 * (uint32_t)opt->nprocs) {
        opt->job_size = 2 * (uint32_t)opt->nprocs;
    }
    if (opt->node >= opt->nodes) {
        fprintf(stderr, "pmix_bench: --node must be below --nodes\n");
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    BenchOptions opt;
    char self_exe[PATH_MAX];
    ssize_t len;

    if (argc < 2 || 0 == strcmp(argv[1], "-h") || 0 == strcmp(argv[1], "--help")) {
        Usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (0 != ParseOptions(argc, argv, &opt)) {
        Usage(stderr);
        return 2;
    }
    if (0 == strcmp(argv[1], "client")) {
        return BenchClientMain(&opt);
    }
    if (0 != strcmp(argv[1], "host")) {
        Usage(stderr);
        return 2;
    }
    len = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
    if (len <= 0) {
        perror("pmix_bench: readlink /proc/self/exe");
        return 1;
    }
    self_exe[len] = '\0';
    return BenchHostMain(&opt, self_exe);
}
