"""C probes that print the value of constants and the layout of types.

A probe is compiled once per header set (trial compiling drops the lines that
do not compile, see HeaderSet.trial_compile) and run; it prints one
`key=value` line per entry, which the caller compares across header sets.
"""

import re
import subprocess

# Prints a constant as `name=<type>:<value>`. ABI_VAL hands the printer the
# value only for the scalar and string types it knows; anything else (pointers,
# structs, function designators) becomes `other` without being referenced, so
# the probe never needs a library to link or run.
_CONSTANT_PRELUDE = r'''
#include <stdio.h>
%(umbrella)s
#define ABI_NUM_TYPES(V) _Bool: V, char: V, signed char: V, unsigned char: V, short: V, \
    unsigned short: V, int: V, unsigned int: V, long: V, unsigned long: V, long long: V, \
    unsigned long long: V, float: V, double: V, long double: V, char *: V, const char *: V
#define ABI_TYPE(X) _Generic((X), _Bool: "bool", char: "char", signed char: "schar", \
    unsigned char: "uchar", short: "short", unsigned short: "ushort", int: "int", \
    unsigned int: "uint", long: "long", unsigned long: "ulong", long long: "llong", \
    unsigned long long: "ullong", float: "float", double: "double", \
    long double: "ldouble", char *: "str", const char *: "str", default: "other")
#define ABI_VAL(X) _Generic((X), ABI_NUM_TYPES((X)), default: 0)
#define ABI_FN(X) _Generic((X), _Bool: abi_pu, char: abi_pi, signed char: abi_pi, \
    unsigned char: abi_pu, short: abi_pi, unsigned short: abi_pu, int: abi_pi, \
    unsigned int: abi_pu, long: abi_pi, unsigned long: abi_pu, long long: abi_pi, \
    unsigned long long: abi_pu, float: abi_pf, double: abi_pf, long double: abi_pf, \
    char *: abi_ps, const char *: abi_ps, default: abi_po)
#define ABI_P(N, X) ABI_FN(X)(N, ABI_TYPE(X), ABI_VAL(X))
static void abi_pi(const char *n, const char *t, long long v) { printf("%%s=%%s:%%lld\n", n, t, v); }
static void abi_pu(const char *n, const char *t, unsigned long long v) { printf("%%s=%%s:%%llu\n", n, t, v); }
static void abi_pf(const char *n, const char *t, long double v) { printf("%%s=%%s:%%.21Lg\n", n, t, v); }
static void abi_po(const char *n, const char *t, int v) { (void)v; printf("%%s=%%s\n", n, t); }
static void abi_ps(const char *n, const char *t, const char *v) {
    printf("%%s=%%s:", n, t);
    if (v == NULL) { printf("(null)\n"); return; }
    putchar('"');
    for (; *v; ++v) {
        unsigned char c = (unsigned char)*v;
        if (c == '"' || c == '\\') printf("\\%%c", c);
        else if (c < 0x20 || c >= 0x7f) printf("\\x%%02x", c);
        else putchar(c);
    }
    printf("\"\n");
}
'''

_LAYOUT_PRELUDE = r'''
#include <stdio.h>
#include <stddef.h>
%(umbrella)s
#define ABI_Z(K, V) printf("%%s=%%zu\n", K, (size_t)(V))
static void abi_bytes(const char *k, const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    printf("%%s=", k);
    for (size_t i = 0; i < n; ++i) printf("%%02x", b[i]);
    printf("\n");
}
'''


def run_probe(binary):
    out = subprocess.run([binary], capture_output=True, text=True, timeout=120, check=True).stdout
    values = {}
    for line in out.splitlines():
        key, _, value = line.partition('=')
        values[key] = value
    return values


def constant_values(header_set, names):
    """{name: 'type:value'} for names that compile as expressions; and the dropped names."""
    prelude = _CONSTANT_PRELUDE % {'umbrella': header_set.umbrella()}
    entries = [(n, 'ABI_P("%s", %s);' % (n, n)) for n in sorted(names)]
    binary, kept, dropped = header_set.trial_compile('consts', prelude, entries)
    values = run_probe(binary) if kept else {}
    return values, dropped


def layout_entries(db):
    """Probe entries (key, statement) for the layout of every own type of `db`.

    Keys: sizeof(T), alignof(T), offsetof(T,m.n), sizeof(T.m.n). T is every own
    typedef name and every own struct/union/enum tag.
    """
    entries = []
    types = sorted(db.own_typedefs().items()) + sorted(db.own_tags().items())
    for type_name, die in types:
        entries.append(_z('sizeof(%s)' % type_name, 'sizeof(%s)' % type_name))
        entries.append(_z('alignof(%s)' % type_name, '_Alignof(%s)' % type_name))
        target = db.strip_typedefs(die.offset)
        if target is None or target.tag not in ('DW_TAG_structure_type', 'DW_TAG_union_type'):
            continue
        for path, member in db.members(target):
            entries.append(_z('sizeof(%s.%s)' % (type_name, path),
                              'sizeof(((%s *)0)->%s)' % (type_name, path)))
            if 'DW_AT_bit_size' not in member.attrs:
                entries.append(_z('offsetof(%s,%s)' % (type_name, path),
                                  'offsetof(%s, %s)' % (type_name, path)))
    return entries


def _z(key, expr):
    return (key, 'ABI_Z("%s", %s);' % (key, expr))


_DESIGNATOR_RE = re.compile(r'[{,]\s*\.(\w+)')


def _top_designators(body):
    """Member names designated at the outermost brace level of an initializer."""
    depth = 0
    outer = []
    for char in body:
        if char == '{':
            depth += 1
            if depth == 1:
                outer.append('{')
            continue
        if char == '}':
            depth -= 1
            continue
        if depth == 1:
            outer.append(char)
    return set(_DESIGNATOR_RE.findall(''.join(outer)))


def static_init_entries(macros, db):
    """Entries printing the bytes of a static object initialized by each *_STATIC_INIT.

    The object's type comes from the macro name (PMIX_PROC_STATIC_INIT ->
    pmix_proc_t) when that type has every designated member, otherwise from the
    struct typedef with the fewest members that has them all. Static objects
    have zeroed padding and null pointers, so their bytes are comparable.
    """
    entries = []
    structs = {}
    for name, die in db.own_typedefs().items():
        target = db.strip_typedefs(die.offset)
        if target is not None and target.tag == 'DW_TAG_structure_type':
            structs[name] = {c.name() for c in target.children if c.tag == 'DW_TAG_member'}
    for name, macro in sorted(macros.items()):
        if macro.params is not None or not name.endswith('_STATIC_INIT'):
            continue
        wanted = _top_designators(macro.body)
        guess = 'pmix_' + name[len('PMIX_'):-len('_STATIC_INIT')].lower() + '_t'
        fits = sorted((len(m), t) for t, m in structs.items() if wanted <= m)
        if guess in structs and wanted <= structs[guess]:
            type_name = guess
        elif fits:
            type_name = fits[0][1]
        else:
            continue
        key = 'bytes(%s %s)' % (type_name, name)
        entries.append((key, '{ static %s v = %s; abi_bytes("%s", &v, sizeof v); }'
                        % (type_name, name, key)))
    return entries


def layout_values(header_set, entries):
    prelude = _LAYOUT_PRELUDE % {'umbrella': header_set.umbrella()}
    binary, kept, dropped = header_set.trial_compile('layout', prelude, entries)
    values = run_probe(binary) if kept else {}
    return values, dropped
