#!/bin/bash
# plot_bench.sh RESULTS.TSV OUTDIR - the PNGs of bench/README.md from a
# run_bench.sh --tsv file (run_scale.sh calls it): latency and memory vs the
# job size S and vs the local client count N, OpenPMIx and pmixx.
# Installs python3-matplotlib through contrib/deps.sh when it is missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 2 ] && [ -f "$1" ] || { echo "usage: $0 RESULTS.TSV OUTDIR" >&2; exit 2; }
# Debian's interpreter, which sees Debian's matplotlib (a python3 earlier in
# PATH, e.g. pyenv's, would not).
py=/usr/bin/python3
[ -x "$py" ] || py=python3
if ! "$py" -c 'import matplotlib' 2>/dev/null; then
    # shellcheck source=../contrib/deps.sh
    . "$here/../contrib/deps.sh"
    pmixx_install_packages python3-matplotlib || exit 1
fi
mkdir -p "$2" && exec "$py" "$here/plot_bench.py" "$1" "$2"
