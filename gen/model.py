"""Loads and validates gen/*.tsv into plain Python objects.

Every consistency rule the outputs rely on is checked here, so the
renderers can trust their input: unique names, known groups, evaluable
values, one string per value, one preferred attribute per key string,
attribute types that map to a data type.
"""

import collections
import os
import re

import cexpr
import tsv


class TableError(Exception):
    pass


Group = collections.namedtuple(
    "Group", "name c_type function strings default title")
Constant = collections.namedtuple(
    "Constant", "name expr value group string public deprecated")
Attribute = collections.namedtuple(
    "Attribute", "name string c_type type_code openpmix_type_code origin "
    "deprecated provisional macro knows_name knows_string")
Data = collections.namedtuple("Data", "groups constants attributes")

# C type (as the standard or OpenPMIx writes it, blanks and * removed) ->
# data type constant.
# PMIX_UNDEF: the value's type varies, or the attribute carries no value.
TYPE_CODES = {
    "bool": "PMIX_BOOL", "char": "PMIX_STRING", "string": "PMIX_STRING",
    "int": "PMIX_INT", "int32_t": "PMIX_INT32", "uint16_t": "PMIX_UINT16",
    "uint32_t": "PMIX_UINT32", "uint64_t": "PMIX_UINT64", "size_t": "PMIX_SIZE",
    "float": "PMIX_FLOAT", "double": "PMIX_DOUBLE", "pid_t": "PMIX_PID",
    "time_t": "PMIX_TIME", "pmix_status_t": "PMIX_STATUS",
    "pmix_rank_t": "PMIX_PROC_RANK", "pmix_proc_t": "PMIX_PROC",
    "pmix_data_array_t": "PMIX_DATA_ARRAY", "array": "PMIX_DATA_ARRAY",
    "pmix_proc_tarray": "PMIX_DATA_ARRAY",
    "pmix_byte_object_t": "PMIX_BYTE_OBJECT", "pmix_envar_t": "PMIX_ENVAR",
    "pmix_scope_t": "PMIX_SCOPE", "pmix_data_range_t": "PMIX_DATA_RANGE",
    "pmix_persistence_t": "PMIX_PERSIST", "pmix_proc_state_t": "PMIX_PROC_STATE",
    "pmix_link_state_t": "PMIX_LINK_STATE", "pmix_locality_t": "PMIX_LOCTYPE",
    "pmix_device_type_t": "PMIX_DEVTYPE", "pmix_geometry_t": "PMIX_GEOMETRY",
    "pmix_topology_t": "PMIX_TOPO", "pmix_cpuset_t": "PMIX_PROC_CPUSET",
    "pmix_storage_medium_t": "PMIX_STOR_MEDIUM",
    "pmix_storage_accessibility_t": "PMIX_STOR_ACCESS",
    "pmix_storage_persistence_t": "PMIX_STOR_PERSIST",
    "pmix_storage_access_type_t": "PMIX_STOR_ACCESS_TYPE",
    "void": "PMIX_POINTER", "pointer": "PMIX_POINTER",
    "hwloc_topology_t": "PMIX_POINTER", "structevent_base": "PMIX_POINTER",
    "varies": "PMIX_UNDEF", "NULL": "PMIX_UNDEF",
}

# Attributes whose standard type "void" means "no value" rather than a pointer.
NO_VALUE = {"PMIX_MONITOR_HEARTBEAT", "PMIX_SEND_HEARTBEAT"}

IDENT = re.compile(r"PMIX_[A-Z0-9_]+")


def _Fail(row, message):
    raise TableError("%s: %s" % (row["_where"], message))


def _Flag(row, column):
    if row[column] not in ("0", "1"):
        _Fail(row, "%s must be 0 or 1" % column)
    return row[column] == "1"


def LoadGroups(path):
    groups = collections.OrderedDict()
    for row in tsv.Read(path)[1]:
        if row["group"] in groups:
            _Fail(row, "duplicate group %s" % row["group"])
        if row["strings"] not in ("-", "exact", "bits"):
            _Fail(row, "strings must be -, exact or bits")
        groups[row["group"]] = Group(
            row["group"], row["c_type"], row["function"], row["strings"],
            row["default"], row["title"])
    return groups


def LoadConstants(path, groups):
    rows = tsv.Read(path)[1]
    exprs = {}
    for row in rows:
        if not IDENT.fullmatch(row["name"]) or row["name"] in exprs:
            _Fail(row, "bad or duplicate name %s" % row["name"])
        if row["group"] not in groups:
            _Fail(row, "unknown group %s" % row["group"])
        exprs[row["name"]] = row["value"]
    out = []
    for row in rows:
        try:
            value = cexpr.Evaluate(row["value"], exprs)
        except ValueError as e:
            _Fail(row, str(e))
        if row["string"] and groups[row["group"]].strings == "-":
            _Fail(row, "group %s has no string function" % row["group"])
        out.append(Constant(row["name"], row["value"], value, row["group"],
                            row["string"], _Flag(row, "public"),
                            _Flag(row, "deprecated")))
    _CheckOneStringPerValue(out, groups)
    return out


def _CheckOneStringPerValue(constants, groups):
    seen = {}
    for c in constants:
        if groups[c.group].strings != "exact" or not c.string:
            continue
        key = (c.group, c.value)
        if seen.setdefault(key, c.string) != c.string:
            raise TableError("%s: %s value %r has two strings: %r and %r"
                             % (c.name, c.group, c.value, seen[key], c.string))


def TypeCode(c_type, name, constants):
    key = re.sub(r"[\s*]", "", c_type)
    if name in NO_VALUE and key == "void":
        return constants["PMIX_UNDEF"]
    if key not in TYPE_CODES:
        raise TableError("%s: no data type for C type %r (add it to TYPE_CODES)"
                         % (name, c_type))
    return constants[TYPE_CODES[key]]


def LoadAttributes(path, constant_values, public_names):
    out, names = [], set()
    for row in tsv.Read(path)[1]:
        name = row["name"]
        if not IDENT.fullmatch(name) or name in names:
            _Fail(row, "bad or duplicate attribute name %s" % name)
        names.add(name)
        macro = _Flag(row, "macro")
        if macro and name in public_names:
            _Fail(row, "%s is also a constant; set macro to 0" % name)
        if row["lookup"] not in ("both", "name", "none"):
            _Fail(row, "lookup must be both, name or none")
        code = TypeCode(row["type"], name, constant_values)
        alt = row["openpmix_type"]
        alt_code = TypeCode(alt, name, constant_values) if alt else code
        out.append(Attribute(
            name, row["string"], row["type"], code, alt_code, row["origin"],
            _Flag(row, "deprecated"), _Flag(row, "provisional"), macro,
            row["lookup"] != "none", row["lookup"] == "both"))
    _CheckStrings(out)
    return out


def _CheckStrings(attributes):
    """Key strings are printable ASCII; lookups (which ignore ASCII case)
    resolve each string to at most one attribute."""
    owners, folded = {}, {}
    for a in attributes:
        for key in (a.name, a.string):
            if folded.setdefault(key.lower(), key) != key:
                raise TableError("%s and %s differ only in case"
                                 % (folded[key.lower()], key))
        if not re.fullmatch(r"pmix\.[!-~]+", a.string):
            raise TableError("%s: odd attribute string %r" % (a.name, a.string))
        if a.knows_string:
            if a.string in owners:
                raise TableError("%s and %s both claim string %s for lookups"
                                 % (owners[a.string], a.name, a.string))
            owners[a.string] = a.name


def Load(gen_dir):
    groups = LoadGroups(os.path.join(gen_dir, "groups.tsv"))
    constants = LoadConstants(os.path.join(gen_dir, "constants.tsv"), groups)
    values = {c.name: c.value for c in constants}
    public = {c.name for c in constants if c.public}
    attributes = LoadAttributes(os.path.join(gen_dir, "attributes.tsv"),
                                values, public)
    return Data(groups, constants, attributes)
