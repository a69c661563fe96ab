#include "mca/base/var_parse.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <strings.h>

#include "src/common/enum_value.h"

namespace pmix::mca {
namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

// strtoll/strtoull want a NUL-terminated buffer; the text is a view.
std::string ParseLongLong(const std::string& text, long long* out) {
  if (text.empty()) return "empty value";
  char* end = nullptr;
  errno = 0;
  long long value = std::strtoll(text.c_str(), &end, 0);
  if (end == text.c_str() || *end != '\0') return "not an integer";
  if (errno == ERANGE) return "integer out of range";
  *out = value;
  return {};
}

std::string ParseUnsigned(const std::string& text, unsigned long long* out,
                          char** rest) {
  if (text.empty()) return "empty value";
  // strtoull silently negates "-1"; an unsigned variable must refuse it.
  if (text.front() == '-') return "negative value for an unsigned variable";
  char* end = nullptr;
  errno = 0;
  unsigned long long value = std::strtoull(text.c_str(), &end, 0);
  if (end == text.c_str()) return "not an unsigned integer";
  if (errno == ERANGE) return "integer out of range";
  if (rest == nullptr && *end != '\0') return "not an unsigned integer";
  if (rest != nullptr) *rest = end;
  *out = value;
  return {};
}

std::string ParseSize(const std::string& text, size_t* out) {
  char* rest = nullptr;
  unsigned long long value = 0;
  std::string error = ParseUnsigned(text, &value, &rest);
  if (!error.empty()) return error;
  std::string_view suffix(rest);
  unsigned shift = 0;
  if (!suffix.empty()) {
    switch (std::tolower(static_cast<unsigned char>(suffix.front()))) {
      case 'k': shift = 10; break;
      case 'm': shift = 20; break;
      case 'g': shift = 30; break;
      default: return "not a size (expected a number with an optional k/m/g suffix)";
    }
    suffix.remove_prefix(1);
    if (suffix == "b" || suffix == "B") suffix.remove_prefix(1);
    if (!suffix.empty()) return "not a size (expected a number with an optional k/m/g suffix)";
  }
  if (value > (std::numeric_limits<size_t>::max() >> shift)) return "size out of range";
  *out = static_cast<size_t>(value << shift);
  return {};
}

std::string ParseBool(const std::string& text, bool* out) {
  static const char* const kTrue[] = {"1", "true", "yes", "on"};
  static const char* const kFalse[] = {"0", "false", "no", "off"};
  for (const char* word : kTrue) {
    if (strcasecmp(text.c_str(), word) == 0) return *out = true, std::string();
  }
  for (const char* word : kFalse) {
    if (strcasecmp(text.c_str(), word) == 0) return *out = false, std::string();
  }
  return "not a boolean (expected 1/0, true/false, yes/no, on/off)";
}

std::string ParseDouble(const std::string& text, double* out) {
  if (text.empty()) return "empty value";
  char* end = nullptr;
  errno = 0;
  double value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0') return "not a number";
  if (errno == ERANGE || !std::isfinite(value)) return "number out of range";
  *out = value;
  return {};
}

}  // namespace

// The type comes from a plugin's registration (C): any number may be there.
const char* VarTypeName(pmix_mca_param_type_t type) {
  switch (EnumValue(type)) {
    case PMIX_MCA_PARAM_INT: return "int";
    case PMIX_MCA_PARAM_UNSIGNED: return "unsigned";
    case PMIX_MCA_PARAM_SIZE: return "size";
    case PMIX_MCA_PARAM_BOOL: return "bool";
    case PMIX_MCA_PARAM_STRING: return "string";
    case PMIX_MCA_PARAM_DOUBLE: return "double";
  }
  return "unknown";
}

std::string ParseVarText(pmix_mca_param_type_t type, std::string_view text,
                         pmix_mca_param_value_t* out) {
  pmix_mca_param_value_t parsed{};
  std::string trimmed(Trim(text));
  std::string error;
  switch (EnumValue(type)) {
    case PMIX_MCA_PARAM_INT: error = ParseLongLong(trimmed, &parsed.value.integer); break;
    case PMIX_MCA_PARAM_UNSIGNED:
      error = ParseUnsigned(trimmed, &parsed.value.uinteger, nullptr);
      break;
    case PMIX_MCA_PARAM_SIZE: error = ParseSize(trimmed, &parsed.value.size); break;
    case PMIX_MCA_PARAM_BOOL: error = ParseBool(trimmed, &parsed.value.flag); break;
    case PMIX_MCA_PARAM_STRING: parsed.value.string = nullptr; break;
    case PMIX_MCA_PARAM_DOUBLE: error = ParseDouble(trimmed, &parsed.value.real); break;
    default: return "unknown parameter type";  // (type is not copied: no load of it)
  }
  if (!error.empty()) return error;
  parsed.type = type;  // one of the types above
  *out = parsed;
  return error;
}

std::string FormatVarValue(const pmix_mca_param_value_t& value) {
  char buf[64];
  switch (EnumValue(value.type)) {
    case PMIX_MCA_PARAM_INT:
      std::snprintf(buf, sizeof buf, "%lld", value.value.integer);
      return buf;
    case PMIX_MCA_PARAM_UNSIGNED:
      std::snprintf(buf, sizeof buf, "%llu", value.value.uinteger);
      return buf;
    case PMIX_MCA_PARAM_SIZE:
      std::snprintf(buf, sizeof buf, "%zu", value.value.size);
      return buf;
    case PMIX_MCA_PARAM_BOOL: return value.value.flag ? "true" : "false";
    case PMIX_MCA_PARAM_STRING: return value.value.string ? value.value.string : "";
    case PMIX_MCA_PARAM_DOUBLE:
      std::snprintf(buf, sizeof buf, "%g", value.value.real);
      return buf;
  }
  return "";
}

}  // namespace pmix::mca
