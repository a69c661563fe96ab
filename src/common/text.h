// Small text helpers shared by the library's parsers.
#ifndef PMIXX_SRC_COMMON_TEXT_H
#define PMIXX_SRC_COMMON_TEXT_H

#include <string>
#include <string_view>
#include <vector>

namespace pmix {

// The items of a comma-separated list, each without leading and trailing
// blanks; empty items are dropped ("a, ,b," -> {"a", "b"}).
std::vector<std::string> SplitCommas(std::string_view text);

}  // namespace pmix

#endif  // PMIXX_SRC_COMMON_TEXT_H
