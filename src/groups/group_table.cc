// Process groups as values (group_table.h).
#include "src/groups/group_table.h"

#include <cstdlib>
#include <cstring>
#include <new>

#include "pmix.h"
#include "src/common/info_lookup.h"

namespace pmix::groups {
namespace {

bool ValidNspace(const char (&nspace)[PMIX_MAX_NSLEN + 1]) {
  size_t len = ::strnlen(nspace, PMIX_MAX_NSLEN + 1);
  return len > 0 && len <= PMIX_MAX_NSLEN;
}

bool ValidRank(pmix_rank_t rank) { return rank < PMIX_RANK_VALID || rank == PMIX_RANK_WILDCARD; }

std::string NspaceOf(const pmix_proc_t& p) {
  return std::string(p.nspace, ::strnlen(p.nspace, PMIX_MAX_NSLEN));
}

pmix_proc_t Copy(const pmix_proc_t& p) {
  pmix_proc_t out{};
  PMIx_Load_procid(&out, p.nspace, p.rank);  // clears the bytes past the name
  return out;
}

bool Contains(const std::vector<pmix_proc_t>& procs, const pmix_proc_t& p) {
  for (const auto& q : procs)
    if (SameProc(q, p)) return true;
  return false;
}

}  // namespace

bool SameProc(const pmix_proc_t& a, const pmix_proc_t& b) {
  return a.rank == b.rank && std::strncmp(a.nspace, b.nspace, PMIX_MAX_NSLEN) == 0;
}

Group Group::Of(std::string name, std::vector<pmix_proc_t> members) {
  Group g;
  g.name = std::move(name);
  g.present.assign(members.size(), true);
  g.members = std::move(members);
  return g;
}

std::vector<pmix_proc_t> Group::Current() const {
  std::vector<pmix_proc_t> out;
  for (size_t i = 0; i < members.size(); ++i)
    if (present[i]) out.push_back(members[i]);
  return out;
}

std::optional<size_t> Group::RankOf(const pmix_proc_t& proc) const {
  for (size_t i = 0; i < members.size(); ++i)
    if (SameProc(members[i], proc)) return i;
  return std::nullopt;
}

bool Group::Has(const pmix_proc_t& proc) const {
  auto rank = RankOf(proc);
  return rank && present[*rank];
}

bool Group::Remove(const pmix_proc_t& proc) {
  auto rank = RankOf(proc);
  if (!rank || !present[*rank]) return false;
  present[*rank] = false;
  return true;
}

Group* Table::Find(std::string_view name) {
  auto it = groups_.find(name);
  return it == groups_.end() ? nullptr : &it->second;
}

const Group* Table::Find(std::string_view name) const {
  auto it = groups_.find(name);
  return it == groups_.end() ? nullptr : &it->second;
}

Status Table::Add(Group group) {
  if (groups_.count(group.name) != 0) return PMIX_EXISTS;
  std::string name = group.name;
  groups_.emplace(std::move(name), std::move(group));
  return Status();
}

bool Table::Erase(std::string_view name) {
  auto it = groups_.find(name);
  if (it == groups_.end()) return false;
  groups_.erase(it);
  return true;
}

std::vector<std::string> Table::Names() const {
  std::vector<std::string> out;
  for (const auto& entry : groups_) out.push_back(entry.first);
  return out;
}

std::vector<std::string> Table::NamesOf(const pmix_proc_t& proc) const {
  std::vector<std::string> out;
  for (const auto& [name, group] : groups_)
    if (group.Has(proc)) out.push_back(name);
  return out;
}

bool ValidName(const char* grp) {
  if (grp == nullptr) return false;
  size_t len = ::strnlen(grp, PMIX_MAX_NSLEN + 1);
  return len > 0 && len <= PMIX_MAX_NSLEN;
}

Result<std::vector<pmix_proc_t>> Translate(std::span<const pmix_proc_t> procs,
                                           const Lookup& lookup) {
  std::vector<pmix_proc_t> out;
  out.reserve(procs.size());
  for (const pmix_proc_t& p : procs) {
    const Group* g = ValidNspace(p.nspace) ? lookup(NspaceOf(p)) : nullptr;
    if (g == nullptr) {
      out.push_back(p);
      continue;
    }
    if (p.rank == PMIX_RANK_WILDCARD) {
      for (const auto& m : g->Current()) out.push_back(m);
      continue;
    }
    if (p.rank >= g->members.size() || !g->present[p.rank]) return Status(PMIX_ERR_NOT_FOUND);
    out.push_back(g->members[p.rank]);
  }
  return out;
}

bool RefersToGroup(std::span<const pmix_proc_t> procs, const Lookup& lookup) {
  for (const pmix_proc_t& p : procs)
    if (ValidNspace(p.nspace) && lookup(NspaceOf(p)) != nullptr) return true;
  return false;
}

Result<std::vector<pmix_proc_t>> ExpandMembers(std::span<const pmix_proc_t> procs,
                                               const JobSize& job_size) {
  if (procs.empty()) return Status(PMIX_ERR_BAD_PARAM);
  std::vector<pmix_proc_t> out;
  for (const pmix_proc_t& p : procs) {
    if (!ValidNspace(p.nspace) || !ValidRank(p.rank)) return Status(PMIX_ERR_BAD_PARAM);
    std::optional<uint32_t> size =
        p.rank == PMIX_RANK_WILDCARD ? job_size(NspaceOf(p)) : std::nullopt;
    if (p.rank != PMIX_RANK_WILDCARD || !size || *size == 0) {
      if (!Contains(out, p)) out.push_back(Copy(p));
      continue;
    }
    for (pmix_rank_t r = 0; r < *size; ++r) {
      pmix_proc_t member{};
      PMIx_Load_procid(&member, p.nspace, r);
      if (!Contains(out, member)) out.push_back(member);
    }
  }
  return out;
}

Status AddProcArray(wire::Infos& infos, const char* key, std::span<const pmix_proc_t> procs) {
  pmix_data_array_t array{};
  array.type = PMIX_PROC;
  array.size = procs.size();
  array.array = const_cast<pmix_proc_t*>(procs.data());
  return infos.Add(key, &array, PMIX_DATA_ARRAY);
}

Status AddStringArray(wire::Infos& infos, const char* key, std::span<const std::string> strings) {
  std::vector<char*> ptrs;
  for (const auto& s : strings) ptrs.push_back(const_cast<char*>(s.c_str()));
  pmix_data_array_t array{};
  array.type = PMIX_STRING;
  array.size = ptrs.size();
  array.array = ptrs.data();
  return infos.Add(key, &array, PMIX_DATA_ARRAY);
}

std::optional<std::vector<pmix_proc_t>> ProcsOf(const pmix_value_t& value) {
  if (value.type == PMIX_PROC && value.data.proc != nullptr)
    return std::vector<pmix_proc_t>{*value.data.proc};
  if (value.type != PMIX_DATA_ARRAY || value.data.darray == nullptr ||
      value.data.darray->type != PMIX_PROC || (value.data.darray->array == nullptr &&
                                               value.data.darray->size > 0))
    return std::nullopt;
  const auto* p = static_cast<const pmix_proc_t*>(value.data.darray->array);
  return std::vector<pmix_proc_t>(p, p + value.data.darray->size);
}

std::optional<std::vector<pmix_proc_t>> InfoProcs(std::span<const pmix_info_t> infos,
                                                  const char* key) {
  const pmix_info_t* info = FindInfo(infos, key);
  if (info == nullptr) return std::nullopt;
  return ProcsOf(info->value);
}

namespace {

Result<pmix_value_t*> ArrayValue(const void* items, size_t n, pmix_data_type_t type) {
  pmix_value_t* v = PMIx_Value_create(1);
  if (v == nullptr) return Status(PMIX_ERR_NOMEM);
  pmix_data_array_t array{};
  array.type = type;
  array.size = n;
  array.array = const_cast<void*>(items);
  pmix_status_t rc = PMIx_Value_load(v, &array, PMIX_DATA_ARRAY);
  if (rc != PMIX_SUCCESS) {
    PMIx_Value_free(v, 1);
    return Status(rc);
  }
  return v;
}

}  // namespace

Result<pmix_value_t*> StringArrayValue(std::span<const std::string> strings) {
  std::vector<char*> ptrs;
  for (const auto& s : strings) ptrs.push_back(const_cast<char*>(s.c_str()));
  return ArrayValue(ptrs.data(), ptrs.size(), PMIX_STRING);
}

Result<pmix_value_t*> ProcArrayValue(std::span<const pmix_proc_t> procs) {
  return ArrayValue(procs.data(), procs.size(), PMIX_PROC);
}

}  // namespace pmix::groups
