/*
 * libpmix_redirect.c -- an LD_AUDIT module for tests: Slurm's mpi/pmix
 * plugin dlopen()s libpmix by an absolute path fixed when Slurm was built
 * (Debian: /usr/lib/x86_64-linux-gnu/pmix2/lib/libpmix.so), which
 * LD_LIBRARY_PATH cannot redirect. The dynamic linker asks this module
 * about every name it searches; the one name equal to $PMIXX_AUDIT_FROM
 * (default: Debian's path above) is answered with $PMIXX_AUDIT_TO (our
 * build's libpmix.so.2). Every other name passes through unchanged.
 *
 * Used by test/tools/slurm.sh (LD_AUDIT in the environment of slurmctld,
 * slurmd -> slurmstepd, and srun). Builds with: cc -shared -fPIC.
 * Threads: the dynamic linker calls these under its own lock. The module
 * allocates nothing and never prints.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char kDefaultFrom[] = "/usr/lib/x86_64-linux-gnu/pmix2/lib/libpmix.so";

unsigned int la_version(unsigned int version)
{
    (void)version;
    return LAV_CURRENT;
}

char *la_objsearch(const char *name, uintptr_t *cookie, unsigned int flag)
{
    const char *from = getenv("PMIXX_AUDIT_FROM");
    const char *to = getenv("PMIXX_AUDIT_TO");
    (void)cookie;
    if (flag != LA_SER_ORIG || name == NULL || to == NULL || to[0] == '\0') {
        return (char *)name;
    }
    if (from == NULL || from[0] == '\0') {
        from = kDefaultFrom;
    }
    return strcmp(name, from) == 0 ? (char *)to : (char *)name;
}
