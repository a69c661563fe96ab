// Process sets (pset_table.h).
#include "src/groups/pset_table.h"

#include <cstring>

#include "pmix.h"

namespace pmix::groups {
namespace {

bool ValidMember(const pmix_proc_t& p) {
  size_t len = ::strnlen(p.nspace, PMIX_MAX_NSLEN + 1);
  return len > 0 && len <= PMIX_MAX_NSLEN &&
         (p.rank < PMIX_RANK_VALID || p.rank == PMIX_RANK_WILDCARD);
}

bool Covers(const pmix_proc_t& member, const pmix_proc_t& proc) {
  return std::strncmp(member.nspace, proc.nspace, PMIX_MAX_NSLEN) == 0 &&
         (member.rank == PMIX_RANK_WILDCARD || member.rank == proc.rank);
}

}  // namespace

Status PsetTable::Define(std::string_view name, std::span<const pmix_proc_t> members) {
  if (name.empty() || name.size() > PMIX_MAX_NSLEN || members.empty())
    return PMIX_ERR_BAD_PARAM;
  std::vector<pmix_proc_t> copy;
  copy.reserve(members.size());
  for (const pmix_proc_t& m : members) {
    if (!ValidMember(m)) return PMIX_ERR_BAD_PARAM;
    pmix_proc_t p{};
    PMIx_Load_procid(&p, m.nspace, m.rank);
    copy.push_back(p);
  }
  if (sets_.count(name) != 0) return PMIX_EXISTS;
  sets_.emplace(std::string(name), std::move(copy));
  return Status();
}

Status PsetTable::Delete(std::string_view name) {
  auto it = sets_.find(name);
  if (it == sets_.end()) return PMIX_ERR_NOT_FOUND;
  sets_.erase(it);
  return Status();
}

const std::vector<pmix_proc_t>* PsetTable::Find(std::string_view name) const {
  auto it = sets_.find(name);
  return it == sets_.end() ? nullptr : &it->second;
}

std::vector<std::string> PsetTable::Names() const {
  std::vector<std::string> out;
  for (const auto& entry : sets_) out.push_back(entry.first);
  return out;
}

std::vector<std::string> PsetTable::NamesOf(const pmix_proc_t& proc) const {
  std::vector<std::string> out;
  for (const auto& [name, members] : sets_) {
    for (const auto& m : members) {
      if (Covers(m, proc)) {
        out.push_back(name);
        break;
      }
    }
  }
  return out;
}

}  // namespace pmix::groups
