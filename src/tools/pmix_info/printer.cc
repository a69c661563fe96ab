#include "src/tools/pmix_info/printer.h"

#include <vector>

namespace pmix::info {
namespace {

// Splits text into lines of at most `width` characters at blanks (a word
// longer than the width gets a line of its own).
std::vector<std::string> Wrap(std::string_view text, size_t width) {
  std::vector<std::string> lines;
  std::string line;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find(' ', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view word = text.substr(pos, end - pos);
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      lines.push_back(std::move(line));
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line += word;
    pos = end + 1;
  }
  if (!line.empty() || lines.empty()) lines.push_back(std::move(line));
  return lines;
}

}  // namespace

void Printer::Fact(std::string_view label, std::string_view key, std::string_view value) const {
  if (parsable_) {
    std::fprintf(out_, "%.*s:%.*s\n", static_cast<int>(key.size()), key.data(),
                 static_cast<int>(value.size()), value.data());
    return;
  }
  Text(label, value);
}

void Printer::Text(std::string_view label, std::string_view text) const {
  if (parsable_) return;
  const size_t width = kWidth - kLabelWidth - 2;
  bool first = true;
  for (const std::string& line : Wrap(text, width)) {
    std::fprintf(out_, "%*.*s%s%s\n", static_cast<int>(kLabelWidth),
                 static_cast<int>(first ? label.size() : 0), label.data(),
                 first && !label.empty() ? ": " : "  ", line.c_str());
    first = false;
  }
}

void Printer::Raw(std::string_view line) const {
  if (!parsable_) return;
  std::fprintf(out_, "%.*s\n", static_cast<int>(line.size()), line.data());
}

}  // namespace pmix::info
