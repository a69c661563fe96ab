// Conformance suite run against every preg component (compiled into this
// binary and driven through its descriptor), plus each component's own
// format details.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "pmix/mca/mca.h"
#include "pmix/mca/preg.h"
#include "test/unit/preg/preg_cases.h"

extern "C" pmix_mca_component_t pmix_mca_preg_native_component;
extern "C" pmix_mca_component_t pmix_mca_preg_compress_component;
extern "C" pmix_mca_component_t pmix_mca_preg_raw_component;

namespace {

using pmix::preg::test::NodeCases;
using pmix::preg::test::PpnCases;

struct Component {
  const char* name;
  pmix_mca_component_t* descriptor;
  const char* prefix;
  const char* declines;  // input characters the component declines
};

const Component kComponents[] = {
    {"native", &pmix_mca_preg_native_component, "pmix[", "[]*"},
    {"compress", &pmix_mca_preg_compress_component, "blob:", ""},
    {"raw", &pmix_mca_preg_raw_component, "raw:", "*"},
};

// Opens c (max_entries for native) and returns its module.
const pmix_preg_module_t* Open(const pmix_mca_component_t& c, size_t max_entries = 1 << 24) {
  pmix_mca_param_value_t values[1] = {};
  values[0].type = PMIX_MCA_PARAM_SIZE;
  values[0].value.size = max_entries;
  void* context = nullptr;
  EXPECT_EQ(c.open(nullptr, values, &context), PMIX_SUCCESS);
  const void* module = nullptr;
  int priority = 0;
  EXPECT_EQ(c.query(context, &module, &priority), PMIX_SUCCESS);
  EXPECT_EQ(priority, c.default_priority);
  return static_cast<const pmix_preg_module_t*>(module);
}

using GenerateFn = pmix_status_t (*)(const char*, char**);
using ParseFn = pmix_status_t (*)(const char*, char***);

pmix_status_t Generate(GenerateFn fn, const std::string& input, std::string* out) {
  char* raw = reinterpret_cast<char*>(0x1);
  pmix_status_t rc = fn(input.c_str(), &raw);
  if (rc != PMIX_SUCCESS) {
    EXPECT_EQ(raw, reinterpret_cast<char*>(0x1)) << "output written on failure";
    return rc;
  }
  *out = raw;
  std::free(raw);
  return rc;
}

// Parses and joins the fields with sep (so a round trip gives the input).
pmix_status_t ParseJoined(ParseFn fn, const std::string& regex, char sep, std::string* joined) {
  char** argv = reinterpret_cast<char**>(0x1);
  pmix_status_t rc = fn(regex.c_str(), &argv);
  if (rc != PMIX_SUCCESS) {
    EXPECT_EQ(argv, reinterpret_cast<char**>(0x1)) << "output written on failure";
    return rc;
  }
  joined->clear();
  for (size_t i = 0; argv[i] != nullptr; ++i) {
    if (i) *joined += sep;
    *joined += argv[i];
    std::free(argv[i]);
  }
  std::free(argv);
  return rc;
}

class PregConformance : public ::testing::TestWithParam<Component> {
 protected:
  void SetUp() override { module_ = Open(*GetParam().descriptor); }

  bool MayDecline(const std::string& input) const {
    return input.find_first_of(GetParam().declines) != std::string::npos;
  }

  // Generates, checks the output's form, parses back: true when handled.
  bool RoundTrip(bool ppn, const std::string& input) {
    std::string regex, back;
    pmix_status_t rc =
        Generate(ppn ? module_->generate_ppn : module_->generate_node_regex, input, &regex);
    if (rc == PMIX_ERR_NOT_SUPPORTED) return false;
    EXPECT_EQ(rc, PMIX_SUCCESS) << input;
    EXPECT_EQ(regex.rfind(GetParam().prefix, 0), 0u) << regex;
    EXPECT_EQ(regex.find('*'), std::string::npos) << regex;
    char sep = ppn ? ';' : ',';
    EXPECT_EQ(ParseJoined(ppn ? module_->parse_procs : module_->parse_nodes, regex, sep, &back),
              PMIX_SUCCESS)
        << regex;
    EXPECT_EQ(back, input) << regex;
    return true;
  }

  const pmix_preg_module_t* module_ = nullptr;
};

TEST_P(PregConformance, DescriptorMatchesTheFramework) {
  const pmix_mca_component_t& c = *GetParam().descriptor;
  EXPECT_STREQ(c.framework, "preg");
  EXPECT_STREQ(c.name, GetParam().name);
  EXPECT_STREQ(module_->name, GetParam().name);
  EXPECT_EQ(c.framework_major, unsigned{PMIX_PREG_INTERFACE_MAJOR});
}

TEST_P(PregConformance, NodeListsRoundTripExactly) {
  for (const std::string& input : NodeCases()) {
    EXPECT_TRUE(RoundTrip(false, input)) << "declined: " << input;
  }
}

TEST_P(PregConformance, LargeNodeListsRoundTrip) {
  EXPECT_TRUE(RoundTrip(false, "node00001"));
  EXPECT_TRUE(RoundTrip(false, pmix::preg::test::HundredNodesAndFriends()));
  EXPECT_TRUE(RoundTrip(false, pmix::preg::test::MixedNodes(100, 1)));
  EXPECT_TRUE(RoundTrip(false, pmix::preg::test::MixedNodes(10000, 2)));
}

TEST_P(PregConformance, ReservedCharactersAreDeclinedOrEncoded) {
  for (const std::string input : {"a*b,c", "n[1],n[2]", "x]", "[", "*"}) {
    bool handled = RoundTrip(false, input);
    EXPECT_EQ(handled, !MayDecline(input)) << input;
  }
}

TEST_P(PregConformance, PpnListsRoundTripExactly) {
  for (const std::string& input : PpnCases()) {
    EXPECT_TRUE(RoundTrip(true, input)) << "declined: " << input;
  }
}

TEST_P(PregConformance, DeclinesOtherRepresentations) {
  std::vector<std::string> foreign = {"a,b", "", "0,1;2", "pmix", "raw", "blob", "xraw:a"};
  for (const Component& other : kComponents) {
    if (other.descriptor != GetParam().descriptor) {
      foreign.push_back(std::string(other.prefix) + "]");
    }
  }
  for (const std::string& regex : foreign) {
    std::string joined;
    EXPECT_EQ(ParseJoined(module_->parse_nodes, regex, ',', &joined), PMIX_ERR_NOT_SUPPORTED)
        << regex;
    EXPECT_EQ(ParseJoined(module_->parse_procs, regex, ';', &joined), PMIX_ERR_NOT_SUPPORTED)
        << regex;
  }
}

INSTANTIATE_TEST_SUITE_P(AllComponents, PregConformance, ::testing::ValuesIn(kComponents),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
