// Fixed-width scalars: every integer-like type is written as sizeof(its C
// type) bytes, little-endian; floats as their IEEE-754 bit patterns.
#include <sys/time.h>
#include <sys/types.h>

#include <cstdint>
#include <cstring>
#include <ctime>
#include <type_traits>

#include "plugins/bfrops/native/codec.h"

namespace pmix::bfrops::native {
namespace {

template <size_t N>
struct Unsigned;
template <>
struct Unsigned<1> { using type = uint8_t; };
template <>
struct Unsigned<2> { using type = uint16_t; };
template <>
struct Unsigned<4> { using type = uint32_t; };
template <>
struct Unsigned<8> { using type = uint64_t; };

template <class T>
pmix_status_t PackInt(Writer& w, const void* element) {
  typename Unsigned<sizeof(T)>::type bits;
  std::memcpy(&bits, element, sizeof bits);
  if constexpr (sizeof(T) == 1) w.U8(bits);
  if constexpr (sizeof(T) == 2) w.U16(bits);
  if constexpr (sizeof(T) == 4) w.U32(bits);
  if constexpr (sizeof(T) == 8) w.U64(bits);
  return PMIX_SUCCESS;
}

template <class T>
pmix_status_t UnpackInt(Reader& r, void* element) {
  typename Unsigned<sizeof(T)>::type bits = 0;
  pmix_status_t rc = PMIX_SUCCESS;
  if constexpr (sizeof(T) == 1) rc = r.U8(&bits);
  if constexpr (sizeof(T) == 2) rc = r.U16(&bits);
  if constexpr (sizeof(T) == 4) rc = r.U32(&bits);
  if constexpr (sizeof(T) == 8) rc = r.U64(&bits);
  if (rc == PMIX_SUCCESS) std::memcpy(element, &bits, sizeof bits);
  return rc;
}

template <class T>
constexpr TypeCodec Int(pmix_data_type_t type) {
  return {type, sizeof(T), sizeof(T), &PackInt<T>, &UnpackInt<T>, true};
}

pmix_status_t PackBool(Writer& w, const void* element) {
  w.U8(As<bool>(element) ? 1 : 0);
  return PMIX_SUCCESS;
}

pmix_status_t UnpackBool(Reader& r, void* element) {
  uint8_t v = 0;
  NATIVE_TRY(r.U8(&v));
  if (v > 1) return PMIX_ERR_UNPACK_FAILURE;
  As<bool>(element) = v == 1;
  return PMIX_SUCCESS;
}

pmix_status_t PackTv(Writer& w, const void* element) {
  return PackTimeval(w, As<struct timeval>(element));
}

pmix_status_t UnpackTv(Reader& r, void* element) {
  return UnpackTimeval(r, &As<struct timeval>(element));
}

static_assert(sizeof(float) == 4 && sizeof(double) == 8, "IEEE-754 sizes");

constexpr TypeCodec kRows[] = {
    {PMIX_BOOL, sizeof(bool), 1, &PackBool, &UnpackBool},
    Int<uint8_t>(PMIX_BYTE),
    Int<size_t>(PMIX_SIZE),
    Int<pid_t>(PMIX_PID),
    Int<int>(PMIX_INT),
    Int<int8_t>(PMIX_INT8),
    Int<int16_t>(PMIX_INT16),
    Int<int32_t>(PMIX_INT32),
    Int<int64_t>(PMIX_INT64),
    Int<unsigned int>(PMIX_UINT),
    Int<uint8_t>(PMIX_UINT8),
    Int<uint16_t>(PMIX_UINT16),
    Int<uint32_t>(PMIX_UINT32),
    Int<uint64_t>(PMIX_UINT64),
    Int<float>(PMIX_FLOAT),
    Int<double>(PMIX_DOUBLE),
    {PMIX_TIMEVAL, sizeof(struct timeval), 16, &PackTv, &UnpackTv},
    Int<time_t>(PMIX_TIME),
    Int<pmix_status_t>(PMIX_STATUS),
    Int<pmix_persistence_t>(PMIX_PERSIST),
    Int<pmix_scope_t>(PMIX_SCOPE),
    Int<pmix_data_range_t>(PMIX_DATA_RANGE),
    Int<uint8_t>(PMIX_COMMAND),
    Int<pmix_info_directives_t>(PMIX_INFO_DIRECTIVES),
    Int<pmix_data_type_t>(PMIX_DATA_TYPE),
    Int<pmix_proc_state_t>(PMIX_PROC_STATE),
    Int<pmix_rank_t>(PMIX_PROC_RANK),
    Int<pmix_alloc_directive_t>(PMIX_ALLOC_DIRECTIVE),
    Int<pmix_iof_channel_t>(PMIX_IOF_CHANNEL),
    Int<pmix_job_state_t>(PMIX_JOB_STATE),
    Int<pmix_link_state_t>(PMIX_LINK_STATE),
    Int<pmix_device_type_t>(PMIX_DEVTYPE),
    Int<pmix_locality_t>(PMIX_LOCTYPE),
    Int<pmix_storage_medium_t>(PMIX_STOR_MEDIUM),
    Int<pmix_storage_accessibility_t>(PMIX_STOR_ACCESS),
    Int<pmix_storage_persistence_t>(PMIX_STOR_PERSIST),
    Int<pmix_storage_access_type_t>(PMIX_STOR_ACCESS_TYPE),
};

}  // namespace

pmix_status_t PackTimeval(Writer& w, const struct timeval& tv) {
  w.U64(static_cast<uint64_t>(tv.tv_sec));
  w.U64(static_cast<uint64_t>(tv.tv_usec));
  return PMIX_SUCCESS;
}

pmix_status_t UnpackTimeval(Reader& r, struct timeval* tv) {
  uint64_t sec = 0;
  uint64_t usec = 0;
  NATIVE_TRY(r.U64(&sec));
  NATIVE_TRY(r.U64(&usec));
  tv->tv_sec = static_cast<time_t>(sec);
  tv->tv_usec = static_cast<suseconds_t>(usec);
  return PMIX_SUCCESS;
}

pmix_status_t PackFloat(Writer& w, float f) { return PackInt<float>(w, &f); }

pmix_status_t UnpackFloat(Reader& r, float* f) { return UnpackInt<float>(r, f); }

const TypeCodec* ScalarCodecs(size_t* n) {
  *n = sizeof(kRows) / sizeof(kRows[0]);
  return kRows;
}

}  // namespace pmix::bfrops::native
