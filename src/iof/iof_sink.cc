// One pull registration's output (iof_sink.h).
#include "src/iof/iof_sink.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "src/common/info_lookup.h"
#include "src/common/output.h"

namespace pmix::iof {
namespace {

void WriteAll(int fd, std::string_view text) {
  while (!text.empty()) {
    ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // a closed output loses the output, not the stream
    text.remove_prefix(static_cast<size_t>(n));
  }
}

std::string NspaceOf(const pmix_proc_t& p) {
  return std::string(p.nspace, ::strnlen(p.nspace, PMIX_MAX_NSLEN));
}

std::string Replace(std::string s, const std::string& what, const std::string& with) {
  for (size_t at = 0; (at = s.find(what, at)) != std::string::npos; at += with.size())
    s.replace(at, what.size(), with);
  return s;
}

// Output files and the directories made for them are the user's alone
// (the output of a job is nobody else's business).
constexpr mode_t kFileMode = 0600;
constexpr mode_t kDirMode = 0700;

// `path` and its missing parents; the components from `first` on (those
// the sink names: <nspace>/rank.<r>) must be real directories, not links
// someone planted (the user's own directory may be a link).
bool MakeDirs(const std::string& path, size_t first) {
  for (size_t slash = 1; slash <= path.size(); ++slash) {
    slash = std::min(path.find('/', slash), path.size());
    std::string part = path.substr(0, slash);
    if (::mkdir(part.c_str(), kDirMode) != 0 && errno != EEXIST) return false;
    struct stat st {};
    if (slash > first && (::lstat(part.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))) {
      errno = ENOTDIR;
      return false;
    }
  }
  return true;
}

}  // namespace

PullOptions ReadPullOptions(std::span<const pmix_info_t> d, bool has_cbfunc) {
  PullOptions o;
  o.format = ReadFormat(d);
  const pmix_info_t* local = FindInfo(d, PMIX_IOF_LOCAL_OUTPUT);
  o.local_output = local != nullptr ? InfoFlag(d, PMIX_IOF_LOCAL_OUTPUT) : !has_cbfunc;
  o.merge = InfoFlag(d, PMIX_IOF_MERGE_STDERR_STDOUT);
  o.file = InfoString(d, PMIX_IOF_OUTPUT_TO_FILE).value_or("");
  o.directory = InfoString(d, PMIX_IOF_OUTPUT_TO_DIRECTORY).value_or("");
  o.file_pattern = InfoFlag(d, PMIX_IOF_FILE_PATTERN);
  o.file_only = InfoFlag(d, PMIX_IOF_FILE_ONLY);
  o.buffer_size = static_cast<size_t>(InfoU32(d, PMIX_IOF_BUFFERING_SIZE).value_or(0));
  o.buffer_time = std::chrono::seconds(InfoU32(d, PMIX_IOF_BUFFERING_TIME).value_or(0));
  return o;
}

Sink::Sink(PullOptions opts, pmix_iof_cbfunc_t cbfunc, size_t id, int stdout_fd, int stderr_fd)
    : opts_(std::move(opts)), cbfunc_(cbfunc), id_(id), stdout_fd_(stdout_fd), stderr_fd_(stderr_fd) {}

Sink::~Sink() {
  for (auto& [path, fd] : files_)
    if (fd >= 0) ::close(fd);
}

Sink::Stream& Sink::StreamOf(const pmix_proc_t& source, pmix_iof_channel_t channel) {
  Key key{NspaceOf(source), source.rank, channel};
  Stream& s = streams_[key];
  s.source = source;
  s.channel = channel;
  return s;
}

void Sink::Callback(Stream& s, std::span<const pmix_info_t> info) {
  pmix_byte_object_t bo;
  bo.bytes = s.buffered.empty() ? nullptr : s.buffered.data();
  bo.size = s.buffered.size();
  cbfunc_(id_, s.channel, &s.source, &bo, const_cast<pmix_info_t*>(info.data()), info.size());
  s.buffered.clear();
}

int Sink::FileFor(const pmix_proc_t& source, pmix_iof_channel_t channel) {
  if (opts_.file.empty() && opts_.directory.empty()) return -1;
  bool err = !(channel & PMIX_FWD_STDOUT_CHANNEL) && !opts_.merge;
  std::string suffix = err ? "stderr" : "stdout";
  std::string ns = NspaceOf(source), rank = std::to_string(source.rank), path;
  if (!opts_.directory.empty()) {
    std::string dir = opts_.directory + "/" + ns + "/rank." + rank;
    if (!MakeDirs(dir, opts_.directory.size())) dir.clear();
    path = dir.empty() ? "" : dir + "/" + suffix;
  } else if (opts_.file_pattern) {
    path = Replace(Replace(opts_.file, "%n", ns), "%r", rank) + "." + suffix;
  } else {
    path = opts_.file + "." + ns + "." + rank + "." + suffix;
  }
  auto it = files_.find(path);
  if (it != files_.end()) return it->second;
  // Never through a link planted at the file's name (O_NOFOLLOW: ELOOP).
  int fd = path.empty() ? -1
                        : ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
                                 kFileMode);
  if (fd < 0 && !file_error_reported_) {
    file_error_reported_ = true;
    output::Error("iof", "cannot write forwarded output to %s: %s",
                  path.empty() ? opts_.directory.c_str() : path.c_str(), std::strerror(errno));
  }
  files_[path] = fd;
  return fd;
}

void Sink::WriteTo(int fd, const Stream& s, std::string_view text) {
  if (text.empty()) return;
  // Whole lines: another stream's unfinished last line is ended first.
  auto open = open_line_.find(fd);
  if (!opts_.format.raw && open != open_line_.end() && open->second != &s) WriteAll(fd, "\n");
  WriteAll(fd, text);
  if (text.back() == '\n')
    open_line_.erase(fd);
  else
    open_line_[fd] = &s;
}

void Sink::Write(const Stream& s, std::string_view text) {
  int file = FileFor(s.source, s.channel);
  if (file >= 0) WriteTo(file, s, text);
  if ((file >= 0 && opts_.file_only) || !opts_.local_output) return;
  bool to_stdout = (s.channel & PMIX_FWD_STDOUT_CHANNEL) || opts_.merge;
  WriteTo(to_stdout ? stdout_fd_ : stderr_fd_, s, text);
}

void Sink::WriteFormatted(Stream& s, std::string_view data, bool complete) {
  std::time_t now = std::time(nullptr);
  if (opts_.format.raw) {
    if (!data.empty()) Write(s, FormatLine(s.source, s.channel, data, opts_.format, now));
    return;
  }
  for (const std::string& line : s.lines.Feed(data))
    Write(s, FormatLine(s.source, s.channel, line, opts_.format, now));
  if (complete) {
    std::string rest = s.lines.Flush();
    if (!rest.empty()) Write(s, FormatLine(s.source, s.channel, rest, opts_.format, now));
  }
}

void Sink::Deliver(const pmix_proc_t& source, pmix_iof_channel_t channel, std::string_view data,
                   std::span<const pmix_info_t> info) {
  Stream& s = StreamOf(source, channel);
  bool complete = InfoFlag(info, PMIX_IOF_COMPLETE);
  bool to_files = !opts_.file.empty() || !opts_.directory.empty();
  if (opts_.local_output || to_files) WriteFormatted(s, data, complete);
  if (cbfunc_ == nullptr) return;
  s.buffered.append(data);
  bool buffering = opts_.buffer_size > 0 || opts_.buffer_time.count() > 0;
  bool full = opts_.buffer_size > 0 && s.buffered.size() >= opts_.buffer_size;
  if (!buffering || full || complete || !info.empty()) Callback(s, info);
}

void Sink::Flush() {
  for (auto& [key, s] : streams_) {
    if (cbfunc_ != nullptr && !s.buffered.empty()) Callback(s, {});
    std::string rest = s.lines.Flush();
    if (!rest.empty()) Write(s, FormatLine(s.source, s.channel, rest, opts_.format, std::time(nullptr)));
  }
}

bool Sink::WantsTimer() const {
  if (cbfunc_ == nullptr || opts_.buffer_time.count() == 0) return false;
  for (const auto& [key, s] : streams_)
    if (!s.buffered.empty()) return true;
  return false;
}

}  // namespace pmix::iof
