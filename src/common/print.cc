#include "src/common/print.h"

#include <hwloc.h>
#include <strings.h>
#include <sys/time.h>

#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <initializer_list>

#include "pmix.h"
#include "src/common/data_types.h"

namespace pmix {
namespace {

constexpr int kMaxDepth = 64;

// Where a description is being written, and how deep.
struct Out {
  std::string* text;
  int depth;
};

void Appendf(std::string* s, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void Appendf(std::string* s, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  va_list copy;
  va_copy(copy, ap);
  int n = std::vsnprintf(nullptr, 0, fmt, copy);
  va_end(copy);
  if (n > 0) {
    size_t old = s->size();
    s->resize(old + static_cast<size_t>(n) + 1);
    std::vsnprintf(s->data() + old, static_cast<size_t>(n) + 1, fmt, ap);
    s->resize(old + static_cast<size_t>(n));
  }
  va_end(ap);
}

const char* OrNull(const char* s) { return s == nullptr ? "NULL" : s; }

template <class T>
T Get(const void* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// Names of the bits of a mask, joined by ':' ("" when none is set).
struct Bit {
  uint64_t bit;
  const char* word;
};

std::string BitWords(uint64_t mask, std::initializer_list<Bit> bits) {
  std::string s;
  for (const Bit& b : bits) {
    if ((mask & b.bit) == 0) continue;
    if (!s.empty()) s += ":";
    s += b.word;
  }
  return s;
}

std::string LocalityText(pmix_locality_t loc) {
  if (loc == PMIX_LOCALITY_UNKNOWN) return "UNKNOWN";
  if (loc == PMIX_LOCALITY_NONLOCAL) return "NONLOCAL";
  return BitWords(loc, {{PMIX_LOCALITY_SHARE_HWTHREAD, "HWTHREAD"},
                        {PMIX_LOCALITY_SHARE_CORE, "CORE"},
                        {PMIX_LOCALITY_SHARE_L1CACHE, "L1"},
                        {PMIX_LOCALITY_SHARE_L2CACHE, "L2"},
                        {PMIX_LOCALITY_SHARE_L3CACHE, "L3"},
                        {PMIX_LOCALITY_SHARE_PACKAGE, "PACKAGE"},
                        {PMIX_LOCALITY_SHARE_NUMA, "NUMA"},
                        {PMIX_LOCALITY_SHARE_NODE, "NODE"}});
}

// The storage masks, worded as OpenPMIx 4.2.2 prints them.
std::string StorageText(pmix_data_type_t type, uint64_t v) {
  switch (type) {
    case PMIX_STOR_MEDIUM:
      return BitWords(v, {{PMIX_STORAGE_MEDIUM_UNKNOWN, "UNKNOWN"}, {PMIX_STORAGE_MEDIUM_TAPE, "TAPE"},
                          {PMIX_STORAGE_MEDIUM_HDD, "HDD"}, {PMIX_STORAGE_MEDIUM_SSD, "SSD"},
                          {PMIX_STORAGE_MEDIUM_NVME, "NVME"}, {PMIX_STORAGE_MEDIUM_PMEM, "PMEM"},
                          {PMIX_STORAGE_MEDIUM_RAM, "RAM"}});
    case PMIX_STOR_ACCESS:
      return BitWords(v, {{PMIX_STORAGE_ACCESSIBILITY_NODE, "NODE"},
                          {PMIX_STORAGE_ACCESSIBILITY_SESSION, "SESSION"},
                          {PMIX_STORAGE_ACCESSIBILITY_JOB, "JOB"},
                          {PMIX_STORAGE_ACCESSIBILITY_RACK, "RACK"},
                          {PMIX_STORAGE_ACCESSIBILITY_CLUSTER, "CLUSTER"},
                          {PMIX_STORAGE_ACCESSIBILITY_REMOTE, "REMOTE"}});
    case PMIX_STOR_PERSIST:
      return BitWords(v, {{PMIX_STORAGE_PERSISTENCE_TEMPORARY, "TEMPORARY"},
                          {PMIX_STORAGE_PERSISTENCE_NODE, "NODE"},
                          {PMIX_STORAGE_PERSISTENCE_SESSION, "SESSION"},
                          {PMIX_STORAGE_PERSISTENCE_JOB, "JOB"},
                          {PMIX_STORAGE_PERSISTENCE_SCRATCH, "SCRATCH"},
                          {PMIX_STORAGE_PERSISTENCE_PROJECT, "PROJECT"},
                          {PMIX_STORAGE_PERSISTENCE_ARCHIVE, "ARCHIVE"}});
    default:
      return BitWords(v, {{PMIX_STORAGE_ACCESS_RD, "READ"}, {PMIX_STORAGE_ACCESS_WR, "WRITE"}});
  }
}

std::string RankText(pmix_rank_t rank) {
  switch (rank) {
    case PMIX_RANK_UNDEF: return "PMIX_RANK_UNDEF";
    case PMIX_RANK_WILDCARD: return "PMIX_RANK_WILDCARD";
    case PMIX_RANK_LOCAL_NODE: return "PMIX_RANK_LOCAL_NODE";
    case PMIX_RANK_INVALID: return "PMIX_RANK_INVALID";
    case PMIX_RANK_LOCAL_PEERS: return "PMIX_RANK_LOCAL_PEERS";
    default: return UNum(rank);
  }
}

// Types OpenPMIx 4.2.2 does not describe inside a value.
bool UnprintableInValue(pmix_data_type_t type) {
  switch (type) {
    case PMIX_COMPRESSED_STRING: case PMIX_COMPRESSED_BYTE_OBJECT: case PMIX_REGEX:
    case PMIX_PROC_STATS: case PMIX_DISK_STATS: case PMIX_NET_STATS: case PMIX_POINTER:
    case PMIX_VALUE: case PMIX_APP: case PMIX_QUERY: case PMIX_PDATA:
      return true;
    default:
      return false;
  }
}

std::string ProcText(const pmix_proc_t& p) {
  std::string ns(p.nspace, strnlen(p.nspace, PMIX_MAX_NSLEN));
  return ns + ":" + RankText(p.rank);
}

// The text after "Value: " for the scalar and enum types; false for others.
bool ScalarText(pmix_data_type_t type, const void* e, std::string* s) {
  switch (type) {
    case PMIX_BOOL: *s = Get<bool>(e) ? "TRUE" : "FALSE"; return true;
    case PMIX_BYTE: Appendf(s, "%02x", Get<uint8_t>(e)); return true;
    case PMIX_STRING:
    case PMIX_REGEX:  // a regex element is its text
      *s = OrNull(Get<const char*>(e));
      return true;
    case PMIX_SIZE: Appendf(s, "%zu", Get<size_t>(e)); return true;
    case PMIX_PID: Appendf(s, "%ld", static_cast<long>(Get<pid_t>(e))); return true;
    case PMIX_INT: Appendf(s, "%d", Get<int>(e)); return true;
    case PMIX_INT8: Appendf(s, "%d", Get<int8_t>(e)); return true;
    case PMIX_INT16: Appendf(s, "%d", Get<int16_t>(e)); return true;
    case PMIX_INT32: Appendf(s, "%" PRId32, Get<int32_t>(e)); return true;
    case PMIX_INT64: Appendf(s, "%" PRId64, Get<int64_t>(e)); return true;
    case PMIX_UINT: Appendf(s, "%u", Get<unsigned>(e)); return true;
    case PMIX_UINT8: case PMIX_COMMAND: Appendf(s, "%u", Get<uint8_t>(e)); return true;
    case PMIX_UINT16: Appendf(s, "%u", Get<uint16_t>(e)); return true;
    case PMIX_UINT32: Appendf(s, "%" PRIu32, Get<uint32_t>(e)); return true;
    case PMIX_UINT64: Appendf(s, "%" PRIu64, Get<uint64_t>(e)); return true;
    case PMIX_STOR_MEDIUM: case PMIX_STOR_ACCESS: case PMIX_STOR_PERSIST:
      *s = StorageText(type, Get<uint64_t>(e));
      return true;
    case PMIX_STOR_ACCESS_TYPE: *s = StorageText(type, Get<uint16_t>(e)); return true;
    case PMIX_FLOAT: Appendf(s, "%f", static_cast<double>(Get<float>(e))); return true;
    case PMIX_DOUBLE: Appendf(s, "%f", Get<double>(e)); return true;
    case PMIX_TIMEVAL: {
      auto tv = Get<struct timeval>(e);
      Appendf(s, "%ld.%06ld", static_cast<long>(tv.tv_sec), static_cast<long>(tv.tv_usec));
      return true;
    }
    case PMIX_TIME: {
      time_t t = Get<time_t>(e);
      char buf[64] = "";
      if (ctime_r(&t, buf) == nullptr) Appendf(s, "%lld", static_cast<long long>(t));
      buf[strcspn(buf, "\n")] = '\0';
      *s += buf;
      return true;
    }
    case PMIX_STATUS: *s = PMIx_Error_string(Get<pmix_status_t>(e)); return true;
    case PMIX_PROC_RANK: *s = RankText(Get<pmix_rank_t>(e)); return true;
    case PMIX_PERSIST: Appendf(s, "%u", Get<pmix_persistence_t>(e)); return true;
    case PMIX_SCOPE: *s = PMIx_Scope_string(Get<pmix_scope_t>(e)); return true;
    case PMIX_DATA_RANGE: *s = PMIx_Data_range_string(Get<pmix_data_range_t>(e)); return true;
    case PMIX_DATA_TYPE: *s = PMIx_Data_type_string(Get<pmix_data_type_t>(e)); return true;
    case PMIX_PROC_STATE: *s = PMIx_Proc_state_string(Get<pmix_proc_state_t>(e)); return true;
    case PMIX_ALLOC_DIRECTIVE:
      *s = PMIx_Alloc_directive_string(Get<pmix_alloc_directive_t>(e)); return true;
    case PMIX_IOF_CHANNEL: *s = PMIx_IOF_channel_string(Get<pmix_iof_channel_t>(e)); return true;
    case PMIX_JOB_STATE: *s = PMIx_Job_state_string(Get<pmix_job_state_t>(e)); return true;
    case PMIX_LINK_STATE: *s = PMIx_Link_state_string(Get<pmix_link_state_t>(e)); return true;
    case PMIX_DEVTYPE: *s = PMIx_Device_type_string(Get<pmix_device_type_t>(e)); return true;
    case PMIX_LOCTYPE: *s = LocalityText(Get<pmix_locality_t>(e)); return true;
    case PMIX_POINTER: Appendf(s, "%p", Get<void*>(e)); return true;
    case PMIX_PROC_NSPACE:
      s->assign(static_cast<const char*>(e), strnlen(static_cast<const char*>(e), PMIX_MAX_NSLEN));
      return true;
    case PMIX_INFO_DIRECTIVES: {
      char* d = PMIx_Info_directives_string(Get<pmix_info_directives_t>(e));
      *s = OrNull(d);
      std::free(d);
      return true;
    }
    default:
      return false;
  }
}

}  // namespace

Status PrintAt(std::string* out, std::string_view prefix, const void* e,
               pmix_data_type_t type, PrintContext ctx) {
  const DataTypeOps* ops = FindDataType(type);
  if (ops == nullptr) return PMIX_ERR_UNKNOWN_DATA_TYPE;
  std::string value;
  if (ctx.depth > kMaxDepth) {
    *out += prefix;
    *out += "...";
  } else if (ctx.in_value && UnprintableInValue(type)) {
    *out += prefix;
    Appendf(out, "Data type: %s(%d)\tValue: UNPRINTABLE", PMIx_Data_type_string(type), type);
  } else if (ScalarText(type, e, &value)) {
    *out += prefix;
    Appendf(out, "Data type: %s\t%s: %s", PrintedTypeName(type),
            type == PMIX_POINTER ? "Address" : "Value", value.c_str());
  } else if (!PrintStruct(out, prefix, e, type, ctx)) {
    *out += prefix;
    Appendf(out, "Data type: %s", PMIx_Data_type_string(type));
  }
  return Status();
}

std::string Num(long long v) {
  std::string s;
  Appendf(&s, "%lld", v);
  return s;
}

std::string UNum(unsigned long long v) {
  std::string s;
  Appendf(&s, "%llu", v);
  return s;
}

const char* PrintedTypeName(pmix_data_type_t type) {
  switch (type) {
    case PMIX_LOCTYPE: return "PMIX_LOCALITY";
    case PMIX_DEVTYPE: return "PMIX_DEVICE_TYPE";
    default: return PMIx_Data_type_string(type);
  }
}

std::string ProcString(const pmix_proc_t& p) { return ProcText(p); }

Status PrintElement(std::string* out, std::string_view prefix, const void* element,
                    pmix_data_type_t type) {
  std::string text;
  PMIX_RETURN_IF_ERROR(PrintAt(&text, prefix, element, type, PrintContext{}));
  *out += text;
  return Status();
}

}  // namespace pmix
