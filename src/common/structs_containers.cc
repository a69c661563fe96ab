// Support functions for the container structs of the standard: data
// buffer, pdata, app, query, regattr, data array and fabric. Contracts:
// struct_helpers.h.
#include <cstdlib>
#include <cstring>

#include "pmix.h"
#include "src/common/data_types.h"
#include "src/common/struct_helpers.h"

using pmix::ConstructStruct;
using pmix::CreateStructs;
using pmix::DestructStruct;
using pmix::FreeStructs;
using pmix::ReleaseStruct;

extern "C" {

// --- data buffer ---
void PMIx_Data_buffer_construct(pmix_data_buffer_t* b) {
  ConstructStruct<PMIX_DATA_BUFFER>(b);
}
void PMIx_Data_buffer_destruct(pmix_data_buffer_t* b) {
  DestructStruct<PMIX_DATA_BUFFER>(b);
}
pmix_data_buffer_t* PMIx_Data_buffer_create(void) {
  return CreateStructs<PMIX_DATA_BUFFER, pmix_data_buffer_t>(1);
}
void PMIx_Data_buffer_release(pmix_data_buffer_t* b) {
  ReleaseStruct<PMIX_DATA_BUFFER>(b);
}
// Replaces the payload by `bytes` (ownership taken, nothing copied); the
// whole payload is unread.
void PMIx_Data_buffer_load(pmix_data_buffer_t* b, char* bytes, size_t sz) {
  if (b == nullptr) return;
  PMIx_Data_buffer_destruct(b);
  if (bytes == nullptr) return;
  b->base_ptr = bytes;
  b->unpack_ptr = bytes;
  b->pack_ptr = bytes + sz;
  b->bytes_allocated = sz;
  b->bytes_used = sz;
}
// Hands the unread part of the payload to the caller (malloc'd; *bytes =
// NULL and *sz = 0 when nothing is unread) and empties the buffer, as the
// standard's PMIx_Data_unload does. On allocation failure the buffer is
// left as it was and *bytes = NULL, *sz = 0.
void PMIx_Data_buffer_unload(pmix_data_buffer_t* b, char** bytes, size_t* sz) {
  if (b == nullptr || bytes == nullptr || sz == nullptr) return;
  *bytes = nullptr;
  *sz = 0;
  size_t consumed = b->unpack_ptr == nullptr
                        ? 0
                        : static_cast<size_t>(b->unpack_ptr - b->base_ptr);
  if (b->base_ptr == nullptr || consumed >= b->bytes_used) {
    PMIx_Data_buffer_destruct(b);
    return;
  }
  size_t unread = b->bytes_used - consumed;
  if (consumed == 0) {  // give the whole allocation away, no copy needed
    *bytes = b->base_ptr;
    b->base_ptr = nullptr;
  } else {
    *bytes = static_cast<char*>(std::malloc(unread));
    if (*bytes == nullptr) return;
    std::memcpy(*bytes, b->unpack_ptr, unread);
  }
  *sz = unread;
  PMIx_Data_buffer_destruct(b);
}

// --- pdata ---
void PMIx_Pdata_construct(pmix_pdata_t* p) { ConstructStruct<PMIX_PDATA>(p); }
void PMIx_Pdata_destruct(pmix_pdata_t* p) { DestructStruct<PMIX_PDATA>(p); }
pmix_pdata_t* PMIx_Pdata_create(size_t n) {
  return CreateStructs<PMIX_PDATA, pmix_pdata_t>(n);
}
void PMIx_Pdata_free(pmix_pdata_t* p, size_t n) {
  FreeStructs<PMIX_PDATA>(p, n);
}

// --- app ---
void PMIx_App_construct(pmix_app_t* p) { ConstructStruct<PMIX_APP>(p); }
void PMIx_App_destruct(pmix_app_t* p) { DestructStruct<PMIX_APP>(p); }
pmix_app_t* PMIx_App_create(size_t n) {
  return CreateStructs<PMIX_APP, pmix_app_t>(n);
}
void PMIx_App_free(pmix_app_t* p, size_t n) { FreeStructs<PMIX_APP>(p, n); }
// Replaces p->info by `n` fresh infos (as PMIX_APP_INFO_CREATE: any
// previous array is not released).
void PMIx_App_info_create(pmix_app_t* p, size_t n) {
  if (p == nullptr) return;
  p->info = PMIx_Info_create(n);
  p->ninfo = p->info == nullptr ? 0 : n;
}
void PMIx_App_release(pmix_app_t* p) { ReleaseStruct<PMIX_APP>(p); }

// --- query ---
void PMIx_Query_construct(pmix_query_t* p) { ConstructStruct<PMIX_QUERY>(p); }
void PMIx_Query_destruct(pmix_query_t* p) { DestructStruct<PMIX_QUERY>(p); }
pmix_query_t* PMIx_Query_create(size_t n) {
  return CreateStructs<PMIX_QUERY, pmix_query_t>(n);
}
void PMIx_Query_free(pmix_query_t* p, size_t n) {
  FreeStructs<PMIX_QUERY>(p, n);
}
void PMIx_Query_qualifiers_create(pmix_query_t* p, size_t n) {
  if (p == nullptr) return;
  p->qualifiers = PMIx_Info_create(n);
  p->nqual = p->qualifiers == nullptr ? 0 : n;
}
void PMIx_Query_release(pmix_query_t* p) { ReleaseStruct<PMIX_QUERY>(p); }

// --- regattr ---
void PMIx_Regattr_construct(pmix_regattr_t* p) {
  ConstructStruct<PMIX_REGATTR>(p);
}
void PMIx_Regattr_destruct(pmix_regattr_t* p) {
  DestructStruct<PMIX_REGATTR>(p);
}
pmix_regattr_t* PMIx_Regattr_create(size_t n) {
  return CreateStructs<PMIX_REGATTR, pmix_regattr_t>(n);
}
void PMIx_Regattr_free(pmix_regattr_t* p, size_t n) {
  FreeStructs<PMIX_REGATTR>(p, n);
}
// Fills a constructed regattr: copies name and key, appends `description`
// as one line; NULL arguments leave their field alone. On allocation
// failure the field stays unset.
void PMIx_Regattr_load(pmix_regattr_t* info, const char* name, const char* key,
                       pmix_data_type_t type, const char* description) {
  if (info == nullptr) return;
  if (name != nullptr) {
    char* copy = strdup(name);
    if (copy != nullptr) {
      std::free(info->name);
      info->name = copy;
    }
  }
  if (key != nullptr) pmix::CopyBounded(info->string, key, PMIX_MAX_KEYLEN);
  info->type = type;
  if (description != nullptr) {
    (void)PMIx_Argv_append_nosize(&info->description, description);
  }
}
// dest is treated as raw storage; on allocation failure it is left
// constructed.
void PMIx_Regattr_xfer(pmix_regattr_t* dest, const pmix_regattr_t* src) {
  if (dest == nullptr || src == nullptr) return;
  (void)pmix::CopyElement(*pmix::FindDataType(PMIX_REGATTR), dest, src);
}

// --- data array ---
void PMIx_Data_array_init(pmix_data_array_t* p, pmix_data_type_t type) {
  if (p == nullptr) return;
  *p = pmix_data_array_t{type, 0, nullptr};
}
// Allocates `num` constructed elements of `type`; an unknown or
// element-less type (or allocation failure) yields size 0 and no array.
void PMIx_Data_array_construct(pmix_data_array_t* p, size_t num,
                               pmix_data_type_t type) {
  if (p == nullptr) return;
  void* array = pmix::CreateArray(type, num);
  *p = pmix_data_array_t{type, array == nullptr ? 0 : num, array};
}
void PMIx_Data_array_destruct(pmix_data_array_t* d) {
  if (d != nullptr) pmix::DestructDataArray(d);
}
pmix_data_array_t* PMIx_Data_array_create(size_t n, pmix_data_type_t type) {
  auto* d =
      static_cast<pmix_data_array_t*>(std::malloc(sizeof(pmix_data_array_t)));
  if (d != nullptr) PMIx_Data_array_construct(d, n, type);
  return d;
}
void PMIx_Data_array_free(pmix_data_array_t* p) {
  if (p == nullptr) return;
  pmix::DestructDataArray(p);
  std::free(p);
}

// --- fabric ---
void PMIx_Fabric_construct(pmix_fabric_t* p) {
  if (p != nullptr) std::memset(p, 0, sizeof *p);
}

}  // extern "C"
