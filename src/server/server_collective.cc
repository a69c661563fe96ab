// Shared parts of the server's collectives (server_collective.h).
#include "src/server/server_collective.h"

#include <fcntl.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <utility>

#include "src/runtime/context.h"

namespace pmix::server::fence {

NamespaceLookup NamespacesOf(Server& s) {
  return [&s](std::string_view name) -> std::optional<NamespaceFacts> {
    Namespace* ns = s.FindNamespace(name);
    if (ns == nullptr) return std::nullopt;
    NamespaceFacts facts;
    facts.local_ranks = ns->LocalRanks();
    facts.job_size = ns->summary.job_size;
    return facts;
  };
}

void ArmDeadline(Tracker& t, int64_t seconds, std::function<void(uint64_t id)> expire) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  if (t.deadline && *t.deadline <= deadline) return;
  runtime::ProgressEngine* engine = runtime::Engine();
  if (engine == nullptr) return;
  t.deadline = deadline;
  t.timer = engine->AddTimer(std::chrono::seconds(seconds),
                             [id = t.id, expire = std::move(expire)] { expire(id); });
}

pmix_status_t DropDeparted(Tracker& t, const ProcName& who) {
  t.participants.local.erase(who);
  t.contributions.erase(who);
  t.departed = t.participants.local.empty() ? PMIX_ERR_LOST_CONNECTION : PMIX_ERR_PARTIAL_SUCCESS;
  return *t.departed;
}

Status MergeDirectives(Tracker& t, std::span<const pmix_info_t> infos) {
  for (const pmix_info_t& info : infos) {
    bool present = false;
    for (const pmix_info_t& have : t.directives.view()) present = present || PMIX_CHECK_KEY(&have, info.key);
    if (!present) PMIX_RETURN_IF_ERROR(t.directives.Append(info));
  }
  return Status();
}

void AnswerAll(const Tracker& t, const BodyFor& body_for) {
  AnswerAll(t, [&](const pmix_bfrops_module_t* codec, bool) { return Answer{body_for(codec)}; });
}

void AnswerAll(const Tracker& t, const AnswerFor& answer_for) {
  std::map<std::pair<const pmix_bfrops_module_t*, bool>, Answer> answers;
  auto answer = [&](const pmix_bfrops_module_t* codec, bool fds_ok) -> const Answer& {
    auto it = answers.find({codec, fds_ok});
    if (it == answers.end()) it = answers.emplace(std::pair(codec, fds_ok), answer_for(codec, fds_ok)).first;
    return it->second;
  };
  std::vector<std::shared_ptr<Peer>> answered;  // their doorbell pages outlive `wakes`
  Wakes wakes;
  for (const auto& [who, c] : t.contributions) {
    auto peer = c.peer.lock();
    if (peer == nullptr || peer->conn->closed()) continue;
    answered.push_back(peer);
    const pmix_bfrops_module_t* codec = peer->conn->codec();
    const Answer* a = &answer(codec, peer->conn->can_pass_fds());
    if (c.ticket && peer->doorbell != nullptr && Mail(*peer, *c.ticket, *a, wakes)) continue;
    std::vector<ptl::Fd> fds;
    for (int fd : a->fds) {
      ptl::Fd dup(::fcntl(fd, F_DUPFD_CLOEXEC, 0));
      if (!dup.valid()) break;
      fds.push_back(std::move(dup));
    }
    if (fds.size() != a->fds.size()) {
      fds.clear();
      a = &answer(codec, false);  // out of descriptors: the bytes go
    }
    AnswerOne(*peer, c, *a, std::move(fds), &wakes);
  }
}

void Wakes::Add(const Peer& peer, const wire::doorbell::Ticket& ticket) {
  bool word = ticket.word < wire::doorbell::kReleaseWords && peer.release != nullptr;
  due_.push_back(Due{peer.doorbell->data(), ticket.slot, word ? ticket.word : wire::doorbell::kNoWord,
                     word ? peer.release.get() : nullptr});
}

Wakes::~Wakes() {
  // Waiters sharing a word with another are released together, the rest
  // one by one.
  std::map<std::pair<wire::doorbell::ReleasePage*, uint32_t>, size_t> sharing;
  for (const Due& d : due_)
    if (d.release != nullptr) ++sharing[{d.release, d.word}];
  for (const Due& d : due_)
    if (d.release == nullptr || sharing[{d.release, d.word}] < 2) wire::doorbell::Wake(d.page, d.slot);
  for (const auto& [key, n] : sharing)
    if (n >= 2) key.first->Release(key.second);
}

namespace {

// The chunk a named region lies in, among an answer's.
const wire::RegionRecords* NamedRegion(const Answer& a, uint64_t serial) {
  for (const wire::RegionRecords& region : a.named)
    if (region.serial == serial) return &region;
  return nullptr;
}

}  // namespace

void AddSent(Extents& sent, const Extents& extents) {
  sent.insert(sent.end(), extents.begin(), extents.end());
  std::sort(sent.begin(), sent.end());
  size_t kept = 0;
  for (const auto& [offset, length] : sent) {
    if (kept > 0 && offset <= sent[kept - 1].first + sent[kept - 1].second) {
      size_t end = std::max(sent[kept - 1].first + sent[kept - 1].second, offset + length);
      sent[kept - 1].second = end - sent[kept - 1].first;
    } else {
      sent[kept++] = {offset, length};
    }
  }
  sent.resize(kept);
}

Extents Unsent(const Extents& extents, const Extents& sent) {
  Extents out;
  size_t j = 0;
  for (auto [offset, length] : extents) {
    size_t end = offset + length;
    while (offset < end) {
      while (j < sent.size() && sent[j].first + sent[j].second <= offset) ++j;
      if (j == sent.size() || sent[j].first >= end) {
        out.emplace_back(offset, end - offset);
        break;
      }
      if (sent[j].first > offset) out.emplace_back(offset, sent[j].first - offset);
      offset = std::min(end, sent[j].first + sent[j].second);
    }
  }
  return out;
}

void AnswerOne(Peer& peer, const Contribution& c, const Answer& a, std::vector<ptl::Fd> fds, Wakes* wakes) {
  if (!c.ticket || peer.doorbell == nullptr) {
    peer.conn->ReplyBody(c.request, a.body, std::move(fds)).ok();
  } else if (a.status_only) {
    if (wakes == nullptr) {
      wire::doorbell::Ring(peer.doorbell->data(), *c.ticket, *a.status_only);
    } else if (wire::doorbell::Store(peer.doorbell->data(), *c.ticket, *a.status_only)) {
      wakes->Add(peer, *c.ticket);
    }
  } else {
    // Not a reply (the request was one-way): tagged with the ticket's seq.
    // The client keeps the chunks it carries (client_fence.cc).
    bool with_fds = !fds.empty();
    if (peer.conn->SendBody(c.request.type, c.ticket->seq, a.body, 0, std::move(fds)).ok() && with_fds) {
      for (const Answer::SharedChunk& shared : a.shared) {
        Peer::KeptChunk& kept = peer.kept_regions[shared.serial];
        kept.chunk = shared.chunk;
        if (const wire::RegionRecords* named = NamedRegion(a, shared.serial)) AddSent(kept.sent, named->extents);
      }
    }
  }
}

bool Mail(Peer& peer, const wire::doorbell::Ticket& ticket, const Answer& a, Wakes& wakes) {
  if (a.mail == nullptr || a.shared.empty() || a.named.size() != a.shared.size() || peer.doorbell == nullptr)
    return false;
  // Every chunk kept, and in each what this peer has not been sent yet.
  std::vector<wire::RegionRecords> unsent;
  bool all_unsent = true;
  for (const wire::RegionRecords& region : a.named) {
    auto it = peer.kept_regions.find(region.serial);
    if (it == peer.kept_regions.end() || it->second.chunk.expired()) return false;
    Extents left = Unsent(region.extents, it->second.sent);
    all_unsent = all_unsent && left == region.extents;
    if (left.empty()) continue;
    unsent.push_back(wire::RegionRecords{-1, region.serial, region.module, region.size, std::move(left)});
  }
  std::vector<uint64_t> gone;
  for (const auto& [serial, kept] : peer.kept_regions)
    if (kept.chunk.expired()) gone.push_back(serial);
  // The chunks to forget, then the records' fields (packed once when they
  // are all new to this peer).
  wire::Writer w(peer.conn->codec());
  w.U32(static_cast<uint32_t>(gone.size()));
  for (uint64_t serial : gone) w.U64(serial);
  // Nothing new for this peer: the mail ends after the chunks to forget.
  if (!all_unsent && !unsent.empty() && !wire::PackRecords(w, unsent).ok()) return false;
  auto mail = w.Take();
  if (!mail.ok()) return false;
  if (all_unsent) mail->insert(mail->end(), a.mail->begin(), a.mail->end());
  if (!wire::doorbell::Store(peer.doorbell->data(), ticket, PMIX_SUCCESS, *mail)) return false;
  wakes.Add(peer, ticket);
  for (uint64_t serial : gone) peer.kept_regions.erase(serial);
  for (const wire::RegionRecords& region : unsent) AddSent(peer.kept_regions[region.serial].sent, region.extents);
  return true;
}

}  // namespace pmix::server::fence
