#!/bin/sh
# Makes sure Debian's Open MPI (mpirun, mpicc, the mca_pmix_ext3x component
# that dlopens libpmix.so.2) is installed: installs openmpi-bin and
# libopenmpi-dev with apt-get when they are missing and this runs as root.
#
# Exit status: 0 when Open MPI is usable, 77 (automake's "skip") when it is
# not installed and cannot be, with the reason on stderr.
# PMIXX_NO_INSTALL=1 never installs (just probes).
# Concurrent callers are serialized on a lock file; apt-get waits for the
# dpkg lock; everything is bounded by timeouts.

EXT3X=/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/mca_pmix_ext3x.so
LOCK=${TMPDIR:-/tmp}/pmixx-openmpi-install.lock

have_openmpi() {
    command -v mpirun >/dev/null 2>&1 && command -v mpicc >/dev/null 2>&1 && [ -f "$EXT3X" ]
}

skip() {
    echo "openmpi.sh: SKIP: $*" >&2
    exit 77
}

install_openmpi() {
    export DEBIAN_FRONTEND=noninteractive
    opts="-y -q -o DPkg::Lock::Timeout=300"
    # An old or missing package list is refreshed once if the first try fails.
    timeout 900 apt-get install $opts openmpi-bin libopenmpi-dev >&2 && return 0
    timeout 600 apt-get update -q >&2 || return 1
    timeout 900 apt-get install $opts openmpi-bin libopenmpi-dev >&2
}

have_openmpi && exit 0
[ "${PMIXX_NO_INSTALL:-0}" = 1 ] && skip "Open MPI is not installed (PMIXX_NO_INSTALL=1)"
[ "$(id -u)" = 0 ] || skip "Open MPI is not installed and this is not root (apt-get install openmpi-bin libopenmpi-dev)"
command -v apt-get >/dev/null 2>&1 || skip "Open MPI is not installed and there is no apt-get"
echo "openmpi.sh: installing openmpi-bin libopenmpi-dev" >&2
if command -v flock >/dev/null 2>&1; then
    (
        flock -w 1200 9 || exit 1
        have_openmpi || install_openmpi
    ) 9>"$LOCK"
else
    install_openmpi
fi
have_openmpi || skip "Open MPI could not be installed (see the apt-get output above)"
exit 0
