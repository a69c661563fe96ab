/*
 * pmix_bench: the helpers both roles share (clock, /proc, blob content,
 * quantiles, metric names, the statistics table). See bench.h.
 */
#define _XOPEN_SOURCE 700

#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double BenchNowUs(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

long BenchStatusKib(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    size_t len = strlen(field);
    long kib = -1;
    if (NULL == f) {
        return -1;
    }
    while (NULL != fgets(line, sizeof(line), f)) {
        if (0 == strncmp(line, field, len)) {
            kib = strtol(line + len, NULL, 10);
            break;
        }
    }
    fclose(f);
    return kib;
}

/* Word i of rank's blob: a per-rank seed (the splitmix64 finaliser of the
 * rank, so neighbouring ranks differ in every byte position with high
 * probability and a mixed-up blob is caught) xor'ed with a per-position
 * term (so a blob shifted or cut short is caught too). Each word stands
 * alone, which lets the loops below run at memory speed: the check is not
 * timed, but it runs while other clients' calls are, and a costly one
 * would weigh on their timings (a serial generator stored 8 bytes at a
 * time was a third of all CPU time of a 128-client 64 KiB fence). */
static uint64_t BlobSeed(uint32_t rank)
{
    uint64_t z = (uint64_t)rank + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t BlobWord(uint64_t seed, size_t i)
{
    return seed ^ ((uint64_t)(i + 1) * 0xd6e8feb86659fd93ull);
}

void BenchFillBlob(uint8_t *buf, size_t size, uint32_t rank)
{
    uint64_t seed = BlobSeed(rank), w;
    size_t words = size / 8, i;
    for (i = 0; i < words; ++i) {
        w = BlobWord(seed, i);
        memcpy(buf + 8 * i, &w, 8);
    }
    if (size % 8 != 0) {
        w = BlobWord(seed, words);
        memcpy(buf + 8 * words, &w, size % 8);
    }
}

int BenchCheckBlob(const uint8_t *buf, size_t size, uint32_t rank)
{
    uint64_t seed = BlobSeed(rank), w, got, diff = 0;
    size_t words = size / 8, i;
    for (i = 0; i < words; ++i) {
        memcpy(&got, buf + 8 * i, 8);
        diff |= got ^ BlobWord(seed, i);
    }
    if (size % 8 != 0) {
        w = BlobWord(seed, words);
        diff |= (uint64_t)(0 != memcmp(buf + 8 * words, &w, size % 8));
    }
    return 0 == diff;
}

void BenchHostName(uint32_t node, char *buf, size_t len)
{
    snprintf(buf, len, "node%05u", node);
}

static int CompareDouble(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double BenchQuantile(double *v, int n, double q)
{
    int idx = (int)ceil(q * n) - 1;
    qsort(v, (size_t)n, sizeof(*v), CompareDouble);
    return v[idx < 0 ? 0 : (idx >= n ? n - 1 : idx)];
}

/* "64", "1K", "64K", "1M"; bytes when not a whole KiB/MiB. */
static void SizeName(size_t size, char *buf, size_t len)
{
    if (size >= 1048576 && 0 == size % 1048576) {
        snprintf(buf, len, "%zuM", size / 1048576);
    } else if (size >= 1024 && 0 == size % 1024) {
        snprintf(buf, len, "%zuK", size / 1024);
    } else {
        snprintf(buf, len, "%zu", size);
    }
}

static const char *const kFixedName[kMetricFixed] = {
    "init",         "rss_init",     "hwm_init",       "get_job_p50",    "get_job_p99",
    "get_host_p50", "get_host_p99", "get_nodeid_p50", "get_nodeid_p99", "get_lrank_p50",
    "get_lrank_p99", "barrier",     "rss_end",        "hwm_end",        "finalize",
};
static const char *const kBlobName[kBlobMetrics] = {"fence", "get1", "get2", "fenceiso", "modex"};

void BenchMetricName(const BenchOptions *o, int m, char *buf, size_t len)
{
    char size[24];
    if (m < kMetricFixed) {
        snprintf(buf, len, "%s", kFixedName[m]);
        return;
    }
    m -= kMetricFixed;
    SizeName(o->blobs[m / kBlobMetrics], size, sizeof(size));
    snprintf(buf, len, "%s_%s", kBlobName[m % kBlobMetrics], size);
}

const char *BenchMetricUnit(int m)
{
    switch (m) {
    case kMetricRssInit:
    case kMetricHwmInit:
    case kMetricRssEnd:
    case kMetricHwmEnd:
        return "KiB";
    default:
        return "us";
    }
}

void BenchPrintRow(const char *name, const char *unit, double *v, int n)
{
    double sum = 0;
    int i;
    for (i = 0; i < n; ++i) {
        if (isnan(v[i])) {
            printf("%-16s %-4s %12s %12s %12s %12s\n", name, unit, "n/a", "n/a", "n/a", "n/a");
            return;
        }
        sum += v[i];
    }
    qsort(v, (size_t)n, sizeof(*v), CompareDouble);
    printf("%-16s %-4s %12.3f %12.3f %12.3f %12.3f\n", name, unit,
           n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2, sum / n, v[0], v[n - 1]);
}

void BenchPrintHeader(void)
{
    printf("%-16s %-4s %12s %12s %12s %12s\n", "metric", "unit", "median", "mean", "min", "max");
}
