#!/bin/bash
# Checks the dynamic symbol table of our libpmix.so.2.
#
# usage: symbols_check.sh <our libpmix.so> [<reference libpmix.so.2>]
#
# (a) every function listed in consumer_imports.txt (what Open MPI's
#     mca_pmix_ext3x.so and python3-pmix import) is exported as a function (T);
#     when those consumers are installed, their live import lists
#     (nm -D --undefined-only, intersected with what the reference library
#     defines) are checked too;
# (b) every PMIx_* function the reference library exports is exported;
# (c) nothing else is exported: only names matching a pattern of
#     allowed_exports.txt, and never a pmix_server_* / opal_* / orte_* name
#     (those would collide with Open MPI's own symbols);
# (d) SONAME is libpmix.so.2 and there is no RPATH or RUNPATH.
# Prints "symbols: N required, M missing" and exits 1 when anything fails.

set -u
set -f  # the patterns of allowed_exports.txt are globs for [[ ]], not for file names
here=$(cd "$(dirname "$0")" && pwd)
ours=${1:?usage: symbols_check.sh <our libpmix.so> [<reference libpmix.so.2>]}
ref=${2:-/usr/lib/x86_64-linux-gnu/libpmix.so.2}
ext3x=${EXT3X_SO:-/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/mca_pmix_ext3x.so}
pymod=${PYMOD_SO:-/usr/lib/python3/dist-packages/pmix.cpython-311-x86_64-linux-gnu.so}

if [ ! -f "$ours" ]; then
    echo "symbols_check: $ours not found" >&2
    exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/symbols_check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failures=0

# name<TAB>type of every defined dynamic symbol
nm -D --defined-only "$ours" | awk 'NF == 3 { print $3 "\t" $2 }' | sort -u >"$tmp/ours_all"
awk -F'\t' '$2 == "T" { print $1 }' "$tmp/ours_all" | sort -u >"$tmp/ours_funcs"

required() {  # label file: reports required names that are not exported functions
    local label=$1 list=$2 n miss
    sort -u "$list" >"$tmp/req_$label"
    n=$(wc -l <"$tmp/req_$label")
    comm -23 "$tmp/req_$label" "$tmp/ours_funcs" >"$tmp/miss_$label"
    miss=$(wc -l <"$tmp/miss_$label")
    echo "($label) $n required functions, $miss not exported as T"
    sed 's/^/    missing: /' "$tmp/miss_$label"
    cat "$tmp/req_$label" >>"$tmp/required"
}
: >"$tmp/required"

# (a) consumer imports
grep -v '^[[:space:]]*#' "$here/consumer_imports.txt" | awk 'NF { print $1 }' >"$tmp/consumers"
required a-consumers "$tmp/consumers"
if [ -f "$ref" ]; then
    nm -D --defined-only "$ref" | awk 'NF == 3 { print $3 }' | sort -u >"$tmp/ref_defined"
    for consumer in "$ext3x" "$pymod"; do
        [ -f "$consumer" ] || { echo "(a) not installed, live check skipped: $consumer"; continue; }
        nm -D --undefined-only "$consumer" | awk '{ print $NF }' | sed 's/@.*//' | sort -u \
            | comm -12 - "$tmp/ref_defined" >"$tmp/live"
        required "a-live-$(basename "$consumer" | cut -d. -f1)" "$tmp/live"
    done
else
    echo "(a) reference library $ref not installed: live and (b) checks skipped"
fi

# (b) every PMIx_* function of the reference
if [ -f "$ref" ]; then
    nm -D --defined-only "$ref" | awk 'NF == 3 && $2 == "T" && $3 ~ /^PMIx_/ { print $3 }' \
        >"$tmp/ref_pmix"
    required b-reference "$tmp/ref_pmix"
fi

# (c) nothing but the allowed names
patterns=$(grep -v '^[[:space:]]*#' "$here/allowed_exports.txt" | awk 'NF { print $1 }')
offenders=0
while IFS=$'\t' read -r name type; do
    allowed=0
    for pattern in $patterns; do
        # shellcheck disable=SC2053  # glob match on purpose
        [[ $name == $pattern ]] && { allowed=1; break; }
    done
    case $name in pmix_server_* | opal_* | orte_* | ompi_*) allowed=0 ;; esac
    if [ $allowed -eq 0 ]; then
        echo "    not allowed: $name ($type)"
        offenders=$((offenders + 1))
    fi
done <"$tmp/ours_all"
echo "(c) $(wc -l <"$tmp/ours_all") exported symbols, $offenders not allowed by allowed_exports.txt"
[ $offenders -eq 0 ] || failures=$((failures + 1))

# (d) dynamic section
dynamic=$(readelf -d "$ours")
soname=$(sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p' <<<"$dynamic")
if [ "$soname" != "libpmix.so.2" ]; then
    echo "(d) SONAME is '$soname', expected libpmix.so.2"
    failures=$((failures + 1))
else
    echo "(d) SONAME libpmix.so.2"
fi
if grep -E '\((RPATH|RUNPATH)\)' <<<"$dynamic"; then
    echo "(d) the library carries an RPATH/RUNPATH"
    failures=$((failures + 1))
else
    echo "(d) no RPATH/RUNPATH"
fi

n_required=$(sort -u "$tmp/required" | wc -l)
n_missing=$(sort -u "$tmp/required" | comm -23 - "$tmp/ours_funcs" | wc -l)
echo "symbols: $n_required required, $n_missing missing"
[ "$n_missing" -eq 0 ] && [ $failures -eq 0 ]
