#include "src/wire/proc_data.h"

#include "mca/bfrops/base/bfrops_base.h"

namespace pmix::wire {

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
  Writer w(*codec);
  PackProcData(w, records);
  return w.Take();
}

Result<std::vector<ProcData>> DecodeProcDataBlob(std::span<const uint8_t> blob) {
  auto codec = bfrops::DefaultCodec();
  if (!codec.ok()) return codec.status();
  Reader r(*codec, blob);
  return UnpackProcData(r);
}

Result<ProcData> CollectProcData(const gds::Store& store, const pmix_proc_t& proc,
                                 pmix_gds_view_t view) {
  ProcData rec;
  rec.proc = proc;
  auto kvs = store.Fetch(proc, gds::Where::Proc(), view, "");
  if (!kvs.ok()) {
    if (kvs.status().code() == PMIX_ERR_NOT_FOUND) return rec;
    return kvs.status();
  }
  auto copy = Infos::CopyOf(kvs->view());
  if (!copy.ok()) return copy.status();
  rec.kvs = std::move(*copy);
  return rec;
}

Status StoreProcData(gds::Store& store, const ProcData& record, pmix_scope_t scope) {
  if (record.kvs.size() == 0) return Status();
  return store.Put(record.proc, gds::Where::Proc(), scope, record.kvs.view());
}

}  // namespace pmix::wire
