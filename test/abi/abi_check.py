#!/usr/bin/python3
"""ABI/API conformance of our PMIx headers against a reference (OpenPMIx 4.2.x).

Usage:
  abi_check.py --ref-include DIR --ours-include DIR [--ours-include DIR2 ...]
               [--cc gcc] [--allowed FILE] [--keep] [--verbose]

Compares, for every name both header sets declare:
  constants    value and C type of every object-like macro and enumerator
               (printed by a compiled probe, so expressions are evaluated)
  layouts      sizeof/_Alignof of every typedef and tag, sizeof/offsetof of every
               member (nested anonymous unions included), from a compiled probe
  types        the canonical type behind every typedef, every struct member and
               every enumerator (value and owning enum), from DWARF
  functions    the canonical prototype of every declared function, from DWARF
  macros       object-like vs function-like, and the arity of function-like ones
and lists what the reference declares that ours does not ("missing"), minus the
names in the allow-list. Exit status: 0 when nothing mismatches and nothing is
missing, 1 otherwise, 77 (automake SKIP) when the reference headers are absent.
"""

import argparse
import shlex
import os
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree clean (and distcheck read-only)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import abi_dwarf  # noqa: E402
import abi_headers  # noqa: E402
import abi_probes  # noqa: E402

_VERSION_MACROS = ('PMIX_VERSION_MAJOR', 'PMIX_VERSION_MINOR', 'PMIX_VERSION_RELEASE',
                   'PMIX_NUMERIC_VERSION')
_SKIP = 77


class Report:
    def __init__(self):
        self.facts = 0
        self.by_section = {}
        self.mismatches = []  # (section, name, ref, ours)
        self.notes = []
        self.missing = []  # (kind, name)
        self.allowed = []
        self.skipped = []
        self.versions = []
        self.extra = []

    def compare(self, section, name, ref, ours):
        self.facts += 1
        self.by_section[section] = self.by_section.get(section, 0) + 1
        if ref != ours:
            self.mismatches.append((section, name, ref, ours))


def load_allowed(path):
    allowed = set()
    if path and os.path.isfile(path):
        with open(path) as handle:
            for line in handle:
                line = line.split('#', 1)[0].strip()
                if line:
                    allowed.add(line)
    return allowed


class Side:
    """Everything gathered about one header set."""

    def __init__(self, header_set):
        self.hs = header_set
        self.macros = header_set.macros()
        self.functions = header_set.functions()
        source = header_set.umbrella() + ''.join(
            '__typeof__(%s) *abi_fn__%s;\n' % (f, f) for f in sorted(self.functions))
        src = header_set.write('types.c', source)
        self.db = abi_dwarf.load(header_set.cc, src, header_set.path('types.o'),
                                 header_set.include_dirs, header_set.include_dirs)
        self.typedefs = self.db.own_typedefs()
        self.tags = self.db.own_tags()
        self.enumerators = self.db.own_enumerators()

    def constant_names(self):
        names = {n for n, m in self.macros.items() if m.params is None}
        return names | set(self.enumerators)

    def kind(self, name):
        if name in self.macros:
            return 'function-like macro' if self.macros[name].params is not None else 'macro'
        if name in self.enumerators:
            return 'enumerator'
        if name in self.functions:
            return 'function'
        if name in self.typedefs or name in self.tags:
            return 'type'
        return None


def check_kinds(ref, ours, report):
    """Missing names, and names whose kind differs (macro vs enumerator, ...)."""
    names = set(ref.macros) | set(ref.enumerators) | set(ref.functions) | set(ref.typedefs)
    for name in sorted(names):
        ref_kind, our_kind = ref.kind(name), ours.kind(name)
        if our_kind is None:
            report.missing.append((ref_kind, name))
            continue
        report.compare('kind', name, ref_kind, our_kind)
        if ref_kind == 'function-like macro' and our_kind == ref_kind:
            report.compare('macro arity', name, _arity(ref.macros[name]),
                           _arity(ours.macros[name], ref.macros[name].arity()))
    for tag in sorted(ref.tags):
        if tag not in ours.tags:
            report.missing.append(('tag', tag))
    ours_names = set(ours.macros) | set(ours.enumerators) | set(ours.functions) | set(ours.typedefs)
    report.extra = sorted(ours_names - names) + sorted(set(ours.tags) - set(ref.tags))


def _arity(macro, wanted=None):
    """Arity text of a function-like macro. A variadic macro (`m, ...`) that
    accepts `wanted` arguments reports `wanted`, so it compares equal."""
    params = macro.params
    if params and params[-1].endswith('...'):
        fixed = len(params) - 1
        if wanted is not None and wanted >= fixed:
            return wanted
        return '%d+' % fixed
    return len(params)


def check_constants(ref, ours, report):
    names = ref.constant_names() & ours.constant_names()
    ref_values, ref_dropped = abi_probes.constant_values(ref.hs, names)
    report.skipped = sorted(ref_dropped)
    usable = names - set(ref_dropped)
    our_values, _ = abi_probes.constant_values(ours.hs, usable)
    for name in sorted(usable):
        ref_value = ref_values.get(name)
        our_value = our_values.get(name, '<not an expression>')
        if name in _VERSION_MACROS:
            report.versions.append((name, ref_value, our_value))
            continue
        report.compare('constant', name, ref_value, our_value)


def check_layouts(ref, ours, report):
    entries = abi_probes.layout_entries(ref.db)
    inits = [e for e in abi_probes.static_init_entries(ref.macros, ref.db)
             if e[0].split()[-1][:-1] in ours.macros]
    ref_values, ref_dropped = abi_probes.layout_values(ref.hs, entries + inits)
    report.skipped = sorted(set(report.skipped) | {_layout_type(k) if k.startswith('bytes(') else k
                                                    for k in ref_dropped})
    compared = {k.split()[-1][:-1] for k, _ in inits if k in ref_values}
    report.skipped = [n for n in report.skipped if n not in compared]
    present = set(ours.typedefs) | set(ours.tags) | set(ours.macros)
    usable = [e for e in entries + inits
              if e[0] in ref_values and _layout_type(e[0]) in present]
    our_values, _ = abi_probes.layout_values(ours.hs, usable)
    for key, _ in usable:
        report.compare('layout', key, ref_values[key], our_values.get(key, '<does not compile>'))


def _layout_type(key):
    """The type (or, for bytes(T MACRO), the macro) a layout key depends on."""
    inner = key[key.index('(') + 1:-1]
    if key.startswith('bytes('):
        return inner.split()[-1]
    return inner.split(',')[0].split('.')[0]


def check_types(ref, ours, report):
    for name, die in sorted(ref.typedefs.items()):
        other = ours.typedefs.get(name)
        if other is None:
            continue
        report.compare('typedef', name, ref.db.render(die.ref(), True),
                       ours.db.render(other.ref(), True))
        spelled = (ref.db.render(die.ref(), False), ours.db.render(other.ref(), False))
        if spelled[0] != spelled[1]:
            report.notes.append('typedef %s spelled: ref %s | ours %s' % ((name,) + spelled))
        _compare_members(ref, ours, name, report)
    for name, (value, owner) in sorted(ref.enumerators.items()):
        if name in ours.enumerators:
            report.compare('enumerator', name, (value, owner), ours.enumerators[name])


def _compare_members(ref, ours, name, report):
    ref_target = ref.db.strip_typedefs(ref.typedefs[name].offset)
    our_target = ours.db.strip_typedefs(ours.typedefs[name].offset)
    aggregates = ('DW_TAG_structure_type', 'DW_TAG_union_type')
    if ref_target is None or ref_target.tag not in aggregates:
        return
    if our_target is None or our_target.tag not in aggregates:
        return  # the typedef comparison already reports it
    ref_members = ref.db.members(ref_target)
    our_members = dict(ours.db.members(our_target))
    report.compare('members', name, [p for p, _ in ref_members],
                   [p for p, _ in ours.db.members(our_target)])
    for path, member in ref_members:
        if path in our_members:
            report.compare('member type', '%s.%s' % (name, path),
                           ref.db.render(member.ref(), True),
                           ours.db.render(our_members[path].ref(), True))


def check_functions(ref, ours, report):
    for name in sorted(set(ref.functions) & set(ours.functions)):
        ref_var = ref.db.variable('abi_fn__' + name)
        our_var = ours.db.variable('abi_fn__' + name)
        ref_fn = ref.db.dies[ref_var.ref()].ref()
        our_fn = ours.db.dies[our_var.ref()].ref()
        report.compare('prototype', name, ref.db.render(ref_fn, True), ours.db.render(our_fn, True))
        spelled = (ref.db.render(ref_fn, False), ours.db.render(our_fn, False))
        if spelled[0] != spelled[1]:
            report.notes.append('%s spelled: ref %s | ours %s' % ((name,) + spelled))


def print_report(report, allowed, verbose):
    missing = [(k, n) for k, n in report.missing if n not in allowed]
    waived = [(k, n) for k, n in report.missing if n in allowed]
    for section, name, ref_value, our_value in report.mismatches:
        print('MISMATCH %s %s: ref=%s ours=%s' % (section, name, ref_value, our_value))
    for kind, name in missing:
        print('MISSING %s %s' % (kind, name))
    for name, ref_value, our_value in report.versions:
        print('version (not counted) %s: ref=%s ours=%s' % (name, ref_value, our_value))
    if waived:
        print('allowed missing (allowed_missing.txt): %d (%s)'
              % (len(waived), ' '.join(n for _, n in waived)))
    print('skipped: %d (%s)' % (len(report.skipped), ' '.join(report.skipped)))
    print('notes (compatible spelling differences, not counted): %d' % len(report.notes))
    print('extra in ours (not counted): %d' % len(report.extra))
    if verbose:
        for note in report.notes:
            print('  note: ' + note)
        print('  extra: ' + ' '.join(report.extra))
    print('facts by kind: ' + ', '.join('%s %d' % kv for kv in sorted(report.by_section.items())))
    print('missing in ours: %d' % len(missing))
    print('ABI: %d facts compared, %d mismatches, %d missing, %d skipped'
          % (report.facts, len(report.mismatches), len(missing), len(report.skipped)))
    return 0 if not report.mismatches and not missing else 1


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--ref-include', required=True, action='append')
    parser.add_argument('--ours-include', required=True, action='append')
    parser.add_argument('--cc', default='gcc')
    parser.add_argument('--allowed', default=os.path.join(here, 'allowed_missing.txt'))
    parser.add_argument('--keep', action='store_true', help='keep the probe directory')
    parser.add_argument('--verbose', action='store_true')
    args = parser.parse_args(argv)
    workdir = tempfile.mkdtemp(prefix='abi_check.')
    try:
        cc = shlex.split(args.cc)
        ref_set = abi_headers.HeaderSet('ref', args.ref_include, cc, workdir)
        if not ref_set.has_headers():
            print('SKIP: reference headers not found in %s' % ' '.join(args.ref_include))
            return _SKIP
        ours_set = abi_headers.HeaderSet('ours', args.ours_include, cc, workdir)
        try:
            ref, ours = Side(ref_set), Side(ours_set)
        except subprocess.CalledProcessError as error:
            print('ERROR: %s failed:\n%s' % (' '.join(error.cmd), error.stderr[-6000:]))
            return 1
        report = Report()
        check_kinds(ref, ours, report)
        check_constants(ref, ours, report)
        check_layouts(ref, ours, report)
        check_types(ref, ours, report)
        check_functions(ref, ours, report)
        return print_report(report, load_allowed(args.allowed), args.verbose)
    finally:
        if args.keep:
            print('probe directory kept: ' + workdir)
        else:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
