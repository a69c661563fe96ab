// The component repository and framework lifecycle over the toy plugins
// (test/unit/mca/toys/), in a test-only framework "toy".
#include "config.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <filesystem>
#include <thread>

#include "mca/base/framework_impl.h"
#include "mca/base/framework_registry.h"
#include "test/unit/mca/env_fixture.h"
#include "test/unit/mca/toys/toy.h"

namespace pmix::mca {
namespace {

using ::testing::internal::CaptureStderr;
using ::testing::internal::GetCapturedStderr;

const pmix_mca_param_desc_t kToyBaseParams[] = {
    {"depth", PMIX_MCA_PARAM_UNSIGNED, "3", "a base parameter", nullptr},
};
const FrameworkSpec kToySpec = {"toy", TOY_INTERFACE_MAJOR, TOY_INTERFACE_MINOR, true,
                                "test-only framework", kToyBaseParams};
const FrameworkSpec kToySingleSpec = {"toy", TOY_INTERFACE_MAJOR, TOY_INTERFACE_MINOR, false,
                                      "test-only framework, single-select", {}};
const FrameworkSpec kKnownOnlySpec = {"toyknown", 1, 0, false, "never used", {}};
const KnownFramework kKnown(kKnownOnlySpec);

class Repository : public testing::MCAEnvTest {
 protected:
  void SetUp() override {
    MCAEnvTest::SetUp();
#ifndef PMIXX_ENABLE_DLOPEN
    GTEST_SKIP() << "static build: no plugins are dlopen'd";
#endif
    std::filesystem::create_directories(dir_ + "/components");
  }
  // Links toy `name` into `subdir` of the temp dir.
  void AddToy(const std::string& name, const std::string& subdir = "components") {
    std::string file = "pmix_mca_toy_" + name + ".so";
    std::filesystem::create_directories(dir_ + "/" + subdir);
    std::filesystem::create_symlink(std::string(PMIXX_TOY_DIR) + "/" + file,
                                    dir_ + "/" + subdir + "/" + file);
  }
  void AddAllToys() {
    for (const char* name : {"good", "high", "low", "unavail", "badmca", "badfw", "nosym",
                             "misnamed", "undef", "badparam"}) {
      AddToy(name);
    }
    WriteFile("components/pmix_mca_toy_corrupt.so", "this is not an ELF file\n");
  }
  Status EnsureToy() {
    ResetVarsForTesting();
    return GetFramework(kToySpec).Ensure();
  }
  std::vector<std::string> SelectedNames(const Framework& fw) {
    std::vector<std::string> names;
    for (const SelectedModule& m : fw.Selected()) {
      names.push_back(static_cast<const toy_module_t*>(m.module)->name);
    }
    return names;
  }
  ComponentRecord Record(const std::string& name) {
    for (const ComponentRecord& r : ListComponents("toy")) {
      if (r.name == name) return r;
    }
    ADD_FAILURE() << "no record for " << name;
    return {};
  }
};

struct Expectation {
  const char* name;
  ComponentStatus status;
  const char* text;  // a part of reason (refused) or note (loaded)
  bool selected;
};

const Expectation kAllToys[] = {
    {"good", ComponentStatus::kLoaded, "", true},
    {"high", ComponentStatus::kLoaded, "", true},
    {"low", ComponentStatus::kLoaded, "", true},
    {"unavail", ComponentStatus::kLoaded, "not available", false},
    {"badmca", ComponentStatus::kRefused, "mca_major is 9, expected 1", false},
    {"badfw", ComponentStatus::kRefused, "framework_major is 2, expected 3", false},
    {"nosym", ComponentStatus::kRefused, "symbol pmix_mca_toy_nosym_component not found", false},
    {"misnamed", ComponentStatus::kRefused, "component name is 'other', expected 'misnamed'",
     false},
    {"corrupt", ComponentStatus::kRefused, "cannot load: not an ELF file (libltdl: ", false},
    {"badparam", ComponentStatus::kRefused, "invalid parameter table", false},
    {"undef", ComponentStatus::kRefused, "undefined symbol: toy_symbol_nobody_defines", false},
};

TEST_F(Repository, JudgesEveryToyAndSelectsByPriority) {
  AddAllToys();
  CaptureStderr();
  ASSERT_TRUE(EnsureToy().ok());
  std::string err = GetCapturedStderr();
  for (const Expectation& e : kAllToys) {
    ComponentRecord r = Record(e.name);
    EXPECT_EQ(r.status, e.status) << e.name << ": " << r.reason;
    const std::string& text = e.status == ComponentStatus::kRefused ? r.reason : r.note;
    EXPECT_NE(text.find(e.text), std::string::npos) << e.name << ": " << text;
    EXPECT_EQ(r.selected, e.selected) << e.name;
    EXPECT_EQ(r.path, dir_ + "/components/pmix_mca_toy_" + e.name + ".so");
    if (e.status == ComponentStatus::kRefused) {
      EXPECT_NE(err.find(r.path), std::string::npos) << err;  // one clear line each
    }
  }
  EXPECT_EQ(Record("good").version_release, 3u);
  EXPECT_EQ(Record("good").priority, 10);
  EXPECT_EQ(Record("badmca").mca_major, 9u);
  const Framework& fw = GetFramework(kToySpec);
  EXPECT_EQ(SelectedNames(fw), (std::vector<std::string>{"high", "good", "low"}));
  EXPECT_EQ(fw.First<toy_module_t>()->name, std::string("high"));
  EXPECT_EQ(fw.BaseParam("depth").value.uinteger, 3u);
}

TEST_F(Repository, CorruptFileReasonIncludesTheLoaderError) {
  WriteFile("components/pmix_mca_toy_corrupt.so", "not an ELF\n");
  AddToy("good");
  CaptureStderr();
  ASSERT_TRUE(EnsureToy().ok());
  std::string err = GetCapturedStderr();
  ComponentRecord r = Record("corrupt");
  EXPECT_EQ(r.status, ComponentStatus::kRefused);
  EXPECT_NE(r.reason.find("not an ELF file"), std::string::npos) << r.reason;
  EXPECT_NE(err.find("pmix_mca_toy_corrupt.so"), std::string::npos) << err;
}

// DESIGN §4: "a,b" means only these, in this order, whatever their priorities.
TEST_F(Repository, IncludeListKeepsOnlyTheNamedInListOrder) {
  AddAllToys();
  SetEnv("PMIX_MCA_toy", "low,good");
  CaptureStderr();
  ASSERT_TRUE(EnsureToy().ok());
  GetCapturedStderr();
  EXPECT_EQ(SelectedNames(GetFramework(kToySpec)), (std::vector<std::string>{"low", "good"}));
  EXPECT_EQ(Record("high").note, "not in PMIX_MCA_toy");
}

TEST_F(Repository, ExcludeListDropsTheNamedAndOnlyWarnsAboutUnknownOnes) {
  AddAllToys();
  SetEnv("PMIX_MCA_toy", "^high,nonesuch");
  CaptureStderr();
  ASSERT_TRUE(EnsureToy().ok());
  std::string err = GetCapturedStderr();
  EXPECT_EQ(SelectedNames(GetFramework(kToySpec)), (std::vector<std::string>{"good", "low"}));
  EXPECT_EQ(Record("high").note, "excluded by PMIX_MCA_toy");
  EXPECT_TRUE(FindVar("toy_high_level").has_value());  // pmix_info still lists it
  EXPECT_NE(err.find("nonesuch"), std::string::npos) << err;
}

TEST_F(Repository, NegationAfterTheFirstCharacterIsBadParam) {
  AddToy("good");
  SetEnv("PMIX_MCA_toy", "good,^low");
  CaptureStderr();
  EXPECT_EQ(EnsureToy().code(), PMIX_ERR_BAD_PARAM);
  std::string err = GetCapturedStderr();
  EXPECT_NE(err.find("good,^low"), std::string::npos) << err;
  EXPECT_TRUE(GetFramework(kToySpec).Selected().empty());
}

TEST_F(Repository, MissingRequestedComponentNamesItAndThePath) {
  AddToy("good");
  SetEnv("PMIX_MCA_mca_base_component_path", dir_ + "/nowhere:" + dir_ + "/components");
  SetEnv("PMIX_MCA_toy", "good,missing");
  CaptureStderr();
  EXPECT_EQ(EnsureToy().code(), PMIX_ERR_NOT_FOUND);
  std::string err = GetCapturedStderr();
  EXPECT_NE(err.find("'missing'"), std::string::npos) << err;
  EXPECT_NE(err.find(dir_ + "/nowhere:" + dir_ + "/components"), std::string::npos) << err;
  // The outcome is kept: a second Ensure returns it without a second message.
  CaptureStderr();
  EXPECT_EQ(GetFramework(kToySpec).Ensure().code(), PMIX_ERR_NOT_FOUND);
  EXPECT_EQ(GetCapturedStderr(), "");
}

TEST_F(Repository, RequestingARefusedComponentSaysWhy) {
  AddToy("badfw");
  AddToy("good");
  SetEnv("PMIX_MCA_toy", "badfw");
  CaptureStderr();
  EXPECT_EQ(EnsureToy().code(), PMIX_ERR_NOT_FOUND);
  std::string err = GetCapturedStderr();
  EXPECT_NE(err.find("'badfw' requested by PMIX_MCA_toy was refused: framework_major"),
            std::string::npos)
      << err;
}

TEST_F(Repository, NoUsableComponentIsNotSupported) {
  AddToy("unavail");
  AddToy("nosym");
  CaptureStderr();
  EXPECT_EQ(EnsureToy().code(), PMIX_ERR_NOT_SUPPORTED);
  std::string err = GetCapturedStderr();
  EXPECT_NE(err.find("no toy component is available"), std::string::npos) << err;
}

TEST_F(Repository, UserPriorityBeatsTheQueriedOne) {
  AddToy("good");
  AddToy("high");
  AddToy("low");
  SetEnv("PMIX_MCA_toy_low_priority", "100");
  ASSERT_TRUE(EnsureToy().ok());
  EXPECT_EQ(SelectedNames(GetFramework(kToySpec)),
            (std::vector<std::string>{"low", "high", "good"}));
  EXPECT_EQ(Record("low").priority, 100);
}

TEST_F(Repository, ComponentsReceiveTheirTypedParameters) {
  AddToy("good");
  SetEnv("PMIX_MCA_toy_good_level", "42");
  WriteFile("user.conf", "toy_old_label = from-a-file\n");  // the deprecated synonym
  CaptureStderr();
  ASSERT_TRUE(EnsureToy().ok());
  std::string err = GetCapturedStderr();
  const auto* module = GetFramework(kToySpec).First<toy_module_t>();
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->level(), 42);
  EXPECT_STREQ(module->label(), "from-a-file");
  EXPECT_NE(err.find("use toy_good_label"), std::string::npos) << err;
  auto priority = FindVar("toy_good_priority");
  ASSERT_TRUE(priority.has_value());
  EXPECT_EQ(priority->parsed.value.integer, 10);
}

TEST_F(Repository, SingleSelectKeepsOnlyTheBest) {
  AddToy("good");
  AddToy("high");
  AddToy("low");
  FrameworkImpl single(kToySingleSpec);
  ASSERT_TRUE(single.Ensure().ok());
  ASSERT_EQ(single.Selected().size(), 1u);
  EXPECT_STREQ(single.First<toy_module_t>()->name, "high");
  EXPECT_EQ(single.Selected().front().priority, 50);
  std::vector<ComponentRecord> records = single.Components();
  auto good = std::find_if(records.begin(), records.end(),
                           [](const ComponentRecord& r) { return r.name == "good"; });
  ASSERT_NE(good, records.end());
  EXPECT_EQ(good->note, "not selected (single-select)");
  single.Close();  // the closed contexts would otherwise leak under valgrind
}

TEST_F(Repository, FirstFileFoundWinsAndDuplicatesAreShadowed) {
  AddToy("good", "first");
  AddToy("good", "second");
  SetEnv("PMIX_MCA_mca_base_component_path", dir_ + "/first:" + dir_ + "/second");
  SetEnv("PMIX_MCA_toy_base_verbose", "1");
  CaptureStderr();
  ASSERT_TRUE(EnsureToy().ok());
  std::string err = GetCapturedStderr();
  std::vector<ComponentRecord> records = ListComponents("toy");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].path, dir_ + "/first/pmix_mca_toy_good.so");
  EXPECT_EQ(records[0].status, ComponentStatus::kLoaded);
  EXPECT_EQ(records[1].status, ComponentStatus::kShadowed);
  EXPECT_NE(records[1].reason.find(records[0].path), std::string::npos);
  EXPECT_NE(err.find(records[1].path), std::string::npos) << err;
}

TEST_F(Repository, ServicesOutputFollowsTheFrameworkVerbosity) {
  AddToy("good");
  CaptureStderr();
  ASSERT_TRUE(EnsureToy().ok());
  EXPECT_EQ(GetCapturedStderr().find("toy good opened"), std::string::npos);
  CloseAllFrameworks();
  SetEnv("PMIX_MCA_toy_base_verbose", "5");
  CaptureStderr();
  ASSERT_TRUE(EnsureToy().ok());
  EXPECT_NE(GetCapturedStderr().find("toy good opened"), std::string::npos);
  EXPECT_EQ(GetFramework(kToySpec).Verbosity(), 5);
}

TEST_F(Repository, ConcurrentEnsureOpensOnceAndAgrees) {
  AddToy("good");
  AddToy("high");
  ResetVarsForTesting();
  Framework& fw = GetFramework(kToySpec);
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&] {
      if (fw.Ensure().ok() && fw.Selected().size() == 2) ++ok;
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(ok.load(), 8);
  EXPECT_EQ(ListComponents("toy").size(), 2u);  // found once, not once per thread
}

class Frameworks : public testing::MCAEnvTest {};

TEST_F(Frameworks, ListsFrameworksIncludingKnownOnes) {
  GetFramework(kToySpec);
  std::vector<std::string> names;
  for (const FrameworkSpec* spec : ListFrameworks()) names.push_back(spec->name);
  EXPECT_NE(std::find(names.begin(), names.end(), "toy"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "toyknown"), names.end());
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_EQ(CloseFramework("never-created").code(), PMIX_ERR_NOT_FOUND);
}

}  // namespace
}  // namespace pmix::mca
