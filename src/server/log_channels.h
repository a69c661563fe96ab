// The PMIx_Log channels a process can serve itself (standard §13.4): what
// a server does with a log request when its host has no log upcall (or
// declines it), and what a singleton does with its own.
//
// Every info of `data` is a channel (its key) carrying the text to log,
// except the modifiers below, which may be given in `data` or in
// `directives`:
//   PMIX_LOG_STDERR / PMIX_LOG_STDOUT      written to this process's
//                                          stderr / stdout, one line
//   PMIX_LOG_SYSLOG, PMIX_LOG_LOCAL_SYSLOG syslog(3), priority
//                                          PMIX_LOG_SYSLOG_PRI (default
//                                          LOG_ERR), "[nspace:rank] text"
//   anything else (PMIX_LOG_GLOBAL_SYSLOG, PMIX_LOG_EMAIL, job records,
//   unknown keys)                          not served here
// Modifiers: PMIX_LOG_ONCE (only the first channel, in data order, that is
// served here), PMIX_LOG_TIMESTAMP (time_t) / PMIX_LOG_GENERATE_TIMESTAMP /
// PMIX_LOG_TIMESTAMP_OUTPUT (prefix "YYYY-mm-dd HH:MM:SS "),
// PMIX_LOG_TAG_OUTPUT (prefix "<channel>: ", e.g. "stderr: "),
// PMIX_LOG_XML_OUTPUT (the line as <channel>text</channel>), and the ones
// that only describe the request (PMIX_LOG_SOURCE, PMIX_LOG_AGG,
// PMIX_USERID, PMIX_GRPID).
//
// Returns PMIX_SUCCESS when every channel was served (with PMIX_LOG_ONCE:
// one was), PMIX_ERR_BAD_PARAM when a served channel's value is not a
// string (or byte object) or there is no channel at all, else
// PMIX_ERR_NOT_SUPPORTED (after serving what it could).
//
// Threads: any; output goes through `sinks`.
#ifndef PMIXX_SRC_SERVER_LOG_CHANNELS_H
#define PMIXX_SRC_SERVER_LOG_CHANNELS_H

#include <ctime>
#include <functional>
#include <optional>
#include <span>
#include <string>

#include "pmix_common.h"

namespace pmix::logging {

struct Sinks {
  std::function<void(const std::string& line)> out;  // stdout
  std::function<void(const std::string& line)> err;  // stderr
  std::function<void(int priority, const std::string& text)> syslog;
  std::function<time_t()> now;
};
// stdout/stderr (flushed) and syslog(3), the clock.
const Sinks& SystemSinks();

pmix_status_t LogLocally(const pmix_proc_t& source, std::span<const pmix_info_t> data,
                         std::span<const pmix_info_t> directives, const Sinks& sinks);

// Whether key only modifies a request (not a channel).
bool IsLogModifier(const char* key);

}  // namespace pmix::logging

#endif  // PMIXX_SRC_SERVER_LOG_CHANNELS_H
