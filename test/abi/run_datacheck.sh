#!/bin/sh
# make check wrapper: the data round trip (pack/unpack/copy of every data
# type) of the built libpmix.so.2, by a program compiled against the
# reference headers (see datacheck.sh). 77 = SKIP without libpmix-dev.
here=$(cd "$(dirname "$0")" && pwd)
: "${top_builddir:=$(cd "$here/../.." && pwd)}"
for dir in "$top_builddir/src/.libs" "$top_builddir/.libs"; do
    [ -f "$dir/libpmix.so.2" ] && exec "$here/datacheck.sh" "$dir"
done
echo "run_datacheck: libpmix.so.2 not found under $top_builddir" >&2
exit 1
