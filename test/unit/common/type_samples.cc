#include "test/unit/common/type_samples.h"

#include <hwloc.h>
#include <sys/time.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "src/common/data_types.h"

namespace pmix::test {
namespace {

char* Str(const char* s) { return s == nullptr ? nullptr : strdup(s); }

template <class T>
void Put(void* element, T value) {
  std::memcpy(element, &value, sizeof value);
}

// Scalars: a recognisable value, or the type's extreme.
template <class T>
void FillScalar(void* element, Variant v, T typical) {
  Put<T>(element, v == Variant::kTypical ? typical
                  : v == Variant::kEdge  ? std::numeric_limits<T>::max()
                                         : T{});
}

char** Argv(std::initializer_list<const char*> items) {
  auto** argv =
      static_cast<char**>(std::calloc(items.size() + 1, sizeof(char*)));
  size_t i = 0;
  for (const char* s : items) argv[i++] = Str(s);
  return argv;
}

pmix_byte_object_t Bytes(Variant v) {
  if (v == Variant::kTypical) {
    char* b = static_cast<char*>(std::malloc(4));
    std::memcpy(b, "\x00\x01\xfe\xff", 4);
    return {b, 4};
  }
  return {nullptr, 0};
}

// Strings per variant: text, "" and NULL.
char* Text(Variant v, const char* text) {
  return v == Variant::kTypical ? Str(text)
         : v == Variant::kEdge  ? Str("")
                                : nullptr;
}

void FillInfo(pmix_info_t* info, Variant v) {
  std::memset(info, 0, sizeof *info);
  if (v == Variant::kNulls) return;
  std::strcpy(info->key, v == Variant::kTypical ? "pmix.test.key" : "");
  info->flags = v == Variant::kTypical ? PMIX_INFO_REQD : 0;
  info->value.type = PMIX_STRING;
  info->value.data.string = Text(v, "info value");
}

void FillInfos(pmix_info_t** infos, size_t* n, size_t count, Variant v) {
  *infos = nullptr;
  *n = 0;
  if (v != Variant::kTypical) return;
  *infos = static_cast<pmix_info_t*>(std::calloc(count, sizeof(pmix_info_t)));
  for (size_t i = 0; i < count; ++i) FillInfo(&(*infos)[i], v);
  *n = count;
}

// The machine's own topology: hwloc's synthetic backend trips valgrind
// (an overlapping memcpy inside libhwloc), its Linux backend does not.
hwloc_topology_t SmallTopology() {
  hwloc_topology_t topo = nullptr;
  hwloc_topology_init(&topo);
  hwloc_topology_load(topo);
  return topo;
}

void FillCoord(pmix_coord_t* c, Variant v) {
  std::memset(c, 0, sizeof *c);
  if (v != Variant::kTypical) return;
  c->view = PMIX_COORD_LOGICAL_VIEW;
  c->dims = 3;
  c->coord = static_cast<uint32_t*>(std::calloc(3, sizeof(uint32_t)));
  for (uint32_t i = 0; i < 3; ++i) c->coord[i] = i + 10;
}

void FillStruct(pmix_data_type_t type, Variant v, void* e);

void FillValueElement(pmix_value_t* value, Variant v) {
  std::memset(value, 0, sizeof *value);
  if (v == Variant::kNulls) return;  // PMIX_UNDEF
  value->type = PMIX_STRING;
  value->data.string = Text(v, "value text");
}

void FillDataArray(pmix_data_array_t* d, Variant v) {
  std::memset(d, 0, sizeof *d);
  if (v == Variant::kNulls) return;
  if (v == Variant::kEdge) {
    d->type = PMIX_STRING;  // an empty array of a pointer type
    return;
  }
  d->type = PMIX_INT32;
  d->size = 3;
  auto* ints = static_cast<int32_t*>(std::calloc(3, sizeof(int32_t)));
  ints[0] = -1;
  ints[1] = 0;
  ints[2] = 1;
  d->array = ints;
}

void FillStats(pmix_data_type_t type, Variant v, void* e) {
  switch (type) {
    case PMIX_PROC_STATS: {
      auto* s = static_cast<pmix_proc_stats_t*>(e);
      s->node = Text(v, "node1");
      s->cmd = Text(v, "a.out");
      std::strcpy(s->proc.nspace, v == Variant::kTypical ? "ns" : "");
      s->proc.rank = v == Variant::kTypical ? 3 : PMIX_RANK_UNDEF;
      s->pid = 42;
      s->percent_cpu = 12.5f;
      s->sample_time.tv_sec = 100;
      break;
    }
    case PMIX_DISK_STATS: {
      auto* s = static_cast<pmix_disk_stats_t*>(e);
      s->disk = Text(v, "sda");
      s->num_reads_completed = 7;
      break;
    }
    case PMIX_NET_STATS: {
      auto* s = static_cast<pmix_net_stats_t*>(e);
      s->net_interface = Text(v, "eth0");
      s->num_bytes_sent = 99;
      break;
    }
    case PMIX_NODE_STATS: {
      auto* s = static_cast<pmix_node_stats_t*>(e);
      s->node = Text(v, "node1");
      s->la = 0.5f;
      if (v != Variant::kTypical) break;
      s->diskstats = static_cast<pmix_disk_stats_t*>(
          std::calloc(1, sizeof(pmix_disk_stats_t)));
      FillStats(PMIX_DISK_STATS, v, s->diskstats);
      s->ndiskstats = 1;
      s->netstats = static_cast<pmix_net_stats_t*>(
          std::calloc(2, sizeof(pmix_net_stats_t)));
      FillStats(PMIX_NET_STATS, v, &s->netstats[0]);
      FillStats(PMIX_NET_STATS, v, &s->netstats[1]);
      s->nnetstats = 2;
      break;
    }
    default:
      break;
  }
}

void FillStruct(pmix_data_type_t type, Variant v, void* e) {
  bool typical = v == Variant::kTypical;
  switch (type) {
    case PMIX_STRING:
      Put<char*>(e, Text(v, "hello"));
      break;
    case PMIX_BYTE_OBJECT:
    case PMIX_COMPRESSED_STRING:
    case PMIX_COMPRESSED_BYTE_OBJECT:
      Put(e, Bytes(v));
      break;
    case PMIX_REGEX:  // as an element, a regex is its text
      Put<char*>(e, Text(v, "node[2:1-4],login"));
      break;
    case PMIX_PROC: {
      auto* p = static_cast<pmix_proc_t*>(e);
      std::strcpy(p->nspace, typical ? "test-nspace" : "");
      p->rank = typical ? 7 : v == Variant::kEdge ? PMIX_RANK_WILDCARD : 0;
      break;
    }
    case PMIX_PROC_NSPACE:
      std::strcpy(static_cast<char*>(e), typical ? "test-nspace" : "");
      break;
    case PMIX_POINTER:
      Put<void*>(e, typical ? e : nullptr);
      break;
    case PMIX_VALUE:
      FillValueElement(static_cast<pmix_value_t*>(e), v);
      break;
    case PMIX_INFO:
      FillInfo(static_cast<pmix_info_t*>(e), v);
      break;
    case PMIX_PDATA: {
      auto* p = static_cast<pmix_pdata_t*>(e);
      std::strcpy(p->proc.nspace, typical ? "pub" : "");
      p->proc.rank = 1;
      std::strcpy(p->key, typical ? "pkey" : "");
      FillValueElement(&p->value, v);
      break;
    }
    case PMIX_APP: {
      auto* a = static_cast<pmix_app_t*>(e);
      a->cmd = Text(v, "/bin/true");
      a->argv = typical               ? Argv({"true", "-x"})
                : v == Variant::kEdge ? Argv({})
                                      : nullptr;
      a->env = typical ? Argv({"A=1"}) : nullptr;
      a->cwd = Text(v, "/tmp");
      a->maxprocs = typical ? 4 : 0;
      FillInfos(&a->info, &a->ninfo, 2, v);
      break;
    }
    case PMIX_QUERY: {
      auto* q = static_cast<pmix_query_t*>(e);
      q->keys = typical ? Argv({"pmix.qry.a", "pmix.qry.b"}) : nullptr;
      FillInfos(&q->qualifiers, &q->nqual, 1, v);
      break;
    }
    case PMIX_PROC_INFO: {
      auto* p = static_cast<pmix_proc_info_t*>(e);
      std::strcpy(p->proc.nspace, typical ? "pinfo" : "");
      p->proc.rank = typical ? 2 : PMIX_RANK_UNDEF;
      p->hostname = Text(v, "host");
      p->executable_name = Text(v, "exe");
      p->pid = typical ? 1234 : 0;
      p->exit_code = typical ? -1 : 0;
      p->state = typical ? PMIX_PROC_STATE_RUNNING : 0;
      break;
    }
    case PMIX_DATA_ARRAY:
      FillDataArray(static_cast<pmix_data_array_t*>(e), v);
      break;
    case PMIX_ENVAR: {
      auto* en = static_cast<pmix_envar_t*>(e);
      en->envar = Text(v, "PATH");
      en->value = Text(v, "/usr/bin");
      en->separator = typical ? ':' : '\0';
      break;
    }
    case PMIX_COORD:
      FillCoord(static_cast<pmix_coord_t*>(e), v);
      break;
    case PMIX_REGATTR: {
      auto* r = static_cast<pmix_regattr_t*>(e);
      r->name = Text(v, "PMIX_TEST_ATTR");
      std::strcpy(r->string, typical ? "pmix.test.attr" : "");
      r->type = typical ? PMIX_UINT32 : PMIX_UNDEF;
      r->description = typical ? Argv({"line one", "line two"}) : nullptr;
      break;
    }
    case PMIX_PROC_CPUSET: {
      auto* c = static_cast<pmix_cpuset_t*>(e);
      c->source = v == Variant::kNulls ? nullptr : Str("hwloc");
      if (typical) {
        hwloc_bitmap_t bm = hwloc_bitmap_alloc();
        hwloc_bitmap_set(bm, 1);
        hwloc_bitmap_set(bm, 3);
        c->bitmap = bm;
      }
      break;
    }
    case PMIX_TOPO: {
      auto* t = static_cast<pmix_topology_t*>(e);
      t->source = v == Variant::kNulls ? nullptr : Str("hwloc");
      if (typical) t->topology = SmallTopology();
      break;
    }
    case PMIX_GEOMETRY: {
      auto* g = static_cast<pmix_geometry_t*>(e);
      g->fabric = typical ? 2 : 0;
      g->uuid = Text(v, "uuid-1");
      g->osname = Text(v, "mlx5_0");
      if (typical) {
        g->coordinates =
            static_cast<pmix_coord_t*>(std::calloc(2, sizeof(pmix_coord_t)));
        FillCoord(&g->coordinates[0], v);
        FillCoord(&g->coordinates[1], v);
        g->ncoords = 2;
      }
      break;
    }
    case PMIX_DEVICE_DIST: {
      auto* d = static_cast<pmix_device_distance_t*>(e);
      d->uuid = Text(v, "gpu-uuid");
      d->osname = Text(v, "card0");
      d->type = typical ? PMIX_DEVTYPE_GPU : 0;
      d->mindist = typical ? 1 : UINT16_MAX;
      d->maxdist = typical ? 5 : UINT16_MAX;
      break;
    }
    case PMIX_ENDPOINT: {
      auto* ep = static_cast<pmix_endpoint_t*>(e);
      ep->uuid = Text(v, "ep-uuid");
      ep->osname = Text(v, "ib0");
      ep->endpt = Bytes(v);
      break;
    }
    case PMIX_DATA_BUFFER: {
      auto* b = static_cast<pmix_data_buffer_t*>(e);
      if (!typical) break;
      b->base_ptr = static_cast<char*>(std::malloc(16));
      std::memcpy(b->base_ptr, "0123456789", 10);
      b->bytes_allocated = 16;
      b->bytes_used = 10;
      b->pack_ptr = b->base_ptr + 10;
      b->unpack_ptr = b->base_ptr + 4;
      break;
    }
    default:
      FillStats(type, v, e);
      break;
  }
}

}  // namespace

const char kTwoCoreNodeXml[] = R"(<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE topology SYSTEM "hwloc2.dtd">
<topology version="2.0">
<object type="Machine" os_index="0" cpuset="0x00000003" complete_cpuset="0x00000003" allowed_cpuset="0x00000003" nodeset="0x00000001" complete_nodeset="0x00000001" allowed_nodeset="0x00000001" gp_index="1">
<object type="Package" os_index="0" cpuset="0x00000003" complete_cpuset="0x00000003" nodeset="0x00000001" complete_nodeset="0x00000001" gp_index="2">
<object type="NUMANode" os_index="0" cpuset="0x00000003" complete_cpuset="0x00000003" nodeset="0x00000001" complete_nodeset="0x00000001" gp_index="3" local_memory="1073741824"/>
<object type="Core" os_index="0" cpuset="0x00000001" complete_cpuset="0x00000001" nodeset="0x00000001" complete_nodeset="0x00000001" gp_index="4">
<object type="PU" os_index="0" cpuset="0x00000001" complete_cpuset="0x00000001" nodeset="0x00000001" complete_nodeset="0x00000001" gp_index="5"/>
</object>
<object type="Core" os_index="1" cpuset="0x00000002" complete_cpuset="0x00000002" nodeset="0x00000001" complete_nodeset="0x00000001" gp_index="6">
<object type="PU" os_index="1" cpuset="0x00000002" complete_cpuset="0x00000002" nodeset="0x00000001" complete_nodeset="0x00000001" gp_index="7"/>
</object>
</object>
</object>
</topology>
)";

const char kNodeWithHcaXml[] = R"(<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE topology SYSTEM "hwloc2.dtd">
<topology version="2.0">
<object type="Machine" os_index="0" cpuset="0x00000001" complete_cpuset="0x00000001" allowed_cpuset="0x00000001" nodeset="0x00000001" complete_nodeset="0x00000001" allowed_nodeset="0x00000001" gp_index="1">
<object type="Package" os_index="0" cpuset="0x00000001" complete_cpuset="0x00000001" nodeset="0x00000001" complete_nodeset="0x00000001" gp_index="2">
<object type="NUMANode" os_index="0" cpuset="0x00000001" complete_cpuset="0x00000001" nodeset="0x00000001" complete_nodeset="0x00000001" gp_index="3" local_memory="1073741824"/>
<object type="Core" os_index="0" cpuset="0x00000001" complete_cpuset="0x00000001" nodeset="0x00000001" complete_nodeset="0x00000001" gp_index="4">
<object type="PU" os_index="0" cpuset="0x00000001" complete_cpuset="0x00000001" nodeset="0x00000001" complete_nodeset="0x00000001" gp_index="5"/>
</object>
<object type="Bridge" gp_index="6" bridge_type="0-1" depth="0" bridge_pci="0000:[01-01]">
<object type="PCIDev" gp_index="7" pci_busid="0000:01:00.0" pci_type="0207 [15b3:1017] [15b3:0020] 00" pci_link_speed="8.000000">
<object type="OSDev" gp_index="8" name="mlx5_0" osdev_type="3"/>
</object>
</object>
</object>
</object>
</topology>
)";

hwloc_topology_t LoadXmlTopology(const char* xml, bool keep_io) {
  hwloc_topology_t topo = nullptr;
  if (hwloc_topology_init(&topo) != 0) return nullptr;
  bool ok = hwloc_topology_set_xmlbuffer(topo, xml, static_cast<int>(std::strlen(xml)) + 1) == 0 &&
            (!keep_io || hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_ALL) == 0) &&
            hwloc_topology_load(topo) == 0;
  if (!ok) {
    hwloc_topology_destroy(topo);
    return nullptr;
  }
  return topo;
}

const std::vector<pmix_data_type_t>& ElementTypes() {
  static const std::vector<pmix_data_type_t> types = [] {
    std::vector<pmix_data_type_t> all;
    for (pmix_data_type_t t = 0; t < PMIX_DATA_TYPE_MAX; ++t) {
      if (pmix::ElementSize(t) > 0) all.push_back(t);
    }
    return all;
  }();
  return types;
}

bool ComparesEqualToCopy(pmix_data_type_t type, Variant variant) {
  switch (type) {
    case PMIX_APP:
    case PMIX_QUERY:
    case PMIX_DATA_BUFFER:
      return false;
    default:
      (void)variant;  // a topology's copy has the same tree: equal too
      return true;
  }
}

void FillSample(pmix_data_type_t type, Variant variant, void* element) {
  std::memset(element, 0, pmix::ElementSize(type));
  bool typical = variant == Variant::kTypical;
  switch (type) {
    case PMIX_BOOL:
      Put<bool>(element, typical);
      break;
    case PMIX_BYTE:
    case PMIX_UINT8:
      FillScalar<uint8_t>(element, variant, 0xa5);
      break;
    case PMIX_SIZE:
      FillScalar<size_t>(element, variant, 123456);
      break;
    case PMIX_PID:
      FillScalar<pid_t>(element, variant, 4321);
      break;
    case PMIX_INT:
      FillScalar<int>(element, variant, -17);
      break;
    case PMIX_INT8:
      FillScalar<int8_t>(element, variant, -8);
      break;
    case PMIX_INT16:
      FillScalar<int16_t>(element, variant, -1600);
      break;
    case PMIX_INT32:
      FillScalar<int32_t>(element, variant, -320000);
      break;
    case PMIX_INT64:
      FillScalar<int64_t>(element, variant, -(int64_t{1} << 40));
      break;
    case PMIX_UINT:
      FillScalar<unsigned>(element, variant, 17u);
      break;
    case PMIX_UINT16:
      FillScalar<uint16_t>(element, variant, 1600);
      break;
    case PMIX_UINT32:
      FillScalar<uint32_t>(element, variant, 320000);
      break;
    case PMIX_UINT64:
      FillScalar<uint64_t>(element, variant, uint64_t{1} << 40);
      break;
    case PMIX_FLOAT:
      FillScalar<float>(element, variant, 1.25f);
      break;
    case PMIX_DOUBLE:
      FillScalar<double>(element, variant, -2.5e10);
      break;
    case PMIX_TIMEVAL:
      Put(element, typical ? timeval{1700000000, 999999} : timeval{0, 0});
      break;
    case PMIX_TIME:
      FillScalar<time_t>(element, variant, 1700000000);
      break;
    case PMIX_STATUS:
      FillScalar<pmix_status_t>(element, variant, PMIX_ERR_BAD_PARAM);
      break;
    case PMIX_PROC_RANK:
      FillScalar<pmix_rank_t>(element, variant, 12);
      break;
    case PMIX_PERSIST:
    case PMIX_SCOPE:
    case PMIX_DATA_RANGE:
    case PMIX_COMMAND:
    case PMIX_PROC_STATE:
    case PMIX_ALLOC_DIRECTIVE:
    case PMIX_JOB_STATE:
    case PMIX_LINK_STATE:
      FillScalar<uint8_t>(element, variant, 2);
      break;
    case PMIX_INFO_DIRECTIVES:
      FillScalar<uint32_t>(element, variant, PMIX_INFO_REQD);
      break;
    case PMIX_DATA_TYPE:
    case PMIX_IOF_CHANNEL:
    case PMIX_LOCTYPE:
    case PMIX_STOR_ACCESS_TYPE:
      FillScalar<uint16_t>(element, variant, 3);
      break;
    case PMIX_DEVTYPE:
    case PMIX_STOR_MEDIUM:
    case PMIX_STOR_ACCESS:
    case PMIX_STOR_PERSIST:
      FillScalar<uint64_t>(element, variant, 0x10);
      break;
    default:
      FillStruct(type, variant, element);
      break;
  }
}

Sample::Sample(pmix_data_type_t type, Variant variant)
    : type_(type), element_(std::calloc(1, pmix::ElementSize(type))) {
  FillSample(type, variant, element_);
}

Sample::~Sample() {
  pmix::DestructElement(*pmix::FindDataType(type_), element_);
  std::free(element_);
}

std::string TypeName(pmix_data_type_t type) {
  return "type" + std::to_string(type);
}

std::string VariantName(Variant variant) {
  switch (variant) {
    case Variant::kTypical:
      return "Typical";
    case Variant::kEdge:
      return "Edge";
    case Variant::kNulls:
      return "Nulls";
  }
  return "?";
}

}  // namespace pmix::test
