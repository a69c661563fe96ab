// Where one PMIx_IOF_pull registration's output goes in the process that
// pulled it (standard §18.3.1, §18.3.5, §18.5.7).
//
// With a callback (cbfunc), each chunk goes to it as it came (raw: source,
// channel, bytes, the host's info, e.g. PMIX_IOF_COMPLETE at the end of a
// stream), gathered per source and channel when PMIX_IOF_BUFFERING_SIZE
// (until that many bytes) or PMIX_IOF_BUFFERING_TIME (at most that many
// seconds, the owner's timer calls Flush) asks; a complete stream flushes
// its source at once. Without one, or with PMIX_IOF_LOCAL_OUTPUT, it is
// written formatted (iof_format.h) to this process's stdout/stderr
// (stderr and stddiag to stdout with PMIX_IOF_MERGE_STDERR_STDOUT), in
// whole lines unless PMIX_IOF_OUTPUT_RAW. PMIX_IOF_OUTPUT_TO_FILE F writes
// it to F.<nspace>.<rank>.stdout / .stderr (F with %n and %r replaced,
// plus .stdout / .stderr, with PMIX_IOF_FILE_PATTERN),
// PMIX_IOF_OUTPUT_TO_DIRECTORY D to D/<nspace>/rank.<rank>/stdout /
// stderr (directories made as needed); one file per source with merge; the
// console copy then stays off only with PMIX_IOF_FILE_ONLY. Files are
// created 0600 and directories 0700 (before the umask); a symbolic link
// where a file or a directory the sink names (<nspace>, rank.<rank>) goes
// is not followed: that output is not written there. A file that cannot be
// opened is reported once and its output goes to the console.
//
// Writes block (a slow stdout or disk slows the stream down rather than
// filling memory). Flush writes out what is buffered and unfinished lines.
// A stream's unfinished last line (written at its end or at Flush, as it
// is: no newline added) is ended by a newline only when output of another
// stream follows it on the same file (stderr merged into stdout, another
// rank's output), so that output starts a line of its own rather than
// being glued to it; not with PMIX_IOF_OUTPUT_RAW (chunks as they came).
//
// Threads: one thread at a time (the progress thread).
#ifndef PMIXX_SRC_IOF_IOF_SINK_H
#define PMIXX_SRC_IOF_IOF_SINK_H

#include <chrono>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <tuple>

#include "pmix_common.h"
#include "pmix_tool.h"
#include "src/iof/iof_format.h"

namespace pmix::iof {

struct PullOptions {
  FormatOptions format;
  bool local_output = false;
  bool merge = false;
  std::string file;
  std::string directory;
  bool file_pattern = false;
  bool file_only = false;
  size_t buffer_size = 0;
  std::chrono::seconds buffer_time{0};
};

// The options of a pull's directives; local_output defaults to !has_cbfunc.
PullOptions ReadPullOptions(std::span<const pmix_info_t> directives, bool has_cbfunc);

class Sink {
 public:
  // `id`: what the callback is told (the registration's handle).
  Sink(PullOptions opts, pmix_iof_cbfunc_t cbfunc, size_t id, int stdout_fd = 1, int stderr_fd = 2);
  ~Sink();
  Sink(const Sink&) = delete;
  Sink& operator=(const Sink&) = delete;

  void Deliver(const pmix_proc_t& source, pmix_iof_channel_t channel, std::string_view data,
               std::span<const pmix_info_t> info);
  void Flush();
  // Whether a timed flush is due to be armed (buffering time, data held).
  bool WantsTimer() const;
  const PullOptions& options() const { return opts_; }

 private:
  using Key = std::tuple<std::string, pmix_rank_t, pmix_iof_channel_t>;
  struct Stream {
    pmix_proc_t source{};
    pmix_iof_channel_t channel = PMIX_FWD_NO_CHANNELS;
    std::string buffered;  // for the callback
    LineSplitter lines;    // for written output
  };
  Stream& StreamOf(const pmix_proc_t& source, pmix_iof_channel_t channel);
  void Callback(Stream& s, std::span<const pmix_info_t> info);
  void Write(const Stream& s, std::string_view text);
  void WriteTo(int fd, const Stream& s, std::string_view text);
  void WriteFormatted(Stream& s, std::string_view data, bool complete);
  int FileFor(const pmix_proc_t& source, pmix_iof_channel_t channel);

  PullOptions opts_;
  pmix_iof_cbfunc_t cbfunc_;
  size_t id_;
  int stdout_fd_, stderr_fd_;
  std::map<Key, Stream> streams_;
  std::map<std::string, int> files_;  // path -> fd
  // fd -> the stream whose unfinished line the last write there left open
  std::map<int, const Stream*> open_line_;
  bool file_error_reported_ = false;
};

}  // namespace pmix::iof

#endif  // PMIXX_SRC_IOF_IOF_SINK_H
