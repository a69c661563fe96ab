"""Reading and writing the tab-separated tables of gen/.

Format: UTF-8, one header row naming the columns, then one row per record,
fields separated by a single TAB. No quoting: a field can hold anything but
TAB and newline. Lines starting with '#' are comments (allowed anywhere).
"""


def Read(path):
    """Returns (columns, rows); each row is a dict column -> str."""
    columns, rows = None, []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if columns is None:
                columns = fields
                continue
            if len(fields) != len(columns):
                raise ValueError("%s:%d: %d fields, header has %d"
                                 % (path, lineno, len(fields), len(columns)))
            row = dict(zip(columns, fields))
            row["_where"] = "%s:%d" % (path, lineno)
            rows.append(row)
    return columns, rows


def Format(columns, rows):
    """Returns the file text for rows (dicts) under the given columns."""
    out = ["\t".join(columns)]
    for row in rows:
        fields = [str(row.get(c, "")) for c in columns]
        for field in fields:
            if "\t" in field or "\n" in field:
                raise ValueError("field holds TAB or newline: %r" % field)
        out.append("\t".join(fields))
    return "\n".join(out) + "\n"


def Write(path, columns, rows):
    with open(path, "w", encoding="utf-8") as f:
        f.write(Format(columns, rows))
