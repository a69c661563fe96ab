// Fuzz target: the job-data image reader (mca/gds/base/image.h) on
// arbitrary bytes, as a client opens an image that came inline from its
// server (Region::Copy).
//
// Input: the image bytes themselves (test/fuzz/README.md). The seeds are
// images ingestion wrote, so that mutations get past the header check and
// reach the sections. When Open accepts the bytes, every lookup runs
// (image_test.cc's Exercise, wider): the job realm, the registration, the
// job's nodes and local ranks, every realm's instances and each one's
// keys, and single keys -- stored and derived -- for ranks in and out of
// the rank table, PMIX_RANK_UNDEF among them, by host and node id, app and
// session. Results are ignored: the finding is a crash, a wild read, an
// endless loop or an unbounded allocation, whatever the bytes.
//
// The lookups of the whole rank table (PROC instances, the registration,
// PMIX_RANK_UNDEF's search for the first rank holding a key) take time and
// memory in proportion to its ranks, and a few bytes describe billions of
// them as legitimately as eight (one rank run; a constant column gives
// them all a key; seed-4g-ranks-one-run): those lookups run only on
// tables of at most kMaxRanks. Each rank's own lookups run whatever the
// count, so the arithmetic of positions far into a huge run is covered.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

#include "mca/gds/base/image.h"
#include "mca/gds/base/image_derive.h"
#include "mca/gds/base/image_format.h"
#include "mca/gds/base/region.h"
#include "pmix.h"

namespace {

using pmix::gds::Image;
using pmix::gds::Region;
using pmix::gds::Where;

constexpr uint64_t kMaxRanks = 4096;

// The number of ranks of an image Open accepted: its last run's position
// plus count (Open checked that the runs count positions without gaps).
uint64_t NumRanks(const Image& image) {
  namespace format = pmix::gds::image;
  std::span<const uint8_t> bytes = image.region().bytes();
  format::Header header;
  std::memcpy(&header, bytes.data(), sizeof header);
  const format::SectionRef& runs = header.sections[format::kRankRuns];
  if (runs.size == 0) return 0;
  format::RankRun last;
  std::memcpy(&last, bytes.data() + runs.offset + runs.size - sizeof last, sizeof last);
  return uint64_t{last.pos} + last.count;
}

// The keys the seeds store at some level (job, session, app, node, rank)
// and one no image has; besides, every key an image derives per rank.
constexpr const char* kStoredKeys[] = {
    PMIX_JOB_SIZE,   PMIX_LOCAL_PEERS,   PMIX_LOCAL_SIZE, PMIX_APP_SIZE, PMIX_WDIR, PMIX_UNIV_SIZE,
    PMIX_SESSION_ID, PMIX_REINCARNATION, "custom",        "nested",      "var",     "odd",
    "vendor.key",    "no.such.key",
};

// Each of those keys, looked up alone.
void FetchKeys(const Image& image, const pmix_proc_t& proc, const Where& where) {
  for (const auto& [key, derived] : pmix::gds::image::kDerivedKeys)
    (void)image.FetchValue(proc, where, key);
  for (const char* key : kStoredKeys) (void)image.FetchValue(proc, where, key);
}

// Every key of each instance of realm (at most 8 of them), and each of
// those keys again as a single lookup.
void FetchInstances(const Image& image, const pmix_proc_t& job, pmix_gds_realm_t realm) {
  auto ids = image.Instances(realm);
  if (!ids.ok()) return;
  for (size_t i = 0; i < ids->size() && i < 8; ++i) {
    const pmix_info_t& id = (*ids)[i];
    pmix_proc_t proc = job;
    Where where = Where::Proc();
    if (realm == PMIX_GDS_REALM_PROC) proc.rank = id.value.data.rank;
    if (realm == PMIX_GDS_REALM_APP) where = Where::App(id.value.data.uint32);
    if (realm == PMIX_GDS_REALM_SESSION) where = Where::Session(id.value.data.uint32);
    if (realm == PMIX_GDS_REALM_NODE) {
      where = id.value.type == PMIX_UINT32 ? Where::NodeId(id.value.data.uint32)
                                           : Where::Host(id.value.data.string);
    }
    auto all = image.Fetch(proc, where, "");
    if (!all.ok()) continue;
    for (const pmix_info_t& kv : all->view()) (void)image.FetchValue(proc, where, kv.key);
  }
}

void Exercise(const Image& image) {
  pmix_proc_t job{};
  PMIX_LOAD_NSPACE(job.nspace, std::string(image.nspace()).c_str());
  job.rank = PMIX_RANK_WILDCARD;
  const bool whole_table = NumRanks(image) <= kMaxRanks;
  (void)image.Fetch(job, Where::Job(), "");
  if (whole_table) (void)image.Registration();
  (void)image.JobNodes();
  (void)image.LocalRanks();
  for (pmix_gds_realm_t realm : {PMIX_GDS_REALM_APP, PMIX_GDS_REALM_NODE, PMIX_GDS_REALM_SESSION})
    FetchInstances(image, job, realm);
  if (whole_table) FetchInstances(image, job, PMIX_GDS_REALM_PROC);
  // Ranks of the seeds, past their end, the largest valid one and the
  // special ones (UNDEF: the first rank holding the key; WILDCARD: the job).
  for (pmix_rank_t rank :
       {0u, 3u, 7u, 15u, 16u, 1u << 20, PMIX_RANK_VALID - 1, PMIX_RANK_UNDEF, PMIX_RANK_WILDCARD}) {
    if (rank == PMIX_RANK_UNDEF && !whole_table) continue;
    pmix_proc_t proc = job;
    proc.rank = rank;
    (void)image.Fetch(proc, Where::Proc(), "");
    Where app_of_rank = Where::Proc();
    app_of_rank.realm = PMIX_GDS_REALM_APP;  // the app of proc's rank
    (void)image.Fetch(proc, app_of_rank, "");
    FetchKeys(image, proc, Where::Proc());
  }
  Where job_session = Where::Proc();
  job_session.realm = PMIX_GDS_REALM_SESSION;  // the job's own session
  for (const Where& where :
       {Where::Job(), Where::Host("n1"), Where::Host("node00001"), Where::Host("nowhere"),
        Where::NodeId(0), Where::NodeId(1), Where::NodeId(1u << 31), Where::App(0), Where::App(7),
        Where::Session(3), Where::Session(0), job_session}) {
    (void)image.Fetch(job, where, "");
    FetchKeys(image, job, where);
  }
  (void)image.HasSession(3);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto region = Region::Copy(std::span<const uint8_t>(data, size));
  if (!region.ok()) return 0;
  auto image = Image::Open(std::move(*region));
  if (image.ok()) Exercise(**image);
  return 0;
}
