// Doorbells, the client side (client_doorbell.h).
#include "src/client/client_doorbell.h"

#include "src/client/client_state.h"
#include "src/common/output.h"
#include "src/runtime/context.h"

namespace pmix::client {
namespace {

using wire::doorbell::Ticket;

std::mutex g_mu;
std::shared_ptr<Doorbell> g_bell;  // guarded by g_mu
bool g_asked = false;              // the server was asked since PMIx_Init

// Progress thread: the server's answer to kDoorbell.
pmix_status_t Keep(const std::shared_ptr<wire::Connection>& conn, Status status,
                   const ptl::Frame& reply) {
  const pmix_bfrops_module_t* codec = conn->codec();
  if (!status.ok()) return status.code();
  wire::Reader r(codec, reply.payload);
  pmix_status_t rc = r.Status();
  if (!r.status().ok()) return r.status().code();
  if (rc != PMIX_SUCCESS) return rc;
  // The page, and the release page when asked for (optional).
  if (reply.fds.empty() || reply.fds.size() > 2 || (reply.fds.size() == 2 && !wire::doorbell::CanWaitOnTwo()))
    return PMIX_ERR_BAD_PARAM;
  auto page = wire::doorbell::Page::Attach(reply.fds[0].get());
  std::unique_ptr<wire::doorbell::ReleasePage> release;
  Status usable = page.status();
  if (page.ok() && reply.fds.size() == 2) {
    auto attached = wire::doorbell::ReleasePage::Attach(reply.fds[1].get());
    usable = attached.status();
    if (attached.ok()) release = std::move(*attached);
  }
  if (!usable.ok()) {
    output::Error("client", "the server's doorbell page is not usable: %s", PMIx_Error_string(usable.code()));
    return usable.code();
  }
  std::lock_guard<std::mutex> lock(g_mu);
  g_bell = std::make_shared<Doorbell>(std::move(*page), conn, std::move(release));
  return PMIX_SUCCESS;
}

}  // namespace

std::optional<Ticket> Doorbell::Acquire() {
  std::lock_guard<std::mutex> lock(mu_);
  std::bitset<wire::doorbell::kSlots> taken = used_ | retired_;
  if (taken.all()) return std::nullopt;
  Ticket t;
  while (taken.test(t.slot)) ++t.slot;
  // A seq differs from every one in flight and from 0 (a fresh slot's word).
  do {
    t.seq = ++last_seq_;
  } while (t.seq == 0 || in_flight_.count(t.seq) != 0);
  used_.set(t.slot);
  in_flight_[t.seq] = t.slot;
  return t;
}

Status Doorbell::Await(const Ticket& t,
                       std::optional<std::chrono::steady_clock::time_point> deadline,
                       wire::Bytes* mail) {
  uint8_t* page = page_->data();
  pmix_status_t status = PMIX_ERR_TIMEOUT;
  bool answered = false;
  if (mail != nullptr) mail->clear();
  bool on_word = release_ != nullptr && t.word < wire::doorbell::kReleaseWords;
  for (;;) {
    // The release word before the seq word: a release between the two
    // loads changes the word, and the wait returns at once.
    uint32_t word_seen = on_word ? release_->Word(t.word).load(std::memory_order_acquire) : 0;
    uint32_t seen = wire::doorbell::Seq(page, t.slot).load(std::memory_order_acquire);
    if (seen == t.seq) {
      status = wire::doorbell::Collect(page, t.slot, mail);
      answered = true;
      break;
    }
    if (deadline && std::chrono::steady_clock::now() >= *deadline) break;
    if (on_word)
      wire::doorbell::WaitWhile(page, t.slot, seen, *release_, t.word, word_seen, deadline);
    else
      wire::doorbell::WaitWhile(page, t.slot, seen, deadline);
  }
  std::lock_guard<std::mutex> lock(mu_);
  in_flight_.erase(t.seq);
  used_.reset(t.slot);
  if (!answered) retired_.set(t.slot);
  return status;
}

void Doorbell::Deliver(uint32_t seq, pmix_status_t status) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = in_flight_.find(seq);
  if (it != in_flight_.end()) wire::doorbell::Ring(page_->data(), Ticket{it->second, seq}, status);
}

void Doorbell::FailAll(pmix_status_t why) {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [seq, slot] : in_flight_)
    wire::doorbell::Ring(page_->data(), Ticket{slot, seq}, why);
}

std::shared_ptr<Doorbell> CurrentDoorbell() {
  {
    std::lock_guard<std::mutex> lock(g_mu);
    if (g_bell != nullptr || g_asked) return g_bell;
    g_asked = true;
  }
  auto rc = runtime::CallBlocking<pmix_status_t>([](std::function<void(pmix_status_t)> done) {
    Client* c = CurrentClient();
    if (c == nullptr || c->singleton || c->conn == nullptr) return done(PMIX_ERR_INIT);
    std::shared_ptr<wire::Connection> conn = c->conn;
    // Flags: 1, this client can wait on a release word too.
    wire::Writer w(c->codec());
    w.U32(wire::doorbell::CanWaitOnTwo() ? 1 : 0);
    auto body = w.Take();
    if (!body.ok()) return done(body.status().code());
    c->RequestFrame(wire::Msg::kDoorbell, std::move(*body),
                    [conn, done](Status status, ptl::Frame&& reply) {
                      pmix_status_t rc = Keep(conn, status, reply);
                      // Mapped or refused: closed before the caller wakes
                      // (it may count its descriptors at once).
                      reply.fds.clear();
                      done(rc);
                    });
  });
  if (rc.ok() && *rc != PMIX_SUCCESS)
    output::Verbose("client", 2, "no doorbell: %s (fences are released by reply)",
                    PMIx_Error_string(*rc));
  return DoorbellIfAny();
}

std::shared_ptr<Doorbell> DoorbellIfAny() {
  std::lock_guard<std::mutex> lock(g_mu);
  return g_bell;
}

void DoorbellServerLost(pmix_status_t why) {
  if (auto bell = DoorbellIfAny()) bell->FailAll(why);
}

void DropDoorbell() {
  std::lock_guard<std::mutex> lock(g_mu);
  g_bell.reset();
  g_asked = false;
}

}  // namespace pmix::client
