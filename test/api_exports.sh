#!/bin/sh
# Every function of gen/api_status.tsv (all that our headers declare) is
# exported by the built library as a function.
lib="$top_builddir/src/.libs/libpmix.so.2"
[ -f "$lib" ] || { echo "no library at $lib"; exit 1; }
exported=$(nm -D --defined-only "$lib" | awk '$2 == "T" {print $3}' | sort)
missing=0 total=0
for func in $(awk -F'\t' 'NR > 1 && $1 !~ /^#/ && NF {print $1}' "$top_srcdir/gen/api_status.tsv"); do
  total=$((total + 1))
  echo "$exported" | grep -qx "$func" || { echo "not exported: $func"; missing=$((missing + 1)); }
done
echo "api exports: $total functions, $missing missing"
[ "$missing" -eq 0 ]
