// The blocking helpers of context.h (CallBlocking, WaitForCallback) on the
// process's engine, in thread and external-progress mode. Every test
// acquires the engine and releases it before returning.
#include "src/runtime/context.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <thread>
#include <utility>

namespace pmix::runtime {
namespace {

using Mode = ProgressEngine::Mode;

// Holds the process's engine for one test.
class EngineHold {
 public:
  explicit EngineHold(Mode mode) : ok_(AcquireEngine(mode).ok()) {}
  ~EngineHold() {
    if (ok_) (void)ReleaseEngine();
  }
  bool ok() const { return ok_; }

 private:
  bool ok_;
};

TEST(CallBlocking, ReturnsTheValueHandedToDoneOnTheProgressThread) {
  EngineHold hold(Mode::kThread);
  ASSERT_TRUE(hold.ok());
  for (int i = 0; i < 1000; ++i) {
    Result<int> r = CallBlocking<int>(
        [i](std::function<void(int)> done) { done(Engine()->IsProgressThread() ? i : -1); });
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(*r, i);
  }
}

// `done` called later, from another callback on the progress thread.
TEST(CallBlocking, DoneMayComeFromALaterCallback) {
  EngineHold hold(Mode::kThread);
  ASSERT_TRUE(hold.ok());
  Result<int> r = CallBlocking<int>([](std::function<void(int)> done) {
    ProgressEngine* engine = Engine();
    (void)engine->Post([done = std::move(done)] { done(42); });
  });
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, 42);
}

TEST(CallBlocking, OnTheProgressThreadWouldBlock) {
  EngineHold hold(Mode::kThread);
  ASSERT_TRUE(hold.ok());
  Result<int> r = CallBlocking<int>([](std::function<void(int)> done) {
    Result<int> inner = CallBlocking<int>([](std::function<void(int)> d) { d(1); });
    done(inner.ok() ? 0 : inner.status().code());
  });
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, PMIX_ERR_WOULD_BLOCK);
}

TEST(CallBlocking, WithoutAnEngineIsInit) {
  Result<int> r = CallBlocking<int>([](std::function<void(int)> done) { done(1); });
  EXPECT_EQ(r.status().code(), PMIX_ERR_INIT);
}

// External progress: nobody runs the loop but the waiter, which drives it.
TEST(CallBlocking, TheWaiterDrivesAnExternalEngine) {
  EngineHold hold(Mode::kExternal);
  ASSERT_TRUE(hold.ok());
  const std::thread::id me = std::this_thread::get_id();
  for (int i = 0; i < 100; ++i) {
    Result<bool> r = CallBlocking<bool>(
        [me](std::function<void(bool)> done) { done(std::this_thread::get_id() == me); });
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(*r);  // ran on the waiting thread, inside its RunOnce
  }
}

// The callback comes from a thread of its own, which holds its copy of the
// callback (and so of the waiter) until after it returned.
TEST(WaitForCallback, TheCallbackMayComeFromAnotherThread) {
  EngineHold hold(Mode::kThread);
  ASSERT_TRUE(hold.ok());
  for (int i = 0; i < 200; ++i) {
    std::thread caller;
    Result<int> r = WaitForCallback<int>([&caller, i](std::function<void(int&&)> cb) {
      caller = std::thread([cb = std::move(cb), i] { cb(i + 1); });
      return PMIX_SUCCESS;
    });
    caller.join();
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(*r, i + 1);
  }
}

TEST(WaitForCallback, AFailedStartIsReturnedWithoutWaiting) {
  EngineHold hold(Mode::kThread);
  ASSERT_TRUE(hold.ok());
  Result<int> r =
      WaitForCallback<int>([](std::function<void(int&&)>) { return PMIX_ERR_BAD_PARAM; });
  EXPECT_EQ(r.status().code(), PMIX_ERR_BAD_PARAM);
}

TEST(WaitForCallback, TheWaiterDrivesAnExternalEngine) {
  EngineHold hold(Mode::kExternal);
  ASSERT_TRUE(hold.ok());
  Result<int> r = WaitForCallback<int>([](std::function<void(int&&)> cb) {
    return Engine()->Post([cb = std::move(cb)] { cb(5); }).code();
  });
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, 5);
}

}  // namespace
}  // namespace pmix::runtime
