// Shared parts of the server's collectives (server_collective.h).
#include "src/server/server_collective.h"

#include <fcntl.h>

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
    facts.local_ranks.insert(ns->summary.local_ranks.begin(), ns->summary.local_ranks.end());
    for (const auto& entry : ns->clients) facts.local_ranks.insert(entry.first);
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
  for (const auto& [who, c] : t.contributions) {
    auto peer = c.peer.lock();
    if (peer == nullptr || peer->conn->closed()) continue;
    const pmix_bfrops_module_t* codec = peer->conn->codec();
    const Answer* a = &answer(codec, peer->conn->can_pass_fds());
    if (c.ticket && peer->doorbell != nullptr && Mail(*peer, *c.ticket, *a)) continue;
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
    AnswerOne(*peer, c, *a, std::move(fds));
  }
}

void AnswerOne(Peer& peer, const Contribution& c, const Answer& a, std::vector<ptl::Fd> fds) {
  if (!c.ticket || peer.doorbell == nullptr) {
    peer.conn->ReplyBody(c.request, a.body, std::move(fds)).ok();
  } else if (a.status_only) {
    wire::doorbell::Ring(peer.doorbell->data(), *c.ticket, *a.status_only);
  } else {
    // Not a reply (the request was one-way): tagged with the ticket's seq.
    // The client keeps the chunks it carries (client_fence.cc).
    bool with_fds = !fds.empty();
    if (peer.conn->SendBody(c.request.type, c.ticket->seq, a.body, 0, std::move(fds)).ok() && with_fds)
      for (const Answer::SharedChunk& shared : a.shared) peer.kept_regions[shared.serial] = shared.chunk;
  }
}

bool Mail(Peer& peer, const wire::doorbell::Ticket& ticket, const Answer& a) {
  if (a.mail == nullptr || a.shared.empty() || peer.doorbell == nullptr) return false;
  for (const Answer::SharedChunk& shared : a.shared) {
    auto it = peer.kept_regions.find(shared.serial);
    if (it == peer.kept_regions.end() || it->second.expired()) return false;
  }
  std::vector<uint64_t> gone;
  for (const auto& [serial, chunk] : peer.kept_regions)
    if (chunk.expired()) gone.push_back(serial);
  // The chunks to forget, then the records' fields (packed once).
  wire::Writer w(peer.conn->codec());
  w.U32(static_cast<uint32_t>(gone.size()));
  for (uint64_t serial : gone) w.U64(serial);
  auto mail = w.Take();
  if (!mail.ok()) return false;
  mail->insert(mail->end(), a.mail->begin(), a.mail->end());
  if (!wire::doorbell::Ring(peer.doorbell->data(), ticket, PMIX_SUCCESS, *mail)) return false;
  for (uint64_t serial : gone) peer.kept_regions.erase(serial);
  return true;
}

}  // namespace pmix::server::fence
