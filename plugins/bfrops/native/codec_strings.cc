// Strings, byte runs, argv and the small string-bearing structs (proc,
// namespace, envar).
#include <cstdlib>
#include <cstring>

#include "plugins/bfrops/native/codec.h"

namespace pmix::bfrops::native {

pmix_status_t Reader::Str(char** out) {
  uint32_t n = 0;
  NATIVE_TRY(U32(&n));
  if (n == kNullLength) {
    *out = nullptr;
    return PMIX_SUCCESS;
  }
  if (n > left()) return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
  NATIVE_TRY(Charge(static_cast<size_t>(n) + 1));
  char* s = static_cast<char*>(std::malloc(static_cast<size_t>(n) + 1));
  if (s == nullptr) return PMIX_ERR_NOMEM;
  std::memcpy(s, p_, n);
  s[n] = '\0';
  p_ += n;
  *out = s;
  return PMIX_SUCCESS;
}

pmix_status_t Reader::Fixed(char* dst, size_t max) {
  uint32_t n = 0;
  NATIVE_TRY(U32(&n));
  if (n > max) return PMIX_ERR_UNPACK_FAILURE;
  if (n > left()) return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
  std::memcpy(dst, p_, n);
  std::memset(dst + n, 0, max + 1 - n);
  p_ += n;
  return PMIX_SUCCESS;
}

pmix_status_t Reader::Blob(char** bytes, size_t* size) {
  uint32_t n = 0;
  NATIVE_TRY(U32(&n));
  if (n == kNullLength) return PMIX_ERR_UNPACK_FAILURE;
  if (n > left()) return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
  char* b = nullptr;
  if (n > 0) {
    NATIVE_TRY(Charge(n));
    b = static_cast<char*>(std::malloc(n));
    if (b == nullptr) return PMIX_ERR_NOMEM;
    std::memcpy(b, p_, n);
  }
  p_ += n;
  *bytes = b;
  *size = n;
  return PMIX_SUCCESS;
}

pmix_status_t PackBytes(Writer& w, const pmix_byte_object_t& bo) {
  if (bo.bytes == nullptr && bo.size > 0) return PMIX_ERR_BAD_PARAM;
  NATIVE_TRY(w.Count(bo.size));
  w.Raw(bo.bytes, bo.size);
  return PMIX_SUCCESS;
}

pmix_status_t UnpackBytes(Reader& r, pmix_byte_object_t* bo) {
  return r.Blob(&bo->bytes, &bo->size);
}

// argv: u32 count (kNullLength for NULL) + that many strings.
pmix_status_t PackArgv(Writer& w, char** argv) {
  if (argv == nullptr) {
    w.U32(kNullLength);
    return PMIX_SUCCESS;
  }
  size_t n = 0;
  while (argv[n] != nullptr) ++n;
  NATIVE_TRY(w.Count(n));
  for (size_t i = 0; i < n; ++i) NATIVE_TRY(w.Str(argv[i]));
  return PMIX_SUCCESS;
}

pmix_status_t UnpackArgv(Reader& r, char*** out) {
  uint32_t n = 0;
  NATIVE_TRY(r.U32(&n));
  if (n == kNullLength) {
    *out = nullptr;
    return PMIX_SUCCESS;
  }
  if (n > r.left() / 4) return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
  NATIVE_TRY(r.ChargeArray(static_cast<size_t>(n) + 1, sizeof(char*)));
  auto** argv = static_cast<char**>(std::calloc(static_cast<size_t>(n) + 1, sizeof(char*)));
  if (argv == nullptr) return PMIX_ERR_NOMEM;
  for (uint32_t i = 0; i < n; ++i) {
    pmix_status_t rc = r.Str(&argv[i]);
    if (rc == PMIX_SUCCESS && argv[i] == nullptr) rc = PMIX_ERR_UNPACK_FAILURE;
    if (rc != PMIX_SUCCESS) {
      PMIx_Argv_free(argv);
      return rc;
    }
  }
  *out = argv;
  return PMIX_SUCCESS;
}

pmix_status_t PackProc(Writer& w, const pmix_proc_t& p) {
  NATIVE_TRY(w.Fixed(p.nspace, PMIX_MAX_NSLEN));
  w.U32(p.rank);
  return PMIX_SUCCESS;
}

pmix_status_t UnpackProc(Reader& r, pmix_proc_t* p) {
  NATIVE_TRY(r.Fixed(p->nspace, PMIX_MAX_NSLEN));
  return r.U32(&p->rank);
}

namespace {

pmix_status_t PackString(Writer& w, const void* e) { return w.Str(As<char*>(e)); }
pmix_status_t UnpackString(Reader& r, void* e) { return r.Str(&As<char*>(e)); }

pmix_status_t PackBo(Writer& w, const void* e) {
  return PackBytes(w, As<pmix_byte_object_t>(e));
}
pmix_status_t UnpackBo(Reader& r, void* e) {
  return UnpackBytes(r, &As<pmix_byte_object_t>(e));
}

pmix_status_t PackNspace(Writer& w, const void* e) {
  return w.Fixed(static_cast<const char*>(e), PMIX_MAX_NSLEN);
}
pmix_status_t UnpackNspace(Reader& r, void* e) {
  return r.Fixed(static_cast<char*>(e), PMIX_MAX_NSLEN);
}

pmix_status_t PackProcElement(Writer& w, const void* e) {
  return PackProc(w, As<pmix_proc_t>(e));
}
pmix_status_t UnpackProcElement(Reader& r, void* e) {
  return UnpackProc(r, &As<pmix_proc_t>(e));
}

pmix_status_t PackEnvar(Writer& w, const void* e) {
  const auto& v = As<pmix_envar_t>(e);
  NATIVE_TRY(w.Str(v.envar));
  NATIVE_TRY(w.Str(v.value));
  w.U8(static_cast<uint8_t>(v.separator));
  return PMIX_SUCCESS;
}
pmix_status_t UnpackEnvar(Reader& r, void* e) {
  auto& v = As<pmix_envar_t>(e);
  NATIVE_TRY(r.Str(&v.envar));
  NATIVE_TRY(r.Str(&v.value));
  uint8_t sep = 0;
  NATIVE_TRY(r.U8(&sep));
  v.separator = static_cast<char>(sep);
  return PMIX_SUCCESS;
}

constexpr TypeCodec Bytes(pmix_data_type_t type) {
  return {type, sizeof(pmix_byte_object_t), 4, &PackBo, &UnpackBo};
}

constexpr TypeCodec kRows[] = {
    {PMIX_STRING, sizeof(char*), 4, &PackString, &UnpackString},
    Bytes(PMIX_BYTE_OBJECT),
    Bytes(PMIX_COMPRESSED_STRING),
    // A regex element is a char* (as OpenPMIx 4.2 packs it); inside a value
    // it is a byte object (FindValueCodec).
    {PMIX_REGEX, sizeof(char*), 4, &PackString, &UnpackString},
    Bytes(PMIX_COMPRESSED_BYTE_OBJECT),
    {PMIX_PROC_NSPACE, sizeof(pmix_nspace_t), 4, &PackNspace, &UnpackNspace},
    {PMIX_PROC, sizeof(pmix_proc_t), 8, &PackProcElement, &UnpackProcElement, true},
    {PMIX_ENVAR, sizeof(pmix_envar_t), 9, &PackEnvar, &UnpackEnvar},
};

}  // namespace

const TypeCodec* RegexValueCodec() {
  static constexpr TypeCodec kRegexValue = Bytes(PMIX_REGEX);
  return &kRegexValue;
}

const TypeCodec* StringCodecs(size_t* n) {
  *n = sizeof(kRows) / sizeof(kRows[0]);
  return kRows;
}

}  // namespace pmix::bfrops::native
