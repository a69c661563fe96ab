#include "mca/base/var_parse.h"

#include <gtest/gtest.h>

#include <climits>

namespace pmix::mca {
namespace {

struct GoodCase {
  pmix_mca_param_type_t type;
  const char* text;
  const char* canonical;  // FormatVarValue of the result
};

const GoodCase kGood[] = {
    {PMIX_MCA_PARAM_INT, "42", "42"},
    {PMIX_MCA_PARAM_INT, " -17 ", "-17"},
    {PMIX_MCA_PARAM_INT, "0x10", "16"},
    {PMIX_MCA_PARAM_INT, "9223372036854775807", "9223372036854775807"},
    {PMIX_MCA_PARAM_UNSIGNED, "18446744073709551615", "18446744073709551615"},
    {PMIX_MCA_PARAM_UNSIGNED, "0", "0"},
    {PMIX_MCA_PARAM_SIZE, "4096", "4096"},
    {PMIX_MCA_PARAM_SIZE, "4k", "4096"},
    {PMIX_MCA_PARAM_SIZE, "2M", "2097152"},
    {PMIX_MCA_PARAM_SIZE, "1gb", "1073741824"},
    {PMIX_MCA_PARAM_BOOL, "1", "true"},
    {PMIX_MCA_PARAM_BOOL, "TRUE", "true"},
    {PMIX_MCA_PARAM_BOOL, "yes", "true"},
    {PMIX_MCA_PARAM_BOOL, "On", "true"},
    {PMIX_MCA_PARAM_BOOL, "0", "false"},
    {PMIX_MCA_PARAM_BOOL, "false", "false"},
    {PMIX_MCA_PARAM_BOOL, "no", "false"},
    {PMIX_MCA_PARAM_BOOL, "off", "false"},
    {PMIX_MCA_PARAM_DOUBLE, "2.5", "2.5"},
    {PMIX_MCA_PARAM_DOUBLE, "-1e3", "-1000"},
};

TEST(VarParse, AcceptsEveryTypesSyntax) {
  for (const GoodCase& c : kGood) {
    pmix_mca_param_value_t value{};
    EXPECT_EQ(ParseVarText(c.type, c.text, &value), "") << VarTypeName(c.type) << " " << c.text;
    EXPECT_EQ(value.type, c.type);
    EXPECT_EQ(FormatVarValue(value), c.canonical) << c.text;
  }
}

struct BadCase {
  pmix_mca_param_type_t type;
  const char* text;
  const char* reason_part;
};

const BadCase kBad[] = {
    {PMIX_MCA_PARAM_INT, "abc", "not an integer"},
    {PMIX_MCA_PARAM_INT, "12x", "not an integer"},
    {PMIX_MCA_PARAM_INT, "", "empty"},
    {PMIX_MCA_PARAM_INT, "99999999999999999999", "out of range"},
    {PMIX_MCA_PARAM_UNSIGNED, "-1", "negative"},
    {PMIX_MCA_PARAM_UNSIGNED, "1.5", "not an unsigned"},
    {PMIX_MCA_PARAM_UNSIGNED, "99999999999999999999", "out of range"},
    {PMIX_MCA_PARAM_SIZE, "4q", "not a size"},
    {PMIX_MCA_PARAM_SIZE, "4kk", "not a size"},
    {PMIX_MCA_PARAM_SIZE, "-4k", "negative"},
    {PMIX_MCA_PARAM_SIZE, "17179869184g", "out of range"},
    {PMIX_MCA_PARAM_BOOL, "maybe", "not a boolean"},
    {PMIX_MCA_PARAM_BOOL, "2", "not a boolean"},
    {PMIX_MCA_PARAM_DOUBLE, "pi", "not a number"},
    {PMIX_MCA_PARAM_DOUBLE, "1e999", "out of range"},
    {PMIX_MCA_PARAM_DOUBLE, "nan", "out of range"},
};

TEST(VarParse, RefusesBadTextWithAReasonAndLeavesOutputUntouched) {
  for (const BadCase& c : kBad) {
    pmix_mca_param_value_t value{};
    value.type = PMIX_MCA_PARAM_INT;
    value.value.integer = 12345;
    std::string reason = ParseVarText(c.type, c.text, &value);
    EXPECT_NE(reason.find(c.reason_part), std::string::npos)
        << VarTypeName(c.type) << " '" << c.text << "' -> " << reason;
    EXPECT_EQ(value.value.integer, 12345) << c.text;
  }
}

TEST(VarParse, StringsAreTakenAsGiven) {
  pmix_mca_param_value_t value{};
  EXPECT_EQ(ParseVarText(PMIX_MCA_PARAM_STRING, " a b ", &value), "");
  EXPECT_EQ(value.type, PMIX_MCA_PARAM_STRING);
  EXPECT_EQ(value.value.string, nullptr);  // the caller points it at its text
}

TEST(VarParse, NamesEveryType) {
  EXPECT_STREQ(VarTypeName(PMIX_MCA_PARAM_INT), "int");
  EXPECT_STREQ(VarTypeName(PMIX_MCA_PARAM_UNSIGNED), "unsigned");
  EXPECT_STREQ(VarTypeName(PMIX_MCA_PARAM_SIZE), "size");
  EXPECT_STREQ(VarTypeName(PMIX_MCA_PARAM_BOOL), "bool");
  EXPECT_STREQ(VarTypeName(PMIX_MCA_PARAM_STRING), "string");
  EXPECT_STREQ(VarTypeName(PMIX_MCA_PARAM_DOUBLE), "double");
  EXPECT_STREQ(VarTypeName(static_cast<pmix_mca_param_type_t>(77)), "unknown");
}

}  // namespace
}  // namespace pmix::mca
