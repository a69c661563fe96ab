// Process sets (standard §14.1): host-defined, immutable labels on sets of
// processes. The server keeps the sets its host defined with
// PMIx_server_define_process_set until PMIx_server_delete_process_set.
//
// A member may be {nspace, PMIX_RANK_WILDCARD}: every process of that job.
//
// Threads: plain values; the table belongs to the server's progress thread.
#ifndef PMIXX_SRC_GROUPS_PSET_TABLE_H
#define PMIXX_SRC_GROUPS_PSET_TABLE_H

#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmix_common.h"
#include "src/common/status.h"

namespace pmix::groups {

class PsetTable {
 public:
  // PMIX_ERR_BAD_PARAM: an empty or too long name (> PMIX_MAX_NSLEN), no
  // members, an invalid member; PMIX_EXISTS: the name is taken. Nothing
  // changes on error.
  Status Define(std::string_view name, std::span<const pmix_proc_t> members);
  // PMIX_ERR_NOT_FOUND when there is no such set.
  Status Delete(std::string_view name);
  // The members, or nullptr.
  const std::vector<pmix_proc_t>* Find(std::string_view name) const;
  // Every name, sorted.
  std::vector<std::string> Names() const;
  // The sets `proc` (an exact rank) is a member of, sorted.
  std::vector<std::string> NamesOf(const pmix_proc_t& proc) const;
  size_t size() const { return sets_.size(); }
  void Clear() { sets_.clear(); }

 private:
  std::map<std::string, std::vector<pmix_proc_t>, std::less<>> sets_;
};

}  // namespace pmix::groups

#endif  // PMIXX_SRC_GROUPS_PSET_TABLE_H
