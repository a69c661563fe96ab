/*
 * pmix_bench: entry point, option parsing and the helpers both roles share.
 *
 *   pmix_bench host -n N [--iters K] [--blob BYTES] [--timeout SEC]
 *   pmix_bench client ...      (started by the host; not for manual use)
 */
#define _XOPEN_SOURCE 700

#include "bench.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *const kBenchMetricName[kMetricCount] = {
    "init", "get_job", "get_peer", "fence", "modex", "rss",
};
const char *const kBenchMetricUnit[kMetricCount] = {
    "us", "us", "us", "us", "us", "KiB",
};

double BenchNowUs(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

long BenchRssKib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    if (NULL == f) {
        return -1;
    }
    while (NULL != fgets(line, sizeof(line), f)) {
        if (0 == strncmp(line, "VmRSS:", 6)) {
            kib = strtol(line + 6, NULL, 10);
            break;
        }
    }
    fclose(f);
    return kib;
}

void BenchFillBlob(uint8_t *buf, size_t size, uint32_t rank)
{
    /* A per-rank LCG stream: neighbouring ranks differ in every byte
     * position with high probability, so a mixed-up blob is caught. */
    uint32_t x = rank * 2654435761u + 0x9e3779b9u;
    size_t i;
    for (i = 0; i < size; ++i) {
        x = x * 1103515245u + 12345u;
        buf[i] = (uint8_t)(x >> 16);
    }
}

static int CompareDouble(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void BenchPrintRow(const char *name, const char *unit, double *v, int n)
{
    double sum = 0;
    int i;
    for (i = 0; i < n; ++i) {
        if (isnan(v[i])) {
            printf("%-12s %-4s %12s %12s %12s %12s\n", name, unit, "n/a", "n/a", "n/a", "n/a");
            return;
        }
        sum += v[i];
    }
    qsort(v, (size_t)n, sizeof(*v), CompareDouble);
    printf("%-12s %-4s %12.2f %12.2f %12.2f %12.2f\n", name, unit,
           n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2, sum / n, v[0], v[n - 1]);
}

void BenchPrintHeader(void)
{
    printf("%-12s %-4s %12s %12s %12s %12s\n", "metric", "unit", "median", "mean", "min", "max");
}

static void Usage(FILE *out)
{
    fprintf(out,
            "usage: pmix_bench host -n N [--iters K] [--blob BYTES] [--timeout SEC]\n"
            "  Starts a PMIx server, registers a job of N local procs, forks N\n"
            "  clients and prints median/mean/min/max of each metric.\n"
            "  defaults: --iters 1000 --blob 1024 --timeout 300\n");
}

/* Parses a positive int in [lo, hi]; returns 0 on success. */
static int ParseInt(const char *text, long lo, long hi, long *out)
{
    char *end = NULL;
    long v;
    errno = 0;
    v = strtol(text, &end, 10);
    if (0 != errno || end == text || '\0' != *end || v < lo || v > hi) {
        return -1;
    }
    *out = v;
    return 0;
}

typedef struct {
    const char *flag;
    const char *alias;
    long lo, hi;
} OptionSpec;

/* Table of the numeric options, in the order ApplyOption stores them. */
static const OptionSpec kOptions[] = {
    {"--nprocs", "-n", 1, 4096},
    {"--iters", "-k", 1, 100000000},
    {"--blob", "-b", 1, 64L * 1024 * 1024},
    {"--timeout", "-t", 1, 86400},
    {"--fd", NULL, 0, INT_MAX},
};

static void ApplyOption(BenchOptions *opt, size_t which, long v)
{
    switch (which) {
    case 0: opt->nprocs = (int)v; break;
    case 1: opt->iters = (int)v; break;
    case 2: opt->blob_size = (size_t)v; break;
    case 3: opt->timeout_s = (int)v; break;
    default: opt->result_fd = (int)v; break;
    }
}

static int ParseOptions(int argc, char **argv, BenchOptions *opt)
{
    int i;
    opt->nprocs = 0;
    opt->iters = 1000;
    opt->blob_size = 1024;
    opt->timeout_s = 300;
    opt->result_fd = -1;
    for (i = 2; i < argc; ++i) {
        size_t k, nopt = sizeof(kOptions) / sizeof(kOptions[0]);
        long v;
        for (k = 0; k < nopt; ++k) {
            if (0 == strcmp(argv[i], kOptions[k].flag) ||
                (NULL != kOptions[k].alias && 0 == strcmp(argv[i], kOptions[k].alias))) {
                break;
            }
        }
        if (k == nopt || i + 1 >= argc ||
            0 != ParseInt(argv[i + 1], kOptions[k].lo, kOptions[k].hi, &v)) {
            fprintf(stderr, "pmix_bench: bad option or value near '%s'\n", argv[i]);
            return -1;
        }
        ApplyOption(opt, k, v);
        ++i;
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
    if (0 != strcmp(argv[1], "host") || opt.nprocs < 1) {
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
