#!/bin/sh
# Regenerates the build system (configure, Makefile.in, libtool glue).
set -e
cd "$(dirname "$0")"
mkdir -p m4 config
autoreconf --install --force --warnings=all,no-obsolete >/dev/null
echo "autogen.sh: now run ./configure"
