// Events and handler registrations as values (spec ch. 10), and the range
// rules every part of event delivery shares.
//
// An Event owns a deep copy of what its generator gave (status, source,
// range, infos) plus the directives read from those infos. A HandlerSpec is
// what PMIx_Register_event_handler asked for: codes and the directives of
// its info array. Parsing never keeps pointers into the caller's arrays.
//
// Threads: plain values; build them on any thread, then hand them to the
// progress thread (the dispatcher owns them there).
#ifndef PMIXX_SRC_EVENT_EVENT_H
#define PMIXX_SRC_EVENT_EVENT_H

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "pmix_common.h"
#include "src/common/status.h"
#include "src/wire/buffer.h"

namespace pmix::event {

struct Event {
  pmix_status_t status = PMIX_SUCCESS;
  pmix_proc_t source{};
  pmix_data_range_t range = PMIX_RANGE_UNDEF;
  wire::Infos info;  // as the generator gave them
  // Read from `info`:
  bool non_default = false;               // PMIX_EVENT_NON_DEFAULT
  bool do_not_cache = false;              // PMIX_EVENT_DO_NOT_CACHE
  std::vector<pmix_proc_t> custom_range;  // PMIX_EVENT_CUSTOM_RANGE
  std::vector<pmix_proc_t> affected;      // PMIX_EVENT_AFFECTED_PROC(S)
};
using EventPtr = std::shared_ptr<const Event>;

// Builds an Event from the API's arguments (deep copies). Errors:
// PMIX_ERR_BAD_PARAM for a NULL info array with ninfo > 0, a range outside
// PMIX_RANGE_UNDEF..PMIX_RANGE_PROC_LOCAL, PMIX_RANGE_CUSTOM without a
// PMIX_EVENT_CUSTOM_RANGE list, or a directive of the wrong type;
// PMIX_ERR_NOMEM.
// The body of the event messages (wire::Msg::kNotify, kEvent): status,
// source, range, infos, packed with the connection's codec.
Result<wire::Bytes> PackEvent(const pmix_bfrops_module_t* codec, const Event& ev);

Result<Event> MakeEvent(pmix_status_t status, const pmix_proc_t& source, pmix_data_range_t range,
                        const pmix_info_t* info, size_t ninfo);

// What a registration asked for.
struct HandlerSpec {
  std::vector<pmix_status_t> codes;  // empty: a default handler
  std::string name;                  // PMIX_EVENT_HDLR_NAME ("" = unnamed)
  bool first = false;                // PMIX_EVENT_HDLR_FIRST
  bool last = false;                 // PMIX_EVENT_HDLR_LAST
  bool first_in_category = false;    // PMIX_EVENT_HDLR_FIRST_IN_CATEGORY
  bool last_in_category = false;     // PMIX_EVENT_HDLR_LAST_IN_CATEGORY
  bool prepend = false;              // PMIX_EVENT_HDLR_PREPEND
  std::string before;                // PMIX_EVENT_HDLR_BEFORE
  std::string after;                 // PMIX_EVENT_HDLR_AFTER
  // Source filter: PMIX_RANGE (UNDEF = any source) / PMIX_EVENT_CUSTOM_RANGE.
  pmix_data_range_t range = PMIX_RANGE_UNDEF;
  std::vector<pmix_proc_t> custom_range;
  std::vector<pmix_proc_t> affected;  // PMIX_EVENT_AFFECTED_PROC(S) filter
  bool has_object = false;            // PMIX_EVENT_RETURN_OBJECT given
  void* object = nullptr;
};

// Reads codes and directives. PMIX_ERR_BAD_PARAM for NULL arrays with
// nonzero counts; PMIX_ERR_EVENT_REGISTRATION for a directive whose value
// has the wrong type or contradicts another (FIRST with LAST).
// PMIX_EVENT_HDLR_APPEND is the default and needs no field.
Result<HandlerSpec> ParseHandlerSpec(const pmix_status_t* codes, size_t ncodes,
                                     const pmix_info_t* info, size_t ninfo);

// --- proc and range rules ------------------------------------------------

// Same nspace, and ranks equal or either is PMIX_RANK_WILDCARD.
bool ProcMatches(const pmix_proc_t& pattern, const pmix_proc_t& proc);
bool AnyProcMatches(std::span<const pmix_proc_t> patterns, const pmix_proc_t& proc);

// Whether another process `target` is inside the target range of `event`
// (who may receive it when it is relayed). UNDEF counts as SESSION; RM
// reaches no application process; PROC_LOCAL never leaves the process that
// raised it (false); NAMESPACE reaches the source's namespace; LOCAL,
// SESSION and GLOBAL everyone; CUSTOM the listed procs.
bool TargetInRange(const Event& event, const pmix_proc_t& target);

// Whether an info's boolean value is set (no value type reads as true).
bool InfoFlag(const pmix_info_t& info);

}  // namespace pmix::event

#endif  // PMIXX_SRC_EVENT_EVENT_H
