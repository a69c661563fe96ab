// Element operations of the data-type registry (data_types.h), one group
// per C struct of the standard. Only data_types.cc's table and the tests use
// these directly; everyone else goes through the registry.
//
// Conventions (see DataTypeOps): Construct* fills defaults into raw
// storage; Copy* deep-copies into zero-filled storage and may leave a
// partial copy on failure (the registry releases it); Release* frees what
// the element owns without resetting it; Compare* orders two elements.
#ifndef PMIXX_SRC_COMMON_TYPE_OPS_H
#define PMIXX_SRC_COMMON_TYPE_OPS_H

#include "pmix_common.h"
#include "src/common/status.h"

namespace pmix::type_ops {

// The element behind an untyped registry pointer, as its C type.
template <class T>
const T& As(const void* p) {
  return *static_cast<const T*>(p);
}
template <class T>
T& As(void* p) {
  return *static_cast<T*>(p);
}

// strdup of a possibly NULL string (NULL stays NULL) as a Status.
Status Dup(const char* src, char** out);

// Scalars: compare as the C type T, i.e. numerically. (OpenPMIx 4.2.2
// compares the bytes with memcmp, so there -1 > 1 and 256 < 1 on x86-64;
// EQUAL results agree.)
template <class T>
pmix_value_cmp_t CompareScalar(const void* a, const void* b);

// type_ops_basic.cc: strings, byte objects, envars, procs, small structs.
pmix_value_cmp_t CompareTimeval(const void* a, const void* b);

Status CopyString(void* dst, const void* src);
void ReleaseString(void* element);
pmix_value_cmp_t CompareString(const void* a, const void* b);

Status CopyByteObject(void* dst, const void* src);
void ReleaseByteObject(void* element);
pmix_value_cmp_t CompareByteObject(const void* a, const void* b);

Status CopyNspace(void* dst, const void* src);
pmix_value_cmp_t CompareNspace(const void* a, const void* b);

void ConstructProc(void* element);
pmix_value_cmp_t CompareProc(const void* a, const void* b);

Status CopyEnvar(void* dst, const void* src);
void ReleaseEnvar(void* element);
pmix_value_cmp_t CompareEnvar(const void* a, const void* b);

void ConstructProcInfo(void* element);
Status CopyProcInfo(void* dst, const void* src);
void ReleaseProcInfo(void* element);
pmix_value_cmp_t CompareProcInfo(const void* a, const void* b);

Status CopyCoord(void* dst, const void* src);
void ReleaseCoord(void* element);
pmix_value_cmp_t CompareCoord(const void* a, const void* b);

Status CopyGeometry(void* dst, const void* src);
void ReleaseGeometry(void* element);
pmix_value_cmp_t CompareGeometry(const void* a, const void* b);

void ConstructDeviceDistance(void* element);
Status CopyDeviceDistance(void* dst, const void* src);
void ReleaseDeviceDistance(void* element);
pmix_value_cmp_t CompareDeviceDistance(const void* a, const void* b);

Status CopyEndpoint(void* dst, const void* src);
void ReleaseEndpoint(void* element);
pmix_value_cmp_t CompareEndpoint(const void* a, const void* b);

Status CopyRegattr(void* dst, const void* src);
void ReleaseRegattr(void* element);
pmix_value_cmp_t CompareRegattr(const void* a, const void* b);

Status CopyDataBuffer(void* dst, const void* src);
void ReleaseDataBuffer(void* element);

// type_ops_compound.cc: structs that nest values, infos or arrays.
void ConstructValue(void* element);
Status CopyValueElement(void* dst, const void* src);
void ReleaseValueElement(void* element);
pmix_value_cmp_t CompareValueElement(const void* a, const void* b);

void ConstructInfo(void* element);
Status CopyInfo(void* dst, const void* src);
void ReleaseInfo(void* element);
pmix_value_cmp_t CompareInfo(const void* a, const void* b);

void ConstructPdata(void* element);
Status CopyPdata(void* dst, const void* src);
void ReleasePdata(void* element);
pmix_value_cmp_t ComparePdata(const void* a, const void* b);

Status CopyApp(void* dst, const void* src);
void ReleaseApp(void* element);

Status CopyQuery(void* dst, const void* src);
void ReleaseQuery(void* element);

Status CopyDataArrayElement(void* dst, const void* src);
void ReleaseDataArrayElement(void* element);
pmix_value_cmp_t CompareDataArray(const void* a, const void* b);

// type_ops_stats.cc: the OpenPMIx statistics structs.
void ConstructProcStats(void* element);
Status CopyProcStats(void* dst, const void* src);
void ReleaseProcStats(void* element);
pmix_value_cmp_t CompareProcStats(const void* a, const void* b);
Status CopyDiskStats(void* dst, const void* src);
void ReleaseDiskStats(void* element);
pmix_value_cmp_t CompareDiskStats(const void* a, const void* b);
Status CopyNetStats(void* dst, const void* src);
void ReleaseNetStats(void* element);
pmix_value_cmp_t CompareNetStats(const void* a, const void* b);
Status CopyNodeStats(void* dst, const void* src);
void ReleaseNodeStats(void* element);
pmix_value_cmp_t CompareNodeStats(const void* a, const void* b);

// type_ops_hwloc.cc: pmix_cpuset_t and pmix_topology_t.
Status CopyCpuset(void* dst, const void* src);
void ReleaseCpuset(void* element);
pmix_value_cmp_t CompareCpuset(const void* a, const void* b);
Status CopyTopology(void* dst, const void* src);
void ReleaseTopology(void* element);
// The process's node topology (src/hwloc/topology.h), which values may
// point to (PMIx_Load_topology hands it out) but which is never destroyed
// through them: releasing such a value leaves it alone. nullptr: none.
void SetProcessTopology(const void* topology);
pmix_value_cmp_t CompareTopology(const void* a, const void* b);

// --- template definition ---
template <class T>
pmix_value_cmp_t CompareScalar(const void* a, const void* b) {
  T x;
  T y;
  __builtin_memcpy(&x, a, sizeof x);
  __builtin_memcpy(&y, b, sizeof y);
  if (x == y) return PMIX_EQUAL;
  return x > y ? PMIX_VALUE1_GREATER : PMIX_VALUE2_GREATER;
}

}  // namespace pmix::type_ops

#endif  // PMIXX_SRC_COMMON_TYPE_OPS_H
