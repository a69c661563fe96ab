#!/usr/bin/env python3
"""Compares the cross-check outputs of the reference library and ours.

usage: crosscheck_compare.py REF.out OURS.out DEVIATIONS.txt

Every output line is "<key>: <result>", where the key (the text before the
first ':') names one check, e.g. "noinit.values unload(null) bool.true".
Keys must be unique within each output. Lines are paired by key; a key
present in one output only counts as a differing line.

A differing line is accepted only when an entry of DEVIATIONS.txt matches
it. Each entry is one line

    <key pattern> [=> <result pattern>] | <reason>

The key pattern must match the whole key; the optional result pattern must
match the whole of our result (the text after "<key>: "), so that an entry
accepts only the answer it was reviewed for. In patterns '*' matches any
run of characters, '?' any one character, '{a,b,c}' any one of the
alternatives, everything else itself. A line is attributed to the first
entry that matches it. '#' starts a comment line; blank lines are ignored.

Prints the count per entry, every unexpected difference (both lines), every
stale entry (one that matches no differing line) and finally

    crosscheck: N lines compared, I identical, D deliberate deviations, U unexpected

Exit status 0 only when U is 0, no entry is stale, and the keys are unique.
"""
import re
import sys


def pattern_regex(pattern):
    """Translates the '*' and '{a,b}' pattern syntax into a regex."""
    out, depth = [], 0
    for ch in pattern:
        if ch == "*":
            out.append(".*")
        elif ch == "?":
            out.append(".")
        elif ch == "{":
            depth += 1
            out.append("(?:")
        elif ch == "}" and depth > 0:
            depth -= 1
            out.append(")")
        elif ch == "," and depth > 0:
            out.append("|")
        else:
            out.append(re.escape(ch))
    if depth != 0:
        raise ValueError(f"unbalanced braces in pattern: {pattern}")
    return re.compile("".join(out) + r"\Z")


def read_deviations(path):
    entries = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            patterns, sep, reason = line.partition(" | ")
            key, _, result = (p.strip() for p in patterns.partition(" => "))
            if not sep or not key or not reason.strip():
                raise ValueError(f"{path}:{number}: expected "
                                 "'<key pattern> [=> <result pattern>] | <reason>'")
            entries.append({"pattern": patterns.strip(), "key": pattern_regex(key),
                            "result": pattern_regex(result) if result else None,
                            "reason": reason.strip(), "count": 0})
    return entries


def result_of(line):
    """The text after "<key>: " (None for a missing line)."""
    if line is None:
        return None
    return line.split(":", 1)[1][1:] if ":" in line else ""


def matches(entry, key, our_line):
    if not entry["key"].match(key):
        return False
    if entry["result"] is None:
        return True
    result = result_of(our_line)
    return result is not None and entry["result"].match(result) is not None


def read_output(path, problems):
    """Returns {key: line} in output order; duplicate keys are problems."""
    lines = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            key = line.split(":", 1)[0]
            if key in lines:
                problems.append(f"duplicate key in {path}: {key}")
                continue
            lines[key] = line
    return lines


def main(argv):
    if len(argv) != 4:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    problems = []
    ref = read_output(argv[1], problems)
    ours = read_output(argv[2], problems)
    entries = read_deviations(argv[3])
    keys = list(ref) + [k for k in ours if k not in ref]
    identical, unexpected = 0, []
    for key in keys:
        if ref.get(key) == ours.get(key):
            identical += 1
            continue
        entry = next((e for e in entries if matches(e, key, ours.get(key))), None)
        if entry is None:
            unexpected.append(key)
        else:
            entry["count"] += 1

    deliberate = sum(e["count"] for e in entries)
    print("deliberate deviations (crosscheck_deviations.txt):")
    for e in entries:
        print(f"  {e['count']:4d}  {e['pattern']}")
    for key in unexpected[:200]:
        print("UNEXPECTED")
        print(f"  < {ref.get(key, '(no such line)')[:400]}")
        print(f"  > {ours.get(key, '(no such line)')[:400]}")
    if len(unexpected) > 200:
        print(f"... and {len(unexpected) - 200} more unexpected differences")
    stale = [e for e in entries if e["count"] == 0]
    for e in stale:
        print(f"STALE deviation (matches no differing line; remove it): {e['pattern']}")
    for p in problems:
        print(f"KEY PROBLEM: {p}")
    print(f"crosscheck: {len(keys)} lines compared, {identical} identical, "
          f"{deliberate} deliberate deviations, {len(unexpected)} unexpected")
    return 1 if unexpected or stale or problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
