// Support functions for the leaf structs of the standard (those that do
// not nest infos): coordinates, topology, cpuset, geometry, device
// distance, byte object, endpoint, envar, data buffer, proc, proc info and
// OpenPMIx's statistics structs. Contracts: struct_helpers.h.
#include <cstdlib>
#include <cstring>

#include "pmix.h"
#include "src/common/data_types.h"
#include "src/common/struct_helpers.h"

using pmix::ConstructStruct;
using pmix::CreateStructs;
using pmix::DestructStruct;
using pmix::FreeStructs;

extern "C" {

// --- coordinates: each of `number` coords gets `dims` zeroed entries ---
void PMIx_Coord_construct(pmix_coord_t* m) { ConstructStruct<PMIX_COORD>(m); }
void PMIx_Coord_destruct(pmix_coord_t* m) { DestructStruct<PMIX_COORD>(m); }
pmix_coord_t* PMIx_Coord_create(size_t dims, size_t number) {
  pmix_coord_t* coords = CreateStructs<PMIX_COORD, pmix_coord_t>(number);
  if (coords == nullptr || dims == 0) return coords;
  for (size_t i = 0; i < number; ++i) {
    coords[i].coord =
        static_cast<uint32_t*>(std::calloc(dims, sizeof(uint32_t)));
    if (coords[i].coord == nullptr) {
      FreeStructs<PMIX_COORD>(coords, i);
      return nullptr;
    }
    coords[i].dims = dims;
  }
  return coords;
}
void PMIx_Coord_free(pmix_coord_t* m, size_t number) {
  FreeStructs<PMIX_COORD>(m, number);
}

// --- topology and cpuset (hwloc objects are released with hwloc) ---
void PMIx_Topology_construct(pmix_topology_t* t) {
  ConstructStruct<PMIX_TOPO>(t);
}
void PMIx_Topology_destruct(pmix_topology_t* topo) {
  DestructStruct<PMIX_TOPO>(topo);
}
pmix_topology_t* PMIx_Topology_create(size_t n) {
  return CreateStructs<PMIX_TOPO, pmix_topology_t>(n);
}
void PMIx_Topology_free(pmix_topology_t* t, size_t n) {
  FreeStructs<PMIX_TOPO>(t, n);
}

void PMIx_Cpuset_construct(pmix_cpuset_t* c) {
  ConstructStruct<PMIX_PROC_CPUSET>(c);
}
void PMIx_Cpuset_destruct(pmix_cpuset_t* c) {
  DestructStruct<PMIX_PROC_CPUSET>(c);
}
pmix_cpuset_t* PMIx_Cpuset_create(size_t n) {
  return CreateStructs<PMIX_PROC_CPUSET, pmix_cpuset_t>(n);
}
void PMIx_Cpuset_free(pmix_cpuset_t* c, size_t n) {
  FreeStructs<PMIX_PROC_CPUSET>(c, n);
}

// --- geometry, device distance, endpoint ---
void PMIx_Geometry_construct(pmix_geometry_t* g) {
  ConstructStruct<PMIX_GEOMETRY>(g);
}
void PMIx_Geometry_destruct(pmix_geometry_t* g) {
  DestructStruct<PMIX_GEOMETRY>(g);
}
pmix_geometry_t* PMIx_Geometry_create(size_t n) {
  return CreateStructs<PMIX_GEOMETRY, pmix_geometry_t>(n);
}
void PMIx_Geometry_free(pmix_geometry_t* g, size_t n) {
  FreeStructs<PMIX_GEOMETRY>(g, n);
}

void PMIx_Device_distance_construct(pmix_device_distance_t* d) {
  ConstructStruct<PMIX_DEVICE_DIST>(d);
}
void PMIx_Device_distance_destruct(pmix_device_distance_t* d) {
  DestructStruct<PMIX_DEVICE_DIST>(d);
}
pmix_device_distance_t* PMIx_Device_distance_create(size_t n) {
  return CreateStructs<PMIX_DEVICE_DIST, pmix_device_distance_t>(n);
}
void PMIx_Device_distance_free(pmix_device_distance_t* d, size_t n) {
  FreeStructs<PMIX_DEVICE_DIST>(d, n);
}

void PMIx_Endpoint_construct(pmix_endpoint_t* e) {
  ConstructStruct<PMIX_ENDPOINT>(e);
}
void PMIx_Endpoint_destruct(pmix_endpoint_t* e) {
  DestructStruct<PMIX_ENDPOINT>(e);
}
pmix_endpoint_t* PMIx_Endpoint_create(size_t n) {
  return CreateStructs<PMIX_ENDPOINT, pmix_endpoint_t>(n);
}
void PMIx_Endpoint_free(pmix_endpoint_t* e, size_t n) {
  FreeStructs<PMIX_ENDPOINT>(e, n);
}

// --- byte object ---
void PMIx_Byte_object_construct(pmix_byte_object_t* b) {
  ConstructStruct<PMIX_BYTE_OBJECT>(b);
}
void PMIx_Byte_object_destruct(pmix_byte_object_t* g) {
  DestructStruct<PMIX_BYTE_OBJECT>(g);
}
pmix_byte_object_t* PMIx_Byte_object_create(size_t n) {
  return CreateStructs<PMIX_BYTE_OBJECT, pmix_byte_object_t>(n);
}
void PMIx_Byte_object_free(pmix_byte_object_t* g, size_t n) {
  FreeStructs<PMIX_BYTE_OBJECT>(g, n);
}
// Takes ownership of `d` (no copy); any previous payload is not released.
void PMIx_Byte_object_load(pmix_byte_object_t* b, char* d, size_t sz) {
  if (b == nullptr) return;
  b->bytes = d;
  b->size = d == nullptr ? 0 : sz;
}

// --- envar ---
void PMIx_Envar_construct(pmix_envar_t* e) { ConstructStruct<PMIX_ENVAR>(e); }
void PMIx_Envar_destruct(pmix_envar_t* e) { DestructStruct<PMIX_ENVAR>(e); }
pmix_envar_t* PMIx_Envar_create(size_t n) {
  return CreateStructs<PMIX_ENVAR, pmix_envar_t>(n);
}
void PMIx_Envar_free(pmix_envar_t* e, size_t n) {
  FreeStructs<PMIX_ENVAR>(e, n);
}
// Copies `var` and `value` (either may be NULL); on allocation failure the
// envar is left constructed.
void PMIx_Envar_load(pmix_envar_t* e, char* var, char* value, char separator) {
  if (e == nullptr) return;
  pmix_envar_t loaded{var, value, separator};
  if (!pmix::CopyElement(*pmix::FindDataType(PMIX_ENVAR), e, &loaded).ok()) {
    PMIx_Envar_construct(e);
  }
}

// --- proc and proc info ---
void PMIx_Proc_construct(pmix_proc_t* p) { ConstructStruct<PMIX_PROC>(p); }
void PMIx_Proc_destruct(pmix_proc_t* p) { DestructStruct<PMIX_PROC>(p); }
pmix_proc_t* PMIx_Proc_create(size_t n) {
  return CreateStructs<PMIX_PROC, pmix_proc_t>(n);
}
void PMIx_Proc_free(pmix_proc_t* p, size_t n) { FreeStructs<PMIX_PROC>(p, n); }
void PMIx_Proc_load(pmix_proc_t* p, char* nspace, pmix_rank_t rank) {
  if (p == nullptr) return;
  pmix::CopyBounded(p->nspace, nspace, PMIX_MAX_NSLEN);
  p->rank = rank;
}

void PMIx_Proc_info_construct(pmix_proc_info_t* p) {
  ConstructStruct<PMIX_PROC_INFO>(p);
}
void PMIx_Proc_info_destruct(pmix_proc_info_t* p) {
  DestructStruct<PMIX_PROC_INFO>(p);
}
pmix_proc_info_t* PMIx_Proc_info_create(size_t n) {
  return CreateStructs<PMIX_PROC_INFO, pmix_proc_info_t>(n);
}
void PMIx_Proc_info_free(pmix_proc_info_t* p, size_t n) {
  FreeStructs<PMIX_PROC_INFO>(p, n);
}

// --- statistics (OpenPMIx extras) ---
void PMIx_Proc_stats_construct(pmix_proc_stats_t* p) {
  ConstructStruct<PMIX_PROC_STATS>(p);
}
void PMIx_Proc_stats_destruct(pmix_proc_stats_t* p) {
  DestructStruct<PMIX_PROC_STATS>(p);
}
pmix_proc_stats_t* PMIx_Proc_stats_create(size_t n) {
  return CreateStructs<PMIX_PROC_STATS, pmix_proc_stats_t>(n);
}
void PMIx_Proc_stats_free(pmix_proc_stats_t* p, size_t n) {
  FreeStructs<PMIX_PROC_STATS>(p, n);
}

void PMIx_Disk_stats_construct(pmix_disk_stats_t* p) {
  ConstructStruct<PMIX_DISK_STATS>(p);
}
void PMIx_Disk_stats_destruct(pmix_disk_stats_t* p) {
  DestructStruct<PMIX_DISK_STATS>(p);
}
pmix_disk_stats_t* PMIx_Disk_stats_create(size_t n) {
  return CreateStructs<PMIX_DISK_STATS, pmix_disk_stats_t>(n);
}
void PMIx_Disk_stats_free(pmix_disk_stats_t* p, size_t n) {
  FreeStructs<PMIX_DISK_STATS>(p, n);
}

void PMIx_Net_stats_construct(pmix_net_stats_t* p) {
  ConstructStruct<PMIX_NET_STATS>(p);
}
void PMIx_Net_stats_destruct(pmix_net_stats_t* p) {
  DestructStruct<PMIX_NET_STATS>(p);
}
pmix_net_stats_t* PMIx_Net_stats_create(size_t n) {
  return CreateStructs<PMIX_NET_STATS, pmix_net_stats_t>(n);
}
void PMIx_Net_stats_free(pmix_net_stats_t* p, size_t n) {
  FreeStructs<PMIX_NET_STATS>(p, n);
}

void PMIx_Node_stats_construct(pmix_node_stats_t* p) {
  ConstructStruct<PMIX_NODE_STATS>(p);
}
void PMIx_Node_stats_destruct(pmix_node_stats_t* p) {
  DestructStruct<PMIX_NODE_STATS>(p);
}
pmix_node_stats_t* PMIx_Node_stats_create(size_t n) {
  return CreateStructs<PMIX_NODE_STATS, pmix_node_stats_t>(n);
}
void PMIx_Node_stats_free(pmix_node_stats_t* p, size_t n) {
  FreeStructs<PMIX_NODE_STATS>(p, n);
}

}  // extern "C"
