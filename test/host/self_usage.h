/*
 * What this process uses, read from /proc/self: open descriptors and
 * memory. Shared by the test host and the soak client (leak checks).
 */
#ifndef PMIXX_TEST_HOST_SELF_USAGE_H
#define PMIXX_TEST_HOST_SELF_USAGE_H

#include <dirent.h>
#include <stdio.h>

/* Open descriptors of this process, -1 when unknown. */
static inline int SelfFdCount(void) {
    DIR *d = opendir("/proc/self/fd");
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) n += e->d_name[0] != '.';
    closedir(d);
    return n - 1; /* the directory's own */
}

/* Resident set size (VmRSS) and its peak (VmHWM) in KiB, -1 when unknown;
 * `peak_kib` may be NULL. */
static inline long SelfRssKib(long *peak_kib) {
    long rss = -1, peak = -1;
    FILE *f = fopen("/proc/self/status", "r");
    if (f) {
        char line[256];
        while (fgets(line, sizeof line, f)) {
            if (sscanf(line, "VmRSS: %ld kB", &rss) == 1) continue;
            (void)sscanf(line, "VmHWM: %ld kB", &peak);
        }
        fclose(f);
    }
    if (peak_kib) *peak_kib = peak;
    return rss;
}

#endif /* PMIXX_TEST_HOST_SELF_USAGE_H */
