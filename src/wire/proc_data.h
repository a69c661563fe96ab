// Process data as it travels: what processes committed, in commits, fence
// results and get replies, and in the blobs a server hands its host
// (fence_nb data, direct_modex answers), which hosts concatenate.
//
// A blob is a sequence of records. The framing is fixed and independent
// of the codec, so that finding records and keys (which clients do for
// every peer after every collect fence) is plain byte code: no codec
// call, no allocation. Integers are little-endian whatever the host and
// unaligned:
//   record  u32 nslen | nspace: nslen bytes (1..PMIX_MAX_NSLEN, no NUL)
//           | u32 rank | u64 n: the size of kvs | kvs: n bytes
//   kvs     u32 count | count key/values, each
//             u32 keylen | key: keylen bytes (1..PMIX_MAX_KEYLEN, no NUL)
//             | u64 m: the size of value | value: m bytes
// Only a value is packed with the codec: one PMIX_VALUE.
// Concatenating two blobs yields a valid blob of both sequences: a host may
// join nodes' blobs in any order. The sizes let a reader find every record
// (IndexRecords) and every key (IndexKvs) without decoding values: servers
// forward and concatenate records as they were committed, and a client
// decodes a value only when a Get asks for it.
//
// Codec of the values: between servers (host upcalls) and in what a server
// stores, the default codec (every pmixx server speaks it); in a message,
// the connection's (Transcode converts when they differ).
//
// A malformed or truncated blob is an error (PMIX_ERR_UNPACK_*, or
// PMIX_ERR_BAD_PARAM for an invalid nspace or key); no function here
// crashes or reads past the span it was given. Pure functions: any thread.
#ifndef PMIXX_SRC_WIRE_PROC_DATA_H
#define PMIXX_SRC_WIRE_PROC_DATA_H

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mca/gds/base/gds_base.h"
#include "src/common/status.h"
#include "src/wire/buffer.h"

namespace pmix::wire {

// Where one record lies in its blob.
struct RecordRef {
  std::string_view nspace;  // in the blob that was indexed
  pmix_rank_t rank = 0;
  size_t offset = 0;      // of the record
  size_t size = 0;        // of the whole record (header and kvs)
  size_t kvs_offset = 0;  // of its kvs
  size_t kvs_size = 0;

  // The record's proc (a copy: callers that only compare or look up use
  // nspace and rank).
  pmix_proc_t Proc() const;
  std::span<const uint8_t> Record(std::span<const uint8_t> blob) const {
    return blob.subspan(offset, size);
  }
  std::span<const uint8_t> Kvs(std::span<const uint8_t> blob) const {
    return blob.subspan(kvs_offset, kvs_size);
  }
};

// Appends one record of proc with kvs to out (out unchanged on error; an
// empty nspace or key, or one too long, is PMIX_ERR_BAD_PARAM).
Status AppendRecord(const pmix_bfrops_module_t* codec, const pmix_proc_t& proc,
                    std::span<const pmix_info_t> kvs, Bytes& out);

// Frames every record of blob (their key/values are not decoded): the
// whole blob must be records.
Result<std::vector<RecordRef>> IndexRecords(std::span<const uint8_t> blob);
// The same into `out` (cleared first; its capacity is reused, e.g. by a
// caller that frames many blobs); on error out holds what was read so far.
Status IndexRecords(std::span<const uint8_t> blob, std::vector<RecordRef>& out);

// Where one key/value lies in its record's kvs (offsets from the start of
// RecordRef::Kvs).
struct KvRef {
  std::string_view key;  // in the kvs that were indexed
  size_t value_offset = 0;
  size_t value_size = 0;
};

// Frames the key/values of a record's kvs (RecordRef::Kvs) without
// decoding their values; the whole span must be key/values.
Result<std::vector<KvRef>> IndexKvs(std::span<const uint8_t> kvs);
// The same into `out` (cleared first, capacity reused); on error out holds
// what was read so far.
Status IndexKvs(std::span<const uint8_t> kvs, std::vector<KvRef>& out);
// Decodes one value (the span must hold exactly one PMIX_VALUE).
Result<gds::ValuePtr> DecodeValue(const pmix_bfrops_module_t* codec, std::span<const uint8_t> value);
// Decodes a record's key/values, values included (which validates them).
Result<Infos> DecodeKvs(const pmix_bfrops_module_t* codec, std::span<const uint8_t> kvs);

// blob with its values re-encoded from one codec into another (the
// framing is the same; a copy when the codecs are).
Result<Bytes> Transcode(const pmix_bfrops_module_t* from, const pmix_bfrops_module_t* to,
                        std::span<const uint8_t> blob);

// Decoded records, for data that is small or used at once (job records, tests).
struct ProcData {
  pmix_proc_t proc{};
  Infos kvs;
};

// Decoded records inside a message body (the group replies,
// server_group_msg.cc), in the writer's codec: each the proc and an info
// array; UnpackProcData reads them until the reader is at its end.
void PackProcData(Writer& w, std::span<const ProcData> records);
Result<std::vector<ProcData>> UnpackProcData(Reader& r);

// Standalone blobs in the default codec (host upcalls).
Result<Bytes> EncodeProcDataBlob(std::span<const ProcData> records);
Result<std::vector<ProcData>> DecodeProcDataBlob(std::span<const uint8_t> blob);
// The same in a given codec.
Result<std::vector<ProcData>> DecodeRecords(const pmix_bfrops_module_t* codec,
                                            std::span<const uint8_t> blob);

// Stores a record's kvs in store under its proc (PROC realm; rank
// PMIX_RANK_WILDCARD: the JOB realm) with scope.
Status StoreProcData(gds::Store& store, const ProcData& record, pmix_scope_t scope);

}  // namespace pmix::wire

#endif  // PMIXX_SRC_WIRE_PROC_DATA_H
