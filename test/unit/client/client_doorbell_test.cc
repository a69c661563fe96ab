// The client's doorbell (client_doorbell.h): tickets, and every way an
// answer reaches a waiter (the server's ring, a delivery from the progress
// thread, the loss of the server, the caller's own deadline).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <thread>
#include <vector>

#include "src/client/client_doorbell.h"

namespace pmix::client {
namespace {

using std::chrono::milliseconds;
using std::chrono::steady_clock;
namespace doorbell = wire::doorbell;

class ClientDoorbell : public ::testing::Test {
 protected:
  void SetUp() override {
    auto made = doorbell::Page::Create();
    ASSERT_TRUE(made.ok());
    server_page_ = std::move(made->first);
    auto mine = doorbell::Page::Attach(made->second.get());
    ASSERT_TRUE(mine.ok());
    bell_ = std::make_unique<Doorbell>(std::move(*mine));
  }

  std::unique_ptr<doorbell::Page> server_page_;  // the server's mapping
  std::unique_ptr<Doorbell> bell_;
};

TEST_F(ClientDoorbell, TicketsTakeDistinctSlotsUntilNoneIsLeft) {
  std::set<uint32_t> slots, seqs;
  std::vector<doorbell::Ticket> taken;
  for (size_t i = 0; i < doorbell::kSlots; ++i) {
    auto t = bell_->Acquire();
    ASSERT_TRUE(t.has_value());
    EXPECT_NE(t->seq, 0u);
    slots.insert(t->slot);
    seqs.insert(t->seq);
    taken.push_back(*t);
  }
  EXPECT_EQ(slots.size(), doorbell::kSlots);
  EXPECT_EQ(seqs.size(), doorbell::kSlots);
  EXPECT_FALSE(bell_->Acquire().has_value()) << "every slot is in use";
  // An answered ticket frees its slot.
  doorbell::Ring(server_page_->data(), taken[3], PMIX_SUCCESS);
  EXPECT_EQ(bell_->Await(taken[3], std::nullopt).code(), PMIX_SUCCESS);
  auto again = bell_->Acquire();
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->slot, taken[3].slot);
  EXPECT_NE(again->seq, taken[3].seq);
}

// A waiter whose ticket names a release word is woken by the release of
// that word alone (its slot stored but not woken, as a server releasing
// many waiters at once does).
TEST(ClientDoorbellRelease, AReleaseOfTheTicketsWordWakesTheWaiter) {
  if (!doorbell::CanWaitOnTwo()) GTEST_SKIP() << "no futex_waitv on this kernel";
  auto made = doorbell::Page::Create();
  ASSERT_TRUE(made.ok());
  auto mine = doorbell::Page::Attach(made->second.get());
  ASSERT_TRUE(mine.ok());
  auto release = doorbell::ReleasePage::Create();
  ASSERT_TRUE(release.ok());
  auto seen = doorbell::ReleasePage::Attach(release->second.get());
  ASSERT_TRUE(seen.ok());
  Doorbell bell(std::move(*mine), nullptr, std::move(*seen));
  ASSERT_TRUE(bell.has_release());
  for (int round = 0; round < 3; ++round) {
    auto t = bell.Acquire();
    ASSERT_TRUE(t.has_value());
    t->word = 17;
    std::thread server([&] {
      std::this_thread::sleep_for(milliseconds(30));
      EXPECT_TRUE(doorbell::Store(made->first->data(), *t, PMIX_ERR_PARTIAL_SUCCESS));
      release->first->Release(t->word);
    });
    // Bounded: a waiter the release missed would time out, not hang.
    auto deadline = steady_clock::now() + std::chrono::seconds(20);
    EXPECT_EQ(bell.Await(*t, deadline).code(), PMIX_ERR_PARTIAL_SUCCESS);
    server.join();
  }
}

TEST(ClientDoorbellRelease, TheWordOfAFenceIsTheSameForAnyOrderOfItsProcesses) {
  std::vector<pmix_proc_t> procs(5);
  for (pmix_rank_t r = 0; r < 5; ++r) PMIx_Load_procid(&procs[r], r % 2 ? "a" : "b", r);
  uint32_t word = doorbell::ReleaseWordOf(procs);
  EXPECT_LT(word, doorbell::kReleaseWords);
  std::reverse(procs.begin(), procs.end());
  EXPECT_EQ(doorbell::ReleaseWordOf(procs), word);
  std::set<uint32_t> words;
  for (pmix_rank_t r = 0; r < 64; ++r) {
    pmix_proc_t one;
    PMIx_Load_procid(&one, "job", r);
    words.insert(doorbell::ReleaseWordOf(std::span<const pmix_proc_t>(&one, 1)));
  }
  EXPECT_GT(words.size(), 48u) << "fences of distinct processes should spread over the words";
}

TEST_F(ClientDoorbell, TheServersRingWakesTheWaiter) {
  auto t = bell_->Acquire();
  ASSERT_TRUE(t.has_value());
  std::thread server([&] {
    std::this_thread::sleep_for(milliseconds(50));
    doorbell::Ring(server_page_->data(), *t, PMIX_ERR_PARTIAL_SUCCESS);
  });
  EXPECT_EQ(bell_->Await(*t, std::nullopt).code(), PMIX_ERR_PARTIAL_SUCCESS);
  server.join();
}

// Mail rung with an answer reaches its waiter whole; a later answer in
// the same slot without mail leaves none; mail longer than a mailbox is
// not rung at all, and a length word beyond a mailbox is refused.
TEST_F(ClientDoorbell, MailComesWithItsAnswer) {
  auto t = bell_->Acquire();
  ASSERT_TRUE(t.has_value());
  std::vector<uint8_t> mail(doorbell::kMailBytes);
  for (size_t i = 0; i < mail.size(); ++i) mail[i] = static_cast<uint8_t>(i * 7);
  std::vector<uint8_t> too_long(doorbell::kMailBytes + 1, 1);
  EXPECT_FALSE(doorbell::Ring(server_page_->data(), *t, PMIX_SUCCESS, too_long));
  std::thread server([&] {
    std::this_thread::sleep_for(milliseconds(20));
    EXPECT_TRUE(doorbell::Ring(server_page_->data(), *t, PMIX_SUCCESS, mail));
  });
  wire::Bytes got;
  EXPECT_EQ(bell_->Await(*t, std::nullopt, &got).code(), PMIX_SUCCESS);
  server.join();
  EXPECT_EQ(got, mail);
  auto u = bell_->Acquire();
  ASSERT_TRUE(u.has_value());
  ASSERT_EQ(u->slot, t->slot);
  EXPECT_TRUE(doorbell::Ring(server_page_->data(), *u, PMIX_ERR_TIMEOUT));
  EXPECT_EQ(bell_->Await(*u, std::nullopt, &got).code(), PMIX_ERR_TIMEOUT);
  EXPECT_TRUE(got.empty());
  doorbell::MailWord(server_page_->data(), u->slot).store(doorbell::kMailBytes + 1);
  EXPECT_EQ(doorbell::Collect(server_page_->data(), u->slot, &got), PMIX_ERR_BAD_PARAM);
}

TEST_F(ClientDoorbell, DeliveriesAndFailuresReachOnlyTicketsInFlight) {
  auto a = bell_->Acquire(), b = bell_->Acquire();
  ASSERT_TRUE(a && b);
  std::thread progress([&] {
    std::this_thread::sleep_for(milliseconds(20));
    bell_->Deliver(a->seq, PMIX_ERR_TIMEOUT);
    bell_->Deliver(a->seq + 1000, PMIX_ERROR);  // no such ticket: ignored
    std::this_thread::sleep_for(milliseconds(20));
    bell_->FailAll(PMIX_ERR_LOST_CONNECTION);
  });
  EXPECT_EQ(bell_->Await(*a, std::nullopt).code(), PMIX_ERR_TIMEOUT);
  EXPECT_EQ(bell_->Await(*b, std::nullopt).code(), PMIX_ERR_LOST_CONNECTION);
  progress.join();
  // A delivery after its waiter left changes nothing.
  bell_->Deliver(a->seq, PMIX_ERROR);
  auto c = bell_->Acquire();
  ASSERT_TRUE(c.has_value());
  EXPECT_NE(doorbell::Seq(server_page_->data(), c->slot).load(), c->seq);
}

TEST_F(ClientDoorbell, AWaiterPastItsDeadlineRetiresItsSlot) {
  auto t = bell_->Acquire();
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(bell_->Await(*t, steady_clock::now() + milliseconds(30)).code(), PMIX_ERR_TIMEOUT);
  // A late answer may still land in that slot: it is not handed out again.
  for (size_t i = 0; i + 1 < doorbell::kSlots; ++i) {
    auto next = bell_->Acquire();
    ASSERT_TRUE(next.has_value());
    EXPECT_NE(next->slot, t->slot);
  }
  EXPECT_FALSE(bell_->Acquire().has_value());
}

}  // namespace
}  // namespace pmix::client
