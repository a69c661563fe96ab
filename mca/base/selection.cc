#include "mca/base/selection.h"

#include <cctype>
#include <string>

#include "src/common/output.h"

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

}  // namespace

Result<SelectionList> ParseSelectionList(std::string_view framework, const char* text) {
  SelectionList list;
  if (text == nullptr) return list;
  std::string_view rest = Trim(text);
  if (!rest.empty() && rest.front() == '^') {
    list.exclude = true;
    rest.remove_prefix(1);
  }
  if (rest.find('^') != std::string_view::npos) {
    std::string fw(framework);
    output::Error(fw, "invalid PMIX_MCA_%s value '%s': '^' (exclude) is only allowed "
                  "as the first character and applies to the whole list",
                  fw.c_str(), text);
    return Status(PMIX_ERR_BAD_PARAM);
  }
  while (!rest.empty()) {
    size_t comma = rest.find(',');
    std::string_view name = Trim(rest.substr(0, comma));
    if (!name.empty()) list.names.emplace_back(name);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return list;
}

}  // namespace pmix::mca
