// Data entering the server's modex store (modex_store.h): a local client's
// PMIx_Commit, and records other servers sent through the host (fence_nb
// results, direct_modex answers).
//
// kCommit body (one-way), in the connection's codec:
//   u32 n, then n x (u32 scope, u64 size), then the n records
//   (wire/proc_data.h: their framing is fixed, their values in the
//   connection's codec), `size` bytes each, one per scope group in put
//   order, each a record of exactly the committing process.
// Every record is decoded once here, to validate it and to index its keys;
// it is then stored as it came (in the default codec; re-encoded only when
// the connection speaks another codec or a record carries keys a client
// may not put). A malformed commit is refused whole: nothing of it is
// stored and nothing stored before is touched.
#include <cstring>
#include <memory>

#include "mca/bfrops/base/bfrops_base.h"
#include "pmix.h"
#include "src/client/get_rules.h"
#include "src/common/output.h"
#include "src/server/server_get.h"

namespace pmix::server {
namespace get {
namespace {

constexpr uint32_t kMaxCommitGroups = 1u << 20;

// One validated record, ready for the store: buffer[offset, offset + size)
// in the default codec.
struct Incoming {
  pmix_proc_t proc{};
  pmix_scope_t scope = PMIX_GLOBAL;
  std::shared_ptr<const wire::Bytes> buffer;
  size_t offset = 0;
  size_t size = 0;
  wire::Infos kvs;
};

// The record re-encoded in the default codec, in a buffer of its own.
Status Reencode(const pmix_bfrops_module_t* codec, Incoming& in) {
  wire::Bytes record;
  PMIX_RETURN_IF_ERROR(wire::AppendRecord(codec, in.proc, in.kvs.view(), record));
  in.offset = 0;
  in.size = record.size();
  in.buffer = std::make_shared<const wire::Bytes>(std::move(record));
  return Status();
}

// Drops the keys a client may not put (RFC0009); true when some were dropped.
Result<bool> DropReserved(wire::Infos& kvs) {
  bool any = false;
  for (const pmix_info_t& kv : kvs.view()) any = any || getrules::IsReservedKey(kv.key);
  if (!any) return false;
  wire::Infos kept;
  for (const pmix_info_t& kv : kvs.view())
    if (!getrules::IsReservedKey(kv.key)) PMIX_RETURN_IF_ERROR(kept.Append(kv));
  kvs = std::move(kept);
  return true;
}

// One scope group of a commit, payload[offset, offset + size): a single
// record of `who`, kept in the payload unless it must be re-encoded.
Result<Incoming> ParseGroup(const pmix_bfrops_module_t* codec, const pmix_proc_t& who,
                            uint32_t scope, const std::shared_ptr<const wire::Bytes>& payload,
                            size_t offset, size_t size) {
  std::span<const uint8_t> bytes(payload->data() + offset, size);
  if (getrules::CheckPutScope(static_cast<pmix_scope_t>(scope)).code() != PMIX_SUCCESS ||
      scope == PMIX_INTERNAL)
    return Status(PMIX_ERR_BAD_PARAM);
  auto refs = wire::IndexRecords(bytes);
  if (!refs.ok()) return refs.status();
  // Exactly the committer's record (no wildcard rank standing for it).
  if (refs->size() != 1 || (*refs)[0].rank != who.rank ||
      (*refs)[0].nspace != std::string_view(who.nspace, ::strnlen(who.nspace, PMIX_MAX_NSLEN)))
    return Status(PMIX_ERR_BAD_PARAM);
  auto kvs = wire::DecodeKvs(codec, (*refs)[0].Kvs(bytes));
  if (!kvs.ok()) return kvs.status();
  Incoming in{who, static_cast<pmix_scope_t>(scope), payload, offset, size, std::move(*kvs)};
  auto dropped = DropReserved(in.kvs);
  if (!dropped.ok()) return dropped.status();
  auto fallback = bfrops::DefaultCodec();
  if (!fallback.ok()) return fallback.status();
  if (*dropped || codec != *fallback) PMIX_RETURN_IF_ERROR(Reencode(*fallback, in));
  return in;
}

Result<std::vector<Incoming>> ParseCommit(const pmix_bfrops_module_t* codec, const pmix_proc_t& who,
                                          const std::shared_ptr<const wire::Bytes>& payload) {
  wire::Reader r(codec, *payload);
  uint32_t n = r.U32();
  if (r.status().ok() && (n > kMaxCommitGroups || n > payload->size())) return Status(PMIX_ERR_UNPACK_FAILURE);
  std::vector<std::pair<uint32_t, uint64_t>> groups;
  for (uint32_t g = 0; g < n && r.status().ok(); ++g) {
    uint32_t scope = r.U32();
    uint64_t size = r.U64();
    groups.emplace_back(scope, size);
  }
  if (!r.status().ok()) return r.status();
  std::vector<Incoming> out;
  size_t pos = r.consumed();
  for (const auto& [scope, size] : groups) {
    if (size > payload->size() - pos) return Status(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
    auto in = ParseGroup(codec, who, scope, payload, pos, size);
    if (!in.ok()) return in.status();
    out.push_back(std::move(*in));
    pos += size;
  }
  if (pos != payload->size()) return Status(PMIX_ERR_UNPACK_FAILURE);
  return out;
}

// Stores validated records; the first failure is returned (the store
// refuses a record whole, so what came before it stays consistent).
Status StoreAll(Server& s, const std::vector<Incoming>& records) {
  for (const Incoming& in : records)
    PMIX_RETURN_IF_ERROR(s.modex.Add(in.proc, in.scope, in.buffer, in.offset, in.size, in.kvs.view()));
  return Status();
}

}  // namespace

Status StoreCommit(Server& s, const pmix_proc_t& who, const pmix_bfrops_module_t* codec,
                   const std::shared_ptr<const wire::Bytes>& payload) {
  auto records = ParseCommit(codec, who, payload);
  if (!records.ok()) return records.status();
  return StoreAll(s, *records);
}

namespace {

// A record of one of this server's local processes, back from the host:
// what its client committed here is authoritative.
bool OwnLocal(const wire::RecordRef& ref, Namespace* ns) {
  return ref.rank < PMIX_RANK_VALID && ns != nullptr && ns->IsLocal(ref.rank);
}

}  // namespace

Result<wire::Bytes> ForeignRecords(Server& s, std::span<const uint8_t> blob) {
  auto refs = wire::IndexRecords(blob);
  if (!refs.ok()) return refs.status();
  wire::Bytes out;
  for (const wire::RecordRef& ref : *refs) {
    if (OwnLocal(ref, s.FindNamespace(ref.nspace))) continue;
    std::span<const uint8_t> record = ref.Record(blob);
    out.insert(out.end(), record.begin(), record.end());
  }
  return out;
}

Result<std::vector<wire::RecordRef>> StoreRemoteData(Server& s,
                                                     const std::shared_ptr<const wire::Bytes>& data) {
  std::span<const uint8_t> blob(*data);
  auto codec = bfrops::DefaultCodec();
  if (!codec.ok()) return codec.status();
  auto refs = wire::IndexRecords(blob);
  if (!refs.ok()) return refs.status();
  std::vector<wire::RecordRef> taken;
  std::vector<Incoming> procs;
  std::vector<wire::ProcData> jobs;
  std::vector<std::pair<pmix_proc_t, std::vector<std::string>>> hidden;
  for (const wire::RecordRef& ref : *refs) {
    Namespace* ns = s.FindNamespace(ref.nspace);
    if (OwnLocal(ref, ns)) continue;  // not even decoded
    const pmix_proc_t proc = ref.Proc();
    auto kvs = wire::DecodeKvs(*codec, ref.Kvs(blob));
    if (!kvs.ok()) return kvs.status();
    std::vector<std::string> names;
    auto marker = ParseHiddenKeys(kvs->view(), &names);
    if (!marker.ok()) return marker.status();
    if (*marker) {
      if (proc.rank >= PMIX_RANK_VALID) return Status(PMIX_ERR_BAD_PARAM);
      if (ns == nullptr || !ns->IsLocal(proc.rank)) hidden.emplace_back(proc, std::move(names));
      continue;
    }
    if (proc.rank == PMIX_RANK_WILDCARD) {
      // Our own registration of a job is authoritative for its job data
      // (it holds this node's view: local peers etc.).
      if (ns == nullptr) jobs.push_back(wire::ProcData{proc, std::move(*kvs)});
    } else if (proc.rank >= PMIX_RANK_VALID) {
      return Status(PMIX_ERR_BAD_PARAM);
    } else {
      procs.push_back(Incoming{proc, PMIX_GLOBAL, data, ref.offset, ref.size, std::move(*kvs)});
    }
    taken.push_back(ref);
  }
  for (const wire::ProcData& job : jobs) PMIX_RETURN_IF_ERROR(wire::StoreProcData(s.store, job, PMIX_GLOBAL));
  PMIX_RETURN_IF_ERROR(StoreAll(s, procs));
  for (auto& [proc, names] : hidden)
    GetState().hidden[{proc.nspace, proc.rank}] = std::set<std::string>(names.begin(), names.end());
  return taken;
}

}  // namespace get

void HandleCommit(Server& s, const PeerPtr& peer, ptl::Frame&& frame) {
  const pmix_proc_t& who = peer->proc;
  // The records are kept where they arrived: in the frame's payload.
  auto payload = std::make_shared<const wire::Bytes>(std::move(frame.payload));
  Status stored = get::StoreCommit(s, who, peer->conn->codec(), payload);
  if (!stored.ok())
    output::PeerError("server", "commit from %s:%u refused: %s", who.nspace, who.rank,
                  PMIx_Error_string(stored.code()));
  if (peer->ns != nullptr) peer->ns->committed.insert(who.rank);
  if (stored.ok()) OfferChunks(s, peer);
  if (stored.ok() && peer->ns != nullptr) NoteCommitForHost(s, *peer->ns, who);
  get::ReleaseCommitted(s, who);
  get::DmodexOnCommit(s, who);
}

}  // namespace pmix::server
