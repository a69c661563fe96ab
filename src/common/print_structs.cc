// Descriptions of the structured types, values and containers, and the C
// API (PMIx_Data_print, PMIx_Value_string, PMIx_Info_string).
#include <hwloc.h>
#include <strings.h>

#include <cstdlib>
#include <cstring>

#include "pmix.h"
#include "src/common/api_guard.h"
#include "src/common/data_types.h"
#include "src/common/print.h"
#include "src/common/print_topology.h"

namespace pmix {
namespace {

template <class T>
const T& As(const void* p) {
  return *static_cast<const T*>(p);
}

std::string Str(const char* s) { return s == nullptr ? "NULL" : s; }

std::string Key(const char* key) { return std::string(key, strnlen(key, PMIX_MAX_KEYLEN)); }

// "<prefix>Data type: <TYPE>\t" -- the head of most struct lines.
std::string Head(std::string_view prefix, pmix_data_type_t type) {
  return std::string(prefix) + "Data type: " + PMIx_Data_type_string(type) + "\t";
}

void PrintArray(std::string* out, std::string_view prefix, pmix_data_type_t type,
                const void* array, size_t n, PrintContext ctx) {
  size_t size = ElementSize(type);
  if (array == nullptr || size == 0) return;
  // Each element: a newline, the prefix, then the element printed with the
  // prefix (so its first line carries it twice, as OpenPMIx does).
  for (size_t i = 0; i < n; ++i) {
    *out += "\n";
    *out += prefix;
    (void)PrintAt(out, prefix, static_cast<const char*>(array) + i * size, type, ctx.Deeper());
  }
}

void PrintInfos(std::string* out, std::string_view prefix, const pmix_info_t* infos, size_t n,
                PrintContext ctx) {
  PrintArray(out, prefix, PMIX_INFO, infos, n, ctx);
}

void PrintInfo(std::string* out, std::string_view p, const pmix_info_t& info, PrintContext ctx) {
  std::string pre(p);
  *out += pre + "KEY: " + Key(info.key) + "\n" + pre + "\t";
  pmix_info_directives_t flags = info.flags;
  (void)PrintAt(out, p, &flags, PMIX_INFO_DIRECTIVES, ctx.Deeper());
  *out += "\n" + pre + "\t";
  PrintValueAt(out, p, info.value, ctx.Deeper());
}

std::string Argv(char** argv) {
  if (argv == nullptr) return "NULL";
  std::string s;
  for (size_t i = 0; argv[i] != nullptr; ++i) s += (i > 0 ? " " : "") + std::string(argv[i]);
  return s;
}

std::string CoordText(const pmix_coord_t& c) {
  const char* view = c.view == PMIX_COORD_LOGICAL_VIEW    ? "LOGICAL"
                     : c.view == PMIX_COORD_PHYSICAL_VIEW ? "PHYSICAL"
                                                          : "UNDEF";
  return std::string("View: ") + view + "\tDims: " + Num(c.dims);
}

bool IsHwloc(const char* source) { return source != nullptr && strncasecmp(source, "hwloc", 5) == 0; }

// OpenPMIx 4.2's texts: "Data type: PMIX_CPUSET\tValue: 0-3,8" (hwloc's
// list form) and "Data type: PMIX_TOPO\tValue: <object tree>". Where
// OpenPMIx has no text (no bitmap or topology, another source: it fails
// with PMIX_ERR_NOT_SUPPORTED, or crashes) the value is "NULL" and the
// source is named when it is not hwloc.
std::string CpusetText(std::string_view p, const pmix_cpuset_t& c) {
  std::string s = std::string(p) + "Data type: PMIX_CPUSET\tValue: ";
  char* list = nullptr;
  if (c.bitmap == nullptr || !IsHwloc(c.source) ||
      hwloc_bitmap_list_asprintf(&list, static_cast<hwloc_const_bitmap_t>(c.bitmap)) < 0) {
    return s + "NULL" + (IsHwloc(c.source) ? "" : "\tSource: " + Str(c.source));
  }
  s += list;
  std::free(list);
  return s;
}

std::string TopologyText(std::string_view p, const pmix_topology_t& t) {
  std::string s = Head(p, PMIX_TOPO) + "Value: ";
  if (t.topology == nullptr || !IsHwloc(t.source)) {
    return s + "NULL" + (IsHwloc(t.source) ? "" : "\tSource: " + Str(t.source));
  }
  return s + TopologyTree(static_cast<hwloc_topology_t>(t.topology));
}

bool PrintContainer(std::string* out, std::string_view p, const void* e, pmix_data_type_t type,
                    PrintContext ctx) {
  std::string pre(p);
  switch (type) {
    case PMIX_VALUE: PrintValueAt(out, p, As<pmix_value_t>(e), ctx); return true;
    case PMIX_INFO: PrintInfo(out, p, As<pmix_info_t>(e), ctx); return true;
    case PMIX_PDATA: {
      const auto& d = As<pmix_pdata_t>(e);
      *out += pre + "  " + pre + "PROC: " + ProcString(d.proc) + "  KEY: " + Key(d.key) + " ";
      PrintValueAt(out, p, d.value, ctx.Deeper());
      return true;
    }
    case PMIX_DATA_ARRAY: {
      const auto& d = As<pmix_data_array_t>(e);
      *out += Head(p, type) + "Type: " + PMIx_Data_type_string(d.type) +
              "\tSize: " + Num(d.size);
      PrintArray(out, p, d.type, d.array, d.size, ctx);
      return true;
    }
    case PMIX_APP: {
      const auto& a = As<pmix_app_t>(e);
      *out += Head(p, type) + "Cmd: " + Str(a.cmd) + "\tArgv: " + Argv(a.argv) +
              "\tCwd: " + Str(a.cwd) + "\tMaxprocs: " + Num(a.maxprocs) +
              "\tEnv: " + Argv(a.env) + "\tNinfo: " + Num(a.ninfo);
      PrintInfos(out, p, a.info, a.ninfo, ctx);
      return true;
    }
    case PMIX_QUERY: {
      const auto& q = As<pmix_query_t>(e);
      *out += Head(p, type) + "Value:";
      for (size_t i = 0; q.keys != nullptr && q.keys[i] != nullptr; ++i) {
        *out += "\n" + pre + "\tKey: " + q.keys[i];
      }
      PrintInfos(out, p, q.qualifiers, q.nqual, ctx);
      return true;
    }
    case PMIX_DATA_BUFFER: {
      const auto& b = As<pmix_data_buffer_t>(e);
      *out += Head(p, type) + "Bytes used: " + Num(b.bytes_used);
      return true;
    }
    default:
      return false;
  }
}

bool PrintStats(std::string* out, std::string_view p, const void* e, pmix_data_type_t type,
                PrintContext ctx) {
  switch (type) {
    case PMIX_PROC_STATS: {
      const auto& s = As<pmix_proc_stats_t>(e);
      *out += Head(p, type) + "Node: " + Str(s.node) + "\tProc: " + ProcString(s.proc) +
              "\tPid: " + Num(s.pid) + "\tCmd: " + Str(s.cmd) +
              "\tThreads: " + Num(s.num_threads);
      return true;
    }
    case PMIX_DISK_STATS:
      *out += Head(p, type) + "Disk: " + Str(As<pmix_disk_stats_t>(e).disk);
      return true;
    case PMIX_NET_STATS:
      *out += Head(p, type) + "Interface: " + Str(As<pmix_net_stats_t>(e).net_interface);
      return true;
    case PMIX_NODE_STATS: {
      const auto& s = As<pmix_node_stats_t>(e);
      *out += Head(p, type) + "Node: " + Str(s.node) +
              "\tDisks: " + Num(s.ndiskstats) + "\tNets: " + Num(s.nnetstats);
      PrintArray(out, p, PMIX_DISK_STATS, s.diskstats, s.ndiskstats, ctx);
      PrintArray(out, p, PMIX_NET_STATS, s.netstats, s.nnetstats, ctx);
      return true;
    }
    default:
      return false;
  }
}

}  // namespace

void PrintValueAt(std::string* out, std::string_view prefix, const pmix_value_t& v, PrintContext ctx) {
  *out += std::string(prefix) + "PMIX_VALUE: ";
  const DataTypeOps* ops = FindValueType(v.type);
  if (ops == nullptr || ops->storage == ValueStorage::kEmpty ||
      ops->storage == ValueStorage::kNotStorable) {
    *out += std::string(" Data type: ") + PMIx_Data_type_string(v.type);
    return;
  }
  if (ops->storage == ValueStorage::kBoxed && v.data.ptr == nullptr) {
    *out += std::string(" Data type: ") + PMIx_Data_type_string(v.type) + "\tValue: NULL";
    return;
  }
  const void* e = ops->storage == ValueStorage::kBoxed ? v.data.ptr : &v.data;
  (void)PrintAt(out, " ", e, v.type, PrintContext{ctx.depth + 1, true});
}

void PrintValue(std::string* out, std::string_view prefix, const pmix_value_t& value) {
  PrintValueAt(out, prefix, value, PrintContext{});
}

bool PrintStruct(std::string* out, std::string_view p, const void* e, pmix_data_type_t type,
                 PrintContext ctx) {
  if (PrintContainer(out, p, e, type, ctx) || PrintStats(out, p, e, type, ctx)) return true;
  std::string pre(p);
  switch (type) {
    case PMIX_PROC: *out += pre + "PROC: " + ProcString(As<pmix_proc_t>(e)); return true;
    case PMIX_BYTE_OBJECT: case PMIX_COMPRESSED_STRING:
    case PMIX_COMPRESSED_BYTE_OBJECT:
      *out += Head(p, type) + "Size: " + Num(As<pmix_byte_object_t>(e).size);
      return true;
    case PMIX_ENVAR: {
      const auto& v = As<pmix_envar_t>(e);
      *out += Head(p, type) + "Name: " + Str(v.envar) + "\tValue: " + Str(v.value) +
              "\tSeparator: " + std::string(1, v.separator == '\0' ? ' ' : v.separator);
      return true;
    }
    case PMIX_PROC_INFO: {
      const auto& v = As<pmix_proc_info_t>(e);
      *out += Head(p, type) + "Value:\n" + pre + "\tPROC: " + ProcString(v.proc) + "\n" + pre +
              "\tHostname: " + Str(v.hostname) + "\tExecutable: " + Str(v.executable_name) +
              "\n" + pre + "\tPid: " + Num(v.pid) +
              "\tExit code: " + Num(v.exit_code) +
              "\tState: " + PMIx_Proc_state_string(v.state);
      return true;
    }
    case PMIX_COORD: *out += Head(p, type) + CoordText(As<pmix_coord_t>(e)); return true;
    case PMIX_REGATTR: {
      const auto& v = As<pmix_regattr_t>(e);
      *out += Head(p, type) + "Name: " + Str(v.name) + "\tString: " + Key(v.string);
      return true;
    }
    case PMIX_ENDPOINT: {
      const auto& v = As<pmix_endpoint_t>(e);
      *out += Head(p, type) + "Value: " + Str(v.uuid) + "(" + Str(v.osname) +
              ") #bytes: " + Num(v.endpt.size);
      return true;
    }
    case PMIX_DEVICE_DIST: {
      const auto& v = As<pmix_device_distance_t>(e);
      *out += Head(p, type) + "Value: UUID: " + Str(v.uuid) + " OSName: " + Str(v.osname) +
              " Type: " + PMIx_Device_type_string(v.type) + " Min: " + Num(v.mindist) +
              " Max: " + Num(v.maxdist);
      return true;
    }
    case PMIX_GEOMETRY: {
      const auto& v = As<pmix_geometry_t>(e);
      *out += Head(p, type) + "Value: Fabric: " + Num(v.fabric) +
              " UUID: " + Str(v.uuid) + " OSName: " + Str(v.osname);
      for (size_t i = 0; v.coordinates != nullptr && i < v.ncoords; ++i) {
        *out += "\n" + Head(p, PMIX_COORD) + CoordText(v.coordinates[i]);
      }
      return true;
    }
    case PMIX_PROC_CPUSET: *out += CpusetText(p, As<pmix_cpuset_t>(e)); return true;
    case PMIX_TOPO: *out += TopologyText(p, As<pmix_topology_t>(e)); return true;
    default:
      return false;
  }
}

}  // namespace pmix

namespace {

// A malloc'd copy of `s`, or NULL.
char* Release(const std::string& s) { return strdup(s.c_str()); }

}  // namespace

extern "C" {

pmix_status_t PMIx_Data_print(char** output, char* prefix, void* src, pmix_data_type_t type) {
  return pmix::ApiGuard("PMIx_Data_print", [&]() -> pmix::Status {
    if (output == nullptr || src == nullptr) return PMIX_ERR_BAD_PARAM;
    std::string text;
    const char* pre = prefix == nullptr ? " " : prefix;
    // For PMIX_STRING (and PMIX_REGEX, as OpenPMIx 4.2 does) the caller
    // passes the text itself.
    const bool by_text = type == PMIX_STRING || type == PMIX_REGEX;
    const void* element = by_text ? static_cast<const void*>(&src) : src;
    PMIX_RETURN_IF_ERROR(pmix::PrintElement(&text, pre, element, type));
    char* copy = Release(text);
    if (copy == nullptr) return PMIX_ERR_NOMEM;
    *output = copy;
    return pmix::Status();
  });
}

char* PMIx_Value_string(const pmix_value_t* value) {
  return pmix::ApiGuardValue("PMIx_Value_string", static_cast<char*>(nullptr), [&]() -> char* {
    if (value == nullptr) return nullptr;
    std::string text;
    pmix::PrintValue(&text, " ", *value);
    return Release(text);
  });
}

char* PMIx_Info_string(const pmix_info_t* info) {
  return pmix::ApiGuardValue("PMIx_Info_string", static_cast<char*>(nullptr), [&]() -> char* {
    if (info == nullptr) return nullptr;
    std::string text;
    if (!pmix::PrintElement(&text, " ", info, PMIX_INFO).ok()) return nullptr;
    return Release(text);
  });
}

}  // extern "C"
