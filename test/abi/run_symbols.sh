#!/bin/sh
# make check wrapper: the dynamic symbols and dynamic section of the built
# libpmix.so.2 (see symbols_check.sh).
here=$(cd "$(dirname "$0")" && pwd)
: "${top_builddir:=$(cd "$here/../.." && pwd)}"
for lib in "$top_builddir/src/.libs/libpmix.so.2" "$top_builddir/.libs/libpmix.so.2"; do
    [ -f "$lib" ] && exec "$here/symbols_check.sh" "$lib"
done
echo "run_symbols: libpmix.so.2 not found under $top_builddir" >&2
exit 1
