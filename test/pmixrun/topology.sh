#!/bin/sh
# The node topology under pmixrun: the server loads it once and shares it,
# the ranks adopt the shared copy (hwloc shared memory, else the XML); and
# --bind-to binds the ranks and describes it (PMIX_CPUSET,
# PMIX_LOCALITY_STRING). The server gets a fake node (16 PUs, 4 NUMA
# nodes); the ranks are given a topology file that does not exist, so a
# rank that discovered its topology itself would fail. About 3 s.
. "$(dirname "$0")/common.sh"
client="$top_builddir/test/pmixrun/topo_client"
need "$client"
fake="$top_srcdir/test/unit/hwloc/fake_node.xml"

# shared memory
PMIX_MCA_hwloc_topo_file=$fake run shmem 0 -n 2 -x PMIX_MCA_hwloc_topo_file=/nonexistent \
    -x PMIX_MCA_hwloc_base_verbose=1 "$client" 16
expect_pass shmem "0 1" load-topology shared-keys
expect_done shmem "0 1"
[ "$(grep -c 'node topology from shmem' "$work/shmem.err")" -eq 2 ] ||
    fail "shmem: the ranks did not adopt the shared memory copy"

# XML only (no shared memory segment)
PMIX_MCA_hwloc_topo_file=$fake PMIX_MCA_hwloc_hole_kind=none run xml 0 -n 2 \
    -x PMIX_MCA_hwloc_topo_file=/nonexistent -x PMIX_MCA_hwloc_base_verbose=1 "$client" 16
expect_pass xml "0 1" load-topology shared-keys
[ "$(grep -c 'node topology from xml-v2' "$work/xml.err")" -eq 2 ] ||
    fail "xml: the ranks did not load the shared XML"

# binding, on the real node
npus=$(getconf _NPROCESSORS_ONLN)
for how in core package; do
    run "bind-$how" 0 -n 2 --bind-to "$how" "$client" "$npus" bound
    expect_pass "bind-$how" "0 1" load-topology bound locality-string relative
    expect_done "bind-$how" "0 1"
done
run bad-bind 2 -n 1 --bind-to nowhere "$client" 1
expect_in bad-bind err "--bind-to wants none, core or package"
no_session_dirs_left
finish shmem
