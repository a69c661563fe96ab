// Element operations for strings, byte objects, procs and the small structs
// of the standard. Comparison orders follow what OpenPMIx 4.2.2's
// PMIx_Value_compare observably does (field by field, in the order below);
// where it is inconsistent (asymmetric results, ignored fields, NULL
// crashes) we give the consistent answer.
#include <sys/time.h>

#include <cstdlib>
#include <cstring>

#include "src/common/data_types.h"
#include "src/common/type_ops.h"

namespace pmix::type_ops {
namespace {

Status DupBytes(const pmix_byte_object_t& src, pmix_byte_object_t* dst) {
  if (src.size == 0) return Status();
  if (src.bytes == nullptr) return PMIX_ERR_BAD_PARAM;
  dst->bytes = static_cast<char*>(std::malloc(src.size));
  if (dst->bytes == nullptr) return PMIX_ERR_NOMEM;
  std::memcpy(dst->bytes, src.bytes, src.size);
  dst->size = src.size;
  return Status();
}

pmix_value_cmp_t CompareArgv(char** a, char** b) {
  if (a == nullptr || b == nullptr) {
    if (a == b) return PMIX_EQUAL;
    return a == nullptr ? PMIX_VALUE2_GREATER : PMIX_VALUE1_GREATER;
  }
  for (; *a != nullptr && *b != nullptr; ++a, ++b) {
    pmix_value_cmp_t r = CompareStrings(*a, *b);
    if (r != PMIX_EQUAL) return r;
  }
  if (*a == *b) return PMIX_EQUAL;  // both ended
  return *a == nullptr ? PMIX_VALUE2_GREATER : PMIX_VALUE1_GREATER;
}

}  // namespace

pmix_value_cmp_t CompareTimeval(const void* a, const void* b) {
  const auto& x = As<struct timeval>(a);
  const auto& y = As<struct timeval>(b);
  return FirstDifference({CompareNumbers(x.tv_sec, y.tv_sec),
                          CompareNumbers(x.tv_usec, y.tv_usec)});
}

// --- strings and byte objects ---

Status CopyString(void* dst, const void* src) {
  return Dup(As<char*>(src), &As<char*>(dst));
}

void ReleaseString(void* element) { std::free(As<char*>(element)); }

pmix_value_cmp_t CompareString(const void* a, const void* b) {
  return CompareStrings(As<char*>(a), As<char*>(b));
}

Status CopyByteObject(void* dst, const void* src) {
  return DupBytes(As<pmix_byte_object_t>(src), &As<pmix_byte_object_t>(dst));
}

void ReleaseByteObject(void* element) {
  std::free(As<pmix_byte_object_t>(element).bytes);
}

pmix_value_cmp_t CompareByteObject(const void* a, const void* b) {
  const auto& x = As<pmix_byte_object_t>(a);
  const auto& y = As<pmix_byte_object_t>(b);
  return CompareBytes(x.bytes, x.size, y.bytes, y.size);
}

// --- namespaces and procs ---

Status CopyNspace(void* dst, const void* src) {
  // The source may be a short C string rather than a full pmix_nspace_t.
  CopyBounded(static_cast<char*>(dst), static_cast<const char*>(src),
              PMIX_MAX_NSLEN);
  return Status();
}

pmix_value_cmp_t CompareNspace(const void* a, const void* b) {
  return CompareNumbers(
      std::strncmp(static_cast<const char*>(a), static_cast<const char*>(b),
                   PMIX_MAX_NSLEN),
      0);
}

void ConstructProc(void* element) {
  auto& p = As<pmix_proc_t>(element);
  std::memset(&p, 0, sizeof p);
  p.rank = PMIX_RANK_UNDEF;
}

pmix_value_cmp_t CompareProc(const void* a, const void* b) {
  // No wildcard matching: PMIX_RANK_WILDCARD orders as the number it is.
  const auto& x = As<pmix_proc_t>(a);
  const auto& y = As<pmix_proc_t>(b);
  return FirstDifference(
      {CompareNspace(x.nspace, y.nspace), CompareNumbers(x.rank, y.rank)});
}

// --- envar ---

Status CopyEnvar(void* dst, const void* src) {
  const auto& s = As<pmix_envar_t>(src);
  auto& d = As<pmix_envar_t>(dst);
  d.separator = s.separator;
  PMIX_RETURN_IF_ERROR(Dup(s.envar, &d.envar));
  return Dup(s.value, &d.value);
}

void ReleaseEnvar(void* element) {
  auto& e = As<pmix_envar_t>(element);
  std::free(e.envar);
  std::free(e.value);
}

pmix_value_cmp_t CompareEnvar(const void* a, const void* b) {
  const auto& x = As<pmix_envar_t>(a);
  const auto& y = As<pmix_envar_t>(b);
  return FirstDifference({CompareStrings(x.envar, y.envar),
                          CompareStrings(x.value, y.value),
                          CompareNumbers(x.separator, y.separator)});
}

// --- proc info ---

void ConstructProcInfo(void* element) {
  auto& p = As<pmix_proc_info_t>(element);
  std::memset(&p, 0, sizeof p);
  p.proc.rank = PMIX_RANK_UNDEF;
}

Status CopyProcInfo(void* dst, const void* src) {
  const auto& s = As<pmix_proc_info_t>(src);
  auto& d = As<pmix_proc_info_t>(dst);
  d.proc = s.proc;
  d.pid = s.pid;
  d.exit_code = s.exit_code;
  d.state = s.state;
  PMIX_RETURN_IF_ERROR(Dup(s.hostname, &d.hostname));
  return Dup(s.executable_name, &d.executable_name);
}

void ReleaseProcInfo(void* element) {
  auto& p = As<pmix_proc_info_t>(element);
  std::free(p.hostname);
  std::free(p.executable_name);
}

pmix_value_cmp_t CompareProcInfo(const void* a, const void* b) {
  const auto& x = As<pmix_proc_info_t>(a);
  const auto& y = As<pmix_proc_info_t>(b);
  return FirstDifference(
      {CompareProc(&x.proc, &y.proc), CompareStrings(x.hostname, y.hostname),
       CompareStrings(x.executable_name, y.executable_name),
       CompareNumbers(x.pid, y.pid), CompareNumbers(x.exit_code, y.exit_code),
       CompareNumbers(x.state, y.state)});
}

// --- fabric coordinates and geometry ---

Status CopyCoord(void* dst, const void* src) {
  const auto& s = As<pmix_coord_t>(src);
  auto& d = As<pmix_coord_t>(dst);
  d.view = s.view;
  if (s.dims == 0) return Status();
  if (s.coord == nullptr) return PMIX_ERR_BAD_PARAM;
  d.coord = static_cast<uint32_t*>(std::calloc(s.dims, sizeof(uint32_t)));
  if (d.coord == nullptr) return PMIX_ERR_NOMEM;
  std::memcpy(d.coord, s.coord, s.dims * sizeof(uint32_t));
  d.dims = s.dims;
  return Status();
}

void ReleaseCoord(void* element) { std::free(As<pmix_coord_t>(element).coord); }

pmix_value_cmp_t CompareCoord(const void* a, const void* b) {
  const auto& x = As<pmix_coord_t>(a);
  const auto& y = As<pmix_coord_t>(b);
  if (x.view != y.view) return PMIX_VALUE_INCOMPATIBLE_OBJECTS;
  size_t common = x.dims < y.dims ? x.dims : y.dims;
  if (x.coord == nullptr || y.coord == nullptr) common = 0;  // malformed
  for (size_t i = 0; i < common; ++i) {
    pmix_value_cmp_t r = CompareNumbers(x.coord[i], y.coord[i]);
    if (r != PMIX_EQUAL) return r;
  }
  return CompareNumbers(x.dims, y.dims);
}

Status CopyGeometry(void* dst, const void* src) {
  const auto& s = As<pmix_geometry_t>(src);
  auto& d = As<pmix_geometry_t>(dst);
  d.fabric = s.fabric;
  PMIX_RETURN_IF_ERROR(Dup(s.uuid, &d.uuid));
  PMIX_RETURN_IF_ERROR(Dup(s.osname, &d.osname));
  void* coords = nullptr;
  PMIX_RETURN_IF_ERROR(
      CopyArray(PMIX_COORD, s.coordinates, s.ncoords, &coords));
  d.coordinates = static_cast<pmix_coord_t*>(coords);
  d.ncoords = s.ncoords;
  return Status();
}

void ReleaseGeometry(void* element) {
  auto& g = As<pmix_geometry_t>(element);
  std::free(g.uuid);
  std::free(g.osname);
  FreeArray(PMIX_COORD, g.coordinates, g.ncoords);
}

pmix_value_cmp_t CompareGeometry(const void* a, const void* b) {
  const auto& x = As<pmix_geometry_t>(a);
  const auto& y = As<pmix_geometry_t>(b);
  if (x.fabric != y.fabric) return PMIX_VALUE_INCOMPATIBLE_OBJECTS;
  pmix_value_cmp_t r = FirstDifference({CompareStrings(x.uuid, y.uuid),
                                        CompareStrings(x.osname, y.osname),
                                        CompareNumbers(x.ncoords, y.ncoords)});
  for (size_t i = 0; r == PMIX_EQUAL && i < x.ncoords; ++i) {
    if (x.coordinates == nullptr || y.coordinates == nullptr) break;
    r = CompareCoord(&x.coordinates[i], &y.coordinates[i]);
  }
  return r;
}

// --- device distance and endpoint ---

void ConstructDeviceDistance(void* element) {
  auto& d = As<pmix_device_distance_t>(element);
  std::memset(&d, 0, sizeof d);
  d.mindist = UINT16_MAX;
  d.maxdist = UINT16_MAX;
}

Status CopyDeviceDistance(void* dst, const void* src) {
  const auto& s = As<pmix_device_distance_t>(src);
  auto& d = As<pmix_device_distance_t>(dst);
  d.type = s.type;
  d.mindist = s.mindist;
  d.maxdist = s.maxdist;
  PMIX_RETURN_IF_ERROR(Dup(s.uuid, &d.uuid));
  return Dup(s.osname, &d.osname);
}

void ReleaseDeviceDistance(void* element) {
  auto& d = As<pmix_device_distance_t>(element);
  std::free(d.uuid);
  std::free(d.osname);
}

pmix_value_cmp_t CompareDeviceDistance(const void* a, const void* b) {
  const auto& x = As<pmix_device_distance_t>(a);
  const auto& y = As<pmix_device_distance_t>(b);
  if (x.type != y.type) return PMIX_VALUE_INCOMPATIBLE_OBJECTS;
  return FirstDifference({CompareStrings(x.uuid, y.uuid),
                          CompareStrings(x.osname, y.osname),
                          CompareNumbers(x.mindist, y.mindist),
                          CompareNumbers(x.maxdist, y.maxdist)});
}

Status CopyEndpoint(void* dst, const void* src) {
  const auto& s = As<pmix_endpoint_t>(src);
  auto& d = As<pmix_endpoint_t>(dst);
  PMIX_RETURN_IF_ERROR(Dup(s.uuid, &d.uuid));
  PMIX_RETURN_IF_ERROR(Dup(s.osname, &d.osname));
  return DupBytes(s.endpt, &d.endpt);
}

void ReleaseEndpoint(void* element) {
  auto& e = As<pmix_endpoint_t>(element);
  std::free(e.uuid);
  std::free(e.osname);
  std::free(e.endpt.bytes);
}

pmix_value_cmp_t CompareEndpoint(const void* a, const void* b) {
  const auto& x = As<pmix_endpoint_t>(a);
  const auto& y = As<pmix_endpoint_t>(b);
  return FirstDifference({CompareStrings(x.uuid, y.uuid),
                          CompareStrings(x.osname, y.osname),
                          CompareByteObject(&x.endpt, &y.endpt)});
}

// --- attribute registration ---

Status CopyRegattr(void* dst, const void* src) {
  const auto& s = As<pmix_regattr_t>(src);
  auto& d = As<pmix_regattr_t>(dst);
  CopyBounded(d.string, s.string, PMIX_MAX_KEYLEN);
  d.type = s.type;
  PMIX_RETURN_IF_ERROR(Dup(s.name, &d.name));
  return DupArgv(s.description, &d.description) ? Status()
                                                : Status(PMIX_ERR_NOMEM);
}

void ReleaseRegattr(void* element) {
  auto& r = As<pmix_regattr_t>(element);
  std::free(r.name);
  FreeArgv(r.description);
}

pmix_value_cmp_t CompareRegattr(const void* a, const void* b) {
  const auto& x = As<pmix_regattr_t>(a);
  const auto& y = As<pmix_regattr_t>(b);
  return FirstDifference(
      {CompareStrings(x.name, y.name),
       CompareNumbers(std::strncmp(x.string, y.string, PMIX_MAX_KEYLEN), 0),
       CompareNumbers(x.type, y.type),
       CompareArgv(x.description, y.description)});
}

// --- data buffer ---

Status CopyDataBuffer(void* dst, const void* src) {
  const auto& s = As<pmix_data_buffer_t>(src);
  auto& d = As<pmix_data_buffer_t>(dst);
  if (s.base_ptr == nullptr) {
    return s.bytes_used == 0 ? Status() : Status(PMIX_ERR_BAD_PARAM);
  }
  size_t capacity =
      s.bytes_allocated > s.bytes_used ? s.bytes_allocated : s.bytes_used;
  auto offset = [&s](const char* p) -> size_t {
    return p == nullptr ? 0 : static_cast<size_t>(p - s.base_ptr);
  };
  size_t pack = offset(s.pack_ptr);
  size_t unpack = offset(s.unpack_ptr);
  if (pack > capacity || unpack > capacity) return PMIX_ERR_BAD_PARAM;
  if (capacity == 0) return Status();
  d.base_ptr = static_cast<char*>(std::malloc(capacity));
  if (d.base_ptr == nullptr) return PMIX_ERR_NOMEM;
  std::memcpy(d.base_ptr, s.base_ptr, s.bytes_used);
  d.pack_ptr = d.base_ptr + pack;
  d.unpack_ptr = d.base_ptr + unpack;
  d.bytes_allocated = capacity;
  d.bytes_used = s.bytes_used;
  return Status();
}

void ReleaseDataBuffer(void* element) {
  std::free(As<pmix_data_buffer_t>(element).base_ptr);
}

Status Dup(const char* src, char** out) {
  return DupString(src, out) ? Status() : Status(PMIX_ERR_NOMEM);
}

}  // namespace pmix::type_ops
