// Forwarded-output formats in OpenPMIx's shape (src/iof/iof_format.h).
#include "src/iof/iof_format.h"

#include <gtest/gtest.h>

#include "pmix.h"

namespace pmix::iof {
namespace {

pmix_proc_t P(const char* ns, pmix_rank_t rank) {
  pmix_proc_t p;
  PMIx_Load_procid(&p, ns, rank);
  return p;
}

constexpr std::time_t kWhen = 0;  // ctime: "Thu Jan  1 00:00:00 1970" in UTC

std::string Ct() {
  std::time_t t = kWhen;
  char buf[64];
  std::string s = ::ctime_r(&t, buf);
  s.pop_back();
  return s;
}

TEST(IofFormat, NoOptionLeavesTheBytesAlone) {
  FormatOptions o;
  EXPECT_EQ(FormatLine(P("job", 1), PMIX_FWD_STDOUT_CHANNEL, "a\x01<b>\n", o, kWhen), "a\x01<b>\n");
}

TEST(IofFormat, TagUsesTheJobPartAfterTheLastAt) {
  FormatOptions o;
  o.tag = true;
  EXPECT_EQ(FormatLine(P("prte-x@1", 3), PMIX_FWD_STDOUT_CHANNEL, "hi\n", o, kWhen),
            "[1,3]<stdout>: hi\n");
  EXPECT_EQ(FormatLine(P("pmixrun.7", 0), PMIX_FWD_STDERR_CHANNEL, "err\n", o, kWhen),
            "[pmixrun.7,0]<stderr>: err\n");
  EXPECT_EQ(FormatLine(P("j", 2), PMIX_FWD_STDDIAG_CHANNEL, "d\n", o, kWhen), "[j,2]<stddiag>: d\n");
}

TEST(IofFormat, RankAndTimestamp) {
  FormatOptions o;
  o.rank = true;
  EXPECT_EQ(FormatLine(P("j", 4), PMIX_FWD_STDOUT_CHANNEL, "x\n", o, kWhen), "[4]<stdout>: x\n");
  o.timestamp = true;
  EXPECT_EQ(FormatLine(P("j", 4), PMIX_FWD_STDOUT_CHANNEL, "x\n", o, kWhen),
            "[" + Ct() + "][4]<stdout>: x\n");
  FormatOptions ts;
  ts.timestamp = true;
  EXPECT_EQ(FormatLine(P("j", 4), PMIX_FWD_STDOUT_CHANNEL, "x\n", ts, kWhen),
            "[" + Ct() + "]<stdout>: x\n");
  ts.tag = true;
  EXPECT_EQ(FormatLine(P("j", 4), PMIX_FWD_STDOUT_CHANNEL, "x\n", ts, kWhen),
            "[" + Ct() + "][j,4]<stdout>: x\n");
}

TEST(IofFormat, XmlEscapesAndClosesEachLine) {
  FormatOptions o;
  o.xml = true;
  EXPECT_EQ(FormatLine(P("j", 0), PMIX_FWD_STDOUT_CHANNEL, "a<b>&c\n", o, kWhen),
            "<stdout rank=\"0\">a&lt;b&gt;&amp;c&#010;</stdout>\n");
  o.tag = true;
  EXPECT_EQ(FormatLine(P("p@2", 1), PMIX_FWD_STDERR_CHANNEL, "e\n", o, kWhen),
            "<stderr jobid=\"2\" rank=\"1\">e&#010;</stderr>\n");
  EXPECT_EQ(FormatLine(P("ns", 1), PMIX_FWD_STDERR_CHANNEL, "e", o, kWhen),
            "<stderr nspace=\"ns\" rank=\"1\">e</stderr>\n");
  o.tag = false;
  o.timestamp = true;
  EXPECT_EQ(FormatLine(P("j", 0), PMIX_FWD_STDOUT_CHANNEL, "t", o, kWhen),
            "<stdout rank=\"0\" timestamp=\"" + Ct() + "\">t</stdout>\n");
}

TEST(LineSplitter, KeepsUnfinishedLinesUntilTheirNewline) {
  LineSplitter s;
  EXPECT_TRUE(s.Feed("ab").empty());
  auto lines = s.Feed("c\nde\nf");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "abc\n");
  EXPECT_EQ(lines[1], "de\n");
  EXPECT_EQ(s.pending(), 1u);
  EXPECT_EQ(s.Flush(), "f");
  EXPECT_EQ(s.Flush(), "");
}

TEST(IofFormat, ReadsTheDirectives) {
  pmix_info_t d[3];
  bool yes = true;
  PMIx_Info_load(&d[0], PMIX_IOF_TAG_OUTPUT, &yes, PMIX_BOOL);
  PMIx_Info_load(&d[1], PMIX_IOF_XML_OUTPUT, &yes, PMIX_BOOL);
  PMIx_Info_load(&d[2], PMIX_IOF_OUTPUT_RAW, &yes, PMIX_BOOL);
  FormatOptions o = ReadFormat(d);
  EXPECT_TRUE(o.tag && o.xml && o.raw);
  EXPECT_FALSE(o.rank || o.timestamp);
  for (auto& i : d) PMIx_Info_destruct(&i);
}

}  // namespace
}  // namespace pmix::iof
