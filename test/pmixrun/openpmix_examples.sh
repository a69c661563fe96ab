#!/bin/sh
# OpenPMIx's own group example programs, as Debian's libpmix-dev ships them
# (/usr/share/doc/libpmix-dev/examples), compiled against Debian's headers
# and run under pmixrun on pmixx (issue 12's acceptance check):
#   group          ranks 0,2,3 of 4 construct a group with a context id, destruct it
#   asyncgroup     rank 0 invites 2 and 3, who join from their PMIX_GROUP_INVITED
#                  handler; a fence over the group id; destruct
#   group_dmodex   all ranks construct, put data under keys made from the
#                  context id, destruct, and get every rank's data
#   group_lcl_cid  every rank contributes PMIX_GROUP_LOCAL_CID in PMIX_GROUP_INFO
#                  and gets every rank's, qualified by the context id
# The examples exit 0 whatever happens: their stderr is what tells
# (common_examples.sh builds them).
#
# make check exports top_builddir and top_srcdir; by hand:
#   top_builddir=/tmp/b top_srcdir=. sh test/pmixrun/openpmix_examples.sh
. "$(dirname "$0")/common.sh"
need
. "$(dirname "$0")/common_examples.sh"
build_examples group asyncgroup group_dmodex group_lcl_cid

# clean NAME NPROCS: every rank finished, and no line says something failed.
clean() {
    n=$(grep -c ":[0-9]* COMPLETE\$" "$work/$1.err")
    [ "$n" = "$2" ] || fail "$1: $n of $2 ranks completed"
    if grep -iE "failed|wrong|error|not supported|LOCK WASN'T" "$work/$1.err" >/dev/null; then
        fail "$1: failure lines"
        grep -iE "failed|wrong|error|not supported|LOCK WASN'T" "$work/$1.err" | sed 's/^/  /'
    fi
}
# count NAME N PATTERN: N lines of NAME's stderr match PATTERN.
count() {
    n=$(grep -cE "$3" "$work/$1.err")
    [ "$n" = "$2" ] || fail "$1: $n lines match '$3', want $2"
}

if run group 0 -n 4 "$work/group"; then
    clean group 4
    count group 3 "^[023] Group construct complete with status SUCCESS KEY pmix.grp.ctxid CID [0-9]+\$"
    count group 3 "^[023] executing Group_destruct\$"
fi
if run asyncgroup 0 -n 4 "$work/asyncgroup"; then
    clean asyncgroup 4
    expect_in asyncgroup err "rank 0: Group invite complete with status SUCCESS!"
    count asyncgroup 3 "^[023] Executing Group_destruct\$"
fi
if run group_dmodex 0 -n 4 "$work/group_dmodex"; then
    clean group_dmodex 4
    count group_dmodex 4 "^[0-3] Group construct complete with status SUCCESS KEY pmix.grp.ctxid"
fi
if run group_lcl_cid 0 -n 4 "$work/group_lcl_cid"; then
    clean group_lcl_cid 4
    # every rank reads every rank's
    count group_lcl_cid 16 ":[0-3]: PMIx_Get LOCAL CID for rank [0-3] SUCCESS value: "
fi
no_session_dirs_left
finish
