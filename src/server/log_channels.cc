// The log channels a process serves itself (log_channels.h).
#include "src/server/log_channels.h"

#include <syslog.h>

#include <cstdio>
#include <cstring>
#include <string_view>

#include "src/common/info_lookup.h"

namespace pmix::logging {
namespace {

constexpr const char* kModifiers[] = {
    PMIX_LOG_SOURCE,
    PMIX_LOG_SYSLOG_PRI,
    PMIX_LOG_TIMESTAMP,
    PMIX_LOG_TAG_OUTPUT,
    PMIX_LOG_GENERATE_TIMESTAMP,
    PMIX_LOG_TIMESTAMP_OUTPUT,
    PMIX_LOG_XML_OUTPUT,
    PMIX_LOG_ONCE,
    PMIX_LOG_AGG,
    PMIX_USERID,
    PMIX_GRPID,
};

enum class Sink { kOut, kErr, kSyslog, kNone };

struct Channel {
  const char* key;
  const char* tag;  // the name PMIX_LOG_TAG_OUTPUT / XML use
  Sink sink;
};
constexpr Channel kChannels[] = {
    {PMIX_LOG_STDERR, "stderr", Sink::kErr},
    {PMIX_LOG_STDOUT, "stdout", Sink::kOut},
    {PMIX_LOG_SYSLOG, "syslog", Sink::kSyslog},
    {PMIX_LOG_LOCAL_SYSLOG, "syslog", Sink::kSyslog},
};

const Channel* FindChannel(const char* key) {
  for (const Channel& c : kChannels)
    if (std::strncmp(key, c.key, PMIX_MAX_KEYLEN) == 0) return &c;
  return nullptr;
}

// How the lines of one request look.
struct Format {
  std::optional<time_t> stamp;
  bool tag = false;
  bool xml = false;
  int priority = LOG_ERR;
};

// A modifier from directives, else from data.
const pmix_info_t* Modifier(std::span<const pmix_info_t> data, std::span<const pmix_info_t> dirs,
                            const char* key) {
  const pmix_info_t* found = FindInfo(dirs, key);
  return found != nullptr ? found : FindInfo(data, key);
}

Format ReadFormat(std::span<const pmix_info_t> data, std::span<const pmix_info_t> dirs,
                  const Sinks& sinks) {
  Format f;
  const pmix_info_t* stamp = Modifier(data, dirs, PMIX_LOG_TIMESTAMP);
  if (stamp != nullptr && stamp->value.type == PMIX_TIME) f.stamp = stamp->value.data.time;
  auto flag = [&](const char* key) {
    const pmix_info_t* i = Modifier(data, dirs, key);
    return i != nullptr && PMIx_Info_true(i);
  };
  if (!f.stamp && (flag(PMIX_LOG_GENERATE_TIMESTAMP) || flag(PMIX_LOG_TIMESTAMP_OUTPUT)))
    f.stamp = sinks.now();
  f.tag = flag(PMIX_LOG_TAG_OUTPUT);
  f.xml = flag(PMIX_LOG_XML_OUTPUT);
  const pmix_info_t* pri = Modifier(data, dirs, PMIX_LOG_SYSLOG_PRI);
  int64_t level = 0;
  if (pri != nullptr && PMIx_Value_get_number(&pri->value, &level, PMIX_INT64) == PMIX_SUCCESS)
    f.priority = static_cast<int>(level);
  return f;
}

std::optional<std::string> Text(const pmix_value_t& v) {
  if (v.type == PMIX_STRING) return std::string(v.data.string != nullptr ? v.data.string : "");
  if (v.type == PMIX_BYTE_OBJECT)
    return std::string(v.data.bo.bytes != nullptr ? v.data.bo.bytes : "", v.data.bo.size);
  return std::nullopt;
}

std::string Stamp(time_t t) {
  struct tm parts;
  char buf[64];
  if (::localtime_r(&t, &parts) == nullptr ||
      std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S ", &parts) == 0)
    return "";
  return buf;
}

std::string Line(const Channel& c, std::string text, const Format& f) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  if (f.xml) text = std::string("<") + c.tag + ">" + text + "</" + c.tag + ">";
  if (f.tag) text = std::string(c.tag) + ": " + text;
  if (f.stamp) text = Stamp(*f.stamp) + text;
  return text + "\n";
}

void Write(const Channel& c, const pmix_proc_t& source, const std::string& text, const Format& f,
           const Sinks& sinks) {
  switch (c.sink) {
    case Sink::kOut:
      return sinks.out(Line(c, text, f));
    case Sink::kErr:
      return sinks.err(Line(c, text, f));
    case Sink::kSyslog: {
      std::string line = Line(c, text, f);
      line.pop_back();
      std::string who = std::string(source.nspace) + ":" + std::to_string(source.rank);
      return sinks.syslog(f.priority, "[" + who + "] " + line);
    }
    case Sink::kNone:
      return;
  }
}

}  // namespace

bool IsLogModifier(const char* key) {
  for (const char* m : kModifiers)
    if (std::strncmp(key, m, PMIX_MAX_KEYLEN) == 0) return true;
  return false;
}

const Sinks& SystemSinks() {
  static const Sinks sinks{
      [](const std::string& line) {
        std::fputs(line.c_str(), stdout);
        std::fflush(stdout);
      },
      [](const std::string& line) {
        std::fputs(line.c_str(), stderr);
        std::fflush(stderr);
      },
      [](int priority, const std::string& text) { ::syslog(priority, "%s", text.c_str()); },
      [] { return std::time(nullptr); },
  };
  return sinks;
}

pmix_status_t LogLocally(const pmix_proc_t& source, std::span<const pmix_info_t> data,
                         std::span<const pmix_info_t> directives, const Sinks& sinks) {
  Format format = ReadFormat(data, directives, sinks);
  bool once = InfoFlag(directives, PMIX_LOG_ONCE) || InfoFlag(data, PMIX_LOG_ONCE);
  size_t channels = 0, served = 0;
  for (const pmix_info_t& entry : data) {
    if (IsLogModifier(entry.key)) continue;
    ++channels;
    const Channel* c = FindChannel(entry.key);
    if (c == nullptr) continue;
    auto text = Text(entry.value);
    if (!text) return PMIX_ERR_BAD_PARAM;
    Write(*c, source, *text, format, sinks);
    ++served;
    if (once) return PMIX_SUCCESS;
  }
  if (channels == 0) return PMIX_ERR_BAD_PARAM;
  return served == channels ? PMIX_SUCCESS : PMIX_ERR_NOT_SUPPORTED;
}

}  // namespace pmix::logging
