// Forwarded output formats (iof_format.h).
#include "src/iof/iof_format.h"

#include <cctype>
#include <cstdio>
#include <cstring>

#include "src/common/info_lookup.h"

namespace pmix::iof {
namespace {

std::string RankText(pmix_rank_t rank) {
  switch (rank) {
    case PMIX_RANK_WILDCARD: return "WILDCARD";
    case PMIX_RANK_UNDEF: return "UNDEF";
    case PMIX_RANK_LOCAL_NODE: return "LOCAL_NODE";
    case PMIX_RANK_LOCAL_PEERS: return "LOCAL_PEERS";
    case PMIX_RANK_INVALID: return "INVALID";
    default: return std::to_string(rank);
  }
}

std::string Nspace(const pmix_proc_t& p) {
  return std::string(p.nspace, ::strnlen(p.nspace, PMIX_MAX_NSLEN));
}

// The part of the nspace after its last '@', or all of it.
std::string JobPart(const std::string& nspace, bool* had_at) {
  size_t at = nspace.rfind('@');
  *had_at = at != std::string::npos;
  return *had_at ? nspace.substr(at + 1) : nspace;
}

std::string Ctime(std::time_t now) {
  char buf[64] = {};
  if (::ctime_r(&now, buf) == nullptr) return "";
  std::string s(buf);
  if (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

std::string XmlEscape(std::string_view data) {
  std::string out;
  out.reserve(data.size() + 16);
  for (char c : data) {
    auto u = static_cast<unsigned char>(c);
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (!std::isprint(u)) {
      char code[16];
      std::snprintf(code, sizeof code, "&#%03d;", static_cast<int>(u));
      out += code;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace

FormatOptions ReadFormat(std::span<const pmix_info_t> d) {
  FormatOptions o;
  o.tag = InfoFlag(d, PMIX_IOF_TAG_OUTPUT);
  o.rank = InfoFlag(d, PMIX_IOF_RANK_OUTPUT);
  o.timestamp = InfoFlag(d, PMIX_IOF_TIMESTAMP_OUTPUT);
  o.xml = InfoFlag(d, PMIX_IOF_XML_OUTPUT);
  o.raw = InfoFlag(d, PMIX_IOF_OUTPUT_RAW);
  return o;
}

const char* ChannelName(pmix_iof_channel_t channel) {
  if (channel & PMIX_FWD_STDOUT_CHANNEL) return "stdout";
  if (channel & PMIX_FWD_STDERR_CHANNEL) return "stderr";
  if (channel & PMIX_FWD_STDDIAG_CHANNEL) return "stddiag";
  return "";
}

std::string FormatLine(const pmix_proc_t& source, pmix_iof_channel_t channel,
                       std::string_view line, const FormatOptions& o, std::time_t now) {
  if (!o.Any()) return std::string(line);
  const std::string suffix = ChannelName(channel), rank = RankText(source.rank);
  const std::string nspace = Nspace(source);
  bool had_at = false;
  const std::string job = JobPart(nspace, &had_at);
  std::string out;
  if (o.xml) {
    out = "<" + suffix;
    if (o.tag) out += std::string(had_at ? " jobid=\"" : " nspace=\"") + job + "\"";
    out += " rank=\"" + rank + "\"";
    if (o.timestamp) out += " timestamp=\"" + Ctime(now) + "\"";
    out += ">" + XmlEscape(line) + "</" + suffix + ">\n";
    return out;
  }
  if (o.timestamp)
    out += (o.tag || o.rank) ? "[" + Ctime(now) + "]" : "[" + Ctime(now) + "]<" + suffix + ">: ";
  if (o.tag) out += "[" + job + "," + rank + "]<" + suffix + ">: ";
  else if (o.rank) out += "[" + rank + "]<" + suffix + ">: ";
  out.append(line);
  return out;
}

std::vector<std::string> LineSplitter::Feed(std::string_view data) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t nl; (nl = data.find('\n', start)) != std::string_view::npos; start = nl + 1) {
    if (!residual_.empty()) {
      residual_.append(data.substr(start, nl + 1 - start));
      lines.push_back(std::move(residual_));
      residual_.clear();
    } else {
      lines.emplace_back(data.substr(start, nl + 1 - start));
    }
  }
  residual_.append(data.substr(start));
  return lines;
}

std::string LineSplitter::Flush() {
  std::string rest = std::move(residual_);
  residual_.clear();
  return rest;
}

}  // namespace pmix::iof
