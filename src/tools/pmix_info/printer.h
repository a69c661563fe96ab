// pmix_info's two output styles.
//
// Pretty: "<label>: <value>" with the label right-aligned in a column of
// kLabelWidth characters and values wrapped at kWidth columns, the layout
// of OpenPMIx's pmix_info, so that site scripts keep working. Parsable:
// one "key:key:...:value" line per fact.
#ifndef PMIXX_SRC_TOOLS_PMIX_INFO_PRINTER_H
#define PMIXX_SRC_TOOLS_PMIX_INFO_PRINTER_H

#include <cstdio>
#include <string>
#include <string_view>

namespace pmix::info {

class Printer {
 public:
  Printer(std::FILE* out, bool parsable) : out_(out), parsable_(parsable) {}

  bool parsable() const { return parsable_; }

  // A fact shown as `label: value` (pretty) or `key:value` (parsable).
  void Fact(std::string_view label, std::string_view key, std::string_view value) const;
  // Pretty only: a labelled block of wrapped text (help lines).
  void Text(std::string_view label, std::string_view text) const;
  // Parsable only.
  void Raw(std::string_view line) const;

  static constexpr size_t kLabelWidth = 24;
  static constexpr size_t kWidth = 79;

 private:
  std::FILE* out_;
  bool parsable_;
};

}  // namespace pmix::info

#endif  // PMIXX_SRC_TOOLS_PMIX_INFO_PRINTER_H
