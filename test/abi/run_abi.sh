#!/bin/sh
# make check wrapper: our public headers (source tree + generated ones in the
# build tree) against the reference headers. 77 = SKIP when those are absent.
here=$(cd "$(dirname "$0")" && pwd)
: "${top_srcdir:=$(cd "$here/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
ref=${PMIXX_REF_INCLUDE:-/usr/lib/x86_64-linux-gnu/pmix2/include}
# abi_check.py needs gcc (-aux-info, DWARF output), whatever CC configure chose.
exec "${PYTHON3:-/usr/bin/python3}" "$here/abi_check.py" --ref-include "$ref" \
    --ours-include "$top_srcdir/include" --ours-include "$top_builddir/include" \
    --cc "${ABI_CC:-gcc}"
