#include "src/wire/proc_data.h"

#include <algorithm>
#include <cstring>

#include "pmix.h"

#include "mca/bfrops/base/bfrops_base.h"

namespace pmix::wire {

namespace {

// The framing's integers: little-endian, byte by byte (no alignment or
// host byte order assumed; compilers make these single loads and stores
// on little-endian hosts).
void PutU32(Bytes& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

void PutU64(Bytes& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

void StoreU64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

uint32_t LoadU32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
         static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}

uint64_t LoadU64(const uint8_t* p) {
  return LoadU32(p) | static_cast<uint64_t>(LoadU32(p + 4)) << 32;
}

// The smallest key/value: keylen, a one-byte key, m (and an empty value,
// which only decoding refuses). Bounds a count before anything is reserved.
constexpr size_t kMinKv = 4 + 1 + 8;

// Reads a span front to back; every read is checked against what is left.
class Cursor {
 public:
  explicit Cursor(std::span<const uint8_t> bytes) : bytes_(bytes) {}
  size_t pos() const { return pos_; }
  size_t left() const { return bytes_.size() - pos_; }
  bool U32(uint32_t& v) {
    if (left() < 4) return false;
    v = LoadU32(bytes_.data() + pos_);
    pos_ += 4;
    return true;
  }
  bool U64(uint64_t& v) {
    if (left() < 8) return false;
    v = LoadU64(bytes_.data() + pos_);
    pos_ += 8;
    return true;
  }
  // n bytes as characters (the caller checked n <= left()).
  std::string_view Chars(size_t n) {
    std::string_view s(reinterpret_cast<const char*>(bytes_.data() + pos_), n);
    pos_ += n;
    return s;
  }
  void Skip(size_t n) { pos_ += n; }

 private:
  std::span<const uint8_t> bytes_;
  size_t pos_ = 0;
};

// A name (nspace, key) of 1..max bytes without NUL, of length `len` at the
// cursor: BAD_PARAM for a length or byte no name may have, past-the-end
// when the bytes are not there.
Status ReadName(Cursor& c, uint32_t len, size_t max, std::string_view& out) {
  if (len == 0 || len > max) return Status(PMIX_ERR_BAD_PARAM);
  if (len > c.left()) return Status(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
  out = c.Chars(len);
  if (out.find('\0') != std::string_view::npos) return Status(PMIX_ERR_BAD_PARAM);
  return Status();
}

// The terminated name in a fixed array of max + 1 chars, or BAD_PARAM.
Result<std::string_view> NameOf(const char* name, size_t max) {
  size_t n = ::strnlen(name, max + 1);
  if (n == 0 || n > max) return Status(PMIX_ERR_BAD_PARAM);
  return std::string_view(name, n);
}

// A record's header up to and including its count; returns where its n
// lies, which FinishRecord fills in once the key/values are written.
size_t AppendHeader(Bytes& out, std::string_view nspace, pmix_rank_t rank, uint32_t count) {
  PutU32(out, static_cast<uint32_t>(nspace.size()));
  out.insert(out.end(), nspace.begin(), nspace.end());
  PutU32(out, rank);
  size_t n_at = out.size();
  PutU64(out, 0);
  PutU32(out, count);
  return n_at;
}

void AppendKv(Bytes& out, std::string_view key, std::span<const uint8_t> value) {
  PutU32(out, static_cast<uint32_t>(key.size()));
  out.insert(out.end(), key.begin(), key.end());
  PutU64(out, value.size());
  out.insert(out.end(), value.begin(), value.end());
}

void FinishRecord(Bytes& out, size_t n_at) { StoreU64(out.data() + n_at, out.size() - n_at - 8); }

// One value packed with codec.
Result<Bytes> PackValue(const pmix_bfrops_module_t* codec, const pmix_value_t& value) {
  Writer w(codec);
  w.Value(value);
  return w.Take();
}

}  // namespace

pmix_proc_t RecordRef::Proc() const {
  pmix_proc_t p{};  // zeroed: the nspace ends terminated
  std::memcpy(p.nspace, nspace.data(), std::min(nspace.size(), size_t{PMIX_MAX_NSLEN}));
  p.rank = rank;
  return p;
}

Status AppendRecord(const pmix_bfrops_module_t* codec, const pmix_proc_t& proc,
                    std::span<const pmix_info_t> kvs, Bytes& out) {
  auto nspace = NameOf(proc.nspace, PMIX_MAX_NSLEN);
  if (!nspace.ok()) return nspace.status();
  if (kvs.size() > UINT32_MAX) return Status(PMIX_ERR_BAD_PARAM);
  const size_t start = out.size();
  // Written in place, n filled in at the end; on error out is cut back.
  auto fail = [&](Status status) {
    out.resize(start);
    return status;
  };
  size_t n_at = AppendHeader(out, *nspace, proc.rank, static_cast<uint32_t>(kvs.size()));
  for (const pmix_info_t& kv : kvs) {
    auto key = NameOf(kv.key, PMIX_MAX_KEYLEN);
    if (!key.ok()) return fail(key.status());
    auto packed = PackValue(codec, kv.value);
    if (!packed.ok()) return fail(packed.status());
    AppendKv(out, *key, *packed);
  }
  FinishRecord(out, n_at);
  return Status();
}

Result<std::vector<RecordRef>> IndexRecords(std::span<const uint8_t> blob) {
  std::vector<RecordRef> out;
  PMIX_RETURN_IF_ERROR(IndexRecords(blob, out));
  return out;
}

Status IndexRecords(std::span<const uint8_t> blob, std::vector<RecordRef>& out) {
  out.clear();
  Cursor c(blob);
  while (c.left() > 0) {
    RecordRef ref;
    ref.offset = c.pos();
    uint32_t nslen = 0;
    if (!c.U32(nslen)) return Status(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
    PMIX_RETURN_IF_ERROR(ReadName(c, nslen, PMIX_MAX_NSLEN, ref.nspace));
    uint32_t rank = 0;
    uint64_t n = 0;
    if (!c.U32(rank) || !c.U64(n) || n > c.left())
      return Status(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
    ref.rank = rank;
    ref.kvs_offset = c.pos();
    ref.kvs_size = static_cast<size_t>(n);
    ref.size = ref.kvs_offset + ref.kvs_size - ref.offset;
    c.Skip(ref.kvs_size);
    out.push_back(ref);
  }
  return Status();
}

Result<std::vector<KvRef>> IndexKvs(std::span<const uint8_t> kvs) {
  std::vector<KvRef> out;
  PMIX_RETURN_IF_ERROR(IndexKvs(kvs, out));
  return out;
}

Status IndexKvs(std::span<const uint8_t> kvs, std::vector<KvRef>& out) {
  out.clear();
  Cursor c(kvs);
  uint32_t count = 0;
  if (!c.U32(count)) return Status(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
  // More than the bytes could hold: refused before anything is reserved.
  if (count > c.left() / kMinKv) return Status(PMIX_ERR_UNPACK_FAILURE);
  out.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    KvRef ref;
    uint32_t keylen = 0;
    if (!c.U32(keylen)) return Status(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
    PMIX_RETURN_IF_ERROR(ReadName(c, keylen, PMIX_MAX_KEYLEN, ref.key));
    uint64_t m = 0;
    if (!c.U64(m) || m > c.left()) return Status(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
    ref.value_offset = c.pos();
    ref.value_size = static_cast<size_t>(m);
    c.Skip(ref.value_size);
    out.push_back(ref);
  }
  if (c.left() != 0) return Status(PMIX_ERR_UNPACK_FAILURE);  // bytes past the last
  return Status();
}

Result<gds::ValuePtr> DecodeValue(const pmix_bfrops_module_t* codec, std::span<const uint8_t> value) {
  Reader r(codec, value);
  gds::ValuePtr v(r.Value());
  if (!r.status().ok()) return r.status();
  if (!r.AtEnd()) return Status(PMIX_ERR_UNPACK_FAILURE);
  return v;
}

Result<Infos> DecodeKvs(const pmix_bfrops_module_t* codec, std::span<const uint8_t> kvs) {
  auto refs = IndexKvs(kvs);
  if (!refs.ok()) return refs.status();
  Infos out(refs->size());
  for (size_t i = 0; i < refs->size(); ++i) {
    const KvRef& ref = (*refs)[i];
    pmix_info_t& info = out.data()[i];
    // IndexKvs bounded the key by PMIX_MAX_KEYLEN: it fits, terminated.
    std::memcpy(info.key, ref.key.data(), ref.key.size());
    info.key[ref.key.size()] = '\0';
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
  auto refs = IndexRecords(blob);
  if (!refs.ok()) return refs.status();
  std::vector<ProcData> out;
  out.reserve(refs->size());
  for (const RecordRef& ref : *refs) {
    auto kvs = DecodeKvs(codec, ref.Kvs(blob));
    if (!kvs.ok()) return kvs.status();
    out.push_back(ProcData{ref.Proc(), std::move(*kvs)});
  }
  return out;
}

Result<Bytes> Transcode(const pmix_bfrops_module_t* from, const pmix_bfrops_module_t* to,
                        std::span<const uint8_t> blob) {
  if (from == to) return Bytes(blob.begin(), blob.end());
  // The framing is the codecs' common ground: only the values change.
  std::vector<RecordRef> records;
  PMIX_RETURN_IF_ERROR(IndexRecords(blob, records));
  std::vector<KvRef> kvs;
  Bytes out;
  out.reserve(blob.size());
  for (const RecordRef& rec : records) {
    std::span<const uint8_t> bytes = rec.Kvs(blob);
    PMIX_RETURN_IF_ERROR(IndexKvs(bytes, kvs));
    size_t n_at = AppendHeader(out, rec.nspace, rec.rank, static_cast<uint32_t>(kvs.size()));
    for (const KvRef& kv : kvs) {
      auto value = DecodeValue(from, bytes.subspan(kv.value_offset, kv.value_size));
      if (!value.ok()) return value.status();
      auto packed = PackValue(to, **value);
      if (!packed.ok()) return packed.status();
      AppendKv(out, kv.key, *packed);
    }
    FinishRecord(out, n_at);
  }
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
