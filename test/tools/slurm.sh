#!/bin/bash
# slurm.sh start|stop DIR -- a private single-node Slurm for tests.
#
# start: makes sure Slurm is installed (apt-get install slurm-wlm, as root,
#        serialized on a lock; PMIXX_NO_INSTALL=1 only probes), starts a
#        private munged (test/tools/munged.sh, in DIR/munge), writes
#        DIR/slurm.conf (loopback only, free random ports, random FirstJobId,
#        state/spool/log/tmp dirs under DIR, MpiDefault=none) and runs
#        slurmctld and slurmd as root in the foreground (-D) under timeout(1)
#        (lifetime $PMIXX_SLURM_LIFETIME s, default 900), with their pids in
#        DIR/*.pid. Returns once sinfo shows the node idle (at most
#        $PMIXX_SLURM_START_TIMEOUT s, default 40).
#        Callers then use: SLURM_CONF=DIR/slurm.conf srun ...
#        DIR/env holds the shell assignments to source for that.
#        Extra environment for the daemons (and so for slurmstepd): every
#        variable named in $PMIXX_SLURM_DAEMON_ENV (space separated, e.g.
#        "LD_AUDIT PMIXX_AUDIT_TO") is passed through when set.
# stop:  kills slurmd, slurmctld, any slurmstepd of this DIR (found by its
#        SLURM_CONF in /proc/PID/environ) and munged; waits for them.
#
# Never touches system services or the configuration in /etc.
# Exit: 0 ok, 1 failure (logs on stderr), 2 usage, 77 Slurm or munge not
# installable / not root (callers turn it into a visible skip).
set -u

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
action=$1
dir=$2
case $dir in /*) ;; *) dir=$(pwd)/$dir ;; esac
here=$(cd "$(dirname "$0")" && pwd)
LOCK=${TMPDIR:-/tmp}/pmixx-slurm-install.lock
PMIX_PLUGIN=/usr/lib/x86_64-linux-gnu/slurm-wlm/mpi_pmix_v4.so

skip() { echo "slurm.sh: SKIP: $*" >&2; exit 77; }
die() { echo "slurm.sh: $*" >&2; exit 1; }

have_slurm() {
    command -v slurmctld >/dev/null 2>&1 && command -v slurmd >/dev/null 2>&1 &&
        command -v srun >/dev/null 2>&1 && command -v sinfo >/dev/null 2>&1 && [ -f "$PMIX_PLUGIN" ]
}

install_slurm() {
    export DEBIAN_FRONTEND=noninteractive
    local opts="-y -q -o DPkg::Lock::Timeout=300"
    timeout 900 apt-get install $opts slurm-wlm >&2 && return 0
    timeout 600 apt-get update -q >&2 || return 1
    timeout 900 apt-get install $opts slurm-wlm >&2
}

ensure_slurm() {
    have_slurm && return 0
    [ "${PMIXX_NO_INSTALL:-0}" = 1 ] && skip "Slurm is not installed (PMIXX_NO_INSTALL=1)"
    command -v apt-get >/dev/null 2>&1 || skip "Slurm is not installed and there is no apt-get"
    echo "slurm.sh: installing slurm-wlm" >&2
    ( flock -w 1200 9 || exit 1; have_slurm || install_slurm ) 9>"$LOCK"
    have_slurm || skip "Slurm could not be installed (see the apt-get output above)"
}

port_free() { ! ss -Htan "sport = :$1" 2>/dev/null | grep -q .; }

free_port() {
    local p tries=0
    while [ $tries -lt 200 ]; do
        p=$((20000 + RANDOM % 40000))
        tries=$((tries + 1))
        [ "$p" = "${1:-}" ] && continue
        port_free "$p" && { echo "$p"; return 0; }
    done
    return 1
}

write_conf() {
    local ctld_port=$1 d_port=$2 node=$3 cpus
    cpus=$(nproc)
    [ "$cpus" -lt 8 ] && cpus=8   # more CPUs than cores: config_overrides
    cat >"$dir/slurm.conf" <<CONF
ClusterName=pmixx$((RANDOM % 10000))
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pidfile
SlurmdPidFile=$dir/slurmd.pidfile
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
TmpFS=$dir/tmp
PlugStackConfig=$dir/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
MailProg=/bin/true
FirstJobId=$((1000 + RANDOM * 8 + RANDOM % 8))
SlurmdParameters=config_overrides
CommunicationParameters=NoCtldInAddrAny,NoInAddrAny
KillWait=5
InactiveLimit=0
MinJobAge=30
NodeName=$node NodeHostname=$(hostname) NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=pmixx Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
    : >"$dir/plugstack.conf"
}

# start_daemon NAME CMD...: runs CMD in the foreground under timeout, its
# pid in DIR/NAME.pid, its output in DIR/NAME.out.
start_daemon() {
    local name=$1; shift
    local envs=(SLURM_CONF="$dir/slurm.conf") v
    for v in ${PMIXX_SLURM_DAEMON_ENV:-}; do
        [ -n "${!v+x}" ] && envs+=("$v=${!v}")
    done
    env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$dir" "${envs[@]}" \
        timeout "${PMIXX_SLURM_LIFETIME:-900}" "$@" </dev/null >"$dir/$name.out" 2>&1 &
    echo $! >"$dir/$name.pid"
}

node_idle() {
    SLURM_CONF=$dir/slurm.conf timeout 3 sinfo -h -o '%t' 2>/dev/null | grep -qx 'idle'
}

start_all() {
    [ "$(id -u)" = 0 ] || skip "the private Slurm runs its daemons as root; this is not root"
    ensure_slurm
    mkdir -p "$dir" && chmod 0700 "$dir" || die "cannot create $dir"
    mkdir -p "$dir/state" "$dir/spool" "$dir/tmp" || die "cannot create dirs in $dir"
    bash "$here/munged.sh" start "$dir/munge"
    local rc=$?
    [ $rc -eq 77 ] && skip "munge is not available"
    [ $rc -eq 0 ] || die "munged did not start"
    local ctld_port d_port node=pmixx$$
    ctld_port=$(free_port) && d_port=$(free_port "$ctld_port") || die "no free port"
    write_conf "$ctld_port" "$d_port" "$node"
    printf 'export SLURM_CONF=%s\n' "$dir/slurm.conf" >"$dir/env"
    start_daemon slurmctld slurmctld -D -c -f "$dir/slurm.conf"
    start_daemon slurmd slurmd -D -f "$dir/slurm.conf" -N "$node"
    local deadline=$((SECONDS + ${PMIXX_SLURM_START_TIMEOUT:-40}))
    until node_idle; do
        if [ $SECONDS -gt $deadline ]; then
            echo "slurm.sh: the node did not become idle; sinfo / logs:" >&2
            SLURM_CONF=$dir/slurm.conf timeout 10 sinfo -N -l >&2 2>&1
            tail -n 20 "$dir/slurmctld.log" "$dir/slurmd.log" "$dir"/*.out >&2 2>/dev/null
            stop_all
            exit 1
        fi
        sleep 0.5
    done
}

kill_pid_and_wait() {
    local pid=$1 tries=0
    case $pid in '' | *[!0-9]*) return 0 ;; esac
    kill "$pid" 2>/dev/null || return 0
    while kill -0 "$pid" 2>/dev/null; do
        tries=$((tries + 1))
        [ $tries -gt 50 ] && { kill -9 "$pid" 2>/dev/null; break; }
        sleep 0.1
    done
}

# The daemons run under timeout(1): kill the daemon (timeout's child) first.
stop_daemon() {
    local name=$1 pid child
    [ -f "$dir/$name.pid" ] || return 0
    pid=$(cat "$dir/$name.pid" 2>/dev/null)
    case $pid in '' | *[!0-9]*) rm -f "$dir/$name.pid"; return 0 ;; esac
    for child in $(cat "/proc/$pid/task/$pid/children" 2>/dev/null); do
        kill_pid_and_wait "$child"
    done
    kill_pid_and_wait "$pid"
    rm -f "$dir/$name.pid"
}

# slurmstepd processes (and their tasks) started by this DIR's slurmd.
stop_steps() {
    local p
    for p in /proc/[0-9]*; do
        case ${p#/proc/} in "$$" | "$PPID") continue ;; esac
        if { tr '\0' '\n' <"$p/environ"; } 2>/dev/null | grep -qx "SLURM_CONF=$dir/slurm.conf"; then
            kill -9 "${p#/proc/}" 2>/dev/null
        fi
    done
}

stop_all() {
    stop_daemon slurmd
    stop_daemon slurmctld
    stop_steps
    bash "$here/munged.sh" stop "$dir/munge"
}

case $action in
    start) start_all ;;
    stop) stop_all ;;
    *) usage ;;
esac
exit 0
