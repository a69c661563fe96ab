#!/bin/sh
# Programs built against pmixx's headers run on OpenPMIx 4.2.2 (issue 14):
# the support macros (PMIX_INFO_CREATE, PMIX_PROC_CONSTRUCT, PMIX_ARGV_APPEND,
# PMIX_VALUE_RELEASE ...) must expand to inline code or to functions that
# 4.2.2's libpmix.so.2 exports, never to the v5 functions it lacks.
#   1. test/abi/v4_macros.c (every support macro) and examples/*.c are built
#      with our headers; every libpmix symbol they import must be one that
#      Debian's libpmix.so.2 exports;
#   2. v4_macros runs on Debian's library and on ours, with the same result.
# Skips (77) without Debian's libpmix-dev.
set -u
here=$(cd "$(dirname "$0")" && pwd)
srcdir=${top_srcdir:-$here/../..}
builddir=${top_builddir:-$srcdir}
deb_lib=${PMIXX_DEBIAN_PMIX_LIBDIR:-/usr/lib/x86_64-linux-gnu}
[ -e "$deb_lib/libpmix.so.2" ] || { echo "run_v4_portability: SKIP: no $deb_lib/libpmix.so.2"; exit 77; }
ours=$(cd "$builddir/src/.libs" 2>/dev/null && pwd) || { echo "run_v4_portability: FAIL: no $builddir/src/.libs"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/pmixx-v4.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "run_v4_portability: FAIL: $*"; failures=$((failures + 1)); }

nm -D --defined-only "$deb_lib/libpmix.so.2" | awk '{print $3}' | sort -u >"$work/exports"
cc=${CC:-cc}
flags="-std=c99 -Wall -Wextra -Werror -pedantic -I$builddir/include -I$srcdir/include"
for src in "$here/v4_macros.c" "$srcdir"/examples/*.c; do
    name=$(basename "$src" .c)
    $cc $flags -o "$work/$name" "$src" -L"$deb_lib" -Wl,-rpath,"$deb_lib" -lpmix -pthread \
        2>"$work/$name.err" || { fail "$name does not build against Debian's library:"; sed 's/^/    | /' "$work/$name.err"; continue; }
    nm -u "$work/$name" | awk '{print $2}' | grep -E '^(PMIx_|pmix_)' | sort -u >"$work/$name.imports"
    missing=$(comm -23 "$work/$name.imports" "$work/exports")
    [ -z "$missing" ] || fail "$name imports what OpenPMIx 4.2.2 lacks: $missing"
done

if [ -x "$work/v4_macros" ]; then
    out_deb=$(timeout 60 "$work/v4_macros" 2>&1) || fail "v4_macros on Debian's library: $out_deb"
    out_ours=$(LD_LIBRARY_PATH="$ours" timeout 60 "$work/v4_macros" 2>&1) || fail "v4_macros on pmixx: $out_ours"
    [ "$out_deb" = "$out_ours" ] || fail "v4_macros differs: '$out_deb' (OpenPMIx) vs '$out_ours' (pmixx)"
    echo "run_v4_portability: $out_deb (on both libraries)"
fi
if [ "$failures" -ne 0 ]; then echo "run_v4_portability: $failures failure(s)"; exit 1; fi
echo "run_v4_portability: all passed"
