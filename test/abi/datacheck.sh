#!/bin/bash
# Round trip of every data type through PMIx_Data_pack/unpack/copy, by a
# program compiled against the reference headers, on our library (plain and
# under valgrind) and on the reference library.
#
# usage: datacheck.sh <directory holding our libpmix.so.2>
#
# datacheck*.c is compiled once against the reference headers only and
# linked against the reference library (and hwloc); LD_LIBRARY_PATH then
# picks the libpmix.so.2 it runs on. Runs:
#   reference  the reference library, with --reference: the program skips
#              the checks that library is known to fail or crash on (each
#              listed with its reason in datacheck.c). Checks the program.
#   ours       our library; nothing skipped.
#   valgrind   our library under valgrind --leak-check=full
#              --errors-for-leak-kinds=definite: any error or definite leak
#              fails (DATACHECK_VALGRIND=0 skips this run).
# Each run is one process; when it crashes (or valgrind reports errors), it
# is run again one section per process, to name the sections at fault.
# Prints the failing lines of each run and
#   datacheck (<run>): N checks, M failed, S skipped[, problems]
# and exits 1 when a check fails or a run crashes, times out or has valgrind
# errors in any run; 77 (automake SKIP) without the reference or hwloc.
#
# Environment:
#   DATACHECK_REF_INCLUDE  reference headers  (default Debian's libpmix-dev)
#   DATACHECK_REF_LIBDIR   reference library directory
#   DATACHECK_VALGRIND=0   skip the valgrind run
#   DATACHECK_KEEP=1       keep the work directory (full outputs there)
#   CC                     C compiler (default gcc)
# The environment of our runs is kept (make check sets
# PMIX_MCA_mca_base_component_path to the build tree's components); the
# reference run drops PMIX_MCA_mca_base_component_path, which the reference
# would otherwise read too.

set -u
here=$(cd "$(dirname "$0")" && pwd)
ours=${1:?usage: datacheck.sh <directory holding our libpmix.so.2>}
ref_inc=${DATACHECK_REF_INCLUDE:-/usr/lib/x86_64-linux-gnu/pmix2/include}
ref_lib=${DATACHECK_REF_LIBDIR:-/usr/lib/x86_64-linux-gnu}
cc=${CC:-gcc}

if [ ! -f "$ref_inc/pmix.h" ] || [ ! -f "$ref_lib/libpmix.so.2" ]; then
    echo "SKIP: reference libpmix-dev not found ($ref_inc, $ref_lib)"
    exit 77
fi
if ! printf '#include <hwloc.h>\n' | "$cc" -E -x c - >/dev/null 2>&1; then
    echo "SKIP: hwloc headers not found (the samples include hwloc cpusets and topologies)"
    exit 77
fi
if [ ! -f "$ours/libpmix.so.2" ]; then
    echo "datacheck: $ours/libpmix.so.2 not found" >&2
    exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/datacheck.XXXXXX")
if [ "${DATACHECK_KEEP:-0}" = 1 ]; then
    echo "work directory: $work"
else
    trap 'rm -rf "$work"' EXIT
fi

if ! timeout 300 "$cc" -std=gnu11 -O0 -g -Wall -Wextra -I"$ref_inc" "$here"/datacheck*.c \
        -o "$work/datacheck" "$ref_lib/libpmix.so.2" -lhwloc 2>"$work/build.log"; then
    cat "$work/build.log" >&2
    echo "datacheck: build failed" >&2
    exit 1
fi

failures=0
# run <label> <libdir> [--reference] -- [wrapper...]: all sections in one
# process, then section by section when that process did not end normally.
# Output in $work/<label>.out; adds to $failures.
run() {
    local label=$1 libdir=$2 flags=() status section problems=""
    shift 2
    while [ "$1" != -- ]; do flags+=("$1"); shift; done
    shift
    local -a envs=(env)
    [ "${flags[*]-}" = --reference ] && envs+=(-u PMIX_MCA_mca_base_component_path)
    envs+=("LD_LIBRARY_PATH=$libdir")
    # (the subshells keep the shell's crash messages in the .err files)
    ("${envs[@]}" timeout 600 "$@" "$work/datacheck" "${flags[@]}"; exit $?) \
        >"$work/$label.out" 2>"$work/$label.err"
    status=$?
    if [ $status -gt 1 ]; then
        problems="whole run exited with status $status"
        : >"$work/$label.out"
        for section in $(LD_LIBRARY_PATH=$ref_lib "$work/datacheck" list); do
            ("${envs[@]}" timeout 600 "$@" "$work/datacheck" "${flags[@]}" "$section"; exit $?) \
                >>"$work/$label.out" 2>>"$work/$label.err"
            status=$?
            if [ $status -gt 1 ]; then
                problems="$problems; section $section exited with status $status"
                [ $status -gt 128 ] && problems="$problems (signal $((status - 128)))"
                [ $status -eq 99 ] && problems="$problems (valgrind errors)"
                echo "$section: FAIL exited with status $status" >>"$work/$label.out"
            fi
        done
    fi
    grep -a -E ': FAIL' "$work/$label.out" | sed "s/^/[$label] /" | head -200
    awk -v label="$label" -v problems="$problems" '
        /^datacheck: / { n += $2; m += $4; s += $6 }
        / exited with status / { m++ }
        END { printf "datacheck (%s): %d checks, %d failed, %d skipped%s\n",
                     label, n, m, s, problems == "" ? "" : ", " problems }' "$work/$label.out"
    if [ -n "$problems" ] || grep -q -a ': FAIL' "$work/$label.out" ||
           ! grep -q -a '^datacheck: ' "$work/$label.out"; then
        failures=$((failures + 1))
    fi
}

echo "reference: $(LD_LIBRARY_PATH=$ref_lib ldd "$work/datacheck" | grep libpmix)"
echo "ours:      $(LD_LIBRARY_PATH=$ours ldd "$work/datacheck" | grep libpmix)"
run reference "$ref_lib" --reference --
run ours "$ours" --
if [ "${DATACHECK_VALGRIND:-1}" != 0 ] && command -v valgrind >/dev/null; then
    run valgrind "$ours" -- valgrind -q --error-exitcode=99 --leak-check=full \
        --errors-for-leak-kinds=definite --log-file="$work/valgrind.%p.log"
    grep -h -A30 -E 'Invalid|uninitialised|definitely lost in|Process terminating' \
        "$work"/valgrind.*.log 2>/dev/null | head -120
fi
[ "$failures" -eq 0 ]
