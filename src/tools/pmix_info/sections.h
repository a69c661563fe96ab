// The sections of pmix_info's report.
#ifndef PMIXX_SRC_TOOLS_PMIX_INFO_SECTIONS_H
#define PMIXX_SRC_TOOLS_PMIX_INFO_SECTIONS_H

#include <string>
#include <vector>

#include "src/tools/pmix_info/printer.h"

namespace pmix::info {

// Version, standard level, build configuration and dependency versions.
void PrintConfig(const Printer& out);

// The installation paths; `name` is one of PathNames(), or "all".
// Returns false for an unknown name.
bool PrintPath(const Printer& out, const std::string& name);
std::vector<std::string> PathNames();

// One line per component of every framework ("MCA <fw>: <comp> (...)").
// With show_failed, refused and shadowed files too, with the reason.
void PrintComponents(const Printer& out, bool show_failed);

// The variables of `framework` ("all" = every one, including the engine's
// own) limited to `component` ("all", "base", or a component name).
// Returns false when the framework is unknown.
bool PrintParams(const Printer& out, const std::string& framework, const std::string& component);

// Opens and selects every known framework once, so that their components
// and variables are registered.
void EnsureAllFrameworks();

}  // namespace pmix::info

#endif  // PMIXX_SRC_TOOLS_PMIX_INFO_SECTIONS_H
