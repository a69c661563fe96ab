#!/bin/sh
# The load and soak runs at full size, for release checks (`make soak` in a
# build tree; takes minutes): test/integration/soak.sh, which `make check`
# runs scaled down, with
#   256 clients x 100 fences, 8 clients x 1,250 init/finalize cycles
#   (10,000 in all), 1,000 client processes at once, and 5 rounds of 2,000
#   connections at once.
# Any SOAK_* variable set in the environment wins. Zero failures, the
# server's descriptors back to where they were and its RSS growth within
# SOAK_RSS_GROWTH_KIB are checked as in make check.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:?top_builddir must be set (make soak sets it)}"
export top_srcdir top_builddir
export SOAK_FENCE_CLIENTS="${SOAK_FENCE_CLIENTS:-256}" SOAK_FENCES="${SOAK_FENCES:-100}"
export SOAK_CYCLE_CLIENTS="${SOAK_CYCLE_CLIENTS:-8}" SOAK_CYCLES="${SOAK_CYCLES:-1250}"
export SOAK_PROCS="${SOAK_PROCS:-1000}"
export SOAK_FLOOD="${SOAK_FLOOD:-2000}" SOAK_FLOOD_ROUNDS="${SOAK_FLOOD_ROUNDS:-5}"
export SOAK_TIMEOUT="${SOAK_TIMEOUT:-900}"
exec sh "$top_srcdir/test/integration/soak.sh"
