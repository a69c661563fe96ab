#!/usr/bin/python3
"""Generates the constant header and the lookup tables from gen/*.tsv.

Inputs (the single source of truth, see gen/README.md):
  gen/groups.tsv      one row per group of constants: C type, string function
  gen/constants.tsv   every object-like constant (and a few table-only codes)
  gen/attributes.tsv  every attribute macro
Outputs:
  include/pmix_constants.h          the public #defines
  src/common/generated/tables.cc    data behind src/common/tables.h

  generate.py           rewrite the outputs
  generate.py --check   regenerate into a temporary directory; exit 1 and
                        print a diff when the committed outputs are stale
"""

import argparse
import difflib
import os
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import model  # noqa: E402
import render_header  # noqa: E402
import render_tables  # noqa: E402

OUTPUTS = {
    "include/pmix_constants.h": render_header.Render,
    "src/common/generated/tables.cc": render_tables.Render,
}


def WriteAll(data, root):
    for rel, render in OUTPUTS.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(render(data))


def Check(data, top):
    """Returns the number of stale outputs, printing a diff for each."""
    stale = 0
    with tempfile.TemporaryDirectory(prefix="pmixx-gen-") as tmp:
        WriteAll(data, tmp)
        for rel in OUTPUTS:
            fresh = open(os.path.join(tmp, rel), encoding="utf-8").read()
            path = os.path.join(top, rel)
            old = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
            if fresh != old:
                stale += 1
                sys.stdout.writelines(difflib.unified_diff(
                    old.splitlines(True), fresh.splitlines(True),
                    "a/" + rel, "b/" + rel))
    return stale


def main():
    gen_dir = os.path.dirname(os.path.abspath(__file__))
    top = os.path.dirname(gen_dir)
    ap = argparse.ArgumentParser(description="Generate constants and tables.")
    ap.add_argument("--check", action="store_true",
                    help="only verify that the committed outputs are current")
    args = ap.parse_args()
    try:
        data = model.Load(gen_dir)
    except model.TableError as e:
        print("generate.py: %s" % e, file=sys.stderr)
        return 2
    if args.check:
        stale = Check(data, top)
        if stale:
            print("generate.py: %d output(s) stale; run gen/generate.py" % stale,
                  file=sys.stderr)
            return 1
        return 0
    WriteAll(data, top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
