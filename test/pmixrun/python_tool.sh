#!/bin/sh
# python3-pmix's PMIxTool (Debian's python3-pmix, on pmixx's libpmix.so.2)
# attached to a running pmixrun job: it queries the namespaces, the
# process table and the job size, and releases the job (pmixtool_attach.py).
. "$(dirname "$0")/common.sh"
t="$top_builddir/test/pmixrun"
need "$t/iof_job"
python=/usr/bin/python3  # Debian's, whose dist-packages hold python3-pmix
"$python" -c "import pmix" 2>/dev/null ||
    { say "SKIP: python3-pmix is not installed (contrib/deps.sh installs it)"; exit 77; }
ourlib=$(cd "$top_builddir/src/.libs" 2>/dev/null && pwd -P) || { fail "no $top_builddir/src/.libs"; exit 1; }

start job -n 2 "$t/iof_job" lines 1

# The module links libpmix.so.2 by name: ours comes first.
LD_LIBRARY_PATH=$ourlib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} timeout 60 "$python" \
    "$(dirname "$0")/pmixtool_attach.py" "$pid" "$job" 2 >"$work/py.out" 2>&1 ||
    { fail "pmixtool_attach.py exit status $?"; sed 's/^/  /' "$work/py.out"; }
for c in library init namespaces proc_table job_size release finalize; do
    grep -qx "PASS python $c" "$work/py.out" || fail "no PASS for $c"
done
[ "$failures" -eq 0 ] || sed 's/^/  /' "$work/py.out"
finish_job job "the job was not released?"
[ "$(grep -o "out [01] 1" "$work/job.out" | wc -l)" = 2 ] || fail "the released job wrote no output"
no_session_dirs_left
finish
