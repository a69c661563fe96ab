// The progress engine: posting, lifecycle, completions (Completion,
// SharedCompletion), external mode.
// Every wait is bounded (kWait) so a broken engine fails instead of hanging.
#include "src/runtime/progress.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

namespace pmix::runtime {
namespace {

using namespace std::chrono_literals;
constexpr std::chrono::milliseconds kWait = 10s;
using Mode = ProgressEngine::Mode;

// Posts a closure that completes `done` and waits for it: everything posted
// before has run by then.
bool Flush(ProgressEngine& engine) {
  Completion<bool> done;
  if (!engine.Post([&] { done.Set(true); }).ok()) return false;
  return done.WaitFor(kWait).has_value();
}

TEST(ProgressEngine, PostsFromSeveralThreadsRunOnceEachInPerThreadOrder) {
  constexpr int kThreads = 4;
  constexpr int kPosts = 1000;
  ProgressEngine engine;
  ASSERT_TRUE(engine.Start(Mode::kThread).ok());
  std::vector<std::vector<int>> seen(kThreads);  // progress thread only
  int off_thread = 0;                            // progress thread only
  std::vector<std::thread> posters;
  for (int t = 0; t < kThreads; ++t) {
    posters.emplace_back([&, t] {
      for (int i = 0; i < kPosts; ++i) {
        Status st = engine.Post([&, t, i] {
          seen[t].push_back(i);
          if (!engine.IsProgressThread()) ++off_thread;
        });
        EXPECT_TRUE(st.ok());
      }
    });
  }
  for (auto& poster : posters) poster.join();
  ASSERT_TRUE(Flush(engine));
  engine.Stop();
  EXPECT_EQ(off_thread, 0);
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_EQ(seen[t].size(), static_cast<size_t>(kPosts)) << "thread " << t;
    for (int i = 0; i < kPosts; ++i) ASSERT_EQ(seen[t][i], i) << "thread " << t;
  }
}

TEST(ProgressEngine, PostBeforeStartFailsAndDestroysTheClosure) {
  ProgressEngine engine;
  auto token = std::make_shared<int>(0);
  bool ran = false;
  EXPECT_EQ(engine.Post([&ran, token] { ran = true; }).code(), PMIX_ERR_INIT);
  EXPECT_EQ(token.use_count(), 1);  // the rejected closure is gone
  ASSERT_TRUE(engine.Start(Mode::kThread).ok());
  ASSERT_TRUE(Flush(engine));
  engine.Stop();
  EXPECT_FALSE(ran);
}

TEST(ProgressEngine, PostAfterStopFailsAndNeverRuns) {
  ProgressEngine engine;
  ASSERT_TRUE(engine.Start(Mode::kThread).ok());
  engine.Stop();
  auto token = std::make_shared<int>(0);
  bool ran = false;
  EXPECT_EQ(engine.Post([&ran, token] { ran = true; }).code(), PMIX_ERR_INIT);
  EXPECT_EQ(token.use_count(), 1);
  EXPECT_FALSE(ran);
  EXPECT_EQ(engine.AddTimer(0ms, [] {}), nullptr);
}

TEST(ProgressEngine, RejectsEmptyClosuresAndASecondStart) {
  ProgressEngine engine;
  ASSERT_TRUE(engine.Start(Mode::kThread).ok());
  EXPECT_EQ(engine.Post(std::function<void()>()).code(), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(engine.Start(Mode::kThread).code(), PMIX_ERROR);
  engine.Stop();
  EXPECT_EQ(engine.Start(Mode::kThread).code(), PMIX_ERROR);
}

TEST(ProgressEngine, StopRunsTheClosuresAlreadyPosted) {
  constexpr int kPending = 100;
  ProgressEngine engine;
  ASSERT_TRUE(engine.Start(Mode::kThread).ok());
  Completion<bool> started, gate;
  ASSERT_TRUE(engine
                  .Post([&] {
                    started.Set(true);
                    gate.WaitFor(kWait);  // holds the queue back until Stop() is called
                  })
                  .ok());
  ASSERT_TRUE(started.WaitFor(kWait).has_value());
  int ran = 0;  // progress thread until Stop() joined it
  for (int i = 0; i < kPending; ++i) ASSERT_TRUE(engine.Post([&] { ++ran; }).ok());
  gate.Set(true);
  engine.Stop();
  EXPECT_EQ(ran, kPending);
}

TEST(ProgressEngine, AClosureCanPostAnother) {
  ProgressEngine engine;
  ASSERT_TRUE(engine.Start(Mode::kThread).ok());
  Completion<bool> inner_on_thread;
  ASSERT_TRUE(engine
                  .Post([&] {
                    Status st =
                        engine.Post([&] { inner_on_thread.Set(engine.IsProgressThread()); });
                    EXPECT_TRUE(st.ok());
                  })
                  .ok());
  auto result = inner_on_thread.WaitFor(kWait);
  ASSERT_TRUE(result.has_value());
  EXPECT_TRUE(*result);
}

TEST(ProgressEngine, IsProgressThreadOnlyOnTheLoopThread) {
  ProgressEngine engine;
  EXPECT_FALSE(engine.IsProgressThread());
  ASSERT_TRUE(engine.Start(Mode::kThread).ok());
  EXPECT_FALSE(engine.IsProgressThread());
  EXPECT_TRUE(engine.BlockingAllowed());
  Completion<std::pair<bool, bool>> inside;
  ASSERT_TRUE(
      engine.Post([&] {
              inside.Set({engine.IsProgressThread(), engine.BlockingAllowed()});
            })
          .ok());
  auto result = inside.WaitFor(kWait);
  ASSERT_TRUE(result.has_value());
  EXPECT_TRUE(result->first);
  EXPECT_FALSE(result->second);
  engine.Stop();
  EXPECT_FALSE(engine.IsProgressThread());
}

TEST(ProgressEngine, StopOnTheProgressThreadIsIgnored) {
  ProgressEngine engine;
  ASSERT_TRUE(engine.Start(Mode::kThread).ok());
  ASSERT_TRUE(engine.Post([&] { engine.Stop(); }).ok());
  EXPECT_TRUE(Flush(engine));  // still running
}

TEST(ProgressEngine, AThrowingClosureDoesNotStopTheLoop) {
  ProgressEngine engine;
  ASSERT_TRUE(engine.Start(Mode::kThread).ok());
  ASSERT_TRUE(engine.Post([] { throw std::runtime_error("expected by the test"); }).ok());
  EXPECT_TRUE(Flush(engine));
}

TEST(ProgressEngine, DestroyingARunningEngineRunsPendingWorkAndJoins) {
  auto engine = std::make_unique<ProgressEngine>();
  ASSERT_TRUE(engine->Start(Mode::kThread).ok());
  std::atomic<int> ran{0};
  for (int i = 0; i < 500; ++i) ASSERT_TRUE(engine->Post([&] { ++ran; }).ok());
  bool timer_ran = false;
  auto timer = engine->AddTimer(10s, [&] { timer_ran = true; });
  ASSERT_NE(timer, nullptr);
  engine.reset();
  EXPECT_EQ(ran.load(), 500);
  EXPECT_FALSE(timer_ran);
  timer->Cancel();  // inert once the engine is gone
  timer.reset();
}

TEST(Completion, WaitReturnsAValueSetOnAnotherThread) {
  Completion<int> done;
  std::thread setter([&] { done.Set(7); });
  EXPECT_EQ(done.Wait(), 7);
  setter.join();
}

// The blocking-API pattern: the waiter's Completion lives on its stack and
// dies as soon as the wait returns, while Set() may still be finishing on
// the progress thread. (Probabilistic: TSan reports a notify after unlock.)
TEST(Completion, MayBeDestroyedAsSoonAsTheWaitReturns) {
  ProgressEngine engine;
  ASSERT_TRUE(engine.Start(Mode::kThread).ok());
  for (int i = 0; i < 2000; ++i) {
    Completion<int> done;
    ASSERT_TRUE(engine.Post([&done, i] { done.Set(i); }).ok());
    auto value = done.WaitFor(kWait);
    ASSERT_TRUE(value.has_value());
    ASSERT_EQ(*value, i);
  }
}

TEST(Completion, WaitForExpiresWhenNothingIsSet) {
  Completion<int> never;
  EXPECT_FALSE(never.WaitFor(1ms).has_value());
}

TEST(Completion, KeepsTheFirstValue) {
  Completion<int> done;
  done.Set(1);
  done.Set(2);
  auto value = done.WaitFor(kWait);
  ASSERT_TRUE(value.has_value());
  EXPECT_EQ(*value, 1);
}

TEST(SharedCompletion, WaitReturnsAValueSetOnAnotherThread) {
  auto done = SharedCompletion<int>::Make();
  std::thread setter([done] { done->Set(7); });
  EXPECT_EQ(done->Wait(), 7);
  setter.join();
}

// The blocking helpers' pattern (context.h): the setter's closure holds a
// reference of its own, the waiter lets go of its reference the moment the
// wait returns, while Set() may still be notifying on the progress thread.
// (Probabilistic, like the Completion test above: TSan would report a
// notify on a freed object.) The last reference, the closure's, frees it.
TEST(SharedCompletion, TheWaiterMayDropItsReferenceAsSoonAsTheWaitReturns) {
  ProgressEngine engine;
  ASSERT_TRUE(engine.Start(Mode::kThread).ok());
  std::vector<std::weak_ptr<SharedCompletion<int>>> watched;
  for (int i = 0; i < 2000; ++i) {
    auto done = SharedCompletion<int>::Make();
    watched.push_back(done);
    ASSERT_TRUE(engine.Post([done, i] { done->Set(i); }).ok());
    auto value = done->WaitFor(kWait);
    done.reset();
    ASSERT_TRUE(value.has_value());
    ASSERT_EQ(*value, i);
  }
  ASSERT_TRUE(Flush(engine));  // every closure has run and been destroyed
  for (const auto& w : watched) EXPECT_TRUE(w.expired());
}

// Set() keeps the object alive until it has notified even when its caller
// holds no reference (a raw pointer): the waiter may hold the only one and
// drop it as soon as it sees the value.
TEST(SharedCompletion, SetThroughARawPointerWhileTheWaiterHoldsTheOnlyReference) {
  ProgressEngine engine;
  ASSERT_TRUE(engine.Start(Mode::kThread).ok());
  for (int i = 0; i < 2000; ++i) {
    auto done = SharedCompletion<int>::Make();
    std::weak_ptr<SharedCompletion<int>> watch = done;
    SharedCompletion<int>* raw = done.get();
    ASSERT_TRUE(engine.Post([raw, i] { raw->Set(i); }).ok());
    auto value = done->WaitFor(kWait);
    done.reset();
    ASSERT_TRUE(value.has_value());
    ASSERT_EQ(*value, i);
    ASSERT_TRUE(Flush(engine));  // Set() has returned and let go of its reference
    ASSERT_TRUE(watch.expired());
  }
}

TEST(SharedCompletion, DeliversOneValueWhenSeveralThreadsSet) {
  constexpr int kSetters = 4;
  for (int round = 0; round < 200; ++round) {
    auto done = SharedCompletion<int>::Make();
    std::vector<std::thread> setters;
    for (int t = 1; t <= kSetters; ++t) setters.emplace_back([done, t] { done->Set(t); });
    auto value = done->WaitFor(kWait);
    for (auto& t : setters) t.join();
    ASSERT_TRUE(value.has_value());
    EXPECT_GE(*value, 1);
    EXPECT_LE(*value, kSetters);
  }
}

TEST(SharedCompletion, KeepsTheFirstValue) {
  auto done = SharedCompletion<int>::Make();
  done->Set(1);
  done->Set(2);
  auto value = done->WaitFor(kWait);
  ASSERT_TRUE(value.has_value());
  EXPECT_EQ(*value, 1);
}

TEST(SharedCompletion, WaitForExpiresWhenNothingIsSet) {
  auto never = SharedCompletion<int>::Make();
  EXPECT_FALSE(never->WaitFor(1ms).has_value());
}

TEST(ExternalProgress, NothingRunsUntilRunOnceOnTheCallersThread) {
  ProgressEngine engine;
  ASSERT_TRUE(engine.Start(Mode::kExternal).ok());
  std::vector<std::thread::id> ran_on;
  std::vector<bool> flagged;
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(engine
                    .Post([&] {
                      ran_on.push_back(std::this_thread::get_id());
                      flagged.push_back(engine.IsProgressThread());
                    })
                    .ok());
  }
  EXPECT_TRUE(ran_on.empty());
  EXPECT_FALSE(engine.IsProgressThread());
  EXPECT_EQ(engine.RunOnce(), 3);
  EXPECT_FALSE(engine.IsProgressThread());
  ASSERT_EQ(ran_on.size(), 3u);
  for (size_t i = 0; i < ran_on.size(); ++i) {
    EXPECT_EQ(ran_on[i], std::this_thread::get_id());
    EXPECT_TRUE(flagged[i]);
  }
  EXPECT_EQ(engine.RunOnce(), 0);
}

TEST(ExternalProgress, RunOnceWorksFromAnyThreadAndIsNotReentrant) {
  ProgressEngine engine;
  ASSERT_TRUE(engine.Start(Mode::kExternal).ok());
  int nested = -1;
  std::thread::id ran_on;
  ASSERT_TRUE(engine
                  .Post([&] {
                    ran_on = std::this_thread::get_id();
                    nested = engine.RunOnce();
                  })
                  .ok());
  std::thread::id runner_id;
  std::thread runner([&] {
    runner_id = std::this_thread::get_id();
    EXPECT_EQ(engine.RunOnce(), 1);
  });
  runner.join();
  EXPECT_EQ(ran_on, runner_id);
  EXPECT_EQ(nested, 0);
}

TEST(ExternalProgress, StopRunsPendingClosuresOnTheCaller) {
  ProgressEngine engine;
  ASSERT_TRUE(engine.Start(Mode::kExternal).ok());
  int ran = 0;
  bool posted_during_stop = true;
  ASSERT_TRUE(engine
                  .Post([&] {
                    ++ran;
                    posted_during_stop = engine.Post([&] { ++ran; }).ok();
                  })
                  .ok());
  engine.Stop();
  EXPECT_EQ(ran, 1);
  EXPECT_FALSE(posted_during_stop);  // after Stop() nothing is accepted
  EXPECT_EQ(engine.RunOnce(), 0);
}

TEST(ExternalProgress, RunOnceIsANoOpInThreadMode) {
  ProgressEngine engine;
  ASSERT_TRUE(engine.Start(Mode::kThread).ok());
  EXPECT_EQ(engine.RunOnce(), 0);
}

}  // namespace
}  // namespace pmix::runtime
