"""Evaluates the small C constant expressions used in gen/constants.tsv.

Grammar: expr := term (('+' | '-') term)* ; term := ('-' term) | number |
name | '(' expr ')'. Numbers are decimal or 0x-hex integer literals; names
are the <stdint.h> limits below or other constants (resolved through the
`names` mapping given by the caller). String literals evaluate to
themselves (as Python str).
"""

import re

LIMITS = {
    "UINT8_MAX": 0xFF, "UINT16_MAX": 0xFFFF, "UINT32_MAX": 0xFFFFFFFF,
    "UINT64_MAX": 0xFFFFFFFFFFFFFFFF, "INT32_MIN": -(1 << 31),
    "INT32_MAX": (1 << 31) - 1,
}

_TOKEN = re.compile(r"\s*(0[xX][0-9a-fA-F]+|\d+|[A-Za-z_]\w*|[-+()])")


def _Tokens(text):
    pos, out = 0, []
    while pos < len(text.rstrip()):
        m = _TOKEN.match(text, pos)
        if not m:
            raise ValueError("cannot parse C expression %r" % text)
        out.append(m.group(1))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text, resolve):
        self.tokens = _Tokens(text)
        self.resolve = resolve
        self.text = text

    def Fail(self):
        raise ValueError("cannot parse C expression %r" % self.text)

    def Next(self):
        if not self.tokens:
            self.Fail()
        return self.tokens.pop(0)

    def Expr(self):
        value = self.Term()
        while self.tokens and self.tokens[0] in "+-":
            op = self.Next()
            rhs = self.Term()
            value = value + rhs if op == "+" else value - rhs
        return value

    def Term(self):
        tok = self.Next()
        if tok == "-":
            return -self.Term()
        if tok == "(":
            value = self.Expr()
            if self.Next() != ")":
                self.Fail()
            return value
        if tok[0].isdigit():
            return int(tok, 0)
        if tok in LIMITS:
            return LIMITS[tok]
        return self.resolve(tok)


def Evaluate(text, names=None, _active=()):
    """Returns the value of `text`; `names` maps constant name -> expression."""
    text = text.strip()
    if text.startswith('"'):
        return text[1:-1]

    def Resolve(name):
        if names is None or name not in names or name in _active:
            raise ValueError("unknown or cyclic name %r in %r" % (name, text))
        return Evaluate(names[name], names, _active + (name,))

    parser = _Parser(text, Resolve)
    value = parser.Expr()
    if parser.tokens:
        parser.Fail()
    return value
