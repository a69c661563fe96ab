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
# The examples exit 0 whatever happens: their stderr is what tells. They
# include "examples.h", which Debian does not ship: openpmix_examples.h
# beside this script provides what they use.
#
# make check exports top_builddir and top_srcdir; by hand:
#   top_builddir=/tmp/b top_srcdir=. sh test/pmixrun/openpmix_examples.sh
. "$(dirname "$0")/common.sh"
need
examples=${PMIXX_OPENPMIX_EXAMPLES:-/usr/share/doc/libpmix-dev/examples}
inc=${PMIXX_DEBIAN_PMIX_INCLUDE:-/usr/lib/x86_64-linux-gnu/pmix2/include}
libdir=${PMIXX_DEBIAN_PMIX_LIBDIR:-/usr/lib/x86_64-linux-gnu}
[ -f "$examples/group.c" ] && [ -f "$inc/pmix.h" ] && [ -e "$libdir/libpmix.so" ] ||
    { say "SKIP: Debian's libpmix-dev (headers, examples) not found"; exit 77; }
ourlib=$(cd "$top_builddir/src/.libs" 2>/dev/null && pwd -P) || { fail "no $top_builddir/src/.libs"; exit 1; }
mkdir "$work/inc" && cp "$(dirname "$0")/openpmix_examples.h" "$work/inc/examples.h" || exit 99
for e in group asyncgroup group_dmodex group_lcl_cid; do
    ${CC:-cc} -std=gnu99 -I"$work/inc" -I"$inc" -o "$work/$e" "$examples/$e.c" \
        -L"$libdir" -lpmix -pthread 2>"$work/$e.cc.err" ||
        { fail "$e does not build"; sed 's/^/  /' "$work/$e.cc.err"; }
done
[ "$failures" -eq 0 ] || finish
# The examples link Debian's libpmix.so.2 by name: ours comes first.
LD_LIBRARY_PATH=$ourlib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH

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
