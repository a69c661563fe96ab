#!/bin/sh
# Compares two runs' job-data dumps (test/common/jobinfo_dump.h: what each
# rank read of every realm), typically one through gds shmem and one with
# PMIX_MCA_gds=hash, rank by rank.
#
#   jobdata_diff.sh DIR_A DIR_B RANKS [PER_RUN_KEY...]
#
# DIR_A/<r> and DIR_B/<r> for r in 0..RANKS-1 must both exist, answer
# PMIX_JOB_SIZE and every rank's PMIX_HOSTNAME (a dump of nothing compares
# equal to another), and be identical once the values of the PER_RUN_KEYs
# (e.g. pmix.jobid: the launcher makes a new one per run) are masked
# ("Value: <per run>"; the namespace is masked by the dump itself).
# Prints nothing when they are, else "rank <r>: why" and the first 40
# lines of the unified diff per differing rank.
# Exit: 0 identical, 1 a difference or a missing/empty dump.
[ $# -ge 3 ] || { echo "usage: jobdata_diff.sh DIR_A DIR_B RANKS [PER_RUN_KEY...]" >&2; exit 2; }
a=$1
b=$2
n=$3
shift 3
# "pmix.jobid|pmix.srvr.uri" as an ERE (keys are [a-z0-9._-])
keys=$(printf '%s|' "$@" | sed 's/[.]/\\./g; s/|$//')
normalise() {
    if [ -n "$keys" ]; then
        sed -E "s/^([^:]* =?($keys): .*Value: ).*/\\1<per run>/" "$1"
    else
        cat "$1"
    fi
}
status=0
r=0
while [ "$r" -lt "$n" ]; do
    bad=""
    for f in "$a/$r" "$b/$r"; do
        if [ ! -s "$f" ]; then
            bad="$bad; $f is missing or empty"
            continue
        fi
        grep -q "^job =pmix\.job\.size: .*Value: " "$f" || bad="$bad; $f has no job size"
        i=0
        while [ "$i" -lt "$n" ]; do
            grep -q "^rank $i =pmix\.hname: .*Value: " "$f" || { bad="$bad; $f has no hostname of rank $i"; break; }
            i=$((i + 1))
        done
    done
    if [ -n "$bad" ]; then
        echo "rank $r: ${bad#; }"
        status=1
    else
        normalise "$a/$r" >"$a/$r.masked"
        normalise "$b/$r" >"$b/$r.masked"
        if ! diff -u "$a/$r.masked" "$b/$r.masked" >"$a/$r.diff"; then
            echo "rank $r: $a/$r and $b/$r differ"
            head -n 40 "$a/$r.diff"
            status=1
        fi
    fi
    r=$((r + 1))
done
exit $status
