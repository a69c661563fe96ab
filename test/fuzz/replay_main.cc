// A main() for the fuzz targets where libFuzzer is not available (every
// gcc build): runs LLVMFuzzerTestOneInput once on every file named, and on
// every file of every directory named (the corpora in test/fuzz/corpus).
// A crash or abort is the failure; otherwise it prints how many inputs ran.
#include <dirent.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace {

size_t RunFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    return 0;
  }
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
  return 1;
}

size_t Run(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    std::fprintf(stderr, "no such file: %s\n", path.c_str());
    return 0;
  }
  if (!S_ISDIR(st.st_mode)) return RunFile(path);
  size_t n = 0;
  if (DIR* d = opendir(path.c_str())) {
    std::vector<std::string> names;
    while (dirent* e = readdir(d)) {
      if (e->d_name[0] != '.') names.emplace_back(e->d_name);
    }
    closedir(d);
    for (const auto& name : names) n += Run(path + "/" + name);
  }
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize != nullptr) LLVMFuzzerInitialize(&argc, &argv);
  size_t n = 0;
  for (int i = 1; i < argc; ++i) n += Run(argv[i]);
  std::printf("%zu inputs replayed\n", n);
  return n > 0 ? 0 : 1;
}
