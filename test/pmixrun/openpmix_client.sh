#!/bin/sh
# OpenPMIx's first example program, client.c, as Debian's libpmix-dev ships
# it (/usr/share/doc/libpmix-dev/examples), compiled against Debian's
# headers and run under pmixrun on pmixx (issue 13's acceptance check): it
# registers event handlers, loads the node topology (PMIx_Load_topology),
# reads the job's sizes, puts local and remote values, fences with data
# collection, reads every rank's local value back and finalizes. The ranks are
# given a topology file that does not exist, so PMIx_Load_topology succeeds
# only by adopting the copy pmixrun shares (hwloc_base_verbose says which).
# Then jctrl.c (job-control declarations and a heartbeat monitor).
# The examples exit 0 whatever happens: their stderr is what tells. About 3 s.
#
# make check exports top_builddir and top_srcdir; by hand:
#   top_builddir=/tmp/b top_srcdir=. sh test/pmixrun/openpmix_client.sh
. "$(dirname "$0")/common.sh"
need
. "$(dirname "$0")/common_examples.sh"
build_examples client jctrl

# count N PATTERN: N lines of the run's stderr match PATTERN.
count() {
    n=$(grep -cE "$2" "$work/client.err")
    [ "$n" = "$1" ] || fail "$n lines match '$2', want $1"
}

np=3
if run client 0 -n $np -x PMIX_MCA_hwloc_topo_file=/nonexistent \
    -x PMIX_MCA_hwloc_base_verbose=1 "$work/client"; then
    count $np "^Client [^ ]+:[0-2] topology loaded\$"
    count $np "node topology from (shmem|xml-v2)"
    count $np "^Client [^ ]+:[0-2] num procs $np\$"
    # all ranks are local: each reads each rank's PMIX_LOCAL value
    count $((np * np)) "^Client ns [^ ]+ rank [0-2]: PMIx_Get [^ ]+-[0-2]-local returned correct\$"
    count $np "^Client ns [^ ]+ rank [0-2]:PMIx_Finalize successfully completed\$"
    if grep -iE "failed|wrong|LOCK WASN'T" "$work/client.err" >/dev/null; then
        fail "failure lines"
        grep -iE "failed|wrong|LOCK WASN'T" "$work/client.err" | sed 's/^/  /'
    fi
fi
# jctrl: declares itself preemptible with a checkpoint method (sent with
# no value type) and starts a heartbeat monitor; passes under Open MPI
# 4.1's mpirun; pmixrun refused the declarations (NOT_SUPPORTED) before.
if run jctrl 0 -n 2 "$work/jctrl"; then
    n=$(grep -cE "^Client ns [^ ]+ rank [01]:PMIx_Finalize successfully completed\$" "$work/jctrl.err")
    [ "$n" = 2 ] || fail "jctrl: $n of 2 ranks finalized"
    if grep -iE "failed|wrong|LOCK WASN'T" "$work/jctrl.err" >/dev/null; then
        fail "jctrl: failure lines"
        grep -iE "failed|wrong|LOCK WASN'T" "$work/jctrl.err" | sed 's/^/  /'
    fi
fi
no_session_dirs_left
finish
