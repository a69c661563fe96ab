// The usock component through its descriptor: tmpdir safety, socket file
// lifecycle, connect/accept and frame exchange.
#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "mca/ptl/base/fd.h"
#include "mca/ptl/base/frame_io.h"
#include "pmix/mca/ptl.h"
#include "test/unit/ptl/ptl_test_util.h"

extern "C" pmix_mca_component_t pmix_mca_ptl_usock_component;

namespace pmix::ptl::test {
namespace {

const pmix_ptl_module_t* Usock() { return OpenModule(pmix_mca_ptl_usock_component, nullptr); }

struct Listening {
  const pmix_ptl_module_t* module = nullptr;
  int fd = -1;
  std::string uri;
  ~Listening() {
    if (fd >= 0) module->unlisten(fd, uri.c_str());
  }
};

pmix_status_t ListenIn(const std::string& dir, Listening* out) {
  out->module = Usock();
  pmix_info_t info = StringInfo(PMIX_SERVER_TMPDIR, dir.c_str());
  char* uri = nullptr;
  pmix_status_t rc = out->module->listen(&info, 1, &out->fd, &uri);
  if (rc == PMIX_SUCCESS) {
    out->uri = uri;
    std::free(uri);
  }
  return rc;
}

std::string PathOf(const std::string& uri) { return uri.substr(std::strlen("usock:")); }

TEST(Usock, ListensConnectsAcceptsAndExchangesFrames) {
  TempDir tmp;
  std::string dir = tmp.Sub("server");  // absent: created 0700
  Listening listening;
  ASSERT_EQ(ListenIn(dir, &listening), PMIX_SUCCESS);
  struct stat st;
  ASSERT_EQ(::lstat(dir.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  ASSERT_EQ(listening.uri.rfind("usock:" + dir + "/pmix-", 0), 0u) << listening.uri;
  ASSERT_EQ(::lstat(PathOf(listening.uri).c_str(), &st), 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
  EXPECT_TRUE(IsCloexec(listening.fd));
  EXPECT_TRUE(IsNonblocking(listening.fd));

  int raw = -1;
  ASSERT_EQ(listening.module->connect(listening.uri.c_str(), 5000, &raw), PMIX_SUCCESS);
  Fd client(raw);
  EXPECT_TRUE(IsCloexec(client.get()) && IsNonblocking(client.get()));
  ASSERT_TRUE(WaitReadable(listening.fd));
  ASSERT_EQ(listening.module->accept(listening.fd, &raw), PMIX_SUCCESS);
  Fd server(raw);
  EXPECT_TRUE(IsCloexec(server.get()) && IsNonblocking(server.get()));
  ExchangeFrames(client.get(), server.get());
}

TEST(Usock, AcceptWithNothingPendingWouldBlock) {
  TempDir tmp;
  Listening listening;
  ASSERT_EQ(ListenIn(tmp.path(), &listening), PMIX_SUCCESS);
  int fd = -1;
  EXPECT_EQ(listening.module->accept(listening.fd, &fd), PMIX_ERR_WOULD_BLOCK);
  EXPECT_EQ(fd, -1);
}

TEST(Usock, EachListenGetsItsOwnSocket) {
  TempDir tmp;
  Listening first, second;
  ASSERT_EQ(ListenIn(tmp.path(), &first), PMIX_SUCCESS);
  ASSERT_EQ(ListenIn(tmp.path() + "/", &second), PMIX_SUCCESS);
  EXPECT_NE(first.uri, second.uri);
}

TEST(Usock, UnlistenRemovesTheSocketFile) {
  TempDir tmp;
  Listening listening;
  ASSERT_EQ(ListenIn(tmp.path(), &listening), PMIX_SUCCESS);
  std::string path = PathOf(listening.uri);
  listening.module->unlisten(listening.fd, listening.uri.c_str());
  listening.fd = -1;
  EXPECT_NE(::access(path.c_str(), F_OK), 0);
  int fd = -1;
  EXPECT_EQ(listening.module->connect(listening.uri.c_str(), 5000, &fd), PMIX_ERR_UNREACH);
}

TEST(Usock, UnlistenLeavesAFileThatIsNotOurSocket) {
  TempDir tmp;
  Listening listening;
  ASSERT_EQ(ListenIn(tmp.path(), &listening), PMIX_SUCCESS);
  std::string path = PathOf(listening.uri);
  ASSERT_EQ(::unlink(path.c_str()), 0);
  std::ofstream(path) << "not a socket";
  listening.module->unlisten(listening.fd, listening.uri.c_str());
  listening.fd = -1;
  EXPECT_EQ(::access(path.c_str(), F_OK), 0);
}

// Sets the umask for its lifetime.
class Umask {
 public:
  explicit Umask(mode_t mask) : saved_(::umask(mask)) {}
  ~Umask() { ::umask(saved_); }

 private:
  mode_t saved_;
};

mode_t ModeOf(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : 07777;
}

// The socket file is 0600 whatever the umask: a umask of 0 used to leave
// it 0777 (anyone reaching the directory could connect), and a tmpdir the
// host made is created 0700 either way.
TEST(Usock, SocketFileIsOwnerOnlyWhateverTheUmask) {
  for (mode_t mask : {mode_t{0}, mode_t{022}, mode_t{077}}) {
    Umask umask_for_test(mask);
    TempDir tmp;
    std::string dir = tmp.Sub("server");
    Listening listening;
    ASSERT_EQ(ListenIn(dir, &listening), PMIX_SUCCESS) << std::oct << mask;
    EXPECT_EQ(ModeOf(dir), 0700u) << "umask " << std::oct << mask;
    EXPECT_EQ(ModeOf(PathOf(listening.uri)), 0600u) << "umask " << std::oct << mask;
    int raw = -1;
    ASSERT_EQ(listening.module->connect(listening.uri.c_str(), 5000, &raw), PMIX_SUCCESS);
    ::close(raw);
  }
}

// PMIX_SOCKET_MODE sets the mode exactly (also wider than the umask
// allows); a value beyond the permission bits is refused.
TEST(Usock, SocketModeDirectiveSetsTheModeExactly) {
  Umask umask_for_test(077);
  const pmix_ptl_module_t* usock = Usock();
  for (int mode : {0660, 0600, 0700}) {
    TempDir tmp;
    pmix_info_t info[2] = {StringInfo(PMIX_SERVER_TMPDIR, tmp.path().c_str()),
                           IntInfo(PMIX_SOCKET_MODE, 0)};
    info[1].value.type = PMIX_UINT32;
    info[1].value.data.uint32 = static_cast<uint32_t>(mode);
    Listening listening;
    listening.module = usock;
    char* uri = nullptr;
    ASSERT_EQ(usock->listen(info, 2, &listening.fd, &uri), PMIX_SUCCESS);
    listening.uri = uri;
    std::free(uri);
    EXPECT_EQ(ModeOf(PathOf(listening.uri)), static_cast<mode_t>(mode)) << std::oct << mode;
  }
  TempDir tmp;
  pmix_info_t info[2] = {StringInfo(PMIX_SERVER_TMPDIR, tmp.path().c_str()),
                         IntInfo(PMIX_SOCKET_MODE, 04755)};
  int fd = -1;
  char* uri = nullptr;
  EXPECT_EQ(usock->listen(info, 2, &fd, &uri), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(fd, -1);
  EXPECT_EQ(uri, nullptr);
}

enum class Unsafe { kSymlink, kWorldWritable, kGroupWritable, kRegularFile };

TEST(Usock, RefusesUnsafeTmpdirs) {
  const struct {
    Unsafe kind;
    const char* what;
  } kCases[] = {{Unsafe::kSymlink, "symlink"},
                {Unsafe::kWorldWritable, "0777 dir"},
                {Unsafe::kGroupWritable, "0770 dir"},
                {Unsafe::kRegularFile, "file"}};
  for (const auto& c : kCases) {
    TempDir tmp;
    std::string dir = tmp.Sub("d");
    switch (c.kind) {
      case Unsafe::kSymlink:
        ASSERT_EQ(::mkdir(tmp.Sub("real").c_str(), 0700), 0);
        ASSERT_EQ(::symlink(tmp.Sub("real").c_str(), dir.c_str()), 0);
        break;
      case Unsafe::kWorldWritable:
      case Unsafe::kGroupWritable:
        ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
        ASSERT_EQ(::chmod(dir.c_str(), c.kind == Unsafe::kWorldWritable ? 0777 : 0770), 0);
        break;
      case Unsafe::kRegularFile:
        std::ofstream(dir) << "x";
        break;
    }
    Listening listening;
    EXPECT_EQ(ListenIn(dir, &listening), PMIX_ERR_NO_PERMISSIONS) << c.what;
    EXPECT_EQ(listening.fd, -1) << c.what;
  }
}

TEST(Usock, RequiresAnAbsoluteTmpdir) {
  Listening relative, none;
  EXPECT_EQ(ListenIn("relative/dir", &relative), PMIX_ERR_BAD_PARAM);
  none.module = Usock();
  char* uri = nullptr;
  EXPECT_EQ(none.module->listen(nullptr, 0, &none.fd, &uri), PMIX_ERR_BAD_PARAM);
  EXPECT_EQ(uri, nullptr);
}

TEST(Usock, RejectsASocketPathTooLongForSunPath) {
  TempDir tmp;
  std::string dir = tmp.Sub(std::string(sizeof(sockaddr_un{}.sun_path), 'a'));
  Listening listening;
  EXPECT_EQ(ListenIn(dir, &listening), PMIX_ERR_BAD_PARAM);
  EXPECT_NE(::access(dir.c_str(), F_OK), 0) << "nothing created for a refused path";
  int fd = -1;
  EXPECT_EQ(Usock()->connect(("usock:" + dir + "/x").c_str(), 100, &fd), PMIX_ERR_BAD_PARAM);
}

TEST(Usock, ConnectToAMissingSocketFailsFast) {
  TempDir tmp;
  int fd = -1;
  EXPECT_EQ(Usock()->connect(("usock:" + tmp.Sub("nobody")).c_str(), 60000, &fd), PMIX_ERR_UNREACH);
  EXPECT_EQ(fd, -1);
}

TEST(Usock, ConnectToADeadSocketFailsFast) {
  TempDir tmp;
  std::string path = tmp.Sub("dead");
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strcpy(addr.sun_path, path.c_str());
  {
    Fd bound(::socket(AF_UNIX, SOCK_STREAM, 0));
    ASSERT_EQ(::bind(bound.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  }  // closed, never listened: the file stays, nobody answers
  int fd = -1;
  EXPECT_EQ(Usock()->connect(("usock:" + path).c_str(), 60000, &fd), PMIX_ERR_UNREACH);
}

TEST(Usock, DeclinesOtherSchemes) {
  int fd = -1;
  for (const char* uri : {"tcp4://127.0.0.1:5", "usock", "", "USOCK:/tmp/x"}) {
    EXPECT_EQ(Usock()->connect(uri, 100, &fd), PMIX_ERR_NOT_SUPPORTED) << uri;
  }
  EXPECT_EQ(Usock()->connect(nullptr, 100, &fd), PMIX_ERR_NOT_SUPPORTED);
}

}  // namespace
}  // namespace pmix::ptl::test

namespace pmix::ptl::test {
namespace {

// The name after "pmix-<pid>-<n>" is "pmix-<pid>-<n+1>" in this process.
std::string NextName(const std::string& uri) {
  size_t dash = uri.rfind('-');
  return uri.substr(uri.rfind('/') + 1, dash - uri.rfind('/')) +
         std::to_string(std::stoul(uri.substr(dash + 1)) + 1);
}

// A socket file of ours at path that nobody listens on (its socket closed),
// as a killed server leaves it.
bool LeaveStaleSocket(const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.size() >= sizeof addr.sun_path) return false;
  std::strcpy(addr.sun_path, path.c_str());
  Fd bound(::socket(AF_UNIX, SOCK_STREAM, 0));
  return ::bind(bound.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
}

TEST(Usock, ReplacesOnlyAStaleSocketOfOurs) {
  TempDir tmp;
  Listening first;
  ASSERT_EQ(ListenIn(tmp.path(), &first), PMIX_SUCCESS);
  // A foreign (non-socket) file where the next socket would go: refused.
  std::string next = tmp.Sub(NextName(first.uri));
  std::ofstream(next) << "precious";
  Listening refused;
  EXPECT_EQ(ListenIn(tmp.path(), &refused), PMIX_ERR_NO_PERMISSIONS);
  EXPECT_EQ(::access(next.c_str(), F_OK), 0);
  // A stale socket of ours there: replaced.
  std::string after = tmp.Sub(NextName("usock:" + next));
  ASSERT_TRUE(LeaveStaleSocket(after));
  Listening replaced;
  ASSERT_EQ(ListenIn(tmp.path(), &replaced), PMIX_SUCCESS);
  EXPECT_EQ(replaced.uri, "usock:" + after);
  int fd = -1;
  ASSERT_EQ(replaced.module->connect(replaced.uri.c_str(), 5000, &fd), PMIX_SUCCESS);
  ::close(fd);
}

}  // namespace
}  // namespace pmix::ptl::test

namespace pmix::ptl::test {
namespace {

TEST(Usock, AMalformedStreamFailsOnlyItsOwnConnection) {
  TempDir tmp;
  Listening listening;
  ASSERT_EQ(ListenIn(tmp.path(), &listening), PMIX_SUCCESS);
  Fd clients[2], servers[2];
  for (int i = 0; i < 2; ++i) {
    int raw = -1;
    ASSERT_EQ(listening.module->connect(listening.uri.c_str(), 5000, &raw), PMIX_SUCCESS);
    clients[i].Reset(raw);
    ASSERT_TRUE(WaitReadable(listening.fd));
    ASSERT_EQ(listening.module->accept(listening.fd, &raw), PMIX_SUCCESS);
    servers[i].Reset(raw);
  }
  const char kJunk[] = "this is not a frame header";
  ASSERT_GT(::send(clients[0].get(), kJunk, sizeof kJunk, MSG_NOSIGNAL), 0);
  FrameReader bad_reader(1024);
  EXPECT_EQ(RecvFrame(servers[0].get(), bad_reader, kWait).status().code(),
            PMIX_ERR_UNPACK_FAILURE);
  servers[0].Reset();  // the server closes that connection only
  ExchangeFrames(clients[1].get(), servers[1].get());
}

// The temporary name "pmix-<pid>-<n>" is bound under: ".~<pid>-<n>".
std::string BoundName(const std::string& name) { return ".~" + name.substr(std::strlen("pmix-")); }

// True when dir holds no dot file (no temporary name left).
bool NoHiddenEntries(const std::string& dir) {
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return false;
  bool none = true;
  while (dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name != "." && name != ".." && name.front() == '.') {
      ADD_FAILURE() << "left in " << dir << ": " << name;
      none = false;
    }
  }
  ::closedir(d);
  return none;
}

// The socket file appears under its name only once it listens: a peer that
// connects the moment it sees a file that is not hidden (inotify here; like
// bad_peer, which takes the first socket it finds that is not a dot file)
// is never refused, and never finds a name that then goes away. Before, the
// file was bound, chmod()ed and only then set listening under its name,
// and such a peer could hit the gap (a gap of microseconds: this loop
// seldom catches it on an idle machine, it was bad_peer.sh under load that
// did); then it was bound as "<name>~", a socket bad_peer could take.
TEST(Usock, TheSocketFileAppearsOnlyWhenItListens) {
  TempDir tmp;
  int watch = ::inotify_init1(IN_CLOEXEC);
  ASSERT_GE(watch, 0);
  Fd watcher(watch);
  ASSERT_GE(::inotify_add_watch(watch, tmp.path().c_str(), IN_CREATE | IN_MOVED_TO), 0);
  for (int round = 0; round < 50; ++round) {
    Listening listening;
    std::string seen;
    std::vector<std::string> hidden;
    std::thread peer([&] {
      // The first name created or moved in that is not hidden: connect to it at once.
      alignas(inotify_event) char buf[4096];
      while (seen.empty()) {
        ssize_t n = ::read(watch, buf, sizeof buf);
        if (n <= 0) return;
        for (char* p = buf; p < buf + n;) {
          auto* ev = reinterpret_cast<inotify_event*>(p);
          std::string name = ev->len > 0 ? ev->name : "";
          if (!name.empty() && name.front() == '.') {
            hidden.push_back(name);
          } else if (seen.empty() && !name.empty()) {
            seen = name;
          }
          p += sizeof(inotify_event) + ev->len;
        }
      }
      int fd = -1;
      pmix_status_t rc = Usock()->connect(("usock:" + tmp.Sub(seen)).c_str(), 5000, &fd);
      EXPECT_EQ(rc, PMIX_SUCCESS) << "round " << round << ": " << seen;
      if (fd >= 0) ::close(fd);
    });
    ASSERT_EQ(ListenIn(tmp.path(), &listening), PMIX_SUCCESS);
    peer.join();
    std::string name = PathOf(listening.uri).substr(tmp.path().size() + 1);
    EXPECT_EQ(seen, name);
    // The only other name was the temporary one, created before the socket's.
    ASSERT_EQ(hidden.size(), 1u) << "round " << round;
    EXPECT_EQ(hidden[0], BoundName(name));
  }
  EXPECT_TRUE(NoHiddenEntries(tmp.path()));
}

// A path of exactly sun_path - 1 bytes listens: the temporary name, shorter
// than the final one, fits wherever that does.
TEST(Usock, ListensAtAPathOfTheLongestLength) {
  TempDir tmp;
  // The socket name is "pmix-<pid>-<n>"; pad the directory so that the
  // whole path takes exactly sun_path - 1 bytes.
  Listening first;
  ASSERT_EQ(ListenIn(tmp.path(), &first), PMIX_SUCCESS);
  std::string next = NextName(first.uri);
  size_t room = sizeof(sockaddr_un{}.sun_path) - 1;
  size_t pad = room - tmp.path().size() - 1 - next.size() - 1;
  ASSERT_LT(pad, room);
  std::string dir = tmp.Sub(std::string(pad, 'd'));
  Listening tight;
  ASSERT_EQ(ListenIn(dir, &tight), PMIX_SUCCESS);
  ASSERT_EQ(PathOf(tight.uri).size(), room) << tight.uri;
  int fd = -1;
  ASSERT_EQ(tight.module->connect(tight.uri.c_str(), 5000, &fd), PMIX_SUCCESS);
  ::close(fd);
  EXPECT_TRUE(NoHiddenEntries(dir));
}

// The temporary name gets the final name's care: a foreign file there fails
// the listen and is kept, and nothing appears under the final name; a
// stale socket of ours there (a server killed before its rename) is
// replaced, and gone once the socket listens.
TEST(Usock, TheTemporaryNameReplacesOnlyAStaleSocketOfOurs) {
  TempDir tmp;
  Listening first;
  ASSERT_EQ(ListenIn(tmp.path(), &first), PMIX_SUCCESS);
  std::string next = NextName(first.uri);
  std::string foreign = tmp.Sub(BoundName(next));
  std::ofstream(foreign) << "precious";
  Listening refused;
  EXPECT_EQ(ListenIn(tmp.path(), &refused), PMIX_ERR_NO_PERMISSIONS);
  EXPECT_EQ(::access(foreign.c_str(), F_OK), 0);
  EXPECT_NE(::access(tmp.Sub(next).c_str(), F_OK), 0);
  ASSERT_EQ(::unlink(foreign.c_str()), 0);

  std::string after = NextName("usock:" + tmp.Sub(next));
  std::string stale = tmp.Sub(BoundName(after));
  ASSERT_TRUE(LeaveStaleSocket(stale));
  Listening replaced;
  ASSERT_EQ(ListenIn(tmp.path(), &replaced), PMIX_SUCCESS);
  EXPECT_EQ(replaced.uri, "usock:" + tmp.Sub(after));
  int fd = -1;
  ASSERT_EQ(replaced.module->connect(replaced.uri.c_str(), 5000, &fd), PMIX_SUCCESS);
  ::close(fd);
  EXPECT_TRUE(NoHiddenEntries(tmp.path()));
}

}  // namespace
}  // namespace pmix::ptl::test
