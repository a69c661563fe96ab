// The log channels a process serves itself (src/server/log_channels.h).
#include "src/server/log_channels.h"

#include <gtest/gtest.h>
#include <syslog.h>

#include <string>
#include <vector>

#include "src/wire/buffer.h"

namespace pmix::logging {
namespace {

// Sinks that record what they are given.
struct Recorder {
  std::vector<std::string> out, err, sys;
  std::vector<int> priorities;
  Sinks sinks{
      [this](const std::string& l) { out.push_back(l); },
      [this](const std::string& l) { err.push_back(l); },
      [this](int p, const std::string& t) {
        priorities.push_back(p);
        sys.push_back(t);
      },
      [] { return time_t{86400 * 365}; },
  };
};

pmix_proc_t Source() {
  pmix_proc_t p;
  PMIx_Load_procid(&p, "job", 2);
  return p;
}

wire::Infos Strings(std::vector<std::pair<const char*, const char*>> kvs) {
  wire::Infos out;
  for (auto& [k, v] : kvs) EXPECT_TRUE(out.Add(k, v, PMIX_STRING).ok());
  return out;
}

TEST(LogChannels, StderrAndStdoutOneLineEach) {
  Recorder r;
  wire::Infos data = Strings({{PMIX_LOG_STDERR, "to err"}, {PMIX_LOG_STDOUT, "to out\n"}});
  EXPECT_EQ(LogLocally(Source(), data.view(), {}, r.sinks), PMIX_SUCCESS);
  EXPECT_EQ(r.err, std::vector<std::string>{"to err\n"});
  EXPECT_EQ(r.out, std::vector<std::string>{"to out\n"});
}

TEST(LogChannels, SyslogWithSourceAndPriority) {
  Recorder r;
  wire::Infos data = Strings({{PMIX_LOG_SYSLOG, "hello"}});
  wire::Infos dirs;
  int pri = LOG_WARNING;
  ASSERT_TRUE(dirs.Add(PMIX_LOG_SYSLOG_PRI, &pri, PMIX_INT).ok());
  EXPECT_EQ(LogLocally(Source(), data.view(), dirs.view(), r.sinks), PMIX_SUCCESS);
  EXPECT_EQ(r.sys, std::vector<std::string>{"[job:2] hello"});
  EXPECT_EQ(r.priorities, std::vector<int>{LOG_WARNING});
  Recorder d;
  EXPECT_EQ(LogLocally(Source(), Strings({{PMIX_LOG_LOCAL_SYSLOG, "x"}}).view(), {}, d.sinks),
            PMIX_SUCCESS);
  EXPECT_EQ(d.priorities, std::vector<int>{LOG_ERR});
}

TEST(LogChannels, UnservedChannelIsNotSupportedAfterServingTheOthers) {
  Recorder r;
  wire::Infos data = Strings({{PMIX_LOG_GLOBAL_SYSLOG, "g"}, {PMIX_LOG_STDERR, "e"}});
  EXPECT_EQ(LogLocally(Source(), data.view(), {}, r.sinks), PMIX_ERR_NOT_SUPPORTED);
  EXPECT_EQ(r.err, std::vector<std::string>{"e\n"});
}

TEST(LogChannels, OnceTakesTheFirstServableChannel) {
  Recorder r;
  wire::Infos data =
      Strings({{PMIX_LOG_GLOBAL_SYSLOG, "g"}, {PMIX_LOG_STDOUT, "o"}, {PMIX_LOG_STDERR, "e"}});
  wire::Infos dirs;
  ASSERT_TRUE(dirs.Add(PMIX_LOG_ONCE, nullptr, PMIX_BOOL).ok());
  EXPECT_EQ(LogLocally(Source(), data.view(), dirs.view(), r.sinks), PMIX_SUCCESS);
  EXPECT_EQ(r.out, std::vector<std::string>{"o\n"});
  EXPECT_TRUE(r.err.empty());
  Recorder none;
  wire::Infos only_global = Strings({{PMIX_LOG_GLOBAL_SYSLOG, "g"}});
  EXPECT_EQ(LogLocally(Source(), only_global.view(), dirs.view(), none.sinks),
            PMIX_ERR_NOT_SUPPORTED);
}

TEST(LogChannels, TimestampTagAndXml) {
  Recorder r;
  wire::Infos data = Strings({{PMIX_LOG_STDERR, "msg"}});
  wire::Infos dirs;
  time_t t = 0;
  ASSERT_TRUE(dirs.Add(PMIX_LOG_TIMESTAMP, &t, PMIX_TIME).ok());
  ASSERT_TRUE(dirs.Add(PMIX_LOG_TAG_OUTPUT, nullptr, PMIX_BOOL).ok());
  EXPECT_EQ(LogLocally(Source(), data.view(), dirs.view(), r.sinks), PMIX_SUCCESS);
  ASSERT_EQ(r.err.size(), 1u);
  // "YYYY-mm-dd HH:MM:SS stderr: msg\n" (the date depends on the time zone)
  EXPECT_EQ(r.err[0].size(), 20 + std::string("stderr: msg\n").size()) << r.err[0];
  EXPECT_EQ(r.err[0].substr(20), "stderr: msg\n");

  Recorder g;
  wire::Infos gen;
  ASSERT_TRUE(gen.Add(PMIX_LOG_GENERATE_TIMESTAMP, nullptr, PMIX_BOOL).ok());
  ASSERT_TRUE(gen.Add(PMIX_LOG_XML_OUTPUT, nullptr, PMIX_BOOL).ok());
  EXPECT_EQ(LogLocally(Source(), data.view(), gen.view(), g.sinks), PMIX_SUCCESS);
  ASSERT_EQ(g.err.size(), 1u);
  EXPECT_EQ(g.err[0].substr(20), "<stderr>msg</stderr>\n");
}

TEST(LogChannels, BadValuesAndNoChannels) {
  Recorder r;
  wire::Infos data;
  int n = 3;
  ASSERT_TRUE(data.Add(PMIX_LOG_STDERR, &n, PMIX_INT).ok());
  EXPECT_EQ(LogLocally(Source(), data.view(), {}, r.sinks), PMIX_ERR_BAD_PARAM);
  wire::Infos modifiers_only;
  ASSERT_TRUE(modifiers_only.Add(PMIX_LOG_ONCE, nullptr, PMIX_BOOL).ok());
  EXPECT_EQ(LogLocally(Source(), modifiers_only.view(), {}, r.sinks), PMIX_ERR_BAD_PARAM);
  EXPECT_TRUE(r.err.empty());
  EXPECT_TRUE(IsLogModifier(PMIX_LOG_SOURCE));
  EXPECT_FALSE(IsLogModifier(PMIX_LOG_STDERR));
}

}  // namespace
}  // namespace pmix::logging
