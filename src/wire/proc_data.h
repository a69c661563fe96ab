// Process data as it travels: the committed key/values of processes in
// fence results, get replies, and the blobs a server hands its host
// (fence_nb data, direct_modex answers), which hosts concatenate.
//
// Encoding: a sequence of records, each the packed pmix_proc_t followed by
// an info array (count + infos), packed with the default codec (every
// pmixx server speaks it; the blob may cross hosts). Concatenating two
// encodings yields a valid encoding of both sequences: a host may join
// nodes' blobs in any order.
#ifndef PMIXX_SRC_WIRE_PROC_DATA_H
#define PMIXX_SRC_WIRE_PROC_DATA_H

#include <span>
#include <vector>

#include "mca/gds/base/gds_base.h"
#include "src/common/status.h"
#include "src/wire/buffer.h"

namespace pmix::wire {

struct ProcData {
  pmix_proc_t proc{};
  Infos kvs;
};

// Appends the records to w (the caller's codec: inside a message body).
void PackProcData(Writer& w, std::span<const ProcData> records);
// Reads records until the reader is at its end.
Result<std::vector<ProcData>> UnpackProcData(Reader& r);

// Standalone blobs (the default codec), for host upcalls.
Result<Bytes> EncodeProcDataBlob(std::span<const ProcData> records);
Result<std::vector<ProcData>> DecodeProcDataBlob(std::span<const uint8_t> blob);

// proc's PROC-realm data in store as seen in view (gds.h views): an empty
// record when it has none.
Result<ProcData> CollectProcData(const gds::Store& store, const pmix_proc_t& proc,
                                 pmix_gds_view_t view);
// Stores a record's kvs in store under its proc (PROC realm) with scope.
Status StoreProcData(gds::Store& store, const ProcData& record, pmix_scope_t scope);

}  // namespace pmix::wire

#endif  // PMIXX_SRC_WIRE_PROC_DATA_H
