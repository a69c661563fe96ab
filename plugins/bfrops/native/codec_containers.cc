// Types that nest other types: values, infos, pdata, apps, queries, data
// arrays and data buffers.
#include <cstdlib>
#include <cstring>

#include "plugins/bfrops/native/codec.h"

namespace pmix::bfrops::native {
namespace {

// Types a pmix_value_t holds through a pointer to one element.
bool IsBoxed(pmix_data_type_t type) {
  switch (type) {
    case PMIX_PROC: case PMIX_PROC_INFO: case PMIX_DATA_ARRAY: case PMIX_COORD:
    case PMIX_REGATTR: case PMIX_PROC_CPUSET: case PMIX_GEOMETRY:
    case PMIX_DEVICE_DIST: case PMIX_ENDPOINT: case PMIX_TOPO:
    case PMIX_PROC_NSPACE: case PMIX_PROC_STATS: case PMIX_DISK_STATS:
    case PMIX_NET_STATS: case PMIX_NODE_STATS: case PMIX_DATA_BUFFER:
      return true;
    default:
      return false;
  }
}

// Types no pmix_value_t member can hold.
bool NotStorable(pmix_data_type_t type) {
  return type == PMIX_INFO || type == PMIX_VALUE || type == PMIX_APP ||
         type == PMIX_PDATA || type == PMIX_QUERY;
}

// One constructed element of `type`, or NULL.
void* AllocOne(pmix_data_type_t type) {
  pmix_data_array_t tmp;
  PMIx_Data_array_construct(&tmp, 1, type);
  return tmp.array;
}

// Leaves a nesting level when it goes out of scope.
template <class Stream>
struct Level {
  explicit Level(Stream& s) : stream(s), ok(s.Enter()) {}
  ~Level() { stream.Leave(); }
  Stream& stream;
  bool ok;
};

pmix_status_t PackValue(Writer& w, const pmix_value_t& v) {
  Level<Writer> level(w);
  if (!level.ok) return PMIX_ERR_BAD_PARAM;
  w.U16(v.type);
  if (v.type == PMIX_UNDEF) return PMIX_SUCCESS;
  const TypeCodec* codec = FindValueCodec(v.type);
  if (codec == nullptr) return RefusalFor(v.type);
  if (NotStorable(v.type)) return PMIX_ERR_BAD_PARAM;
  if (!IsBoxed(v.type)) return codec->pack(w, &v.data);
  w.U8(v.data.ptr != nullptr ? 1 : 0);
  return v.data.ptr == nullptr ? PMIX_SUCCESS : codec->pack(w, v.data.ptr);
}

// `v` is constructed; on failure it holds what PMIx_Value_destruct frees.
pmix_status_t UnpackValue(Reader& r, pmix_value_t* v) {
  Level<Reader> level(r);
  if (!level.ok) return PMIX_ERR_UNPACK_FAILURE;
  pmix_data_type_t type = PMIX_UNDEF;
  NATIVE_TRY(r.U16(&type));
  if (type == PMIX_UNDEF) return PMIX_SUCCESS;
  const TypeCodec* codec = FindValueCodec(type);
  if (codec == nullptr || NotStorable(type)) return PMIX_ERR_UNPACK_FAILURE;
  std::memset(&v->data, 0, sizeof v->data);
  if (!IsBoxed(type)) {
    v->type = type;
    return codec->unpack(r, &v->data);
  }
  uint8_t present = 0;
  NATIVE_TRY(r.U8(&present));
  if (present > 1) return PMIX_ERR_UNPACK_FAILURE;
  v->type = type;
  if (present == 0) return PMIX_SUCCESS;
  if (r.left() < codec->min_wire) return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
  NATIVE_TRY(r.Charge(codec->element_size));
  v->data.ptr = AllocOne(type);
  if (v->data.ptr == nullptr) return PMIX_ERR_NOMEM;
  return codec->unpack(r, v->data.ptr);
}

pmix_status_t PackValueElement(Writer& w, const void* e) {
  return PackValue(w, As<pmix_value_t>(e));
}
pmix_status_t UnpackValueElement(Reader& r, void* e) {
  return UnpackValue(r, &As<pmix_value_t>(e));
}

// A copy owns its value, so the persistence flag never travels.
constexpr pmix_info_directives_t kLocalFlags = PMIX_INFO_PERSISTENT;

pmix_status_t PackInfo(Writer& w, const void* e) {
  const auto& v = As<pmix_info_t>(e);
  NATIVE_TRY(w.Fixed(v.key, PMIX_MAX_KEYLEN));
  w.U32(v.flags & ~kLocalFlags);
  return PackValue(w, v.value);
}
pmix_status_t UnpackInfo(Reader& r, void* e) {
  auto& v = As<pmix_info_t>(e);
  NATIVE_TRY(r.Fixed(v.key, PMIX_MAX_KEYLEN));
  uint32_t flags = 0;
  NATIVE_TRY(r.U32(&flags));
  v.flags = flags & ~kLocalFlags;
  return UnpackValue(r, &v.value);
}

pmix_status_t PackPdata(Writer& w, const void* e) {
  const auto& v = As<pmix_pdata_t>(e);
  NATIVE_TRY(PackProc(w, v.proc));
  NATIVE_TRY(w.Fixed(v.key, PMIX_MAX_KEYLEN));
  return PackValue(w, v.value);
}
pmix_status_t UnpackPdata(Reader& r, void* e) {
  auto& v = As<pmix_pdata_t>(e);
  NATIVE_TRY(UnpackProc(r, &v.proc));
  NATIVE_TRY(r.Fixed(v.key, PMIX_MAX_KEYLEN));
  return UnpackValue(r, &v.value);
}

pmix_status_t PackApp(Writer& w, const void* e) {
  const auto& v = As<pmix_app_t>(e);
  NATIVE_TRY(w.Str(v.cmd));
  NATIVE_TRY(PackArgv(w, v.argv));
  NATIVE_TRY(PackArgv(w, v.env));
  NATIVE_TRY(w.Str(v.cwd));
  w.U32(static_cast<uint32_t>(v.maxprocs));
  return PackArrayField(w, PMIX_INFO, v.info, v.ninfo);
}
pmix_status_t UnpackApp(Reader& r, void* e) {
  auto& v = As<pmix_app_t>(e);
  uint32_t maxprocs = 0;
  NATIVE_TRY(r.Str(&v.cmd));
  NATIVE_TRY(UnpackArgv(r, &v.argv));
  NATIVE_TRY(UnpackArgv(r, &v.env));
  NATIVE_TRY(r.Str(&v.cwd));
  NATIVE_TRY(r.U32(&maxprocs));
  v.maxprocs = static_cast<int>(maxprocs);
  void* info = nullptr;
  NATIVE_TRY(UnpackArrayField(r, PMIX_INFO, &info, &v.ninfo));
  v.info = static_cast<pmix_info_t*>(info);
  return PMIX_SUCCESS;
}

pmix_status_t PackQuery(Writer& w, const void* e) {
  const auto& v = As<pmix_query_t>(e);
  NATIVE_TRY(PackArgv(w, v.keys));
  return PackArrayField(w, PMIX_INFO, v.qualifiers, v.nqual);
}
pmix_status_t UnpackQuery(Reader& r, void* e) {
  auto& v = As<pmix_query_t>(e);
  NATIVE_TRY(UnpackArgv(r, &v.keys));
  void* quals = nullptr;
  NATIVE_TRY(UnpackArrayField(r, PMIX_INFO, &quals, &v.nqual));
  v.qualifiers = static_cast<pmix_info_t*>(quals);
  return PMIX_SUCCESS;
}

// data array: u16 element type, u32 count, elements.
pmix_status_t PackDataArray(Writer& w, const void* e) {
  const auto& v = As<pmix_data_array_t>(e);
  Level<Writer> level(w);
  if (!level.ok) return PMIX_ERR_BAD_PARAM;
  w.U16(v.type);
  if (v.size == 0) return w.Count(0);
  return PackArrayField(w, v.type, v.array, v.size);
}
pmix_status_t UnpackDataArray(Reader& r, void* e) {
  auto& v = As<pmix_data_array_t>(e);
  Level<Reader> level(r);
  if (!level.ok) return PMIX_ERR_UNPACK_FAILURE;
  pmix_data_type_t type = PMIX_UNDEF;
  NATIVE_TRY(r.U16(&type));
  const TypeCodec* codec = FindCodec(type);
  size_t n = 0;
  NATIVE_TRY(r.Count(codec == nullptr ? 0 : codec->min_wire, &n));
  v.type = type;
  if (n == 0) return PMIX_SUCCESS;
  if (codec == nullptr) return PMIX_ERR_UNPACK_FAILURE;
  NATIVE_TRY(UnpackElements(r, *codec, n, &v.array));
  v.size = n;
  return PMIX_SUCCESS;
}

// data buffer: u64 bytes used, u64 unpack offset, the bytes.
pmix_status_t PackDataBuffer(Writer& w, const void* e) {
  const auto& v = As<pmix_data_buffer_t>(e);
  if (v.base_ptr == nullptr) {
    if (v.bytes_used > 0) return PMIX_ERR_BAD_PARAM;
    w.U64(0);
    w.U64(0);
    return PMIX_SUCCESS;
  }
  const char* unpack = v.unpack_ptr == nullptr ? v.base_ptr : v.unpack_ptr;
  if (unpack < v.base_ptr || unpack > v.base_ptr + v.bytes_used) {
    return PMIX_ERR_BAD_PARAM;
  }
  w.U64(v.bytes_used);
  w.U64(static_cast<uint64_t>(unpack - v.base_ptr));
  w.Raw(v.base_ptr, v.bytes_used);
  return PMIX_SUCCESS;
}
pmix_status_t UnpackDataBuffer(Reader& r, void* e) {
  auto& v = As<pmix_data_buffer_t>(e);
  uint64_t used = 0;
  uint64_t offset = 0;
  NATIVE_TRY(r.U64(&used));
  NATIVE_TRY(r.U64(&offset));
  if (offset > used) return PMIX_ERR_UNPACK_FAILURE;
  if (used > r.left()) return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
  if (used == 0) return PMIX_SUCCESS;
  NATIVE_TRY(r.Charge(used));
  char* bytes = static_cast<char*>(std::malloc(used));
  if (bytes == nullptr) return PMIX_ERR_NOMEM;
  NATIVE_TRY(r.Raw(bytes, used));  // cannot fail: checked above
  v.base_ptr = bytes;
  v.pack_ptr = bytes + used;
  v.unpack_ptr = bytes + offset;
  v.bytes_allocated = used;
  v.bytes_used = used;
  return PMIX_SUCCESS;
}

constexpr TypeCodec kRows[] = {
    {PMIX_VALUE, sizeof(pmix_value_t), 2, &PackValueElement, &UnpackValueElement},
    {PMIX_INFO, sizeof(pmix_info_t), 10, &PackInfo, &UnpackInfo},
    {PMIX_PDATA, sizeof(pmix_pdata_t), 14, &PackPdata, &UnpackPdata},
    {PMIX_APP, sizeof(pmix_app_t), 24, &PackApp, &UnpackApp},
    {PMIX_QUERY, sizeof(pmix_query_t), 8, &PackQuery, &UnpackQuery},
    {PMIX_DATA_ARRAY, sizeof(pmix_data_array_t), 6, &PackDataArray, &UnpackDataArray},
    {PMIX_DATA_BUFFER, sizeof(pmix_data_buffer_t), 16, &PackDataBuffer,
     &UnpackDataBuffer},
};

}  // namespace

const TypeCodec* ContainerCodecs(size_t* n) {
  *n = sizeof(kRows) / sizeof(kRows[0]);
  return kRows;
}

}  // namespace pmix::bfrops::native
