// One pull registration's output (src/iof/iof_sink.h).
#include "src/iof/iof_sink.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include "pmix.h"

namespace pmix::iof {
namespace {

pmix_proc_t P(const char* ns, pmix_rank_t rank) {
  pmix_proc_t p;
  PMIx_Load_procid(&p, ns, rank);
  return p;
}

struct Got {
  size_t id;
  pmix_iof_channel_t channel;
  pmix_rank_t rank;
  std::string data;
  bool complete;
};
std::vector<Got> g_got;

void Collect(size_t id, pmix_iof_channel_t channel, pmix_proc_t* source, pmix_byte_object_t* bo,
             pmix_info_t info[], size_t ninfo) {
  bool complete = false;
  for (size_t i = 0; i < ninfo; ++i)
    if (PMIX_CHECK_KEY(&info[i], PMIX_IOF_COMPLETE)) complete = true;
  g_got.push_back({id, channel, source->rank, std::string(bo->bytes ? bo->bytes : "", bo->size), complete});
}

// A temporary file standing in for stdout or stderr.
std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Capture {
  Capture() {
    char templ[] = "/tmp/iof-sink-XXXXXX";
    fd = ::mkstemp(templ);
    path = templ;
  }
  ~Capture() {
    ::close(fd);
    ::unlink(path.c_str());
  }
  std::string Text() const { return ReadFile(path); }
  int fd;
  std::string path;
};

// A private directory under /tmp, removed with what is in it.
struct ScratchDir {
  ScratchDir() {
    char templ[] = "/tmp/iof-files-XXXXXX";
    if (::mkdtemp(templ) != nullptr) path = templ;
  }
  ~ScratchDir() {
    if (path.empty()) return;
    std::string cmd = "rm -rf '" + path + "'";
    (void)std::system(cmd.c_str());
  }
  std::string path;
};

pmix_info_t Complete() {
  pmix_info_t i;
  bool yes = true;
  PMIx_Info_load(&i, PMIX_IOF_COMPLETE, &yes, PMIX_BOOL);
  return i;
}

TEST(IofSink, WithoutCallbackWritesTaggedWholeLinesToTheConsole) {
  Capture out, err;
  PullOptions o;
  o.local_output = true;
  o.format.tag = true;
  Sink sink(o, nullptr, 0, out.fd, err.fd);
  sink.Deliver(P("job", 1), PMIX_FWD_STDOUT_CHANNEL, "hel", {});
  EXPECT_EQ(out.Text(), "");  // the line is not finished
  sink.Deliver(P("job", 1), PMIX_FWD_STDOUT_CHANNEL, "lo\nwor", {});
  sink.Deliver(P("job", 0), PMIX_FWD_STDERR_CHANNEL, "oops\n", {});
  pmix_info_t done = Complete();
  sink.Deliver(P("job", 1), PMIX_FWD_STDOUT_CHANNEL, "", std::span<const pmix_info_t>(&done, 1));
  PMIx_Info_destruct(&done);
  EXPECT_EQ(out.Text(), "[job,1]<stdout>: hello\n[job,1]<stdout>: wor");
  EXPECT_EQ(err.Text(), "[job,0]<stderr>: oops\n");
}

TEST(IofSink, MergeSendsStderrToStdoutAndFlushEndsUnfinishedLines) {
  Capture out, err;
  PullOptions o;
  o.local_output = true;
  o.merge = true;
  Sink sink(o, nullptr, 0, out.fd, err.fd);
  sink.Deliver(P("j", 0), PMIX_FWD_STDERR_CHANNEL, "e1\n", {});
  sink.Deliver(P("j", 0), PMIX_FWD_STDOUT_CHANNEL, "o1", {});
  sink.Flush();
  EXPECT_EQ(out.Text(), "e1\no1");
  EXPECT_EQ(err.Text(), "");
}

// A stream's unfinished last line is not glued to the next stream's line
// on the same file (tools.sh iof-merge: "out 0 2" without its newline, its
// end, then "err 0 2\n" came as "out 0 2err 0 2"); alone, or followed by
// more of the same stream, it stays as the job wrote it.
TEST(IofSink, AnUnfinishedLineIsEndedOnlyWhenAnotherStreamFollowsIt) {
  Capture out, err;
  PullOptions o;
  o.local_output = true;
  o.merge = true;
  Sink sink(o, nullptr, 0, out.fd, err.fd);
  pmix_info_t done = Complete();
  std::span<const pmix_info_t> end(&done, 1);
  sink.Deliver(P("j", 0), PMIX_FWD_STDOUT_CHANNEL, "out 0 1\nout 0 2", {});
  sink.Deliver(P("j", 0), PMIX_FWD_STDERR_CHANNEL, "err 0 1\n", {});
  sink.Deliver(P("j", 0), PMIX_FWD_STDOUT_CHANNEL, "", end);
  sink.Deliver(P("j", 0), PMIX_FWD_STDERR_CHANNEL, "err 0 2\n", {});
  sink.Deliver(P("j", 0), PMIX_FWD_STDERR_CHANNEL, "", end);
  EXPECT_EQ(out.Text(), "out 0 1\nerr 0 1\nout 0 2\nerr 0 2\n");
  // another rank on stdout (no merge), and a file with merge
  Capture out2, err2;
  PullOptions r;
  r.local_output = true;
  Sink ranks(r, nullptr, 0, out2.fd, err2.fd);
  ranks.Deliver(P("j", 0), PMIX_FWD_STDOUT_CHANNEL, "a", end);
  ranks.Deliver(P("j", 1), PMIX_FWD_STDOUT_CHANNEL, "b", end);
  EXPECT_EQ(out2.Text(), "a\nb");
  ScratchDir scratch;
  ASSERT_FALSE(scratch.path.empty());
  PullOptions f;
  f.directory = scratch.path;
  f.merge = true;
  {
    Sink files(f, nullptr, 0, out2.fd, err2.fd);
    files.Deliver(P("ns", 0), PMIX_FWD_STDOUT_CHANNEL, "o", end);
    files.Deliver(P("ns", 0), PMIX_FWD_STDERR_CHANNEL, "e", end);
  }
  EXPECT_EQ(ReadFile(scratch.path + "/ns/rank.0/stdout"), "o\ne");
  // raw output: chunks as they came, nothing added
  Capture out3, err3;
  PullOptions w = o;
  w.format.raw = true;
  Sink raw(w, nullptr, 0, out3.fd, err3.fd);
  raw.Deliver(P("j", 0), PMIX_FWD_STDOUT_CHANNEL, "x", {});
  raw.Deliver(P("j", 0), PMIX_FWD_STDERR_CHANNEL, "y\n", {});
  EXPECT_EQ(out3.Text(), "xy\n");
  PMIx_Info_destruct(&done);
}

TEST(IofSink, CallbackGetsRawChunksInOrderAndTheEndOfTheStream) {
  g_got.clear();
  Capture out, err;
  PullOptions o;  // local_output off: a callback was given
  o.format.tag = true;
  Sink sink(o, Collect, 7, out.fd, err.fd);
  sink.Deliver(P("j", 2), PMIX_FWD_STDOUT_CHANNEL, "a", {});
  sink.Deliver(P("j", 2), PMIX_FWD_STDOUT_CHANNEL, "b\n", {});
  pmix_info_t done = Complete();
  sink.Deliver(P("j", 2), PMIX_FWD_STDOUT_CHANNEL, "", std::span<const pmix_info_t>(&done, 1));
  PMIx_Info_destruct(&done);
  ASSERT_EQ(g_got.size(), 3u);
  EXPECT_EQ(g_got[0].data, "a");
  EXPECT_EQ(g_got[1].data, "b\n");
  EXPECT_EQ(g_got[2].data, "");
  EXPECT_TRUE(g_got[2].complete);
  EXPECT_EQ(g_got[0].id, 7u);
  EXPECT_EQ(out.Text(), "");  // no console copy without PMIX_IOF_LOCAL_OUTPUT
}

TEST(IofSink, BufferingSizeGathersUntilFullAndFlushEmptiesIt) {
  g_got.clear();
  PullOptions o;
  o.buffer_size = 5;
  Sink sink(o, Collect, 1);
  sink.Deliver(P("j", 0), PMIX_FWD_STDOUT_CHANNEL, "ab", {});
  sink.Deliver(P("j", 0), PMIX_FWD_STDOUT_CHANNEL, "cd", {});
  EXPECT_TRUE(g_got.empty());
  sink.Deliver(P("j", 0), PMIX_FWD_STDOUT_CHANNEL, "efg", {});
  ASSERT_EQ(g_got.size(), 1u);
  EXPECT_EQ(g_got[0].data, "abcdefg");
  sink.Deliver(P("j", 0), PMIX_FWD_STDOUT_CHANNEL, "h", {});
  sink.Flush();
  ASSERT_EQ(g_got.size(), 2u);
  EXPECT_EQ(g_got[1].data, "h");
  PullOptions timed;
  timed.buffer_time = std::chrono::seconds(1);
  Sink later(timed, Collect, 2);
  EXPECT_FALSE(later.WantsTimer());
  later.Deliver(P("j", 0), PMIX_FWD_STDOUT_CHANNEL, "x", {});
  EXPECT_TRUE(later.WantsTimer());
}

TEST(IofSink, FilesPerRankAndStreamFileOnlyAndDirectory) {
  ScratchDir scratch;
  ASSERT_FALSE(scratch.path.empty());
  const std::string& dir = scratch.path;
  Capture out, err;
  PullOptions o;
  o.local_output = true;
  o.file = dir + "/out";
  o.file_only = true;
  {
    Sink sink(o, nullptr, 0, out.fd, err.fd);
    sink.Deliver(P("ns", 3), PMIX_FWD_STDOUT_CHANNEL, "x\n", {});
    sink.Deliver(P("ns", 3), PMIX_FWD_STDERR_CHANNEL, "y\n", {});
  }
  EXPECT_EQ(ReadFile(dir + "/out.ns.3.stdout"), "x\n");
  EXPECT_EQ(ReadFile(dir + "/out.ns.3.stderr"), "y\n");
  EXPECT_EQ(out.Text(), "");
  PullOptions d;
  d.local_output = true;
  d.directory = dir + "/tree";
  d.merge = true;
  {
    Sink sink(d, nullptr, 0, out.fd, err.fd);
    sink.Deliver(P("ns", 0), PMIX_FWD_STDOUT_CHANNEL, "o\n", {});
    sink.Deliver(P("ns", 0), PMIX_FWD_STDERR_CHANNEL, "e\n", {});
  }
  EXPECT_EQ(ReadFile(dir + "/tree/ns/rank.0/stdout"), "o\ne\n");
  EXPECT_EQ(out.Text(), "o\ne\n");  // the console copy stays without FILE_ONLY
  PullOptions pat;
  pat.local_output = false;
  pat.file = dir + "/p-%n-%r";
  pat.file_pattern = true;
  {
    Sink sink(pat, nullptr, 0, out.fd, err.fd);
    sink.Deliver(P("nn", 5), PMIX_FWD_STDOUT_CHANNEL, "z\n", {});
  }
  EXPECT_EQ(ReadFile(dir + "/p-nn-5.stdout"), "z\n");
}

// Output files are the user's alone (0600, directories 0700), and a link
// someone planted where the sink writes is not followed: the file it
// points to is left alone and the output goes to the console instead.
TEST(IofSink, FilesArePrivateAndPlantedLinksAreNotFollowed) {
  ScratchDir scratch;
  ASSERT_FALSE(scratch.path.empty());
  const std::string& dir = scratch.path;
  mode_t old_mask = ::umask(0);
  std::string victim = dir + "/victim";
  {
    std::ofstream v(victim);
    v << "keep\n";
  }
  ASSERT_EQ(::symlink(victim.c_str(), (dir + "/out.ns.1.stdout").c_str()), 0);
  ASSERT_EQ(::mkdir((dir + "/tree").c_str(), 0700), 0);
  ASSERT_EQ(::symlink(dir.c_str(), (dir + "/tree/ns").c_str()), 0);
  Capture out, err;
  PullOptions f;
  f.local_output = true;
  f.file = dir + "/out";
  f.file_only = true;
  {
    Sink sink(f, nullptr, 0, out.fd, err.fd);
    sink.Deliver(P("ns", 1), PMIX_FWD_STDOUT_CHANNEL, "a\n", {});  // planted link
    sink.Deliver(P("ns", 2), PMIX_FWD_STDOUT_CHANNEL, "b\n", {});
  }
  PullOptions d;
  d.local_output = true;
  d.directory = dir + "/tree";
  d.file_only = true;
  {
    Sink sink(d, nullptr, 0, out.fd, err.fd);
    sink.Deliver(P("ns", 0), PMIX_FWD_STDOUT_CHANNEL, "c\n", {});  // tree/ns is a link
    sink.Deliver(P("other", 0), PMIX_FWD_STDOUT_CHANNEL, "d\n", {});
  }
  ::umask(old_mask);
  EXPECT_EQ(ReadFile(victim), "keep\n") << "the output went through the planted link";
  struct stat st {};
  EXPECT_NE(::lstat((dir + "/rank.0").c_str(), &st), 0) << "a directory made through tree/ns";
  ASSERT_EQ(::lstat((dir + "/out.ns.2.stdout").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  ASSERT_EQ(::lstat((dir + "/tree/other").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0700u);
  ASSERT_EQ(::lstat((dir + "/tree/other/rank.0/stdout").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  // What could not go to a file went to the console.
  EXPECT_EQ(out.Text(), "a\nc\n");
}

}  // namespace
}  // namespace pmix::iof
