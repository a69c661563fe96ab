#include "mca/base/component_repository.h"

#include "config.h"

#include <dirent.h>
#include <dlfcn.h>
#include <ltdl.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>

#include "src/common/output.h"

namespace pmix::mca {

#ifndef PMIXX_ENABLE_DLOPEN
// Defined by the generated static_components.cc of --disable-dlopen builds.
extern const pmix_mca_component_t* const kBuiltinComponents[];
extern const size_t kBuiltinComponentCount;
#endif

namespace {

// snprintf rather than std::to_string: the latter instantiates libstdc++
// templates with default visibility, which would leak into libpmix's ABI.
std::string Mismatch(const char* what, uint32_t found, uint32_t expected) {
  char text[96];
  std::snprintf(text, sizeof text, "%s is %u, expected %u", what, found, expected);
  return text;
}

void CopyVersions(const pmix_mca_component_t& d, ComponentRecord* record) {
  record->mca_major = d.mca_major;
  record->mca_minor = d.mca_minor;
  record->framework_major = d.framework_major;
  record->framework_minor = d.framework_minor;
  record->version_major = d.version_major;
  record->version_minor = d.version_minor;
  record->version_release = d.version_release;
}

// Validates `descriptor` into `record`, printing a refusal once.
void Judge(const FrameworkSpec& spec, const pmix_mca_component_t* descriptor,
           int verbosity, ComponentRecord* record) {
  if (descriptor != nullptr) CopyVersions(*descriptor, record);
  record->reason = ValidateDescriptor(spec, record->name, descriptor);
  if (record->reason.empty()) {
    record->status = ComponentStatus::kLoaded;
    record->descriptor = descriptor;
    if (verbosity >= 10) {
      output::Verbose(spec.name, 0, "found component %s (%s)", record->name.c_str(),
                      record->path.c_str());
    }
    return;
  }
  record->status = ComponentStatus::kRefused;
  output::Error(spec.name, "refusing component %s: %s", record->path.c_str(),
                record->reason.c_str());
}

#ifdef PMIXX_ENABLE_DLOPEN

std::mutex& LtdlMutex() {
  static std::mutex mu;
  return mu;
}

// One libltdl handle; closed on destruction unless Keep() was called (an
// accepted component stays mapped for the life of the process).
class DlHandle {
 public:
  explicit DlHandle(lt_dlhandle handle) : handle_(handle) {}
  DlHandle(const DlHandle&) = delete;
  DlHandle& operator=(const DlHandle&) = delete;
  ~DlHandle() {
    if (handle_ != nullptr) lt_dlclose(handle_);
  }
  lt_dlhandle get() const { return handle_; }
  void Keep() { handle_ = nullptr; }

 private:
  lt_dlhandle handle_;
};

// libltdl tries several loaders and often ends with a bare "file not
// found"; this finds the real cause of a failed load: not an ELF file, or
// what the system loader says (a missing dependency, a wrong class, ...).
std::string Diagnose(const std::string& path) {
  char magic[4] = {};
  std::ifstream(path, std::ios::binary).read(magic, sizeof magic);
  if (std::memcmp(magic, "\x7f" "ELF", 4) != 0) return "not an ELF file";
  void* handle = dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* text = dlerror();
    return text != nullptr ? text : "";
  }
  dlclose(handle);
  return "";
}

// Opens `path` with local scope; on failure returns nullptr and *error.
lt_dlhandle OpenLocal(const std::string& path, std::string* error) {
  static const bool initialized = lt_dlinit() == 0;
  if (!initialized) {
    *error = "libltdl could not be initialized";
    return nullptr;
  }
  lt_dladvise advise;
  if (lt_dladvise_init(&advise) != 0) {
    *error = "libltdl could not be initialized";
    return nullptr;
  }
  lt_dladvise_local(&advise);
  lt_dlhandle handle = lt_dlopenadvise(path.c_str(), advise);
  if (handle == nullptr) {
    const char* text = lt_dlerror();
    std::string cause = Diagnose(path);
    *error = "cannot load: " + (cause.empty() ? std::string() : cause + " ") + "(libltdl: " +
             (text != nullptr ? text : "unknown error") + ")";
  }
  lt_dladvise_destroy(&advise);
  return handle;
}

void LoadFile(const FrameworkSpec& spec, int verbosity, ComponentRecord* record) {
  std::lock_guard<std::mutex> lock(LtdlMutex());
  std::string error;
  DlHandle handle(OpenLocal(record->path, &error));
  if (handle.get() == nullptr) {
    record->status = ComponentStatus::kRefused;
    record->reason = error;
    output::Error(spec.name, "refusing component %s: %s", record->path.c_str(),
                  error.c_str());
    return;
  }
  std::string symbol = "pmix_mca_" + std::string(spec.name) + "_" + record->name + "_component";
  auto* descriptor = static_cast<const pmix_mca_component_t*>(lt_dlsym(handle.get(), symbol.c_str()));
  if (descriptor == nullptr) {
    record->status = ComponentStatus::kRefused;
    record->reason = "descriptor symbol " + symbol + " not found";
    output::Error(spec.name, "refusing component %s: %s", record->path.c_str(),
                  record->reason.c_str());
    return;
  }
  Judge(spec, descriptor, verbosity, record);
  if (record->status == ComponentStatus::kLoaded) handle.Keep();
}

// The component names of pmix_mca_<fw>_*.so files in dir, sorted.
std::vector<std::string> ListDir(const std::string& dir, const std::string& prefix) {
  std::vector<std::string> names;
  DIR* stream = opendir(dir.c_str());
  if (stream == nullptr) return names;
  while (const dirent* entry = readdir(stream)) {
    std::string_view file(entry->d_name);
    if (file.size() > prefix.size() + 3 && file.starts_with(prefix) && file.ends_with(".so")) {
      names.emplace_back(file.substr(prefix.size(), file.size() - prefix.size() - 3));
    }
  }
  closedir(stream);
  std::sort(names.begin(), names.end());
  return names;
}

#endif  // PMIXX_ENABLE_DLOPEN

}  // namespace

const char* ComponentStatusName(ComponentStatus status) {
  switch (status) {
    case ComponentStatus::kLoaded: return "loaded";
    case ComponentStatus::kRefused: return "refused";
    case ComponentStatus::kShadowed: return "shadowed";
  }
  return "unknown";
}

std::string ValidateDescriptor(const FrameworkSpec& spec, std::string_view expected_name,
                               const pmix_mca_component_t* d) {
  if (d == nullptr) return "no descriptor";
  if (d->mca_major != PMIX_MCA_BASE_VERSION_MAJOR) {
    return Mismatch("mca_major", d->mca_major, PMIX_MCA_BASE_VERSION_MAJOR);
  }
  if (d->mca_minor > PMIX_MCA_BASE_VERSION_MINOR) {
    char text[96];
    std::snprintf(text, sizeof text, "mca_minor is %u, newer than this library's %u",
                  d->mca_minor, static_cast<unsigned>(PMIX_MCA_BASE_VERSION_MINOR));
    return text;
  }
  if (d->framework == nullptr || std::strcmp(d->framework, spec.name) != 0) {
    return std::string("framework is '") + (d->framework ? d->framework : "(null)") +
           "', expected '" + spec.name + "'";
  }
  if (d->framework_major != spec.interface_major) {
    return Mismatch("framework_major", d->framework_major, spec.interface_major);
  }
  if (d->name == nullptr || expected_name != d->name) {
    return std::string("component name is '") + (d->name ? d->name : "(null)") +
           "', expected '" + std::string(expected_name) + "' (from the file name)";
  }
  if (d->open == nullptr || d->query == nullptr || d->close == nullptr) {
    return "open, query or close is NULL";
  }
  if (d->nparams > 0 && d->params == nullptr) return "nparams is nonzero but params is NULL";
  return {};
}

std::vector<ComponentRecord> AdoptBuiltins(
    const FrameworkSpec& spec, std::span<const pmix_mca_component_t* const> table,
    int verbosity) {
  std::vector<ComponentRecord> records;
  for (const pmix_mca_component_t* d : table) {
    if (d == nullptr || d->framework == nullptr || std::strcmp(d->framework, spec.name) != 0) {
      continue;  // another framework's built-in
    }
    ComponentRecord record;
    record.framework = spec.name;
    record.name = d->name != nullptr ? d->name : "(null)";
    record.path = "(built-in)";
    Judge(spec, d, verbosity, &record);
    records.push_back(std::move(record));
  }
  return records;
}

std::span<const pmix_mca_component_t* const> BuiltinComponents() {
#ifdef PMIXX_ENABLE_DLOPEN
  return {};
#else
  return {kBuiltinComponents, kBuiltinComponentCount};
#endif
}

#ifdef PMIXX_ENABLE_DLOPEN
std::vector<ComponentRecord> FindComponents(const FrameworkSpec& spec,
                                            std::span<const std::string> dirs,
                                            int verbosity) {
  std::vector<ComponentRecord> records;
  std::map<std::string, std::string> first_path;  // name -> file that won
  std::string prefix = "pmix_mca_" + std::string(spec.name) + "_";
  for (const std::string& dir : dirs) {
    for (const std::string& name : ListDir(dir, prefix)) {
      ComponentRecord record;
      record.framework = spec.name;
      record.name = name;
      record.path = dir + "/" + prefix + name + ".so";
      if (auto it = first_path.find(name); it != first_path.end()) {
        record.status = ComponentStatus::kShadowed;
        record.reason = "shadowed by " + it->second;
        if (verbosity >= 1) {
          output::Verbose(spec.name, 0, "ignoring %s: %s", record.path.c_str(),
                          record.reason.c_str());
        }
      } else {
        first_path.emplace(name, record.path);
        LoadFile(spec, verbosity, &record);
      }
      records.push_back(std::move(record));
    }
  }
  return records;
}
#else
std::vector<ComponentRecord> FindComponents(const FrameworkSpec& spec,
                                            std::span<const std::string>, int verbosity) {
  return AdoptBuiltins(spec, BuiltinComponents(), verbosity);
}
#endif

}  // namespace pmix::mca
