# gen/: the tables the generated headers, string tables and stubs come from.
EXTRA_DIST += gen/README.md gen/attributes.tsv gen/constants.tsv gen/groups.tsv \
	gen/api_status.tsv gen/cexpr.py gen/generate.py gen/gen_stubs.py \
	gen/import_facts.py gen/model.py gen/render_header.py gen/render_tables.py gen/tsv.py
