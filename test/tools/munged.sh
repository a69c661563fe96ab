#!/bin/sh
# munged.sh start|stop DIR -- a private munge daemon for tests.
#
# start: creates DIR (0700) with a fresh random key (DIR/munge.key, 0400)
#        and runs munged as the current user on DIR/munge.socket, with its
#        pid, log and seed files in DIR. Never touches /etc/munge, /run/munge
#        or any system service. Returns once the daemon answers a
#        credential round trip (at most ~10 s), else stops it and fails.
#        The daemon ends by itself after $PMIXX_MUNGED_LIFETIME seconds
#        (default 900) in case nobody stops it.
# stop:  kills the daemon named by DIR/munged.pid and waits (at most ~5 s,
#        then SIGKILL) for it to go. Stopping a dir with no daemon is fine.
#
# Exit codes: 0 ok, 1 failure (see stderr and DIR/munged.log), 2 usage,
# 77 munged/munge/unmunge not installed (the Debian package "munge"), which
# callers turn into a visible skip.
set -u

usage() {
  echo "usage: $0 start|stop DIR" >&2
  exit 2
}

[ $# -eq 2 ] || usage
action=$1
dir=$2
case $dir in
  /*) ;;
  *) dir=$(pwd)/$dir ;;
esac

key=$dir/munge.key
sock=$dir/munge.socket
pidfile=$dir/munged.pid
logfile=$dir/munged.log
seedfile=$dir/munged.seed

find_munged() {
  for candidate in "$(command -v munged 2>/dev/null)" /usr/sbin/munged /sbin/munged; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

# A credential encoded and decoded through our socket.
answers() {
  munge -n -S "$sock" 2>/dev/null | unmunge -S "$sock" >/dev/null 2>&1
}

stop_daemon() {
  [ -f "$pidfile" ] || return 0
  pid=$(cat "$pidfile" 2>/dev/null)
  case $pid in
    '' | *[!0-9]*) rm -f "$pidfile"; return 0 ;;
  esac
  kill "$pid" 2>/dev/null || { rm -f "$pidfile"; return 0; }
  tries=0
  while kill -0 "$pid" 2>/dev/null; do
    tries=$((tries + 1))
    if [ $tries -gt 50 ]; then
      echo "munged.sh: munged $pid ignored SIGTERM; killing it" >&2
      kill -9 "$pid" 2>/dev/null
      break
    fi
    sleep 0.1
  done
  rm -f "$pidfile"
  return 0
}

start_daemon() {
  munged=$(find_munged) || {
    echo "munged.sh: munged not found (install the Debian package 'munge')" >&2
    exit 77
  }
  if ! command -v munge >/dev/null 2>&1 || ! command -v unmunge >/dev/null 2>&1; then
    echo "munged.sh: munge/unmunge not found (install the Debian package 'munge')" >&2
    exit 77
  fi
  mkdir -p "$dir" && chmod 0700 "$dir" || exit 1
  if [ ! -f "$key" ]; then
    dd if=/dev/urandom of="$key" bs=1 count=1024 2>/dev/null || exit 1
    chmod 0400 "$key" || exit 1
  fi
  # --force: munged otherwise refuses to run as root, and (as any user)
  # refuses directories it deems unsafe, such as a sticky /tmp ancestor.
  # In the foreground under timeout(1), so that a test that dies before
  # calling stop leaves no daemon behind for longer than its lifetime.
  # Its output goes to a file: an inherited pipe would hold up callers.
  timeout "${PMIXX_MUNGED_LIFETIME:-900}" "$munged" --foreground --force \
    --key-file="$key" --socket="$sock" --pid-file="$pidfile" \
    --log-file="$logfile" --seed-file="$seedfile" --num-threads=2 \
    </dev/null >"$dir/munged.out" 2>&1 &
  daemon=$!
  tries=0
  until answers; do
    tries=$((tries + 1))
    if ! kill -0 "$daemon" 2>/dev/null; then
      echo "munged.sh: munged exited at start:" >&2
      cat "$dir/munged.out" "$logfile" >&2 2>/dev/null
      exit 1
    fi
    if [ $tries -gt 100 ]; then
      echo "munged.sh: munged on $sock does not answer; its log:" >&2
      cat "$logfile" >&2 2>/dev/null
      stop_daemon
      exit 1
    fi
    sleep 0.1
  done
}

case $action in
  start) start_daemon ;;
  stop) stop_daemon ;;
  *) usage ;;
esac
exit 0
