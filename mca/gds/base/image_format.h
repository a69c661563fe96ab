// The byte layout of a job-data image (image.h), shared by its writer
// (image_writer.cc) and its reader (image.cc). Internal: images never
// leave the node except between two pmixx processes of the same build
// family, so the layout is native-endian (checked) and versioned.
//
//   Header | sections ...
//
// All references are 32-bit byte offsets: a section's offset is from the
// image start; a reference into a section (StrRef, ValueRef, list, column)
// is from that section's start. Records are packed structs of uint32_t;
// the reader copies each one out (memcpy), so nothing needs alignment.
//
// Sections:
//   kStrings    NUL-terminated strings, referenced as StrRef {off, len}.
//   kValues     encoded values (image_values.h), referenced by offset.
//   kKeys       KeyRec[n]: key index -> its string.
//   kKeyTable   uint32 mask, then mask + 1 slots: key index + 1 (0 empty);
//               open addressing on KeyHash(key), linear probing.
//   kLists      key/value lists: uint32 count, then Entry[count] sorted by
//               key index (Entry::key without kNotHost).
//   kSessions   IdRec[n] sorted by id (session id -> list).
//   kApps       IdRec[n] sorted by id (appnum -> list).
//   kNodes      NodeRec[n].
//   kNodeIds    IdRec[n] sorted by id (node id -> node index).
//   kNodeNames  uint32 mask, then slots: node index + 1 (0 empty), on
//               KeyHash(hostname).
//   kRankRuns   RankRun[n] sorted by rank: the ranks and their placement,
//               one record per run of consecutive ranks whose node, local
//               rank and app rank advance by a fixed step (a node's ranks
//               placed by slot are one run; ranks dealt round-robin over
//               the nodes are one run per round). A rank's position is
//               its index in rank order, counted over the runs.
//   kColumns    uint32 n, ColumnRec[n] sorted by key index, then the
//               columns: dense = uint32[num ranks] (ValueRef + 1, 0
//               absent, by rank position); sparse = SparseRec[count]
//               sorted by position; constant and derived: no body (every
//               rank has the key: one value, or the value its placement
//               derives, image_derive.h).
//   kJobNodes   uint32 node indexes (node-map order).
//   kLocalRanks uint32 ranks (ascending).
#ifndef PMIXX_MCA_GDS_BASE_IMAGE_FORMAT_H
#define PMIXX_MCA_GDS_BASE_IMAGE_FORMAT_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "pmix_common.h"

namespace pmix::gds::image {

inline constexpr char kMagic[8] = {'P', 'M', 'X', 'J', 'O', 'B', 'I', 'M'};
inline constexpr uint32_t kVersion = 3;  // 3: rank runs, constant and derived columns
inline constexpr uint32_t kByteOrder = 0x01020304;
inline constexpr uint32_t kNone = 0xffffffffu;     // an absent reference / index
inline constexpr uint32_t kNotHost = 0x80000000u;  // Entry::key flag: not the host's own value here
inline constexpr size_t kCodecNameMax = 31;

enum Section : uint32_t {
  kStrings,
  kValues,
  kKeys,
  kKeyTable,
  kLists,
  kSessions,
  kApps,
  kNodes,
  kNodeIds,
  kNodeNames,
  kRankRuns,
  kColumns,
  kJobNodes,
  kLocalRanks,
  kSectionCount
};

// Header::flags
enum Flag : uint32_t {
  kHasJobSize = 1u << 0,
  kHasLocalNodeId = 1u << 1,
  kHasSessionId = 1u << 2,
  kHasNumApps = 1u << 3,
  kHasNprocOffset = 1u << 4,
  kNoData = 1u << 5,
};

struct SectionRef {
  uint32_t offset;
  uint32_t size;
};

struct Header {
  char magic[8];
  uint32_t version;
  uint32_t byte_order;
  uint64_t size;
  uint64_t generation;
  char nspace[PMIX_MAX_NSLEN + 1];
  char codec[kCodecNameMax + 1];
  uint32_t flags;
  int32_t nlocalprocs;
  uint32_t job_size;
  uint32_t local_nodeid;
  uint32_t session_id;
  uint32_t num_apps;
  uint32_t nproc_offset;
  uint32_t job_list;  // kLists reference of the job realm's list
  SectionRef sections[kSectionCount];
};

struct StrRef {
  uint32_t off;
  uint32_t len;  // without the NUL
};

struct KeyRec {
  StrRef name;
};

struct Entry {
  uint32_t key;    // key index | kNotHost
  uint32_t value;  // kValues reference
};

struct IdRec {
  uint32_t id;
  uint32_t ref;  // list (sessions, apps) or node index (node ids)
};

struct NodeRec {
  StrRef host;  // off kNone: no name
  uint32_t id;
  uint32_t has_id;
  uint32_t list;  // kNone: no list
};

// Ranks rank .. rank + count - 1, at positions pos .. pos + count - 1;
// the i-th of them is on node `node + i * node_step` with local rank
// `local_rank + i * local_step`, in app `appnum` with app rank
// `app_rank + i`.
struct RankRun {
  uint32_t rank;
  uint32_t count;       // > 0
  uint32_t pos;         // the previous run's pos + count (0 for the first)
  uint32_t node;        // kNone: not placed (node_step 0)
  uint32_t node_step;   // 0 or 1
  uint32_t local_rank;  // 0 when not placed
  uint32_t local_step;  // 0 or 1
  uint32_t appnum;      // kNone: unknown (kNone is not a usable appnum)
  uint32_t app_rank;    // kNone: unknown, for the whole run
};

enum ColumnKind : uint32_t {
  kDense,     // off: uint32[count] slots
  kSparse,    // off: SparseRec[count]
  kConstant,  // every rank: off is the ValueRef
  kDerived,   // every rank: the value its placement derives (off 0)
};

struct ColumnRec {
  uint32_t key;    // key index
  uint32_t kind;   // ColumnKind
  uint32_t off;    // dense, sparse: from the start of kColumns
  uint32_t count;  // sparse: entries; others: the number of ranks
};

struct SparseRec {
  uint32_t pos;    // rank position
  uint32_t value;  // ValueRef
};

// The key and node-name tables' hash. Eight bytes at a time (every Get
// hashes its key; FNV-1a's byte loop took ~80 instructions for a 13-byte
// key), mixed with MurmurHash3's 64-bit finalizer. The words are read
// native-endian, as the whole image is.
inline uint64_t KeyMix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

inline uint32_t KeyHash(std::string_view s) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ s.size();
  size_t i = 0;
  for (; s.size() - i >= sizeof(uint64_t); i += sizeof(uint64_t)) {
    uint64_t word;
    std::memcpy(&word, s.data() + i, sizeof word);
    h = KeyMix(h ^ word);
  }
  uint64_t tail = 0;
  for (; i < s.size(); ++i) tail = (tail << 8) | static_cast<unsigned char>(s[i]);
  return static_cast<uint32_t>(KeyMix(h ^ tail));
}

}  // namespace pmix::gds::image

#endif  // PMIXX_MCA_GDS_BASE_IMAGE_FORMAT_H
