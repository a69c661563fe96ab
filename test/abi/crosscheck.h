/*
 * Cross-check of the PMIx Ch.3 helpers: shared declarations.
 *
 * The program is compiled against the reference headers only (Debian's
 * OpenPMIx 4.2.x) and run once on each library; crosscheck.sh diffs the two
 * outputs. Everything printed is content (values, strings, sizes, statuses),
 * never an address, so two correct libraries print identical text.
 */
#ifndef PMIXX_TEST_ABI_CROSSCHECK_H
#define PMIXX_TEST_ABI_CROSSCHECK_H

#include <pmix.h>

/* True in "tool" mode, after PMIx_tool_init (library strings are then comparable). */
extern bool cc_initialized;

/* Output: one result per line, prefixed by the current section name. */
void cc_section(const char *name);
void cc_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Appends the content of one datum to the current line buffer.
 * `data` points to an object of the C type that PMIx uses for `type`
 * inside a pmix_data_array_t (char* for PMIX_STRING, pmix_proc_t for
 * PMIX_PROC, ...). NULL prints as "(nil)". */
void cc_put(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cc_put_datum(pmix_data_type_t type, const void *data);
void cc_put_value(const pmix_value_t *value);
void cc_put_info(const pmix_info_t *info);
void cc_put_string(const char *s);
/* Ends the line built by cc_put*, with the section prefix and `label`. */
void cc_flush(const char *label);

/* True for types whose pmix_value_t holds a pointer to the datum (data.ptr,
 * data.proc, data.darray, ...) rather than the datum itself. */
bool cc_held_by_pointer(pmix_data_type_t type);

/* Size of the C element type PMIx uses for `type` in data arrays; 0 if unknown. */
size_t cc_element_size(pmix_data_type_t type);

/* Sections. */
void cc_strings(void);
void cc_attributes(void);

#endif
