#include "src/common/info_list.h"

#include <cstring>
#include <memory>

#include "pmix.h"
#include "src/common/api_guard.h"
#include "src/common/data_types.h"
#include "src/common/value_ops.h"

namespace pmix {
namespace {

const DataTypeOps& InfoOps() { return *FindDataType(PMIX_INFO); }

}  // namespace

InfoList::~InfoList() {
  for (pmix_info_t& info : items_) DestructElement(InfoOps(), &info);
  tag_ = 0;
}

void InfoList::ReserveOne() {
  if (items_.size() < items_.capacity()) return;
  items_.reserve(items_.empty() ? 8 : 2 * items_.size());
}

void InfoList::Append(const pmix_info_t& info) noexcept {
  items_.push_back(info);  // within the capacity ReserveOne made
}

Status InfoList::Add(const char* key, const void* data, pmix_data_type_t type) {
  if (key == nullptr || strnlen(key, PMIX_MAX_KEYLEN + 1) > PMIX_MAX_KEYLEN) {
    return PMIX_ERR_BAD_PARAM;
  }
  ReserveOne();
  pmix_info_t info;
  ConstructElement(InfoOps(), &info);
  PMIX_RETURN_IF_ERROR(LoadValue(&info.value, data, type));
  CopyBounded(info.key, key, PMIX_MAX_KEYLEN);
  Append(info);
  return Status();
}

Status InfoList::Xfer(const pmix_info_t& src) {
  ReserveOne();
  pmix_info_t info;
  PMIX_RETURN_IF_ERROR(CopyElement(InfoOps(), &info, &src));
  Append(info);
  return Status();
}

Status InfoList::Insert(const pmix_info_t& src) {
  ReserveOne();
  pmix_info_t info = src;
  info.flags |= PMIX_INFO_PERSISTENT;
  Append(info);
  return Status();
}

Status InfoList::Convert(pmix_data_array_t* out) const {
  if (items_.empty()) {
    *out = pmix_data_array_t{PMIX_INFO, 0, nullptr};
    return PMIX_ERR_EMPTY;
  }
  void* array = nullptr;
  PMIX_RETURN_IF_ERROR(
      CopyArray(PMIX_INFO, items_.data(), items_.size(), &array));
  *out = pmix_data_array_t{PMIX_INFO, items_.size(), array};
  return Status();
}

}  // namespace pmix

namespace {

pmix::InfoList* ListFrom(void* ptr) {
  auto* list = static_cast<pmix::InfoList*>(ptr);
  return list != nullptr && list->IsValid() ? list : nullptr;
}

}  // namespace

extern "C" {

void* PMIx_Info_list_start(void) {
  return pmix::ApiGuardValue(
      "PMIx_Info_list_start", static_cast<void*>(nullptr), [] {
        return static_cast<void*>(std::make_unique<pmix::InfoList>().release());
      });
}

// Deviations from OpenPMIx 4.2.2 (which returns success): a NULL or
// overlong key and an unknown type are refused.
pmix_status_t PMIx_Info_list_add(void* ptr, const char* key, const void* value,
                                 pmix_data_type_t type) {
  return pmix::ApiGuard("PMIx_Info_list_add", [&]() -> pmix::Status {
    pmix::InfoList* list = ListFrom(ptr);
    if (list == nullptr) return PMIX_ERR_BAD_PARAM;
    return list->Add(key, value, type);
  });
}

// The list references `info`'s data without copying it (OpenPMIx 4.2.2
// semantics); the caller keeps ownership.
pmix_status_t PMIx_Info_list_insert(void* ptr, pmix_info_t* info) {
  return pmix::ApiGuard("PMIx_Info_list_insert", [&]() -> pmix::Status {
    pmix::InfoList* list = ListFrom(ptr);
    if (list == nullptr || info == nullptr) return PMIX_ERR_BAD_PARAM;
    return list->Insert(*info);
  });
}

pmix_status_t PMIx_Info_list_xfer(void* ptr, const pmix_info_t* info) {
  return pmix::ApiGuard("PMIx_Info_list_xfer", [&]() -> pmix::Status {
    pmix::InfoList* list = ListFrom(ptr);
    if (list == nullptr || info == nullptr) return PMIX_ERR_BAD_PARAM;
    return list->Xfer(*info);
  });
}

pmix_status_t PMIx_Info_list_convert(void* ptr, pmix_data_array_t* par) {
  return pmix::ApiGuard("PMIx_Info_list_convert", [&]() -> pmix::Status {
    pmix::InfoList* list = ListFrom(ptr);
    if (list == nullptr || par == nullptr) return PMIX_ERR_BAD_PARAM;
    return list->Convert(par);
  });
}

void PMIx_Info_list_release(void* ptr) {
  std::unique_ptr<pmix::InfoList> owned(ListFrom(ptr));
}

}  // extern "C"
