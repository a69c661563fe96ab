#!/usr/bin/env bash
# One command on a fresh Debian machine: install what is missing, build,
# install pmixx into $PREFIX (default: ./_install), and run a job on it.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=${PREFIX:-$top/_install}
. "$top/contrib/deps.sh"

pmixx_install_packages $PMIXX_BUILD_PACKAGES
export PREFIX
pmixx_build "$top/_build"
make -C "$top/_build" install >"$top/_build/install.out" 2>&1 \
  || { tail -n 30 "$top/_build/install.out"; exit 1; }
echo "pmixx installed in $PREFIX"

# The job: an example program built against the installed headers with
# pkg-config, run on the installed library.
export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
example="$top/_build/examples/library_info"
mkdir -p "$(dirname "$example")"
cc -std=c99 -Wall -Werror -o "$example" "$top/examples/library_info.c" $(pkg-config --cflags --libs pmix)
LD_LIBRARY_PATH="$PREFIX/lib" "$example"

# What the installation holds: its frameworks and components.
"$PREFIX/bin/pmix_info" | grep -E 'PMIX:|MCA '

# And a real job: four processes launched by pmixx's own launcher, each
# printing its view of the job (rank, size, local peers, a peer's value
# exchanged through Put/Commit/Fence/Get).
job_view="$top/_build/examples/job_view"
cc -std=c99 -Wall -Werror -o "$job_view" "$top/examples/job_view.c" $(pkg-config --cflags --libs pmix)
LD_LIBRARY_PATH="$PREFIX/lib" "$PREFIX/bin/pmixrun" -n 4 "$job_view"
