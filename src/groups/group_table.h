// Process groups as values (standard ch. 14.2, RFC0033), shared by the
// server (which tracks the groups of its local processes) and the client
// (which remembers the groups it belongs to).
//
// A group's members are kept in group-rank order: the rank of a member is
// its position in the array of the construct (or invite) that made the
// group. A member that leaves or dies keeps its slot (so group ranks never
// shift) and is marked absent.
//
// Group references: a pmix_proc_t whose nspace names a group stands for
// members of that group: {grp, PMIX_RANK_WILDCARD} for every present
// member, {grp, r} for the member of group rank r. Translate() replaces
// them by the members' own ids, which is what the host and the stores see.
//
// Threads: plain values; a Table belongs to the thread that owns it (the
// progress thread in both roles).
#ifndef PMIXX_SRC_GROUPS_GROUP_TABLE_H
#define PMIXX_SRC_GROUPS_GROUP_TABLE_H

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmix_common.h"
#include "src/common/status.h"
#include "src/wire/buffer.h"

namespace pmix::groups {

struct Group {
  std::string name;
  std::vector<pmix_proc_t> members;  // group rank = index
  std::vector<bool> present;         // false: the member left or died
  std::optional<size_t> context_id;  // PMIX_GROUP_CONTEXT_ID, when one was assigned
  bool notify_termination = false;   // PMIX_GROUP_NOTIFY_TERMINATION at construction
  bool ft_collective = false;        // PMIX_GROUP_FT_COLLECTIVE at construction

  // A group of `members`, all present.
  static Group Of(std::string name, std::vector<pmix_proc_t> members);
  // The present members, in group-rank order.
  std::vector<pmix_proc_t> Current() const;
  // The group rank of `proc` (an exact rank; present or not).
  std::optional<size_t> RankOf(const pmix_proc_t& proc) const;
  // Whether `proc` is a present member.
  bool Has(const pmix_proc_t& proc) const;
  // Marks `proc` absent; false when it was not a present member.
  bool Remove(const pmix_proc_t& proc);
};

// Groups by name.
class Table {
 public:
  Group* Find(std::string_view name);
  const Group* Find(std::string_view name) const;
  // PMIX_EXISTS when a group of that name is there already.
  Status Add(Group group);
  bool Erase(std::string_view name);
  // Every group name, sorted.
  std::vector<std::string> Names() const;
  // The groups `proc` is a present member of, sorted by name.
  std::vector<std::string> NamesOf(const pmix_proc_t& proc) const;
  size_t size() const { return groups_.size(); }
  void Clear() { groups_.clear(); }
  std::map<std::string, Group, std::less<>>& all() { return groups_; }

 private:
  std::map<std::string, Group, std::less<>> groups_;
};

// True for a usable group name: 1..PMIX_MAX_NSLEN characters, terminated
// within grp[PMIX_MAX_NSLEN].
bool ValidName(const char* grp);

// The group `name` refers to, or nullptr.
using Lookup = std::function<const Group*(std::string_view name)>;

// `procs` with every group reference replaced by the members it stands for
// (the other entries as they are, in order). PMIX_ERR_NOT_FOUND: a group
// rank beyond the group or of a member that is no longer in it.
Result<std::vector<pmix_proc_t>> Translate(std::span<const pmix_proc_t> procs,
                                           const Lookup& lookup);
// Whether some entry of `procs` is a group reference.
bool RefersToGroup(std::span<const pmix_proc_t> procs, const Lookup& lookup);

// The size of a namespace's job, when known.
using JobSize = std::function<std::optional<uint32_t>(std::string_view nspace)>;

// The member list a construct or invite names: `procs` in order, a
// {nspace, PMIX_RANK_WILDCARD} entry expanded to ranks 0..size-1 when the
// job's size is known (kept as it is otherwise), duplicates dropped (the
// first one counts). PMIX_ERR_BAD_PARAM: empty, an empty or unterminated
// nspace, a rank that is neither valid nor the wildcard.
Result<std::vector<pmix_proc_t>> ExpandMembers(std::span<const pmix_proc_t> procs,
                                               const JobSize& job_size);

// Infos carrying proc and string arrays (PMIX_DATA_ARRAY values).
Status AddProcArray(wire::Infos& infos, const char* key, std::span<const pmix_proc_t> procs);
Status AddStringArray(wire::Infos& infos, const char* key, std::span<const std::string> strings);
// The procs of a PMIX_DATA_ARRAY of PMIX_PROC (or a single PMIX_PROC) value.
std::optional<std::vector<pmix_proc_t>> ProcsOf(const pmix_value_t& value);
std::optional<std::vector<pmix_proc_t>> InfoProcs(std::span<const pmix_info_t> infos,
                                                  const char* key);
// A malloc'd PMIX_DATA_ARRAY value of strings / procs (for get answers).
Result<pmix_value_t*> StringArrayValue(std::span<const std::string> strings);
Result<pmix_value_t*> ProcArrayValue(std::span<const pmix_proc_t> procs);

bool SameProc(const pmix_proc_t& a, const pmix_proc_t& b);

}  // namespace pmix::groups

#endif  // PMIXX_SRC_GROUPS_GROUP_TABLE_H
