// Forwarded-output registrations (src/server/server_iof.h).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pmix.h"
#include "src/server/server_iof.h"

namespace pmix::server {
namespace {

pmix_proc_t P(const char* ns, pmix_rank_t rank) {
  pmix_proc_t p;
  PMIx_Load_procid(&p, ns, rank);
  return p;
}

IofChunk Chunk(const pmix_proc_t& source, pmix_iof_channel_t channel, const std::string& text) {
  return IofChunk{source, channel, {text.data(), text.size()}, {}};
}

TEST(IofRegistry, NobodyRegisteredDeliversNothing) {
  IofRegistry reg;
  std::string text = "hello\n";
  EXPECT_EQ(reg.Deliver(Chunk(P("job", 0), PMIX_FWD_STDOUT_CHANNEL, text)), 0u);
}

TEST(IofRegistry, MatchesSourceRankWildcardAndChannel) {
  IofRegistry reg;
  std::vector<std::string> a, b;
  reg.Add({P("job", 1)}, PMIX_FWD_STDOUT_CHANNEL,
          [&](const IofChunk& c) { a.emplace_back(c.data.begin(), c.data.end()); });
  uint64_t id_b = reg.Add({P("job", PMIX_RANK_WILDCARD)},
                          PMIX_FWD_STDOUT_CHANNEL | PMIX_FWD_STDERR_CHANNEL,
                          [&](const IofChunk& c) { b.emplace_back(c.data.begin(), c.data.end()); });
  std::string out = "out", err = "err", other = "other";
  EXPECT_EQ(reg.Deliver(Chunk(P("job", 1), PMIX_FWD_STDOUT_CHANNEL, out)), 2u);
  EXPECT_EQ(reg.Deliver(Chunk(P("job", 1), PMIX_FWD_STDERR_CHANNEL, err)), 1u);
  EXPECT_EQ(reg.Deliver(Chunk(P("job", 0), PMIX_FWD_STDDIAG_CHANNEL, other)), 0u);
  EXPECT_EQ(reg.Deliver(Chunk(P("jobx", 1), PMIX_FWD_STDOUT_CHANNEL, other)), 0u);
  EXPECT_EQ(a, (std::vector<std::string>{"out"}));
  EXPECT_EQ(b, (std::vector<std::string>{"out", "err"}));
  EXPECT_TRUE(reg.Remove(id_b).has_value());
  EXPECT_FALSE(reg.Remove(id_b).has_value());
  EXPECT_EQ(reg.Deliver(Chunk(P("job", 1), PMIX_FWD_STDERR_CHANNEL, err)), 0u);
  EXPECT_EQ(reg.size(), 1u);
}

}  // namespace
}  // namespace pmix::server
