// The hwloc-backed API of standard §11.4 and §12.4: PMIx_Load_topology,
// PMIx_Get_cpuset, PMIx_Parse_cpuset_string, PMIx_Get_relative_locality,
// PMIx_Compute_distances(_nb), and the server's
// PMIx_server_generate_cpuset_string / _locality_string.
//
// Objects handed out: PMIx_Load_topology fills the caller's struct with
// the process topology (topology.h), which stays owned by the library --
// destructing the struct frees only the source string; cpusets get a new
// hwloc bitmap (freed by PMIx_Cpuset_destruct); strings and distance
// arrays are malloc'd for the caller.
#include <sched.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <dirent.h>

#include "pmix.h"
#include "pmix_server.h"
#include "src/client/client_state.h"
#include "src/common/api_guard.h"
#include "src/common/output.h"
#include "src/hwloc/cpuset_text.h"
#include "src/hwloc/distances.h"
#include "src/hwloc/locality.h"
#include "src/hwloc/topology.h"
#include "src/runtime/context.h"

namespace pmix::hwloc {
namespace {

char* Dup(const std::string& s) {
  char* out = strdup(s.c_str());
  if (out == nullptr) throw std::bad_alloc();
  return out;
}

// A job-level value of this client's own namespace, if it is in the data
// the server sent (PMIX_OPTIONAL: no round trip to the server).
std::optional<pmix_value_t*> JobValue(const char* key) {
  if (!client::ClientInitialized()) return std::nullopt;
  pmix_proc_t wildcard;
  PMIx_Load_procid(&wildcard, client::MyProc().nspace, PMIX_RANK_WILDCARD);
  pmix_info_t optional;
  bool yes = true;
  PMIx_Info_load(&optional, PMIX_OPTIONAL, &yes, PMIX_BOOL);
  pmix_value_t* v = nullptr;
  if (PMIx_Get(&wildcard, key, &optional, 1, &v) != PMIX_SUCCESS || v == nullptr) return std::nullopt;
  return v;
}

std::optional<std::string> JobString(const char* key) {
  auto v = JobValue(key);
  if (!v) return std::nullopt;
  std::optional<std::string> out;
  if ((*v)->type == PMIX_STRING && (*v)->data.string != nullptr) out = (*v)->data.string;
  PMIx_Value_free(*v, 1);
  return out;
}

std::optional<uint64_t> JobSize(const char* key) {
  auto v = JobValue(key);
  if (!v) return std::nullopt;
  std::optional<uint64_t> out;
  if ((*v)->type == PMIX_SIZE) out = (*v)->data.size;
  else if ((*v)->type == PMIX_UINT64) out = (*v)->data.uint64;
  PMIx_Value_free(*v, 1);
  return out;
}

// The copy our server shares, in the order Open MPI reads it too.
std::optional<hwloc_topology_t> AdoptShared() {
  auto file = JobString(PMIX_HWLOC_SHMEM_FILE);
  auto addr = JobSize(PMIX_HWLOC_SHMEM_ADDR);
  auto size = JobSize(PMIX_HWLOC_SHMEM_SIZE);
  if (file && addr && size) {
    auto t = FromShmem(*file, *addr, *size);
    if (t.ok()) return Install(std::move(*t), Origin::kShmem);
  }
  for (auto [key, origin] : {std::pair{PMIX_HWLOC_XML_V2, Origin::kXmlV2},
                             std::pair{PMIX_HWLOC_XML_V1, Origin::kXmlV1}}) {
    auto xml = JobString(key);
    if (!xml) continue;
    auto t = FromXml(*xml);
    if (t.ok()) return Install(std::move(*t), origin);
    output::Error("hwloc", "the topology the server shares as %s is not loadable", key);
  }
  return std::nullopt;
}

Result<hwloc_topology_t> LoadProcessTopology() {
  if (hwloc_topology_t t = Current()) return t;
  if (auto shared = AdoptShared()) return *shared;
  return CurrentOrDiscover();
}

// The CPUs this process (every thread) or this thread may run on.
Result<Bitmap> Binding(pmix_bind_envelope_t ref) {
  Bitmap out(hwloc_bitmap_alloc());
  if (!out) return Status(PMIX_ERR_NOMEM);
  auto add = [&out](pid_t tid) {
    cpu_set_t mask;
    CPU_ZERO(&mask);
    if (sched_getaffinity(tid, sizeof mask, &mask) != 0) return false;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (CPU_ISSET(cpu, &mask)) hwloc_bitmap_set(out.get(), static_cast<unsigned>(cpu));
    }
    return true;
  };
  if (ref == PMIX_CPUBIND_THREAD) {
    if (!add(0)) return Status(PMIX_ERR_NOT_FOUND);
    return out;
  }
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) {
    if (!add(0)) return Status(PMIX_ERR_NOT_FOUND);
    return out;
  }
  while (dirent* e = readdir(dir)) {
    if (e->d_name[0] != '.') add(static_cast<pid_t>(std::atoi(e->d_name)));  // a thread may exit meanwhile
  }
  closedir(dir);
  if (hwloc_bitmap_iszero(out.get())) return Status(PMIX_ERR_NOT_FOUND);
  return out;
}

DeviceFilter Filter(const pmix_info_t* info, size_t ninfo) {
  DeviceFilter f;
  for (size_t n = 0; info != nullptr && n < ninfo; ++n) {
    const pmix_info_t& i = info[n];
    if (PMIX_CHECK_KEY(&i, PMIX_DEVICE_TYPE)) {
      if (i.value.type == PMIX_DEVTYPE) f.types |= i.value.data.devtype;
      else if (i.value.type == PMIX_UINT64) f.types |= i.value.data.uint64;
    } else if (PMIX_CHECK_KEY(&i, PMIX_DEVICE_ID) && i.value.type == PMIX_STRING &&
               i.value.data.string != nullptr) {
      f.ids.emplace_back(i.value.data.string);
    }
  }
  return f;
}

std::string HostName() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return host;
}

struct DistOut {
  pmix_device_distance_t* array = nullptr;
  size_t n = 0;
};

Status Distances(pmix_topology_t* topo, pmix_cpuset_t* cpuset, const pmix_info_t* info,
                 size_t ninfo, DistOut* out) {
  if (info == nullptr && ninfo > 0) return PMIX_ERR_BAD_PARAM;
  hwloc_topology_t t = nullptr;
  if (topo != nullptr && topo->topology != nullptr) {
    if (!IsHwlocSource(topo->source)) return PMIX_ERR_NOT_SUPPORTED;
    t = static_cast<hwloc_topology_t>(topo->topology);
  } else {
    auto loaded = LoadProcessTopology();
    if (!loaded.ok()) return loaded.status();
    t = *loaded;
  }
  Bitmap own;
  hwloc_const_bitmap_t where = nullptr;
  if (cpuset != nullptr && cpuset->bitmap != nullptr) {
    if (!IsHwlocSource(cpuset->source)) return PMIX_ERR_NOT_SUPPORTED;
    where = static_cast<hwloc_const_bitmap_t>(cpuset->bitmap);
  } else {
    auto mine = Binding(PMIX_CPUBIND_PROCESS);
    if (!mine.ok()) return mine.status();
    own = std::move(*mine);
    where = own.get();
  }
  auto found = ComputeDistances(t, where, Filter(info, ninfo), HostName());
  if (!found.ok()) return found.status();
  if (found->empty()) return Status();
  pmix_device_distance_t* array = PMIx_Device_distance_create(found->size());
  if (array == nullptr) return PMIX_ERR_NOMEM;
  for (size_t i = 0; i < found->size(); ++i) {
    const DeviceDistance& d = (*found)[i];
    array[i].uuid = strdup(d.uuid.c_str());
    array[i].osname = strdup(d.osname.c_str());
    array[i].type = d.type;
    array[i].mindist = d.mindist;
    array[i].maxdist = d.maxdist;
    if (array[i].uuid == nullptr || array[i].osname == nullptr) {
      PMIx_Device_distance_free(array, found->size());
      return PMIX_ERR_NOMEM;
    }
  }
  out->array = array;
  out->n = found->size();
  return Status();
}

void ReleaseDistances(void* cbdata) {
  auto* d = static_cast<DistOut*>(cbdata);
  if (d->array != nullptr) PMIx_Device_distance_free(d->array, d->n);
  delete d;  // NOLINT: handed through the C release callback
}

}  // namespace
}  // namespace pmix::hwloc

namespace hw = pmix::hwloc;
using pmix::Status;

extern "C" pmix_status_t PMIx_Load_topology(pmix_topology_t* topo) {
  return pmix::ApiGuard("PMIx_Load_topology", [&]() -> Status {
    if (topo == nullptr) return PMIX_ERR_BAD_PARAM;
    if (topo->source != nullptr && !hw::IsHwlocSource(topo->source)) return PMIX_ERR_NOT_SUPPORTED;
    auto t = hw::LoadProcessTopology();
    if (!t.ok()) return t.status();
    if (topo->source == nullptr) topo->source = hw::Dup(hw::SourceString());
    topo->topology = *t;
    return Status();
  });
}

namespace pmix::hwloc {

Result<pmix_value_t*> ProcessTopologyValue() {
  pmix_topology_t loaded{};
  pmix_status_t rc = PMIx_Load_topology(&loaded);
  if (rc != PMIX_SUCCESS) return Status(rc);
  auto* topo = static_cast<pmix_topology_t*>(std::calloc(1, sizeof(pmix_topology_t)));
  pmix_value_t* v = PMIx_Value_create(1);
  if (topo == nullptr || v == nullptr) {
    std::free(topo);
    std::free(v);
    std::free(loaded.source);
    return Status(PMIX_ERR_NOMEM);
  }
  *topo = loaded;
  v->type = PMIX_TOPO;
  v->data.topo = topo;
  return v;
}

}  // namespace pmix::hwloc

extern "C" pmix_status_t PMIx_Get_cpuset(pmix_cpuset_t* cpuset, pmix_bind_envelope_t ref) {
  return pmix::ApiGuard("PMIx_Get_cpuset", [&]() -> Status {
    if (cpuset == nullptr || (ref != PMIX_CPUBIND_PROCESS && ref != PMIX_CPUBIND_THREAD))
      return PMIX_ERR_BAD_PARAM;
    if (cpuset->source != nullptr && !hw::IsHwlocSource(cpuset->source)) return PMIX_ERR_NOT_SUPPORTED;
    auto bits = hw::Binding(ref);
    if (!bits.ok()) return bits.status();
    if (cpuset->source == nullptr) cpuset->source = hw::Dup("hwloc");
    cpuset->bitmap = bits->release();
    return Status();
  });
}

extern "C" pmix_status_t PMIx_Parse_cpuset_string(const char* cpuset_string, pmix_cpuset_t* cpuset) {
  return pmix::ApiGuard("PMIx_Parse_cpuset_string", [&]() -> Status {
    if (cpuset_string == nullptr || cpuset == nullptr) return PMIX_ERR_BAD_PARAM;
    auto bits = hw::ParseCpusetString(cpuset_string);
    if (!bits.ok()) return bits.status();
    char* source = hw::Dup("hwloc");
    cpuset->source = source;
    cpuset->bitmap = bits->release();
    return Status();
  });
}

extern "C" pmix_status_t PMIx_server_generate_cpuset_string(const pmix_cpuset_t* cpuset,
                                                            char** cpuset_string) {
  return pmix::ApiGuard("PMIx_server_generate_cpuset_string", [&]() -> Status {
    if (cpuset_string == nullptr) return PMIX_ERR_BAD_PARAM;
    *cpuset_string = nullptr;
    if (cpuset == nullptr || cpuset->bitmap == nullptr || cpuset->source == nullptr)
      return PMIX_ERR_BAD_PARAM;
    if (!hw::IsHwlocSource(cpuset->source)) return PMIX_ERR_NOT_SUPPORTED;
    *cpuset_string = hw::Dup(hw::CpusetString(static_cast<hwloc_const_bitmap_t>(cpuset->bitmap)));
    return Status();
  });
}

extern "C" pmix_status_t PMIx_server_generate_locality_string(const pmix_cpuset_t* cpuset,
                                                              char** locality) {
  return pmix::ApiGuard("PMIx_server_generate_locality_string", [&]() -> Status {
    if (locality == nullptr) return PMIX_ERR_BAD_PARAM;
    *locality = nullptr;
    if (cpuset == nullptr || cpuset->source == nullptr) return PMIX_ERR_BAD_PARAM;
    if (!hw::IsHwlocSource(cpuset->source)) return PMIX_ERR_NOT_SUPPORTED;
    auto t = hw::LoadProcessTopology();
    if (!t.ok()) return t.status();
    auto text = hw::LocalityString(*t, static_cast<hwloc_const_bitmap_t>(cpuset->bitmap));
    if (text) *locality = hw::Dup(*text);  // unbound: success with NULL, as OpenPMIx
    return Status();
  });
}

extern "C" pmix_status_t PMIx_Get_relative_locality(const char* locality1, const char* locality2,
                                                    pmix_locality_t* locality) {
  return pmix::ApiGuard("PMIx_Get_relative_locality", [&]() -> Status {
    if (locality1 == nullptr || locality2 == nullptr || locality == nullptr)
      return PMIX_ERR_BAD_PARAM;
    auto rel = hw::RelativeLocality(locality1, locality2);
    if (!rel.ok()) return rel.status();
    *locality = *rel;
    return Status();
  });
}

extern "C" pmix_status_t PMIx_Compute_distances(pmix_topology_t* topo, pmix_cpuset_t* cpuset,
                                                pmix_info_t info[], size_t ninfo,
                                                pmix_device_distance_t* distances[], size_t* ndist) {
  return pmix::ApiGuard("PMIx_Compute_distances", [&]() -> Status {
    if (distances == nullptr || ndist == nullptr) return PMIX_ERR_BAD_PARAM;
    *distances = nullptr;
    *ndist = 0;
    hw::DistOut out;
    PMIX_RETURN_IF_ERROR(hw::Distances(topo, cpuset, info, ninfo, &out));
    *distances = out.array;
    *ndist = out.n;
    return Status();
  });
}

extern "C" pmix_status_t PMIx_Compute_distances_nb(pmix_topology_t* topo, pmix_cpuset_t* cpuset,
                                                   pmix_info_t info[], size_t ninfo,
                                                   pmix_device_dist_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_Compute_distances_nb", [&]() -> Status {
    if (cbfunc == nullptr) return PMIX_ERR_BAD_PARAM;
    auto out = std::make_unique<hw::DistOut>();
    Status status = hw::Distances(topo, cpuset, info, ninfo, out.get());
    if (!status.ok()) return status;
    // The answer is computed on the caller's thread (it needs nothing from
    // a peer); the callback follows on the progress thread after we return.
    hw::DistOut* held = out.release();
    auto deliver = [cbfunc, cbdata, held] {
      cbfunc(PMIX_SUCCESS, held->array, held->n, cbdata, &hw::ReleaseDistances, held);
    };
    pmix::runtime::ProgressEngine* engine = pmix::runtime::Engine();
    if (engine == nullptr || !engine->Post(deliver).ok()) deliver();
    return Status();
  });
}
