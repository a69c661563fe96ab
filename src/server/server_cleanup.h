// Cleanup registrations (standard §13.2.5, RFC0027): files and directories
// a process asks its server, through PMIx_Job_control, to remove once it
// has terminated. Open MPI 4.1 registers its job session directory
// (PMIX_REGISTER_CLEANUP_DIR + PMIX_CLEANUP_RECURSIVE) and its shared
// memory backing files (PMIX_REGISTER_CLEANUP) this way in MPI_Init.
//
// This file is the pure logic: splitting the cleanup directives off a
// request, keeping registrations per target, and removing what one names.
// When a registration runs is server_job_control.cc's business.
//
// Safety: only absolute paths without "." / ".." components are accepted
// ("/" itself is refused). Removal never follows a symbolic link (a link is
// unlinked, not its target) and removes only entries owned by the uid that
// registered them (uid 0 may remove any). Everything is best effort: what
// cannot be removed is left, with a verbose message.
//
// Threads: none of its own; a Registry belongs to one thread (the server's
// progress thread).
#ifndef PMIXX_SRC_SERVER_SERVER_CLEANUP_H
#define PMIXX_SRC_SERVER_SERVER_CLEANUP_H

#include <sys/types.h>

#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pmix_common.h"
#include "src/common/status.h"
#include "src/wire/buffer.h"

namespace pmix::server::cleanup {

// The cleanup part of one job control request.
struct Request {
  std::vector<std::string> files;   // PMIX_REGISTER_CLEANUP
  std::vector<std::string> dirs;    // PMIX_REGISTER_CLEANUP_DIR
  std::vector<std::string> ignore;  // PMIX_CLEANUP_IGNORE: names kept wherever they are
  bool recursive = false;           // PMIX_CLEANUP_RECURSIVE
  bool empty_only = false;          // PMIX_CLEANUP_EMPTY: remove no file, only empty dirs
  bool leave_topdir = false;        // PMIX_CLEANUP_LEAVE_TOPDIR
  uid_t owner = 0;                  // the requester's uid

  bool empty() const { return files.empty() && dirs.empty(); }
};

// True for the keys this file handles (the cleanup registrations and
// their options).
bool IsCleanupKey(const char* key);

// Splits directives: the cleanup ones are read into *req, every other one
// is copied to *rest. PMIX_ERR_BAD_PARAM for a path that is not acceptable
// (see above) or a registration whose value is not a string. Options
// without a registration to apply to are accepted and have no effect.
Status Split(std::span<const pmix_info_t> directives, Request* req, wire::Infos* rest);

// Removes what req names (files first, then directories); returns how many
// entries were removed.
size_t Execute(const Request& req);

// Registrations per target process. A target of rank PMIX_RANK_WILDCARD
// stands for the whole namespace.
class Registry {
 public:
  void Add(const pmix_proc_t& target, Request req);
  // Removes and returns the registrations of exactly this target.
  std::vector<Request> TakeProc(const pmix_proc_t& target);
  // Removes and returns every registration of the namespace (any rank).
  std::vector<Request> TakeNamespace(std::string_view nspace);
  std::vector<Request> TakeAll();
  size_t size() const;

 private:
  std::map<std::pair<std::string, pmix_rank_t>, std::vector<Request>, std::less<>> by_target_;
};

}  // namespace pmix::server::cleanup

#endif  // PMIXX_SRC_SERVER_SERVER_CLEANUP_H
