// How forwarded output looks when the library writes it (standard §18.3.1,
// §18.3.5), in OpenPMIx 4.2's shape so scripts that read its output work:
//
//   PMIX_IOF_TAG_OUTPUT        "[<job>,<rank>]<stdout>: " before each line,
//                              <job> the part of the nspace after its last
//                              '@' (all of it without one)
//   PMIX_IOF_RANK_OUTPUT       "[<rank>]<stdout>: "
//   PMIX_IOF_TIMESTAMP_OUTPUT  "[<ctime>]" before the tag ("[<ctime>]<stdout>: "
//                              alone), ctime without its newline
//   PMIX_IOF_XML_OUTPUT        <stdout rank="<rank>"[ timestamp="<ctime>"]>
//                              line</stdout> and a newline; with the tag
//                              nspace="<nspace>" (jobid="<job>" for an
//                              nspace with '@') before rank; '&' '<' '>'
//                              escaped as entities, other unprintable bytes
//                              (the line's own newline too) as "&#NNN;"
//   none of them               the bytes unchanged
// "<stdout>" is the channel: stdout, stderr or stddiag. Formatting works on
// whole lines: a LineSplitter keeps a source's unfinished line until its
// newline (or the end of the stream) comes, unless PMIX_IOF_OUTPUT_RAW.
//
// Threads: no shared state.
#ifndef PMIXX_SRC_IOF_IOF_FORMAT_H
#define PMIXX_SRC_IOF_IOF_FORMAT_H

#include <ctime>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmix_common.h"

namespace pmix::iof {

struct FormatOptions {
  bool tag = false;
  bool rank = false;
  bool timestamp = false;
  bool xml = false;
  bool raw = false;  // no line buffering

  bool Any() const { return tag || rank || timestamp || xml; }
};

// Reads the format attributes of a directive array.
FormatOptions ReadFormat(std::span<const pmix_info_t> directives);

// "stdout", "stderr", "stddiag" (the lowest channel bit set), else "".
const char* ChannelName(pmix_iof_channel_t channel);

// One line (or, raw, one chunk) of `source` on `channel` as written.
std::string FormatLine(const pmix_proc_t& source, pmix_iof_channel_t channel,
                       std::string_view line, const FormatOptions& opts, std::time_t now);

// Splits a stream into lines: Feed returns the complete lines (each with
// its newline) in order and keeps the rest; Flush returns the rest.
class LineSplitter {
 public:
  std::vector<std::string> Feed(std::string_view data);
  std::string Flush();
  size_t pending() const { return residual_.size(); }

 private:
  std::string residual_;
};

}  // namespace pmix::iof

#endif  // PMIXX_SRC_IOF_IOF_FORMAT_H
