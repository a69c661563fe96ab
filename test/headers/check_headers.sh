#!/bin/sh
# Public header self-test.
#
# Every installed header (the API and the plugin SDK) compiles on its own (nothing else included before
# it), warning-free under -Wall -Wextra -Werror -pedantic, as C99, C11,
# C++11 and C++20; and macro_smoke.c, which uses every support macro and
# static initializer, compiles in the same four modes.  Compile-only: no
# library is needed.
#
# Environment: top_srcdir / top_builddir (set by `make check`; default: the
# tree this script is in), CC, CXX, and HEADER_CHECK_CPPFLAGS (extra -I
# options placed first, e.g. for a stand-in pmix_constants.h).
set -u

here=$(cd "$(dirname "$0")" && pwd)
srcdir=${top_srcdir:-$here/../..}
builddir=${top_builddir:-$srcdir}
cc=${CC:-gcc}
cxx=${CXX:-g++}
work=$(mktemp -d "${TMPDIR:-/tmp}/pmixx-headers.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

includes="-I$builddir/include -I$srcdir/include"
# pmix_version.h is made by configure; outside a configured tree, make a
# stand-in from the template.
if [ ! -f "$builddir/include/pmix_version.h" ] && [ ! -f "$srcdir/include/pmix_version.h" ]; then
    sed -e 's/@PMIX_API_MAJOR@/4/' -e 's/@PMIX_API_MINOR@/2/' \
        -e 's/@PMIX_API_RELEASE@/2/' -e 's/@PMIX_NUMERIC_VERSION@/0x00040202/' \
        -e 's/@PMIX_STD_VERSION@/5.0/' -e 's/@PACKAGE_VERSION@/0.0.0/' \
        "$srcdir/include/pmix_version.h.in" > "$work/pmix_version.h" || exit 1
    includes="$includes -I$work"
fi
includes="${HEADER_CHECK_CPPFLAGS:-} $includes"

warnings="-Wall -Wextra -Werror -pedantic -Wshadow -Wundef"
headers="pmix_common.h pmix.h pmix_server.h pmix_tool.h pmix_deprecated.h pmix_version.h
         pmix/mca/mca.h pmix/mca/bfrops.h pmix/mca/pcompress.h pmix/mca/preg.h
         pmix/mca/ptl.h pmix/mca/psec.h pmix/mca/gds.h"
failures=0
checks=0

# compile LANG STD SOURCE LABEL
compile() {
    checks=$((checks + 1))
    if [ "$1" = c ]; then
        compiler="$cc -x c -Wstrict-prototypes"
    else
        compiler="$cxx -x c++"
    fi
    # shellcheck disable=SC2086  # the option lists are split on purpose
    if ! $compiler "-std=$2" $warnings $includes -O2 -c "$3" -o "$work/out.o" \
            > "$work/log" 2>&1; then
        failures=$((failures + 1))
        echo "FAIL: $4"
        sed 's/^/    /' "$work/log" | head -n 40
    fi
}

for header in $headers; do
    printf '#include <%s>\nint main(void) { return 0; }\n' "$header" > "$work/only_$(echo "$header" | tr / _).c"
done

for mode in c:c99 c:c11 cxx:c++11 cxx:c++20; do
    lang=${mode%%:*}
    std=${mode#*:}
    for header in $headers; do
        compile "$lang" "$std" "$work/only_$(echo "$header" | tr / _).c" "$header alone ($std)"
    done
    compile "$lang" "$std" "$here/macro_smoke.c" "macro_smoke.c ($std)"
done

echo "header checks: $checks run, $failures failed"
[ "$failures" -eq 0 ]
