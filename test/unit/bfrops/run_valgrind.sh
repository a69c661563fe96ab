#!/bin/sh
# Runs the native codec's module tests under valgrind: no invalid access and
# no leak, also on the truncated, corrupted and hostile buffers they feed
# the codec. Skipped (77) when valgrind is not installed.
: "${top_builddir:=.}"
bin="$top_builddir/test/unit/bfrops/bfrops_native_tests"
if [ -n "${PMIXX_SANITIZERS:-}" ]; then
    echo "SKIP: a -fsanitize=$PMIXX_SANITIZERS build does not run under valgrind"
    exit 77
fi
if ! command -v valgrind >/dev/null 2>&1; then
    echo "SKIP: valgrind not installed"
    exit 77
fi
if [ ! -x "$bin" ]; then
    echo "run_valgrind: $bin not built" >&2
    exit 1
fi
# hwloc's x86 backend refuses to run under valgrind and says so on stderr;
# that message is expected.
exec valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
    --error-exitcode=1 "$bin"
