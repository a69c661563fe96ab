// pmix::InfoList: the object behind the opaque void* of the standard's
// PMIx_Info_list_* API (§3.2.9.2), usable internally as a growable list of
// pmix_info_t.
//
// Ownership: every entry is owned by the list and released with it, except
// entries added by Insert, which alias the caller's data (they carry
// PMIX_INFO_PERSISTENT, so neither the list nor arrays converted from it
// release that data). Methods leave the list unchanged on failure.
// Thread safety: none; one list belongs to one thread at a time.
#ifndef PMIXX_SRC_COMMON_INFO_LIST_H
#define PMIXX_SRC_COMMON_INFO_LIST_H

#include <cstdint>
#include <vector>

#include "pmix_common.h"
#include "src/common/status.h"

namespace pmix {

class InfoList {
 public:
  InfoList() = default;
  ~InfoList();
  InfoList(const InfoList&) = delete;
  InfoList& operator=(const InfoList&) = delete;

  // False for a pointer that is not a live InfoList (best effort: detects
  // released lists and foreign objects that do not start with our tag).
  bool IsValid() const { return tag_ == kTag; }

  // Appends a copy of key/data (PMIx_Info_load semantics: key must be
  // non-NULL and at most PMIX_MAX_KEYLEN chars, else PMIX_ERR_BAD_PARAM).
  Status Add(const char* key, const void* data, pmix_data_type_t type);

  // Appends a copy of `info` including its directives.
  Status Xfer(const pmix_info_t& info);

  // Appends `info` without copying its data; the caller keeps ownership and
  // must keep the data alive while the list or its conversions use it.
  Status Insert(const pmix_info_t& info);

  // Writes a new malloc'd array of copies into *out ({PMIX_INFO, n, array}).
  // An empty list yields {PMIX_INFO, 0, NULL} and PMIX_ERR_EMPTY, as in
  // OpenPMIx 4.2.2.
  Status Convert(pmix_data_array_t* out) const;

  size_t size() const { return items_.size(); }

 private:
  static constexpr uint64_t kTag = 0x504d4958494e464full;  // "PMIXINFO"

  // Makes room for one more entry (may throw std::bad_alloc, before
  // anything needs undoing); Append then cannot fail.
  void ReserveOne();
  void Append(const pmix_info_t& info) noexcept;

  uint64_t tag_ = kTag;
  std::vector<pmix_info_t> items_;
};

}  // namespace pmix

#endif  // PMIXX_SRC_COMMON_INFO_LIST_H
