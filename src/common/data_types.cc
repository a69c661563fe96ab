#include "src/common/data_types.h"

#include <sys/time.h>
#include <sys/types.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "src/common/type_ops.h"

namespace pmix {
namespace {

using namespace type_ops;  // NOLINT: the table below names every group

constexpr auto kInline = ValueStorage::kInline;
constexpr auto kBoxed = ValueStorage::kBoxed;
constexpr auto kNotStorable = ValueStorage::kNotStorable;
constexpr auto kElement = LoadInput::kElement;

// A scalar: flat copy, nothing owned, compared as T.
template <class T>
constexpr DataTypeOps Scalar(pmix_data_type_t type) {
  return {
      type,    sizeof(T), kInline, kElement,         UnloadMode::kIntoBuffer,
      nullptr, nullptr,   nullptr, &CompareScalar<T>};
}

// A struct a value holds through a pointer and unloads as a new copy.
constexpr DataTypeOps Boxed(pmix_data_type_t type, size_t size,
                            Status (*copy)(void*, const void*),
                            void (*release)(void*),
                            pmix_value_cmp_t (*compare)(const void*,
                                                        const void*),
                            void (*construct)(void*) = nullptr) {
  return {type,      size, kBoxed,  kElement, UnloadMode::kNewCopy,
          construct, copy, release, compare};
}

// A struct that only exists as an array element.
constexpr DataTypeOps ElementOnly(
    pmix_data_type_t type, size_t size, void (*construct)(void*),
    Status (*copy)(void*, const void*), void (*release)(void*),
    pmix_value_cmp_t (*compare)(const void*, const void*)) {
  return {type,      size, kNotStorable, kElement, UnloadMode::kNone,
          construct, copy, release,      compare};
}

// A byte object held inline in value.data.bo.
constexpr DataTypeOps Bytes(pmix_data_type_t type, LoadInput input = kElement) {
  return {type,
          sizeof(pmix_byte_object_t),
          kInline,
          input,
          UnloadMode::kBytes,
          nullptr,
          &CopyByteObject,
          &ReleaseByteObject,
          &CompareByteObject};
}

// The 62 standard codes plus OpenPMIx's statistics and data buffer.
constexpr DataTypeOps kTable[] = {
    {PMIX_UNDEF, 0, ValueStorage::kEmpty, kElement, UnloadMode::kNone, nullptr,
     nullptr, nullptr, nullptr},
    Scalar<bool>(PMIX_BOOL),
    Scalar<uint8_t>(PMIX_BYTE),
    {PMIX_STRING, sizeof(char*), kInline, LoadInput::kItself,
     UnloadMode::kString, nullptr, &CopyString, &ReleaseString, &CompareString},
    Scalar<size_t>(PMIX_SIZE),
    Scalar<pid_t>(PMIX_PID),
    Scalar<int>(PMIX_INT),
    Scalar<int8_t>(PMIX_INT8),
    Scalar<int16_t>(PMIX_INT16),
    Scalar<int32_t>(PMIX_INT32),
    Scalar<int64_t>(PMIX_INT64),
    Scalar<unsigned int>(PMIX_UINT),
    Scalar<uint8_t>(PMIX_UINT8),
    Scalar<uint16_t>(PMIX_UINT16),
    Scalar<uint32_t>(PMIX_UINT32),
    Scalar<uint64_t>(PMIX_UINT64),
    Scalar<float>(PMIX_FLOAT),
    Scalar<double>(PMIX_DOUBLE),
    {PMIX_TIMEVAL, sizeof(struct timeval), kInline, kElement,
     UnloadMode::kIntoBuffer, nullptr, nullptr, nullptr, &CompareTimeval},
    Scalar<time_t>(PMIX_TIME),
    Scalar<pmix_status_t>(PMIX_STATUS),
    ElementOnly(PMIX_VALUE, sizeof(pmix_value_t), &ConstructValue,
                &CopyValueElement, &ReleaseValueElement, &CompareValueElement),
    {PMIX_PROC, sizeof(pmix_proc_t), kBoxed, kElement, UnloadMode::kIntoBuffer,
     &ConstructProc, nullptr, nullptr, &CompareProc},
    ElementOnly(PMIX_APP, sizeof(pmix_app_t), nullptr, &CopyApp, &ReleaseApp,
                nullptr),
    ElementOnly(PMIX_INFO, sizeof(pmix_info_t), &ConstructInfo, &CopyInfo,
                &ReleaseInfo, &CompareInfo),
    ElementOnly(PMIX_PDATA, sizeof(pmix_pdata_t), &ConstructPdata, &CopyPdata,
                &ReleasePdata, &ComparePdata),
    Bytes(PMIX_BYTE_OBJECT),
    {PMIX_KVAL, 0, kNotStorable, kElement, UnloadMode::kNone, nullptr, nullptr,
     nullptr, nullptr},
    Scalar<pmix_persistence_t>(PMIX_PERSIST),
    {PMIX_POINTER, sizeof(void*), kInline, LoadInput::kItself,
     UnloadMode::kPointer, nullptr, nullptr, nullptr,
     &CompareScalar<uintptr_t>},
    Scalar<pmix_scope_t>(PMIX_SCOPE),
    Scalar<pmix_data_range_t>(PMIX_DATA_RANGE),
    Scalar<uint8_t>(PMIX_COMMAND),
    Scalar<pmix_info_directives_t>(PMIX_INFO_DIRECTIVES),
    Scalar<pmix_data_type_t>(PMIX_DATA_TYPE),
    Scalar<pmix_proc_state_t>(PMIX_PROC_STATE),
    Boxed(PMIX_PROC_INFO, sizeof(pmix_proc_info_t), &CopyProcInfo,
          &ReleaseProcInfo, &CompareProcInfo, &ConstructProcInfo),
    Boxed(PMIX_DATA_ARRAY, sizeof(pmix_data_array_t), &CopyDataArrayElement,
          &ReleaseDataArrayElement, &CompareDataArray),
    Scalar<pmix_rank_t>(PMIX_PROC_RANK),
    ElementOnly(PMIX_QUERY, sizeof(pmix_query_t), nullptr, &CopyQuery,
                &ReleaseQuery, nullptr),
    Bytes(PMIX_COMPRESSED_STRING),
    Scalar<pmix_alloc_directive_t>(PMIX_ALLOC_DIRECTIVE),
    Scalar<pmix_iof_channel_t>(PMIX_IOF_CHANNEL),
    {PMIX_ENVAR, sizeof(pmix_envar_t), kInline, kElement, UnloadMode::kNewCopy,
     nullptr, &CopyEnvar, &ReleaseEnvar, &CompareEnvar},
    Boxed(PMIX_COORD, sizeof(pmix_coord_t), &CopyCoord, &ReleaseCoord,
          &CompareCoord),
    Boxed(PMIX_REGATTR, sizeof(pmix_regattr_t), &CopyRegattr, &ReleaseRegattr,
          &CompareRegattr),
    // As an element (PMIx_Data_pack/copy, data arrays) a regex is a char*,
    // as OpenPMIx 4.2 packs it; a pmix_value_t holds it as a byte object
    // (kRegexValue below, found through FindValueType).
    {PMIX_REGEX, sizeof(char*), kInline, LoadInput::kItself, UnloadMode::kString, nullptr,
     &CopyString, &ReleaseString, &CompareString},
    Scalar<pmix_job_state_t>(PMIX_JOB_STATE),
    Scalar<pmix_link_state_t>(PMIX_LINK_STATE),
    Boxed(PMIX_PROC_CPUSET, sizeof(pmix_cpuset_t), &CopyCpuset, &ReleaseCpuset,
          &CompareCpuset),
    Boxed(PMIX_GEOMETRY, sizeof(pmix_geometry_t), &CopyGeometry,
          &ReleaseGeometry, &CompareGeometry),
    Boxed(PMIX_DEVICE_DIST, sizeof(pmix_device_distance_t), &CopyDeviceDistance,
          &ReleaseDeviceDistance, &CompareDeviceDistance,
          &ConstructDeviceDistance),
    Boxed(PMIX_ENDPOINT, sizeof(pmix_endpoint_t), &CopyEndpoint,
          &ReleaseEndpoint, &CompareEndpoint),
    Boxed(PMIX_TOPO, sizeof(pmix_topology_t), &CopyTopology, &ReleaseTopology,
          &CompareTopology),
    Scalar<pmix_device_type_t>(PMIX_DEVTYPE),
    Scalar<pmix_locality_t>(PMIX_LOCTYPE),
    Bytes(PMIX_COMPRESSED_BYTE_OBJECT),
    {PMIX_PROC_NSPACE, sizeof(pmix_nspace_t), kBoxed, kElement,
     UnloadMode::kNspace, nullptr, &CopyNspace, nullptr, &CompareNspace},
    Boxed(PMIX_PROC_STATS, sizeof(pmix_proc_stats_t), &CopyProcStats,
          &ReleaseProcStats, &CompareProcStats, &ConstructProcStats),
    Boxed(PMIX_DISK_STATS, sizeof(pmix_disk_stats_t), &CopyDiskStats,
          &ReleaseDiskStats, &CompareDiskStats),
    Boxed(PMIX_NET_STATS, sizeof(pmix_net_stats_t), &CopyNetStats,
          &ReleaseNetStats, &CompareNetStats),
    Boxed(PMIX_NODE_STATS, sizeof(pmix_node_stats_t), &CopyNodeStats,
          &ReleaseNodeStats, &CompareNodeStats),
    Boxed(PMIX_DATA_BUFFER, sizeof(pmix_data_buffer_t), &CopyDataBuffer,
          &ReleaseDataBuffer, nullptr),
    Scalar<pmix_storage_medium_t>(PMIX_STOR_MEDIUM),
    Scalar<pmix_storage_accessibility_t>(PMIX_STOR_ACCESS),
    Scalar<pmix_storage_persistence_t>(PMIX_STOR_PERSIST),
    Scalar<pmix_storage_access_type_t>(PMIX_STOR_ACCESS_TYPE),
};

constexpr size_t kIndexSize = 70;  // codes 0..69

constexpr std::array<const DataTypeOps*, kIndexSize> BuildIndex() {
  std::array<const DataTypeOps*, kIndexSize> index{};
  for (const DataTypeOps& row : kTable) index[row.type] = &row;
  return index;
}

constexpr std::array<const DataTypeOps*, kIndexSize> kIndex = BuildIndex();

constexpr bool EveryRowIndexed() {
  size_t indexed = 0;
  for (const DataTypeOps* row : kIndex) indexed += row != nullptr ? 1 : 0;
  return indexed == sizeof(kTable) / sizeof(kTable[0]);
}
static_assert(sizeof(kTable) / sizeof(kTable[0]) == 67,
              "62 standard type codes plus 5 OpenPMIx extras");
static_assert(EveryRowIndexed(), "each type code has exactly one row");

}  // namespace

const DataTypeOps* FindDataType(pmix_data_type_t type) noexcept {
  return type < kIndexSize ? kIndex[type] : nullptr;
}

const DataTypeOps* FindValueType(pmix_data_type_t type) noexcept {
  // A regex value is its text and NUL in value.data.bo.
  static constexpr DataTypeOps kRegexValue = Bytes(PMIX_REGEX, LoadInput::kRegexText);
  return type == PMIX_REGEX ? &kRegexValue : FindDataType(type);
}

size_t ElementSize(pmix_data_type_t type) noexcept {
  const DataTypeOps* ops = FindDataType(type);
  return ops == nullptr ? 0 : ops->element_size;
}

void ConstructElement(const DataTypeOps& ops, void* element) noexcept {
  if (ops.construct != nullptr) {
    ops.construct(element);
  } else {
    std::memset(element, 0, ops.element_size);
  }
}

Status CopyElement(const DataTypeOps& ops, void* dst,
                   const void* src) noexcept {
  if (ops.copy == nullptr) {
    std::memcpy(dst, src, ops.element_size);
    return Status();
  }
  std::memset(dst, 0, ops.element_size);
  Status status = ops.copy(dst, src);
  if (!status.ok()) DestructElement(ops, dst);
  return status;
}

void DestructElement(const DataTypeOps& ops, void* element) noexcept {
  if (ops.release != nullptr) ops.release(element);
  ConstructElement(ops, element);
}

pmix_value_cmp_t CompareElements(const DataTypeOps& ops, const void* a,
                                 const void* b) noexcept {
  if (ops.compare == nullptr) return PMIX_VALUE_COMPARISON_NOT_AVAIL;
  return ops.compare(a, b);
}

namespace {

// A zeroed array of n elements of `size` bytes, nullptr on overflow or
// without memory. Small ones from malloc + memset: glibc's calloc (2.36)
// skips the per-thread cache and takes the arena lock, and every PMIx_Get
// makes one (its pmix_value_t); large ones from calloc, which gets fresh
// pages already zeroed.
constexpr size_t kSmallArray = 4096;
void* ZeroedArray(size_t n, size_t size) noexcept {
  if (size != 0 && n > SIZE_MAX / size) return nullptr;
  size_t bytes = n * size;
  if (bytes > kSmallArray) return std::calloc(n, size);
  void* array = std::malloc(bytes);
  // Compilers fold malloc + memset back into calloc: hide where the
  // pointer came from.
  asm("" : "+r"(array));
  if (array != nullptr) std::memset(array, 0, bytes);
  return array;
}

}  // namespace

void* CreateArray(pmix_data_type_t type, size_t n) noexcept {
  const DataTypeOps* ops = FindDataType(type);
  if (ops == nullptr || ops->element_size == 0 || n == 0) return nullptr;
  char* array = static_cast<char*>(ZeroedArray(n, ops->element_size));
  if (array == nullptr || ops->construct == nullptr) return array;
  for (size_t i = 0; i < n; ++i) ops->construct(array + i * ops->element_size);
  return array;
}

Status CopyArray(pmix_data_type_t type, const void* src, size_t n,
                 void** out) noexcept {
  if (n == 0) {
    *out = nullptr;
    return Status();
  }
  const DataTypeOps* ops = FindDataType(type);
  if (ops == nullptr) return PMIX_ERR_UNKNOWN_DATA_TYPE;
  if (ops->element_size == 0) return PMIX_ERR_NOT_SUPPORTED;
  if (src == nullptr) return PMIX_ERR_BAD_PARAM;
  char* array = static_cast<char*>(ZeroedArray(n, ops->element_size));
  if (array == nullptr) return PMIX_ERR_NOMEM;
  const char* from = static_cast<const char*>(src);
  for (size_t i = 0; i < n; ++i) {
    size_t offset = i * ops->element_size;
    Status status = CopyElement(*ops, array + offset, from + offset);
    if (!status.ok()) {
      FreeArray(type, array, i);  // roll back what was copied so far
      return status;
    }
  }
  *out = array;
  return Status();
}

void FreeArray(pmix_data_type_t type, void* array, size_t n) noexcept {
  if (array == nullptr) return;
  const DataTypeOps* ops = FindDataType(type);
  if (ops != nullptr && ops->release != nullptr) {
    char* elements = static_cast<char*>(array);
    for (size_t i = 0; i < n; ++i) {
      ops->release(elements + i * ops->element_size);
    }
  }
  std::free(array);
}

Status CopyDataArray(pmix_data_array_t* dst,
                     const pmix_data_array_t& src) noexcept {
  void* array = nullptr;
  PMIX_RETURN_IF_ERROR(CopyArray(src.type, src.array, src.size, &array));
  dst->type = src.type;
  dst->size = src.size;
  dst->array = array;
  return Status();
}

void DestructDataArray(pmix_data_array_t* d) noexcept {
  FreeArray(d->type, d->array, d->size);
  d->type = PMIX_UNDEF;
  d->size = 0;
  d->array = nullptr;
}

bool DupString(const char* src, char** out) noexcept {
  if (src == nullptr) {
    *out = nullptr;
    return true;
  }
  *out = strdup(src);
  return *out != nullptr;
}

bool DupArgv(char** src, char*** out) noexcept {
  *out = nullptr;
  if (src == nullptr) return true;
  size_t n = 0;
  while (src[n] != nullptr) ++n;
  char** copy = static_cast<char**>(std::calloc(n + 1, sizeof(char*)));
  if (copy == nullptr) return false;
  for (size_t i = 0; i < n; ++i) {
    copy[i] = strdup(src[i]);
    if (copy[i] == nullptr) {
      FreeArgv(copy);
      return false;
    }
  }
  *out = copy;
  return true;
}

void FreeArgv(char** argv) noexcept {
  if (argv == nullptr) return;
  for (char** p = argv; *p != nullptr; ++p) std::free(*p);
  std::free(argv);
}

void CopyBounded(char* dst, const char* src, size_t max_len) noexcept {
  size_t len = src == nullptr ? 0 : strnlen(src, max_len);
  if (len > 0) std::memmove(dst, src, len);
  std::memset(dst + len, 0, max_len + 1 - len);
}

pmix_value_cmp_t FirstDifference(
    std::initializer_list<pmix_value_cmp_t> results) noexcept {
  for (pmix_value_cmp_t r : results) {
    if (r != PMIX_EQUAL) return r;
  }
  return PMIX_EQUAL;
}

pmix_value_cmp_t CompareStrings(const char* a, const char* b) noexcept {
  if (a == nullptr || b == nullptr) {
    if (a == b) return PMIX_EQUAL;
    return a == nullptr ? PMIX_VALUE2_GREATER : PMIX_VALUE1_GREATER;
  }
  return CompareNumbers(std::strcmp(a, b), 0);
}

pmix_value_cmp_t CompareBytes(const char* a, size_t na, const char* b,
                              size_t nb) noexcept {
  // OpenPMIx orders byte objects by size first, then by content.
  if (na != nb) return CompareNumbers(na, nb);
  if (na == 0 || a == b) return PMIX_EQUAL;
  if (a == nullptr || b == nullptr) return CompareStrings(a, b);
  return CompareNumbers(std::memcmp(a, b, na), 0);
}

}  // namespace pmix
