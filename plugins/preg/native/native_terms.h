// Number terms of the native syntax ("1-3,7,9-8").
#ifndef PMIXX_PLUGINS_PREG_NATIVE_NATIVE_TERMS_H
#define PMIXX_PLUGINS_PREG_NATIVE_NATIVE_TERMS_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pmix::preg::native {

// Largest digit count handled as a number (10^18 - 1 fits in uint64_t with
// room for +1).
inline constexpr size_t kMaxDigits = 18;

// The value of a string of 1..kMaxDigits decimal digits (leading zeros
// allowed), or nullopt.
std::optional<uint64_t> ParseDigits(std::string_view digits);

// Appends the terms for values: runs of +1 steps become "N-M". Descending
// runs are written out ("3,2,1"): OpenPMIx 4.2's parser, which may read
// what we generate, knows only ascending ranges.
void AppendTerms(const std::vector<uint64_t>& values, std::string& out);

// Expands comma-separated terms, appending to values. Fails (false) on a
// malformed term, or when the expansion would make values larger than
// *budget, which is decreased by the number of values appended.
bool ExpandTerms(std::string_view terms, std::vector<uint64_t>& values, size_t* budget);

}  // namespace pmix::preg::native

#endif  // PMIXX_PLUGINS_PREG_NATIVE_NATIVE_TERMS_H
