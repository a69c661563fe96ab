// Descriptor validation and built-in adoption with in-test descriptors
// (runs in dlopen and --disable-dlopen builds alike).
#include <gtest/gtest.h>

#include <cstring>
#include <functional>

#include "mca/base/component_repository.h"

namespace pmix::mca {
namespace {

pmix_status_t Open(const pmix_mca_services_t*, const pmix_mca_param_value_t*, void**) {
  return PMIX_SUCCESS;
}
pmix_status_t Query(void*, const void**, int*) { return PMIX_ERR_NOT_SUPPORTED; }
void Close(void*) {}

const FrameworkSpec kSpec = {"vtoy", 4, 2, false, "validation tests", {}};

pmix_mca_component_t Valid() {
  return {PMIX_MCA_BASE_VERSION_MAJOR, PMIX_MCA_BASE_VERSION_MINOR, "vtoy", 4, 7, "alpha",
          1, 0, 0, 10, nullptr, 0, Open, Query, Close};
}

struct Case {
  const char* what;
  std::function<void(pmix_mca_component_t*)> spoil;
  const char* reason;
};

const Case kCases[] = {
    {"valid", [](pmix_mca_component_t*) {}, ""},
    {"mca major", [](pmix_mca_component_t* d) { d->mca_major = 2; }, "mca_major is 2, expected 1"},
    {"mca minor newer", [](pmix_mca_component_t* d) { d->mca_minor = 99; },
     "mca_minor is 99, newer than this library's 0"},
    {"framework name", [](pmix_mca_component_t* d) { d->framework = "other"; },
     "framework is 'other', expected 'vtoy'"},
    {"framework null", [](pmix_mca_component_t* d) { d->framework = nullptr; },
     "framework is '(null)'"},
    {"framework major", [](pmix_mca_component_t* d) { d->framework_major = 5; },
     "framework_major is 5, expected 4"},
    {"name", [](pmix_mca_component_t* d) { d->name = "beta"; },
     "component name is 'beta', expected 'alpha'"},
    {"open", [](pmix_mca_component_t* d) { d->open = nullptr; }, "open, query or close is NULL"},
    {"query", [](pmix_mca_component_t* d) { d->query = nullptr; }, "is NULL"},
    {"close", [](pmix_mca_component_t* d) { d->close = nullptr; }, "is NULL"},
    {"params", [](pmix_mca_component_t* d) { d->nparams = 2; }, "params is NULL"},
};

TEST(ValidateDescriptor, NamesWhatIsWrongOnOneLine) {
  for (const Case& c : kCases) {
    pmix_mca_component_t d = Valid();
    c.spoil(&d);
    std::string reason = ValidateDescriptor(kSpec, "alpha", &d);
    if (*c.reason == '\0') {
      EXPECT_EQ(reason, "") << c.what;
    } else {
      EXPECT_NE(reason.find(c.reason), std::string::npos) << c.what << ": " << reason;
      EXPECT_EQ(reason.find('\n'), std::string::npos);
    }
  }
  EXPECT_EQ(ValidateDescriptor(kSpec, "alpha", nullptr), "no descriptor");
}

TEST(AdoptBuiltins, ValidatesTheTableAndSkipsOtherFrameworks) {
  pmix_mca_component_t good = Valid();
  pmix_mca_component_t bad = Valid();
  bad.name = "gamma";
  bad.framework_major = 1;
  pmix_mca_component_t foreign = Valid();
  foreign.framework = "elsewhere";
  const pmix_mca_component_t* table[] = {&good, &foreign, &bad};
  ::testing::internal::CaptureStderr();
  std::vector<ComponentRecord> records = AdoptBuiltins(kSpec, table);
  std::string err = ::testing::internal::GetCapturedStderr();
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].name, "alpha");
  EXPECT_EQ(records[0].status, ComponentStatus::kLoaded);
  EXPECT_EQ(records[0].descriptor, &good);
  EXPECT_EQ(records[0].path, "(built-in)");
  EXPECT_EQ(records[0].framework_minor, 7u);
  EXPECT_EQ(records[1].status, ComponentStatus::kRefused);
  EXPECT_NE(records[1].reason.find("framework_major is 1"), std::string::npos);
  EXPECT_NE(err.find("framework_major is 1"), std::string::npos) << err;
  EXPECT_STREQ(ComponentStatusName(ComponentStatus::kRefused), "refused");
}

// Static builds: every entry of the generated table passes validation
// against a spec with its own framework name and interface major.
TEST(BuiltinComponents, EveryEntryIsAValidDescriptor) {
  for (const pmix_mca_component_t* d : BuiltinComponents()) {
    ASSERT_NE(d, nullptr);
    ASSERT_NE(d->framework, nullptr);
    FrameworkSpec spec = {d->framework, d->framework_major, d->framework_minor, true, "", {}};
    std::vector<ComponentRecord> records = AdoptBuiltins(spec, std::span(&d, 1));
    ASSERT_EQ(records.size(), 1u);
    EXPECT_EQ(records[0].status, ComponentStatus::kLoaded)
        << d->framework << "/" << (d->name ? d->name : "?") << ": " << records[0].reason;
  }
}

}  // namespace
}  // namespace pmix::mca
