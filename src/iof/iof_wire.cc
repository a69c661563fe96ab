// IO forwarding message bodies (iof_wire.h).
#include "src/iof/iof_wire.h"

namespace pmix::iof {

void Write(wire::Writer& w, const Pull& p) {
  w.U32(static_cast<uint32_t>(Op::kPull)).Procs(p.procs).U32(p.channels);
  w.InfoArray(p.directives.view()).U64(p.tag);
}

void Write(wire::Writer& w, const Deregister& d) {
  w.U32(static_cast<uint32_t>(Op::kDeregister)).U64(d.id).InfoArray(d.directives.view());
}

void Write(wire::Writer& w, const Push& p) {
  w.U32(static_cast<uint32_t>(Op::kPush)).Procs(p.targets).InfoArray(p.directives.view());
  w.Blob(std::span<const uint8_t>(p.data)).Bool(p.eof);
}

void WriteDelivery(wire::Writer& w, uint64_t tag, const pmix_proc_t& source,
                   pmix_iof_channel_t channel, std::span<const char> data,
                   std::span<const pmix_info_t> info) {
  w.U32(static_cast<uint32_t>(Op::kDeliver)).U64(tag).Proc(source).U32(channel);
  w.Blob(data).InfoArray(info);
}

Op ReadOp(wire::Reader& r) { return static_cast<Op>(r.U32()); }

Pull ReadPull(wire::Reader& r) {
  Pull p;
  p.procs = r.Procs();
  p.channels = static_cast<pmix_iof_channel_t>(r.U32());
  p.directives = r.InfoArray();
  p.tag = r.U64();
  return p;
}

Deregister ReadDeregister(wire::Reader& r) {
  Deregister d;
  d.id = r.U64();
  d.directives = r.InfoArray();
  return d;
}

Push ReadPush(wire::Reader& r) {
  Push p;
  p.targets = r.Procs();
  p.directives = r.InfoArray();
  p.data = r.Blob();
  p.eof = r.Bool();
  return p;
}

Delivery ReadDelivery(wire::Reader& r) {
  Delivery d;
  d.tag = r.U64();
  d.source = r.Proc();
  d.channel = static_cast<pmix_iof_channel_t>(r.U32());
  d.data = r.Blob();
  d.info = r.InfoArray();
  return d;
}

bool ValidChannels(pmix_iof_channel_t channels) {
  return channels != PMIX_FWD_NO_CHANNELS && (channels & ~PMIX_FWD_ALL_CHANNELS) == 0;
}

}  // namespace pmix::iof
