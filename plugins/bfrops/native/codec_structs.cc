// The flat structs of the standard: proc info, coordinates, geometry,
// endpoints, device distances, attribute registrations.
#include <cstdlib>
#include <cstring>

#include "plugins/bfrops/native/codec.h"

namespace pmix::bfrops::native {
namespace {

pmix_status_t PackProcInfo(Writer& w, const void* e) {
  const auto& v = As<pmix_proc_info_t>(e);
  NATIVE_TRY(PackProc(w, v.proc));
  NATIVE_TRY(w.Str(v.hostname));
  NATIVE_TRY(w.Str(v.executable_name));
  w.U32(static_cast<uint32_t>(v.pid));
  w.U32(static_cast<uint32_t>(v.exit_code));
  w.U8(v.state);
  return PMIX_SUCCESS;
}

pmix_status_t UnpackProcInfo(Reader& r, void* e) {
  auto& v = As<pmix_proc_info_t>(e);
  uint32_t pid = 0;
  uint32_t code = 0;
  NATIVE_TRY(UnpackProc(r, &v.proc));
  NATIVE_TRY(r.Str(&v.hostname));
  NATIVE_TRY(r.Str(&v.executable_name));
  NATIVE_TRY(r.U32(&pid));
  NATIVE_TRY(r.U32(&code));
  NATIVE_TRY(r.U8(&v.state));
  v.pid = static_cast<pid_t>(pid);
  v.exit_code = static_cast<int>(code);
  return PMIX_SUCCESS;
}

// coord: u8 view, u32 dims, dims x u32.
pmix_status_t PackCoord(Writer& w, const void* e) {
  const auto& v = As<pmix_coord_t>(e);
  if (v.coord == nullptr && v.dims > 0) return PMIX_ERR_BAD_PARAM;
  w.U8(v.view);
  NATIVE_TRY(w.Count(v.dims));
  for (size_t i = 0; i < v.dims; ++i) w.U32(v.coord[i]);
  return PMIX_SUCCESS;
}

pmix_status_t UnpackCoord(Reader& r, void* e) {
  auto& v = As<pmix_coord_t>(e);
  size_t dims = 0;
  NATIVE_TRY(r.U8(&v.view));
  NATIVE_TRY(r.Count(4, &dims));
  if (dims == 0) return PMIX_SUCCESS;
  NATIVE_TRY(r.ChargeArray(dims, sizeof(uint32_t)));
  auto* coord = static_cast<uint32_t*>(std::calloc(dims, sizeof(uint32_t)));
  if (coord == nullptr) return PMIX_ERR_NOMEM;
  for (size_t i = 0; i < dims; ++i) {
    if (pmix_status_t rc = r.U32(&coord[i]); rc != PMIX_SUCCESS) {
      std::free(coord);
      return rc;
    }
  }
  v.coord = coord;
  v.dims = dims;
  return PMIX_SUCCESS;
}

pmix_status_t PackGeometry(Writer& w, const void* e) {
  const auto& v = As<pmix_geometry_t>(e);
  w.U64(v.fabric);
  NATIVE_TRY(w.Str(v.uuid));
  NATIVE_TRY(w.Str(v.osname));
  return PackArrayField(w, PMIX_COORD, v.coordinates, v.ncoords);
}

pmix_status_t UnpackGeometry(Reader& r, void* e) {
  auto& v = As<pmix_geometry_t>(e);
  uint64_t fabric = 0;
  NATIVE_TRY(r.U64(&fabric));
  v.fabric = fabric;
  NATIVE_TRY(r.Str(&v.uuid));
  NATIVE_TRY(r.Str(&v.osname));
  void* coords = nullptr;
  NATIVE_TRY(UnpackArrayField(r, PMIX_COORD, &coords, &v.ncoords));
  v.coordinates = static_cast<pmix_coord_t*>(coords);
  return PMIX_SUCCESS;
}

pmix_status_t PackEndpoint(Writer& w, const void* e) {
  const auto& v = As<pmix_endpoint_t>(e);
  NATIVE_TRY(w.Str(v.uuid));
  NATIVE_TRY(w.Str(v.osname));
  return PackBytes(w, v.endpt);
}

pmix_status_t UnpackEndpoint(Reader& r, void* e) {
  auto& v = As<pmix_endpoint_t>(e);
  NATIVE_TRY(r.Str(&v.uuid));
  NATIVE_TRY(r.Str(&v.osname));
  return UnpackBytes(r, &v.endpt);
}

pmix_status_t PackDevDist(Writer& w, const void* e) {
  const auto& v = As<pmix_device_distance_t>(e);
  NATIVE_TRY(w.Str(v.uuid));
  NATIVE_TRY(w.Str(v.osname));
  w.U64(v.type);
  w.U16(v.mindist);
  w.U16(v.maxdist);
  return PMIX_SUCCESS;
}

pmix_status_t UnpackDevDist(Reader& r, void* e) {
  auto& v = As<pmix_device_distance_t>(e);
  NATIVE_TRY(r.Str(&v.uuid));
  NATIVE_TRY(r.Str(&v.osname));
  NATIVE_TRY(r.U64(&v.type));
  NATIVE_TRY(r.U16(&v.mindist));
  return r.U16(&v.maxdist);
}

pmix_status_t PackRegattr(Writer& w, const void* e) {
  const auto& v = As<pmix_regattr_t>(e);
  NATIVE_TRY(w.Str(v.name));
  NATIVE_TRY(w.Fixed(v.string, PMIX_MAX_KEYLEN));
  w.U16(v.type);
  return PackArgv(w, v.description);
}

pmix_status_t UnpackRegattr(Reader& r, void* e) {
  auto& v = As<pmix_regattr_t>(e);
  NATIVE_TRY(r.Str(&v.name));
  NATIVE_TRY(r.Fixed(v.string, PMIX_MAX_KEYLEN));
  NATIVE_TRY(r.U16(&v.type));
  return UnpackArgv(r, &v.description);
}

constexpr TypeCodec kRows[] = {
    {PMIX_PROC_INFO, sizeof(pmix_proc_info_t), 25, &PackProcInfo, &UnpackProcInfo},
    {PMIX_COORD, sizeof(pmix_coord_t), 5, &PackCoord, &UnpackCoord},
    {PMIX_GEOMETRY, sizeof(pmix_geometry_t), 20, &PackGeometry, &UnpackGeometry},
    {PMIX_ENDPOINT, sizeof(pmix_endpoint_t), 12, &PackEndpoint, &UnpackEndpoint},
    {PMIX_DEVICE_DIST, sizeof(pmix_device_distance_t), 20, &PackDevDist,
     &UnpackDevDist},
    {PMIX_REGATTR, sizeof(pmix_regattr_t), 14, &PackRegattr, &UnpackRegattr},
};

}  // namespace

const TypeCodec* StructCodecs(size_t* n) {
  *n = sizeof(kRows) / sizeof(kRows[0]);
  return kRows;
}

}  // namespace pmix::bfrops::native
