// The region conformance suite (include/pmix/mca/gds.h, region_create ..
// region_release), run against every gds module that offers shared
// regions: create, fill, seal, attach in another process through a
// descriptor passed over a socketpair; attach refuses what is not a sealed
// region of the announced size; nothing can write a sealed region; no
// descriptor or mapping is left behind.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "pmix/mca/gds.h"
#include "pmix/mca/mca.h"
#include "test/unit/gds/gds_test_util.h"
#include "test/unit/gds/region_test_util.h"

extern "C" pmix_mca_component_t pmix_mca_gds_shmem_component;

namespace pmix::gds::test {
namespace {

// A component's module, opened and queried through its descriptor;
// nullptr when its query declines.
template <pmix_mca_component_t* Component>
const pmix_gds_module_t* ModuleOf() {
  static const void* module = [] {
    void* context = nullptr;
    const void* found = nullptr;
    int priority = 0;
    if (Component->open(nullptr, nullptr, &context) != PMIX_SUCCESS) return found;
    if (Component->query(context, &found, &priority) != PMIX_SUCCESS) found = nullptr;
    return found;
  }();
  return static_cast<const pmix_gds_module_t*>(module);
}

struct Case {
  const char* name;
  const pmix_gds_module_t* (*module)();
};

const Case kCases[] = {
    {"shmem", ModuleOf<&pmix_mca_gds_shmem_component>},
};

class RegionConformance : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    module_ = GetParam().module();
    ASSERT_NE(module_, nullptr) << GetParam().name << " is not available here";
    ASSERT_NE(module_->region_create, nullptr);
    ASSERT_NE(module_->region_seal, nullptr);
    ASSERT_NE(module_->region_attach, nullptr);
    ASSERT_NE(module_->region_release, nullptr);
    fds_before_ = OpenFdCount();
    maps_before_ = MappingCount();
  }
  void TearDown() override {
    EXPECT_EQ(OpenFdCount(), fds_before_) << "a descriptor was leaked";
    EXPECT_EQ(MappingCount(), maps_before_) << "a mapping was leaked";
  }

  // A sealed region of size bytes holding Pattern(i).
  pmix_gds_region_t SealedRegion(size_t size) {
    pmix_gds_region_t r{};
    r.fd = -1;
    EXPECT_EQ(module_->region_create(size, &r), PMIX_SUCCESS);
    Fill(r, size);
    EXPECT_EQ(module_->region_seal(&r), PMIX_SUCCESS);
    return r;
  }

  const pmix_gds_module_t* module_ = nullptr;
  size_t fds_before_ = 0;
  size_t maps_before_ = 0;
};

// How a process that wrote to read-only memory ends: SIGSEGV, or with
// AddressSanitizer an exit after its report of the SEGV.
#if defined(__SANITIZE_ADDRESS__)
#define PMIXX_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PMIXX_TEST_ASAN 1
#endif
#endif
#ifdef PMIXX_TEST_ASAN
constexpr const char* kSegvReport = "AddressSanitizer: SEGV";
bool DiedOfSegv(int status) { return WIFEXITED(status) && WEXITSTATUS(status) != 0; }
#else
constexpr const char* kSegvReport = "";
bool DiedOfSegv(int status) { return WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV; }
#endif

TEST_P(RegionConformance, CreateGivesZeroedWritableMemoryWithoutDescriptor) {
  pmix_gds_region_t r{nullptr, 0, -1, nullptr};
  ASSERT_EQ(module_->region_create(10000, &r), PMIX_SUCCESS);
  ASSERT_NE(r.base, nullptr);
  EXPECT_EQ(r.size, 10000u);
  EXPECT_EQ(r.fd, -1) << "an unsealed region must not be shareable";
  auto* bytes = static_cast<uint8_t*>(r.base);
  for (size_t i = 0; i < r.size; ++i) ASSERT_EQ(bytes[i], 0) << i;
  Fill(r, r.size);
  EXPECT_TRUE(HasPattern(r.base, r.size));
  module_->region_release(&r);
  EXPECT_EQ(r.base, nullptr);
  EXPECT_EQ(r.fd, -1);
}

TEST_P(RegionConformance, CreateRefusesSizeZeroAndNullRegion) {
  pmix_gds_region_t r{nullptr, 0, -1, nullptr};
  EXPECT_EQ(module_->region_create(0, &r), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(r.base, nullptr);
  EXPECT_EQ(module_->region_create(16, nullptr), PMIX_ERR_BAD_PARAM);
  EXPECT_NE(module_->region_create(SIZE_MAX, &r), PMIX_SUCCESS);
  EXPECT_EQ(r.base, nullptr);
}

TEST_P(RegionConformance, SealKeepsTheBytesAndGivesADescriptor) {
  pmix_gds_region_t r = SealedRegion(3 * 4096 + 17);
  ASSERT_NE(r.base, nullptr);
  EXPECT_GE(r.fd, 0);
  EXPECT_TRUE(HasPattern(r.base, r.size));
  EXPECT_NE(fcntl(r.fd, F_GETFD) & FD_CLOEXEC, 0) << "descriptors must be close-on-exec";
  EXPECT_EQ(module_->region_seal(&r), PMIX_ERR_BAD_PARAM) << "sealing twice";
  EXPECT_EQ(module_->region_seal(nullptr), PMIX_ERR_BAD_PARAM);
  module_->region_release(&r);
}

TEST_P(RegionConformance, NothingCanWriteASealedRegion) {
  pmix_gds_region_t r = SealedRegion(8192);
  const char byte = 'x';
  EXPECT_EQ(::pwrite(r.fd, &byte, 1, 0), -1);
  EXPECT_EQ(::ftruncate(r.fd, 4096), -1) << "shrink";
  EXPECT_EQ(::ftruncate(r.fd, 16384), -1) << "grow";
  EXPECT_EQ(::fallocate(r.fd, 0, 0, 65536), -1) << "grow by allocation";
  EXPECT_EQ(::mmap(nullptr, r.size, PROT_READ | PROT_WRITE, MAP_SHARED, r.fd, 0), MAP_FAILED);
  EXPECT_NE(::mprotect(r.base, r.size, PROT_READ | PROT_WRITE), 0) << "upgrading the view";
  // No seal can be added or removed any more.
  EXPECT_EQ(::fcntl(r.fd, F_ADD_SEALS, F_SEAL_SEAL), -1);
  // Reopening the file (as another process could through /proc) gives no
  // way around the seals either.
  std::string path = "/proc/self/fd/" + std::to_string(r.fd);
  int again = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (again >= 0) {
    EXPECT_EQ(::pwrite(again, &byte, 1, 0), -1);
    ::close(again);
  }
  // The creator's own view faults on a write (under ASan its SEGV handler
  // reports the fault and exits instead of dying by the signal).
  EXPECT_EXIT(static_cast<volatile uint8_t*>(r.base)[5] = 1, DiedOfSegv, kSegvReport);
  EXPECT_TRUE(HasPattern(r.base, r.size));
  module_->region_release(&r);
}

TEST_P(RegionConformance, AnotherProcessAttachesTheDescriptorItReceives) {
  int sv[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
  // The child exists before the region does: it can only know it by the
  // descriptor it receives.
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(sv[0]);
    size_t size = 0;
    int fd = RecvFd(sv[1], &size);
    int code = 10;
    pmix_gds_region_t r{nullptr, 0, -1, nullptr};
    if (fd < 0) {
      code = 1;
    } else if (module_->region_attach(fd, size, &r) != PMIX_SUCCESS) {
      code = 2;
    } else if (r.size != size || !HasPattern(r.base, r.size)) {
      code = 3;
    } else if (::mprotect(r.base, r.size, PROT_READ | PROT_WRITE) == 0) {
      code = 4;
    } else {
      module_->region_release(&r);
      code = r.base == nullptr ? 0 : 5;
    }
    ::_exit(code);
  }
  ::close(sv[1]);
  pmix_gds_region_t r = SealedRegion(100000);
  EXPECT_TRUE(SendFd(sv[0], r.fd, r.size));
  ::close(sv[0]);  // a child still waiting (nothing sent) sees the end
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1 no fd, 2 attach failed, 3 bytes differ, 4 writable, "
                                       "5 not released";
  module_->region_release(&r);
}

TEST_P(RegionConformance, AttachInTheSameProcessSharesTheBytes) {
  pmix_gds_region_t made = SealedRegion(5000);
  pmix_gds_region_t seen{nullptr, 0, -1, nullptr};
  ASSERT_EQ(module_->region_attach(::dup(made.fd), made.size, &seen), PMIX_SUCCESS);
  EXPECT_EQ(seen.size, made.size);
  EXPECT_EQ(std::memcmp(seen.base, made.base, made.size), 0);
  module_->region_release(&seen);
  module_->region_release(&made);
}

// A descriptor that is not a sealed region of the announced size is
// refused, and closed (ownership passed to the call).
TEST_P(RegionConformance, AttachRefusesWhatIsNotASealedRegionOfThatSize) {
  std::vector<std::pair<std::string, int>> wrong;
  int unsealed = ::memfd_create("unsealed", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  ASSERT_GE(unsealed, 0);
  ASSERT_EQ(::ftruncate(unsealed, 4096), 0);
  wrong.emplace_back("an unsealed memfd", unsealed);
  int write_only = ::memfd_create("write-sealed", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  ASSERT_EQ(::ftruncate(write_only, 4096), 0);
  ASSERT_EQ(::fcntl(write_only, F_ADD_SEALS, F_SEAL_WRITE), 0);
  wrong.emplace_back("a memfd that may still grow and shrink", write_only);
  int no_sealing = ::memfd_create("no-sealing", MFD_CLOEXEC);
  ASSERT_EQ(::ftruncate(no_sealing, 4096), 0);
  wrong.emplace_back("a memfd that cannot be sealed", no_sealing);
  FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  int regular = ::dup(::fileno(file));
  std::fclose(file);
  ASSERT_EQ(::ftruncate(regular, 4096), 0);
  wrong.emplace_back("a regular file", regular);
  int pipefd[2];
  ASSERT_EQ(::pipe2(pipefd, O_CLOEXEC), 0);
  ::close(pipefd[1]);
  wrong.emplace_back("a pipe", pipefd[0]);
  wrong.emplace_back("/dev/null", ::open("/dev/null", O_RDONLY | O_CLOEXEC));
  for (auto& [what, fd] : wrong) {
    ASSERT_GE(fd, 0) << what;
    size_t before = OpenFdCount();
    pmix_gds_region_t r{nullptr, 0, -1, nullptr};
    EXPECT_EQ(module_->region_attach(fd, 4096, &r), PMIX_ERR_BAD_PARAM) << what;
    EXPECT_EQ(r.base, nullptr) << what;
    EXPECT_EQ(OpenFdCount(), before - 1) << what << " was not closed";
  }
  pmix_gds_region_t made = SealedRegion(4096);
  for (size_t size : {size_t{4095}, size_t{4097}, size_t{8192}, size_t{0}}) {
    pmix_gds_region_t r{nullptr, 0, -1, nullptr};
    EXPECT_EQ(module_->region_attach(::dup(made.fd), size, &r), PMIX_ERR_BAD_PARAM) << size;
    EXPECT_EQ(r.base, nullptr);
  }
  pmix_gds_region_t r{nullptr, 0, -1, nullptr};
  EXPECT_EQ(module_->region_attach(-1, 4096, &r), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(module_->region_attach(::dup(made.fd), 4096, nullptr), PMIX_ERR_BAD_PARAM);
  module_->region_release(&made);
}

TEST_P(RegionConformance, ReleaseOfAnythingLeavesNothing) {
  pmix_gds_region_t zero{nullptr, 0, -1, nullptr};
  module_->region_release(&zero);  // a no-op
  module_->region_release(nullptr);
  for (int i = 0; i < 50; ++i) {
    pmix_gds_region_t unsealed{nullptr, 0, -1, nullptr};
    ASSERT_EQ(module_->region_create(4096 * (i + 1), &unsealed), PMIX_SUCCESS);
    module_->region_release(&unsealed);
    pmix_gds_region_t sealed = SealedRegion(100 + i);
    pmix_gds_region_t attached{nullptr, 0, -1, nullptr};
    ASSERT_EQ(module_->region_attach(::dup(sealed.fd), sealed.size, &attached), PMIX_SUCCESS);
    module_->region_release(&sealed);
    EXPECT_TRUE(HasPattern(attached.base, attached.size)) << "outlives its maker";
    module_->region_release(&attached);
  }
}

TEST_P(RegionConformance, LargeRegionsCostNothingUntilTouched) {
  pmix_gds_region_t r{nullptr, 0, -1, nullptr};
  ASSERT_EQ(module_->region_create(size_t{1} << 28, &r), PMIX_SUCCESS);
  static_cast<uint8_t*>(r.base)[(size_t{1} << 28) - 1] = 7;
  ASSERT_EQ(module_->region_seal(&r), PMIX_SUCCESS);
  EXPECT_EQ(static_cast<const uint8_t*>(r.base)[(size_t{1} << 28) - 1], 7);
  module_->region_release(&r);
}

// Publishing (gds.h region_publish): the maker keeps writing through its
// mapping; another process attaches the descriptor read-only
// (region_attach_published) and sees what was written before and after;
// nobody else can write, grow or shrink it; plain region_attach (which
// promises bytes that never change) refuses it.
TEST_P(RegionConformance, APublishedRegionIsWrittenByItsMakerOnly) {
  if (module_->region_publish == nullptr) GTEST_SKIP() << "the module does not publish regions";
  pmix_gds_region_t r{nullptr, 0, -1, nullptr};
  ASSERT_EQ(module_->region_create(3 * 4096, &r), PMIX_SUCCESS);
  static_cast<uint8_t*>(r.base)[0] = 1;
  pmix_status_t rc = module_->region_publish(&r);
  if (rc != PMIX_SUCCESS) {
    module_->region_release(&r);
    GTEST_SKIP() << "this kernel cannot publish regions";
  }
  ASSERT_GE(r.fd, 0);
  EXPECT_NE(fcntl(r.fd, F_GETFD) & FD_CLOEXEC, 0);
  EXPECT_EQ(module_->region_publish(&r), PMIX_ERR_BAD_PARAM) << "publishing twice";
  pmix_gds_region_t reader{nullptr, 0, -1, nullptr};
  ASSERT_EQ(module_->region_attach_published(::dup(r.fd), r.size, &reader), PMIX_SUCCESS);
  EXPECT_EQ(static_cast<const uint8_t*>(reader.base)[0], 1);
  static_cast<uint8_t*>(r.base)[5000] = 7;  // the maker goes on writing
  EXPECT_EQ(static_cast<const volatile uint8_t*>(reader.base)[5000], 7) << "the reader sees it";
  const char byte = 'x';
  EXPECT_EQ(::pwrite(r.fd, &byte, 1, 0), -1);
  EXPECT_EQ(::ftruncate(r.fd, 4096), -1) << "shrink";
  EXPECT_EQ(::ftruncate(r.fd, 16384), -1) << "grow";
  EXPECT_EQ(::mmap(nullptr, r.size, PROT_READ | PROT_WRITE, MAP_SHARED, r.fd, 0), MAP_FAILED);
  EXPECT_NE(::mprotect(reader.base, reader.size, PROT_READ | PROT_WRITE), 0) << "upgrading the view";
  EXPECT_EQ(::fcntl(r.fd, F_ADD_SEALS, F_SEAL_SEAL), -1);
  pmix_gds_region_t strict{nullptr, 0, -1, nullptr};
  EXPECT_EQ(module_->region_attach(::dup(r.fd), r.size, &strict), PMIX_ERR_BAD_PARAM)
      << "region_attach wants bytes that never change";
  pmix_gds_region_t wrong{nullptr, 0, -1, nullptr};
  EXPECT_EQ(module_->region_attach_published(::dup(r.fd), r.size - 1, &wrong), PMIX_ERR_BAD_PARAM);
  // A sealed region is accepted too; an unsealed memfd is not.
  pmix_gds_region_t sealed = SealedRegion(4096), also{nullptr, 0, -1, nullptr};
  EXPECT_EQ(module_->region_attach_published(::dup(sealed.fd), sealed.size, &also), PMIX_SUCCESS);
  module_->region_release(&also);
  module_->region_release(&sealed);
  int unsealed = ::memfd_create("unsealed", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  ASSERT_GE(unsealed, 0);
  ASSERT_EQ(::ftruncate(unsealed, 4096), 0);
  EXPECT_EQ(module_->region_attach_published(unsealed, 4096, &wrong), PMIX_ERR_BAD_PARAM);
  module_->region_release(&reader);
  module_->region_release(&r);
  EXPECT_EQ(r.base, nullptr);
  EXPECT_EQ(r.fd, -1);
}

INSTANTIATE_TEST_SUITE_P(Modules, RegionConformance, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace pmix::gds::test
