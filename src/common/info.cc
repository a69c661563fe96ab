// The pmix_info_t API (standard §3.2.9, §3.2.10): load/xfer, the support
// functions behind the PMIX_INFO_* macros, the directive flag helpers, and
// the boolean reading of values and infos (PMIx_Value_true, PMIx_Info_true).
#include <strings.h>

#include <cctype>
#include <cstdlib>
#include <cstring>

#include "pmix.h"
#include "src/common/api_guard.h"
#include "src/common/data_types.h"
#include "src/common/value_ops.h"

namespace {

bool KeyTooLong(const char* key) {
  return strnlen(key, PMIX_MAX_KEYLEN + 1) > PMIX_MAX_KEYLEN;
}

// OpenPMIx's reading of a string as a boolean: blank means true, a number
// is true when nonzero, yes/true and no/false (any case, as prefixes).
pmix_boolean_t StringTruth(const char* s) {
  if (s == nullptr) return PMIX_BOOL_TRUE;
  while (std::isspace(static_cast<unsigned char>(*s))) ++s;
  if (*s == '\0') return PMIX_BOOL_TRUE;
  if (std::isdigit(static_cast<unsigned char>(*s))) {
    return std::atoi(s) != 0 ? PMIX_BOOL_TRUE : PMIX_BOOL_FALSE;
  }
  if (strncasecmp(s, "yes", 3) == 0 || strncasecmp(s, "true", 4) == 0) {
    return PMIX_BOOL_TRUE;
  }
  if (strncasecmp(s, "no", 2) == 0 || strncasecmp(s, "false", 5) == 0) {
    return PMIX_BOOL_FALSE;
  }
  return PMIX_NON_BOOL;
}

}  // namespace

extern "C" {

// Deviation from OpenPMIx 4.2.2: a key longer than PMIX_MAX_KEYLEN is
// refused (PMIX_ERR_BAD_PARAM) instead of silently truncated.
pmix_status_t PMIx_Info_load(pmix_info_t* info, const char* key,
                             const void* data, pmix_data_type_t type) {
  return pmix::ApiGuard("PMIx_Info_load", [&]() -> pmix::Status {
    if (info == nullptr || key == nullptr || KeyTooLong(key)) {
      return PMIX_ERR_BAD_PARAM;
    }
    pmix_value_t value;
    PMIX_RETURN_IF_ERROR(pmix::LoadValue(&value, data, type));
    pmix::CopyBounded(info->key, key, PMIX_MAX_KEYLEN);
    info->flags = 0;
    info->value = value;
    return pmix::Status();
  });
}

// Copies key, directives and value. A source flagged PMIX_INFO_PERSISTENT
// is copied shallowly, as OpenPMIx does (its owner keeps the data).
pmix_status_t PMIx_Info_xfer(pmix_info_t* dest, const pmix_info_t* src) {
  return pmix::ApiGuard("PMIx_Info_xfer", [&]() -> pmix::Status {
    if (dest == nullptr || src == nullptr) return PMIX_ERR_BAD_PARAM;
    pmix_info_t copy;
    PMIX_RETURN_IF_ERROR(
        pmix::CopyElement(*pmix::FindDataType(PMIX_INFO), &copy, src));
    std::memcpy(dest, &copy, sizeof copy);
    return pmix::Status();
  });
}

void PMIx_Info_construct(pmix_info_t* p) {
  if (p != nullptr) pmix::ConstructElement(*pmix::FindDataType(PMIX_INFO), p);
}

// Like PMIX_INFO_DESTRUCT in OpenPMIx: the value of a persistent info is
// not released.
void PMIx_Info_destruct(pmix_info_t* p) {
  if (p != nullptr) pmix::DestructElement(*pmix::FindDataType(PMIX_INFO), p);
}

pmix_info_t* PMIx_Info_create(size_t n) {
  auto* infos = static_cast<pmix_info_t*>(pmix::CreateArray(PMIX_INFO, n));
  if (infos != nullptr) infos[n - 1].flags = PMIX_INFO_ARRAY_END;
  return infos;
}

void PMIx_Info_free(pmix_info_t* p, size_t n) {
  pmix::FreeArray(PMIX_INFO, p, n);
}

// A missing value (PMIX_UNDEF) means the key alone was given: true.
pmix_boolean_t PMIx_Value_true(const pmix_value_t* value) {
  if (value == nullptr) return PMIX_NON_BOOL;
  switch (value->type) {
    case PMIX_UNDEF:
      return PMIX_BOOL_TRUE;
    case PMIX_BOOL:
      return value->data.flag ? PMIX_BOOL_TRUE : PMIX_BOOL_FALSE;
    case PMIX_STRING:
      return StringTruth(value->data.string);
    default:
      return PMIX_NON_BOOL;
  }
}

bool PMIx_Info_true(const pmix_info_t* p) {
  return p != nullptr && PMIx_Value_true(&p->value) == PMIX_BOOL_TRUE;
}

void PMIx_Info_required(pmix_info_t* p) {
  if (p != nullptr) p->flags |= PMIX_INFO_REQD;
}

void PMIx_Info_optional(pmix_info_t* p) {
  if (p != nullptr)
    p->flags &= ~static_cast<pmix_info_directives_t>(PMIX_INFO_REQD);
}

bool PMIx_Info_is_required(const pmix_info_t* p) {
  return p != nullptr && (p->flags & PMIX_INFO_REQD) != 0;
}

bool PMIx_Info_is_optional(const pmix_info_t* p) {
  return p != nullptr && (p->flags & PMIX_INFO_REQD) == 0;
}

void PMIx_Info_processed(pmix_info_t* p) {
  if (p != nullptr) p->flags |= PMIX_INFO_REQD_PROCESSED;
}

bool PMIx_Info_was_processed(const pmix_info_t* p) {
  return p != nullptr && (p->flags & PMIX_INFO_REQD_PROCESSED) != 0;
}

void PMIx_Info_set_end(pmix_info_t* p) {
  if (p != nullptr) p->flags |= PMIX_INFO_ARRAY_END;
}

bool PMIx_Info_is_end(const pmix_info_t* p) {
  return p != nullptr && (p->flags & PMIX_INFO_ARRAY_END) != 0;
}

}  // extern "C"
