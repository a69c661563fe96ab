// Textual parsing of MCA variable values, one rule per parameter type.
//
// Every source (default, files, environment) hands the registry text; this
// file turns text into a typed value or says exactly why it cannot.
// Accepted syntax (surrounding blanks are ignored for every type but
// string):
//   INT       decimal, 0x hex or 0 octal, optional sign, within long long
//   UNSIGNED  same without a minus sign, within unsigned long long
//   SIZE      an unsigned number with an optional k/m/g suffix (binary
//             multiples, either case, an optional trailing 'b'), within size_t
//   BOOL      1/0, true/false, yes/no, on/off (any case)
//   STRING    the text as given (a missing text is a NULL string)
//   DOUBLE    a finite floating-point number (strtod syntax)
// Pure functions; thread-safe.
#ifndef PMIXX_MCA_BASE_VAR_PARSE_H
#define PMIXX_MCA_BASE_VAR_PARSE_H

#include <string>
#include <string_view>

#include "pmix/mca/mca.h"

namespace pmix::mca {

// The type's name as pmix_info prints it ("int", "unsigned", "size",
// "bool", "string", "double"); "unknown" for a value outside the enum.
const char* VarTypeName(pmix_mca_param_type_t type);

// Parses `text` as `type`. On success fills *out (for STRING, out->value.string
// is left nullptr: the caller owns the text and points at it) and returns an
// empty string; on failure returns a short reason ("not an integer") and
// leaves *out untouched.
std::string ParseVarText(pmix_mca_param_type_t type, std::string_view text,
                         pmix_mca_param_value_t* out);

// The canonical text of a parsed non-string value (what pmix_info shows):
// integers in decimal, bool as "true"/"false", double with %g.
std::string FormatVarValue(const pmix_mca_param_value_t& value);

}  // namespace pmix::mca

#endif  // PMIXX_MCA_BASE_VAR_PARSE_H
