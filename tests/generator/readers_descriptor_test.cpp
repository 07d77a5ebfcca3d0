// A vector file that VectorReader refuses is closed again (found by tests/fuzz/fuzz_vector_file:
// every refused file kept its descriptor, so a long session of refused files ran out of them).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/readers.hpp"

namespace readers_descriptor_test {
namespace {

namespace fs = std::filesystem;
using ptovec::generator::InputError;
using ptovec::generator::VectorReader;

int OpenDescriptors() {
  int n = 0;
  for (const auto& entry : fs::directory_iterator("/proc/self/fd")) {
    (void)entry;
    ++n;
  }
  return n - 1;  // the listing's own descriptor
}

fs::path WriteFile(const std::string& name, const std::string& bytes) {
  const fs::path folder =
      fs::temp_directory_path() / ("ptovec-readers-fd-" + std::to_string(::getpid()));
  fs::create_directories(folder);
  const fs::path path = folder / name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

TEST(VectorReaderDescriptors, ARefusedFileIsClosedWhateverTheReason) {
  const fs::path files[] = {
      WriteFile("not_a_vector_file.bin", "hello, not a vector file\n"),
      WriteFile("bad_binary_header.bin", std::string("PTOVEC\0B", 8) + std::string(24, '\xff')),
      WriteFile("bad_json_header.json", "{\"format\": \"ptovec-vectors\", \"version\": 99}\n"),
  };
  const int before = OpenDescriptors();
  for (int round = 0; round < 3; ++round) {
    for (const fs::path& path : files) {
      EXPECT_THROW(VectorReader reader(path), InputError) << path;
    }
  }
  EXPECT_EQ(OpenDescriptors(), before);
  fs::remove_all(files[0].parent_path());
}

}  // namespace
}  // namespace readers_descriptor_test
