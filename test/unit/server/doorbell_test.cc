// Fences released through a doorbell page (src/wire/doorbell.h), the
// server's side: a client asks for its page once, sends fences with a
// ticket, and the status-only answers are rung in the ticket's slot with
// no frame on the socket; an answer with records comes as a frame tagged
// with the ticket's seq; a ticket the server cannot honour is refused
// with a reply frame.
//
// Against a real server in this process (every fence is local) and
// clients that speak the wire by hand (raw_peer.h).
#include "src/wire/doorbell.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "mca/bfrops/base/bfrops_base.h"
#include "pmix.h"
#include "pmix_server.h"
#include "src/wire/buffer.h"
#include "src/wire/connection.h"
#include "src/wire/proc_data.h"
#include "src/wire/proc_data_region.h"
#include "test/unit/server/in_process_server.h"
#include "test/unit/server/raw_peer.h"

namespace pmix::server {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using test_support::RawPeer;
namespace doorbell = wire::doorbell;

constexpr const char* kJob = "bell";

pmix_proc_t Rank(pmix_rank_t r, const char* nspace = kJob) {
  pmix_proc_t p;
  PMIx_Load_procid(&p, nspace, r);
  return p;
}

class Doorbells : public test_support::InProcessServer {
 protected:
  void SetUp() override {
    StartServer(false, {});
    ASSERT_EQ(test_support::RegisterLocalJob(kJob, 2, [](pmix_rank_t) { return ::getuid(); }),
              PMIX_SUCCESS);
    uri_ = test_support::ServerUri();
    ASSERT_FALSE(uri_.empty());
    auto codec = bfrops::CodecByName("native1");
    ASSERT_TRUE(codec.ok());
    codec_ = *codec;
  }

  void Join(RawPeer& p, pmix_rank_t rank, const char* nspace = kJob) {
    ASSERT_TRUE(test_support::JoinAs(p, uri_, nspace, rank));
  }

  // Asks for a doorbell page: the reply's status, and the page mapped;
  // given `release`, asks for the release page too and maps it there.
  pmix_status_t AskPage(RawPeer& p, std::unique_ptr<doorbell::Page>* page,
                        std::unique_ptr<doorbell::ReleasePage>* release = nullptr) {
    wire::Bytes body;
    if (release != nullptr) {
      wire::Writer w(codec_);
      w.U32(1);
      auto flags = w.Take();
      EXPECT_TRUE(flags.ok());
      if (flags.ok()) body = std::move(*flags);
    }
    EXPECT_TRUE(p.Send(static_cast<uint16_t>(wire::Msg::kDoorbell), 7, body));
    auto reply = p.Recv(seconds(10));
    if (!reply) return PMIX_ERR_TIMEOUT;
    EXPECT_EQ(reply->tag, 7u);
    wire::Reader r(codec_, reply->payload);
    pmix_status_t rc = r.Status();
    if (rc != PMIX_SUCCESS) return rc;
    size_t expected = release != nullptr ? 2 : 1;
    EXPECT_EQ(reply->fds.size(), expected);
    if (reply->fds.size() != expected) return PMIX_ERROR;
    auto attached = doorbell::Page::Attach(reply->fds[0].get());
    if (!attached.ok()) return attached.status().code();
    *page = std::move(*attached);
    if (release != nullptr) {
      auto mapped = doorbell::ReleasePage::Attach(reply->fds[1].get());
      if (!mapped.ok()) return mapped.status().code();
      *release = std::move(*mapped);
    }
    return PMIX_SUCCESS;
  }

  // Ranks 0 and 1 joined, rank 0 with its doorbell page.
  void JoinBothWithPage(RawPeer& zero, RawPeer& one, std::unique_ptr<doorbell::Page>* page0) {
    Join(zero, 0);
    Join(one, 1);
    ASSERT_EQ(AskPage(zero, page0), PMIX_SUCCESS);
  }

  // Ranks 0 and 1 joined, each with its doorbell page and, where given a
  // place for it, the release page.
  struct Pages {
    std::unique_ptr<doorbell::Page> bell;
    std::unique_ptr<doorbell::ReleasePage> release;
  };
  void JoinBothWithPages(RawPeer& zero, RawPeer& one, Pages& pages0, Pages& pages1,
                         bool release0 = false, bool release1 = false) {
    Join(zero, 0);
    Join(one, 1);
    ASSERT_EQ(AskPage(zero, &pages0.bell, release0 ? &pages0.release : nullptr), PMIX_SUCCESS);
    ASSERT_EQ(AskPage(one, &pages1.bell, release1 ? &pages1.release : nullptr), PMIX_SUCCESS);
  }

  // A chunk offered ahead of a fence (Msg::kChunks with one chunk).
  struct Offer {
    std::string medium;
    uint64_t serial = 0;
    uint64_t size = 0;
  };
  std::optional<Offer> ReadOffer(const ptl::Frame& frame) {
    EXPECT_EQ(frame.type, static_cast<uint16_t>(wire::Msg::kChunks));
    EXPECT_EQ(frame.fds.size(), 1u);
    wire::Reader r(codec_, frame.payload);
    if (r.U32() != 1u) return std::nullopt;
    Offer offer;
    offer.medium = r.String();
    offer.serial = r.U64();
    offer.size = r.U64();
    if (!r.status().ok() || !r.AtEnd()) return std::nullopt;
    return offer;
  }

  // Confirms keeping the chunk of `serial` (Msg::kChunksKept).
  void ConfirmKept(RawPeer& p, uint64_t serial) {
    wire::Writer w(codec_);
    w.U32(1).U64(serial);
    auto body = w.Take();
    ASSERT_TRUE(body.ok());
    ASSERT_TRUE(p.Send(static_cast<uint16_t>(wire::Msg::kChunksKept), 0, *body));
  }

  // A fence over the whole job (collecting data when `collect`), with a
  // ticket unless nullopt.
  void SendFence(RawPeer& p, uint32_t tag, std::optional<doorbell::Ticket> ticket,
                 bool collect = false, const char* nspace = kJob) {
    pmix_info_t info;
    bool yes = true;
    PMIx_Info_load(&info, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    wire::Writer w(codec_);
    w.Procs(std::vector<pmix_proc_t>{Rank(PMIX_RANK_WILDCARD, nspace)})
        .InfoArray(collect ? std::span<const pmix_info_t>(&info, 1)
                           : std::span<const pmix_info_t>());
    if (ticket) w.U32(ticket->slot).U32(ticket->seq);
    if (ticket && ticket->word != doorbell::kNoWord) w.U32(ticket->word);
    PMIx_Info_destruct(&info);
    auto body = w.Take();
    ASSERT_TRUE(body.ok());
    ASSERT_TRUE(p.Send(static_cast<uint16_t>(wire::Msg::kFence), tag, *body));
  }

  // Waits (bounded) for the slot's seq word to reach `seq`; its status.
  static std::optional<pmix_status_t> Rung(const doorbell::Page& page, const doorbell::Ticket& t) {
    auto deadline = std::chrono::steady_clock::now() + seconds(10);
    while (doorbell::Seq(page.data(), t.slot).load() != t.seq) {
      if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
      doorbell::WaitWhile(page.data(), t.slot, doorbell::Seq(page.data(), t.slot).load(),
                          std::chrono::steady_clock::now() + milliseconds(100));
    }
    return doorbell::StatusWord(page.data(), t.slot).load();
  }

  // Commits one key (kCommit as a client sends it), so that a collecting
  // fence has a record to answer with (a large one, which the server
  // shares in a modex chunk, when `value` is).
  void Commit(RawPeer& p, pmix_rank_t rank, const std::string& value = "value",
              const char* key = "bell.key", const char* nspace = kJob,
              pmix_scope_t scope = PMIX_GLOBAL) {
    wire::Infos kvs;
    ASSERT_TRUE(kvs.Add(key, value.c_str(), PMIX_STRING).ok());
    wire::Bytes record;
    ASSERT_TRUE(wire::AppendRecord(codec_, Rank(rank, nspace), kvs.view(), record).ok());
    wire::Writer w(codec_);
    w.U32(1).U32(scope).U64(record.size());
    auto head = w.Take();
    ASSERT_TRUE(head.ok());
    wire::Bytes body = *head;
    body.insert(body.end(), record.begin(), record.end());
    ASSERT_TRUE(p.Send(static_cast<uint16_t>(wire::Msg::kCommit), 0, body));
  }

  std::optional<pmix_status_t> ReplyStatus(RawPeer& p, uint32_t tag, milliseconds wait) {
    return test_support::NextStatus(p, codec_, tag, wait);
  }

  std::string uri_;
  const pmix_bfrops_module_t* codec_ = nullptr;
};

TEST_F(Doorbells, BarriersAreRungWithoutAFrame) {
  RawPeer zero, one;
  Pages pages0, pages1;
  ASSERT_NO_FATAL_FAILURE(JoinBothWithPages(zero, one, pages0, pages1));
  for (uint32_t round = 1; round <= 3; ++round) {
    doorbell::Ticket t0{round, 100 + round}, t1{63, 200 + round};
    SendFence(zero, 0, t0);
    std::this_thread::sleep_for(milliseconds(100));
    EXPECT_NE(doorbell::Seq(pages0.bell->data(), t0.slot).load(), t0.seq)
        << "released before every participant was in";
    SendFence(one, 0, t1);
    EXPECT_EQ(Rung(*pages0.bell, t0), PMIX_SUCCESS);
    EXPECT_EQ(Rung(*pages1.bell, t1), PMIX_SUCCESS);
  }
  // Nothing came on the sockets.
  EXPECT_FALSE(zero.Recv(milliseconds(200)).has_value());
  EXPECT_FALSE(one.Recv(milliseconds(200)).has_value());
}

// Waiters naming one release word are released by one bump of it (and
// their slots rung, so a waiter on its slot alone would see the answer
// too); a word is honoured only from a client that took the release page.
TEST_F(Doorbells, WaitersOnOneReleaseWordAreReleasedTogether) {
  if (!doorbell::CanWaitOnTwo()) GTEST_SKIP() << "no futex_waitv on this kernel";
  RawPeer zero, one;
  Pages pages0, pages1;
  ASSERT_NO_FATAL_FAILURE(JoinBothWithPages(zero, one, pages0, pages1, true, true));
  doorbell::ReleasePage& release0 = *pages0.release;
  doorbell::ReleasePage& release1 = *pages1.release;
  const uint32_t word = doorbell::ReleaseWordOf(std::vector<pmix_proc_t>{Rank(PMIX_RANK_WILDCARD)});
  for (uint32_t round = 1; round <= 3; ++round) {
    uint32_t before = release0.Word(word).load();
    EXPECT_EQ(release1.Word(word).load(), before) << "one page, mapped by both";
    doorbell::Ticket t0{round, 100 + round, word}, t1{60, 200 + round, word};
    SendFence(zero, 0, t0);
    std::this_thread::sleep_for(milliseconds(50));
    EXPECT_EQ(release0.Word(word).load(), before) << "released before every participant was in";
    SendFence(one, 0, t1);
    EXPECT_EQ(Rung(*pages0.bell, t0), PMIX_SUCCESS);
    EXPECT_EQ(Rung(*pages1.bell, t1), PMIX_SUCCESS);
    auto deadline = std::chrono::steady_clock::now() + seconds(10);
    while (release0.Word(word).load() == before && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(milliseconds(1));
    EXPECT_EQ(release0.Word(word).load(), before + 1) << "one release for both waiters";
    for (uint32_t other = 0; other < doorbell::kReleaseWords; other += 97) {
      if (other != word) {
        EXPECT_EQ(release0.Word(other).load(), 0u);
      }
    }
  }
}

// A word is honoured only from a client that took the release page, and
// only within the page.
TEST_F(Doorbells, TicketWordsNeedTheReleasePage) {
  if (!doorbell::CanWaitOnTwo()) GTEST_SKIP() << "no futex_waitv on this kernel";
  RawPeer zero, one;
  Pages pages0, pages1;
  ASSERT_NO_FATAL_FAILURE(JoinBothWithPages(zero, one, pages0, pages1, false, true));
  SendFence(zero, 21, doorbell::Ticket{9, 300, 5});
  EXPECT_EQ(ReplyStatus(zero, 21, seconds(10)), PMIX_ERR_BAD_PARAM);
  SendFence(one, 22, doorbell::Ticket{9, 301, static_cast<uint32_t>(doorbell::kReleaseWords)});
  EXPECT_EQ(ReplyStatus(one, 22, seconds(10)), PMIX_ERR_BAD_PARAM);
  // Both in, one with a word and one without: each is woken its own way.
  doorbell::Ticket t0{3, 400}, t1{4, 401, 5};
  SendFence(zero, 0, t0);
  SendFence(one, 0, t1);
  EXPECT_EQ(Rung(*pages0.bell, t0), PMIX_SUCCESS);
  EXPECT_EQ(Rung(*pages1.bell, t1), PMIX_SUCCESS);
}

TEST_F(Doorbells, AnswersWithRecordsComeAsAFrameTaggedWithTheSeq) {
  RawPeer zero, one;
  std::unique_ptr<doorbell::Page> page0;
  ASSERT_NO_FATAL_FAILURE(JoinBothWithPage(zero, one, &page0));
  Commit(one, 1);
  doorbell::Ticket t0{5, 77};
  SendFence(zero, 0, t0);
  SendFence(one, 9, std::nullopt, /*collect=*/true);  // the other asks for the data
  auto frame = zero.Recv(seconds(10));
  ASSERT_TRUE(frame.has_value());
  EXPECT_EQ(frame->type, static_cast<uint16_t>(wire::Msg::kFence));
  EXPECT_EQ(frame->tag, t0.seq);
  EXPECT_EQ(frame->flags & wire::kFlagReply, 0u) << "an answer to a one-way request is no reply";
  wire::Reader r(codec_, frame->payload);
  EXPECT_EQ(r.Status(), PMIX_SUCCESS);
  EXPECT_NE(doorbell::Seq(page0->data(), t0.slot).load(), t0.seq) << "rung as well";
  EXPECT_EQ(ReplyStatus(one, 9, seconds(10)), PMIX_SUCCESS);
}

// A doorbell client that commits is offered the chunk its record went to
// (Msg::kChunks) before any fence; once it confirms keeping it
// (Msg::kChunksKept), the first collect fence over records in it is mail.
// A confirmation of a chunk never offered counts for nothing.
TEST_F(Doorbells, ChunksOfOwnCommitsAreOfferedAheadOfTheFence) {
  RawPeer zero, one;
  std::unique_ptr<doorbell::Page> page0;
  ASSERT_NO_FATAL_FAILURE(JoinBothWithPage(zero, one, &page0));
  Commit(zero, 0, std::string(4096, 'z'));
  auto frame0 = zero.Recv(seconds(3));
  if (!frame0) GTEST_SKIP() << "no shared modex chunks on this system";
  auto offer = ReadOffer(*frame0);
  ASSERT_TRUE(offer.has_value());
  EXPECT_NE(offer->serial, 0u);
  struct stat st {};
  ASSERT_EQ(::fstat(frame0->fds[0].get(), &st), 0);
  EXPECT_EQ(static_cast<uint64_t>(st.st_size), offer->size);
  // Not offered: the answer still brings the chunk by descriptor.
  ConfirmKept(zero, offer->serial + 1000);
  doorbell::Ticket t0{5, 77};
  SendFence(zero, 0, t0, /*collect=*/true);
  SendFence(one, 9, std::nullopt, /*collect=*/true);
  auto frame = zero.Recv(seconds(10));
  ASSERT_TRUE(frame.has_value());
  EXPECT_EQ(frame->type, static_cast<uint16_t>(wire::Msg::kFence));
  EXPECT_EQ(frame->fds.size(), 1u);
  ASSERT_EQ(ReplyStatus(one, 9, seconds(10)), PMIX_SUCCESS);
  // A second rank's client, offered its chunk and confirming it, gets its
  // first collect fence as mail.
  one.Close();  // rank 1 comes back with a doorbell
  RawPeer one_again;
  Join(one_again, 1);
  std::unique_ptr<doorbell::Page> page1;
  ASSERT_EQ(AskPage(one_again, &page1), PMIX_SUCCESS);
  Commit(one_again, 1, std::string(4096, 'o'));
  auto frame1 = one_again.Recv(seconds(10));
  ASSERT_TRUE(frame1.has_value());
  auto offer1 = ReadOffer(*frame1);
  ASSERT_TRUE(offer1.has_value());
  ConfirmKept(one_again, offer1->serial);
  doorbell::Ticket t1{6, 78};
  SendFence(one_again, 0, t1, /*collect=*/true);
  SendFence(zero, 11, std::nullopt, /*collect=*/true);
  // Rank 1's first connection went without finalizing: an event may come first.
  std::optional<ptl::Frame> reply;
  do {
    reply = zero.Recv(seconds(10));
  } while (reply && reply->type == static_cast<uint16_t>(wire::Msg::kEvent));
  ASSERT_TRUE(reply.has_value());
  EXPECT_EQ(reply->tag, 11u);
  EXPECT_EQ(wire::Reader(codec_, reply->payload).Status(), PMIX_SUCCESS);
  ASSERT_EQ(Rung(*page1, t1), PMIX_SUCCESS);
  std::vector<uint8_t> mail;
  ASSERT_EQ(doorbell::Collect(page1->data(), t1.slot, &mail), PMIX_SUCCESS);
  ASSERT_FALSE(mail.empty()) << "the first collect fence came as mail";
  wire::Reader m(codec_, mail);
  EXPECT_EQ(m.U32(), 0u);  // nothing to forget
  EXPECT_EQ(m.U32(), 1u);  // one region, named by serial
  EXPECT_EQ(m.String(), offer->medium);
  EXPECT_EQ(m.U32(), wire::kKept);
  EXPECT_EQ(m.U64(), offer1->serial);
  EXPECT_FALSE(one_again.Recv(milliseconds(200)).has_value()) << "no frame";
}

// The first answer with records in a modex chunk comes as a frame with
// the chunk's descriptor and serial; once the client has it, later
// answers whose records all lie in it come as mail naming it by serial:
// no frame, no descriptor.
TEST_F(Doorbells, RecordsInAChunkTheClientKeepsComeAsMail) {
  RawPeer zero, one;
  std::unique_ptr<doorbell::Page> page0;
  ASSERT_NO_FATAL_FAILURE(JoinBothWithPage(zero, one, &page0));
  Commit(one, 1, std::string(4096, 'x'));
  doorbell::Ticket t0{5, 77};
  SendFence(zero, 0, t0, /*collect=*/true);
  SendFence(one, 9, std::nullopt, /*collect=*/true);
  auto frame = zero.Recv(seconds(10));
  ASSERT_TRUE(frame.has_value());
  EXPECT_EQ(frame->tag, t0.seq);
  ASSERT_EQ(ReplyStatus(one, 9, seconds(10)), PMIX_SUCCESS);
  if (frame->fds.empty()) GTEST_SKIP() << "no shared modex chunks on this system";
  wire::Reader r(codec_, frame->payload);
  ASSERT_EQ(r.Status(), PMIX_SUCCESS);
  ASSERT_EQ(r.U32(), 1u);  // one region
  std::string medium = r.String();
  EXPECT_EQ(r.U32(), 0u);  // its descriptor
  uint64_t serial = r.U64();
  EXPECT_NE(serial, 0u);
  uint64_t size = r.U64();
  ASSERT_EQ(r.U32(), 1u);  // one extent: the first commit's record
  uint64_t first_at = r.U64(), first_length = r.U64();
  ASSERT_TRUE(r.status().ok());

  Commit(one, 1, std::string(4096, 'y'), "bell.key2");  // a new key: a record of its own (a repeated key merges on the heap)
  doorbell::Ticket t1{6, 78};
  SendFence(zero, 0, t1, /*collect=*/true);
  SendFence(one, 10, std::nullopt, /*collect=*/true);
  ASSERT_EQ(ReplyStatus(one, 10, seconds(10)), PMIX_SUCCESS);
  ASSERT_EQ(Rung(*page0, t1), PMIX_SUCCESS);
  std::vector<uint8_t> mail;
  ASSERT_EQ(doorbell::Collect(page0->data(), t1.slot, &mail), PMIX_SUCCESS);
  ASSERT_FALSE(mail.empty());
  wire::Reader m(codec_, mail);
  EXPECT_EQ(m.U32(), 0u);  // nothing to forget
  EXPECT_EQ(m.U32(), 1u);  // one region
  EXPECT_EQ(m.String(), medium);
  EXPECT_EQ(m.U32(), wire::kKept);
  EXPECT_EQ(m.U64(), serial);
  EXPECT_EQ(m.U64(), size);
  // Only the new record: the first one was sent to this client already.
  ASSERT_EQ(m.U32(), 1u);
  uint64_t second_at = m.U64(), second_length = m.U64();
  ASSERT_TRUE(m.status().ok());
  EXPECT_TRUE(m.AtEnd());
  EXPECT_GT(second_length, 4096u);
  EXPECT_TRUE(second_at >= first_at + first_length || second_at + second_length <= first_at);
  EXPECT_FALSE(zero.Recv(milliseconds(200)).has_value()) << "no frame";

  // No commit since: mail of the chunks to forget alone (none).
  doorbell::Ticket t2{7, 79};
  SendFence(zero, 0, t2, /*collect=*/true);
  SendFence(one, 11, std::nullopt, /*collect=*/true);
  ASSERT_EQ(ReplyStatus(one, 11, seconds(10)), PMIX_SUCCESS);
  ASSERT_EQ(Rung(*page0, t2), PMIX_SUCCESS);
  ASSERT_EQ(doorbell::Collect(page0->data(), t2.slot, &mail), PMIX_SUCCESS);
  wire::Reader none(codec_, mail);
  EXPECT_EQ(none.U32(), 0u);  // nothing to forget
  EXPECT_TRUE(none.status().ok());
  EXPECT_TRUE(none.AtEnd());
  EXPECT_FALSE(zero.Recv(milliseconds(200)).has_value()) << "no frame";
}

// A client maps a whole chunk it is handed, not only its records' places:
// the chunks of one job's answers hold none of another job's records
// (committed to the same server, interleaved with the job's own), nor the
// job's PMIX_REMOTE data.
TEST_F(Doorbells, AChunkHoldsOnlyItsJobsDataALocalClientMaySee) {
  constexpr const char* kOther = "bell.other";
  ASSERT_EQ(test_support::RegisterLocalJob(kOther, 2, [](pmix_rank_t) { return ::getuid(); }),
            PMIX_SUCCESS);
  const std::string mine = "mine-" + std::string(4096, 'm');
  const std::string theirs = "theirs-" + std::string(4096, 't');
  const std::string remote = "remote-" + std::string(4096, 'r');
  // Each job: rank 1 commits (rank 0 of the other job too), then both
  // fence collecting data; rank 0's answer carries its job's chunk.
  struct Job {
    const char* nspace;
    RawPeer zero, one;
    std::unique_ptr<doorbell::Page> page;
  } jobs[2];
  jobs[0].nspace = kOther;
  jobs[1].nspace = kJob;
  for (Job& job : jobs) {
    Join(job.zero, 0, job.nspace);
    Join(job.one, 1, job.nspace);
    ASSERT_EQ(AskPage(job.zero, &job.page), PMIX_SUCCESS);
  }
  Commit(jobs[0].one, 1, theirs, "bell.key", kOther);
  Commit(jobs[1].one, 1, mine, "bell.key", kJob);
  Commit(jobs[1].one, 1, remote, "bell.remote", kJob, PMIX_REMOTE);
  Commit(jobs[0].zero, 0, theirs, "bell.key0", kOther);
  std::vector<ptl::Fd> fds;  // the chunks kJob's rank 0 was handed
  for (uint32_t i = 0; i < 2; ++i) {
    Job& job = jobs[i];
    doorbell::Ticket t{5, 77 + i};
    SendFence(job.zero, 0, t, /*collect=*/true, job.nspace);
    SendFence(job.one, 9, std::nullopt, /*collect=*/true, job.nspace);
    // A rank 0 that committed was offered its own chunk first (Msg::kChunks).
    std::optional<ptl::Frame> frame;
    do {
      frame = job.zero.Recv(seconds(10));
    } while (frame && frame->type == static_cast<uint16_t>(wire::Msg::kChunks));
    ASSERT_TRUE(frame.has_value());
    EXPECT_EQ(frame->tag, t.seq);
    ASSERT_EQ(ReplyStatus(job.one, 9, seconds(10)), PMIX_SUCCESS);
    if (frame->fds.empty()) GTEST_SKIP() << "no shared modex chunks on this system";
    if (job.nspace == kJob)
      for (ptl::Fd& fd : frame->fds) fds.push_back(std::move(fd));
  }
  ASSERT_FALSE(fds.empty());
  auto holds = [](std::span<const uint8_t> bytes, const std::string& needle) {
    return std::search(bytes.begin(), bytes.end(), needle.begin(), needle.end()) != bytes.end();
  };
  bool found_mine = false;
  for (const ptl::Fd& chunk : fds) {
    int fd = chunk.get();
    struct stat st {};
    ASSERT_EQ(::fstat(fd, &st), 0);
    ASSERT_GT(st.st_size, 0);
    size_t size = static_cast<size_t>(st.st_size);
    void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
    ASSERT_NE(map, MAP_FAILED);
    std::span<const uint8_t> bytes(static_cast<const uint8_t*>(map), size);
    found_mine = found_mine || holds(bytes, mine);
    EXPECT_FALSE(holds(bytes, theirs)) << "another job's data in a chunk handed to this job";
    EXPECT_FALSE(holds(bytes, remote)) << "PMIX_REMOTE data in a chunk handed to a local client";
    ::munmap(map, size);
  }
  EXPECT_TRUE(found_mine) << "the job's own record is in its chunk";
}

TEST_F(Doorbells, AFailedFenceIsRungWithItsStatus) {
  RawPeer zero;
  Join(zero, 0);
  std::unique_ptr<doorbell::Page> page0;
  ASSERT_EQ(AskPage(zero, &page0), PMIX_SUCCESS);
  {
    RawPeer one;
    Join(one, 1);
    doorbell::Ticket t0{0, 1};
    SendFence(zero, 0, t0);
    one.Close();  // dies without finalizing: the survivor is released
    // PARTIAL_SUCCESS when the server took the fence in before it saw the
    // death (the fence goes on among the survivors), else the fence names
    // a dead process and fails at once.
    std::optional<pmix_status_t> status = Rung(*page0, t0);
    ASSERT_TRUE(status.has_value());
    EXPECT_TRUE(*status == PMIX_ERR_PARTIAL_SUCCESS || *status == PMIX_ERR_PROC_TERM_WO_SYNC)
        << PMIx_Error_string(*status);
  }
  // A later fence naming the dead process fails at once, rung too.
  doorbell::Ticket t1{1, 2};
  SendFence(zero, 0, t1);
  EXPECT_EQ(Rung(*page0, t1), PMIX_ERR_PROC_TERM_WO_SYNC);
}

TEST_F(Doorbells, TicketsTheServerCannotHonourAreRefusedByReply) {
  RawPeer zero;
  Join(zero, 0);
  // No page asked for yet.
  SendFence(zero, 11, doorbell::Ticket{0, 1});
  EXPECT_EQ(ReplyStatus(zero, 11, seconds(10)), PMIX_ERR_BAD_PARAM);
  std::unique_ptr<doorbell::Page> page;
  ASSERT_EQ(AskPage(zero, &page), PMIX_SUCCESS);
  SendFence(zero, 12, doorbell::Ticket{doorbell::kSlots, 1});  // no such slot
  EXPECT_EQ(ReplyStatus(zero, 12, seconds(10)), PMIX_ERR_BAD_PARAM);
  // One page per connection.
  std::unique_ptr<doorbell::Page> again;
  EXPECT_EQ(AskPage(zero, &again), PMIX_EXISTS);
}

TEST(DoorbellPage, AttachRefusesWhatIsNotASealedPage) {
  int fd = ::memfd_create("not-sealed", MFD_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ftruncate(fd, doorbell::kPageBytes), 0);
  EXPECT_EQ(doorbell::Page::Attach(fd).status().code(), PMIX_ERR_BAD_PARAM);
  ::close(fd);
  auto made = doorbell::Page::Create();
  ASSERT_TRUE(made.ok());
  auto seen = doorbell::Page::Attach(made->second.get());
  ASSERT_TRUE(seen.ok());
  doorbell::Ring(made->first->data(), doorbell::Ticket{3, 9}, PMIX_ERR_TIMEOUT);
  EXPECT_EQ(doorbell::Seq((*seen)->data(), 3).load(), 9u);
  EXPECT_EQ(doorbell::StatusWord((*seen)->data(), 3).load(), PMIX_ERR_TIMEOUT);
  // Its size is sealed.
  EXPECT_NE(::ftruncate(made->second.get(), 2 * doorbell::kPageBytes), 0);
}

// A release page: only the server's mapping writes it; a client maps it
// read-only and sees the server's bumps; what is not such a page is refused.
TEST(ReleasePage, ClientsMapItReadOnly) {
  auto made = doorbell::ReleasePage::Create();
  ASSERT_TRUE(made.ok()) << PMIx_Error_string(made.status().code());
  auto seen = doorbell::ReleasePage::Attach(made->second.get());
  ASSERT_TRUE(seen.ok());
  made->first->Release(5);
  made->first->Release(5);
  EXPECT_EQ((*seen)->Word(5).load(), 2u);
  EXPECT_EQ((*seen)->Word(6).load(), 0u);
  (*seen)->Release(6);  // a client's mapping cannot write: nothing happens
  EXPECT_EQ((*seen)->Word(6).load(), 0u);
  errno = 0;
  void* writable = ::mmap(nullptr, doorbell::kReleaseBytes, PROT_READ | PROT_WRITE, MAP_SHARED,
                          made->second.get(), 0);
  EXPECT_EQ(writable, MAP_FAILED) << "a writable mapping of the release page was allowed";
  if (writable != MAP_FAILED) ::munmap(writable, doorbell::kReleaseBytes);
  EXPECT_NE(::ftruncate(made->second.get(), 2 * doorbell::kReleaseBytes), 0);
  // A doorbell page, or an unsealed file of the right size, is no release page.
  auto bell = doorbell::Page::Create();
  ASSERT_TRUE(bell.ok());
  EXPECT_EQ(doorbell::ReleasePage::Attach(bell->second.get()).status().code(), PMIX_ERR_BAD_PARAM);
  int fd = ::memfd_create("not-sealed", MFD_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ftruncate(fd, doorbell::kReleaseBytes), 0);
  EXPECT_EQ(doorbell::ReleasePage::Attach(fd).status().code(), PMIX_ERR_BAD_PARAM);
  ::close(fd);
}

}  // namespace
}  // namespace pmix::server
