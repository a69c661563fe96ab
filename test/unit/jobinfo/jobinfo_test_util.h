// Helpers for the job-info tests: building registration arrays the way
// hosts do, a hash store per test, and reading keys back per realm.
#ifndef PMIXX_TEST_UNIT_JOBINFO_JOBINFO_TEST_UTIL_H
#define PMIXX_TEST_UNIT_JOBINFO_JOBINFO_TEST_UTIL_H

#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "mca/gds/base/gds_base.h"
#include "src/jobinfo/jobinfo.h"

namespace pmix::jobinfo::test {

// An info array whose values are owned copies (PMIx_Info_load), nested
// arrays included; released on destruction.
class Infos {
 public:
  Infos() = default;
  Infos(Infos&& other) = delete;
  Infos(const Infos&) = delete;
  Infos& operator=(const Infos&) = delete;
  ~Infos();

  Infos& U32(const char* key, uint32_t v) { return Load(key, &v, PMIX_UINT32); }
  Infos& U16(const char* key, uint16_t v) { return Load(key, &v, PMIX_UINT16); }
  Infos& U64(const char* key, uint64_t v) { return Load(key, &v, PMIX_UINT64); }
  Infos& Int(const char* key, int v) { return Load(key, &v, PMIX_INT); }
  Infos& Rank(const char* key, pmix_rank_t v) { return Load(key, &v, PMIX_PROC_RANK); }
  Infos& Bool(const char* key, bool v) { return Load(key, &v, PMIX_BOOL); }
  Infos& Str(const char* key, const char* v) { return Load(key, v, PMIX_STRING); }
  Infos& Regex(const char* key, const char* v) { return Load(key, v, PMIX_REGEX); }
  // A PMIX_DATA_ARRAY of PMIX_INFO holding copies of inner's infos.
  Infos& Array(const char* key, const Infos& inner);
  Infos& Load(const char* key, const void* data, pmix_data_type_t type);
  // Appends `info` as is; it is not released (for malformed infos).
  Infos& Raw(const pmix_info_t& info);
  // A PMIX_DATA_ARRAY whose array member is `array` as is (borrowed, not
  // copied or released): for malformed or deeply nested arrays.
  Infos& RawArray(const char* key, pmix_data_type_t type, const void* array, size_t size);
  Infos& RawArray(const char* key, const Infos& inner) {
    return RawArray(key, PMIX_INFO, inner.infos_.data(), inner.infos_.size());
  }

  std::span<const pmix_info_t> span() const { return infos_; }
  size_t size() const { return infos_.size(); }

 private:
  std::vector<pmix_info_t> infos_;
  std::vector<bool> owned_;
  std::deque<pmix_data_array_t> arrays_;  // RawArray's headers
};

// "0,1,2" style comma list of ranks [first, first + n).
std::string RankList(pmix_rank_t first, pmix_rank_t n);

// Why the image matrix (IngestTest::CheckRegistrationRoundTrip) lacks gds
// shmem although memfds seal here (it is not on the component path, not
// built in, or deselected), or nullptr: it is selected, or this system
// cannot seal memfds (then shmem cannot work and is rightly absent).
const char* ShmemMissing();

class IngestTest : public ::testing::Test {
 protected:
  void SetUp() override;

  Result<Summary> Run(const char* nspace, int nlocal, const Infos& infos, const char* local_host);

  // One key of nspace: PROC realm for a valid rank, else JOB (rank
  // ignored) unless `where` names another realm.
  gds::ValuePtr Get(const char* nspace, pmix_rank_t rank, const char* key,
                    const gds::Where& where = gds::Where::Proc()) const;
  pmix_status_t GetStatus(const char* nspace, pmix_rank_t rank, const char* key,
                          const gds::Where& where = gds::Where::Proc()) const;
  void ExpectU32(const char* ns, pmix_rank_t rank, const char* key, uint32_t want,
                 const gds::Where& where = gds::Where::Proc()) const;
  void ExpectU16(const char* ns, pmix_rank_t rank, const char* key, uint16_t want,
                 const gds::Where& where = gds::Where::Proc()) const;
  void ExpectRank(const char* ns, pmix_rank_t rank, const char* key, pmix_rank_t want,
                  const gds::Where& where = gds::Where::Proc()) const;
  void ExpectStr(const char* ns, pmix_rank_t rank, const char* key, const std::string& want,
                 const gds::Where& where = gds::Where::Proc()) const;
  void ExpectAbsent(const char* ns, pmix_rank_t rank, const char* key,
                    const gds::Where& where = gds::Where::Proc()) const;

  // Everything the store holds for nspace (and every session), printed:
  // "<realm>/<instance>/<key>" -> value text.
  std::map<std::string, std::string> Snapshot(const char* nspace) const;
  void CheckRegistrationRoundTrip(const char* nspace, int nlocal, const Context& ctx);

  std::optional<gds::Store> store_;
};

}  // namespace pmix::jobinfo::test

#endif  // PMIXX_TEST_UNIT_JOBINFO_JOBINFO_TEST_UTIL_H
