# Sourced (after common.sh) by the tests that run OpenPMIx's own example
# programs, as Debian's libpmix-dev ships them
# (/usr/share/doc/libpmix-dev/examples), on pmixx: openpmix_client.sh,
# openpmix_examples.sh, openpmix_tools.sh.
#
# build_examples NAME...: compiles each $examples/NAME.c against Debian's
# headers into $work/NAME, and puts pmixx's library first on
# LD_LIBRARY_PATH (exported: the examples link Debian's libpmix.so.2 by
# name). The script skips (exit 77) when Debian's headers, library or an
# example are not there, and ends (finish) when one does not build. The
# examples include "examples.h", which Debian does not ship:
# openpmix_examples.h beside this file provides what they use.
#
# PMIXX_OPENPMIX_EXAMPLES, PMIXX_DEBIAN_PMIX_INCLUDE and
# PMIXX_DEBIAN_PMIX_LIBDIR point elsewhere.
examples=${PMIXX_OPENPMIX_EXAMPLES:-/usr/share/doc/libpmix-dev/examples}
debian_inc=${PMIXX_DEBIAN_PMIX_INCLUDE:-/usr/lib/x86_64-linux-gnu/pmix2/include}
debian_libdir=${PMIXX_DEBIAN_PMIX_LIBDIR:-/usr/lib/x86_64-linux-gnu}

build_examples() {
    [ -f "$debian_inc/pmix.h" ] && [ -f "$debian_inc/pmix_tool.h" ] &&
        [ -e "$debian_libdir/libpmix.so" ] ||
        { say "SKIP: Debian's libpmix-dev (headers, library) not found"; exit 77; }
    for e in "$@"; do
        [ -f "$examples/$e.c" ] || { say "SKIP: no $examples/$e.c"; exit 77; }
    done
    ourlib=$(cd "$top_builddir/src/.libs" 2>/dev/null && pwd -P) ||
        { fail "no $top_builddir/src/.libs"; finish; }
    mkdir -p "$work/inc" && cp "$(dirname "$0")/openpmix_examples.h" "$work/inc/examples.h" || exit 99
    for e in "$@"; do
        ${CC:-cc} -std=gnu99 -I"$work/inc" -I"$debian_inc" -o "$work/$e" "$examples/$e.c" \
            -L"$debian_libdir" -lpmix -pthread 2>"$work/$e.cc.err" ||
            { fail "$e.c does not build"; sed 's/^/  /' "$work/$e.cc.err"; }
    done
    [ "$failures" -eq 0 ] || finish
    LD_LIBRARY_PATH=$ourlib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export LD_LIBRARY_PATH
}
