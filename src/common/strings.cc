// The C API's printing functions: PMIx_Error_string, the other enum
// *_string functions, and the attribute name <-> string lookups.
//
// Every output equals what the ABI reference (OpenPMIx 4.2.2) returns for
// the same input, as measured in test/unit/common/reference_strings.tsv,
// with these deliberate differences:
//  - PMIx_Get_attribute_string/_name(NULL) return NULL (the reference
//    dereferences the NULL and crashes).
//  - PMIx_Data_type_string answers as the reference does once initialized
//    (before PMIx_Init the reference prints "NOT INITIALIZED" for codes
//    outside its core list; we print the same strings at all times).
//  - PMIx_IOF_channel_string returns immutable strings shared by all
//    threads, composed once, instead of a buffer that later calls reuse.
//
// None of these functions allocates except PMIx_Info_directives_string
// (malloc'd, caller frees, NULL on OOM), and none can throw, so they need
// no ApiGuard. All are thread-safe and work without PMIx_Init.
#include <array>
#include <cstring>

#include "pmix.h"
#include "src/common/enum_value.h"
#include "src/common/tables.h"

namespace {

namespace tables = pmix::tables;

// PMIx_IOF_channel_string prints the word of each named channel bit that
// is set, each followed by one blank ("STDIN STDERR "), or the fallback
// word when none is. The strings for every combination of the named bits
// are composed once (thread-safe static initialization) and never change.
class IofChannelTexts {
 public:
  static constexpr std::size_t kMaxWords = 6;
  static constexpr std::size_t kMaxText = 64;

  IofChannelTexts() noexcept {
    const auto words = WordRows();
    for (std::size_t combo = 0; combo < texts_.size(); ++combo) {
      std::size_t len = 0;
      for (std::size_t w = 0; w < words.size(); ++w) {
        if ((combo >> w) & 1U) Append(texts_[combo], len, words[w].text, " ");
      }
      if (len == 0) Append(texts_[combo], len, tables::IofChannelWords().fallback, "");
    }
  }

  const char* Get(pmix_iof_channel_t channel) const noexcept {
    const auto words = WordRows();
    std::size_t combo = 0;
    for (std::size_t w = 0; w < words.size(); ++w) {
      if (static_cast<std::int64_t>(channel) & words[w].code) combo |= std::size_t{1} << w;
    }
    return texts_[combo].data();
  }

 private:
  static std::span<const tables::CodeString> WordRows() noexcept {
    const auto rows = tables::IofChannelWords().rows;
    return rows.first(std::min(rows.size(), kMaxWords));
  }

  static void Append(std::array<char, kMaxText>& out, std::size_t& len, const char* word,
                     const char* separator) noexcept {
    for (const char* p : {word, separator}) {
      for (; *p != '\0' && len + 1 < out.size(); ++p) out[len++] = *p;
    }
    out[len] = '\0';
  }

  std::array<std::array<char, kMaxText>, (1U << kMaxWords)> texts_{};
};

const char* DirectiveWord(pmix_info_directives_t bit) noexcept {
  const char* word = tables::detail::FindCode(tables::InfoDirectiveWords().rows, bit);
  return word != nullptr ? word : "";
}

}  // namespace

extern "C" {

const char* PMIx_Error_string(pmix_status_t status) { return tables::StatusString(status); }

const char* PMIx_Proc_state_string(pmix_proc_state_t state) {
  return tables::ProcStateString(state);
}

const char* PMIx_Scope_string(pmix_scope_t scope) { return tables::ScopeString(scope); }

const char* PMIx_Persistence_string(pmix_persistence_t persist) {
  return tables::PersistenceString(persist);
}

const char* PMIx_Data_range_string(pmix_data_range_t range) {
  return tables::DataRangeString(range);
}

const char* PMIx_Data_type_string(pmix_data_type_t type) { return tables::DataTypeString(type); }

const char* PMIx_Alloc_directive_string(pmix_alloc_directive_t directive) {
  return tables::AllocDirectiveString(directive);
}

const char* PMIx_Job_state_string(pmix_job_state_t state) { return tables::JobStateString(state); }

const char* PMIx_Link_state_string(pmix_link_state_t state) {
  return tables::LinkStateString(state);
}

const char* PMIx_Device_type_string(pmix_device_type_t type) {
  return tables::DeviceTypeString(type);
}

const char* PMIx_Value_comparison_string(pmix_value_cmp_t cmp) {
  return tables::ValueComparisonString(static_cast<int>(pmix::EnumValue(cmp)));
}

const char* PMIx_IOF_channel_string(pmix_iof_channel_t channel) {
  static const IofChannelTexts texts;
  return texts.Get(channel);
}

// "QUALIFIER" when that bit is set; otherwise "REQUIRED" or "OPTIONAL",
// then ":PROCESSED" and ":END" for those bits. Other bits are not printed.
char* PMIx_Info_directives_string(pmix_info_directives_t directives) {
  if (directives & PMIX_INFO_QUALIFIER) return strdup(DirectiveWord(PMIX_INFO_QUALIFIER));
  std::array<char, 64> text{};
  const char* first = (directives & PMIX_INFO_REQD) ? DirectiveWord(PMIX_INFO_REQD)
                                                    : tables::InfoDirectiveWords().fallback;
  std::strncat(text.data(), first, text.size() - 1);
  for (pmix_info_directives_t bit : {PMIX_INFO_REQD_PROCESSED, PMIX_INFO_ARRAY_END}) {
    if ((directives & bit) == 0) continue;
    std::strncat(text.data(), ":", text.size() - 1 - std::strlen(text.data()));
    std::strncat(text.data(), DirectiveWord(bit), text.size() - 1 - std::strlen(text.data()));
  }
  return strdup(text.data());
}

// Matching ignores ASCII case; unknown names come back unchanged (the
// caller's own pointer), as in the reference; NULL gives NULL.
const char* PMIx_Get_attribute_string(const char* attribute) {
  if (attribute == nullptr) return nullptr;
  const tables::AttributeRow* row =
      tables::FindAttributeByName(attribute, tables::MatchCase::kIgnoreCase);
  return (row != nullptr && row->api_knows_name) ? row->string : attribute;
}

const char* PMIx_Get_attribute_name(const char* attrstring) {
  if (attrstring == nullptr) return nullptr;
  const tables::AttributeRow* row =
      tables::FindAttributeByString(attrstring, tables::MatchCase::kIgnoreCase);
  return (row != nullptr && row->api_knows_string) ? row->name : attrstring;
}

}  // extern "C"
