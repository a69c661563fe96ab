#!/bin/sh
# Security through munge: clients connect with munge credentials (a private
# munged with its own key and socket, test/tools/munged.sh), obtain and
# validate credentials with PMIx_Get/Validate_credential; a client whose
# credential comes from another munged (another key) is refused at
# connection. Skips when munge is not installed. pmixx only: the munge
# socket parameter is ours.
. "$(dirname "$0")/common.sh"
ours_only "munge"
munged="$top_srcdir/test/tools/munged.sh"
sh "$munged" start "$work/munge-a" > "$work/munge-a.log" 2>&1
rc=$?
[ $rc -eq 77 ] && skip "munge is not installed"
[ $rc -eq 0 ] || { cat "$work/munge-a.log"; fail "private munged A did not start"; finish; }
if ! sh "$munged" start "$work/munge-b" > "$work/munge-b.log" 2>&1; then
    sh "$munged" stop "$work/munge-a"
    fail "private munged B did not start"
    finish
fi
PMIX_MCA_psec=munge
PMIX_MCA_psec_munge_socket="$work/munge-a/munge.socket"
export PMIX_MCA_psec PMIX_MCA_psec_munge_socket
run_host munge-n4 -n 4 --timeout 60 -- "$clients/client_credential"
PMIXX_TEST_BAD_CRED_RANK=1 PMIXX_TEST_OTHER_MUNGE_SOCKET="$work/munge-b/munge.socket" \
    run_host munge-bad-cred -n 3 --bad-cred-rank 1 --timeout 60 -- "$clients/client_credential"
sh "$munged" stop "$work/munge-a"
sh "$munged" stop "$work/munge-b"
finish
