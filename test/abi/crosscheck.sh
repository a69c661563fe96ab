#!/bin/bash
# Runs the Ch.3 cross-check program on the reference libpmix and on ours and
# diffs the outputs.
#
# usage: crosscheck.sh <directory holding our libpmix.so.2>
#
# The program (crosscheck*.c) is compiled once, against the reference headers
# only, and linked against the reference library; LD_LIBRARY_PATH then picks
# which libpmix.so.2 it runs on. Each section runs in its own process, twice
# per library: "noinit" (no PMIx_*init call) and "tool" (after PMIx_tool_init
# with PMIX_TOOL_DO_NOT_CONNECT). Only stdout is compared.
#
# Environment:
#   CROSSCHECK_REF_INCLUDE  reference headers  (default Debian's libpmix-dev)
#   CROSSCHECK_REF_LIBDIR   reference library directory
#   CROSSCHECK_VALGRIND=0   skip the valgrind run on our library
#   CROSSCHECK_KEEP=1       keep the work directory
#   CC                      C compiler (default gcc)
#   PYTHON                  Python 3 interpreter (default python3)
#
# Every line of output is "<key>: <result>". The two outputs are paired by
# key (crosscheck_compare.py); a line that differs is accepted only when an
# entry of crosscheck_deviations.txt ("<key pattern> [=> <our result
# pattern>] | <reason>") matches it, and an entry that matches no differing
# line is stale. Prints
#   crosscheck: N lines compared, I identical, D deliberate deviations, U unexpected
# and exits 1 when U > 0, an entry is stale, a run crashes or valgrind
# reports an error; 77 (automake SKIP) when the reference is absent.

set -u
here=$(cd "$(dirname "$0")" && pwd)
ours=${1:?usage: crosscheck.sh <directory holding our libpmix.so.2>}
ref_inc=${CROSSCHECK_REF_INCLUDE:-/usr/lib/x86_64-linux-gnu/pmix2/include}
ref_lib=${CROSSCHECK_REF_LIBDIR:-/usr/lib/x86_64-linux-gnu}
cc=${CC:-gcc}

if [ ! -f "$ref_inc/pmix.h" ] || [ ! -f "$ref_lib/libpmix.so.2" ]; then
    echo "SKIP: reference libpmix-dev not found ($ref_inc, $ref_lib)"
    exit 77
fi
if [ ! -f "$ours/libpmix.so.2" ]; then
    echo "crosscheck: $ours/libpmix.so.2 not found" >&2
    exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/crosscheck.XXXXXX")
if [ "${CROSSCHECK_KEEP:-0}" = 1 ]; then
    echo "work directory: $work"
else
    trap 'rm -rf "$work"' EXIT
fi

# Every string-valued macro of the reference headers, for the attribute checks.
printf '#include <pmix.h>\n#include <pmix_server.h>\n#include <pmix_tool.h>\n' \
    | "$cc" -std=gnu11 -I"$ref_inc" -E -dM -x c - \
    | sed -n 's/^#define \(PMIX_[A-Za-z0-9_]*\) *".*/CC_ATTR(\1)/p' | sort >"$work/crosscheck_attrs.h"

if ! timeout 300 "$cc" -std=gnu11 -O0 -g -Wall -Wextra -I"$ref_inc" -I"$work" \
        "$here"/crosscheck*.c -o "$work/crosscheck" "$ref_lib/libpmix.so.2" -lhwloc 2>"$work/build.log"; then
    cat "$work/build.log" >&2
    echo "crosscheck: build failed" >&2
    exit 1
fi

# The topology samples (crosscheck_hwtypes.c): a node with I/O devices, and
# this machine's topology discovered once (under valgrind hwloc would find
# another one).
export CROSSCHECK_TOPOLOGY_XML=${CROSSCHECK_TOPOLOGY_XML:-$here/../unit/hwloc/fake_node.xml}
export CROSSCHECK_MACHINE_XML=$work/machine.xml
if ! LD_LIBRARY_PATH=$ref_lib "$work/crosscheck" export-topology "$CROSSCHECK_MACHINE_XML"; then
    echo "crosscheck: cannot export this machine's topology" >&2
    exit 1
fi

failures=0
sections=$(LD_LIBRARY_PATH=$ref_lib "$work/crosscheck" list)
run() {  # label libdir [wrapper...]: every mode and section, stdout to $work/<label>.out
    local label=$1 libdir=$2 mode section status
    shift 2
    : >"$work/$label.out"
    for mode in noinit tool; do
        for section in $sections; do
            LD_LIBRARY_PATH=$libdir timeout 600 "$@" "$work/crosscheck" "$mode" "$section" \
                >>"$work/$label.out" 2>"$work/run.err"
            status=$?
            cat "$work/run.err" >>"$work/$label.err"
            if [ $status -ne 0 ]; then
                echo "crosscheck: $label run ($mode $section) exited with status $status" \
                     "$( [ $status -gt 128 ] && echo "(signal $((status - 128)))")" \
                     "$(grep -m1 'symbol lookup error' "$work/run.err" | sed 's/.*: //')"
                failures=$((failures + 1))
            fi
        done
    done
}

echo "reference: $(LD_LIBRARY_PATH=$ref_lib ldd "$work/crosscheck" | grep libpmix)"
echo "ours:      $(LD_LIBRARY_PATH=$ours ldd "$work/crosscheck" | grep libpmix)"
run ref "$ref_lib"
run ours "$ours"

if [ "${CROSSCHECK_VALGRIND:-1}" != 0 ] && command -v valgrind >/dev/null; then
    before=$failures
    run valgrind "$ours" valgrind --error-exitcode=99 --leak-check=full \
        --errors-for-leak-kinds=definite --log-file="$work/valgrind.%p.log"
    if [ "$failures" -eq "$before" ] && cmp -s "$work/ours.out" "$work/valgrind.out"; then
        echo "valgrind: clean, same output"
    else
        echo "valgrind: $((failures - before)) runs with errors (status 99) or failures;" \
             "output $(cmp -s "$work/ours.out" "$work/valgrind.out" && echo same || echo differs)"
        cmp -s "$work/ours.out" "$work/valgrind.out" || failures=$((failures + 1))
    fi
    grep -h -A30 -E 'Invalid|uninitialised|definitely lost in' "$work"/valgrind.*.log | head -150
fi

if [ "$failures" -ne 0 ]; then
    echo "crosscheck: $failures failed runs (crash, timeout or valgrind error)"
fi
# Pair the lines by key and accept only the listed deliberate deviations.
"${PYTHON:-python3}" "$here/crosscheck_compare.py" "$work/ref.out" "$work/ours.out" \
    "$here/crosscheck_deviations.txt" || failures=$((failures + 1))
[ "$failures" -eq 0 ]
