#!/bin/sh
# Re-measures test/unit/common/reference_strings.tsv from the reference
# libpmix (Debian libpmix-dev 4.2.2). Run from anywhere; needs gcc and the
# reference headers + library. Attribute inputs: derived from
# gen/attributes.tsv (see below) plus a few that no implementation knows.
#   usage: test/tools/measure_reference_strings.sh [output.tsv]
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
ref_inc=${PMIX_REF_INCLUDE:-/usr/lib/x86_64-linux-gnu/pmix2/include}
ref_lib=${PMIX_REF_LIBDIR:-/usr/lib/x86_64-linux-gnu}
out=${1:-$top/test/unit/common/reference_strings.tsv}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

gcc -std=c99 -O1 -Wall -Wextra -Werror -pedantic -I"$ref_inc" \
  "$top/test/tools/measure_reference_strings.c" -o "$work/measure" \
  -L"$ref_lib" -Wl,-rpath,"$ref_lib" -lpmix

{
  # Every name and string; each in the other letter case (the reference
  # ignores case); for every 8th attribute also a prefix and an extension.
  awk -F'\t' 'NR > 1 && $0 !~ /^#/ {
    print $1; print $2; print tolower($1); print toupper($2)
    if (NR % 8 == 0) {
      print substr($1, 1, length($1) - 1); print $1 "X"
      print substr($2, 1, length($2) - 1); print $2 "x"
    }
  }' "$top/gen/attributes.tsv"
  printf '%s\n' '' 'PMIX_' 'pmix.' 'PMIX_NO_SUCH_ATTRIBUTE' 'pmix.no.such.attr' \
    'pmix_rank' 'PMIX_RANK ' ' pmix.rank' 'PMIX.RANK' 'pmix.RANK' 'pmix.rank.'
} | timeout 120 "$work/measure" > "$work/out.tsv"
mv "$work/out.tsv" "$out"
echo "wrote $(wc -l < "$out") rows to $out"
