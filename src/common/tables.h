// Lookup tables generated from gen/*.tsv: code -> string for every enum the
// C API prints, and the attribute table (name <-> key string <-> type).
//
// The data lives in src/common/generated/tables.cc (written by
// gen/generate.py; never edit it by hand). Everything here is immutable,
// constant-initialized data, so every function may be called from any
// thread, before or after library initialization, and none allocates or
// throws. Returned `const char*` point to static NUL-terminated strings.
//
// The strings equal those of the ABI reference (OpenPMIx 4.2.2) for every
// input; test/unit/common/strings_test.cc checks that against
// test/unit/common/reference_strings.tsv.
#ifndef PMIXX_SRC_COMMON_TABLES_H
#define PMIXX_SRC_COMMON_TABLES_H

#include <algorithm>
#include <cstdint>
#include <span>
#include <string_view>

#include "pmix_common.h"

namespace pmix::tables {

// One attribute of gen/attributes.tsv.
struct AttributeRow {
  const char* name;    // macro name, e.g. "PMIX_RANK"
  const char* string;  // key string, e.g. "pmix.rank"
  const char* c_type;  // value type as the standard writes it ("NULL": none)
  // Data type code for c_type; PMIX_UNDEF when the type varies or the
  // attribute carries no value.
  pmix_data_type_t type;
  // The type OpenPMIx 4.2.2's header gives (== type when it agrees or is
  // silent). Where the two differ, peers may send either.
  pmix_data_type_t openpmix_type;
  const char* origin;  // "std:<section>" or "openpmix" (an extension)
  bool deprecated;
  bool provisional;
  bool is_macro;  // false only for a name a constant already owns
  // Whether PMIx_Get_attribute_string maps name -> string, and whether
  // PMIx_Get_attribute_name maps string -> name, as in the reference.
  bool api_knows_name;
  bool api_knows_string;
};

// A code and its printed form (or, for bit masks, a bit and its word).
struct CodeString {
  std::int64_t code;
  const char* text;
};

// The strings of one *_string function: rows sorted by code (for bit-mask
// groups: one row per named bit, in printing order), and the string printed
// for a code without a row (for bit masks: when no named bit is set).
struct CodeTable {
  std::span<const CodeString> rows;
  const char* fallback;
};

namespace detail {
extern const std::span<const AttributeRow> kAttributes;  // gen order
// Indexes into kAttributes sorted by case-folded name / string; among rows
// with the same string, the one the API resolves the string to comes first.
extern const std::span<const std::uint16_t> kAttributesByName;
extern const std::span<const std::uint16_t> kAttributesByString;
extern const std::span<const CodeString> kStatusNames;  // code -> macro name
extern const CodeTable kStatusStrings;
extern const CodeTable kProcStateStrings;
extern const CodeTable kJobStateStrings;
extern const CodeTable kDataTypeStrings;
extern const CodeTable kScopeStrings;
extern const CodeTable kDataRangeStrings;
extern const CodeTable kPersistenceStrings;
extern const CodeTable kAllocDirectiveStrings;
extern const CodeTable kLinkStateStrings;
extern const CodeTable kDeviceTypeStrings;
extern const CodeTable kValueCmpStrings;
extern const CodeTable kInfoDirectivesStrings;  // bit words
extern const CodeTable kIofChannelStrings;      // bit words

inline const char* FindCode(std::span<const CodeString> rows, std::int64_t code) {
  auto it = std::lower_bound(rows.begin(), rows.end(), code,
                             [](const CodeString& r, std::int64_t c) { return r.code < c; });
  return (it != rows.end() && it->code == code) ? it->text : nullptr;
}

inline const char* Lookup(const CodeTable& table, std::int64_t code) {
  const char* text = FindCode(table.rows, code);
  return text != nullptr ? text : table.fallback;
}

// ASCII case-folded three-way comparison (the indexes are sorted this way).
inline int CompareFolded(std::string_view a, std::string_view b) {
  const auto fold = [](char c) {
    return (c >= 'A' && c <= 'Z') ? static_cast<unsigned char>(c - 'A' + 'a')
                                  : static_cast<unsigned char>(c);
  };
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (fold(a[i]) != fold(b[i])) return fold(a[i]) < fold(b[i]) ? -1 : 1;
  }
  return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}

// Binary search of an index sorted by (case-folded key(row), preference).
template <class Key>
const AttributeRow* FindAttribute(std::span<const std::uint16_t> index, std::string_view wanted,
                                  bool ignore_case, Key key) {
  auto it = std::lower_bound(index.begin(), index.end(), wanted,
                             [&](std::uint16_t i, std::string_view w) {
                               return CompareFolded(key(kAttributes[i]), w) < 0;
                             });
  for (; it != index.end() && CompareFolded(key(kAttributes[*it]), wanted) == 0; ++it) {
    if (ignore_case || std::string_view(key(kAttributes[*it])) == wanted) return &kAttributes[*it];
  }
  return nullptr;
}
}  // namespace detail

// ---- enum -> string, exactly as the reference prints them ----
inline const char* StatusString(pmix_status_t s) {
  return detail::Lookup(detail::kStatusStrings, s);
}
inline const char* ProcStateString(pmix_proc_state_t s) {
  return detail::Lookup(detail::kProcStateStrings, s);
}
inline const char* JobStateString(pmix_job_state_t s) {
  return detail::Lookup(detail::kJobStateStrings, s);
}
inline const char* DataTypeString(pmix_data_type_t t) {
  return detail::Lookup(detail::kDataTypeStrings, t);
}
inline const char* ScopeString(pmix_scope_t s) { return detail::Lookup(detail::kScopeStrings, s); }
inline const char* DataRangeString(pmix_data_range_t r) {
  return detail::Lookup(detail::kDataRangeStrings, r);
}
inline const char* PersistenceString(pmix_persistence_t p) {
  return detail::Lookup(detail::kPersistenceStrings, p);
}
inline const char* AllocDirectiveString(pmix_alloc_directive_t d) {
  return detail::Lookup(detail::kAllocDirectiveStrings, d);
}
inline const char* LinkStateString(pmix_link_state_t s) {
  return detail::Lookup(detail::kLinkStateStrings, s);
}
// Device types print only when exactly one known bit is set.
inline const char* DeviceTypeString(pmix_device_type_t t) {
  return t > static_cast<pmix_device_type_t>(INT64_MAX)
             ? detail::kDeviceTypeStrings.fallback
             : detail::Lookup(detail::kDeviceTypeStrings, static_cast<std::int64_t>(t));
}
inline const char* ValueComparisonString(int cmp) {
  return detail::Lookup(detail::kValueCmpStrings, cmp);
}

// The macro name of a status code ("PMIX_ERR_TIMEOUT"), for diagnostics;
// nullptr for codes without one. Prefers non-deprecated names.
inline const char* StatusName(pmix_status_t s) { return detail::FindCode(detail::kStatusNames, s); }

// Bit-mask groups: the named bits in printing order, and the fallback word
// (IOF: "NONE" when no channel bit is set; directives: "OPTIONAL", the
// word printed when PMIX_INFO_REQD is clear).
inline const CodeTable& InfoDirectiveWords() { return detail::kInfoDirectivesStrings; }
inline const CodeTable& IofChannelWords() { return detail::kIofChannelStrings; }

// ---- attributes ----
// All attributes of gen/attributes.tsv, standard ones in document order,
// then OpenPMIx's extensions.
inline std::span<const AttributeRow> Attributes() { return detail::kAttributes; }

enum class MatchCase { kExact, kIgnoreCase };

// The attribute with this macro name, or nullptr. Knows every attribute,
// including those the reference's PMIx_Get_attribute_string does not
// (check api_knows_name for that). The C API matches ignoring ASCII case,
// as the reference does; no two attributes differ only in case.
inline const AttributeRow* FindAttributeByName(std::string_view name,
                                               MatchCase match = MatchCase::kExact) {
  return detail::FindAttribute(detail::kAttributesByName, name, match == MatchCase::kIgnoreCase,
                               [](const AttributeRow& r) { return r.name; });
}

// The attribute with this key string, or nullptr. When several attributes
// share a string, returns the one PMIx_Get_attribute_name resolves it to
// (api_knows_string), else the first in table order.
inline const AttributeRow* FindAttributeByString(std::string_view string,
                                                 MatchCase match = MatchCase::kExact) {
  return detail::FindAttribute(detail::kAttributesByString, string, match == MatchCase::kIgnoreCase,
                               [](const AttributeRow& r) { return r.string; });
}

}  // namespace pmix::tables

#endif  // PMIXX_SRC_COMMON_TABLES_H
