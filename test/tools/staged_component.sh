# Sourced by the out-of-tree component tests (test/plugin_example.sh,
# test/pnet_example.sh): builds contrib/<dir>'s component the way a vendor
# would, against a staged installation only (headers, library, pmix.pc).
# build_staged_component DIR SOURCE: skips (77) without dlopen; on success
# $work is a private directory (removed at exit), the component is in
# $work/components, and LD_LIBRARY_PATH points at the staged library.
build_staged_component() {
    if ! grep -q '^#define PMIXX_ENABLE_DLOPEN 1' "$top_builddir/config.h"; then
        echo "SKIP: built with --disable-dlopen, which loads no component files"
        exit 77
    fi
    work=$(mktemp -d "${TMPDIR:-/tmp}/pmixx-$1.XXXXXX") || exit 1
    trap 'rm -rf "$work"' EXIT
    prefix=$(sed -n 's/^prefix=//p' "$top_builddir/contrib/pmix.pc")
    stage="$work/stage"
    env -u MAKEFLAGS -u MFLAGS make -C "$top_builddir" -j1 DESTDIR="$stage" \
        install-includeHEADERS install-nodist_includeHEADERS install-pmixmcaHEADERS \
        install-pkgconfigDATA install-libLTLIBRARIES > "$work/install.log" 2>&1 \
        || { tail -20 "$work/install.log"; echo "FAIL: staged install"; exit 1; }
    export PKG_CONFIG_PATH="$stage$prefix/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$stage"
    pkg-config --exists pmix || { echo "FAIL: pkg-config does not find pmix"; exit 1; }
    cp "$top_srcdir/contrib/$1/$2" "$top_srcdir/contrib/$1/Makefile" "$work/"
    make -C "$work" DIR="$work/components" install > "$work/build.log" 2>&1 \
        || { cat "$work/build.log"; echo "FAIL: building the example"; exit 1; }
    export LD_LIBRARY_PATH="$stage$prefix/lib"
}
