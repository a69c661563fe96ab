#include "test/unit/ptl/ptl_test_util.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>
#include <vector>

#include "mca/ptl/base/frame.h"
#include "mca/ptl/base/frame_io.h"

namespace pmix::ptl::test {

TempDir::TempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern =
      std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/pmixx-ptl-XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (::mkdtemp(buffer.data()) != nullptr) path_ = buffer.data();
  EXPECT_FALSE(path_.empty()) << "mkdtemp failed";
}

TempDir::~TempDir() {
  std::error_code ec;
  if (!path_.empty()) std::filesystem::remove_all(path_, ec);
}

namespace {
pmix_info_t KeyOnly(const char* key) {
  pmix_info_t info;
  std::memset(&info, 0, sizeof info);
  std::strncpy(info.key, key, PMIX_MAX_KEYLEN);
  return info;
}
}  // namespace

pmix_info_t StringInfo(const char* key, const char* value) {
  pmix_info_t info = KeyOnly(key);
  info.value.type = PMIX_STRING;
  info.value.data.string = const_cast<char*>(value);
  return info;
}

pmix_info_t IntInfo(const char* key, int value) {
  pmix_info_t info = KeyOnly(key);
  info.value.type = PMIX_INT;
  info.value.data.integer = value;
  return info;
}

pmix_info_t BoolInfo(const char* key, bool value) {
  pmix_info_t info = KeyOnly(key);
  info.value.type = PMIX_BOOL;
  info.value.data.flag = value;
  return info;
}

const pmix_ptl_module_t* OpenModule(const pmix_mca_component_t& component,
                                    const pmix_mca_param_value_t* values) {
  void* context = nullptr;
  EXPECT_EQ(component.open(nullptr, values, &context), PMIX_SUCCESS);
  const void* module = nullptr;
  int priority = 0;
  EXPECT_EQ(component.query(context, &module, &priority), PMIX_SUCCESS);
  EXPECT_EQ(priority, component.default_priority);
  return static_cast<const pmix_ptl_module_t*>(module);
}

bool IsCloexec(int fd) { return (::fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0; }
bool IsNonblocking(int fd) { return (::fcntl(fd, F_GETFL) & O_NONBLOCK) != 0; }

bool HasNoDelay(int fd) {
  int value = 0;
  socklen_t len = sizeof value;
  return ::getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &value, &len) == 0 && value != 0;
}

bool WaitReadable(int fd, std::chrono::milliseconds timeout) {
  pollfd pfd{fd, POLLIN, 0};
  return ::poll(&pfd, 1, static_cast<int>(timeout.count())) == 1;
}

namespace {
// Sends frame from `from` on a helper thread (large frames exceed the
// socket buffers) and receives it at `to`.
void SendAndExpect(int from, int to, FrameReader& reader, const Frame& frame) {
  Status sent;
  std::thread sender([&] { sent = SendFrame(from, frame, kWait); });
  auto got = RecvFrame(to, reader, kWait);
  sender.join();
  ASSERT_TRUE(sent.ok()) << sent.code();
  ASSERT_TRUE(got.ok()) << got.status().code();
  EXPECT_EQ(*got, frame);
}
}  // namespace

void ExchangeFrames(int a, int b) {
  FrameReader reader_a(1 << 20), reader_b(1 << 20);
  for (size_t size : {size_t{0}, size_t{1}, size_t{1000}, size_t{300000}}) {
    Frame frame;
    frame.type = static_cast<uint16_t>(size % 65536);
    frame.tag = static_cast<uint32_t>(size + 7);
    frame.flags = 3;
    for (size_t i = 0; i < size; ++i) frame.payload.push_back(static_cast<uint8_t>(i * 31));
    SendAndExpect(a, b, reader_b, frame);
    frame.tag += 1;
    SendAndExpect(b, a, reader_a, frame);
  }
}

}  // namespace pmix::ptl::test
