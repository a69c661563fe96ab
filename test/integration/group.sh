#!/bin/sh
# Process groups through the test host (test/host/clients/client_group.c):
# construct/destruct over 1, 4 and 2+2 ranks (the two-node runs take the
# host's group upcall path and exchange the members' data through it),
# timeouts, invite/join/decline and a silent invitee, leave, and members
# and leaders killed with SIGKILL while the others build a group.
. "$(dirname "$0")/common.sh"
# OpenPMIx 4.2.2 returns no membership from construct, carries no member's
# data with the group, answers PMIx_Group_leave with NOT_SUPPORTED and hangs
# when a member dies (README.md): these are pmixx checks.
ours_only "process groups"
tolerate_finalize=1
group_client="$clients/client_group"

count_of() {  # count_of NAME FIELD: a counter of NAME's node-0 summary line
    sed -n "s/^pmix_test_host node 0:.* $2 \([0-9]*\) .*/\1/p" "$work/$1.out"
}

run_host group-n1 -n 1 --timeout 60 -- "$group_client" basic
run_host group-n4 -n 4 --timeout 60 -- "$group_client" basic
run_host group-2nodes -n 2 --remote-procs 2 --timeout 60 -- "$group_client" basic
run_host group-timeout -n 2 --timeout 60 -- "$group_client" timeout
run_host group-invite -n 4 --timeout 60 -- "$group_client" invite
run_host group-invite-silent -n 3 --timeout 60 -- "$group_client" invite-silent
run_host group-leave -n 3 --timeout 60 -- "$group_client" leave
run_host group-member-dies -n 4 --kill-rank 1 --kill-after-ms "$(kill_ms 1000)" --timeout 60 -- \
    "$group_client" member-dies
run_host group-member-dies-plain -n 3 --kill-rank 1 --kill-after-ms "$(kill_ms 1000)" --timeout 60 -- \
    "$group_client" member-dies-plain
run_host group-leader-dies -n 4 --kill-rank 0 --kill-after-ms "$(kill_ms 1000)" --timeout 60 -- \
    "$group_client" leader-dies
if [ "$PMIXX_TEST_LIB" = ours ]; then
    # One upcall per collective that needs the host: a context id (tg-all's
    # construct) or members on the other node (tg-all, tg-even, tg-odd
    # across two nodes, both ways); none for local groups without an id.
    # group_dirs: every local member's own directive reached the host (4
    # ranks on one node; 2 on node 0 of the two-node run).
    for spec in "group-n4 groups 1" "group-2nodes groups 6" "group-timeout groups 0" \
        "group-n4 group_dirs 4" "group-2nodes group_dirs 2"; do
        set -- $spec
        n=$(count_of "$1" "$2")
        [ "$n" = "$3" ] || fail "$1: $2 ${n:-?}, want $3"
    done
fi
finish
