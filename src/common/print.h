// Human-readable descriptions of PMIx data (PMIx_Data_print,
// PMIx_Value_string, PMIx_Info_string).
//
// The format follows OpenPMIx 4.2.2 where it is sane: one element is
// "<prefix>Data type: <TYPE>\tValue: <text>"; structs spell their fields;
// containers print their elements on following lines with the prefix
// doubled. Pointers (PMIX_POINTER) are printed as addresses and never
// followed; opaque objects from unknown sources are not inspected; nesting
// deeper than 64 levels is cut with "...".
//
// Thread safety: stateless.
#ifndef PMIXX_SRC_COMMON_PRINT_H
#define PMIXX_SRC_COMMON_PRINT_H

#include <string>
#include <string_view>

#include "pmix_common.h"
#include "src/common/status.h"

namespace pmix {

// Appends the description of one element of `type` at `element` (for
// PMIX_STRING a pointer to the char*) to *out. Errors:
// PMIX_ERR_UNKNOWN_DATA_TYPE for codes the registry does not know (*out
// unchanged).
Status PrintElement(std::string* out, std::string_view prefix, const void* element,
                    pmix_data_type_t type);

// The description of a value: "<prefix>PMIX_VALUE: " + its payload.
void PrintValue(std::string* out, std::string_view prefix, const pmix_value_t& value);

// Internal to print*.cc. Where an element is printed: at the top of
// PMIx_Data_print, or inside a value (PMIx_Value_string, PMIx_Info_string
// and data arrays they hold), where OpenPMIx 4.2.2 prints a few types as
// "Data type: <TYPE>(<code>)\tValue: UNPRINTABLE" and we do the same.
struct PrintContext {
  int depth = 0;
  bool in_value = false;
  PrintContext Deeper() const { return {depth + 1, in_value}; }
};
Status PrintAt(std::string* out, std::string_view prefix, const void* element,
               pmix_data_type_t type, PrintContext ctx);
bool PrintStruct(std::string* out, std::string_view prefix, const void* element,
                 pmix_data_type_t type, PrintContext ctx);
std::string ProcString(const pmix_proc_t& proc);
std::string Num(long long v);
std::string UNum(unsigned long long v);
const char* PrintedTypeName(pmix_data_type_t type);
void PrintValueAt(std::string* out, std::string_view prefix, const pmix_value_t& value,
                  PrintContext ctx);

}  // namespace pmix

#endif  // PMIXX_SRC_COMMON_PRINT_H
