#!/usr/bin/python3
"""Builds gen/attributes.tsv and gen/constants.tsv from the fact sources.

This is a maintainer tool, run by hand when the fact sources change; the
build never runs it. The committed TSV files are the source of truth that
gen/generate.py reads. Sources (facts only: names, values, types, strings):

  --spec       the standard's attribute list, a TSV (name, quoted string, type, section)
  --headers    a directory holding the reference's public headers
               (Debian libpmix-dev 4.2.2: pmix_common.h, pmix_deprecated.h)
  --reference  test/unit/common/reference_strings.tsv as measured by
               test/tools/measure_reference_strings.sh (optional: without it
               the string and lookup columns stay empty)

Only object-like macros are taken. Excluded on purpose: function-like
macros, include guards, PMIX_EXPORT / PMIX_HAVE_VISIBILITY, *_STATIC_INIT,
version macros, and enumerators of typedef'd enums (the hand-written
headers own those; pmix_value_cmp_t's enumerators are imported as table-only
rows because PMIx_Value_comparison_string needs their strings).
"""

import argparse
import os
import re
import sys

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cexpr  # noqa: E402
import tsv  # noqa: E402

HEADER_FILES = ("pmix_common.h", "pmix_deprecated.h")

# Scalar typedef that introduces a block of constants -> our group name.
TYPEDEF_GROUPS = {
    "pmix_rank_t": "rank", "pmix_proc_state_t": "proc_state",
    "pmix_job_state_t": "job_state", "pmix_status_t": "status",
    "pmix_data_type_t": "data_type", "pmix_scope_t": "scope",
    "pmix_data_range_t": "data_range", "pmix_persistence_t": "persistence",
    "pmix_info_directives_t": "info_directives",
    "pmix_alloc_directive_t": "alloc_directive",
    "pmix_iof_channel_t": "iof_channel",
    "pmix_storage_medium_t": "storage_medium",
    "pmix_storage_accessibility_t": "storage_accessibility",
    "pmix_storage_persistence_t": "storage_persistence",
    "pmix_storage_access_type_t": "storage_access_type",
    "pmix_coord_view_t": "coord_view", "pmix_link_state_t": "link_state",
    "pmix_bind_envelope_t": "bind_envelope", "pmix_locality_t": "locality",
    "pmix_device_type_t": "device_type",
}

NAME_GROUPS = {
    "PMIX_MAX_NSLEN": "limits", "PMIX_MAX_KEYLEN": "limits",
    "PMIX_APP_WILDCARD": "app", "PMIX_BUFFER": "data_type",
    "PMIX_JOB_STATE_PREPPED": "job_state",
    "PMIX_LAUNCHER_RNDZ_URI": "env", "PMIX_LAUNCHER_RNDZ_FILE": "env",
    "PMIX_KEEPALIVE_PIPE": "env",
}

SKIPPED = {"PMIX_EXPORT", "PMIX_HAVE_VISIBILITY"}

# Codes the reference's string functions know although its public headers
# do not define them (internal or removed names). Table-only rows.
UNLISTED = [
    ("PMIX_ERR_FABRIC_NOT_PARSEABLE", "-1363", "status"),
    ("PMIX_ERR_TAKE_NEXT_OPTION", "-1366", "status"),
    ("PMIX_ERR_TEMP_UNAVAILABLE", "-1367", "status"),
    ("PMIX_ERR_WILDCARD", "INT32_MIN", "status"),
    ("PMIX_MODEX", "29", "data_type"),
    ("PMIX_INFO_ARRAY", "44", "data_type"),
]

STRING_FUNCTIONS = {
    "status": "PMIx_Error_string", "proc_state": "PMIx_Proc_state_string",
    "job_state": "PMIx_Job_state_string", "scope": "PMIx_Scope_string",
    "data_range": "PMIx_Data_range_string",
    "persistence": "PMIx_Persistence_string",
    "data_type": "PMIx_Data_type_string",
    "alloc_directive": "PMIx_Alloc_directive_string",
    "link_state": "PMIx_Link_state_string",
    "device_type": "PMIx_Device_type_string",
    "value_cmp": "PMIx_Value_comparison_string",
}


def StripComments(text):
    """Removes C and C++ comments, keeping string literals intact."""
    pattern = re.compile(r'"(?:\\.|[^"\\])*"|//[^\n]*|/\*.*?\*/', re.S)

    def Blank(m):
        s = m.group(0)
        return s if s[0] == '"' else " " + "\n" * s.count("\n")

    return pattern.sub(Blank, text)


def TrailingComment(raw_line):
    m = re.search(r'"[^"]*"\s*//\s*(.*)$', raw_line)
    return m.group(1) if m else ""


def ScanHeader(path):
    """Yields (kind, name, value, raw_line) for typedefs and #defines."""
    raw = open(path, encoding="utf-8").read().replace("\\\n", " ")
    raw_lines = raw.split("\n")
    clean_lines = StripComments(raw).split("\n")  # same line numbering
    for line, raw_line in zip(clean_lines, raw_lines):
        m = re.match(r"\s*typedef\s+[\w ]+?\s+(pmix_\w+_t)\s*;", line)
        if m:
            yield ("typedef", m.group(1), "", line)
            continue
        m = re.match(r"\s*#\s*define\s+(\w+)(\(?)\s*(.*?)\s*$", line)
        if m and not m.group(2):
            yield ("define", m.group(1), m.group(3), raw_line)


def IsExcluded(name, value):
    return (name in SKIPPED or value == "" or name.endswith("_STATIC_INIT")
            or name.startswith("PMIX_VERSION_") or name == "PMIX_NUMERIC_VERSION"
            or name.endswith("_H"))


def NormalizeValue(value):
    """(PMIX_PROC_STATE_ERROR + 3) -> 53; other spellings are kept."""
    m = re.fullmatch(r"\(\s*PMIX_PROC_STATE_ERROR\s*\+\s*(\d+)\s*\)", value)
    return str(50 + int(m.group(1))) if m else value


def HeaderType(comment):
    m = re.match(r"\(([^)]*)\)", comment)
    return m.group(1).strip() if m else ""


def ReadHeaders(directory):
    """Returns (attributes, constants) in header order."""
    attributes, constants = [], []
    for fname in HEADER_FILES:
        deprecated_file = fname == "pmix_deprecated.h"
        group = None
        for kind, name, value, raw in ScanHeader(os.path.join(directory, fname)):
            if kind == "typedef":
                group = TYPEDEF_GROUPS.get(name, group)
                continue
            if IsExcluded(name, value):
                continue
            if re.fullmatch(r'"pmix\.[^"]*"', value):
                comment = TrailingComment(raw)
                attributes.append({
                    "name": name, "string": value.strip('"'),
                    "type": HeaderType(comment),
                    "deprecated": deprecated_file or "DEPRECATED" in comment})
                continue
            grp = NAME_GROUPS.get(name) or ("status" if deprecated_file else group)
            constants.append({"name": name, "value": NormalizeValue(value),
                              "group": grp, "public": 1,
                              "deprecated": int(deprecated_file)})
    return attributes, constants


def ReadEnum(directory, enum_type):
    text = StripComments(open(os.path.join(directory, "pmix_common.h")).read())
    m = re.search(r"typedef\s+enum\s*\{([^}]*)\}\s*" + enum_type + r"\s*;", text)
    names = [n.strip() for n in m.group(1).split(",") if n.strip()]
    return [(n, str(i)) for i, n in enumerate(names)]


def ReadSpec(path):
    rows = []
    for line in open(path, encoding="utf-8"):
        name, string, ctype, where = line.rstrip("\n").split("\t")
        section = where.split(" ", 1)[0]
        rows.append({"name": name, "string": string.strip('"'), "type": ctype,
                     "origin": "std:" + section,
                     "deprecated": "[Deprecated]" in where,
                     "provisional": "[Provisional]" in where})
    return rows


def ReadReference(path):
    """Returns {function: {input: output}} from a reference_strings.tsv."""
    table = {}
    if path:
        for line in open(path, encoding="utf-8"):
            fn, arg, out = line.rstrip("\n").split("\t")
            table.setdefault(fn, {})[arg] = out
    return table


def LookupKind(row, ref):
    """How the reference's attribute lookups treat this attribute."""
    if not ref:
        return ""
    forward = ref["PMIx_Get_attribute_string"].get(row["name"], row["name"])
    backward = ref["PMIx_Get_attribute_name"].get(row["string"], row["string"])
    if forward == row["name"]:
        if backward == row["name"]:
            raise ValueError("%s: found by string only" % row["name"])
        return "none"
    if forward != row["string"]:
        raise ValueError("%s: reference maps it to %r" % (row["name"], forward))
    return "both" if backward == row["name"] else "name"


def MergeAttributes(spec_rows, header_rows, ref, report):
    """The standard's rows in document order, then the reference's extras."""
    header = {r["name"]: r for r in header_rows}
    out = []
    for row in spec_rows:
        h = header.get(row["name"])
        if h and h["string"] != row["string"]:
            report.append("attribute %s: standard \"%s\", OpenPMIx \"%s\" (OpenPMIx kept)"
                          % (row["name"], row["string"], h["string"]))
            row["string"] = h["string"]
        row["openpmix_type"] = h["type"] if h else ""
        out.append(row)
    known = {r["name"] for r in spec_rows}
    for h in header_rows:
        if h["name"] not in known:
            out.append(dict(h, origin="openpmix", provisional=False,
                            openpmix_type=h["type"]))
    for row in out:
        row["deprecated"] = int(bool(row["deprecated"]))
        row["provisional"] = int(bool(row["provisional"]))
        # The standard's PMIX_PROC_INFO attribute cannot be a macro: the
        # data type constant PMIX_PROC_INFO (38) owns that name.
        row["macro"] = 0 if (row["name"] == "PMIX_PROC_INFO" and row["origin"] != "openpmix") else 1
        row["lookup"] = LookupKind(row, ref)
    return out


# Words PMIx_Info_directives_string composes; measured from the reference.
DIRECTIVE_WORDS = {"PMIX_INFO_REQD": "REQUIRED", "PMIX_INFO_ARRAY_END": "END",
                   "PMIX_INFO_REQD_PROCESSED": "PROCESSED",
                   "PMIX_INFO_QUALIFIER": "QUALIFIER"}


def ConstantString(row, values, ref):
    group, name = row["group"], row["name"]
    if group == "info_directives":
        return DIRECTIVE_WORDS.get(name, "")
    if group == "iof_channel":
        out = ref.get("PMIx_IOF_channel_string", {}).get(str(values[name]), "")
        return out.strip() if out.count(" ") == 1 else ""
    fn = STRING_FUNCTIONS.get(group)
    if not fn or fn not in ref:
        return ""
    outputs = ref[fn]
    default = max(set(outputs.values()), key=list(outputs.values()).count)
    out = outputs.get(str(values[name]), default)
    return "" if out == default else out


def BuildConstants(header_rows, directory, ref):
    rows = list(header_rows)
    rows += [{"name": n, "value": v, "group": g, "public": 0, "deprecated": 0}
             for n, v, g in UNLISTED]
    rows += [{"name": n, "value": v, "group": "value_cmp", "public": 0, "deprecated": 0}
             for n, v in ReadEnum(directory, "pmix_value_cmp_t")]
    exprs = {r["name"]: r["value"] for r in rows}
    values = {n: cexpr.Evaluate(e, exprs) for n, e in exprs.items()}
    for row in rows:
        row["string"] = ConstantString(row, values, ref)
    return rows


ATTRIBUTE_COLUMNS = ["name", "string", "type", "openpmix_type", "origin",
                     "deprecated", "provisional", "macro", "lookup"]
CONSTANT_COLUMNS = ["name", "value", "group", "string", "public", "deprecated"]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--spec", required=True)
    ap.add_argument("--headers", required=True)
    ap.add_argument("--reference")
    args = ap.parse_args()
    ref = ReadReference(args.reference)
    header_attrs, header_consts = ReadHeaders(args.headers)
    report = []
    attrs = MergeAttributes(ReadSpec(args.spec), header_attrs, ref, report)
    consts = BuildConstants(header_consts, args.headers, ref)
    tsv.Write(os.path.join(here, "attributes.tsv"), ATTRIBUTE_COLUMNS, attrs)
    tsv.Write(os.path.join(here, "constants.tsv"), CONSTANT_COLUMNS, consts)
    for line in report:
        print(line)
    print("%d attributes, %d constants" % (len(attrs), len(consts)))


if __name__ == "__main__":
    main()
