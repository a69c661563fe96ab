// A message's counts cannot make a Reader allocate beyond what its bytes
// justify (src/wire/buffer.h): a crafted count of procs or infos fails
// before the array is made, and a DecodeBudget bounds what one message may
// take in all. Allocations are watched through operator new.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include "mca/bfrops/base/bfrops_base.h"
#include "pmix.h"
#include "src/wire/buffer.h"

// The replacements pair malloc with free, which GCC cannot see through.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

namespace {
std::atomic<bool> g_watch{false};
std::atomic<size_t> g_largest{0};
}  // namespace

// The largest single request while g_watch is set. Every form of the
// (unaligned) new/delete family is replaced, all on malloc/free: a form
// left out (the nothrow new of std::stable_sort's temporary buffer) would
// allocate with the runtime's own new and be freed here, which ASan
// reports as an alloc-dealloc mismatch.
namespace {
void* Allocate(size_t n) noexcept {
  if (g_watch.load(std::memory_order_relaxed) && n > g_largest.load()) g_largest.store(n);
  return std::malloc(n == 0 ? 1 : n);
}
}  // namespace
void* operator new(size_t n) {
  if (void* p = Allocate(n)) return p;
  throw std::bad_alloc();
}
void* operator new[](size_t n) {
  if (void* p = Allocate(n)) return p;
  throw std::bad_alloc();
}
void* operator new(size_t n, const std::nothrow_t&) noexcept { return Allocate(n); }
void* operator new[](size_t n, const std::nothrow_t&) noexcept { return Allocate(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace pmix::wire {
namespace {

struct Watch {
  Watch() {
    g_largest = 0;
    g_watch = true;
  }
  ~Watch() { g_watch = false; }
  size_t largest() const { return g_largest.load(); }
};

const pmix_bfrops_module_t* Codec() {
  auto c = bfrops::DefaultCodec();
  return c.ok() ? *c : nullptr;
}

// u32 count, then `pad` bytes that are no elements at all.
Bytes Claim(uint32_t count, size_t pad) {
  Writer w(Codec());
  w.U32(count);
  auto b = w.Take();
  Bytes out = b.ok() ? *b : Bytes{};
  out.resize(out.size() + pad, 0x01);
  return out;
}

// The case: a 4 MiB message claiming 4 million procs once made the
// Reader allocate 1 GiB before reading one of them.
TEST(ReaderLimits, CraftedProcCountFailsBeforeAllocating) {
  ASSERT_NE(Codec(), nullptr);
  Bytes msg = Claim(4u << 20, (4u << 20) - 16);
  Watch watch;
  Reader r(Codec(), msg);
  EXPECT_TRUE(r.Procs().empty());
  EXPECT_FALSE(r.status().ok());
  EXPECT_LT(watch.largest(), size_t{1} << 20) << "allocated for a count no bytes back";
}

TEST(ReaderLimits, CraftedInfoCountFailsBeforeAllocating) {
  ASSERT_NE(Codec(), nullptr);
  Bytes msg = Claim(1u << 20, (1u << 20) + 64);
  Watch watch;
  Reader r(Codec(), msg);
  EXPECT_EQ(r.InfoArray().size(), 0u);
  EXPECT_FALSE(r.status().ok());
  EXPECT_LT(watch.largest(), size_t{1} << 20);
}

Bytes ProcsMessage(size_t n) {
  std::vector<pmix_proc_t> procs(n);
  for (size_t i = 0; i < n; ++i) PMIx_Load_procid(&procs[i], "ns", static_cast<pmix_rank_t>(i));
  Writer w(Codec());
  w.Procs(procs);
  auto b = w.Take();
  return b.ok() ? *b : Bytes{};
}

// An honest message decodes with or without a budget; under a budget too
// small for it, it fails with OUT_OF_RESOURCE, and the Readers of one
// message share the budget.
TEST(ReaderLimits, DecodeBudgetBoundsOneMessage) {
  ASSERT_NE(Codec(), nullptr);
  Bytes msg = ProcsMessage(1000);  // ~260 KB as pmix_proc_t, twice while decoding
  {
    Reader r(Codec(), msg);
    EXPECT_EQ(r.Procs().size(), 1000u);
    EXPECT_TRUE(r.status().ok());
  }
  {
    DecodeBudget budget(size_t{1} << 20, msg);
    Reader r(Codec(), msg);
    EXPECT_EQ(r.Procs().size(), 1000u);
    EXPECT_LT(budget.left(), size_t{1} << 20);
    Reader again(Codec(), msg);  // the same message's second Reader
    EXPECT_EQ(again.Procs().size(), 1000u);
    Reader third(Codec(), msg);
    EXPECT_TRUE(third.Procs().empty());
    EXPECT_EQ(third.status().code(), PMIX_ERR_OUT_OF_RESOURCE);
  }
  {
    DecodeBudget budget(100 * 1000, msg);
    Reader r(Codec(), msg);
    EXPECT_TRUE(r.Procs().empty());
    EXPECT_EQ(r.status().code(), PMIX_ERR_OUT_OF_RESOURCE);
  }
  {
    // Bytes outside the scope's message have a budget of their own.
    Bytes other = ProcsMessage(1000);
    DecodeBudget budget(16, msg);
    Reader r(Codec(), other);
    EXPECT_EQ(r.Procs().size(), 1000u);
  }
}

// Values nested in infos are charged too (the codec's unpack_bounded).
TEST(ReaderLimits, NestedValuesAreCharged) {
  ASSERT_NE(Codec(), nullptr);
  Infos infos;
  std::vector<pmix_info_t> inner(2000);
  for (size_t i = 0; i < inner.size(); ++i) {
    uint32_t v = static_cast<uint32_t>(i);
    PMIx_Info_load(&inner[i], "k", &v, PMIX_UINT32);
  }
  pmix_data_array_t darray{PMIX_INFO, inner.size(), inner.data()};
  ASSERT_TRUE(infos.Add("outer", &darray, PMIX_DATA_ARRAY).ok());
  for (auto& i : inner) PMIx_Info_destruct(&i);
  Writer w(Codec());
  w.InfoArray(infos.view());
  auto msg = w.Take();
  ASSERT_TRUE(msg.ok());
  {
    Reader r(Codec(), *msg);
    Infos out = r.InfoArray();
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out.view()[0].value.data.darray->size, 2000u);
  }
  DecodeBudget budget(64 * 1024, *msg);  // the outer info fits, the 2000 inner do not
  Reader r(Codec(), *msg);
  EXPECT_EQ(r.InfoArray().size(), 0u);
  EXPECT_EQ(r.status().code(), PMIX_ERR_OUT_OF_RESOURCE);
}

}  // namespace
}  // namespace pmix::wire
