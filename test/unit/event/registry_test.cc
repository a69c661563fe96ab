#include "src/event/registry.h"

#include <gtest/gtest.h>

#include "test/unit/event/event_test_util.h"

namespace pmix::event {
namespace {

using testing::BoolInfo;
using testing::MakeTestEvent;
using testing::Proc;
using testing::RecordingHandler;
using testing::Spec;
using testing::StringInfo;

const pmix_proc_t kSelf = Proc("ns", 0);

size_t AddOk(Registry& r, HandlerSpec spec) {
  Result<size_t> id = r.Add(std::move(spec), &RecordingHandler);
  EXPECT_TRUE(id.ok());
  return id.ok() ? *id : SIZE_MAX;
}

std::vector<size_t> ChainFor(const Registry& r, pmix_status_t code,
                             std::vector<pmix_info_t> info = {}, pmix_proc_t source = kSelf) {
  EventPtr ev = MakeTestEvent(code, source, std::move(info));
  return r.Chain(*ev, kSelf);
}

TEST(EventRegistry, IdsStartAtZeroAndAreNotReused) {
  Registry r;
  EXPECT_EQ(AddOk(r, Spec({1})), 0u);
  EXPECT_EQ(AddOk(r, Spec({1})), 1u);
  EXPECT_TRUE(r.Remove(1).ok());
  EXPECT_EQ(AddOk(r, Spec({1})), 2u);
  EXPECT_EQ(r.Remove(7).code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(r.Remove(1).code(), PMIX_ERR_BAD_PARAM);
}

TEST(EventRegistry, CategoriesOrderSingleThenMultiThenDefault) {
  Registry r;
  size_t def = AddOk(r, Spec({}));
  size_t multi = AddOk(r, Spec({5, 6}));
  size_t single = AddOk(r, Spec({5}));
  size_t other = AddOk(r, Spec({7}));
  EXPECT_EQ(ChainFor(r, 5), (std::vector<size_t>{single, multi, def}));
  EXPECT_EQ(ChainFor(r, 6), (std::vector<size_t>{multi, def}));
  EXPECT_EQ(ChainFor(r, 8), (std::vector<size_t>{def}));
  (void)other;
}

TEST(EventRegistry, NonDefaultEventSkipsDefaultHandlers) {
  Registry r;
  AddOk(r, Spec({}));
  size_t single = AddOk(r, Spec({5}));
  EXPECT_EQ(ChainFor(r, 5, {BoolInfo(PMIX_EVENT_NON_DEFAULT)}), (std::vector<size_t>{single}));
}

TEST(EventRegistry, GlobalFirstAndLastWrapEverything) {
  Registry r;
  size_t def = AddOk(r, Spec({}));
  size_t last = AddOk(r, Spec({5}, {BoolInfo(PMIX_EVENT_HDLR_LAST)}));
  size_t single = AddOk(r, Spec({5}));
  size_t first = AddOk(r, Spec({5, 6}, {BoolInfo(PMIX_EVENT_HDLR_FIRST)}));
  EXPECT_EQ(ChainFor(r, 5), (std::vector<size_t>{first, single, def, last}));
  EXPECT_EQ(ChainFor(r, 6), (std::vector<size_t>{first, def}));
}

TEST(EventRegistry, SecondFirstOrLastIsRefusedUntilTheSlotIsFreed) {
  Registry r;
  size_t first = AddOk(r, Spec({5}, {BoolInfo(PMIX_EVENT_HDLR_FIRST)}));
  AddOk(r, Spec({5}, {BoolInfo(PMIX_EVENT_HDLR_LAST)}));
  EXPECT_EQ(r.Add(Spec({}, {BoolInfo(PMIX_EVENT_HDLR_FIRST)}), &RecordingHandler).status().code(),
            PMIX_ERR_EVENT_REGISTRATION);
  EXPECT_EQ(r.Add(Spec({}, {BoolInfo(PMIX_EVENT_HDLR_LAST)}), &RecordingHandler).status().code(),
            PMIX_ERR_EVENT_REGISTRATION);
  EXPECT_TRUE(r.Remove(first).ok());
  EXPECT_TRUE(r.Add(Spec({}, {BoolInfo(PMIX_EVENT_HDLR_FIRST)}), &RecordingHandler).ok());
}

TEST(EventRegistry, PrependAppendAndCategoryEnds) {
  Registry r;
  size_t a = AddOk(r, Spec({5}));
  size_t b = AddOk(r, Spec({5}, {BoolInfo(PMIX_EVENT_HDLR_PREPEND)}));
  size_t lastcat = AddOk(r, Spec({5}, {BoolInfo(PMIX_EVENT_HDLR_LAST_IN_CATEGORY)}));
  size_t c = AddOk(r, Spec({5}, {BoolInfo(PMIX_EVENT_HDLR_APPEND)}));
  size_t firstcat = AddOk(r, Spec({5}, {BoolInfo(PMIX_EVENT_HDLR_FIRST_IN_CATEGORY)}));
  size_t d = AddOk(r, Spec({5}, {BoolInfo(PMIX_EVENT_HDLR_PREPEND)}));
  EXPECT_EQ(ChainFor(r, 5), (std::vector<size_t>{firstcat, d, b, a, c, lastcat}));
}

TEST(EventRegistry, BeforeAndAfterNamedHandlersInTheChain) {
  Registry r;
  size_t a = AddOk(r, Spec({5}, {StringInfo(PMIX_EVENT_HDLR_NAME, "A")}));
  size_t b = AddOk(r, Spec({5}, {StringInfo(PMIX_EVENT_HDLR_NAME, "B")}));
  size_t c = AddOk(r, Spec({5}, {StringInfo(PMIX_EVENT_HDLR_BEFORE, "A")}));
  size_t d = AddOk(r, Spec({5}, {StringInfo(PMIX_EVENT_HDLR_AFTER, "A")}));
  size_t e = AddOk(r, Spec({5}, {StringInfo(PMIX_EVENT_HDLR_AFTER, "missing")}));
  EXPECT_EQ(ChainFor(r, 5), (std::vector<size_t>{c, a, d, b, e}));
}

TEST(EventRegistry, BeforeAnotherCategoryIsIgnored) {
  Registry r;
  size_t def = AddOk(r, Spec({}, {StringInfo(PMIX_EVENT_HDLR_BEFORE, "S")}));
  size_t s = AddOk(r, Spec({5}, {StringInfo(PMIX_EVENT_HDLR_NAME, "S")}));
  EXPECT_EQ(ChainFor(r, 5), (std::vector<size_t>{s, def}));
}

TEST(EventRegistry, SourceRangeFiltersHandlers) {
  Registry r;
  size_t proc_local = AddOk(r, Spec({5}, {[] {
                                      pmix_info_t i;
                                      pmix_data_range_t rng = PMIX_RANGE_PROC_LOCAL;
                                      PMIX_INFO_LOAD(&i, PMIX_RANGE, &rng, PMIX_DATA_RANGE);
                                      return i;
                                    }()}));
  size_t nspace = AddOk(r, Spec({5}, {[] {
                                  pmix_info_t i;
                                  pmix_data_range_t rng = PMIX_RANGE_NAMESPACE;
                                  PMIX_INFO_LOAD(&i, PMIX_RANGE, &rng, PMIX_DATA_RANGE);
                                  return i;
                                }()}));
  pmix_proc_t listed = Proc("other", 3);
  pmix_data_array_t arr{PMIX_PROC, 1, &listed};
  pmix_info_t custom;
  PMIX_INFO_CONSTRUCT(&custom);
  PMIX_LOAD_KEY(custom.key, PMIX_EVENT_CUSTOM_RANGE);
  custom.value.type = PMIX_DATA_ARRAY;
  custom.value.data.darray = &arr;
  Result<HandlerSpec> custom_spec =
      ParseHandlerSpec(std::vector<pmix_status_t>{5}.data(), 1, &custom, 1);
  ASSERT_TRUE(custom_spec.ok());
  size_t custom_id = AddOk(r, std::move(custom_spec).value());
  size_t any = AddOk(r, Spec({5}));
  EXPECT_EQ(ChainFor(r, 5, {}, kSelf), (std::vector<size_t>{proc_local, nspace, any}));
  EXPECT_EQ(ChainFor(r, 5, {}, Proc("ns", 4)), (std::vector<size_t>{nspace, any}));
  EXPECT_EQ(ChainFor(r, 5, {}, Proc("other", 3)), (std::vector<size_t>{custom_id, any}));
}

TEST(EventRegistry, AffectedProcFilter) {
  Registry r;
  pmix_proc_t watched = Proc("ns", 2);
  pmix_info_t i;
  PMIX_INFO_LOAD(&i, PMIX_EVENT_AFFECTED_PROC, &watched, PMIX_PROC);
  size_t filtered = AddOk(r, Spec({5}, {i}));
  size_t any = AddOk(r, Spec({5}));
  pmix_info_t hit;
  PMIX_INFO_LOAD(&hit, PMIX_EVENT_AFFECTED_PROC, &watched, PMIX_PROC);
  pmix_proc_t other = Proc("ns", 3);
  pmix_info_t miss;
  PMIX_INFO_LOAD(&miss, PMIX_EVENT_AFFECTED_PROC, &other, PMIX_PROC);
  EXPECT_EQ(ChainFor(r, 5, {hit}), (std::vector<size_t>{filtered, any}));
  EXPECT_EQ(ChainFor(r, 5, {miss}), (std::vector<size_t>{any}));
  // An event naming no affected process reaches the filtered handler too
  // (OpenPMIx 4.2.2, measured).
  EXPECT_EQ(ChainFor(r, 5), (std::vector<size_t>{filtered, any}));
}

TEST(EventSpec, RejectsBadInput) {
  pmix_info_t bad_name;
  int n = 3;
  PMIX_INFO_LOAD(&bad_name, PMIX_EVENT_HDLR_NAME, &n, PMIX_INT);
  EXPECT_EQ(ParseHandlerSpec(nullptr, 0, &bad_name, 1).status().code(),
            PMIX_ERR_EVENT_REGISTRATION);
  EXPECT_EQ(ParseHandlerSpec(nullptr, 1, nullptr, 0).status().code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(ParseHandlerSpec(nullptr, 0, nullptr, 2).status().code(), PMIX_ERR_BAD_PARAM);
  pmix_info_t both[2];
  bool t = true;
  PMIX_INFO_LOAD(&both[0], PMIX_EVENT_HDLR_FIRST, &t, PMIX_BOOL);
  PMIX_INFO_LOAD(&both[1], PMIX_EVENT_HDLR_LAST, &t, PMIX_BOOL);
  EXPECT_EQ(ParseHandlerSpec(nullptr, 0, both, 2).status().code(), PMIX_ERR_EVENT_REGISTRATION);
}

TEST(EventSpec, MakeEventValidatesRange) {
  pmix_proc_t src = kSelf;
  EXPECT_EQ(MakeEvent(5, src, 42, nullptr, 0).status().code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(MakeEvent(5, src, PMIX_RANGE_CUSTOM, nullptr, 0).status().code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(MakeEvent(5, src, PMIX_RANGE_LOCAL, nullptr, 1).status().code(), PMIX_ERR_BAD_PARAM);
  EXPECT_TRUE(MakeEvent(5, src, PMIX_RANGE_SESSION, nullptr, 0).ok());
}

TEST(EventSpec, TargetRanges) {
  struct Row {
    pmix_data_range_t range;
    pmix_proc_t target;
    bool in;
  } rows[] = {
      {PMIX_RANGE_NAMESPACE, Proc("ns", 3), true},   {PMIX_RANGE_NAMESPACE, Proc("x", 0), false},
      {PMIX_RANGE_SESSION, Proc("x", 0), true},      {PMIX_RANGE_GLOBAL, Proc("x", 0), true},
      {PMIX_RANGE_PROC_LOCAL, Proc("ns", 0), false}, {PMIX_RANGE_RM, Proc("ns", 1), false},
      {PMIX_RANGE_UNDEF, Proc("y", 1), true},
  };
  for (const Row& row : rows) {
    EventPtr ev = MakeTestEvent(5, kSelf, {}, row.range);
    ASSERT_TRUE(ev);
    EXPECT_EQ(TargetInRange(*ev, row.target), row.in) << int(row.range);
  }
}

}  // namespace
}  // namespace pmix::event
