#!/bin/sh
# A stand-in for ssh that run_openmpi.sh gives mpirun as plm_rsh_agent, so
# that "--host 127.0.0.2:2,127.0.0.3:2" starts one orted per fake node on
# this machine: each orted is then a PMIx server of its own, and the ranks
# of the two nodes meet through the host's fence_nb / direct_modex upcalls.
#
#   fake_rsh.sh [ssh options] HOST COMMAND...
#
# Each fake node gets its own ORTE session directory under
# $FAKE_RSH_TMPDIR/<host> (two orteds sharing one race on their files),
# and orted stays in the foreground (no --daemonize) so that its exit and
# messages reach mpirun.
while [ $# -gt 0 ]; do
    case $1 in
        -*) shift ;;
        *) break ;;
    esac
done
host=$1
shift
dir=${FAKE_RSH_TMPDIR:-/tmp}/$host
mkdir -p "$dir" || exit 1
cmd=$(printf '%s ' "$@" | sed 's/--daemonize//')
OMPI_MCA_orte_tmpdir_base=$dir exec /bin/sh -c "$cmd"
