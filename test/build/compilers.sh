#!/bin/sh
# The constructs that once kept the tree from building under a sanitizer or
# with clang compile with both: the header-only component template under
# GCC + -fsanitize=undefined (`if constexpr` on a function-pointer template
# argument is not a constant expression there), and the event dispatcher
# under clang (std::optional<T>::emplace() on a nested type whose default
# constructibility clang decides while the enclosing class is incomplete).
# The sanitizer and clang builds of contrib/check.sh build everything; this
# is the quick check every build runs. Skips a compiler that is not there.
set -u
flags="-std=c++20 -fsyntax-only -Wall -Wextra -Werror -I$top_srcdir -I$top_srcdir/include \
-I$top_builddir/include -I$top_builddir"
components=$(grep -l 'ConstantComponent<' "$top_srcdir"/plugins/*/*/component.cc)
status=0 ran=0
check() {  # check COMPILER FILE [FLAGS...]
  cxx=$1 file=$2; shift 2
  # shellcheck disable=SC2086
  if ! $cxx $flags "$@" "$file" >"$top_builddir/compilers.out" 2>&1; then
    echo "FAIL: $cxx $* ${file#$top_srcdir/}"; head -n 20 "$top_builddir/compilers.out"; status=1
  fi
  ran=$((ran + 1))
}
for cxx in g++ clang++; do
  command -v $cxx >/dev/null 2>&1 || { echo "no $cxx: skipped"; continue; }
  for f in $components; do check $cxx "$f" -fsanitize=undefined; done
  check $cxx "$top_srcdir/src/event/dispatcher.cc"
done
rm -f "$top_builddir/compilers.out"
[ $ran -gt 0 ] || exit 77
echo "$ran compilations"
exit $status
