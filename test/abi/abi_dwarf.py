"""Type facts of a set of C headers, read from the compiler's DWARF output.

The headers are compiled once with `-g -gdwarf-4 -fno-eliminate-unused-debug-types`
so that every type they declare appears in the object's .debug_info, which
`readelf --debug-dump=info` prints as text. That is the compiler's own view of
each struct, union, enum, typedef and function type (sizes, member offsets,
enumerator values), so no C declaration parsing is needed here.

Only declarations that come from files inside the header set's include
directories count ("own" declarations); system types are reached only as the
targets of references.
"""

import os
import re
import subprocess

_DIE_RE = re.compile(r'^\s*<(\d+)><([0-9a-f]+)>: Abbrev Number: (\d+)(?: \((\w+)\))?')
_ATTR_RE = re.compile(r'^\s*<[0-9a-f]+>\s+(DW_AT_\w+)\s*:\s*(.*)$')
_REF_RE = re.compile(r'<0x([0-9a-f]+)>')
_FORM_RE = re.compile(r'^\((\w+)\)\s*')
_STR_PREFIX_RE = re.compile(r'^\((?:indirect (?:line )?string, )?offset: 0x[0-9a-f]+\):\s*')


class Die:
    """One debugging information entry: tag, attributes, children."""

    def __init__(self, offset, tag, parent):
        self.offset = offset
        self.tag = tag
        self.attrs = {}
        self.children = []
        self.parent = parent

    def name(self):
        return self.attrs.get('DW_AT_name')

    def ref(self, attr='DW_AT_type'):
        return self.attrs.get(attr)

    def int_attr(self, attr, default=None):
        value = self.attrs.get(attr)
        if value is None:
            return default
        return int(value, 0)


def _parse_attr_value(attr, raw):
    form = None
    match = _FORM_RE.match(raw)
    if match:
        form = match.group(1)
        raw = raw[match.end():]
    if form in ('ref4', 'ref1', 'ref2', 'ref8', 'ref_udata', 'ref_addr') or attr == 'DW_AT_type':
        ref = _REF_RE.search(raw)
        return int(ref.group(1), 16) if ref else None
    if attr in ('DW_AT_name',):
        return _STR_PREFIX_RE.sub('', raw).strip()
    token = raw.strip().split()[0] if raw.strip() else ''
    return token


def parse_readelf(text):
    """Parses `readelf --debug-dump=info --wide` output into {offset: Die}."""
    dies = {}
    stack = []
    current = None
    for line in text.splitlines():
        match = _DIE_RE.match(line)
        if match:
            level = int(match.group(1))
            tag = match.group(4)
            del stack[level:]
            if tag is None:  # a null entry closes a sibling chain
                current = None
                continue
            parent = stack[-1] if stack else None
            current = Die(int(match.group(2), 16), tag, parent)
            dies[current.offset] = current
            if parent is not None:
                parent.children.append(current)
            stack.append(current)
            continue
        match = _ATTR_RE.match(line)
        if match and current is not None:
            current.attrs[match.group(1)] = _parse_attr_value(match.group(1), match.group(2))
    return dies


def parse_file_table(text):
    """Parses `readelf --debug-dump=rawline` (DWARF 4) into {index: path}."""
    dirs = {0: ''}
    files = {}
    section = None
    for line in text.splitlines():
        if 'The Directory Table' in line:
            section = 'dirs'
            continue
        if 'The File Name Table' in line:
            section = 'files'
            continue
        if section and not line.strip():
            if section == 'files' and files:
                section = None
            continue
        fields = line.split()
        if section == 'dirs' and len(fields) == 2 and fields[0].isdigit():
            dirs[int(fields[0])] = fields[1]
        elif section == 'files' and len(fields) >= 5 and fields[0].isdigit():
            directory = dirs.get(int(fields[1]), '')
            files[int(fields[0])] = os.path.join(directory, ' '.join(fields[4:]))
    return files


class TypeDb:
    """All DIEs of one compilation, with renderers and own-declaration queries."""

    def __init__(self, dies, files, own_dirs):
        self.dies = dies
        self.files = files
        self.own_dirs = [os.path.realpath(d) + os.sep for d in own_dirs]
        self.typedef_of = {}  # anonymous aggregate offset -> first typedef name
        for die in dies.values():
            if die.tag == 'DW_TAG_typedef' and die.ref() in dies:
                self.typedef_of.setdefault(die.ref(), die.name())

    def is_own(self, die):
        index = die.int_attr('DW_AT_decl_file')
        path = self.files.get(index) if index is not None else None
        if not path:
            return False
        real = os.path.realpath(path)
        return any(real.startswith(d) for d in self.own_dirs)

    def top_level(self, tag):
        return [d for d in self.dies.values()
                if d.tag == tag and d.parent is not None and d.parent.parent is None]

    def own_typedefs(self):
        return {d.name(): d for d in self.top_level('DW_TAG_typedef') if self.is_own(d)}

    def own_tags(self):
        """{'struct x' / 'union x' / 'enum x': die} for named aggregates declared in own files."""
        kinds = {'DW_TAG_structure_type': 'struct', 'DW_TAG_union_type': 'union',
                 'DW_TAG_enumeration_type': 'enum'}
        result = {}
        for tag, word in kinds.items():
            for die in self.top_level(tag):
                if die.name() and self.is_own(die):
                    if die.name() not in result or 'DW_AT_declaration' not in die.attrs:
                        result['%s %s' % (word, die.name())] = die
        return result

    def own_enumerators(self):
        """{name: (value, owning type name)} for enumerators of own enum types."""
        result = {}
        for enum in self.top_level('DW_TAG_enumeration_type'):
            if not self.is_own(enum):
                continue
            owner = enum.name() and 'enum ' + enum.name() or self.typedef_of.get(enum.offset, '?')
            for child in enum.children:
                if child.tag == 'DW_TAG_enumerator':
                    result[child.name()] = (child.int_attr('DW_AT_const_value'), owner)
        return result

    def variable(self, name):
        for die in self.top_level('DW_TAG_variable'):
            if die.name() == name:
                return die
        return None

    def strip_typedefs(self, offset):
        die = self.dies.get(offset)
        while die is not None and die.tag == 'DW_TAG_typedef':
            die = self.dies.get(die.ref())
        return die

    def render(self, offset, canonical):
        """C-like text of a type. canonical=True resolves every typedef.

        Aggregates are named by tag, or by the typedef that names them when
        anonymous, so a canonical rendering does not depend on tag spelling.
        """
        die = self.dies.get(offset) if offset is not None else None
        if die is None:
            return 'void'
        tag = die.tag
        if tag == 'DW_TAG_base_type':
            return die.name()
        if tag == 'DW_TAG_typedef':
            return self.render(die.ref(), True) if canonical else die.name()
        if tag == 'DW_TAG_pointer_type':
            return self.render(die.ref(), canonical) + '*'
        if tag in ('DW_TAG_const_type', 'DW_TAG_volatile_type', 'DW_TAG_restrict_type'):
            word = tag[7:-5]
            return '%s %s' % (word, self.render(die.ref(), canonical))
        if tag == 'DW_TAG_array_type':
            return self.render(die.ref(), canonical) + self._array_dims(die)
        if tag == 'DW_TAG_subroutine_type':
            return self.render_function(die, canonical)
        if tag in ('DW_TAG_structure_type', 'DW_TAG_union_type', 'DW_TAG_enumeration_type'):
            word = {'DW_TAG_structure_type': 'struct', 'DW_TAG_union_type': 'union',
                    'DW_TAG_enumeration_type': 'enum'}[tag]
            if canonical and die.offset in self.typedef_of:
                return '%s <%s>' % (word, self.typedef_of[die.offset])
            if die.name():
                return '%s %s' % (word, die.name())
            return '%s <anonymous:%s>' % (word, self._anonymous_shape(die))
        return '<%s>' % tag

    def _array_dims(self, die):
        dims = ''
        for child in die.children:
            if child.tag != 'DW_TAG_subrange_type':
                continue
            upper = child.int_attr('DW_AT_upper_bound')
            count = child.int_attr('DW_AT_count')
            if count is None and upper is not None:
                count = upper + 1
            dims += '[%s]' % ('' if count is None else count)
        return dims

    def _anonymous_shape(self, die):
        return ','.join(c.name() or '?' for c in die.children if c.tag in
                        ('DW_TAG_member', 'DW_TAG_enumerator'))

    def render_function(self, die, canonical):
        params = []
        for child in die.children:
            if child.tag == 'DW_TAG_formal_parameter':
                params.append(self._param(child.ref(), canonical))
            elif child.tag == 'DW_TAG_unspecified_parameters':
                params.append('...')
        if not params and 'DW_AT_prototyped' in die.attrs:
            params = ['void']
        return '%s(%s)' % (self.render(die.ref(), canonical), ', '.join(params))

    def _param(self, offset, canonical):
        # Top-level qualifiers of a parameter are not part of the function type.
        die = self.dies.get(offset)
        while die is not None and die.tag in ('DW_TAG_const_type', 'DW_TAG_volatile_type'):
            offset = die.ref()
            die = self.dies.get(offset)
        return self.render(offset, canonical)

    def members(self, aggregate, prefix=''):
        """Flattened members [(path, die)], descending into anonymous nested aggregates.

        Anonymous nested types (e.g. `union { ... } data;`) are part of the
        layout of the outer type; named ones have their own typedef entry.
        """
        result = []
        for child in aggregate.children:
            if child.tag != 'DW_TAG_member':
                continue
            path = prefix + child.name() if child.name() else prefix.rstrip('.')
            if child.name():
                result.append((path, child))
            target = self.dies.get(child.ref())
            if (target is not None and target.tag in ('DW_TAG_structure_type', 'DW_TAG_union_type')
                    and not target.name() and target.offset not in self.typedef_of):
                inner_prefix = path + '.' if child.name() else prefix
                result.extend(self.members(target, inner_prefix))
        return result


def load(cc, source_path, object_path, include_dirs, own_dirs, extra_flags=()):
    """Compiles source_path with full debug types and returns its TypeDb."""
    cmd = list(cc) + ['-std=gnu11', '-c', '-g', '-gdwarf-4', '-fno-eliminate-unused-debug-types', '-w']
    cmd += ['-I' + d for d in include_dirs] + list(extra_flags)
    cmd += [source_path, '-o', object_path]
    subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=300)
    info = subprocess.run(['readelf', '--debug-dump=info', '--wide', object_path], check=True,
                          capture_output=True, text=True, timeout=300).stdout
    lines = subprocess.run(['readelf', '--debug-dump=rawline', object_path], check=True,
                           capture_output=True, text=True, timeout=300).stdout
    return TypeDb(parse_readelf(info), parse_file_table(lines), own_dirs)
