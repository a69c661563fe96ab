#include "test/unit/jobinfo/jobinfo_test_util.h"

#include "mca/gds/base/image.h"

#include <fcntl.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "src/common/print.h"
#include "test/unit/gds/region_test_util.h"

namespace pmix::jobinfo::test {
namespace {

pmix_proc_t Proc(const char* nspace, pmix_rank_t rank) {
  pmix_proc_t proc;
  PMIX_LOAD_PROCID(&proc, nspace, rank);
  return proc;
}

std::string Describe(const pmix_value_t& value) {
  std::string out;
  PrintValue(&out, "", value);
  return out;
}

std::string Label(const pmix_info_t& id) {
  if (id.value.type == PMIX_STRING) return id.value.data.string;
  return std::to_string(id.value.data.uint32);
}

gds::Where WhereOf(pmix_gds_realm_t realm, const pmix_info_t& id) {
  switch (realm) {
    case PMIX_GDS_REALM_APP:
      return gds::Where::App(id.value.data.uint32);
    case PMIX_GDS_REALM_SESSION:
      return gds::Where::Session(id.value.data.uint32);
    case PMIX_GDS_REALM_NODE:
      return id.value.type == PMIX_STRING ? gds::Where::Host(id.value.data.string)
                                          : gds::Where::NodeId(id.value.data.uint32);
    default:
      return gds::Where::Proc();
  }
}

}  // namespace

const char* ShmemMissing() {
  static const bool sealing = gds::test::MemfdSealingWorks();
  if (!sealing) return nullptr;
  auto shared = gds::AttachableModules();
  if (shared.ok() && std::ranges::find(*shared, "shmem") != shared->end()) return nullptr;
  static std::string why;
  const char* path = std::getenv("PMIX_MCA_mca_base_component_path");
  const char* gds = std::getenv("PMIX_MCA_gds");
  why = "memfds seal here, so gds/shmem must be selected, but it is not (component path \"" +
        std::string(path != nullptr ? path : "(unset)") + "\", PMIX_MCA_gds \"" +
        std::string(gds != nullptr ? gds : "(unset)") +
        "\"): the image matrix would cover the heap only";
  return why.c_str();
}

Infos::~Infos() {
  for (size_t i = 0; i < infos_.size(); ++i) {
    if (owned_[i]) PMIx_Info_destruct(&infos_[i]);
  }
}

Infos& Infos::Raw(const pmix_info_t& info) {
  infos_.push_back(info);
  owned_.push_back(false);
  return *this;
}

Infos& Infos::Load(const char* key, const void* data, pmix_data_type_t type) {
  pmix_info_t info;
  PMIx_Info_construct(&info);
  EXPECT_EQ(PMIx_Info_load(&info, key, data, type), PMIX_SUCCESS) << key;
  infos_.push_back(info);
  owned_.push_back(true);
  return *this;
}

Infos& Infos::RawArray(const char* key, pmix_data_type_t type, const void* array, size_t size) {
  arrays_.push_back(pmix_data_array_t{type, size, const_cast<void*>(array)});
  pmix_info_t info;
  std::memset(&info, 0, sizeof(info));
  PMIX_LOAD_KEY(info.key, key);
  info.value.type = PMIX_DATA_ARRAY;
  info.value.data.darray = &arrays_.back();
  return Raw(info);
}

Infos& Infos::Array(const char* key, const Infos& inner) {
  pmix_data_array_t array;
  array.type = PMIX_INFO;
  array.size = inner.infos_.size();
  array.array = const_cast<pmix_info_t*>(inner.infos_.data());
  return Load(key, &array, PMIX_DATA_ARRAY);
}

std::string RankList(pmix_rank_t first, pmix_rank_t n) {
  std::string out;
  for (pmix_rank_t r = first; r < first + n; ++r)
    out += (out.empty() ? "" : ",") + std::to_string(r);
  return out;
}

void IngestTest::SetUp() {
  auto module = gds::Default();
  ASSERT_TRUE(module.ok()) << module.status().code();
  auto store = gds::Store::Create(*module);
  ASSERT_TRUE(store.ok());
  store_.emplace(std::move(*store));
}

Result<Summary> IngestTest::Run(const char* nspace, int nlocal, const Infos& infos,
                                const char* local_host) {
  Context ctx;
  ctx.local_hostname = local_host;
  auto summary = Ingest(*store_, nspace, nlocal, infos.span(), ctx);
  if (summary.ok() && !summary->nodata) CheckRegistrationRoundTrip(nspace, nlocal, ctx);
  return summary;
}

// Every image gives back an equivalent registration: ingested into a fresh
// store, it answers exactly as the original (what the server relies on to
// register a namespace again with additions). And the same image answers
// every realm and derived key the same in every medium (one matrix over
// every registration of these tests: Open MPI's, Slurm's, ...): on the
// heap (a gds/hash server's, or a copy received inline), in a sealed
// region of each selected module with shared regions as its maker reads
// it (gds/shmem), and as another process attaches it by descriptor. Where
// memfds seal, gds/shmem must be among them (ShmemMissing): the matrix
// never shrinks to the heap unnoticed; ImageMatrix.CoversShmemWhereMemfdsSeal
// says when this system cannot have it.
void IngestTest::CheckRegistrationRoundTrip(const char* nspace, int nlocal, const Context& ctx) {
  if (const char* why = ShmemMissing()) FAIL() << why;
  auto image = store_->FindImage(nspace);
  ASSERT_NE(image, nullptr);
  auto registration = image->Registration();
  ASSERT_TRUE(registration.ok()) << registration.status().code();
  auto module = gds::Default();
  ASSERT_TRUE(module.ok());
  auto expected = Snapshot(nspace);
  // Sessions other namespaces brought are not part of this registration.
  std::erase_if(expected, [&image](const auto& kv) {
    if (kv.first.rfind("4/", 0) != 0) return false;
    return !image->HasSession(static_cast<uint32_t>(std::stoul(kv.first.substr(2))));
  });
  std::vector<const pmix_gds_module_t*> media = {ctx.medium};
  auto shared = gds::AttachableModules();
  ASSERT_TRUE(shared.ok()) << shared.status().code();
  for (const std::string& name : *shared) media.push_back(gds::ByName(name).value());
  if (ctx.medium != nullptr) media.push_back(nullptr);
  for (const pmix_gds_module_t* medium : media) {
    std::string label = medium != nullptr ? medium->name : "heap";
    auto fresh = gds::Store::Create(*module);
    ASSERT_TRUE(fresh.ok());
    Context in = ctx;
    in.medium = medium;
    auto again = Ingest(*fresh, nspace, nlocal, registration->view(), in);
    ASSERT_TRUE(again.ok()) << again.status().code() << " " << label;
    auto laid_out = fresh->FindImage(nspace);
    ASSERT_NE(laid_out, nullptr);
    EXPECT_EQ(laid_out->region().medium(), label);
    std::optional<gds::Store> original(std::move(*store_));
    store_.emplace(std::move(*fresh));
    auto replayed = Snapshot(nspace);
    std::swap(store_, original);
    EXPECT_EQ(replayed, expected) << "registration round trip of " << nspace << " in " << label;
    if (medium == nullptr) continue;
    // As a client of this node gets it: the sealed region's descriptor.
    int fd = ::fcntl(laid_out->region().fd(), F_DUPFD_CLOEXEC, 0);
    ASSERT_GE(fd, 0) << label;
    auto attached = gds::Region::Attach(medium, fd, laid_out->region().size());
    ASSERT_TRUE(attached.ok()) << attached.status().code() << " " << label;
    auto opened = gds::Image::Open(std::move(*attached));
    ASSERT_TRUE(opened.ok()) << opened.status().code() << " " << label;
    auto client = gds::Store::Create(*module);
    ASSERT_TRUE(client.ok());
    client->AttachImage(std::move(*opened));
    original.emplace(std::move(*store_));
    store_.emplace(std::move(*client));
    auto mapped = Snapshot(nspace);
    std::swap(store_, original);
    EXPECT_EQ(mapped, expected) << nspace << " attached by descriptor (" << label << ")";
  }
}

gds::ValuePtr IngestTest::Get(const char* nspace, pmix_rank_t rank, const char* key,
                              const gds::Where& where) const {
  gds::Where at = where;
  if (at.realm == PMIX_GDS_REALM_PROC && !PMIX_RANK_IS_VALID(rank)) at = gds::Where::Job();
  auto value = store_->FetchValue(Proc(nspace, rank), at, PMIX_GDS_VIEW_ALL, key);
  if (!value.ok()) return nullptr;
  return std::move(*value);
}

pmix_status_t IngestTest::GetStatus(const char* nspace, pmix_rank_t rank, const char* key,
                                    const gds::Where& where) const {
  gds::Where at = where;
  if (at.realm == PMIX_GDS_REALM_PROC && !PMIX_RANK_IS_VALID(rank)) at = gds::Where::Job();
  return store_->FetchValue(Proc(nspace, rank), at, PMIX_GDS_VIEW_ALL, key).status().code();
}

#define PMIXX_EXPECT_VALUE(type_code, member)                                           \
  gds::ValuePtr v = Get(ns, rank, key, where);                                          \
  ASSERT_NE(v, nullptr) << key << " rank " << rank << " realm " << where.realm;         \
  ASSERT_EQ(v->type, type_code) << key << " rank " << rank << " realm " << where.realm; \
  EXPECT_EQ(v->data.member, want) << key << " rank " << rank << " realm " << where.realm

void IngestTest::ExpectU32(const char* ns, pmix_rank_t rank, const char* key, uint32_t want,
                           const gds::Where& where) const {
  PMIXX_EXPECT_VALUE(PMIX_UINT32, uint32);
}

void IngestTest::ExpectU16(const char* ns, pmix_rank_t rank, const char* key, uint16_t want,
                           const gds::Where& where) const {
  PMIXX_EXPECT_VALUE(PMIX_UINT16, uint16);
}

void IngestTest::ExpectRank(const char* ns, pmix_rank_t rank, const char* key, pmix_rank_t want,
                            const gds::Where& where) const {
  PMIXX_EXPECT_VALUE(PMIX_PROC_RANK, rank);
}

void IngestTest::ExpectStr(const char* ns, pmix_rank_t rank, const char* key,
                           const std::string& want, const gds::Where& where) const {
  gds::ValuePtr v = Get(ns, rank, key, where);
  ASSERT_NE(v, nullptr) << key << " rank " << rank << " realm " << where.realm;
  ASSERT_EQ(v->type, PMIX_STRING) << key << " rank " << rank << " realm " << where.realm;
  EXPECT_EQ(std::string(v->data.string), want) << key << " rank " << rank;
}

#undef PMIXX_EXPECT_VALUE

void IngestTest::ExpectAbsent(const char* ns, pmix_rank_t rank, const char* key,
                              const gds::Where& where) const {
  EXPECT_EQ(GetStatus(ns, rank, key, where), PMIX_ERR_NOT_FOUND)
      << key << " rank " << rank << " realm " << where.realm;
}

std::map<std::string, std::string> IngestTest::Snapshot(const char* nspace) const {
  std::map<std::string, std::string> out;
  const pmix_proc_t job = Proc(nspace, PMIX_RANK_WILDCARD);
  auto add = [&](const std::string& prefix, const pmix_proc_t& proc, const gds::Where& where) {
    auto kvs = store_->Fetch(proc, where, PMIX_GDS_VIEW_ALL, "");
    if (!kvs.ok()) return;
    for (const pmix_info_t& kv : kvs->view()) out[prefix + "/" + kv.key] = Describe(kv.value);
  };
  add("job", job, gds::Where::Job());
  // Each rank's keys derived on demand (image.h), one by one: the first
  // ranks, the last and one past it.
  uint32_t size = 0;
  if (auto v = store_->FetchValue(job, gds::Where::Job(), PMIX_GDS_VIEW_ALL, PMIX_JOB_SIZE);
      v.ok() && (*v)->type == PMIX_UINT32)
    size = (*v)->data.uint32;
  std::vector<pmix_rank_t> ranks;
  for (pmix_rank_t r = 0; r < std::min<uint32_t>(size, 16); ++r) ranks.push_back(r);
  if (size > 16) ranks.push_back(size - 1);
  ranks.push_back(size);
  for (pmix_rank_t r : ranks) {
    for (const char* key : {PMIX_HOSTNAME, PMIX_NODEID, PMIX_LOCAL_RANK, PMIX_NODE_RANK,
                            PMIX_APPNUM, PMIX_APP_RANK, PMIX_GLOBAL_RANK}) {
      auto v = store_->FetchValue(Proc(nspace, r), gds::Where::Proc(), PMIX_GDS_VIEW_ALL, key);
      if (v.ok() || v.status().code() != PMIX_ERR_NOT_FOUND)
        out["derived/" + std::to_string(r) + "/" + key] =
            v.ok() ? Describe(**v) : "status " + std::to_string(v.status().code());
    }
  }
  const pmix_gds_realm_t realms[] = {PMIX_GDS_REALM_PROC, PMIX_GDS_REALM_APP, PMIX_GDS_REALM_NODE,
                                     PMIX_GDS_REALM_SESSION};
  for (pmix_gds_realm_t realm : realms) {
    auto ids = store_->Instances(job, realm);
    if (!ids.ok()) continue;
    for (const pmix_info_t& id : ids->view()) {
      std::string prefix = std::to_string(realm) + "/" + Label(id);
      pmix_proc_t proc = realm == PMIX_GDS_REALM_PROC ? Proc(nspace, id.value.data.rank) : job;
      add(prefix, proc, WhereOf(realm, id));
    }
  }
  return out;
}

}  // namespace pmix::jobinfo::test
