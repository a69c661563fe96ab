#!/bin/sh
# The same clients over TCP (PMIX_MCA_ptl=tcp, remote connections allowed).
. "$(dirname "$0")/common.sh"
run_host tcp-basic-n4 -n 4 --tcp --timeout 60 -- "$clients/client_basic"
run_host tcp-modex-n4 -n 4 --tcp --timeout 60 -- "$clients/client_modex"
run_host tcp-modex-2nodes -n 2 --remote-procs 2 --tcp --timeout 60 -- "$clients/client_modex"
# IPv6 (tcp6://[::1] URIs) when this machine has ::1; ours only: OpenPMIx
# 4.2.2's PMIx_server_init fails (listener thread) with IPv4 disabled.
if [ "$PMIXX_TEST_LIB" = ours ] && grep -qi '^0\{31\}1 ' /proc/net/if_inet6 2>/dev/null; then
    PMIX_MCA_ptl_tcp_disable_ipv4_family=1
    export PMIX_MCA_ptl_tcp_disable_ipv4_family
    run_host tcp6-modex-n4 -n 4 --tcp --timeout 60 -- "$clients/client_modex"
    run_host tcp6-modex-2nodes -n 2 --remote-procs 2 --tcp --timeout 60 -- "$clients/client_modex"
    unset PMIX_MCA_ptl_tcp_disable_ipv4_family
fi
finish
