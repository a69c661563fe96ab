// The server's record store (src/server/modex_store.h): records kept and
// served as they came, views by scope, the key index, merging of repeated
// keys by the gds scope rules, and refusal of bad input without change.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <string>
#include <string_view>

#include "mca/bfrops/base/bfrops_base.h"
#include "pmix.h"
#include "mca/gds/base/gds_base.h"
#include "src/server/modex_store.h"
#include "src/wire/proc_data.h"
#include "test/unit/common/proc_ids.h"

namespace pmix::server::modex {
namespace {

using test::P;

// Owned key/values with string values.
wire::Infos Kvs(std::initializer_list<std::pair<const char*, const char*>> pairs) {
  wire::Infos out;
  for (const auto& [k, v] : pairs) EXPECT_TRUE(out.Add(k, v, PMIX_STRING).ok());
  return out;
}

class ModexStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto codec = bfrops::DefaultCodec();
    ASSERT_TRUE(codec.ok());
    codec_ = *codec;
  }
  wire::Bytes Encode(const pmix_proc_t& proc, const wire::Infos& kvs) {
    wire::Bytes out;
    EXPECT_TRUE(wire::AppendRecord(codec_, proc, kvs.view(), out).ok());
    return out;
  }
  Status Add(const pmix_proc_t& proc, pmix_scope_t scope,
             std::initializer_list<std::pair<const char*, const char*>> pairs) {
    wire::Infos kvs = Kvs(pairs);
    return store_.Add(proc, scope, Encode(proc, kvs), kvs.view());
  }
  // The value view sees, or "<status>".
  std::string Value(const pmix_proc_t& proc, pmix_gds_view_t view, const char* key) {
    auto v = store_.Fetch(proc, view, key);
    if (!v.ok()) return std::string("<") + PMIx_Error_string(v.status().code()) + ">";
    return (*v)->type == PMIX_STRING ? (*v)->data.string : "<type>";
  }
  // What a reader of the appended records would see: key -> value.
  std::map<std::string, std::string> Read(const pmix_proc_t& proc, pmix_gds_view_t view) {
    wire::Bytes out;
    store_.Append(proc, view, out);
    EXPECT_EQ(out.size(), store_.Size(proc, view));
    std::map<std::string, std::string> seen;
    auto records = wire::DecodeProcDataBlob(out);
    EXPECT_TRUE(records.ok());
    if (!records.ok()) return seen;
    for (const auto& rec : *records) {
      EXPECT_TRUE(PMIx_Check_procid(&rec.proc, &proc));
      for (const pmix_info_t& kv : rec.kvs.view()) {
        EXPECT_EQ(seen.count(kv.key), 0u) << "key " << kv.key << " seen twice";
        seen[kv.key] = kv.value.data.string;
      }
    }
    return seen;
  }

  const pmix_bfrops_module_t* codec_ = nullptr;
  Store store_;
  const pmix_proc_t p0_ = P("job", 0);
};

TEST_F(ModexStoreTest, ServesTheBytesAsCommitted) {
  wire::Infos kvs = Kvs({{"a", "1"}, {"b", "2"}});
  wire::Bytes record = Encode(p0_, kvs);
  ASSERT_TRUE(store_.Add(p0_, PMIX_GLOBAL, record, kvs.view()).ok());
  wire::Bytes out;
  EXPECT_EQ(store_.Append(p0_, PMIX_GDS_VIEW_LOCAL, out), 1u);
  EXPECT_EQ(out, record);
  std::vector<uint8_t> raw(store_.Size(p0_, PMIX_GDS_VIEW_REMOTE));
  EXPECT_EQ(store_.CopyTo(p0_, PMIX_GDS_VIEW_REMOTE, raw.data()), record.size());
  EXPECT_EQ(raw, record);
}

TEST_F(ModexStoreTest, ViewsFollowScopes) {
  ASSERT_TRUE(Add(p0_, PMIX_LOCAL, {{"l", "local"}}).ok());
  ASSERT_TRUE(Add(p0_, PMIX_REMOTE, {{"r", "remote"}}).ok());
  ASSERT_TRUE(Add(p0_, PMIX_GLOBAL, {{"g", "global"}}).ok());
  using M = std::map<std::string, std::string>;
  EXPECT_EQ(Read(p0_, PMIX_GDS_VIEW_LOCAL), (M{{"l", "local"}, {"g", "global"}}));
  EXPECT_EQ(Read(p0_, PMIX_GDS_VIEW_REMOTE), (M{{"r", "remote"}, {"g", "global"}}));
  EXPECT_EQ(Read(p0_, PMIX_GDS_VIEW_ALL).size(), 3u);
  EXPECT_TRUE(store_.Find(p0_, PMIX_GDS_VIEW_LOCAL, "l").ok());
  EXPECT_EQ(store_.Find(p0_, PMIX_GDS_VIEW_REMOTE, "l").code(), PMIX_ERR_EXISTS_OUTSIDE_SCOPE);
  EXPECT_EQ(store_.Find(p0_, PMIX_GDS_VIEW_LOCAL, "r").code(), PMIX_ERR_EXISTS_OUTSIDE_SCOPE);
  EXPECT_EQ(store_.Find(p0_, PMIX_GDS_VIEW_LOCAL, "nope").code(), PMIX_ERR_NOT_FOUND);
  EXPECT_TRUE(store_.Find(p0_, PMIX_GDS_VIEW_REMOTE, "").ok());
  EXPECT_EQ(Value(p0_, PMIX_GDS_VIEW_REMOTE, "r"), "remote");
  EXPECT_EQ(Value(p0_, PMIX_GDS_VIEW_REMOTE, "l"),
            std::string("<") + PMIx_Error_string(PMIX_ERR_EXISTS_OUTSIDE_SCOPE) + ">");
  EXPECT_EQ(Value(p0_, PMIX_GDS_VIEW_ALL, "g"), "global");
}

TEST_F(ModexStoreTest, OnlyLocalDataIsInvisibleRemotely) {
  ASSERT_TRUE(Add(p0_, PMIX_LOCAL, {{"l", "local"}}).ok());
  EXPECT_EQ(store_.Size(p0_, PMIX_GDS_VIEW_REMOTE), 0u);
  EXPECT_EQ(store_.Find(p0_, PMIX_GDS_VIEW_REMOTE, "").code(), PMIX_ERR_NOT_FOUND);
  EXPECT_EQ(store_.FetchAll(p0_, PMIX_GDS_VIEW_REMOTE).status().code(), PMIX_ERR_NOT_FOUND);
}

TEST_F(ModexStoreTest, HiddenKeysAreThoseNoScopeOfTheViewHolds) {
  ASSERT_TRUE(Add(p0_, PMIX_LOCAL, {{"l1", "a"}, {"both", "b"}, {"l2", "c"}}).ok());
  ASSERT_TRUE(Add(p0_, PMIX_REMOTE, {{"r", "d"}, {"both", "e"}}).ok());
  ASSERT_TRUE(Add(p0_, PMIX_GLOBAL, {{"g", "f"}}).ok());
  EXPECT_EQ(store_.HiddenKeys(p0_, PMIX_GDS_VIEW_REMOTE), (std::vector<std::string>{"l1", "l2"}));
  EXPECT_EQ(store_.HiddenKeys(p0_, PMIX_GDS_VIEW_LOCAL), (std::vector<std::string>{"r"}));
  EXPECT_TRUE(store_.HiddenKeys(p0_, PMIX_GDS_VIEW_ALL).empty());
  EXPECT_TRUE(store_.HiddenKeys(P("job", 1), PMIX_GDS_VIEW_REMOTE).empty());
  // Put again globally, a key is no longer hidden.
  ASSERT_TRUE(Add(p0_, PMIX_GLOBAL, {{"l1", "g"}}).ok());
  EXPECT_EQ(store_.HiddenKeys(p0_, PMIX_GDS_VIEW_REMOTE), (std::vector<std::string>{"l2"}));
}

TEST_F(ModexStoreTest, NewKeysAppendWithoutTouchingOlderRecords) {
  wire::Infos first = Kvs({{"a", "1"}});
  wire::Bytes one = Encode(p0_, first);
  ASSERT_TRUE(store_.Add(p0_, PMIX_GLOBAL, one, first.view()).ok());
  wire::Infos second = Kvs({{"b", "2"}});
  wire::Bytes two = Encode(p0_, second);
  ASSERT_TRUE(store_.Add(p0_, PMIX_GLOBAL, two, second.view()).ok());
  wire::Bytes out;
  EXPECT_EQ(store_.Append(p0_, PMIX_GDS_VIEW_ALL, out), 2u);
  wire::Bytes want = one;
  want.insert(want.end(), two.begin(), two.end());
  EXPECT_EQ(out, want);
}

TEST_F(ModexStoreTest, TheSameRecordTwiceIsKeptOnce) {
  ASSERT_TRUE(Add(p0_, PMIX_GLOBAL, {{"a", "1"}}).ok());
  wire::Bytes before;
  store_.Append(p0_, PMIX_GDS_VIEW_ALL, before);
  ASSERT_TRUE(Add(p0_, PMIX_GLOBAL, {{"a", "1"}}).ok());
  wire::Bytes after;
  store_.Append(p0_, PMIX_GDS_VIEW_ALL, after);
  EXPECT_EQ(before, after);
}

TEST_F(ModexStoreTest, RepeatedKeysMergeByTheScopeRules) {
  using M = std::map<std::string, std::string>;
  // A new value of a key replaces the old one.
  ASSERT_TRUE(Add(p0_, PMIX_GLOBAL, {{"a", "old"}, {"b", "keep"}}).ok());
  ASSERT_TRUE(Add(p0_, PMIX_GLOBAL, {{"a", "new"}}).ok());
  EXPECT_EQ(Read(p0_, PMIX_GDS_VIEW_LOCAL), (M{{"a", "new"}, {"b", "keep"}}));
  // LOCAL replaces GLOBAL: remote readers no longer see it.
  ASSERT_TRUE(Add(p0_, PMIX_LOCAL, {{"a", "mine"}}).ok());
  EXPECT_EQ(Read(p0_, PMIX_GDS_VIEW_LOCAL), (M{{"a", "mine"}, {"b", "keep"}}));
  EXPECT_EQ(Read(p0_, PMIX_GDS_VIEW_REMOTE), (M{{"b", "keep"}}));
  // LOCAL and REMOTE values coexist.
  ASSERT_TRUE(Add(p0_, PMIX_REMOTE, {{"a", "theirs"}}).ok());
  EXPECT_EQ(Value(p0_, PMIX_GDS_VIEW_LOCAL, "a"), "mine");
  EXPECT_EQ(Value(p0_, PMIX_GDS_VIEW_REMOTE, "a"), "theirs");
  EXPECT_EQ(Value(p0_, PMIX_GDS_VIEW_ALL, "a"), "mine");
  // GLOBAL replaces both.
  ASSERT_TRUE(Add(p0_, PMIX_GLOBAL, {{"a", "all"}}).ok());
  EXPECT_EQ(Read(p0_, PMIX_GDS_VIEW_LOCAL), (M{{"a", "all"}, {"b", "keep"}}));
  EXPECT_EQ(Read(p0_, PMIX_GDS_VIEW_REMOTE), (M{{"a", "all"}, {"b", "keep"}}));
}

TEST_F(ModexStoreTest, AKeyTwiceInOneRecordKeepsTheLast) {
  ASSERT_TRUE(Add(p0_, PMIX_GLOBAL, {{"a", "first"}, {"a", "second"}}).ok());
  EXPECT_EQ(Read(p0_, PMIX_GDS_VIEW_ALL), (std::map<std::string, std::string>{{"a", "second"}}));
}

TEST_F(ModexStoreTest, BadInputChangesNothing) {
  ASSERT_TRUE(Add(p0_, PMIX_GLOBAL, {{"a", "1"}}).ok());
  wire::Bytes before;
  store_.Append(p0_, PMIX_GDS_VIEW_ALL, before);
  EXPECT_EQ(Add(p0_, PMIX_INTERNAL, {{"b", "2"}}).code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(Add(P("job", PMIX_RANK_WILDCARD), PMIX_GLOBAL, {{"b", "2"}}).code(), PMIX_ERR_BAD_PARAM);
  // No record names an empty nspace (AppendRecord refuses it): the store
  // checks the proc it is given all the same.
  wire::Infos b2 = Kvs({{"b", "2"}});
  EXPECT_EQ(store_.Add(P("", 0), PMIX_GLOBAL, Encode(p0_, b2), b2.view()).code(), PMIX_ERR_BAD_PARAM);
  // A record whose stored bytes no longer decode makes a merge fail: the
  // store keeps what it had.
  wire::Infos kvs = Kvs({{"c", "3"}});
  wire::Bytes garbage = {1, 2, 3};
  ASSERT_TRUE(store_.Add(p0_, PMIX_GLOBAL, garbage, kvs.view()).ok());  // trusted as decoded
  EXPECT_FALSE(Add(p0_, PMIX_GLOBAL, {{"c", "4"}}).ok());
  EXPECT_EQ(Value(p0_, PMIX_GDS_VIEW_ALL, "a"), "1");
  EXPECT_EQ(store_.Ranks("job"), std::vector<pmix_rank_t>{0});
}

TEST_F(ModexStoreTest, RanksAndRemoval) {
  ASSERT_TRUE(Add(P("job", 2), PMIX_GLOBAL, {{"a", "2"}}).ok());
  ASSERT_TRUE(Add(P("job", 0), PMIX_GLOBAL, {{"a", "0"}}).ok());
  ASSERT_TRUE(Add(P("jobx", 1), PMIX_GLOBAL, {{"a", "x"}}).ok());
  ASSERT_TRUE(Add(P("jo", 1), PMIX_GLOBAL, {{"a", "y"}}).ok());
  EXPECT_EQ(store_.Ranks("job"), (std::vector<pmix_rank_t>{0, 2}));
  store_.Remove(P("job", 2));
  EXPECT_EQ(store_.Ranks("job"), (std::vector<pmix_rank_t>{0}));
  store_.Remove(P("job", PMIX_RANK_WILDCARD));
  EXPECT_TRUE(store_.Ranks("job").empty());
  EXPECT_EQ(store_.Ranks("jobx"), (std::vector<pmix_rank_t>{1}));
  EXPECT_EQ(store_.Ranks("jo"), (std::vector<pmix_rank_t>{1}));
}

TEST_F(ModexStoreTest, ManyProcessesStayIndependent) {
  for (pmix_rank_t r = 0; r < 128; ++r) {
    std::string v = std::to_string(r);
    wire::Infos kvs;
    ASSERT_TRUE(kvs.Add("blob", v.c_str(), PMIX_STRING).ok());
    ASSERT_TRUE(store_.Add(P("job", r), PMIX_GLOBAL, Encode(P("job", r), kvs), kvs.view()).ok());
  }
  for (pmix_rank_t r = 0; r < 128; ++r)
    EXPECT_EQ(Value(P("job", r), PMIX_GDS_VIEW_REMOTE, "blob"), std::to_string(r));
  EXPECT_EQ(store_.Ranks("job").size(), 128u);
}


// Records of share_min() bytes or more are copied into the arena's
// published chunks (where a gds module publishes regions); ForEach names
// their chunk and place, records of several processes share a chunk, and
// the bytes read back are the same either way. Merged records go to the
// heap.
TEST_F(ModexStoreTest, LargeRecordsArePlacedInTheArena) {
  auto module = gds::RegionModule();
  ASSERT_TRUE(module.ok());
  bool arena = *module != nullptr && (*module)->region_publish != nullptr;
  Store store(160);  // records of 160 bytes or more are shared
  pmix_proc_t p = P("ns", 1), q = P("ns", 2);
  wire::Infos small = Kvs({{"s", "x"}});
  wire::Infos big = Kvs({{"b", std::string(200, 'y').c_str()}});
  wire::Bytes small_rec = Encode(p, small), big_rec = Encode(p, big), q_rec = Encode(q, big);
  ASSERT_LT(small_rec.size(), 160u);
  ASSERT_TRUE(store.Add(p, PMIX_GLOBAL, small_rec, small.view()).ok());
  ASSERT_TRUE(store.Add(p, PMIX_GLOBAL, big_rec, big.view()).ok());
  ASSERT_TRUE(store.Add(q, PMIX_GLOBAL, q_rec, big.view()).ok());
  struct Seen {
    wire::Bytes bytes;
    const Arena::Chunk* chunk;
    size_t offset;
  };
  std::vector<Seen> seen;
  auto collect = [&](std::span<const uint8_t> record, const std::shared_ptr<const Arena::Chunk>& chunk,
                     size_t offset) { seen.push_back({wire::Bytes(record.begin(), record.end()), chunk.get(), offset}); };
  store.ForEach(p, PMIX_GDS_VIEW_LOCAL, collect);
  store.ForEach(q, PMIX_GDS_VIEW_LOCAL, collect);
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0].bytes, small_rec);
  EXPECT_EQ(seen[0].chunk, nullptr);
  EXPECT_EQ(seen[1].bytes, big_rec);
  EXPECT_EQ(seen[2].bytes, q_rec);
  if (arena) {
    ASSERT_NE(seen[1].chunk, nullptr) << "a large record is in the arena";
    EXPECT_EQ(seen[2].chunk, seen[1].chunk) << "both processes' records share a chunk";
    EXPECT_GE(seen[1].chunk->fd(), 0);
    EXPECT_EQ(seen[2].offset, seen[1].offset + big_rec.size()) << "appended";
    EXPECT_EQ(std::memcmp(seen[1].chunk->data() + seen[1].offset, big_rec.data(), big_rec.size()), 0);
    EXPECT_EQ(store.chunks(), 1u);
  } else {
    EXPECT_EQ(seen[1].chunk, nullptr) << "no module publishes regions";
  }
  auto v = store.Fetch(p, PMIX_GDS_VIEW_ALL, "b");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(std::string((*v)->data.string), std::string(200, 'y'));
  // A repeated key merges: the merged record is on the heap.
  wire::Infos again = Kvs({{"b", std::string(300, 'z').c_str()}});
  ASSERT_TRUE(store.Add(p, PMIX_GLOBAL, Encode(p, again), again.view()).ok());
  size_t placed = 0;
  store.ForEach(p, PMIX_GDS_VIEW_ALL, [&](std::span<const uint8_t>, const std::shared_ptr<const Arena::Chunk>& c,
                                          size_t) { placed += c != nullptr; });
  EXPECT_EQ(placed, 0u);
  v = store.Fetch(p, PMIX_GDS_VIEW_ALL, "b");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(std::string((*v)->data.string), std::string(300, 'z'));
  v = store.Fetch(q, PMIX_GDS_VIEW_ALL, "b");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(std::string((*v)->data.string), std::string(200, 'y'));
}

// Every record is shared by default, however small; once a namespace's
// last data is removed, its chunk goes (and its descriptor), and once all
// is removed no chunk is left.
TEST_F(ModexStoreTest, EveryRecordIsPlacedAndTheLastRemovalFreesTheChunk) {
  auto module = gds::RegionModule();
  ASSERT_TRUE(module.ok());
  if (*module == nullptr || (*module)->region_publish == nullptr)
    GTEST_SKIP() << "no gds module publishes regions here";
  Store store;
  pmix_proc_t p = P("ns", 1), q = P("other", 0);
  wire::Infos tiny = Kvs({{"t", "x"}});
  ASSERT_TRUE(store.Add(p, PMIX_GLOBAL, Encode(p, tiny), tiny.view()).ok());
  ASSERT_TRUE(store.Add(q, PMIX_GLOBAL, Encode(q, tiny), tiny.view()).ok());
  size_t placed = 0;
  store.ForEach(p, PMIX_GDS_VIEW_LOCAL, [&](std::span<const uint8_t>, const std::shared_ptr<const Arena::Chunk>& c,
                                            size_t) { placed += c != nullptr; });
  EXPECT_EQ(placed, 1u);
  EXPECT_EQ(store.chunks(), 2u) << "one per namespace";
  store.Remove(P("ns", PMIX_RANK_WILDCARD));
  EXPECT_EQ(store.chunks(), 1u) << "the other namespace's chunk stays";
  store.Remove(q);
  EXPECT_EQ(store.chunks(), 0u);
}

// A record larger than a chunk gets one of its own; at most max_chunks
// chunks live at a time, past that records stay on the heap (and read
// back the same); a chunk goes with its last record once it is no longer
// being filled.
TEST_F(ModexStoreTest, ArenaChunksAreBounded) {
  auto module = gds::RegionModule();
  ASSERT_TRUE(module.ok());
  if (*module == nullptr || (*module)->region_publish == nullptr)
    GTEST_SKIP() << "no gds module publishing regions here";
  Store store(1, 2, 4096);
  auto chunk_of = [&](const pmix_proc_t& p) {
    const Arena::Chunk* found = nullptr;
    store.ForEach(p, PMIX_GDS_VIEW_ALL, [&](std::span<const uint8_t>, const std::shared_ptr<const Arena::Chunk>& c,
                                            size_t) { found = c.get(); });
    return found;
  };
  wire::Infos kvs = Kvs({{"k", "v"}});
  ASSERT_TRUE(store.Add(P("ns", 0), PMIX_GLOBAL, Encode(P("ns", 0), kvs), kvs.view()).ok());
  ASSERT_TRUE(store.Add(P("ns", 1), PMIX_GLOBAL, Encode(P("ns", 1), kvs), kvs.view()).ok());
  EXPECT_NE(chunk_of(P("ns", 0)), nullptr);
  EXPECT_EQ(chunk_of(P("ns", 1)), chunk_of(P("ns", 0)));
  EXPECT_EQ(store.chunks(), 1u);
  std::string large(6000, 'L');
  wire::Infos big = Kvs({{"big", large.c_str()}});
  ASSERT_TRUE(store.Add(P("ns", 2), PMIX_GLOBAL, Encode(P("ns", 2), big), big.view()).ok());
  const Arena::Chunk* own = chunk_of(P("ns", 2));
  ASSERT_NE(own, nullptr) << "a record larger than a chunk gets its own";
  EXPECT_NE(own, chunk_of(P("ns", 0)));
  EXPECT_GE(own->size(), Encode(P("ns", 2), big).size());
  EXPECT_EQ(store.chunks(), 2u);
  ASSERT_TRUE(store.Add(P("ns", 3), PMIX_GLOBAL, Encode(P("ns", 3), big), big.view()).ok());
  EXPECT_EQ(chunk_of(P("ns", 3)), nullptr) << "past max_chunks: on the heap";
  auto v = store.Fetch(P("ns", 3), PMIX_GDS_VIEW_ALL, "big");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(std::string((*v)->data.string), large);
  // The small records' chunk is still being filled: it stays; the large
  // record's own chunk goes with it.
  store.Remove(P("ns", 2));
  EXPECT_EQ(store.chunks(), 1u);
  ASSERT_TRUE(store.Add(P("ns", 4), PMIX_GLOBAL, Encode(P("ns", 4), big), big.view()).ok());
  EXPECT_NE(chunk_of(P("ns", 4)), nullptr) << "room again";
  store.Remove(P("ns", PMIX_RANK_WILDCARD));
  store.Clear();
  EXPECT_EQ(store.chunks(), 0u);
}

bool ArenaHere() {
  auto module = gds::RegionModule();
  return module.ok() && *module != nullptr && (*module)->region_publish != nullptr;
}

// Where ForEach says proc's records lie in view, in Append's order (the
// chunks are not held: the test sees when they go).
struct Place {
  wire::Bytes bytes;
  const Arena::Chunk* chunk;
  size_t offset;
};
std::vector<Place> Places(const Store& store, const pmix_proc_t& proc, pmix_gds_view_t view) {
  std::vector<Place> out;
  store.ForEach(proc, view,
                [&](std::span<const uint8_t> record,
                    const std::shared_ptr<const Arena::Chunk>& chunk, size_t offset) {
                  out.push_back({wire::Bytes(record.begin(), record.end()), chunk.get(), offset});
                });
  return out;
}

// Whether needle occurs anywhere in the chunk's whole region (what a
// client that maps it can read), not only where records were placed.
bool ChunkHolds(const Arena::Chunk& chunk, std::string_view needle) {
  const uint8_t* first = chunk.data();
  const uint8_t* last = first + chunk.size();
  return std::search(first, last, needle.begin(), needle.end()) != last;
}

// A client handed a chunk reads all of it: records of two namespaces,
// committed interleaved, lie in chunks of their own, and no byte of one
// namespace's values is anywhere in the other's chunks.
TEST_F(ModexStoreTest, NamespacesNeverShareAChunk) {
  if (!ArenaHere()) GTEST_SKIP() << "no gds module publishes regions here";
  Store store(0, 0, size_t{64} << 10);
  const std::string a_secret = "alpha-secret-" + std::string(48, 'A');
  const std::string b_secret = "beta-secret-" + std::string(48, 'B');
  for (pmix_rank_t r = 0; r < 4; ++r) {
    for (const auto& [ns, value] : {std::pair{"alpha", a_secret}, std::pair{"beta", b_secret}}) {
      pmix_proc_t p = P(ns, r);
      std::string v = value + std::to_string(r);
      wire::Infos kvs = Kvs({{"secret", v.c_str()}});
      ASSERT_TRUE(store.Add(p, r % 2 ? PMIX_LOCAL : PMIX_GLOBAL, Encode(p, kvs), kvs.view()).ok());
    }
  }
  std::set<const Arena::Chunk*> a_chunks, b_chunks;
  std::set<uint64_t> a_serials, b_serials;
  for (pmix_rank_t r = 0; r < 4; ++r) {
    for (const Place& place : Places(store, P("alpha", r), PMIX_GDS_VIEW_ALL)) {
      ASSERT_NE(place.chunk, nullptr);
      a_chunks.insert(place.chunk);
      a_serials.insert(place.chunk->serial());
    }
    for (const Place& place : Places(store, P("beta", r), PMIX_GDS_VIEW_ALL)) {
      ASSERT_NE(place.chunk, nullptr);
      b_chunks.insert(place.chunk);
      b_serials.insert(place.chunk->serial());
    }
  }
  EXPECT_EQ(a_chunks.size(), 1u) << "one namespace's records share its chunk";
  EXPECT_EQ(b_chunks.size(), 1u);
  for (uint64_t serial : a_serials) EXPECT_EQ(b_serials.count(serial), 0u) << "serial " << serial;
  for (const Arena::Chunk* chunk : a_chunks) {
    EXPECT_EQ(b_chunks.count(chunk), 0u);
    EXPECT_TRUE(ChunkHolds(*chunk, a_secret)) << "the search finds what is there";
    EXPECT_FALSE(ChunkHolds(*chunk, b_secret)) << "beta's data in alpha's chunk";
    EXPECT_FALSE(ChunkHolds(*chunk, "beta")) << "not even beta's name";
  }
  for (const Arena::Chunk* chunk : b_chunks) {
    EXPECT_TRUE(ChunkHolds(*chunk, b_secret));
    EXPECT_FALSE(ChunkHolds(*chunk, a_secret)) << "alpha's data in beta's chunk";
    EXPECT_FALSE(ChunkHolds(*chunk, "alpha"));
  }
  EXPECT_EQ(store.chunks(), 2u);
}

// No local reader may see PMIX_REMOTE data: such records stay on the
// heap, while the same process's LOCAL, GLOBAL and UNDEF ones are in its
// namespace's chunk; the remote view still reads them all.
TEST_F(ModexStoreTest, RemoteRecordsStayOnTheHeap) {
  if (!ArenaHere()) GTEST_SKIP() << "no gds module publishes regions here";
  Store store(0, 0, size_t{64} << 10);
  pmix_proc_t p = P("job", 0);
  const std::string remote_value = "for-other-nodes-only-" + std::string(40, 'R');
  struct Put {
    pmix_scope_t scope;
    const char* key;
    std::string value;
    wire::Bytes record;
  };
  std::vector<Put> puts = {{PMIX_LOCAL, "l", "local-value", {}},
                           {PMIX_REMOTE, "r", remote_value, {}},
                           {PMIX_GLOBAL, "g", "global-value", {}},
                           {PMIX_SCOPE_UNDEF, "u", "undef-value", {}}};
  for (Put& put : puts) {
    wire::Infos kvs = Kvs({{put.key, put.value.c_str()}});
    put.record = Encode(p, kvs);
    ASSERT_TRUE(store.Add(p, put.scope, put.record, kvs.view()).ok());
  }
  std::vector<Place> all = Places(store, p, PMIX_GDS_VIEW_ALL);
  ASSERT_EQ(all.size(), puts.size());
  const Arena::Chunk* chunk = nullptr;
  for (size_t i = 0; i < puts.size(); ++i) {
    EXPECT_EQ(all[i].bytes, puts[i].record);
    if (puts[i].scope == PMIX_REMOTE) {
      EXPECT_EQ(all[i].chunk, nullptr) << "a REMOTE record in a chunk";
    } else {
      EXPECT_NE(all[i].chunk, nullptr) << "scope " << int(puts[i].scope);
      chunk = all[i].chunk;
    }
  }
  ASSERT_NE(chunk, nullptr);
  EXPECT_FALSE(ChunkHolds(*chunk, remote_value));
  std::vector<Place> remote = Places(store, p, PMIX_GDS_VIEW_REMOTE);
  ASSERT_EQ(remote.size(), 3u);
  EXPECT_EQ(remote[0].bytes, puts[1].record);
  EXPECT_EQ(remote[0].chunk, nullptr);
  auto v = store.Fetch(p, PMIX_GDS_VIEW_REMOTE, "r");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(std::string((*v)->data.string), remote_value);
  // What a local client is answered with lies in the chunk alone.
  for (const Place& place : Places(store, p, PMIX_GDS_VIEW_LOCAL)) EXPECT_EQ(place.chunk, chunk);
  EXPECT_EQ(store.chunks(), 1u);
}

// One limit on live chunks (descriptors) for all namespaces: past it a
// new namespace's record is kept on the heap and reads back the same;
// once a namespace is removed, its chunk goes and another can place.
TEST_F(ModexStoreTest, TheChunkLimitIsSharedByNamespaces) {
  if (!ArenaHere()) GTEST_SKIP() << "no gds module publishes regions here";
  Store store(0, 2, 4096);
  wire::Infos kvs = Kvs({{"k", "v"}});
  auto add = [&](const pmix_proc_t& p) {
    return store.Add(p, PMIX_GLOBAL, Encode(p, kvs), kvs.view());
  };
  ASSERT_TRUE(add(P("a", 0)).ok());
  ASSERT_TRUE(add(P("b", 0)).ok());
  ASSERT_NE(Places(store, P("a", 0), PMIX_GDS_VIEW_ALL).at(0).chunk, nullptr);
  ASSERT_NE(Places(store, P("b", 0), PMIX_GDS_VIEW_ALL).at(0).chunk, nullptr);
  EXPECT_EQ(store.chunks(), 2u);
  ASSERT_TRUE(add(P("c", 0)).ok());
  EXPECT_EQ(Places(store, P("c", 0), PMIX_GDS_VIEW_ALL).at(0).chunk, nullptr)
      << "past the limit: on the heap";
  EXPECT_EQ(store.chunks(), 2u);
  auto v = store.Fetch(P("c", 0), PMIX_GDS_VIEW_LOCAL, "k");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(std::string((*v)->data.string), "v");
  wire::Bytes out;
  EXPECT_EQ(store.Append(P("c", 0), PMIX_GDS_VIEW_LOCAL, out), 1u);
  EXPECT_EQ(out, Encode(P("c", 0), kvs));
  // A namespace removed frees its chunk for the others.
  store.Remove(P("a", PMIX_RANK_WILDCARD));
  EXPECT_EQ(store.chunks(), 1u);
  ASSERT_TRUE(add(P("d", 0)).ok());
  EXPECT_NE(Places(store, P("d", 0), PMIX_GDS_VIEW_ALL).at(0).chunk, nullptr) << "room again";
  EXPECT_EQ(store.chunks(), 2u);
  // So does the removal of a namespace's last rank.
  store.Remove(P("b", 0));
  EXPECT_EQ(store.chunks(), 1u);
  ASSERT_TRUE(add(P("c", 1)).ok());
  EXPECT_NE(Places(store, P("c", 1), PMIX_GDS_VIEW_ALL).at(0).chunk, nullptr);
  EXPECT_EQ(Places(store, P("c", 0), PMIX_GDS_VIEW_ALL).at(0).chunk, nullptr)
      << "placed records are not moved";
  store.Clear();
  EXPECT_EQ(store.chunks(), 0u);
}

// Removing a namespace's last rank retires its arena: a later record of
// it starts a new chunk, while a chunk an answer still holds stays alive
// and another namespace's arena goes on filling its chunk.
TEST_F(ModexStoreTest, ANamespaceGoneRetiresItsArenaOnly) {
  if (!ArenaHere()) GTEST_SKIP() << "no gds module publishes regions here";
  Store store(0, 0, size_t{64} << 10);
  wire::Infos kvs = Kvs({{"k", "v"}});
  auto add = [&](const pmix_proc_t& p) {
    return store.Add(p, PMIX_GLOBAL, Encode(p, kvs), kvs.view());
  };
  ASSERT_TRUE(add(P("a", 0)).ok());
  ASSERT_TRUE(add(P("a", 1)).ok());
  ASSERT_TRUE(add(P("b", 0)).ok());
  std::shared_ptr<const Arena::Chunk> held;  // as a fence answer being sent holds it
  store.ForEach(P("a", 0), PMIX_GDS_VIEW_LOCAL,
                [&](std::span<const uint8_t>, const std::shared_ptr<const Arena::Chunk>& c,
                    size_t) { held = c; });
  ASSERT_NE(held, nullptr);
  EXPECT_EQ(Places(store, P("a", 1), PMIX_GDS_VIEW_ALL).at(0).chunk, held.get())
      << "a's records share its chunk";
  const Place b0 = Places(store, P("b", 0), PMIX_GDS_VIEW_ALL).at(0);
  ASSERT_NE(b0.chunk, nullptr);
  ASSERT_NE(b0.chunk, held.get());
  uint64_t a_serial = held->serial();
  store.Remove(P("a", 0));
  ASSERT_TRUE(add(P("a", 2)).ok());
  EXPECT_EQ(Places(store, P("a", 2), PMIX_GDS_VIEW_ALL).at(0).chunk, held.get())
      << "a rank left: still filled";
  store.Remove(P("a", 1));
  store.Remove(P("a", 2));  // a's last rank
  EXPECT_EQ(store.chunks(), 2u) << "the held chunk stays alive";
  ASSERT_TRUE(add(P("a", 0)).ok());
  const Place a0 = Places(store, P("a", 0), PMIX_GDS_VIEW_ALL).at(0);
  ASSERT_NE(a0.chunk, nullptr);
  EXPECT_NE(a0.chunk, held.get()) << "a new chunk for the namespace";
  EXPECT_GT(a0.chunk->serial(), a_serial);
  EXPECT_EQ(a0.offset, 0u);
  ASSERT_TRUE(add(P("b", 1)).ok());
  const Place b1 = Places(store, P("b", 1), PMIX_GDS_VIEW_ALL).at(0);
  EXPECT_EQ(b1.chunk, b0.chunk) << "b's arena goes on filling its chunk";
  EXPECT_EQ(b1.offset, b0.offset + b0.bytes.size());
  EXPECT_EQ(store.chunks(), 3u);
  held.reset();
  EXPECT_EQ(store.chunks(), 2u) << "the retired chunk went with its last holder";
}

}  // namespace
}  // namespace pmix::server::modex
