#!/bin/sh
# The out-of-tree component of contrib/plugin-example, built only against a
# staged installation (headers + pkg-config), is listed by pmix_info and
# selected by PMIX_MCA_preg=example.
set -u
. "$top_srcdir/test/tools/staged_component.sh"
build_staged_component plugin-example preg_example.c
export PMIX_MCA_mca_base_component_path="$work/components:${PMIX_MCA_mca_base_component_path:-}"
failures=0
"$top_builddir/src/tools/pmix_info/pmix_info" > "$work/info" \
    && grep -Eq '^ *MCA preg: example \(MCA v1\.0\.0, API v1\.0\.0, Component v1\.0\.0\)$' "$work/info" \
    || { echo "FAIL: pmix_info does not list the example"; failures=$((failures + 1)); }

cat > "$work/regex.c" <<'PROG'
#include <pmix_server.h>
#include <stdio.h>
int main(void) {
    char *regex = NULL;
    pmix_status_t rc = PMIx_generate_regex("n1,n2,n3", &regex);
    printf("%d %s\n", rc, regex ? regex : "(null)");
    free(regex);
    return rc == PMIX_SUCCESS ? 0 : 1;
}
PROG
cc -std=c99 -o "$work/regex" "$work/regex.c" $(pkg-config --cflags --libs pmix) \
    || { echo "FAIL: compiling the regex program"; exit 1; }
out=$(PMIX_MCA_preg=example "$work/regex")
[ "$out" = "0 example:n1,n2,n3" ] || { echo "FAIL: selected example gave '$out'"; failures=$((failures + 1)); }
out=$(PMIX_MCA_preg=example PMIX_MCA_preg_example_prefix=site: "$work/regex")
[ "$out" = "0 site:n1,n2,n3" ] || { echo "FAIL: parameter ignored: '$out'"; failures=$((failures + 1)); }
out=$(PMIX_MCA_preg=example,nosuch "$work/regex" 2>&1)
echo "$out" | grep -q nosuch || { echo "FAIL: missing component not named: '$out'"; failures=$((failures + 1)); }

echo "plugin example checks: $failures failed"
[ "$failures" -eq 0 ]
