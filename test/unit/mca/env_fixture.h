// Test helpers for the MCA tests: a private temp directory, environment
// changes undone at the end of each test, and parameter files redirected
// into the temp directory so that the machine's own files never interfere.
#ifndef PMIXX_TEST_UNIT_MCA_ENV_FIXTURE_H
#define PMIXX_TEST_UNIT_MCA_ENV_FIXTURE_H

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>

#include "mca/base/framework_registry.h"
#include "mca/base/var.h"

namespace pmix::mca::testing {

class MCAEnvTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/pmixx-mca-test-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    // Whatever the caller's environment says, start from known files.
    SetEnv("PMIX_MCA_mca_base_param_files", dir_ + "/user.conf:" + dir_ + "/system.conf");
    SetEnv("PMIX_MCA_mca_base_override_param_file", dir_ + "/override.conf");
    SetEnv("PMIX_MCA_mca_base_component_path", dir_ + "/components");
    ResetVarsForTesting();
  }

  void TearDown() override {
    CloseAllFrameworks();
    for (const auto& [name, old] : saved_) {
      if (old) {
        setenv(name.c_str(), old->c_str(), 1);
      } else {
        unsetenv(name.c_str());
      }
    }
    ResetVarsForTesting();
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

  void Remember(const std::string& name) {
    if (saved_.count(name)) return;
    const char* old = getenv(name.c_str());
    saved_[name] = old ? std::optional<std::string>(old) : std::nullopt;
  }
  void SetEnv(const std::string& name, const std::string& value) {
    Remember(name);
    setenv(name.c_str(), value.c_str(), 1);
  }
  void UnsetEnv(const std::string& name) {
    Remember(name);
    unsetenv(name.c_str());
  }
  void WriteFile(const std::string& name, const std::string& text) {
    std::ofstream(dir_ + "/" + name) << text;
  }

  std::string dir_;

 private:
  std::map<std::string, std::optional<std::string>> saved_;
};

}  // namespace pmix::mca::testing

#endif  // PMIXX_TEST_UNIT_MCA_ENV_FIXTURE_H
