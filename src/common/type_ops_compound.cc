// Element operations for the structs that nest values, infos and arrays:
// pmix_value_t, pmix_info_t, pmix_pdata_t, pmix_app_t, pmix_query_t and
// pmix_data_array_t itself (arrays of arrays).
#include <cstdlib>
#include <cstring>

#include "src/common/data_types.h"
#include "src/common/type_ops.h"
#include "src/common/value_ops.h"

namespace pmix::type_ops {
namespace {

Status DupArgvStatus(char** src, char*** out) {
  return DupArgv(src, out) ? Status() : Status(PMIX_ERR_NOMEM);
}

// Copies an array of infos into *out / *count (written on success only).
Status CopyInfos(const pmix_info_t* src, size_t n, pmix_info_t** out,
                 size_t* count) {
  void* copy = nullptr;
  PMIX_RETURN_IF_ERROR(CopyArray(PMIX_INFO, src, n, &copy));
  *out = static_cast<pmix_info_t*>(copy);
  *count = n;
  return Status();
}

pmix_value_cmp_t CompareKeys(const char* a, const char* b) {
  return CompareNumbers(std::strncmp(a, b, PMIX_MAX_KEYLEN), 0);
}

}  // namespace

// --- value ---

void ConstructValue(void* element) {
  auto& v = As<pmix_value_t>(element);
  std::memset(&v, 0, sizeof v);
  v.type = PMIX_UNDEF;
}

Status CopyValueElement(void* dst, const void* src) {
  return CopyValue(&As<pmix_value_t>(dst), As<pmix_value_t>(src));
}

void ReleaseValueElement(void* element) {
  DestructValue(&As<pmix_value_t>(element));
}

pmix_value_cmp_t CompareValueElement(const void* a, const void* b) {
  return CompareValues(As<pmix_value_t>(a), As<pmix_value_t>(b));
}

// --- info ---

void ConstructInfo(void* element) {
  auto& info = As<pmix_info_t>(element);
  std::memset(&info, 0, sizeof info);
  info.value.type = PMIX_UNDEF;
}

Status CopyInfo(void* dst, const void* src) {
  const auto& s = As<pmix_info_t>(src);
  auto& d = As<pmix_info_t>(dst);
  CopyBounded(d.key, s.key, PMIX_MAX_KEYLEN);
  d.flags = s.flags;
  if ((s.flags & PMIX_INFO_PERSISTENT) != 0) {
    d.value = s.value;  // the caller keeps owning the data
    return Status();
  }
  return CopyValue(&d.value, s.value);
}

void ReleaseInfo(void* element) {
  auto& info = As<pmix_info_t>(element);
  if ((info.flags & PMIX_INFO_PERSISTENT) == 0) DestructValue(&info.value);
}

pmix_value_cmp_t CompareInfo(const void* a, const void* b) {
  const auto& x = As<pmix_info_t>(a);
  const auto& y = As<pmix_info_t>(b);
  pmix_value_cmp_t r = CompareKeys(x.key, y.key);
  return r != PMIX_EQUAL ? r : CompareValues(x.value, y.value);
}

// --- pdata ---

void ConstructPdata(void* element) {
  auto& p = As<pmix_pdata_t>(element);
  std::memset(&p, 0, sizeof p);
  p.proc.rank = PMIX_RANK_UNDEF;
  p.value.type = PMIX_UNDEF;
}

Status CopyPdata(void* dst, const void* src) {
  const auto& s = As<pmix_pdata_t>(src);
  auto& d = As<pmix_pdata_t>(dst);
  d.proc = s.proc;
  CopyBounded(d.key, s.key, PMIX_MAX_KEYLEN);
  return CopyValue(&d.value, s.value);
}

void ReleasePdata(void* element) {
  DestructValue(&As<pmix_pdata_t>(element).value);
}

pmix_value_cmp_t ComparePdata(const void* a, const void* b) {
  const auto& x = As<pmix_pdata_t>(a);
  const auto& y = As<pmix_pdata_t>(b);
  pmix_value_cmp_t r = FirstDifference(
      {CompareProc(&x.proc, &y.proc), CompareKeys(x.key, y.key)});
  return r != PMIX_EQUAL ? r : CompareValues(x.value, y.value);
}

// --- app ---

Status CopyApp(void* dst, const void* src) {
  const auto& s = As<pmix_app_t>(src);
  auto& d = As<pmix_app_t>(dst);
  d.maxprocs = s.maxprocs;
  PMIX_RETURN_IF_ERROR(Dup(s.cmd, &d.cmd));
  PMIX_RETURN_IF_ERROR(DupArgvStatus(s.argv, &d.argv));
  PMIX_RETURN_IF_ERROR(DupArgvStatus(s.env, &d.env));
  PMIX_RETURN_IF_ERROR(Dup(s.cwd, &d.cwd));
  return CopyInfos(s.info, s.ninfo, &d.info, &d.ninfo);
}

void ReleaseApp(void* element) {
  auto& app = As<pmix_app_t>(element);
  std::free(app.cmd);
  FreeArgv(app.argv);
  FreeArgv(app.env);
  std::free(app.cwd);
  FreeArray(PMIX_INFO, app.info, app.ninfo);
}

// --- query ---

Status CopyQuery(void* dst, const void* src) {
  const auto& s = As<pmix_query_t>(src);
  auto& d = As<pmix_query_t>(dst);
  PMIX_RETURN_IF_ERROR(DupArgvStatus(s.keys, &d.keys));
  return CopyInfos(s.qualifiers, s.nqual, &d.qualifiers, &d.nqual);
}

void ReleaseQuery(void* element) {
  auto& q = As<pmix_query_t>(element);
  FreeArgv(q.keys);
  FreeArray(PMIX_INFO, q.qualifiers, q.nqual);
}

// --- data array (as an element of another array, or boxed in a value) ---

Status CopyDataArrayElement(void* dst, const void* src) {
  return CopyDataArray(&As<pmix_data_array_t>(dst), As<pmix_data_array_t>(src));
}

void ReleaseDataArrayElement(void* element) {
  auto& d = As<pmix_data_array_t>(element);
  FreeArray(d.type, d.array, d.size);
}

pmix_value_cmp_t CompareDataArray(const void* a, const void* b) {
  const auto& x = As<pmix_data_array_t>(a);
  const auto& y = As<pmix_data_array_t>(b);
  if (x.type != y.type) return PMIX_VALUE_TYPE_DIFFERENT;
  if (x.size != y.size) return CompareNumbers(x.size, y.size);
  if (x.size == 0 || x.array == y.array) return PMIX_EQUAL;
  if (x.array == nullptr || y.array == nullptr) {  // malformed input
    return x.array == nullptr ? PMIX_VALUE2_GREATER : PMIX_VALUE1_GREATER;
  }
  const DataTypeOps* ops = FindDataType(x.type);
  if (ops == nullptr || ops->element_size == 0) {
    return PMIX_VALUE_COMPARISON_NOT_AVAIL;
  }
  const char* ex = static_cast<const char*>(x.array);
  const char* ey = static_cast<const char*>(y.array);
  for (size_t i = 0; i < x.size; ++i) {
    size_t offset = i * ops->element_size;
    pmix_value_cmp_t r = CompareElements(*ops, ex + offset, ey + offset);
    if (r != PMIX_EQUAL) return r;
  }
  return PMIX_EQUAL;
}

}  // namespace pmix::type_ops
