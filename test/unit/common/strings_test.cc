// The printing functions return exactly what the ABI reference returns.
//
// reference_strings.tsv (measured from Debian's OpenPMIx 4.2.2 by
// test/tools/measure_reference_strings.sh) lists function, input and output
// for the whole input domain of every *_string function and for every
// attribute name and string; each row is replayed here. The data directory
// is PMIXX_TEST_DATA_DIR (set by the build), else test/unit/common relative
// to the working directory (run from the top of the source tree).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "pmix.h"
#include "src/common/tables.h"

#ifndef PMIXX_TEST_DATA_DIR
#define PMIXX_TEST_DATA_DIR "test/unit/common"
#endif

namespace {

const std::string kNull = "<NULL>";
const std::string kCrash = "<CRASH>";

std::string DataPath(const std::string& rel) {
  return std::string(PMIXX_TEST_DATA_DIR) + "/" + rel;
}

std::vector<std::vector<std::string>> ReadTsv(const std::string& path, bool has_header) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (has_header && (line.empty() || line[0] == '#')) continue;
    std::vector<std::string> fields;
    std::stringstream ss(line);
    std::string field;
    while (std::getline(ss, field, '\t')) fields.push_back(field);
    if (!line.empty() && line.back() == '\t') fields.emplace_back();
    rows.push_back(fields);
  }
  if (has_header && !rows.empty()) rows.erase(rows.begin());
  return rows;
}

// Undoes the \t \n \r \\ escapes of the measurement tool.
std::string Unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    char c = s[++i];
    out += c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r' : c;
  }
  return out;
}

std::string Show(const char* s) { return s == nullptr ? kNull : std::string(s); }

using Numeric = std::function<std::string(long long)>;
using Unsigned = std::function<std::string(unsigned long long)>;

// Adapts `const char* fn(T)` to take the measured input as In.
template <class In, class T>
std::function<std::string(In)> Wrap(const char* (*fn)(T)) {
  return [fn](In v) { return Show(fn(static_cast<T>(v))); };
}

const std::map<std::string, Numeric>& NumericFunctions() {
  static const std::map<std::string, Numeric> kFunctions = {
      {"PMIx_Error_string", Wrap<long long>(PMIx_Error_string)},
      {"PMIx_Proc_state_string", Wrap<long long>(PMIx_Proc_state_string)},
      {"PMIx_Scope_string", Wrap<long long>(PMIx_Scope_string)},
      {"PMIx_Persistence_string", Wrap<long long>(PMIx_Persistence_string)},
      {"PMIx_Data_range_string", Wrap<long long>(PMIx_Data_range_string)},
      {"PMIx_Alloc_directive_string", Wrap<long long>(PMIx_Alloc_directive_string)},
      {"PMIx_Job_state_string", Wrap<long long>(PMIx_Job_state_string)},
      {"PMIx_Link_state_string", Wrap<long long>(PMIx_Link_state_string)},
      {"PMIx_Data_type_string", Wrap<long long>(PMIx_Data_type_string)},
      {"PMIx_Value_comparison_string", Wrap<long long>(PMIx_Value_comparison_string)},
  };
  return kFunctions;
}

std::string InfoDirectives(unsigned long long v) {
  std::unique_ptr<char, decltype(&free)> s(
      PMIx_Info_directives_string(static_cast<pmix_info_directives_t>(v)), &free);
  return Show(s.get());
}

const std::map<std::string, Unsigned>& MaskFunctions() {
  static const std::map<std::string, Unsigned> kFunctions = {
      {"PMIx_IOF_channel_string", Wrap<unsigned long long>(PMIx_IOF_channel_string)},
      {"PMIx_Device_type_string", Wrap<unsigned long long>(PMIx_Device_type_string)},
      {"PMIx_Info_directives_string", InfoDirectives},
  };
  return kFunctions;
}

// Attribute lookups: unknown inputs come back as the caller's own pointer.
std::string CallAttributeFunction(const std::string& fn, const std::string& input) {
  const bool null_input = input == kNull;
  const char* arg = null_input ? nullptr : input.c_str();
  const char* out = fn == "PMIx_Get_attribute_string" ? PMIx_Get_attribute_string(arg)
                                                      : PMIx_Get_attribute_name(arg);
  if (!null_input && out != nullptr && std::string(out) == input) {
    EXPECT_EQ(out, arg) << fn << "(" << input << ") should return its argument";
  }
  return Show(out);
}

std::string Call(const std::string& fn, const std::string& input) {
  if (auto it = NumericFunctions().find(fn); it != NumericFunctions().end()) {
    return it->second(std::stoll(input));
  }
  if (auto it = MaskFunctions().find(fn); it != MaskFunctions().end()) {
    return it->second(std::stoull(input));
  }
  if (fn == "PMIx_Get_attribute_string" || fn == "PMIx_Get_attribute_name") {
    return CallAttributeFunction(fn, input);
  }
  ADD_FAILURE() << "unknown function in reference: " << fn;
  return "";
}

TEST(ReferenceStrings, EveryMeasuredOutputIsReproduced) {
  const auto rows = ReadTsv(DataPath("reference_strings.tsv"), /*has_header=*/false);
  ASSERT_GT(rows.size(), 9000u);
  std::map<std::string, int> per_function;
  int mismatches = 0;
  for (const auto& row : rows) {
    ASSERT_EQ(row.size(), 3u);
    const std::string input = row[1] == kNull ? kNull : Unescape(row[1]);
    std::string expected = row[2] == kNull ? kNull : Unescape(row[2]);
    // The reference crashes on NULL; we answer NULL (see strings.cc).
    if (expected == kCrash) expected = kNull;
    const std::string actual = Call(row[0], input);
    ++per_function[row[0]];
    if (actual != expected && ++mismatches <= 20) {
      ADD_FAILURE() << row[0] << "(" << input << "): want \"" << expected << "\", got \"" << actual
                    << "\"";
    }
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_EQ(per_function.size(), 15u) << "every string function is measured";
}

TEST(ReferenceStrings, UnknownAttributeInputsReturnTheSamePointer) {
  const char* name = "PMIX_NOT_AN_ATTRIBUTE";
  EXPECT_EQ(PMIx_Get_attribute_string(name), name);
  const char* string = "pmix.not.an.attribute";
  EXPECT_EQ(PMIx_Get_attribute_name(string), string);
  EXPECT_EQ(PMIx_Get_attribute_string(nullptr), nullptr);
  EXPECT_EQ(PMIx_Get_attribute_name(nullptr), nullptr);
}

TEST(ReferenceStrings, IofChannelStringsAreStableAcrossThreads) {
  std::vector<const char*> first(256);
  for (unsigned v = 0; v < 256; ++v)
    first[v] = PMIx_IOF_channel_string(static_cast<pmix_iof_channel_t>(v));
  std::vector<std::thread> threads;
  std::atomic<int> differing{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int round = 0; round < 200; ++round) {
        for (unsigned v = 0; v < 256; ++v) {
          if (PMIx_IOF_channel_string(static_cast<pmix_iof_channel_t>(v)) != first[v]) ++differing;
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(differing.load(), 0);
  EXPECT_STREQ(first[PMIX_FWD_STDIN_CHANNEL | PMIX_FWD_STDERR_CHANNEL], "STDIN STDERR ");
}

TEST(ReferenceStrings, InfoDirectivesStringIsCallerOwned) {
  char* s = PMIx_Info_directives_string(PMIX_INFO_REQD | PMIX_INFO_ARRAY_END);
  ASSERT_NE(s, nullptr);
  EXPECT_STREQ(s, "REQUIRED:END");
  free(s);
}

// Every row of gen/attributes.tsv, both directions.
class AttributeTable : public ::testing::Test {
 protected:
  void SetUp() override {
    rows_ = ReadTsv(DataPath("../../../gen/attributes.tsv"), /*has_header=*/true);
    ASSERT_GT(rows_.size(), 500u);
  }
  // Columns: name string type openpmix_type origin deprecated provisional macro lookup
  std::vector<std::vector<std::string>> rows_;
};

TEST_F(AttributeTable, TableHasEveryRowInOrder) {
  const auto all = pmix::tables::Attributes();
  ASSERT_EQ(all.size(), rows_.size());
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    EXPECT_STREQ(all[i].name, rows_[i][0].c_str());
    EXPECT_STREQ(all[i].string, rows_[i][1].c_str());
    EXPECT_STREQ(all[i].c_type, rows_[i][2].c_str());
    EXPECT_STREQ(all[i].origin, rows_[i][4].c_str());
  }
}

TEST_F(AttributeTable, FindsEveryAttributeByNameAndString) {
  for (const auto& r : rows_) {
    const auto* by_name = pmix::tables::FindAttributeByName(r[0]);
    ASSERT_NE(by_name, nullptr) << r[0];
    EXPECT_STREQ(by_name->string, r[1].c_str());
    const auto* by_string = pmix::tables::FindAttributeByString(r[1]);
    ASSERT_NE(by_string, nullptr) << r[1];
    EXPECT_STREQ(by_string->string, r[1].c_str());
    if (r[8] == "both") {
      EXPECT_EQ(by_string, by_name) << r[0];
    }
  }
  EXPECT_EQ(pmix::tables::FindAttributeByName("PMIX_RANKX"), nullptr);
  EXPECT_EQ(pmix::tables::FindAttributeByString("pmix.rankx"), nullptr);
  EXPECT_EQ(pmix::tables::FindAttributeByName(""), nullptr);
}

TEST_F(AttributeTable, ApiLookupsFollowTheLookupColumn) {
  for (const auto& r : rows_) {
    const std::string& name = r[0];
    const std::string& string = r[1];
    const std::string& lookup = r[8];
    EXPECT_STREQ(PMIx_Get_attribute_string(name.c_str()),
                 lookup == "none" ? name.c_str() : string.c_str())
        << name;
    if (lookup == "both") {
      EXPECT_STREQ(PMIx_Get_attribute_name(string.c_str()), name.c_str()) << string;
    } else {
      EXPECT_STRNE(PMIx_Get_attribute_name(string.c_str()), name.c_str()) << string;
    }
  }
}

TEST_F(AttributeTable, TypesMapToDataTypeCodes) {
  const auto* rank = pmix::tables::FindAttributeByName("PMIX_RANK");
  ASSERT_NE(rank, nullptr);
  EXPECT_EQ(rank->type, PMIX_PROC_RANK);
  const auto* host = pmix::tables::FindAttributeByName("PMIX_HOSTNAME");
  ASSERT_NE(host, nullptr);
  EXPECT_EQ(host->type, PMIX_STRING);
  EXPECT_EQ(pmix::tables::FindAttributeByName("PMIX_ATTR_UNDEF")->type, PMIX_UNDEF);
}

TEST(StatusNames, NamesKnownCodesAndPrefersCurrentNames) {
  EXPECT_STREQ(pmix::tables::StatusName(PMIX_ERR_TIMEOUT), "PMIX_ERR_TIMEOUT");
  EXPECT_STREQ(pmix::tables::StatusName(PMIX_ERR_EXISTS), "PMIX_ERR_EXISTS");  // not PMIX_EXISTS
  EXPECT_STREQ(pmix::tables::StatusName(PMIX_EVENT_SYS_BASE), "PMIX_EVENT_SYS_BASE");
  EXPECT_EQ(pmix::tables::StatusName(-2999), nullptr);
}

}  // namespace
