// The PMIX_MCA_<fw> selection list: "a,b" (only these) or "^a,b" (all but
// these). Blanks around names and empty entries are ignored; '^' is allowed
// only as the very first character.
#ifndef PMIXX_MCA_BASE_SELECTION_H
#define PMIXX_MCA_BASE_SELECTION_H

#include <string>
#include <string_view>
#include <vector>

#include "src/common/status.h"

namespace pmix::mca {

struct SelectionList {
  bool exclude = false;            // "^a,b"
  std::vector<std::string> names;  // empty and !exclude: every component
};

// Parses `text` (nullptr or "" = every component). A '^' anywhere but
// first is PMIX_ERR_BAD_PARAM, reported once on stderr naming the
// framework's variable and the text.
Result<SelectionList> ParseSelectionList(std::string_view framework, const char* text);

}  // namespace pmix::mca

#endif  // PMIXX_MCA_BASE_SELECTION_H
