# Sourced by contrib/setup.sh and contrib/check.sh: installs the Debian
# packages that are missing, and nothing else. Needs root (or sudo) only
# when something is missing.

pmixx_missing_packages() {
  local missing=() pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' \
      || missing+=("$pkg")
  done
  echo "${missing[@]}"
}

# pmixx_install_packages PKG...: apt-get installs the missing ones.
pmixx_install_packages() {
  local missing sudo=""
  missing=$(pmixx_missing_packages "$@")
  [ -z "$missing" ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "need root to install: $missing" >&2; return 1; }
    sudo="sudo"
  fi
  echo "installing Debian packages: $missing"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null || return 1
  # shellcheck disable=SC2086
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing \
    >/dev/null || return 1
}

# What building pmixx needs.
PMIXX_BUILD_PACKAGES="build-essential autoconf automake libtool pkg-config python3 \
libevent-dev libhwloc-dev zlib1g-dev libltdl-dev libmunge-dev"
# What the test suite adds: GoogleTest, valgrind, Debian's OpenPMIx as
# the ABI reference, munge (munged, for the psec/munge tests), clang
# (test/build/compilers.sh builds the compiler-sensitive files with it) and
# python3-pmix (test/pmixrun/python_tool.sh runs its PMIxTool on pmixx).
PMIXX_TEST_PACKAGES="libgtest-dev valgrind libpmix-dev munge clang python3-pmix"
# What contrib/check.sh's hardening build adds: clang and its sanitizer and
# libFuzzer runtimes (gcc's ASan/UBSan runtimes come with build-essential).
PMIXX_HARDEN_PACKAGES="clang libclang-rt-14-dev"

# pmixx_build BUILDDIR: autogen + configure (when needed) + make; extra
# configure arguments come from $PMIXX_CONFIGURE_ARGS (and $CFLAGS and
# $CXXFLAGS, which configure reads), the make targets from
# $PMIXX_MAKE_TARGETS (default: all). Both
# scripts build in the same tree with the same prefix ($PREFIX, default
# ./_install), so running one after the other rebuilds nothing.
pmixx_build() {
  local top builddir prefix
  top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  builddir=$1
  prefix=${PREFIX:-$top/_install}
  [ -x "$top/configure" ] || "$top/autogen.sh" || return 1
  mkdir -p "$builddir"
  # Reconfigure when the tree was configured with other arguments.
  local wanted="--prefix=$prefix ${PMIXX_CONFIGURE_ARGS:-}${CFLAGS:+ CFLAGS=$CFLAGS}${CXXFLAGS:+ CXXFLAGS=$CXXFLAGS}"
  if [ ! -f "$builddir/Makefile" ] || [ "$(cat "$builddir/.pmixx-configure" 2>/dev/null)" != "$wanted" ]; then
    # shellcheck disable=SC2086  # extra configure arguments are split on purpose
    (cd "$builddir" && "$top/configure" --prefix="$prefix" ${PMIXX_CONFIGURE_ARGS:-} >configure.out 2>&1) \
      || { tail -n 20 "$builddir/configure.out"; return 1; }
    echo "$wanted" > "$builddir/.pmixx-configure"
  fi
  # shellcheck disable=SC2086  # a list of targets
  make -C "$builddir" -j2 ${PMIXX_MAKE_TARGETS:-} >"$builddir/make.out" 2>&1 \
    || { tail -n 60 "$builddir/make.out"; echo "build failed (full log: $builddir/make.out)" >&2; return 1; }
}
