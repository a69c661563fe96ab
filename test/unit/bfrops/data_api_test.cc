// PMIx_Data_copy and the payload moves (copy_payload, load, unload, embed):
// semantics and argument checks (status codes measured on OpenPMIx 4.2.2
// where it does not crash).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "pmix.h"
#include "src/common/data_types.h"
#include "test/unit/common/type_samples.h"

namespace pmix::test {
namespace {

// A buffer holding `bytes`, with the first `read` of them already unpacked.
void Fill(pmix_data_buffer_t* b, const std::string& bytes, size_t read = 0) {
  PMIx_Data_buffer_construct(b);
  char* copy = static_cast<char*>(std::malloc(bytes.size()));
  std::memcpy(copy, bytes.data(), bytes.size());
  PMIx_Data_buffer_load(b, copy, bytes.size());
  b->unpack_ptr += read;
}

std::string Unread(const pmix_data_buffer_t& b) {
  return b.base_ptr == nullptr ? "" : std::string(b.unpack_ptr, b.base_ptr + b.bytes_used);
}

TEST(DataCopy, EverySampleTypeAndVariant) {
  for (pmix_data_type_t type : ElementTypes()) {
    for (Variant v : {Variant::kTypical, Variant::kEdge, Variant::kNulls}) {
      Sample s(type, v);
      void* arg = type == PMIX_STRING || type == PMIX_REGEX ? *static_cast<char**>(s.get()) : s.get();
      void* copy = nullptr;
      pmix_status_t rc = PMIx_Data_copy(&copy, arg, type);
      if (arg == nullptr) {
        EXPECT_EQ(PMIX_ERR_BAD_PARAM, rc);
        continue;
      }
      ASSERT_EQ(PMIX_SUCCESS, rc) << TypeName(type) << " " << VariantName(v);
      if (type == PMIX_STRING || type == PMIX_REGEX) {
        EXPECT_STREQ(static_cast<char*>(arg), static_cast<char*>(copy));
        std::free(copy);
        continue;
      }
      if (ComparesEqualToCopy(type, v)) {
        EXPECT_EQ(PMIX_EQUAL, CompareElements(*FindDataType(type), s.get(), copy))
            << TypeName(type) << " " << VariantName(v);
      }
      FreeArray(type, copy, 1);
    }
  }
}

// As for PMIX_STRING, OpenPMIx 4.2 passes a regex to PMIx_Data_copy as the
// text itself, not as a pointer to an element.
TEST(DataCopy, StringAndRegexSourcesAreTheTextItself) {
  for (pmix_data_type_t type : {PMIX_STRING, PMIX_REGEX}) {
    char text[] = "node[2:1-4],login";
    void* copy = nullptr;
    ASSERT_EQ(PMIx_Data_copy(&copy, text, type), PMIX_SUCCESS);
    ASSERT_NE(copy, nullptr);
    EXPECT_STREQ(static_cast<char*>(copy), text);
    EXPECT_NE(copy, static_cast<void*>(text));
    std::free(copy);
  }
}

TEST(DataCopy, RejectsBadArguments) {
  int x = 3;
  void* out = nullptr;
  EXPECT_EQ(PMIX_ERR_BAD_PARAM, PMIx_Data_copy(nullptr, &x, PMIX_INT));
  EXPECT_EQ(PMIX_ERR_BAD_PARAM, PMIx_Data_copy(&out, nullptr, PMIX_INT));
  EXPECT_EQ(PMIX_ERR_UNKNOWN_DATA_TYPE, PMIx_Data_copy(&out, &x, 200));
  EXPECT_EQ(PMIX_ERR_UNKNOWN_DATA_TYPE, PMIx_Data_copy(&out, &x, PMIX_UNDEF));
  EXPECT_EQ(PMIX_ERR_NOT_SUPPORTED, PMIx_Data_copy(&out, &x, PMIX_KVAL));
  EXPECT_EQ(nullptr, out);
  void* p = &x;
  ASSERT_EQ(PMIX_SUCCESS, PMIx_Data_copy(&out, &p, PMIX_POINTER));
  EXPECT_EQ(p, *static_cast<void**>(out)) << "the pointer is copied, not its target";
  std::free(out);
}

TEST(DataPayload, CopyPayloadAppendsTheUnreadPart) {
  pmix_data_buffer_t src;
  pmix_data_buffer_t dst;
  Fill(&src, "abcdef", 2);
  Fill(&dst, "XY", 1);
  ASSERT_EQ(PMIX_SUCCESS, PMIx_Data_copy_payload(&dst, &src));
  EXPECT_EQ("Ycdef", Unread(dst));
  EXPECT_EQ("cdef", Unread(src)) << "the source is not consumed";
  pmix_data_buffer_t empty;
  PMIx_Data_buffer_construct(&empty);
  ASSERT_EQ(PMIX_SUCCESS, PMIx_Data_copy_payload(&empty, &src));
  EXPECT_EQ("cdef", Unread(empty));
  EXPECT_EQ(PMIX_ERR_BAD_PARAM, PMIx_Data_copy_payload(nullptr, &src));
  EXPECT_EQ(PMIX_ERR_BAD_PARAM, PMIx_Data_copy_payload(&dst, nullptr));
  PMIx_Data_buffer_destruct(&empty);
  PMIx_Data_buffer_destruct(&src);
  PMIx_Data_buffer_destruct(&dst);
}

TEST(DataPayload, UnloadHandsOverTheUnreadPartAndEmpties) {
  pmix_data_buffer_t b;
  Fill(&b, "0123456789", 4);
  pmix_byte_object_t bo;
  PMIx_Byte_object_construct(&bo);
  ASSERT_EQ(PMIX_SUCCESS, PMIx_Data_unload(&b, &bo));
  EXPECT_EQ("456789", std::string(bo.bytes, bo.size));
  EXPECT_EQ(nullptr, b.base_ptr);
  EXPECT_EQ(0u, b.bytes_used);
  PMIx_Byte_object_destruct(&bo);
  ASSERT_EQ(PMIX_SUCCESS, PMIx_Data_unload(&b, &bo));
  EXPECT_EQ(nullptr, bo.bytes);
  EXPECT_EQ(0u, bo.size);
  EXPECT_EQ(PMIX_ERR_BAD_PARAM, PMIx_Data_unload(nullptr, &bo));
  EXPECT_EQ(PMIX_ERR_BAD_PARAM, PMIx_Data_unload(&b, nullptr));
}

TEST(DataPayload, LoadTakesTheBytesEmbedCopiesThem) {
  pmix_data_buffer_t b;
  Fill(&b, "old");
  pmix_byte_object_t bo;
  bo.bytes = strdup("payload");
  bo.size = 7;
  ASSERT_EQ(PMIX_SUCCESS, PMIx_Data_embed(&b, &bo));
  EXPECT_EQ("payload", Unread(b));
  EXPECT_NE(bo.bytes, b.base_ptr) << "embed copies";
  EXPECT_EQ(7u, bo.size);
  char* bytes = bo.bytes;
  ASSERT_EQ(PMIX_SUCCESS, PMIx_Data_load(&b, &bo));
  EXPECT_EQ(bytes, b.base_ptr) << "load takes the bytes over";
  EXPECT_EQ(nullptr, bo.bytes);
  EXPECT_EQ(0u, bo.size);
  EXPECT_EQ("payload", Unread(b));
  EXPECT_EQ(PMIX_ERR_BAD_PARAM, PMIx_Data_load(nullptr, &bo));
  EXPECT_EQ(PMIX_ERR_BAD_PARAM, PMIx_Data_embed(nullptr, &bo));
  ASSERT_EQ(PMIX_SUCCESS, PMIx_Data_load(&b, &bo));  // an empty payload empties
  EXPECT_EQ(0u, b.bytes_used);
  PMIx_Data_buffer_destruct(&b);
}

}  // namespace
}  // namespace pmix::test
