#include "test/unit/bfrops/random_values.h"

#include <hwloc.h>
#include <sys/time.h>

#include <cstdlib>
#include <cstring>

#include "pmix.h"
#include "src/common/data_types.h"

extern "C" pmix_mca_component_t pmix_mca_bfrops_native_component;

namespace pmix::test {
namespace {

uint64_t Below(Rng& rng, uint64_t n) { return n == 0 ? 0 : rng() % n; }

// NULL (1 in 8), "" (1 in 8) or up to 12 printable chars.
char* RandomString(Rng& rng, bool allow_null = true) {
  uint64_t pick = Below(rng, 8);
  if (pick == 0 && allow_null) return nullptr;
  size_t n = pick == 1 ? 0 : Below(rng, 13);
  char* s = static_cast<char*>(std::malloc(n + 1));
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>('!' + Below(rng, 90));
  s[n] = '\0';
  return s;
}

void RandomFixed(Rng& rng, char* dst, size_t max) {
  size_t n = Below(rng, max < 40 ? max + 1 : 40);
  for (size_t i = 0; i < n; ++i) dst[i] = static_cast<char>('a' + Below(rng, 26));
  std::memset(dst + n, 0, max + 1 - n);
}

pmix_byte_object_t RandomBytes(Rng& rng) {
  size_t n = Below(rng, 20);
  if (n == 0) return {nullptr, 0};
  char* b = static_cast<char*>(std::malloc(n));
  for (size_t i = 0; i < n; ++i) b[i] = static_cast<char>(rng());
  return {b, n};
}

char** RandomArgv(Rng& rng) {
  if (Below(rng, 5) == 0) return nullptr;
  size_t n = Below(rng, 4);
  auto** argv = static_cast<char**>(std::calloc(n + 1, sizeof(char*)));
  for (size_t i = 0; i < n; ++i) argv[i] = RandomString(rng, false);
  return argv;
}

void RandomProc(Rng& rng, pmix_proc_t* p) {
  RandomFixed(rng, p->nspace, PMIX_MAX_NSLEN);
  p->rank = Below(rng, 4) == 0 ? PMIX_RANK_WILDCARD : static_cast<pmix_rank_t>(rng());
}

template <class T>
void RandomArrayField(Rng& rng, pmix_data_type_t type, T** array, size_t* n, int depth,
                      size_t max = 3) {
  *n = depth <= 0 ? 0 : Below(rng, max + 1);
  *array = static_cast<T*>(MakeRandomArray(rng, type, *n, depth - 1));
  if (*array == nullptr) *n = 0;
}

// Scalars: random bits, except types whose bits must be canonical.
bool FillScalar(Rng& rng, pmix_data_type_t type, void* e, size_t size) {
  switch (type) {
    case PMIX_BOOL: *static_cast<bool*>(e) = Below(rng, 2) == 1; return true;
    case PMIX_FLOAT: *static_cast<float*>(e) = static_cast<float>(static_cast<int32_t>(rng())) / 7; return true;
    case PMIX_DOUBLE: *static_cast<double*>(e) = static_cast<double>(static_cast<int64_t>(rng())) / 3; return true;
    case PMIX_TIMEVAL: {
      auto* tv = static_cast<struct timeval*>(e);
      tv->tv_sec = static_cast<time_t>(rng() >> 2);
      tv->tv_usec = static_cast<suseconds_t>(Below(rng, 1000000));
      return true;
    }
    default:
      break;
  }
  const DataTypeOps* ops = FindDataType(type);
  if (ops == nullptr || ops->storage != ValueStorage::kInline || ops->copy != nullptr) return false;
  for (size_t i = 0; i < size; ++i) static_cast<uint8_t*>(e)[i] = static_cast<uint8_t>(rng());
  return true;
}

// A value of a random storable type (nested containers while depth > 0).
void RandomValue(Rng& rng, pmix_value_t* v, int depth) {
  static const pmix_data_type_t kLeaf[] = {
      PMIX_UNDEF, PMIX_BOOL, PMIX_STRING, PMIX_INT32, PMIX_UINT64, PMIX_DOUBLE,
      PMIX_PROC, PMIX_BYTE_OBJECT, PMIX_ENVAR, PMIX_PROC_NSPACE, PMIX_TIMEVAL,
      PMIX_COORD, PMIX_ENDPOINT, PMIX_PROC_CPUSET, PMIX_REGEX, PMIX_STATUS};
  size_t leaves = sizeof(kLeaf) / sizeof(kLeaf[0]);
  size_t pick = Below(rng, leaves + (depth > 0 ? 3 : 0));
  pmix_data_type_t type = pick < leaves ? kLeaf[pick] : PMIX_DATA_ARRAY;
  const DataTypeOps* ops = FindDataType(type);
  v->type = type;
  std::memset(&v->data, 0, sizeof v->data);
  if (type == PMIX_UNDEF) return;
  if (type == PMIX_REGEX) {  // a value holds a regex as a byte object
    v->data.bo = RandomBytes(rng);
    return;
  }
  if (ops->storage == ValueStorage::kBoxed) {
    if (Below(rng, 10) == 0) return;  // a NULL pointer payload
    v->data.ptr = CreateArray(type, 1);
    FillRandom(rng, type, v->data.ptr, depth - 1);
  } else {
    FillRandom(rng, type, &v->data, depth - 1);
  }
}

void FillHwloc(Rng& rng, pmix_data_type_t type, void* e) {
  if (type == PMIX_TOPO) {
    static_cast<pmix_topology_t*>(e)->source = Below(rng, 3) == 0 ? nullptr : strdup("hwloc");
    return;
  }
  auto* c = static_cast<pmix_cpuset_t*>(e);
  c->source = strdup("hwloc");
  if (Below(rng, 4) == 0) return;
  hwloc_bitmap_t b = hwloc_bitmap_alloc();
  for (int i = 0; i < 6; ++i) hwloc_bitmap_set(b, static_cast<unsigned>(Below(rng, 300)));
  c->bitmap = b;
}

}  // namespace

const std::vector<pmix_data_type_t>& PackableTypes() {
  static const std::vector<pmix_data_type_t> types = [] {
    std::vector<pmix_data_type_t> v;
    for (pmix_data_type_t t = 1; t < 256; ++t) {
      if (t != PMIX_KVAL && t != PMIX_POINTER && ElementSize(t) > 0) v.push_back(t);
    }
    return v;
  }();
  return types;
}

void* MakeRandomArray(Rng& rng, pmix_data_type_t type, size_t n, int depth) {
  void* array = CreateArray(type, n);
  for (size_t i = 0; array != nullptr && i < n; ++i) {
    FillRandom(rng, type, static_cast<char*>(array) + i * ElementSize(type), depth);
  }
  return array;
}

void FreeRandom(pmix_data_type_t type, void* array, size_t n) { FreeArray(type, array, n); }

const pmix_bfrops_module_t* NativeModule() {
  static const pmix_bfrops_module_t* module = [] {
    const pmix_mca_component_t& c = pmix_mca_bfrops_native_component;
    void* context = nullptr;
    const void* m = nullptr;
    int priority = 0;
    if (c.open(nullptr, nullptr, &context) != PMIX_SUCCESS) return static_cast<const pmix_bfrops_module_t*>(nullptr);
    if (c.query(context, &m, &priority) != PMIX_SUCCESS) return static_cast<const pmix_bfrops_module_t*>(nullptr);
    return static_cast<const pmix_bfrops_module_t*>(m);
  }();
  return module;
}

}  // namespace pmix::test

namespace pmix::test {
namespace {

void FillStats(Rng& rng, pmix_data_type_t type, void* e, int depth) {
  switch (type) {
    case PMIX_PROC_STATS: {
      auto* s = static_cast<pmix_proc_stats_t*>(e);
      s->node = RandomString(rng);
      RandomProc(rng, &s->proc);
      s->pid = static_cast<pid_t>(rng());
      s->cmd = RandomString(rng);
      s->state = static_cast<char>(rng());
      FillScalar(rng, PMIX_TIMEVAL, &s->time, sizeof s->time);
      s->percent_cpu = static_cast<float>(Below(rng, 1000)) / 8;
      s->priority = static_cast<int32_t>(rng());
      s->num_threads = static_cast<uint16_t>(rng());
      s->rss = static_cast<float>(Below(rng, 1 << 20));
      s->processor = static_cast<uint16_t>(rng());
      FillScalar(rng, PMIX_TIMEVAL, &s->sample_time, sizeof s->sample_time);
      return;
    }
    case PMIX_DISK_STATS: {
      auto* s = static_cast<pmix_disk_stats_t*>(e);
      s->disk = RandomString(rng);
      s->num_reads_completed = rng();
      s->weighted_milliseconds_io = rng();
      return;
    }
    case PMIX_NET_STATS: {
      auto* s = static_cast<pmix_net_stats_t*>(e);
      s->net_interface = RandomString(rng);
      s->num_bytes_recvd = rng();
      s->num_send_errs = rng();
      return;
    }
    default: {
      auto* s = static_cast<pmix_node_stats_t*>(e);
      s->node = RandomString(rng);
      s->la = static_cast<float>(Below(rng, 100)) / 4;
      s->mapped = static_cast<float>(Below(rng, 100000));
      FillScalar(rng, PMIX_TIMEVAL, &s->sample_time, sizeof s->sample_time);
      RandomArrayField(rng, PMIX_DISK_STATS, &s->diskstats, &s->ndiskstats, depth);
      RandomArrayField(rng, PMIX_NET_STATS, &s->netstats, &s->nnetstats, depth);
      return;
    }
  }
}

void FillContainer(Rng& rng, pmix_data_type_t type, void* e, int depth) {
  switch (type) {
    case PMIX_VALUE: RandomValue(rng, static_cast<pmix_value_t*>(e), depth); return;
    case PMIX_INFO: {
      auto* i = static_cast<pmix_info_t*>(e);
      RandomFixed(rng, i->key, PMIX_MAX_KEYLEN);
      i->flags = static_cast<pmix_info_directives_t>(rng()) & ~PMIX_INFO_PERSISTENT;
      RandomValue(rng, &i->value, depth);
      return;
    }
    case PMIX_PDATA: {
      auto* p = static_cast<pmix_pdata_t*>(e);
      RandomProc(rng, &p->proc);
      RandomFixed(rng, p->key, PMIX_MAX_KEYLEN);
      RandomValue(rng, &p->value, depth);
      return;
    }
    case PMIX_APP: {
      auto* a = static_cast<pmix_app_t*>(e);
      a->cmd = RandomString(rng);
      a->argv = RandomArgv(rng);
      a->env = RandomArgv(rng);
      a->cwd = RandomString(rng);
      a->maxprocs = static_cast<int>(rng());
      RandomArrayField(rng, PMIX_INFO, &a->info, &a->ninfo, depth);
      return;
    }
    case PMIX_QUERY: {
      auto* q = static_cast<pmix_query_t*>(e);
      q->keys = RandomArgv(rng);
      RandomArrayField(rng, PMIX_INFO, &q->qualifiers, &q->nqual, depth);
      return;
    }
    case PMIX_DATA_ARRAY: {
      auto* d = static_cast<pmix_data_array_t*>(e);
      const auto& types = PackableTypes();
      d->type = types[Below(rng, types.size())];
      if (depth <= 0 && (d->type == PMIX_DATA_ARRAY || d->type == PMIX_VALUE ||
                         d->type == PMIX_INFO)) {
        d->type = PMIX_INT16;
      }
      d->size = Below(rng, 4);
      d->array = MakeRandomArray(rng, d->type, d->size, depth - 1);
      if (d->array == nullptr) d->size = 0;
      return;
    }
    default: {  // PMIX_DATA_BUFFER
      auto* b = static_cast<pmix_data_buffer_t*>(e);
      pmix_byte_object_t bo = RandomBytes(rng);
      PMIx_Data_buffer_load(b, bo.bytes, bo.size);
      if (b->bytes_used > 0) b->unpack_ptr += Below(rng, b->bytes_used + 1);
      return;
    }
  }
}

void FillFlat(Rng& rng, pmix_data_type_t type, void* e, int depth) {
  switch (type) {
    case PMIX_PROC_INFO: {
      auto* p = static_cast<pmix_proc_info_t*>(e);
      RandomProc(rng, &p->proc);
      p->hostname = RandomString(rng);
      p->executable_name = RandomString(rng);
      p->pid = static_cast<pid_t>(rng());
      p->exit_code = static_cast<int>(rng());
      p->state = static_cast<pmix_proc_state_t>(rng());
      return;
    }
    case PMIX_COORD: {
      auto* c = static_cast<pmix_coord_t*>(e);
      c->view = static_cast<pmix_coord_view_t>(Below(rng, 3));
      c->dims = Below(rng, 4);
      c->coord = c->dims == 0 ? nullptr
                              : static_cast<uint32_t*>(std::malloc(c->dims * sizeof(uint32_t)));
      for (size_t i = 0; i < c->dims; ++i) c->coord[i] = static_cast<uint32_t>(rng());
      return;
    }
    case PMIX_GEOMETRY: {
      auto* g = static_cast<pmix_geometry_t*>(e);
      g->fabric = rng();
      g->uuid = RandomString(rng);
      g->osname = RandomString(rng);
      RandomArrayField(rng, PMIX_COORD, &g->coordinates, &g->ncoords, depth + 1);
      return;
    }
    case PMIX_ENDPOINT: {
      auto* p = static_cast<pmix_endpoint_t*>(e);
      p->uuid = RandomString(rng);
      p->osname = RandomString(rng);
      p->endpt = RandomBytes(rng);
      return;
    }
    case PMIX_DEVICE_DIST: {
      auto* d = static_cast<pmix_device_distance_t*>(e);
      d->uuid = RandomString(rng);
      d->osname = RandomString(rng);
      d->type = rng();
      d->mindist = static_cast<uint16_t>(rng());
      d->maxdist = static_cast<uint16_t>(rng());
      return;
    }
    case PMIX_REGATTR: {
      auto* r = static_cast<pmix_regattr_t*>(e);
      r->name = RandomString(rng);
      RandomFixed(rng, r->string, PMIX_MAX_KEYLEN);
      r->type = static_cast<pmix_data_type_t>(rng());
      r->description = RandomArgv(rng);
      return;
    }
    case PMIX_ENVAR: {
      auto* v = static_cast<pmix_envar_t*>(e);
      v->envar = RandomString(rng);
      v->value = RandomString(rng);
      v->separator = static_cast<char>(rng());
      return;
    }
    default:
      break;
  }
}

}  // namespace

void FillRandom(Rng& rng, pmix_data_type_t type, void* e, int depth) {
  size_t size = ElementSize(type);
  if (FillScalar(rng, type, e, size)) return;
  switch (type) {
    case PMIX_STRING: *static_cast<char**>(e) = RandomString(rng); return;
    case PMIX_REGEX: *static_cast<char**>(e) = RandomString(rng); return;  // a char* element
    case PMIX_BYTE_OBJECT: case PMIX_COMPRESSED_STRING:
    case PMIX_COMPRESSED_BYTE_OBJECT:
      *static_cast<pmix_byte_object_t*>(e) = RandomBytes(rng);
      return;
    case PMIX_PROC: RandomProc(rng, static_cast<pmix_proc_t*>(e)); return;
    case PMIX_PROC_NSPACE: RandomFixed(rng, static_cast<char*>(e), PMIX_MAX_NSLEN); return;
    case PMIX_PROC_CPUSET: case PMIX_TOPO: FillHwloc(rng, type, e); return;
    case PMIX_PROC_STATS: case PMIX_DISK_STATS: case PMIX_NET_STATS: case PMIX_NODE_STATS:
      FillStats(rng, type, e, depth);
      return;
    case PMIX_VALUE: case PMIX_INFO: case PMIX_PDATA: case PMIX_APP: case PMIX_QUERY:
    case PMIX_DATA_ARRAY: case PMIX_DATA_BUFFER:
      FillContainer(rng, type, e, depth);
      return;
    default:
      FillFlat(rng, type, e, depth);
  }
}

}  // namespace pmix::test
