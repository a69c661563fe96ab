#!/bin/sh
# make check wrapper: the Ch.3 cross-check of the built libpmix.so.2 against
# the reference library (see crosscheck.sh). 77 = SKIP without libpmix-dev.
here=$(cd "$(dirname "$0")" && pwd)
: "${top_builddir:=$(cd "$here/../.." && pwd)}"
for dir in "$top_builddir/src/.libs" "$top_builddir/.libs"; do
    [ -f "$dir/libpmix.so.2" ] && exec "$here/crosscheck.sh" "$dir"
done
echo "run_crosscheck: libpmix.so.2 not found under $top_builddir" >&2
exit 1
