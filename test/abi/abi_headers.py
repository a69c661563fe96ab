"""One set of PMIx public headers: what it declares, and compiling probes against it.

A header set is a list of include directories. Everything declared in a file
under one of those directories is "own"; the public entry points are the six
headers of OpenPMIx 4.2.x (whichever of them exist in the set), plus whatever
they include from their own directories (e.g. a generated pmix_version.h or a
pmix_constants.h).
"""

import os
import re
import subprocess

PUBLIC_HEADERS = ('pmix_common.h', 'pmix.h', 'pmix_server.h', 'pmix_tool.h',
                  'pmix_deprecated.h', 'pmix_version.h')

_LINEMARKER_RE = re.compile(r'^# \d+ "(.*)"')
_DEFINE_RE = re.compile(r'^#define ([A-Za-z_]\w*)(\([^)]*\))?(?: (.*))?$')
_UNDEF_RE = re.compile(r'^#undef ([A-Za-z_]\w*)')
_AUX_RE = re.compile(r'^/\* (.*):(\d+):([A-Z]+) \*/ (.*)$')
_FUNC_NAME_RE = re.compile(r'([A-Za-z_]\w*) \(')
_DIAG_LINE_RE = re.compile(r'(?:^|\s)(\S*?)([A-Za-z0-9_.-]+\.c):(\d+):(?:\d+:)?')


class Macro:
    def __init__(self, name, params, body, path):
        self.name = name
        self.params = params  # None for object-like, else list of parameter names
        self.body = body
        self.path = path

    def arity(self):
        return None if self.params is None else len(self.params)


class HeaderSet:
    def __init__(self, label, include_dirs, cc, workdir):
        self.label = label
        self.include_dirs = list(include_dirs)
        self.cc = list(cc)  # argv prefix, e.g. ['gcc']
        self.workdir = workdir
        self.real_dirs = [os.path.realpath(d) + os.sep for d in include_dirs]

    def is_own_path(self, path):
        real = os.path.realpath(path)
        return any(real.startswith(d) for d in self.real_dirs)

    def has_headers(self):
        return any(os.path.isfile(os.path.join(d, 'pmix.h')) for d in self.include_dirs)

    def umbrella(self):
        """C text that includes every public header this set has."""
        lines = []
        for header in PUBLIC_HEADERS:
            lines.append('#if __has_include(<%s>)' % header)
            lines.append('#include <%s>' % header)
            lines.append('#endif')
        return '\n'.join(lines) + '\n'

    def path(self, name):
        return os.path.join(self.workdir, '%s_%s' % (self.label, name))

    def write(self, name, text):
        path = self.path(name)
        with open(path, 'w') as out:
            out.write(text)
        return path

    def cflags(self):
        return ['-std=gnu11', '-w'] + ['-I' + d for d in self.include_dirs]

    def run_cc(self, args, check=True):
        return subprocess.run(self.cc + self.cflags() + args, capture_output=True, text=True,
                              timeout=600, check=check)

    def macros(self):
        """{name: Macro} for every macro defined (and not undefined) in own files."""
        src = self.write('umbrella.c', self.umbrella())
        text = self.run_cc(['-E', '-dD', src]).stdout
        result = {}
        current = ''
        for line in text.splitlines():
            marker = _LINEMARKER_RE.match(line)
            if marker:
                current = marker.group(1)
                continue
            if not line.startswith('#'):
                continue
            define = _DEFINE_RE.match(line)
            if define and self.is_own_path(current):
                params = define.group(2)
                if params is not None:
                    params = [p.strip() for p in params[1:-1].split(',') if p.strip()]
                result[define.group(1)] = Macro(define.group(1), params,
                                                (define.group(3) or '').strip(), current)
                continue
            undef = _UNDEF_RE.match(line)
            if undef and self.is_own_path(current):
                result.pop(undef.group(1), None)
        return result

    def functions(self):
        """{name: prototype text} for every function declared or defined in own files."""
        src = self.write('umbrella.c', self.umbrella())
        aux = self.path('aux.txt')
        self.run_cc(['-c', '-aux-info', aux, src, '-o', self.path('umbrella.o')])
        result = {}
        with open(aux) as handle:
            for line in handle:
                match = _AUX_RE.match(line.rstrip('\n'))
                if not match or not self.is_own_path(match.group(1)):
                    continue
                decl = re.sub(r'/\*.*?\*/', '', match.group(4)).strip()
                name = _FUNC_NAME_RE.search(decl)
                if name:
                    result.setdefault(name.group(1), decl)
        return result

    def trial_compile(self, label, prelude, entries, link_flags=()):
        """Compiles a probe made of `prelude` and one line per entry, dropping entries
        that do not compile, until the rest does.

        entries: list of (key, c_statement). Returns (binary path, kept keys, dropped keys).
        A statement is dropped when any diagnostic (error or its notes; warnings are
        off) points at its line. Dropped entries are retried alone once, so that an
        entry that only failed because of a neighbour's error comes back.
        """
        kept, dropped = self._converge(label, prelude, entries, link_flags)
        if dropped:
            retry = [e for e in entries if e[0] in set(dropped)]
            back, still = self._converge(label + '_retry', prelude, retry, link_flags)
            if back:
                keys = set(kept) | set(back)
                kept, _ = self._converge(label, prelude, [e for e in entries if e[0] in keys],
                                         link_flags)
                dropped = [k for k, _ in entries if k not in set(kept)]
        binary = self.path(label)
        return binary, kept, dropped

    def _converge(self, label, prelude, entries, link_flags):
        live = list(entries)
        dropped = []
        for _ in range(50):
            src_name = '%s_%s.c' % (self.label, label)
            text, line_of = _probe_text(prelude, live)
            src = os.path.join(self.workdir, src_name)
            with open(src, 'w') as out:
                out.write(text)
            proc = self.run_cc(['-fmax-errors=0', '-fdiagnostics-plain-output', src, '-o',
                                self.path(label)] + list(link_flags), check=False)
            if proc.returncode == 0:
                return [k for k, _ in live], dropped
            bad = _bad_lines(proc.stderr, src_name)
            bad_keys = {line_of[n] for n in bad if n in line_of}
            if not bad_keys:
                raise RuntimeError('%s probe %s does not compile outside its entries:\n%s'
                                   % (self.label, label, proc.stderr[-4000:]))
            dropped += [k for k, _ in live if k in bad_keys]
            live = [e for e in live if e[0] not in bad_keys]
        raise RuntimeError('%s probe %s: too many compile rounds' % (self.label, label))


def _probe_text(prelude, entries):
    lines = prelude.rstrip('\n').split('\n')
    lines.append('int main(void) {')
    line_of = {}
    for key, statement in entries:
        lines.append('    ' + statement)
        line_of[len(lines)] = key
    lines.append('    return 0;')
    lines.append('}')
    return '\n'.join(lines) + '\n', line_of


def _bad_lines(stderr, src_name):
    bad = set()
    for line in stderr.splitlines():
        for match in _DIAG_LINE_RE.finditer(line):
            if match.group(2) == src_name:
                bad.add(int(match.group(3)))
    return bad
