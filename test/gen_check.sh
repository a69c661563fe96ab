#!/bin/sh
# The generated files (pmix_constants.h, string tables, stubs) are what the
# tables in gen/ say they are, and the API table covers every declared function.
set -e
"${PYTHON3:-python3}" "$top_srcdir/gen/generate.py" --check
"${PYTHON3:-python3}" "$top_srcdir/gen/gen_stubs.py" --check --srcdir "$top_srcdir"
