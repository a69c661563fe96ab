#include "src/event/dispatcher.h"

#include <gtest/gtest.h>

#include <thread>

#include "test/unit/event/event_test_util.h"

namespace pmix::event {
namespace {

using testing::BoolInfo;
using testing::Call;
using testing::MakeTestEvent;
using testing::ManualPoster;
using testing::Proc;
using testing::Recorder;
using testing::RecordingHandler;
using testing::Spec;
using testing::StringInfo;

const pmix_proc_t kSelf = Proc("ns", 0);

class DispatcherTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Recorder::Get().Reset();
    d_ = Dispatcher::Create(poster_.poster(), 4);
  }
  void TearDown() override {
    poster_.Pump();
    d_.reset();
    Recorder::Get().Reset();
  }
  size_t Add(HandlerSpec spec) {
    Result<size_t> id = d_->Register(std::move(spec), &RecordingHandler);
    EXPECT_TRUE(id.ok());
    return id.ok() ? *id : SIZE_MAX;
  }
  void Raise(pmix_status_t code, std::vector<pmix_info_t> info = {}) {
    d_->Deliver(MakeTestEvent(code, kSelf, std::move(info)), kSelf);
  }
  std::vector<size_t> Ids() { return Recorder::Get().Ids(); }

  ManualPoster poster_;
  std::shared_ptr<Dispatcher> d_;
};

TEST_F(DispatcherTest, RunsTheChainInOrderOneHandlerPerCompletion) {
  size_t def = Add(Spec({}));
  size_t single = Add(Spec({5}));
  Raise(5);
  // The first handler ran synchronously; its completion waits for the pump.
  EXPECT_EQ(Ids(), (std::vector<size_t>{single}));
  poster_.Pump();
  EXPECT_EQ(Ids(), (std::vector<size_t>{single, def}));
  EXPECT_FALSE(d_->busy());
}

TEST_F(DispatcherTest, ResultsAccumulateWithEachHandlersStatus) {
  Add(Spec({5}, {StringInfo(PMIX_EVENT_HDLR_NAME, "alpha")}));
  Add(Spec({5}));
  Add(Spec({}));
  Recorder::Get().on_call = [](const Call& c) {
    pmix_info_t r;
    PMIX_INFO_LOAD(&r, "res", "x", PMIX_STRING);
    c.cbfunc(c.id == 0 ? PMIX_EVENT_PARTIAL_ACTION_TAKEN : PMIX_SUCCESS, &r, 1, nullptr, nullptr,
             c.cbdata);
    PMIX_INFO_DESTRUCT(&r);  // the library copied it before returning
  };
  Raise(5);
  poster_.Pump();
  const auto& calls = Recorder::Get().calls;
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_TRUE(calls[0].result_keys.empty());
  EXPECT_EQ(calls[1].result_keys, (std::vector<std::string>{"alpha", "res"}));
  EXPECT_EQ(calls[1].result_statuses,
            (std::vector<pmix_status_t>{PMIX_EVENT_PARTIAL_ACTION_TAKEN}));
  EXPECT_EQ(calls[2].result_keys, (std::vector<std::string>{"alpha", "res", "UNKNOWN", "res"}));
  EXPECT_EQ(calls[0].info_keys, (std::vector<std::string>{PMIX_EVENT_HDLR_NAME}));
  EXPECT_TRUE(calls[1].info_keys.empty());
}

TEST_F(DispatcherTest, ActionCompleteStopsTheChain) {
  Add(Spec({5}));
  Add(Spec({}));
  Recorder::Get().reply = PMIX_EVENT_ACTION_COMPLETE;
  Raise(5);
  poster_.Pump();
  EXPECT_EQ(Ids(), (std::vector<size_t>{0}));
}

TEST_F(DispatcherTest, EventsRunOneChainAtATimeInArrivalOrder) {
  Add(Spec({}));
  std::vector<Call> held;
  Recorder::Get().on_call = [&](const Call& c) { held.push_back(c); };
  Raise(5);
  Raise(6);
  Raise(7);
  ASSERT_EQ(held.size(), 1u);
  EXPECT_EQ(d_->queued(), 2u);
  for (size_t i = 0; i < 3; ++i) {
    ASSERT_EQ(held.size(), i + 1);
    held[i].cbfunc(PMIX_SUCCESS, nullptr, 0, nullptr, nullptr, held[i].cbdata);
    poster_.Pump();
  }
  const auto& calls = Recorder::Get().calls;
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls[0].status, 5);
  EXPECT_EQ(calls[1].status, 6);
  EXPECT_EQ(calls[2].status, 7);
}

TEST_F(DispatcherTest, CompletionFromAnotherThreadContinuesOnThePoster) {
  Add(Spec({5}));
  Add(Spec({}));
  std::vector<Call> held;
  Recorder::Get().on_call = [&](const Call& c) { held.push_back(c); };
  Raise(5);
  ASSERT_EQ(held.size(), 1u);
  static bool op_called = false;
  op_called = false;
  pmix_op_cbfunc_t op = [](pmix_status_t, void*) { op_called = true; };
  std::thread t([&] { held[0].cbfunc(PMIX_SUCCESS, nullptr, 0, op, nullptr, held[0].cbdata); });
  t.join();
  EXPECT_EQ(held.size(), 1u);  // nothing ran on the completing thread
  EXPECT_FALSE(op_called);
  poster_.Pump();
  EXPECT_TRUE(op_called);
  EXPECT_EQ(held.size(), 2u);
}

TEST_F(DispatcherTest, RepeatedCompletionIsIgnored) {
  Add(Spec({5}));
  Add(Spec({}));
  std::vector<Call> held;
  Recorder::Get().on_call = [&](const Call& c) { held.push_back(c); };
  Raise(5);
  held[0].cbfunc(PMIX_SUCCESS, nullptr, 0, nullptr, nullptr, held[0].cbdata);
  held[0].cbfunc(PMIX_SUCCESS, nullptr, 0, nullptr, nullptr, held[0].cbdata);
  poster_.Pump();
  EXPECT_EQ(held.size(), 2u);
}

TEST_F(DispatcherTest, DeregistrationDuringAChainSkipsTheHandler) {
  size_t a = Add(Spec({5}));
  size_t b = Add(Spec({5, 6}));
  size_t c = Add(Spec({}));
  Recorder::Get().on_call = [&](const Call& call) {
    if (call.id == a) {
      EXPECT_TRUE(d_->Deregister(b).ok());
    }
    call.cbfunc(PMIX_SUCCESS, nullptr, 0, nullptr, nullptr, call.cbdata);
  };
  Raise(5);
  poster_.Pump();
  EXPECT_EQ(Ids(), (std::vector<size_t>{a, c}));
}

TEST_F(DispatcherTest, DeregisteringTheRunningHandlerStillContinues) {
  size_t a = Add(Spec({5}));
  size_t c = Add(Spec({}));
  Recorder::Get().on_call = [&](const Call& call) {
    if (call.id == a) {
      EXPECT_TRUE(d_->Deregister(a).ok());
    }
    call.cbfunc(PMIX_SUCCESS, nullptr, 0, nullptr, nullptr, call.cbdata);
  };
  Raise(5);
  poster_.Pump();
  EXPECT_EQ(Ids(), (std::vector<size_t>{a, c}));
}

TEST_F(DispatcherTest, UnmatchedEventsAreCachedAndReplayedToALaterHandler) {
  Raise(5, {StringInfo("k", "v")});
  Raise(6);
  Raise(5);
  EXPECT_EQ(d_->cached(), 3u);
  size_t h = Add(Spec({5}));
  d_->ReplayCached(h);
  poster_.Pump();
  const auto& calls = Recorder::Get().calls;
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].info_keys, (std::vector<std::string>{"k"}));
  EXPECT_TRUE(calls[1].info_keys.empty());
  EXPECT_EQ(d_->cached(), 1u);  // the 6 is still waiting
}

TEST_F(DispatcherTest, ChainDoneGetsTheChainsResultsOnce) {
  Add(Spec({5}, {StringInfo(PMIX_EVENT_HDLR_NAME, "alpha")}));
  Add(Spec({5}));
  Recorder::Get().on_call = [](const Call& c) {
    pmix_info_t r;
    PMIX_INFO_LOAD(&r, "res", "x", PMIX_STRING);
    c.cbfunc(PMIX_SUCCESS, &r, 1, nullptr, nullptr, c.cbdata);
    PMIX_INFO_DESTRUCT(&r);
  };
  int calls = 0;
  std::vector<std::string> keys;
  bool handled = false;
  d_->Deliver(MakeTestEvent(5, kSelf, {}), kSelf, [&](const wire::Infos& results, bool h) {
    ++calls;
    handled = h;
    for (const pmix_info_t& i : results.view()) keys.push_back(i.key);
  });
  EXPECT_EQ(calls, 0);  // the first handler's completion waits for the pump
  poster_.Pump();
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(handled);
  EXPECT_EQ(keys, (std::vector<std::string>{"alpha", "res", "UNKNOWN", "res"}));
}

TEST_F(DispatcherTest, ChainDoneSaysUnhandledAtOnceAndTheEventIsStillCached) {
  int calls = 0;
  bool handled = true;
  d_->Deliver(MakeTestEvent(7, kSelf, {}), kSelf, [&](const wire::Infos& results, bool h) {
    ++calls;
    handled = h;
    EXPECT_EQ(results.size(), 0u);
  });
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(handled);
  EXPECT_EQ(d_->cached(), 1u);
  size_t h = Add(Spec({7}));
  d_->ReplayCached(h);
  poster_.Pump();
  EXPECT_EQ(Recorder::Get().calls.size(), 1u);
  EXPECT_EQ(calls, 1);  // not kept with the cached event
}

TEST_F(DispatcherTest, CacheIsBoundedAndHonoursDoNotCache) {
  for (int i = 0; i < 6; ++i) Raise(100 + i);
  Raise(5, {BoolInfo(PMIX_EVENT_DO_NOT_CACHE)});
  EXPECT_EQ(d_->cached(), 4u);  // limit 4: the oldest two dropped
  size_t h = Add(Spec({}));
  d_->ReplayCached(h);
  poster_.Pump();
  std::vector<pmix_status_t> seen;
  for (const Call& c : Recorder::Get().calls) seen.push_back(c.status);
  EXPECT_EQ(seen, (std::vector<pmix_status_t>{102, 103, 104, 105}));
}

TEST_F(DispatcherTest, ReturnObjectIsPassedToTheHandler) {
  int object = 0;
  pmix_info_t i;
  PMIX_INFO_LOAD(&i, PMIX_EVENT_RETURN_OBJECT, &object, PMIX_POINTER);
  Add(Spec({5}, {i}));
  Raise(5);
  ASSERT_EQ(Recorder::Get().calls.size(), 1u);
  EXPECT_EQ(Recorder::Get().calls[0].object, &object);
}

TEST_F(DispatcherTest, ShutdownDropsEverythingAndLateCompletionsAreHarmless) {
  Add(Spec({}));
  std::vector<Call> held;
  Recorder::Get().on_call = [&](const Call& c) { held.push_back(c); };
  Raise(5);
  Raise(6);
  d_->Shutdown();
  EXPECT_EQ(d_->queued(), 0u);
  EXPECT_EQ(d_->registry().size(), 0u);
  static int op_calls = 0;
  op_calls = 0;
  held[0].cbfunc(
      PMIX_SUCCESS, nullptr, 0, [](pmix_status_t, void*) { ++op_calls; }, nullptr, held[0].cbdata);
  EXPECT_EQ(op_calls, 1);  // answered at once: the chain is gone
  poster_.Pump();
  EXPECT_EQ(held.size(), 1u);
}

TEST_F(DispatcherTest, CompletionAfterTheDispatcherIsGone) {
  Add(Spec({}));
  std::vector<Call> held;
  Recorder::Get().on_call = [&](const Call& c) { held.push_back(c); };
  Raise(5);
  d_.reset();
  held[0].cbfunc(PMIX_SUCCESS, nullptr, 0, nullptr, nullptr, held[0].cbdata);
  EXPECT_EQ(poster_.Pump(), 0);
}

}  // namespace
}  // namespace pmix::event
