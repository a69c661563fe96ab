#!/bin/sh
# Process groups and process sets under pmixrun, end to end
# (test/pmixrun/group_client.c says what each mode checks):
#   basic   --pset at launch (gets, queries), groups with context ids from
#           pmixrun's upcall, the group queries
#   many    1,000 groups in a row: distinct ids, none left, bounded memory
#   two / three  groups over a job and the jobs it spawned (2 and 3
#           namespaces), psets defined at run time (PMIX_PSET_NAME in the
#           spawn), job info and data of the other namespaces
#   bad --pset values: refused (usage error, or no such rank)
#
# make check exports top_builddir; by hand: top_builddir=/tmp/b sh group.sh
. "$(dirname "$0")/common.sh"
client="$top_builddir/test/pmixrun/group_client"
need "$client"
case $client in /*) ;; *) client="$(pwd)/$client" ;; esac  # spawned from another cwd
run_opts="--timeout 50"

if run basic 0 -n 3 --pset all:0-2 --pset even:0,2 "$client" basic; then
    expect_pass basic "0 1 2" pset-names pset-query construct group-query context-ids destruct \
        finalize
    no_fail_lines basic
fi

if run many 0 -n 2 "$client" many; then
    expect_pass many "0 1" many many-context-ids many-none-left many-memory finalize
    no_fail_lines many
fi

for spec in "two 1 2" "three 2 3"; do
    set -- $spec
    if run "$1" 0 -n 1 "$client" parent "$2"; then
        for check in spawn pset-child pset-define "construct-$3" job-info member-data destruct \
            pset-delete finalize; do
            expect_in "$1" out "PASS parent 0 $check"
        done
        n=$(grep -c "^PASS child 0 construct-$3\$" "$work/$1.out")
        [ "$n" = "$2" ] || fail "$1: $n children built the group, want $2"
        n=$(grep -c "^PASS child 0 member-data\$" "$work/$1.out")
        [ "$n" = "$2" ] || fail "$1: $n children read the members' data, want $2"
        no_fail_lines "$1"
    fi
done

run badpset 2 -n 2 --pset nocolon "$client" basic && expect_in badpset err "--pset wants NAME:RANKS"
run badrange 2 -n 2 --pset x:3-1 "$client" basic && expect_in badrange err "--pset wants"
run norank 1 -n 2 --pset x:0,5 "$client" basic && expect_in norank err "process set x: no rank 5"
no_session_dirs_left
finish
