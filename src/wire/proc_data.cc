#include "src/wire/proc_data.h"

#include <cstring>

#include "pmix.h"

#include "mca/bfrops/base/bfrops_base.h"

namespace pmix::wire {

Status AppendRecord(const pmix_bfrops_module_t* codec, const pmix_proc_t& proc,
                    std::span<const pmix_info_t> kvs, Bytes& out) {
  // Every piece is packed first, so that the sizes are known and the
  // record is written into out in one go.
  std::vector<Bytes> pieces;
  pieces.reserve(2 * kvs.size() + 1);
  size_t n = 0;
  auto add = [&](Writer& w) -> Status {
    auto bytes = w.Take();
    if (!bytes.ok()) return bytes.status();
    n += bytes->size();
    pieces.push_back(std::move(*bytes));
    return Status();
  };
  Writer count(codec);
  count.U32(static_cast<uint32_t>(kvs.size()));
  PMIX_RETURN_IF_ERROR(add(count));
  for (const pmix_info_t& kv : kvs) {
    Writer value(codec);
    value.Value(kv.value);
    auto packed = value.Take();
    if (!packed.ok()) return packed.status();
    std::string key(kv.key, ::strnlen(kv.key, PMIX_MAX_KEYLEN + 1));
    if (key.empty() || key.size() > PMIX_MAX_KEYLEN) return PMIX_ERR_BAD_PARAM;
    Writer head(codec);
    head.Str(key).U64(packed->size());
    PMIX_RETURN_IF_ERROR(add(head));
    n += packed->size();
    pieces.push_back(std::move(*packed));
  }
  Writer header(codec);
  header.Proc(proc).U64(n);
  auto head = header.Take();
  if (!head.ok()) return head.status();
  out.reserve(out.size() + head->size() + n);
  out.insert(out.end(), head->begin(), head->end());
  for (const Bytes& piece : pieces) out.insert(out.end(), piece.begin(), piece.end());
  return Status();
}

Result<std::vector<RecordRef>> IndexRecords(const pmix_bfrops_module_t* codec,
                                            std::span<const uint8_t> blob) {
  std::vector<RecordRef> out;
  PMIX_RETURN_IF_ERROR(IndexRecords(codec, blob, out));
  return out;
}

Status IndexRecords(const pmix_bfrops_module_t* codec, std::span<const uint8_t> blob,
                    std::vector<RecordRef>& out) {
  out.clear();
  size_t pos = 0;
  while (pos < blob.size()) {
    Reader r(codec, blob.subspan(pos));
    RecordRef ref;
    ref.proc = r.Proc();
    uint64_t n = r.U64();
    if (!r.status().ok()) return r.status();
    size_t nslen = ::strnlen(ref.proc.nspace, sizeof ref.proc.nspace);
    if (nslen == 0 || nslen > PMIX_MAX_NSLEN) return Status(PMIX_ERR_BAD_PARAM);
    size_t header = r.consumed();
    size_t left = blob.size() - pos - header;
    if (n > left) return Status(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
    ref.offset = pos;
    ref.kvs_offset = pos + header;
    ref.kvs_size = static_cast<size_t>(n);
    ref.size = header + ref.kvs_size;
    out.push_back(ref);
    pos += ref.size;
  }
  return Status();
}

Result<std::vector<KvRef>> IndexKvs(const pmix_bfrops_module_t* codec, std::span<const uint8_t> kvs) {
  Reader r(codec, kvs);
  uint32_t count = r.U32();
  if (!r.status().ok()) return r.status();
  if (count > kvs.size()) return Status(PMIX_ERR_UNPACK_FAILURE);  // each takes bytes
  std::vector<KvRef> out;
  out.reserve(count);
  size_t pos = r.consumed();
  for (uint32_t i = 0; i < count; ++i) {
    Reader kv(codec, kvs.subspan(pos));
    KvRef ref;
    ref.key = kv.String();
    uint64_t m = kv.U64();
    if (!kv.status().ok()) return kv.status();
    if (ref.key.empty() || ref.key.size() > PMIX_MAX_KEYLEN || ref.key.find('\0') != std::string::npos)
      return Status(PMIX_ERR_BAD_PARAM);
    size_t head = kv.consumed();
    if (m > kvs.size() - pos - head) return Status(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
    ref.value_offset = pos + head;
    ref.value_size = static_cast<size_t>(m);
    pos = ref.value_offset + ref.value_size;
    out.push_back(std::move(ref));
  }
  if (pos != kvs.size()) return Status(PMIX_ERR_UNPACK_FAILURE);  // bytes past the last
  return out;
}

Result<gds::ValuePtr> DecodeValue(const pmix_bfrops_module_t* codec, std::span<const uint8_t> value) {
  Reader r(codec, value);
  gds::ValuePtr v(r.Value());
  if (!r.status().ok()) return r.status();
  if (!r.AtEnd()) return Status(PMIX_ERR_UNPACK_FAILURE);
  return v;
}

Result<Infos> DecodeKvs(const pmix_bfrops_module_t* codec, std::span<const uint8_t> kvs) {
  auto refs = IndexKvs(codec, kvs);
  if (!refs.ok()) return refs.status();
  Infos out(refs->size());
  for (size_t i = 0; i < refs->size(); ++i) {
    const KvRef& ref = (*refs)[i];
    pmix_info_t& info = out.data()[i];
    PMIX_LOAD_KEY(info.key, ref.key.c_str());
    // Straight into the info: the value is decoded once, not copied again.
    Reader r(codec, kvs.subspan(ref.value_offset, ref.value_size));
    r.Unpack(&info.value, 1, PMIX_VALUE);
    if (!r.status().ok()) return r.status();
    if (!r.AtEnd()) return Status(PMIX_ERR_UNPACK_FAILURE);
  }
  return out;
}

Result<std::vector<ProcData>> DecodeRecords(const pmix_bfrops_module_t* codec,
                                            std::span<const uint8_t> blob) {
  auto refs = IndexRecords(codec, blob);
  if (!refs.ok()) return refs.status();
  std::vector<ProcData> out;
  out.reserve(refs->size());
  for (const RecordRef& ref : *refs) {
    auto kvs = DecodeKvs(codec, ref.Kvs(blob));
    if (!kvs.ok()) return kvs.status();
    out.push_back(ProcData{ref.proc, std::move(*kvs)});
  }
  return out;
}

Result<Bytes> Transcode(const pmix_bfrops_module_t* from, const pmix_bfrops_module_t* to,
                        std::span<const uint8_t> blob) {
  if (from == to) return Bytes(blob.begin(), blob.end());
  auto records = DecodeRecords(from, blob);
  if (!records.ok()) return records.status();
  Bytes out;
  for (const ProcData& rec : *records) PMIX_RETURN_IF_ERROR(AppendRecord(to, rec.proc, rec.kvs.view(), out));
  return out;
}

void PackProcData(Writer& w, std::span<const ProcData> records) {
  for (const auto& rec : records) w.Proc(rec.proc).InfoArray(rec.kvs.view());
}

Result<std::vector<ProcData>> UnpackProcData(Reader& r) {
  std::vector<ProcData> out;
  while (r.status().ok() && !r.AtEnd()) {
    ProcData rec;
    rec.proc = r.Proc();
    rec.kvs = r.InfoArray();
    if (!r.status().ok()) break;
    out.push_back(std::move(rec));
  }
  if (!r.status().ok()) return r.status();
  return out;
}

Result<Bytes> EncodeProcDataBlob(std::span<const ProcData> records) {
  auto codec = bfrops::DefaultCodec();
  if (!codec.ok()) return codec.status();
  Bytes out;
  for (const ProcData& rec : records)
    PMIX_RETURN_IF_ERROR(AppendRecord(*codec, rec.proc, rec.kvs.view(), out));
  return out;
}

Result<std::vector<ProcData>> DecodeProcDataBlob(std::span<const uint8_t> blob) {
  auto codec = bfrops::DefaultCodec();
  if (!codec.ok()) return codec.status();
  return DecodeRecords(*codec, blob);
}

Status StoreProcData(gds::Store& store, const ProcData& record, pmix_scope_t scope) {
  if (record.kvs.size() == 0) return Status();
  return store.Put(record.proc, gds::Where::Proc(), scope, record.kvs.view());
}

}  // namespace pmix::wire
