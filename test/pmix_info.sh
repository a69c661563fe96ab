#!/bin/sh
# pmix_info: its output parsed. Components are listed in the documented
# format, --param shows values and their source, --parsable is well formed,
# and bad usage fails cleanly.
set -u
info="$top_builddir/src/tools/pmix_info/pmix_info"
work=$(mktemp -d "${TMPDIR:-/tmp}/pmixx-info.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
expect() { grep -q -- "$1" "$2" || fail "$3 (no '$1' in $2)"; }

"$info" > "$work/default" 2> "$work/default.err" || fail "pmix_info exits non-zero"
for fc in "bfrops native" "pcompress zlib" "preg native" "preg compress" "preg raw"; do
    set -- $fc
    grep -Eq "^ *MCA $1: $2 \(MCA v[0-9]+\.[0-9]+\.[0-9]+, API v[0-9]+\.[0-9]+\.[0-9]+, Component v[0-9]+\.[0-9]+\.[0-9]+\)$" \
        "$work/default" || fail "component line for $1/$2"
done
expect "PMIX Standard: 5.0" "$work/default" "standard level"
# Built-in components (--disable-dlopen) load no files: skip the file checks.
dlopen=yes
grep -q "dl support: yes" "$work/default" || dlopen=no
[ -s "$work/default.err" ] && fail "stderr not empty: $(head -3 "$work/default.err")"

# Pretty output wraps long lines; join each record before matching.
PMIX_MCA_preg='^native' "$info" --param preg all > "$work/param.raw" || fail "--param preg all"
tr '\n' ' ' < "$work/param.raw" | tr -s ' ' > "$work/param"
expect '"preg" (current value: "^native", data source: environment' "$work/param" "env source shown"
expect '"preg_base_verbose" (current value: "0", data source: default' "$work/param" "default source"
expect 'MCA preg native: ' "$work/param" "component params listed"

PMIX_MCA_preg='^native' "$info" --param preg:base --parsable > "$work/parsable" || fail "--parsable"
expect '^mca:preg:base:param:preg:value:^native$' "$work/parsable" "parsable value"
expect '^mca:preg:base:param:preg:source:environment$' "$work/parsable" "parsable source"
grep -v '^mca:preg:base:param:[a-z_]*:[a-z:]*' "$work/parsable" | grep -q . && fail "malformed parsable line"

"$info" --parsable > "$work/parsable_all" || fail "default --parsable"
expect '^mca:preg:native:version:"mca:[0-9.]*"$' "$work/parsable_all" "parsable component version"
expect '^pmix:std:version:5.0$' "$work/parsable_all" "parsable standard"

"$info" --path libdir --parsable > "$work/path" || fail "--path"
grep -Eq '^path:libdir:/' "$work/path" || fail "path:libdir"

# A corrupt component file is refused with its reason under --show-failed.
if [ "$dlopen" = yes ]; then
mkdir "$work/comps"
echo "not an ELF" > "$work/comps/pmix_mca_preg_corrupt.so"
PMIX_MCA_mca_base_component_path="$work/comps:${PMIX_MCA_mca_base_component_path:-}" \
    "$info" --show-failed > "$work/failed" 2>/dev/null || fail "--show-failed"
expect 'MCA preg: corrupt refused' "$work/failed" "refused component listed"
fi

"$info" --no-such-option > /dev/null 2> "$work/bad" && fail "bad option accepted"
expect "unknown option" "$work/bad" "bad option message"
"$info" --param nosuchfw > /dev/null 2>&1 && fail "unknown framework accepted"
"$info" -h | grep -q -- "--param" || fail "-h"

echo "pmix_info checks: $failures failed"
[ "$failures" -eq 0 ]
