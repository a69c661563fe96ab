// pmixrun's jobs (see jobs.h).
#include "src/tools/pmixrun/jobs.h"

#include <cstring>
#include <mutex>
#include <set>
#include <utility>

namespace pmixrun {
namespace {

struct Known {
  std::mutex mutex;
  std::set<std::string, std::less<>> nspaces;
};

Known& KnownSet() {
  static Known known;
  return known;
}

}  // namespace

bool Job::AllReaped() const {
  for (const Child& c : children)
    if (!c.reaped) return false;
  return true;
}

std::string Job::ParentNspace() const {
  if (!layout.parent) return "";
  return std::string(layout.parent->nspace, strnlen(layout.parent->nspace, PMIX_MAX_NSLEN));
}

Job& JobTable::Add(std::unique_ptr<Job> job) {
  jobs_.push_back(std::move(job));
  return *jobs_.back();
}

Job* JobTable::Find(std::string_view nspace) {
  for (auto& job : jobs_)
    if (job->nspace() == nspace) return job.get();
  return nullptr;
}

void AddKnownNamespace(const std::string& nspace) {
  std::lock_guard<std::mutex> lock(KnownSet().mutex);
  KnownSet().nspaces.insert(nspace);
}

void RemoveKnownNamespace(const std::string& nspace) {
  std::lock_guard<std::mutex> lock(KnownSet().mutex);
  KnownSet().nspaces.erase(nspace);
}

bool KnownNamespace(std::string_view nspace) {
  std::lock_guard<std::mutex> lock(KnownSet().mutex);
  return KnownSet().nspaces.count(nspace) > 0;
}

}  // namespace pmixrun
